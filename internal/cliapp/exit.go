package cliapp

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/suggest"
)

// Exit carries an exit code, and the error to print (nil for none),
// through urfave/cli, which would otherwise print or exit on its own.
type Exit struct {
	Code int
	Err  error
}

func (e *Exit) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

// Unwrap returns the error printed.
func (e *Exit) Unwrap() error { return e.Err }

// Fail ends a command with code, printing err when it is not nil.
func Fail(code int, err error) error { return &Exit{Code: code, Err: err} }

// Run runs app on args (flags moved ahead of arguments, see FlagsFirst)
// and returns the exit code: the one an *Exit carries, 0 for no error,
// and usage for an unknown command or an error urfave/cli raised itself
// (a flag it could not parse). Errors are printed once to stderr,
// prefixed with the program's name; an unknown command gets a
// did-you-mean.
func Run(app *cli.App, args []string, stderr io.Writer, usage int) int {
	unknown := ""
	app.CommandNotFound = func(_ *cli.Context, name string) { unknown = name }
	err := app.Run(FlagsFirst(app, args))
	if unknown != "" {
		var names []string
		for _, c := range app.Commands {
			names = append(names, c.Name)
		}
		fmt.Fprintf(stderr, "%s: unknown command %q%s; run '%s --help' for the list\n", app.Name, unknown, suggest.Hint(unknown, names), app.Name)
		return usage
	}
	return Code(app.Name, err, stderr, usage)
}

// Code prints err once, prefixed with prog, and returns the exit code
// it carries: 0 for nil, an *Exit's code, usage for any other error.
func Code(prog string, err error, stderr io.Writer, usage int) int {
	if err == nil {
		return 0
	}
	var ex *Exit
	if errors.As(err, &ex) {
		if ex.Err != nil {
			fmt.Fprintln(stderr, prog+": "+ex.Err.Error())
		}
		return ex.Code
	}
	fmt.Fprintln(stderr, prog+": "+err.Error())
	return usage
}
