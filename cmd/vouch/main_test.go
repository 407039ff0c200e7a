package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"vouch": func() int { return run(os.Args, os.Stdout, os.Stderr) },
	}))
}

// TestScripts runs the CLI scenarios under testdata/script. Each script runs
// the real command as a subprocess, so exit codes and output are exactly
// what a user sees.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: false,
		UpdateScripts:       os.Getenv("VOUCH_UPDATE_SCRIPTS") != "",
		Cmds:                scriptCmds,
	})
}
