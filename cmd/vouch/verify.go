package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/suggest"
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

Exit codes: 0 pass, 1 fail, 2 bad input or evaluation error (nothing is written then).

Examples:
  vouch verify envelope.yaml
  vouch verify --rulespec analysis/rulespec.yaml --format json --out build/vouch envelope.yaml`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rulespec", Aliases: []string{"r"}, Usage: "rulespec `FILE` (default: vouch.yaml's, else analysis/rulespec.yaml under the root)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write artifacts into `DIR` (default: the envelope's directory)"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: text or json"},
			&cli.BoolFlag{Name: "strict", Usage: "fail predicates that pass only vacuously (absent claim or empty array)"},
			&cli.BoolFlag{Name: "no-artifacts", Usage: "do not write the .dl program and trace"},
			&cli.Int64Flag{Name: "max-envelope-bytes", Value: lim.MaxBytes, Usage: "refuse envelopes larger than `N` bytes"},
			&cli.IntFlag{Name: "max-depth", Value: lim.MaxDepth, Usage: "refuse envelopes nested deeper than `N` levels"},
			&cli.IntFlag{Name: "max-elements", Value: verify.DefaultMaxElements, Usage: "refuse a claim that selects more than `N` array elements"},
			&cli.StringFlag{Name: "color", Value: "auto", Usage: "colour text output: auto, always or never (NO_COLOR disables auto)"},
			&cli.BoolFlag{Name: "observe", Usage: "report failures without failing (as mode: observe on every predicate)"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` for vouch.yaml and file_exists evidence (default: where vouch.yaml is, else the git top level, else the working directory)"},
		},
		Action: runVerify,
	}
}

var formats = []string{"json", "text"}

func runVerify(c *cli.Context) error {
	if c.NArg() > 1 {
		return fail(exitError, fmt.Errorf("verify takes at most one ENVELOPE argument, got %d; run 'vouch verify --help'", c.NArg()))
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return fail(exitError, fmt.Errorf("unknown --format %q%s; use text or json", format, suggest.Hint(format, formats)))
	}
	color, err := output.Color(c.String("color"), c.App.Writer)
	if err != nil {
		return fail(exitError, err)
	}
	// vouch.yaml supplies the defaults; flags given on the command line win.
	cfg, err := loadConfig(c)
	if err != nil {
		return fail(exitError, err)
	}
	envPath := pick(c.Args().First(), cfg.Envelope)
	rulespecPath, lim := cfg.Rulespec, cfg.Limits
	if c.IsSet("rulespec") {
		rulespecPath = c.String("rulespec")
	}
	if c.IsSet("max-envelope-bytes") {
		if lim.MaxBytes = c.Int64("max-envelope-bytes"); lim.MaxBytes <= 0 {
			return fail(exitError, fmt.Errorf("--max-envelope-bytes must be positive, got %d", lim.MaxBytes))
		}
	}
	if c.IsSet("max-depth") {
		if lim.MaxDepth = c.Int("max-depth"); lim.MaxDepth <= 0 {
			return fail(exitError, fmt.Errorf("--max-depth must be positive, got %d", lim.MaxDepth))
		}
	}
	if c.Int("max-elements") <= 0 {
		return fail(exitError, fmt.Errorf("--max-elements must be positive, got %d", c.Int("max-elements")))
	}
	// vouch.yaml may set strict; --strict=false on the command line wins.
	strict := cfg.Strict
	if c.IsSet("strict") {
		strict = c.Bool("strict")
	}
	out, err := verify.Run(verify.Input{
		RulespecPath: rulespecPath,
		EnvelopePath: envPath,
		Limits:       lim,
		Strict:       strict,
		MaxElements:  c.Int("max-elements"),
		Observe:      c.Bool("observe"),
		Root:         cfg.Root,
		OutDir:       verify.EvidenceOutDir(pick(c.String("out"), cfg.Out), cfg.Root),
	})
	if err != nil {
		var ie *verify.InputError
		if errors.As(err, &ie) {
			return fail(exitError, fmt.Errorf("invalid input:\n%w", err))
		}
		return fail(exitError, err)
	}
	if !c.Bool("no-artifacts") {
		dir := pick(c.String("out"), cfg.Out)
		if dir == "" {
			dir = filepath.Dir(envPath)
		}
		if err := out.WriteArtifacts(dir); err != nil {
			return fail(exitError, err)
		}
	}
	w := c.App.Writer
	if format == "json" {
		err = out.Report.WriteJSON(w)
	} else {
		err = out.Report.WriteText(w, verify.TextOptions{Color: color})
	}
	if err != nil {
		return fail(exitError, err)
	}
	if out.Report.Verdict != "pass" {
		return fail(exitFail, nil)
	}
	return nil
}
