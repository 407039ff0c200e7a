package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/ruletest"
)

// testCommand is `vouch test`: run a rulespec's test cases.
func testCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run rulespec test cases: envelopes with the verdicts they should get",
		ArgsUsage: "[PATH ...]",
		Description: `Runs each test file (default analysis/rulespec_test.yaml under the repository root, found
from any subdirectory as every command does; a directory means every
*_test.yaml in it). Each case names an envelope (a path, or inline facts:) and the verdict
and/or per-predicate statuses it should get; docs/testing.md describes the format.

Prints like go test: a -want +got block per failing case, then ok or FAIL per file with
which of pass, fail and skipped the cases took. --coverage lists the predicates whose
failing path no case takes.

Exit codes: 0 every case passed, 1 a case failed, 2 bad input.`,
		Flags: []cli.Flag{
			colorFlag(),
			&cli.StringFlag{Name: "run", Usage: "run only cases whose name matches `REGEX`"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: text or json"},
			&cli.BoolFlag{Name: "coverage", Usage: "list predicates whose failing path no case takes"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: where vouch.yaml is, else the git top level, else the working directory)"},
		},
		Action: runTest,
	}
}

func runTest(c *cli.Context) error {
	sink, err := newSink(c, output.ReportFormats())
	if err != nil {
		return fail(exitError, err)
	}
	results, runErr := ruletest.RunRequest(ruletest.Request{Paths: c.Args().Slice(), Run: c.String("run"), Root: c.String("root"), RootSet: c.IsSet("root")})
	if runErr != nil && !errors.Is(runErr, ruletest.ErrNoCase) {
		return fail(exitError, runErr)
	}
	if err := sink.Render(output.RenderReport(ruletest.Report{Results: results, Coverage: c.Bool("coverage")})); err != nil {
		return fail(exitError, err)
	}
	if !ruletest.Passed(results) {
		return fail(exitFail, nil)
	}
	if runErr != nil {
		// --run matched no case: a pass would have tested nothing.
		return fail(exitFail, runErr)
	}
	return nil
}
