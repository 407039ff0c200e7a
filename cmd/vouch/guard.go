package main

import (
	"errors"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/guard"
	"github.com/vouch-dev/vouch/output"
)

func guardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "policy", Aliases: []string{"p"}, Usage: "guard policy `FILE` (default: guard.policy in vouch.yaml, else .vouch/guard.yaml)"},
		&cli.StringFlag{Name: "harness", Value: guard.ClaudeCode, Usage: "hook protocol: claude-code, codex, gemini, cursor, copilot or json"},
	}
}

func guardCommand() *cli.Command {
	return &cli.Command{
		Name:  "guard",
		Usage: "decide one agent tool call (a hook): allow, deny or ask, from a guard policy",
		Description: `Run as a harness hook on every tool call. Reads one hook event as JSON on stdin, decides it
against the guard policy (compiled into Mangle datalog), and answers in the harness's own
protocol (--harness). Each decision is appended to .vouch/guard/audit.jsonl; session counters
live in .vouch/guard/sessions. docs/guard.md covers the policy format and every harness's setup.

Fails closed: a policy that does not load, an event that does not parse, an evaluation error
or the --timeout passing all deny the call with a reason.

Exit codes follow the harness protocol: for claude-code a deny exits 2 with the reason on
stderr (and JSON on stdout); other harnesses read the JSON answer. --harness json prints the
decision document and exits 0 allow, 1 deny or ask.`,
		Flags: append(guardFlags(),
			&cli.StringFlag{Name: "trace", Usage: "write the decision's .dl programs and trace into `DIR`"},
			&cli.DurationFlag{Name: "timeout", Value: guard.DefaultReadTimeout, Usage: "deny when the decision takes longer than this"},
		),
		Action: runGuardHook,
		Subcommands: []*cli.Command{
			guardCheckCommand(),
			guardValidateCommand(),
			guardReplayCommand(),
			guardTestCommand(),
		},
	}
}

func runGuardHook(c *cli.Context) error {
	if c.NArg() > 0 {
		return fail(exitError, guard.ArgsError(c.Args().First()))
	}
	return guardHook(guard.HookRequest{
		Policy: c.String("policy"), Harness: c.String("harness"),
		TraceDir: c.String("trace"), Timeout: c.Duration("timeout"),
	}, c.App.Writer, c.App.ErrWriter)
}

// guardHook decides one hook event from stdin and answers in the
// harness's protocol. The CLI and the fast path of run share it.
func guardHook(req guard.HookRequest, stdout, stderr io.Writer) error {
	a, err := guard.Hook(req, os.Stdin, os.LookupEnv)
	if err != nil {
		// No protocol to answer in: a usage error.
		return fail(exitError, err)
	}
	return fail(a.Write(stdout, stderr), nil)
}

// hookArgs is guard.HookInvocation on run's arguments: the call a
// harness makes on every tool call, decided without building the CLI.
func hookArgs(args []string) (guard.HookRequest, bool) {
	if len(args) == 0 {
		return guard.HookRequest{}, false
	}
	return guard.HookInvocation(args[1:])
}

func guardCheckCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "decide one event given on stdin and print vouch's decision document",
		Description: `Decides one hook event (in the --harness wire format, default claude-code) against the
policy without touching session state or the audit log: session counters are zero. Prints
{"decision": "allow|deny|ask", "findings": [{"rule", "action", "message", "tags", "metadata",
"observed"}], "redacted_output"?}.

Exit codes: 0 whatever the decision, 2 bad input (policy, event or flags).`,
		Flags: append(guardFlags(),
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "json", Usage: "output format: json or text"},
			&cli.StringFlag{Name: "trace", Usage: "write the decision's .dl programs and trace into `DIR`"},
			colorFlag(),
			outputFlag(output.ReportFormats()...),
		),
		Action: runGuardCheck,
	}
}

func runGuardCheck(c *cli.Context) error {
	sink, err := newSink(c, output.ReportFormats())
	if err != nil {
		return fail(exitError, err)
	}
	d, err := guard.Check(c.String("policy"), c.String("harness"), c.String("trace"), os.Stdin, os.LookupEnv)
	if err != nil {
		return fail(exitError, err)
	}
	return emit(sink, d, false)
}

func guardValidateCommand() *cli.Command {
	return &cli.Command{
		Name:  "validate",
		Usage: "check a guard policy without deciding anything",
		Description: `Loads the policy (vouch/v1 or edictum/v1) and reports every problem with its
file:line:col. Exit codes: 0 valid, 2 invalid.`,
		Flags:  append(guardFlags()[:1:1], colorFlag()),
		Action: runGuardValidate,
	}
}

func runGuardValidate(c *cli.Context) error {
	paint, err := output.NewPainter(c.String("color"), c.App.ErrWriter)
	if err != nil {
		return fail(exitError, err)
	}
	summary, warnings, err := guard.Validate(c.String("policy"))
	if err != nil {
		return fail(exitError, err)
	}
	if err := guard.WriteValidation(c.App.Writer, c.App.ErrWriter, summary, warnings, paint); err != nil {
		return fail(exitError, err)
	}
	return nil
}

func guardReplayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "show which past decisions in an audit log a policy would change",
		ArgsUsage: "AUDIT.jsonl",
		Description: `Decides every call recorded in the audit log (default .vouch/guard/audit.jsonl) again
under --policy, with the session counters the log recorded, and lists the decisions that
change. Replayed calls carry the redacted arguments the log kept.

Exit codes: 0 no decision changes, 1 some change, 2 bad input.`,
		Flags: append(guardFlags()[:1],
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: text or json"},
			colorFlag(),
			outputFlag(output.ReportFormats()...),
		),
		Action: runGuardReplay,
	}
}

func runGuardReplay(c *cli.Context) error {
	if c.NArg() > 1 {
		return fail(exitError, errors.New("replay takes one audit log"))
	}
	sink, err := newSink(c, output.ReportFormats())
	if err != nil {
		return fail(exitError, err)
	}
	rep, err := guard.ReplayAudit(c.String("policy"), c.Args().First(), os.LookupEnv)
	if err != nil {
		return fail(exitError, err)
	}
	return emit(sink, rep, rep.Changed > 0)
}

func guardTestCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run guard policy test cases: tool calls with the decisions they should get",
		ArgsUsage: "CASES.yaml",
		Description: `Decides each case of the file (tool, args, phase, principal, counters) and compares the
decision (expect:) and, when given, the rules with findings (rules:). Lists each rule with
the number of cases that fired it; --coverage fails when a rule fires in no case.
docs/guard.md describes the format.

Exit codes: 0 every case passed, 1 a case failed (or, with --coverage, a rule is uncovered),
2 bad input.`,
		Flags: append(guardFlags()[:1],
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: text or json"},
			&cli.BoolFlag{Name: "coverage", Usage: "fail when some rule fires in no case"},
			colorFlag(),
			outputFlag(output.ReportFormats()...),
		),
		Action: runGuardTest,
	}
}

func runGuardTest(c *cli.Context) error {
	if c.NArg() != 1 {
		return fail(exitError, errors.New("guard test takes one CASES.yaml file"))
	}
	sink, err := newSink(c, output.ReportFormats())
	if err != nil {
		return fail(exitError, err)
	}
	rep, err := guard.TestCases(c.String("policy"), c.Args().First(), os.LookupEnv)
	if err != nil {
		return fail(exitError, err)
	}
	return emit(sink, rep, rep.Failed > 0 || (c.Bool("coverage") && rep.Uncovered > 0))
}
