package guard

import (
	"fmt"
	"os"
	"slices"
	"testing"
)

func mustPolicy(t *testing.T, file string) *Policy {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := LoadPolicy(file, data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDecideBasic(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	p := mustPolicy(t, "testdata/basic.yaml")
	tests := []struct {
		name     string
		call     Call
		cnt      Counters
		env      Env
		decision string
		rules    string // comma-joined finding rules, observed ones with a ~ prefix
	}{
		{"read env denied", Call{Phase: Pre, Tool: "Read", Args: map[string]any{"file_path": "/repo/.env"}}, Counters{}, Env{}, Deny, "no-env-reads"},
		{"read ok", Call{Phase: Pre, Tool: "Read", Args: map[string]any{"file_path": "/repo/main.go"}}, Counters{}, Env{}, Allow, ""},
		{"rm -rf", Call{Phase: Pre, Tool: "Bash", Args: map[string]any{"command": "cd x && rm -rf /"}}, Counters{}, Env{}, Deny, "no-rm-rf"},
		{"push asks", Call{Phase: Pre, Tool: "Bash", Args: map[string]any{"command": "git push origin main"}}, Counters{}, Env{}, Ask, "ask-push"},
		{"push by admin", Call{Phase: Pre, Tool: "Bash", Args: map[string]any{"command": "git push origin main"}}, Counters{}, Env{Principal: map[string]any{"role": "admin"}}, Allow, ""},
		{"curl observed", Call{Phase: Pre, Tool: "Bash", Args: map[string]any{"command": "curl x"}}, Counters{}, Env{}, Allow, "~watch-curl"},
		{"attempts", Call{Phase: Pre, Tool: "Read", Args: map[string]any{"file_path": "/repo/a"}}, Counters{Attempts: 3}, Env{}, Deny, "limits"},
		{"attempts first", Call{Phase: Pre, Tool: "Read", Args: map[string]any{"file_path": "/repo/.env"}}, Counters{Attempts: 3}, Env{}, Deny, "limits"},
		// The attempt limit (checked first) and the run limit both
		// reached: one finding, at the attempt limit's place.
		{"two limits", Call{Phase: Pre, Tool: "Read", Args: map[string]any{"file_path": "/repo/.env"}}, Counters{Attempts: 3, Execs: 2}, Env{}, Deny, "limits"},
		{"execs", Call{Phase: Pre, Tool: "Read", Args: map[string]any{"file_path": "/repo/a"}}, Counters{Execs: 2}, Env{}, Deny, "limits"},
		{"per tool", Call{Phase: Pre, Tool: "Bash", Args: map[string]any{"command": "ls"}}, Counters{ToolCalls: 1}, Env{}, Deny, "limits"},
		{"per tool other", Call{Phase: Pre, Tool: "Read", Args: map[string]any{"file_path": "/repo/a"}}, Counters{ToolCalls: 1}, Env{}, Allow, ""},
		{"write outside", Call{Phase: Pre, Tool: "Write", Cwd: "/repo", Args: map[string]any{"file_path": "../etc/passwd"}}, Counters{}, Env{}, Deny, "repo-only"},
		{"write inside", Call{Phase: Pre, Tool: "Write", Cwd: "/repo", Args: map[string]any{"file_path": "src/a.go"}}, Counters{}, Env{}, Allow, ""},
		{"write .git", Call{Phase: Pre, Tool: "Edit", Cwd: "/repo", Args: map[string]any{"file_path": "/repo/.git/config"}}, Counters{}, Env{}, Deny, "repo-only"},
		{"write encoded", Call{Phase: Pre, Tool: "Write", Cwd: "/repo", Args: map[string]any{"file_path": "/repo/%2e%2e/etc/x"}}, Counters{}, Env{}, Deny, "repo-only"},
		{"post redact", Call{Phase: Post, Tool: "Bash", Args: map[string]any{"command": "cat x"}, Result: "id 123-45-6789"}, Counters{}, Env{}, Allow, "pii-out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.call
			d, _, err := e.Decide(p, &c, tt.cnt, tt.env, Derive(&c, "", ""))
			if err != nil {
				t.Fatal(err)
			}
			if d.Decision != tt.decision {
				t.Errorf("decision %s, want %s (%+v)", d.Decision, tt.decision, d.Findings)
			}
			got := ""
			for i, f := range d.Findings {
				if i > 0 {
					got += ","
				}
				if f.Observed {
					got += "~"
				}
				got += f.Rule
			}
			if got != tt.rules {
				t.Errorf("findings %q, want %q", got, tt.rules)
			}
		})
	}
}

// TestObservedLimitsOnce checks that a rule reached at two places in the
// evaluation order is reported once: an observed session rule whose
// attempt and run limits are both reached, with nothing denying.
func TestObservedLimitsOnce(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	p, err := LoadPolicy("limits.yaml", []byte(`apiVersion: edictum/v1
kind: Ruleset
metadata: {name: limits}
defaults: {mode: enforce}
rules:
  - id: watch-curl
    type: pre
    mode: observe
    tool: Bash
    when:
      args.command: {starts_with: curl}
    then: {action: block, message: curl}
  - id: limits
    type: session
    mode: observe
    limits: {max_attempts: 3, max_tool_calls: 2}
    then: {action: block, message: limit}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := Call{Phase: Pre, Tool: "Bash", Args: map[string]any{"command": "curl x"}}
	d, _, err := e.Decide(p, &c, Counters{Attempts: 3, Execs: 2}, Env{}, Derive(&c, "", ""))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range d.Findings {
		got = append(got, fmt.Sprintf("%s observed=%v", f.Rule, f.Observed))
	}
	want := []string{"limits observed=true", "watch-curl observed=true"}
	if d.Decision != Allow || !slices.Equal(got, want) {
		t.Errorf("decision %s, findings %q; want allow, %q", d.Decision, got, want)
	}
}
