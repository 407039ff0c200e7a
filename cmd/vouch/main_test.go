package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/hookclient"
	"github.com/vouch-dev/vouch/internal/hookd"
)

func TestMain(m *testing.M) {
	// The import cache goes to a directory of the run's own, not the
	// user's; a script's vouch, which runs this same TestMain, keeps the
	// one its script was given.
	if os.Getenv(imports.CacheDirEnv) == "" {
		cache, err := os.MkdirTemp("", "vouch-cache-")
		if err != nil {
			panic(err)
		}
		os.Setenv(imports.CacheDirEnv, cache)
		// Not removed: os.Exit skips deferred calls, and the
		// directory is under the temporary directory.
	}
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"vouch": func() int { return run(os.Args, os.Stdout, os.Stderr) },
		// The lean hook binary (cmd/vouch-guard) and the fast-mode
		// client (cmd/vouch-hook) run these same functions.
		"vouch-guard": func() int {
			return hookd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv, "test")
		},
		"vouch-hook": func() int {
			return hookclient.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		},
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
			env.Setenv(imports.CacheDirEnv, os.Getenv(imports.CacheDirEnv))
			return err
		},
	})
}
