// Command vouch verifies what AI coding agents claim about their work.
//
// Exit codes: 0 pass, 1 fail, 2 error (bad input or a failed evaluation).
package main

import (
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/internal/buildinfo"
	"github.com/vouch-dev/vouch/internal/cliapp"
	"github.com/vouch-dev/vouch/internal/hugeheap"
)

// Exit codes shared by every command (0 is a pass).
const (
	exitFail  = 1
	exitError = 2
)

// version may be set at build time with -ldflags "-X main.version=...";
// without it, buildinfo reads the version the Go toolchain recorded.
var version = "dev"

func main() {
	hugeheap.First()
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

func fail(code int, err error) error { return cliapp.Fail(code, err) }

// run is main without the process exit, so tests can call it.
func run(args []string, stdout, stderr io.Writer) int {
	if h, ok := hookArgs(args); ok {
		// The hook runs on every tool call an agent makes: decide it
		// without building the whole CLI.
		return exitCode(guardHook(h, stdout, stderr), stderr)
	}
	return cliapp.Run(newApp(stdout, stderr), args, stderr, exitError)
}

// exitCode prints err (once) and returns the exit code it carries.
func exitCode(err error, stderr io.Writer) int { return cliapp.Code("vouch", err, stderr, exitError) }

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:    "vouch",
		Usage:   "verify AI agents' claims about their work with datalog",
		Version: buildinfo.Version(version),
		Description: `vouch checks an agent's action envelope (a YAML file of facts about the work it did)
against the repository's rulespec (analysis/rulespec.yaml). The rulespec and the facts are
compiled into one Mangle datalog program and evaluated to a fixed point; the program and an
evaluation trace are written next to the envelope so every verdict can be audited and replayed.

Exit codes: 0 every predicate passed, 1 a predicate failed, 2 bad input or evaluation error.`,
		// Shell completion: the scripts of 'vouch completion' ask for
		// the next words with --generate-bash-completion.
		EnableBashCompletion: true,
		Writer:               stdout,
		ErrWriter:            stderr,
		// Errors are printed once, by run.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands:       commands(),
	}
	cliapp.QuietUsageErrors(app, func(err error) error { return fail(exitError, err) })
	return app
}
