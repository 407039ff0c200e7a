package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/evidence"
	"github.com/vouch-dev/vouch/gate"
	"github.com/vouch-dev/vouch/output"
)

func gateCommand() *cli.Command {
	return &cli.Command{
		Name:      "gate",
		Usage:     "decide whether an agent's work is done: envelope present, well formed, and passing",
		ArgsUsage: " ",
		Description: `The one command a harness or CI calls at plan completion. It requires the envelope
(default from vouch.yaml, else .vouch/envelope.yaml), verifies it against the rulespec with
evidence checked under the repository root, writes the program and trace, and on a pass writes
verification.json (a receipt, signed with --key-file or VOUCH_KEY) beside them; any other
outcome removes an earlier receipt. A pass that relied on observed failures (--observe, mode:
observe) records "observed": true, which 'vouch receipt verify' refuses without
--allow-observed. When vouch.yaml
has an architecture: section (or with --lint) the architecture rules of 'vouch lint' are
evaluated too, and their error findings block the gate like failing predicates. Claims with
from: audit read the guard audit records of --session, else (claude-hook) of the Stop event's
session_id, else of every session in the log.

Exit codes: 0 pass, 1 fail (including a missing envelope), 2 bad input or evaluation error.
With --format claude-hook the exit code is always 0 and the decision is in the JSON, as Claude
Code's Stop hook protocol expects: {"decision": "block", "reason": ...} on anything but a pass,
nothing on a pass.

Examples:
  vouch gate
  vouch gate --format claude-hook        # in .claude/settings.json, hooks.Stop
  vouch gate --format github --observe   # in CI, while rolling out new rules`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "envelope", Aliases: []string{"e"}, Usage: "envelope `FILE` (default: vouch.yaml's envelope, else .vouch/envelope.yaml)"},
			&cli.StringFlag{Name: "rulespec", Aliases: []string{"r"}, Usage: "rulespec `FILE` (default: vouch.yaml's rulespec, else analysis/rulespec.yaml)"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text, json, claude-hook, github or junit"},
			outputFlag(gate.Formats()...),
			colorFlag(),
			progressFlag(),
			&cli.BoolFlag{Name: "observe", Usage: "report failures without failing the gate (roll out rules safely)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write artifacts and the receipt into `DIR` (default: vouch.yaml's out, else the envelope's directory)"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: where vouch.yaml is, else the git top level, else the working directory)"},
			&cli.StringFlag{Name: "key-file", Usage: "sign the receipt with the key in `FILE` (else $VOUCH_KEY)"},
			&cli.BoolFlag{Name: "strict", Usage: "fail predicates that pass only vacuously or whose when: reads an absent claim, a run that checked nothing, and architecture warnings"},
			&cli.BoolFlag{Name: "lint", Usage: "also evaluate the architecture rules (the default when vouch.yaml has an architecture: section)"},
			&cli.BoolFlag{Name: "no-lint", Usage: "do not evaluate the architecture rules ('receipt verify' refuses the receipt when vouch.yaml has an architecture: section)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "do not write the import cache either (the gate never reads it: a check takes nothing it did not read itself)"},
			baseFlag(),
			maxCitationsFlag(), maxEvidenceBytesFlag(),
			sessionFlag("with --format claude-hook the Stop event's session_id, else every session in the log"),
			&cli.DurationFlag{Name: "timeout", Value: gate.DefaultTimeout, Usage: "fail closed (exit 2; a block for claude-hook) when the gate has not answered within `DURATION`; 0 disables"},
		},
		Action: runGate,
	}
}

func runGate(c *cli.Context) error {
	sink, err := newSink(c, gate.Formats())
	if err != nil {
		return fail(exitError, err)
	}
	if len(sink.Targets) > 0 {
		own := vouchFiles(c.String("root"), c.IsSet("root"), c.String("out"), c.String("envelope"), c.String("rulespec"))
		if err := checkOutputs(sink, own); err != nil {
			return fail(exitError, err)
		}
	}
	if c.NArg() > 0 {
		return fail(exitError, fmt.Errorf("gate takes no arguments, got %q; give the envelope with --envelope", c.Args().First()))
	}
	if err := output.CheckOutDir(c.String("out")); err != nil {
		return fail(exitError, err)
	}
	opts := gate.Options{
		Root: c.String("root"), RootSet: c.IsSet("root"),
		Envelope: c.String("envelope"), Rulespec: c.String("rulespec"), Out: c.String("out"),
		KeyFile: c.String("key-file"), KeyEnv: os.Getenv("VOUCH_KEY"),
		Observe: c.Bool("observe"), Lint: c.Bool("lint"), NoLint: c.Bool("no-lint"), NoCache: c.Bool("no-cache"),
		Version: c.App.Version, Strict: setBool(c, "strict"), // vouch.yaml may set strict; the flag wins
		Evidence:     evidence.Limits{MaxCitations: c.Int("max-citations"), MaxHashBytes: c.Int64("max-evidence-bytes")},
		AuditSession: c.String("session"), // else the Stop event's session_id (gate.Serve)
	}
	if c.IsSet("base") {
		opts.Base, opts.BaseFrom = c.String("base"), "--base"
	}
	a, err := gate.Serve(c.Context, opts, gate.ServeOptions{Sink: sink, Stdin: c.App.Reader,
		Stdout: c.App.Writer, Stderr: c.App.ErrWriter, Timeout: c.Duration("timeout"), Progress: c.String("progress")})
	switch {
	case err != nil:
		return fail(exitError, err)
	case a.Released || sink.Format == "claude-hook":
		// The Stop hook protocol: exit 0 always; the decision is in the JSON.
		return nil
	case a.Err != nil:
		return fail(exitError, a.Err)
	case a.Result.Verdict != "pass":
		return fail(exitFail, nil)
	}
	return nil
}

// sessionFlag is --session, the agent session claims with from: audit
// read; def says what applies without it.
func sessionFlag(def string) cli.Flag {
	return &cli.StringFlag{Name: "session", Usage: "claims with from: audit read the guard audit log's records of session `ID` (default: " + def +
		"); a session with no records is an error"}
}

func maxCitationsFlag() cli.Flag {
	return &cli.IntFlag{Name: "max-citations", Value: evidence.DefaultMaxCitations,
		Action: func(_ *cli.Context, n int) error { return positive("max-citations", int64(n)) },
		Usage:  "refuse (exit 2) an envelope citing more than `N` distinct citations for file_exists/no_file_exists (a path with lines counts apart from the bare path)"}
}

func maxEvidenceBytesFlag() cli.Flag {
	return &cli.Int64Flag{Name: "max-evidence-bytes", Value: evidence.DefaultMaxHashBytes,
		Action: func(_ *cli.Context, n int64) error { return positive("max-evidence-bytes", n) },
		Usage:  "refuse (exit 2) when the cited files hold more than `N` bytes to hash (each file once)"}
}

// positive refuses a limit flag of zero or less: the evidence limits
// would otherwise fall back to their defaults without a word, while the
// other limits refuse such a value.
func positive(name string, n int64) error {
	if n <= 0 {
		return fmt.Errorf("--%s must be positive, got %d", name, n)
	}
	return nil
}
