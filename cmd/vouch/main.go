// Command vouch verifies what AI coding agents claim about their work.
//
// Exit codes: 0 pass, 1 fail, 2 error (bad input or a failed evaluation).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/internal/buildinfo"
	"github.com/vouch-dev/vouch/internal/cliapp"
	"github.com/vouch-dev/vouch/suggest"
)

// Exit codes shared by every command.
const (
	exitPass  = 0
	exitFail  = 1
	exitError = 2
)

// version may be set at build time with -ldflags "-X main.version=...";
// without it, buildinfo reads the version the Go toolchain recorded.
var version = "dev"

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// exitError carries an exit code through urfave/cli without it printing or
// exiting on its own.
type exitCodeError struct {
	code int
	err  error
}

func (e *exitCodeError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func fail(code int, err error) error { return &exitCodeError{code: code, err: err} }

// run is main without the process exit, so tests can call it.
func run(args []string, stdout, stderr io.Writer) int {
	if h, ok := hookArgs(args); ok {
		// The hook runs on every tool call an agent makes: decide it
		// without building the whole CLI.
		return exitCode(guardHook(h, stdout, stderr), stderr)
	}
	app := newApp(stdout, stderr)
	unknown := ""
	app.CommandNotFound = func(_ *cli.Context, name string) { unknown = name }
	err := app.Run(cliapp.FlagsFirst(app, args))
	if unknown != "" {
		var names []string
		for _, c := range app.Commands {
			names = append(names, c.Name)
		}
		fmt.Fprintf(stderr, "vouch: unknown command %q%s; run 'vouch --help' for the list\n", unknown, suggest.Hint(unknown, names))
		return exitError
	}
	return exitCode(err, stderr)
}

// exitCode prints err (once) and returns the exit code it carries.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitPass
	}
	var ec *exitCodeError
	if errors.As(err, &ec) {
		if ec.err != nil {
			fmt.Fprintln(stderr, "vouch: "+ec.err.Error())
		}
		return ec.code
	}
	// Flag and usage errors from urfave/cli.
	fmt.Fprintln(stderr, "vouch: "+err.Error())
	return exitError
}

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
