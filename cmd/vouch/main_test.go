package main

import (
	"os"
	"path/filepath"
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
		Setup: func(env *testscript.Env) error {
			// $REPO is the clone root, for scripts that exercise the
			// files vouch ships there (action.yml, .pre-commit-hooks.yaml).
			repo, err := filepath.Abs("../..")
			env.Setenv("REPO", repo)
			return err
		},
	})
}
