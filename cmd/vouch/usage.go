package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/output"
)

// colorFlag is --color, the same on every command that colours text.
func colorFlag() cli.Flag {
	return &cli.StringFlag{Name: "color", Value: "auto", Usage: "colour text output: auto (on a terminal, unless NO_COLOR is set), always or never"}
}

// progressFlag is --progress, on the commands that scan source files.
func progressFlag() cli.Flag {
	return &cli.StringFlag{Name: "progress", Value: "auto", Usage: "a file counter on standard error while scanning: auto (on a terminal, from 2000 files), always or never"}
}

// newSink reads --format, --color and --output (those the command has)
// against the formats it writes.
func newSink(c *cli.Context, formats []string) (*output.Sink, error) {
	return output.NewSink(c.App.Writer, formats, c.String("format"), c.String("color"), c.StringSlice("output"))
}

// setBool is a boolean flag given on the command line, else nil, so that
// vouch.yaml's value stands unless the flag overrides it.
func setBool(c *cli.Context, name string) *bool {
	if !c.IsSet(name) {
		return nil
	}
	v := c.Bool(name)
	return &v
}

// outputFlag is --output, shared by the commands that write reports.
func outputFlag(formats ...string) cli.Flag {
	// The help names only the extensions of formats this command
	// writes: a .sarif file for a command without SARIF is refused.
	var exts []string
	for _, e := range []struct{ ext, format string }{{".json", "json"}, {".sarif", "sarif"}, {".xml for junit", "junit"}, {".txt", "text"}} {
		if slices.Contains(formats, e.format) {
			exts = append(exts, e.ext)
		}
	}
	return &cli.StringSliceFlag{Name: "output", Usage: "also write the report to a file, as `[FORMAT=]FILE` (repeatable; FILE alone takes the format of its extension: " +
		strings.Join(exts, ", ") + "); standard output keeps --format"}
}

// emit renders a two-format report (output.RenderReport) and exits 1
// when failed.
func emit(sink *output.Sink, rep output.Report, failed bool) error {
	if err := sink.Render(output.RenderReport(rep)); err != nil {
		return fail(exitError, err)
	}
	if failed {
		return fail(exitFail, nil)
	}
	return nil
}
