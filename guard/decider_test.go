package guard

import "testing"

// TestDecisionReason pins which finding a deny or ask is reported by: the
// first one whose action is the decision, so a deny is never explained by
// an ask that fired before it; else the first deny or ask (strict makes a
// deny of asks); observed findings and warnings never.
func TestDecisionReason(t *testing.T) {
	f := func(rule, action string, observed bool) Finding {
		return Finding{Rule: rule, Action: action, Message: rule + " message", Observed: observed}
	}
	tests := []struct {
		name     string
		decision string
		findings []Finding
		want     string
	}{
		{"deny after an ask", Deny, []Finding{f("a", ActAsk, false), f("d", ActDeny, false)}, "d"},
		{"ask after a warning", Ask, []Finding{f("w", "warn", false), f("a", ActAsk, false)}, "a"},
		{"observed deny skipped", Ask, []Finding{f("d", ActDeny, true), f("a", ActAsk, false)}, "a"},
		{"strict deny of an ask", Deny, []Finding{f("w", "warn", false), f("a", ActAsk, false)}, "a"},
		{"allow", Allow, []Finding{f("w", "warn", false)}, ""},
	}
	for _, tt := range tests {
		d := Decision{Decision: tt.decision, Findings: tt.findings}
		if got := d.Rule(); got != tt.want {
			t.Errorf("%s: Rule() = %q, want %q", tt.name, got, tt.want)
		}
		if tt.want != "" {
			if want := "vouch guard: " + tt.want + " message (rule " + tt.want + ")"; d.Reason() != want {
				t.Errorf("%s: Reason() = %q, want %q", tt.name, d.Reason(), want)
			}
		}
	}
}
