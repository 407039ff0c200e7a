package gate

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/vouch-dev/vouch/lint"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/verify"
	"github.com/vouch-dev/vouch/yamldoc"
)

// Formats lists the gate's output formats.
func Formats() []string { return []string{"claude-hook", "github", "json", "junit", "text"} }

// RenderOptions tune the renderers.
type RenderOptions struct {
	// Color paints the text format.
	Color bool
}

// Render writes g in format, one of Formats. It renders what the gate
// decided; the exit code is the caller's (the claude-hook format expects
// 0 whatever the verdict).
func Render(w io.Writer, format string, g *Result, opts RenderOptions) error {
	switch format {
	case "claude-hook":
		return WriteClaudeHook(w, g)
	case "json":
		return WriteJSON(w, g)
	case "github":
		return WriteGitHub(w, g)
	case "junit":
		return WriteJUnit(w, g)
	case "text":
		return WriteText(w, g, opts)
	}
	return fmt.Errorf("unknown gate format %q", format)
}

// WriteClaudeHook writes the Stop hook protocol's answer: nothing on a
// pass, {"decision": "block", "reason": ...} on anything else.
func WriteClaudeHook(w io.Writer, g *Result) error {
	if g.Verdict == "pass" {
		return nil
	}
	return output.WriteJSON(w, map[string]string{"decision": "block", "reason": "vouch gate: " + Reason(g)})
}

// JSON is the gate's JSON output: the verify report's fields plus "gate".
type JSON struct {
	*verify.Report
	Gate JSONGate `json:"gate"`
	// Lint is present when the architecture rules were evaluated.
	Lint *JSONLint `json:"lint,omitempty"`
}

// JSONGate is the "gate" field of the JSON output.
type JSONGate struct {
	Verdict  string `json:"verdict"`
	Observe  bool   `json:"observe"`
	Root     string `json:"root"`
	Rulespec string `json:"rulespec"`
	Envelope string `json:"envelope"`
	Receipt  string `json:"receipt"`
	Signed   bool   `json:"signed"`
	// PassedOnObserved: the pass relied on observed failures.
	PassedOnObserved bool `json:"passed_on_observed"`
	// Program is the gate program written, "" when the gate stopped
	// before deciding.
	Program string `json:"program,omitempty"`
	// Problem says why there is no report: missing_envelope or error.
	Problem string `json:"problem,omitempty"`
	Message string `json:"message,omitempty"`
	// Stale lists the files that changed after the envelope was written,
	// when the gate found it stale.
	Stale []string `json:"stale,omitempty"`
}

// JSONLint is the "lint" field of the gate's JSON output: the lint
// report plus how the gate counted each finding.
type JSONLint struct {
	Verdict string `json:"verdict"`
	Strict  bool   `json:"strict"`
	Observe bool   `json:"observe"`
	Config  string `json:"config"`
	// Blocking and Observed are indexes into findings.
	Blocking []int `json:"blocking"`
	Observed []int `json:"observed"`
	// BlockingNotices and BlockingStale are indexes into notices and
	// stale_baseline: those that block (under strict).
	BlockingNotices []int  `json:"blocking_notices,omitempty"`
	BlockingStale   []int  `json:"blocking_stale_baseline,omitempty"`
	GateProgram     string `json:"gate_program,omitempty"`
	*lint.Report
}

// NewJSON is g in the JSON output's shape.
func NewJSON(g *Result) JSON {
	j := JSON{Report: g.Report, Gate: JSONGate{Verdict: g.Verdict, Observe: g.Observe, Root: g.Root,
		Rulespec: g.Rulespec, Envelope: g.Envelope, Receipt: g.Receipt, Signed: g.Signed, PassedOnObserved: g.PassedOnObserved,
		Program: filepath.ToSlash(g.Program)}}
	if g.Report == nil {
		j.Report = &verify.Report{Verdict: "fail", Predicates: []verify.PredicateReport{}, Warnings: []string{}}
		j.Gate.Problem, j.Gate.Message = "error", errText(g.Err)
		if g.Missing {
			j.Gate.Problem, j.Gate.Message = "missing_envelope", g.MissingMessage()
		}
	}
	if g.Stale {
		j.Gate.Stale = append([]string{}, g.Changed...)
		if j.Gate.Stale == nil {
			j.Gate.Stale = []string{}
		}
		if j.Gate.Message == "" {
			j.Gate.Problem, j.Gate.Message = "stale_envelope", StaleMessage(g.Envelope, g.Changed)
		}
	}
	if l := g.Lint; l != nil && l.Report != nil {
		j.Lint = &JSONLint{Verdict: l.Verdict, Strict: l.Strict, Observe: l.Observe, Config: l.Source,
			Blocking: indexes(l.Blocking, len(l.Report.Findings)), Observed: indexes(l.Observed, len(l.Report.Findings)), GateProgram: filepath.ToSlash(g.Program), Report: l.Report,
			BlockingNotices: indexes(l.BlockingNotices, len(l.Report.Notices)), BlockingStale: indexes(l.BlockingStale, len(l.Report.Stale))}
		if j.Lint.Verdict == "" {
			j.Lint.Verdict = "fail" // the rules did not finish: never a pass
		}
	}
	return j
}

// WriteJSON writes g as NewJSON shapes it.
func WriteJSON(w io.Writer, g *Result) error { return output.WriteJSON(w, NewJSON(g)) }

// indexes are the indexes below n in set, ascending: [] when none, which
// JSON writes as [] (and omitempty leaves out).
func indexes(set map[int]bool, n int) []int {
	out := []int{}
	for i := range n {
		if set[i] {
			out = append(out, i)
		}
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Reason is the text an agent reads when the gate blocks it.
func Reason(g *Result) string {
	switch {
	case g.Missing:
		return g.MissingMessage()
	case g.Err != nil:
		return "the gate could not verify the work, so it is not done (fail closed): " + g.Err.Error()
	}
	var b strings.Builder
	if g.Stale {
		b.WriteString(StaleMessage(g.Envelope, g.Changed) + " ")
	}
	if g.Report.Verdict != "pass" {
		fmt.Fprintf(&b, "the envelope %s does not pass the rulespec %s. ", g.Envelope, g.Rulespec)
		if g.Report.CheckedNothing {
			b.WriteString(verify.CheckedNothingFailure + ": give the claims the rulespec's when: conditions read. ")
		}
		_ = g.Report.WriteFixes(&b)
	} else if g.Lint != nil {
		fmt.Fprintf(&b, "the envelope %s passes the rulespec %s, but the repository breaks its architecture rules (%s). ", g.Envelope, g.Rulespec, g.Lint.Source)
	}
	if g.Lint != nil {
		g.Lint.writeFixes(&b)
	}
	return b.String()
}

// WriteText writes the human report: the verify report, the architecture
// findings with how the gate counted each, and the decision.
func WriteText(w io.Writer, g *Result, opts RenderOptions) error {
	if g.Missing {
		_, err := fmt.Fprintf(w, "FAIL gate: %s\n", g.MissingMessage())
		return err
	}
	if g.Report == nil {
		return nil // the error goes to stderr
	}
	if err := g.Report.WriteText(w, verify.TextOptions{Color: opts.Color}); err != nil {
		return err
	}
	var b strings.Builder
	if g.Lint != nil {
		g.Lint.writeText(&b)
	}
	if g.Verdict == "pass" {
		signed := "unsigned"
		if g.Signed {
			signed = "signed"
		}
		if g.PassedOnObserved {
			signed += "; observed: it passed only because failures were observed, so 'vouch receipt verify' refuses it without --allow-observed"
		}
		fmt.Fprintf(&b, "gate: PASS; receipt %s (%s)\n", g.Receipt, signed)
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("gate: FAIL\n")
	if g.Stale {
		b.WriteString(StaleMessage(g.Envelope, g.Changed) + "\n")
	}
	if g.Report.Verdict != "pass" {
		_ = g.Report.WriteFixes(&b)
	}
	if g.Lint != nil {
		g.Lint.writeFixes(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteGitHub writes GitHub Actions workflow commands: an error annotation
// per enforced failure and a warning per observed one, on the predicate's
// line in the envelope where the claim's value was written (else the
// predicate's line in the rulespec), then the architecture findings and a
// summary line.
func WriteGitHub(w io.Writer, g *Result) error {
	var as []output.Annotation
	switch {
	case g.Missing:
		as = append(as, output.Annotation{Level: "error", File: g.Envelope, Title: "vouch: missing envelope", Message: g.MissingMessage()})
	case g.Err != nil:
		as = ErrorAnnotations(g.Err)
	default:
		for _, p := range g.Report.Predicates {
			if p.Status != verify.Fail {
				continue
			}
			level := "error"
			if p.Observed {
				level = "warning"
			}
			name := fmt.Sprintf("[%d]", p.Index)
			if p.ID != "" {
				name = fmt.Sprintf("[%d %s]", p.Index, p.ID)
			}
			msg := fmt.Sprintf("%s %s %s failed: %s", name, p.Claim, p.Rule, p.Message)
			if p.Notes != "" {
				msg += " (note: " + p.Notes + ")"
			}
			if p.Observed {
				msg += " [observed: not blocking]"
			}
			a := output.Annotation{Level: level, File: g.Rulespec, Line: p.Line, Col: p.Col, Title: "vouch " + name, Message: msg}
			if p.EnvelopeLine > 0 {
				// On the envelope line the agent wrote, where a reviewer
				// of the change sees it; the message says which rule.
				a.File, a.Line, a.Col = g.Envelope, p.EnvelopeLine, p.EnvelopeCol
				a.Message += fmt.Sprintf(" (rule at %s:%d)", g.Rulespec, p.Line)
			}
			as = append(as, a)
		}
		if g.Lint != nil {
			as = append(as, g.Lint.annotations()...)
		}
		if g.Stale {
			as = append(as, output.Annotation{Level: "error", File: g.Envelope, Title: "vouch: stale envelope", Message: StaleMessage(g.Envelope, g.Changed)})
		}
		if g.Report.CheckedNothing {
			level, msg := "warning", verify.CheckedNothingWarning
			if g.Report.Verdict != "pass" {
				level, msg = "error", verify.CheckedNothingFailure
			}
			as = append(as, output.Annotation{Level: level, File: g.Rulespec, Title: "vouch: nothing checked", Message: msg})
		}
	}
	if err := output.WriteAnnotations(w, as); err != nil {
		return err
	}
	if g.Missing || g.Err != nil {
		return nil
	}
	s := g.Report.Summary
	line := fmt.Sprintf("vouch gate: %s, %d/%d passed, %d failed (%d observed), %d skipped", strings.ToUpper(g.Verdict), s.Passed, s.Total, s.Failed, s.Observed, s.Skipped)
	if g.Lint != nil {
		line += "; architecture " + g.Lint.summary()
	}
	_, err := io.WriteString(w, line+"\n")
	return err
}

// ErrorAnnotations turns positioned input errors into annotations on their
// files; anything else becomes one unpositioned annotation.
func ErrorAnnotations(err error) []output.Annotation {
	var out []output.Annotation
	var list yamldoc.ErrorList
	var one *yamldoc.Error
	at := func(file string, line, col int, msg string) output.Annotation {
		return output.Annotation{Level: "error", File: file, Line: line, Col: col, Message: msg}
	}
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			out = append(out, at(e.File, e.Line, e.Col, e.Msg))
		}
	case errors.As(err, &one):
		out = append(out, at(one.File, one.Line, one.Col, one.Msg))
	default:
		out = append(out, output.Annotation{Level: "error", Title: "vouch", Message: err.Error()})
	}
	return out
}

// findingLine renders one finding for the text, hook and fix outputs.
func findingLine(f lint.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] ", f.Rule)
	if f.File != "" {
		b.WriteString(repofacts.ShownPath(f.File))
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
		}
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s (%s, %s)", repofacts.ShownText(f.Message), f.Type, f.Severity)
	if f.Reason != "" {
		b.WriteString("; reason: " + repofacts.ShownText(f.Reason))
	}
	return b.String()
}

// mark says how finding i counts in the gate.
func (l *Lint) mark(i int) string {
	f := l.Report.Findings[i]
	switch {
	case l.Blocking[i]:
		return "BLOCK"
	case l.Observed[i]:
		return "OBSERVED"
	case f.Baseline:
		return "BASELINE"
	}
	return "WARN"
}

// writeFixes lists the blocking findings, numbered, for an agent.
func (l *Lint) writeFixes(b *strings.Builder) {
	n := 0
	for i, f := range l.Report.Findings {
		if !l.Blocking[i] {
			continue
		}
		if n == 0 {
			b.WriteString("Fix these architecture violations (or, if accepted, record them in the baseline) and finish again:\n")
		}
		n++
		fmt.Fprintf(b, "%d. %s\n", n, findingLine(f))
	}
	// Under strict the gate also fails on what vouch lint --strict fails
	// on besides findings: the agent has to see those to finish.
	for i, e := range l.Report.Notices {
		if l.BlockingNotices[i] {
			if n == 0 {
				b.WriteString("Fix these architecture problems and finish again:\n")
			}
			n++
			fmt.Fprintf(b, "%d. notice (strict): %s\n", n, repofacts.ShownText(e.Error()))
		}
	}
	for i, e := range l.Report.Stale {
		if l.BlockingStale[i] {
			if n == 0 {
				b.WriteString("Fix these architecture problems and finish again:\n")
			}
			n++
			fmt.Fprintf(b, "%d. %s (strict; vouch lint --update-baseline rewrites the baseline)\n", n, repofacts.ShownText(e.Describe()))
		}
	}
}

// summary counts the findings as the gate program counted them.
func (l *Lint) summary() string {
	s := l.Report.Summary
	notices := ""
	if n := len(l.Report.Notices); n > 0 {
		notices = ", " + output.Count(n, "notice")
	}
	return fmt.Sprintf("%s: %s, %s%s, %d blocking, %d observed, %d in the baseline",
		strings.ToUpper(l.Verdict), output.Count(s.Errors, "error"), output.Count(s.Warnings, "warning"), notices,
		len(l.Blocking)+len(l.BlockingNotices)+len(l.BlockingStale), len(l.Observed), s.Baselined)
}

// writeText lists every architecture finding with how the gate counted it.
func (l *Lint) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "architecture (%s, %s):\n", l.Source, lint.Plural(l.Report.Summary.RulesEvaluated, "rule"))
	for i, f := range l.Report.Findings {
		line := fmt.Sprintf("  %s %s", l.mark(i), findingLine(f))
		if l.Observed[i] {
			line += " (observed: reported, not enforced)"
		}
		b.WriteString(line + "\n")
	}
	for i, e := range l.Report.Notices {
		mark := "NOTICE"
		if l.BlockingNotices[i] {
			mark = "BLOCK NOTICE"
		}
		fmt.Fprintf(b, "  %s %s\n", mark, repofacts.ShownText(e.Error()))
	}
	for i, e := range l.Report.Stale {
		mark := "STALE"
		if l.BlockingStale[i] {
			mark = "BLOCK STALE"
		}
		fmt.Fprintf(b, "  %s %s\n", mark, repofacts.ShownText(e.Describe()))
	}
	fmt.Fprintf(b, "architecture: %s\n", l.summary())
}

// annotations are a GitHub annotation per architecture finding, notice
// and stale baseline entry: ::error for a blocking one, ::warning for the
// rest (baseline findings are left out, as vouch lint leaves them out).
func (l *Lint) annotations() []output.Annotation {
	var as []output.Annotation
	for i, f := range l.Report.Findings {
		if f.Baseline {
			continue
		}
		level := "warning"
		if l.Blocking[i] {
			level = "error"
		}
		msg := findingLine(f)
		if l.Observed[i] {
			msg += " [observed: not blocking]"
		}
		as = append(as, output.Annotation{Level: level, File: f.File, Line: f.Line, Title: "vouch lint " + f.Rule, Message: msg})
	}
	for i, e := range l.Report.Notices {
		level := "warning"
		if l.BlockingNotices[i] {
			level = "error"
		}
		as = append(as, output.Annotation{Level: level, File: e.File, Line: e.Line, Title: "vouch lint", Message: e.Msg})
	}
	// A stale entry names no place in the code (its finding is gone), so
	// its annotation has no file, as vouch lint --format github gives it.
	for i, e := range l.Report.Stale {
		level := "warning"
		if l.BlockingStale[i] {
			level = "error"
		}
		as = append(as, output.Annotation{Level: level, Title: "vouch lint " + e.Rule, Message: e.Describe()})
	}
	return as
}
