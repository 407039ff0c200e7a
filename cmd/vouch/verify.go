package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/gate"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/verify"
)

func verifyCommand() *cli.Command {
	lim := envelope.DefaultLimits()
	return &cli.Command{
		Name:      "verify",
		Usage:     "check an action envelope against the rulespec",
		ArgsUsage: "[ENVELOPE]",
		Description: `Loads ENVELOPE (YAML or JSON with a top-level facts: mapping; default: vouch.yaml's envelope,
else .vouch/envelope.yaml under the repository root) and the rulespec (default: vouch.yaml's,
else analysis/rulespec.yaml under the root), compiles both into one datalog program, evaluates
it, and prints one verdict per predicate. The root is where vouch.yaml is, else the git top
level, else the working directory, found from any subdirectory.

Writes two artifacts into --out (default: the envelope's directory):
  rulespec.compiled.dl     the complete Mangle program, replayable on its own
  datalog_evaluation.txt   inputs and their sha256, strata, fact counts, and why each
                           predicate passed, failed or was skipped

Claims with from: repo select from the repository document: what changed between a base
(--base, else vouch.yaml's base:, else the merge-base with the default branch's upstream, else
HEAD) and the working tree, read with git (see docs/repository-facts.md). git is only run when
a rule reads repository facts.

Claims with from: audit select from the guard audit log (.vouch/guard/audit.jsonl): the tool
calls of --session, else of every session in the log (see docs/guard.md). A missing log, or a
session with no records, is bad input.

Exit codes: 0 pass, 1 fail, 2 bad input or evaluation error (nothing is written then).

Examples:
  vouch verify envelope.yaml
  vouch verify --rulespec analysis/rulespec.yaml --format json --out build/vouch envelope.yaml`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rulespec", Aliases: []string{"r"}, Usage: "rulespec `FILE` (default: vouch.yaml's, else analysis/rulespec.yaml under the root)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write artifacts into `DIR` (default: the envelope's directory)"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: text, json or junit"},
			outputFlag(verify.Formats()...),
			&cli.BoolFlag{Name: "strict", Usage: "fail predicates that pass only vacuously (absent claim or empty array) or whose when: reads an absent claim, and a run that checked nothing"},
			&cli.BoolFlag{Name: "no-artifacts", Usage: "do not write the .dl program and trace"},
			&cli.Int64Flag{Name: "max-envelope-bytes", Value: lim.MaxBytes, Usage: "refuse envelopes larger than `N` bytes"},
			&cli.IntFlag{Name: "max-depth", Value: lim.MaxDepth, Usage: "refuse envelopes nested deeper than `N` levels"},
			&cli.IntFlag{Name: "max-elements", Value: verify.DefaultMaxElements, Usage: "refuse a claim that selects more than `N` array elements"},
			colorFlag(),
			&cli.BoolFlag{Name: "observe", Usage: "report failures without failing (as mode: observe on every predicate)"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` for vouch.yaml and file_exists evidence (default: where vouch.yaml is, else the git top level, else the working directory)"},
			baseFlag(),
			maxCitationsFlag(),
			sessionFlag("every session in the log"),
		},
		Action: runVerify,
	}
}

func runVerify(c *cli.Context) error {
	if c.NArg() > 1 {
		return fail(exitError, fmt.Errorf("verify takes at most one ENVELOPE argument, got %d; run 'vouch verify --help'", c.NArg()))
	}
	sink, err := newSink(c, verify.Formats())
	if err != nil {
		return fail(exitError, err)
	}
	if len(sink.Targets) > 0 {
		own := vouchFiles(c.String("root"), c.IsSet("root"), c.String("out"), c.Args().First(), c.String("rulespec"))
		if err := checkOutputs(sink, own); err != nil {
			return fail(exitError, err)
		}
	}
	if err := output.CheckOutDir(c.String("out")); err != nil {
		return fail(exitError, err)
	}
	req := verify.Request{
		Envelope: c.Args().First(), Rulespec: c.String("rulespec"), RulespecSet: c.IsSet("rulespec"),
		Out: c.String("out"), Root: c.String("root"), RootSet: c.IsSet("root"),
		MaxElements: c.Int("max-elements"), Observe: c.Bool("observe"),
		Base: c.String("base"), BaseSet: c.IsSet("base"), MaxCitations: c.Int("max-citations"),
		Outputs: gate.Outputs, Strict: setBool(c, "strict"), NoArtifacts: c.Bool("no-artifacts"),
		AuditSession: c.String("session"),
	}
	if c.IsSet("max-envelope-bytes") {
		n := c.Int64("max-envelope-bytes")
		req.MaxEnvelopeBytes = &n
	}
	if c.IsSet("max-depth") {
		n := c.Int("max-depth")
		req.MaxDepth = &n
	}
	out, err := verify.Command(req)
	if err != nil {
		return fail(exitError, err)
	}
	if err := sink.Render(func(w io.Writer, f string, p output.Painter) error { return out.Render(w, f, p.On) }); err != nil {
		return fail(exitError, err)
	}
	if out.Report.Verdict != "pass" {
		return fail(exitFail, nil)
	}
	return nil
}

// baseFlag is --base, shared by every command that reads repository facts.
func baseFlag() cli.Flag {
	return &cli.StringFlag{Name: "base", Usage: "compare the working tree with git revision `REF` for repository facts (default: vouch.yaml's base, else the merge-base with the default branch's upstream, else HEAD in a repository with no remote)"}
}
