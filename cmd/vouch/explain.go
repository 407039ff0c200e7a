package main

import (
	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/explain"
	"github.com/vouch-dev/vouch/output"
)

// explainCommand is `vouch explain`: what each predicate means and, with an
// envelope, why it passed, failed or was skipped.
func explainCommand() *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "say what predicates require and, with --envelope, why they passed or failed",
		ArgsUsage: "[PREDICATE ...]",
		Description: `PREDICATE picks predicates by index (0-based), by id, or by claim name; default all.

Without --envelope, each predicate gets one sentence of what it requires, its source and
notes, its selectors in vouch syntax and in words, and the Mangle facts and clauses it
compiled to. With --envelope, also what each selector found, the status, and the
derivation that decided it, read from the evaluated datalog store (for file_exists and
no_file_exists, what the store held about each cited path), with hints: the nearest
existing paths for a selector that found nothing, type mismatches, and the strings a
pattern was tried against.

Exit codes: 0 explained (whatever the verdicts), 2 bad input.

Examples:
  vouch explain caps
  vouch explain --envelope envelope.yaml --format json 7`,
		Flags: []cli.Flag{
			colorFlag(),
			&cli.StringFlag{Name: "rulespec", Aliases: []string{"r"}, Usage: "rulespec `FILE` (default: vouch.yaml's, else analysis/rulespec.yaml under the root)"},
			&cli.StringFlag{Name: "envelope", Aliases: []string{"e"}, Usage: "explain verdicts on this envelope `FILE`"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: text or json"},
			&cli.BoolFlag{Name: "strict", Usage: "evaluate as verify --strict does (default: vouch.yaml's strict)"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: where vouch.yaml is, else the git top level, else the working directory)"},
			baseFlag(),
		},
		Action: runExplain,
	}
}

func runExplain(c *cli.Context) error {
	sink, err := newSink(c, output.ReportFormats())
	if err != nil {
		return fail(exitError, err)
	}
	ex, err := explain.Run(explain.Request{Select: c.Args().Slice(), Rulespec: c.String("rulespec"), Envelope: c.String("envelope"),
		Root: c.String("root"), RootSet: c.IsSet("root"), Base: c.String("base"), BaseSet: c.IsSet("base"), Strict: setBool(c, "strict")})
	if err != nil {
		return fail(exitError, err)
	}
	return emit(sink, ex, false)
}
