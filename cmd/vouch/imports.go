package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/output"
)

// importsCommand is `vouch imports [PATH]`: every import in the repository,
// resolved, as text, JSON or Mangle facts.
func importsCommand() *cli.Command {
	return &cli.Command{
		Name:      "imports",
		Usage:     "list every import in a repository and where it resolves",
		ArgsUsage: "[PATH | FILE]",
		Description: `Lists every import of the source files under PATH (default: the working directory), one
line per import with where it resolves: stdlib, internal (a file of the repository), external
(a dependency) or unresolved with the reason. FILE lists the imports of that one file,
resolved against the repository that holds it (the nearest parent with .git, else the working
directory when it holds the file, else the file's directory); paths are relative to that root.
The candidates vouch tried are in --format json.`,
		Flags: []cli.Flag{
			colorFlag(),
			progressFlag(),
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, json or dl (Mangle facts)"},
			&cli.StringSliceFlag{Name: "lang", Usage: "languages to extract (comma-separated or repeated): go, python, js, ts, rust; default all"},
			&cli.StringSliceFlag{Name: "exclude", Usage: "skip paths matching this glob (repeatable); matched against paths, parent directories and base names"},
			&cli.Int64Flag{Name: "max-file-size", Value: imports.DefaultMaxFileSize, Usage: "skip files larger than this many bytes"},
			&cli.BoolFlag{Name: "no-cache", Usage: "neither read nor write the import cache (in the user cache directory, or $VOUCH_CACHE_DIR)"},
			&cli.StringSliceFlag{Name: "python-root", Usage: "Python package root, relative to PATH (repeatable); replaces auto-detection"},
		},
		Action: runImports,
	}
}

func runImports(c *cli.Context) error {
	sink, err := newSink(c, imports.Formats())
	if err != nil {
		return fail(exitError, fmt.Errorf("imports: %w", err))
	}
	res, err := imports.Command(c.Context, imports.CommandOptions{Args: c.Args().Slice(), Lang: c.StringSlice("lang"),
		Exclude: c.StringSlice("exclude"), MaxFileSize: c.Int64("max-file-size"), NoCache: c.Bool("no-cache"),
		PythonRoots: c.StringSlice("python-root"), Progress: c.String("progress"), Stderr: c.App.ErrWriter})
	if err != nil {
		return fail(exitError, err)
	}
	if err := sink.Render(func(w io.Writer, format string, p output.Painter) error { return imports.Render(w, format, res, p) }); err != nil {
		return fail(exitError, fmt.Errorf("imports: %w", err))
	}
	if sink.Format == "text" {
		if err := imports.WriteWarnings(c.App.ErrWriter, res.Warnings); err != nil {
			return fail(exitError, fmt.Errorf("imports: %w", err))
		}
	}
	return nil
}
