package verify

import (
	"fmt"
	"io"
	"strings"
)

// WriteFixes writes what an agent must fix, for the agent to read: the
// counts, then every failing predicate with its id and claim, what was
// expected, what was found, why it failed, and its notes. Observed failures
// come last, marked as not blocking. Nothing is written for failures when
// there are none.
func (r *Report) WriteFixes(w io.Writer) error {
	var b strings.Builder
	s := r.Summary
	enforced := s.Failed - s.Observed
	fmt.Fprintf(&b, "%d/%d predicates passed, %d failed", s.Passed, s.Total, s.Failed)
	if s.Observed > 0 {
		fmt.Fprintf(&b, " (%d observed, not blocking)", s.Observed)
	}
	fmt.Fprintf(&b, ", %d skipped.\n", s.Skipped)
	n := 0
	for _, p := range r.Predicates {
		if p.Status == Fail && !p.Observed {
			if n == 0 {
				fmt.Fprintf(&b, "Fix %s, update the envelope, and finish again:\n", plural(enforced, "this failure", "these failures"))
			}
			n++
			writeFix(&b, fmt.Sprintf("%d.", n), p)
		}
	}
	first := true
	for _, p := range r.Predicates {
		if p.Status == Fail && p.Observed {
			if first {
				b.WriteString("Observed only (reported, not blocking):\n")
				first = false
			}
			writeFix(&b, "-", p)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFix(b *strings.Builder, bullet string, p PredicateReport) {
	name := fmt.Sprintf("[%d]", p.Index)
	if p.ID != "" {
		name = fmt.Sprintf("[%d %s]", p.Index, p.ID)
	}
	pad := strings.Repeat(" ", len(bullet)+1)
	fmt.Fprintf(b, "%s %s claim %s (selector %s)\n", bullet, name, p.Claim, p.Selector)
	expected := p.Rule
	if p.Value != nil {
		expected += " " + short(string(p.Value))
	}
	if p.When != nil {
		expected += fmt.Sprintf(" (when %s %s", p.When.Claim, p.When.Rule)
		if p.When.Value != nil {
			expected += " " + short(string(p.When.Value))
		}
		expected += ")"
	}
	fmt.Fprintf(b, "%sexpected: %s\n", pad, expected)
	fmt.Fprintf(b, "%sfound: %s\n", pad, describeValue(p.Actual))
	if p.Message != "" {
		fmt.Fprintf(b, "%swhy: %s\n", pad, p.Message)
	}
	if p.Notes != "" {
		fmt.Fprintf(b, "%snote: %s\n", pad, strings.ReplaceAll(p.Notes, "\n", " "))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
