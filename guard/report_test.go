package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/output"
)

func TestDecisionWriteText(t *testing.T) {
	d := &Decision{Decision: "deny", Findings: []Finding{
		{Rule: "no-rm", Action: "deny", Message: "rm -rf is not allowed"},
		{Rule: "watch", Action: "ask", Message: "new rule", Observed: true},
	}}
	var b strings.Builder
	if err := d.WriteText(&b, output.Painter{}); err != nil {
		t.Fatal(err)
	}
	want := "decision: deny\n  deny no-rm: rm -rf is not allowed\n  ask watch (observed): new rule\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestReplayReport(t *testing.T) {
	tests := []struct {
		name    string
		results []ReplayResult
		skipped int
		changed int
		text    string
	}{
		{name: "none", text: "0 decisions replayed, 0 changed\n"},
		{
			name: "one change and a skipped line",
			results: []ReplayResult{
				{Line: 1, Time: "t1", Session: "s", Tool: "Bash", Old: "allow", New: "allow"},
				{Line: 2, Time: "t2", Session: "s", Tool: "Bash", Old: "allow", New: "deny", NewRule: "no-rm", Changed: true},
			},
			skipped: 1, changed: 1,
			text: "changed: audit.jsonl:2 t2 s Bash: allow -> deny (no-rm)\n2 decisions replayed, 1 changed, 1 unreadable lines skipped\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReplayReport("audit.jsonl", "abc", tt.results, tt.skipped)
			if r.Changed != tt.changed {
				t.Errorf("Changed = %d, want %d", r.Changed, tt.changed)
			}
			var b strings.Builder
			if err := r.WriteText(&b, output.Painter{}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.text, b.String()); diff != "" {
				t.Errorf("text -want +got:\n%s", diff)
			}
			b.Reset()
			if err := r.WriteJSON(&b); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), `"results": [`) {
				t.Errorf("JSON has no results array:\n%s", b.String())
			}
		})
	}
}

func TestCaseReport(t *testing.T) {
	results := []CaseResult{
		{Name: "allowed", Pass: true, Want: "allow", Got: "allow"},
		{Name: "denied", Line: 7, Want: "deny", Got: "allow", WantRule: []string{"no-rm"}, GotRules: []string{}, Error: "boom"},
	}
	cov := []Coverage{{Rule: "no-rm", Kind: "pre", Cases: 0}, {Rule: "ok", Kind: "post", Cases: 2}}
	r := NewCaseReport("cases.yaml", "guard.yaml", results, cov)
	if r.Passed != 1 || r.Failed != 1 || r.Uncovered != 1 {
		t.Fatalf("counts = %d passed, %d failed, %d uncovered; want 1, 1, 1", r.Passed, r.Failed, r.Uncovered)
	}
	var b strings.Builder
	if err := r.WriteText(&b, output.Painter{}); err != nil {
		t.Fatal(err)
	}
	want := "ok   allowed\n" +
		"FAIL denied (cases.yaml:7): want deny by [no-rm], got allow by [] (error: boom)\n" +
		"coverage (cases that fire each rule):\n" +
		"  no-rm                          pre      0  <- never fires\n" +
		"  ok                             post     2\n" +
		"1 passed, 1 failed, 1 of 2 rules never fire\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// TestDecisionWriteTextColour: with colour on, the decision and each
// action are painted (deny red, allow green, ask and observed yellow);
// the words stay the same.
func TestDecisionWriteTextColour(t *testing.T) {
	d := &Decision{Decision: "deny", Findings: []Finding{
		{Rule: "a", Action: "ask", Message: "m"},
		{Rule: "b", Action: "deny", Message: "n", Observed: true},
		{Rule: "c", Action: "deny", Message: "o"},
	}}
	var b strings.Builder
	if err := d.WriteText(&b, output.Painter{On: true}); err != nil {
		t.Fatal(err)
	}
	want := "decision: \x1b[31;1mdeny\x1b[0m\n  \x1b[33mask\x1b[0m a: m\n  \x1b[33mdeny\x1b[0m b (observed): n\n  \x1b[31;1mdeny\x1b[0m c: o\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("coloured text (-want +got):\n%s", diff)
	}
}
