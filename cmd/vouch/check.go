package main

import (
	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/rulecheck"
)

// checkCommand is `vouch check`: static analysis of rulespecs.
func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "analyse rulespecs without an envelope: errors, and warnings about rules that cannot mean what they say",
		ArgsUsage: "[RULESPEC ...]",
		Description: `Loads each RULESPEC (default: vouch.yaml's rulespec, else analysis/rulespec.yaml under the
repository root, found from any subdirectory as every command does) exactly as verify does, then warns
about claims nothing uses, duplicate predicates, contradictions on one claim (including
file_exists with no_file_exists, and any_of lists that share no member), predicates
that can never fail or never pass, selectors with a facts. prefix, and unanchored patterns.
Each warning is file:line:col: warning: message [code]; docs/check.md lists the codes.

Exit codes: 0 no errors (warnings allowed), 1 warnings with --strict, 2 errors.`,
		Flags: []cli.Flag{
			colorFlag(),
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: text or json"},
			&cli.BoolFlag{Name: "strict", Usage: "exit 1 when there are warnings"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: where vouch.yaml is, else the git top level, else the working directory)"},
		},
		Action: runCheck,
	}
}

func runCheck(c *cli.Context) error {
	sink, err := newSink(c, output.ReportFormats())
	if err != nil {
		return fail(exitError, err)
	}
	rep, err := rulecheck.Run(rulecheck.Request{Paths: c.Args().Slice(), Root: c.String("root"), RootSet: c.IsSet("root")})
	if err != nil {
		return fail(exitError, err)
	}
	return emit(sink, rep, c.Bool("strict") && len(rep.Warnings) > 0)
}
