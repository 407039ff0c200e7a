package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/guard"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/suggest"
)

// defaultGuardPolicy is where a repository keeps its guard policy.
const defaultGuardPolicy = ".vouch/guard.yaml"

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

// guardSetup resolves the root, policy file and principal.
type guardSetup struct {
	root, policy string
	env          guard.Env
	home         string
}

func setupGuard(c *cli.Context) (*guardSetup, error) {
	if err := guard.CheckHarness(c.String("harness")); err != nil {
		return nil, err
	}
	return loadGuardSetup(c)
}

// loadGuardSetup finds the policy and principal: --policy, else vouch.yaml's
// guard section, else the default; VOUCH_PRINCIPAL over vouch.yaml's.
func loadGuardSetup(c *cli.Context) (*guardSetup, error) {
	cfg, err := config.Load(".", "")
	if err != nil {
		return nil, fmt.Errorf("invalid configuration:\n%w", err)
	}
	s := &guardSetup{root: cfg.Root, policy: filepath.Join(cfg.Root, defaultGuardPolicy)}
	if cfg.Guard != nil {
		if cfg.Guard.Policy != "" {
			s.policy = cfg.Guard.Policy
		}
		s.env.Principal = cfg.Guard.Principal
	}
	if p := c.String("policy"); p != "" {
		s.policy = p
	}
	if v, ok := os.LookupEnv("VOUCH_PRINCIPAL"); ok {
		p, err := guard.ParsePrincipal(v)
		if err != nil {
			return nil, fmt.Errorf("VOUCH_PRINCIPAL: %w", err)
		}
		s.env.Principal = p
	}
	s.env.Getenv = os.LookupEnv
	s.home, _ = os.UserHomeDir()
	return s, nil
}

func runGuardHook(c *cli.Context) error {
	if c.NArg() > 0 {
		names := []string{"check", "replay", "test", "validate"}
		return fail(exitError, fmt.Errorf("unknown guard command %q%s; the hook itself takes no arguments (the event comes on stdin); commands are %s", c.Args().First(), suggest.Hint(c.Args().First(), names), strings.Join(names, ", ")))
	}
	harness := c.String("harness")
	write := func(a guard.Answer) error {
		c.App.Writer.Write(a.Stdout)
		c.App.ErrWriter.Write(a.Stderr)
		return fail(a.Exit, nil)
	}
	s, err := setupGuard(c)
	if err != nil {
		if guard.CheckHarness(harness) != nil {
			// No protocol to answer in: a usage error.
			return fail(exitError, err)
		}
		return write(guard.Render(harness, guard.Pre, "", guard.ErrorDecision(err)))
	}
	e, err := guard.NewEngine()
	if err != nil {
		return write(guard.Render(harness, guard.Pre, "", guard.ErrorDecision(err)))
	}
	out := guard.RunHook(context.Background(), e, os.Stdin, guard.HookOptions{
		Harness: harness, Policy: s.policy, Root: s.root, Env: s.env, Home: s.home,
		Timeout: c.Duration("timeout"), TraceDir: c.String("trace"),
	})
	a := guard.Render(harness, out.Phase, out.Event, out.Decision)
	if out.Err != nil && harness != guard.ClaudeCode {
		// Claude Code shows stderr as the deny reason already; the
		// others get the error on stderr for whoever reads hook logs.
		a.Stderr = append(a.Stderr, []byte("vouch guard: "+out.Err.Error()+"\n")...)
	}
	if out.Err != nil && harness == guard.JSON {
		a.Exit = exitError
	}
	return write(a)
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
		),
		Action: runGuardCheck,
	}
}

func runGuardCheck(c *cli.Context) error {
	format := c.String("format")
	if format != "json" && format != "text" {
		return fail(exitError, fmt.Errorf("unknown --format %q%s; use json or text", format, suggest.Hint(format, []string{"json", "text"})))
	}
	s, err := setupGuard(c)
	if err != nil {
		return fail(exitError, err)
	}
	e, err := guard.NewEngine()
	if err != nil {
		return fail(exitError, err)
	}
	out := guard.RunHook(context.Background(), e, os.Stdin, guard.HookOptions{
		Harness: c.String("harness"), Policy: s.policy, Root: s.root, Env: s.env, Home: s.home,
		NoState: true, TraceDir: c.String("trace"),
	})
	if out.Err != nil {
		return fail(exitError, out.Err)
	}
	return printDecision(c.App.Writer, format, out.Decision)
}

func printDecision(w io.Writer, format string, d *guard.Decision) error {
	if format == "json" {
		if err := output.WriteJSON(w, d); err != nil {
			return fail(exitError, err)
		}
		return nil
	}
	fmt.Fprintf(w, "decision: %s\n", d.Decision)
	for _, f := range d.Findings {
		mode := ""
		if f.Observed {
			mode = " (observed)"
		}
		fmt.Fprintf(w, "  %s %s%s: %s\n", f.Action, f.Rule, mode, f.Message)
	}
	return nil
}

func guardValidateCommand() *cli.Command {
	return &cli.Command{
		Name:  "validate",
		Usage: "check a guard policy without deciding anything",
		Description: `Loads the policy (vouch/v1 or edictum/v1) and reports every problem with its
file:line:col. Exit codes: 0 valid, 2 invalid.`,
		Flags:  guardFlags()[:1],
		Action: runGuardValidate,
	}
}

func runGuardValidate(c *cli.Context) error {
	cfg, err := config.Load(".", "")
	if err != nil {
		return fail(exitError, fmt.Errorf("invalid configuration:\n%w", err))
	}
	path := c.String("policy")
	if path == "" {
		path = filepath.Join(cfg.Root, defaultGuardPolicy)
		if cfg.Guard != nil && cfg.Guard.Policy != "" {
			path = cfg.Guard.Policy
		}
	}
	if err := guard.CheckPolicyLocation(path, cfg.Root); err != nil {
		return fail(exitError, fmt.Errorf("invalid guard policy:\n%w", err))
	}
	p, err := guard.LoadPolicyFile(path, "")
	if err != nil {
		return fail(exitError, fmt.Errorf("invalid guard policy:\n%w", err))
	}
	counts := map[string]int{}
	for _, r := range p.Rules {
		counts[r.Kind]++
	}
	fmt.Fprintf(c.App.Writer, "%s: valid %s policy, %d rules (%d pre, %d post, %d session, %d sandbox), mode %s\n",
		path, p.API, len(p.Rules), counts[guard.KindPre], counts[guard.KindPost], counts[guard.KindSession], counts[guard.KindSandbox], p.Mode)
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
		),
		Action: runGuardReplay,
	}
}

func runGuardReplay(c *cli.Context) error {
	format := c.String("format")
	if format != "json" && format != "text" {
		return fail(exitError, fmt.Errorf("unknown --format %q%s; use text or json", format, suggest.Hint(format, []string{"json", "text"})))
	}
	if c.NArg() > 1 {
		return fail(exitError, errors.New("replay takes one audit log"))
	}
	s, err := loadGuardSetup(c)
	if err != nil {
		return fail(exitError, err)
	}
	path := guard.AuditPath(s.root)
	if c.NArg() == 1 {
		path = c.Args().First()
	}
	f, err := os.Open(path)
	if err != nil {
		return fail(exitError, fmt.Errorf("audit log: %w", err))
	}
	defer f.Close()
	recs, skipped, err := guard.ReadAudit(f)
	if err != nil {
		return fail(exitError, fmt.Errorf("audit log %s: %w", path, err))
	}
	p, err := guard.LoadPolicyFile(s.policy, "")
	if err != nil {
		return fail(exitError, fmt.Errorf("invalid guard policy:\n%w", err))
	}
	e, err := guard.NewEngine()
	if err != nil {
		return fail(exitError, err)
	}
	results := guard.Replay(e, p, recs, s.env, s.home, s.root)
	changed := 0
	for _, r := range results {
		if r.Changed {
			changed++
		}
	}
	w := c.App.Writer
	if format == "json" {
		doc := struct {
			Policy   string               `json:"policy"`
			Replayed int                  `json:"replayed"`
			Changed  int                  `json:"changed"`
			Skipped  int                  `json:"skipped_lines"`
			Results  []guard.ReplayResult `json:"results"`
		}{p.SHA256, len(results), changed, skipped, results}
		if doc.Results == nil {
			doc.Results = []guard.ReplayResult{}
		}
		if err := output.WriteJSON(w, doc); err != nil {
			return fail(exitError, err)
		}
	} else {
		for _, r := range results {
			if !r.Changed {
				continue
			}
			fmt.Fprintf(w, "changed: %s:%d %s %s %s: %s%s -> %s%s\n", path, r.Line, r.Time, r.Session, r.Tool, r.Old, ruleSuffix(r.OldRule), r.New, ruleSuffix(r.NewRule))
		}
		fmt.Fprintf(w, "%d decisions replayed, %d changed", len(results), changed)
		if skipped > 0 {
			fmt.Fprintf(w, ", %d unreadable lines skipped", skipped)
		}
		fmt.Fprintln(w)
	}
	if changed > 0 {
		return fail(exitFail, nil)
	}
	return nil
}

func ruleSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
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
		),
		Action: runGuardTest,
	}
}

func runGuardTest(c *cli.Context) error {
	format := c.String("format")
	if format != "json" && format != "text" {
		return fail(exitError, fmt.Errorf("unknown --format %q%s; use text or json", format, suggest.Hint(format, []string{"json", "text"})))
	}
	if c.NArg() != 1 {
		return fail(exitError, errors.New("guard test takes one CASES.yaml file"))
	}
	s, err := loadGuardSetup(c)
	if err != nil {
		return fail(exitError, err)
	}
	file := c.Args().First()
	data, err := os.ReadFile(file)
	if err != nil {
		return fail(exitError, fmt.Errorf("guard test file: %w", err))
	}
	cf, err := guard.LoadCases(file, data)
	if err != nil {
		return fail(exitError, fmt.Errorf("invalid guard test file:\n%w", err))
	}
	policy := s.policy
	if cf.Policy != "" && c.String("policy") == "" {
		policy = cf.Policy
	}
	p, err := guard.LoadPolicyFile(policy, "")
	if err != nil {
		return fail(exitError, fmt.Errorf("invalid guard policy:\n%w", err))
	}
	e, err := guard.NewEngine()
	if err != nil {
		return fail(exitError, err)
	}
	results, cov := guard.RunCases(e, p, cf, s.env, s.home, s.root)
	failed, uncovered := 0, 0
	for _, r := range results {
		if !r.Pass {
			failed++
		}
	}
	for _, cv := range cov {
		if cv.Cases == 0 {
			uncovered++
		}
	}
	w := c.App.Writer
	if format == "json" {
		doc := struct {
			File     string             `json:"file"`
			Policy   string             `json:"policy"`
			Passed   int                `json:"passed"`
			Failed   int                `json:"failed"`
			Cases    []guard.CaseResult `json:"cases"`
			Coverage []guard.Coverage   `json:"coverage"`
		}{file, policy, len(results) - failed, failed, results, cov}
		if err := output.WriteJSON(w, doc); err != nil {
			return fail(exitError, err)
		}
	} else {
		for _, r := range results {
			if r.Pass {
				fmt.Fprintf(w, "ok   %s\n", r.Name)
				continue
			}
			fmt.Fprintf(w, "FAIL %s (%s:%d): want %s", r.Name, file, r.Line, r.Want)
			if r.WantRule != nil {
				fmt.Fprintf(w, " by [%s]", strings.Join(r.WantRule, ", "))
			}
			fmt.Fprintf(w, ", got %s by [%s]", r.Got, strings.Join(r.GotRules, ", "))
			if r.Error != "" {
				fmt.Fprintf(w, " (error: %s)", r.Error)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "coverage (cases that fire each rule):")
		for _, cv := range cov {
			mark := ""
			if cv.Cases == 0 {
				mark = "  <- never fires"
			}
			fmt.Fprintf(w, "  %-30s %-8s %d%s\n", cv.Rule, cv.Kind, cv.Cases, mark)
		}
		fmt.Fprintf(w, "%d passed, %d failed, %d of %d rules never fire\n", len(results)-failed, failed, uncovered, len(cov))
	}
	if failed > 0 || (c.Bool("coverage") && uncovered > 0) {
		return fail(exitFail, nil)
	}
	return nil
}
