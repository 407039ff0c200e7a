package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/suggest"
)

// quietUsageErrors makes every command report a usage error (an unknown
// flag, a bad flag value) as one line on stderr and exit 2, as go and
// golangci-lint do. urfave/cli would otherwise print the whole help text
// to stdout, where a script reading the output would take it for a result.
func quietUsageErrors(cmds []*cli.Command, parents string) {
	for _, cmd := range cmds {
		path := strings.TrimSpace(parents + " " + cmd.Name)
		cmd.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
			return fail(exitError, usageError(path, cmd.Flags, err))
		}
		quietUsageErrors(cmd.Subcommands, path)
	}
}

// usageError rewrites urfave/cli's "flag provided but not defined: -fromat"
// as "unknown flag --fromat (did you mean --format?)", pointing at the
// command's help.
func usageError(path string, flags []cli.Flag, err error) error {
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	help := "run 'vouch --help'"
	if path != "" {
		help = fmt.Sprintf("run 'vouch %s --help'", path)
	}
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

// colorFlag is --color, the same on every command that colours text.
func colorFlag() cli.Flag {
	return &cli.StringFlag{Name: "color", Value: "auto", Usage: "colour text output: auto (on a terminal, unless NO_COLOR is set), always or never"}
}

// progressFlag is --progress, on the commands that scan source files.
func progressFlag() cli.Flag {
	return &cli.StringFlag{Name: "progress", Value: "auto", Usage: "a file counter on standard error while scanning: auto (on a terminal, from 2000 files), always or never"}
}

// progress is the counter --progress asks for, drawn on standard error.
func progress(c *cli.Context, label string) (*output.Progress, error) {
	return output.NewProgress(c.String("progress"), c.App.ErrWriter, label)
}

// outputFlag is --output, shared by the commands that write reports.
func outputFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "output", Usage: "also write the report to a file, as `[FORMAT=]FILE` (repeatable; FILE alone takes the format of its extension: .json, .sarif, .xml for junit, .txt); standard output keeps --format"}
}
