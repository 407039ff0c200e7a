package guard

import (
	"fmt"
	"io"
	"strings"

	"github.com/vouch-dev/vouch/output"
)

// WriteText prints a decision as `vouch guard check --format text` shows
// it: the decision, then one line per finding.
func (d *Decision) WriteText(w io.Writer, paint output.Painter) error {
	var b strings.Builder
	fmt.Fprintf(&b, "decision: %s\n", paintAction(paint, d.Decision))
	for _, f := range d.Findings {
		mode, action := "", paintAction(paint, f.Action)
		if f.Observed {
			mode, action = " (observed)", paint.Warn(f.Action)
		}
		fmt.Fprintf(&b, "  %s %s%s: %s\n", action, f.Rule, mode, f.Message)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// paintAction colours a decision or a finding's action: allow green, deny
// red, ask and the rest yellow.
func paintAction(paint output.Painter, a string) string {
	switch a {
	case Allow:
		return paint.Pass(a)
	case Deny:
		return paint.Fail(a)
	}
	return paint.Warn(a)
}

// PolicySummary is the line `vouch guard validate` prints for a valid
// policy: its API, rule counts per kind and mode.
func PolicySummary(path string, p *Policy) string {
	counts := map[string]int{}
	for _, r := range p.Rules {
		counts[r.Kind]++
	}
	return fmt.Sprintf("%s: valid %s policy, %d rules (%d pre, %d post, %d session, %d sandbox), mode %s",
		path, p.API, len(p.Rules), counts[KindPre], counts[KindPost], counts[KindSession], counts[KindSandbox], p.Mode)
}

// ReplayReport is the outcome of `vouch guard replay`: every recorded
// call decided again under a policy.
type ReplayReport struct {
	// Log is the audit log replayed, for the text lines.
	Log      string         `json:"-"`
	Policy   string         `json:"policy"`
	Replayed int            `json:"replayed"`
	Changed  int            `json:"changed"`
	Skipped  int            `json:"skipped_lines"`
	Results  []ReplayResult `json:"results"`
	// ChangedOnly is set when the log held more decisions than the
	// report lists (MaxReplayResults): Results then holds only changed
	// ones, and Omitted counts the decisions left out, ChangedOmitted the
	// changed ones among them.
	ChangedOnly    bool `json:"results_changed_only,omitempty"`
	Omitted        int  `json:"results_omitted,omitempty"`
	ChangedOmitted int  `json:"changed_omitted,omitempty"`
}

// NewReplayReport counts the changed decisions of results; policySHA is
// the replayed policy's hash and skipped the log lines that could not be
// read.
func NewReplayReport(log, policySHA string, results []ReplayResult, skipped int) *ReplayReport {
	r := &ReplayReport{Log: log, Policy: policySHA, Replayed: len(results), Skipped: skipped, Results: results}
	if r.Results == nil {
		r.Results = []ReplayResult{}
	}
	for _, res := range results {
		if res.Changed {
			r.Changed++
		}
	}
	return r
}

// WriteJSON writes the report as indented JSON.
func (r *ReplayReport) WriteJSON(w io.Writer) error { return output.WriteJSON(w, r) }

// WriteText lists the decisions that change, then the counts.
func (r *ReplayReport) WriteText(w io.Writer, paint output.Painter) error {
	var b strings.Builder
	for _, res := range r.Results {
		if !res.Changed {
			continue
		}
		fmt.Fprintf(&b, "%s %s:%d %s %s %s: %s%s -> %s%s\n", paint.Warn("changed:"), r.Log, res.Line, res.Time, res.Session, res.Tool,
			paintAction(paint, res.Old), ruleSuffix(res.OldRule), paintAction(paint, res.New), ruleSuffix(res.NewRule))
	}
	fmt.Fprintf(&b, "%d decisions replayed, %d changed", r.Replayed, r.Changed)
	if r.Skipped > 0 {
		fmt.Fprintf(&b, ", %d unreadable lines skipped", r.Skipped)
	}
	if r.ChangedOmitted > 0 {
		fmt.Fprintf(&b, ", %d changed decisions not listed (a report lists at most %d; replay a part of the log to see them)", r.ChangedOmitted, MaxReplayResults)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func ruleSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}

// CaseReport is the outcome of `vouch guard test`: every case of a file
// and how often each rule fired.
type CaseReport struct {
	File     string       `json:"file"`
	Policy   string       `json:"policy"`
	Passed   int          `json:"passed"`
	Failed   int          `json:"failed"`
	Cases    []CaseResult `json:"cases"`
	Coverage []Coverage   `json:"coverage"`
	// Uncovered counts the rules that fired in no case.
	Uncovered int `json:"-"`
}

// NewCaseReport counts passed and failed cases and uncovered rules.
func NewCaseReport(file, policy string, results []CaseResult, cov []Coverage) *CaseReport {
	r := &CaseReport{File: file, Policy: policy, Cases: results, Coverage: cov}
	for _, res := range results {
		if res.Pass {
			r.Passed++
		} else {
			r.Failed++
		}
	}
	for _, cv := range cov {
		if cv.Cases == 0 {
			r.Uncovered++
		}
	}
	return r
}

// WriteJSON writes the report as indented JSON.
func (r *CaseReport) WriteJSON(w io.Writer) error { return output.WriteJSON(w, r) }

// WriteText prints ok or FAIL per case, the coverage table and the counts.
func (r *CaseReport) WriteText(w io.Writer, paint output.Painter) error {
	var b strings.Builder
	for _, res := range r.Cases {
		if res.Pass {
			fmt.Fprintf(&b, "%s   %s\n", paint.Pass("ok"), res.Name)
			continue
		}
		fmt.Fprintf(&b, "%s %s (%s:%d): want %s", paint.Fail("FAIL"), res.Name, r.File, res.Line, res.Want)
		if res.WantRule != nil {
			fmt.Fprintf(&b, " by [%s]", strings.Join(res.WantRule, ", "))
		}
		fmt.Fprintf(&b, ", got %s by [%s]", res.Got, strings.Join(res.GotRules, ", "))
		if res.Error != "" {
			fmt.Fprintf(&b, " (error: %s)", res.Error)
		}
		b.WriteString("\n")
	}
	b.WriteString("coverage (cases that fire each rule):\n")
	for _, cv := range r.Coverage {
		mark := ""
		if cv.Cases == 0 {
			mark = "  " + paint.Warn("<- never fires")
		}
		fmt.Fprintf(&b, "  %-30s %-8s %d%s\n", cv.Rule, cv.Kind, cv.Cases, mark)
	}
	fmt.Fprintf(&b, "%d passed, %d failed, %d of %d rules never fire\n", r.Passed, r.Failed, r.Uncovered, len(r.Coverage))
	_, err := io.WriteString(w, b.String())
	return err
}
