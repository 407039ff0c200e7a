package cliapp

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/suggest"
)

// QuietUsageErrors makes every command of app report a usage error (an
// unknown flag, a bad flag value) as one line, passed through wrap (which
// gives it an exit code), as go and golangci-lint do. urfave/cli would
// otherwise print the whole help text to stdout, where a script reading
// the output would take it for a result.
func QuietUsageErrors(app *cli.App, wrap func(error) error) {
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return wrap(UsageError(app.Name, "", app.Flags, err))
	}
	quiet(app.Name, app.Commands, "", wrap)
}

func quiet(prog string, cmds []*cli.Command, parents string, wrap func(error) error) {
	for _, cmd := range cmds {
		path := strings.TrimSpace(parents + " " + cmd.Name)
		cmd.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
			return wrap(UsageError(prog, path, cmd.Flags, err))
		}
		quiet(prog, cmd.Subcommands, path, wrap)
	}
}

// UsageError rewrites urfave/cli's "flag provided but not defined:
// -fromat" as "unknown flag --fromat (did you mean --format?)", pointing
// at the help of prog's command path.
func UsageError(prog, path string, flags []cli.Flag, err error) error {
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	help := fmt.Sprintf("run '%s --help'", strings.TrimSpace(prog+" "+path))
	name, ok := strings.CutPrefix(msg, undefined)
	if !ok {
		return fmt.Errorf("%s; %s", msg, help)
	}
	name = strings.TrimLeft(name, "-")
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	names = append(names, "help")
	hint := ""
	if best, ok := suggest.Closest(name, names); ok {
		hint = fmt.Sprintf(" (did you mean %s?)", dashes(best))
	}
	return fmt.Errorf("unknown flag %s%s; %s", dashes(name), hint, help)
}

// dashes spells a flag as it is typed: -f, --format.
func dashes(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}
