package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/gate"
)

func envelopeCommand() *cli.Command {
	return &cli.Command{
		Name:  "envelope",
		Usage: "write an action envelope",
		Subcommands: []*cli.Command{{
			Name:      "write",
			Usage:     "validate an envelope, save it atomically, and say what still fails",
			ArgsUsage: "[PATH]",
			Description: `Reads an envelope from --from FILE (or standard input, also with --from -), checks it
with the same loader and limits as verify, refuses one whose facts: is missing or empty, and
writes it to PATH (default: vouch.yaml's envelope, else .vouch/envelope.yaml) through a temporary
file and a rename, so no reader ever sees half an envelope. PATH other than the configured
envelope must be a new .yaml, .yml or .json file under the repository root that is none of
vouch's inputs or outputs and is not tracked by git; anything else is refused (exit 2) before
anything is read or written. It then verifies the envelope and
prints the counts and every failing predicate: its id and claim, what was expected, what was
found, why, and its notes.

In a git work tree the envelope is stamped with the state of the work it describes: under
metadata.vouch_state, the base commit and a digest of every changed file's content (see
docs/gating.md). The gate recomputes that state and fails a stamped envelope that no longer
matches the work, naming the files that changed.

Exit codes: 0 written and passing, 1 written but failing, 2 not written (bad input), or written
but the rulespec could not be checked.`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "from", Value: "-", Usage: "read the envelope from `FILE` ('-' for standard input)"},
				&cli.StringFlag{Name: "rulespec", Aliases: []string{"r"}, Usage: "rulespec `FILE` (default: vouch.yaml's, else analysis/rulespec.yaml)"},
				&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: found from the working directory)"},
				baseFlag(),
			},
			Action: runEnvelopeWrite,
		}},
	}
}

func runEnvelopeWrite(c *cli.Context) error {
	if c.NArg() > 1 {
		return fail(exitError, fmt.Errorf("envelope write takes at most one PATH, got %d", c.NArg()))
	}
	opts := gate.WriteOptions{Path: c.Args().First(), Root: c.String("root"), RootSet: c.IsSet("root"),
		From: c.String("from"), Stdin: c.App.Reader, Rulespec: c.String("rulespec"), RulespecExplicit: c.IsSet("rulespec")}
	if c.IsSet("base") {
		opts.Base, opts.BaseFrom = c.String("base"), "--base"
	}
	wr, err := gate.WriteEnvelope(c.Context, opts)
	if wr == nil {
		return fail(exitError, err)
	}
	// Written but not verified is still exit 2, after saying what was written.
	if werr := wr.WriteText(c.App.Writer); err == nil {
		err = werr
	}
	if err != nil {
		return fail(exitError, err)
	}
	if wr.Outcome.Report.Verdict != "pass" {
		return fail(exitFail, nil)
	}
	return nil
}
