package cliapp

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// FlagsFirst moves a subcommand's flags ahead of its positional arguments,
// so `vouch verify envelope.yaml --format json` works as it does in go,
// conftest and golangci-lint. urfave/cli stops reading flags at the first
// positional argument; without this, a flag written after a path would be
// taken as a second path. Arguments after "--" are left alone.
//
// A completion request (CompleteFlag last) is returned as it is: the flag
// must stay last, where urfave/cli looks for it.
func FlagsFirst(app *cli.App, args []string) []string {
	if len(args) < 3 || args[len(args)-1] == CompleteFlag {
		return args
	}
	cmd, at := findCommand(app.Commands, args[1:])
	if cmd == nil {
		return args
	}
	at++ // index in args of the first argument after the command name(s)
	takesValue := make(map[string]bool)
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, name := range f.Names() {
			takesValue[name] = !isBool
		}
	}
	var flags, positional []string
	rest := args[at:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i:]...)
			break
		}
		name := strings.TrimLeft(a, "-")
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			name = name[:eq]
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		// An unknown flag moves too, so cli reports it as a flag.
		flags = append(flags, a)
		if takesValue[name] && !strings.Contains(a, "=") && i+1 < len(rest) {
			i++
			flags = append(flags, rest[i])
		}
	}
	out := append([]string{}, args[:at]...)
	out = append(out, flags...)
	return append(out, positional...)
}

// findCommand follows command names (and subcommand names such as
// `envelope write`) from the start of args, returning the deepest command
// and how many arguments named it.
func findCommand(cmds []*cli.Command, args []string) (*cli.Command, int) {
	var found *cli.Command
	n := 0
	for n < len(args) {
		var next *cli.Command
		for _, c := range cmds {
			if c.HasName(args[n]) {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		found, cmds = next, next.Subcommands
		n++
	}
	return found, n
}
