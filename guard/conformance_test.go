package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// conformanceFixture is one case of Edictum's shared fixtures: a ruleset,
// one tool call, and what every Edictum implementation must decide.
type conformanceFixture struct {
	ID          string         `yaml:"id"`
	Description string         `yaml:"description"`
	Contract    map[string]any `yaml:"contract"`
	Bundle      map[string]any `yaml:"bundle"`
	Envelope    struct {
		ToolName  string         `yaml:"tool_name"`
		Arguments map[string]any `yaml:"arguments"`
	} `yaml:"envelope"`
	Result  any `yaml:"result"`
	Session *struct {
		ToolCalls int            `yaml:"tool_calls"`
		Attempts  int            `yaml:"attempts"`
		PerTool   map[string]int `yaml:"per_tool"`
	} `yaml:"session"`
	Environment      map[string]string `yaml:"environment"`
	Principal        map[string]any    `yaml:"principal"`
	CallMetadata     map[string]any    `yaml:"call_metadata"`
	ApprovalPending  bool              `yaml:"approval_pending"`
	ApprovalDecision string            `yaml:"approval_decision"`
	TimeoutExpired   bool              `yaml:"timeout_expired"`
	Expected         struct {
		Verdict         string `yaml:"verdict"`
		MessageContains string `yaml:"message_contains"`
		Rejected        bool   `yaml:"rejected"`
	} `yaml:"expected"`
}

// TestEdictumConformance runs Edictum's shared conformance fixtures
// (testdata/edictum-conformance) through the policy loader and engine of
// vouch guard. Verdicts map onto vouch's decisions as follows:
//   - denied: deny; or ask, when the rule that decided is an approval
//     rule (action ask, or a sandbox's outside: ask/approve): vouch hands
//     Edictum's approval to the harness's own prompt, where a person
//     denies it, or lets the approval time out;
//   - allowed: allow; or ask from an approval rule, where the person
//     approves (Edictum's fixtures without a pending approval count an
//     approval rule's call as approved);
//   - warned: allow with a warn finding; redacted: allow with the output
//     redacted; error: the ruleset or the call is refused;
//   - message_contains: the deciding finding's message holds the text.
//
// Rejection fixtures must fail to load. Where vouch decides otherwise on
// purpose, conformanceDivergent says what it decides and why.
func TestEdictumConformance(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("testdata", "edictum-conformance")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.yaml"))
	if len(files) < 25 {
		t.Fatalf("found %d fixture files in %s", len(files), dir)
	}
	count := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var suite struct {
			Fixtures []conformanceFixture `yaml:"fixtures"`
		}
		if err := yaml.Unmarshal(data, &suite); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, fx := range suite.Fixtures {
			count++
			fx := fx
			t.Run(fx.ID, func(t *testing.T) {
				if fx.Bundle != nil {
					src, _ := yaml.Marshal(fx.Bundle)
					if _, err := LoadPolicy(fx.ID+".yaml", src); err == nil {
						t.Errorf("%s (%s): ruleset loaded, want it refused", fx.ID, fx.Description)
					}
					return
				}
				checkConformance(t, e, fx)
			})
		}
	}
	if count < 150 {
		t.Errorf("ran %d fixtures, want all of them (at least 150)", count)
	}
}

// conformanceDivergent are the fixtures where vouch's verdict differs from
// the fixture's, with the verdict vouch gives and why (docs/guard.md lists
// them too).
var conformanceDivergent = map[string]struct{ verdict, why string }{
	"adv-inject-002": {"allowed", "the rule is contains: \"$()\" and the content is \"echo $(whoami)\", which does not contain that text; contains is a substring test in vouch and in Edictum's own evaluator (Python `in`), which allows this call too"},
}

func checkConformance(t *testing.T, e *Engine, fx conformanceFixture) {
	t.Helper()
	if d, ok := conformanceDivergent[fx.ID]; ok {
		fx.Expected.Verdict, fx.Expected.MessageContains = d.verdict, ""
	}
	src, _ := yaml.Marshal(fx.Contract)
	p, err := LoadPolicy(fx.ID+".yaml", src)
	if fx.Expected.Verdict == "error" {
		if err == nil {
			t.Errorf("%s (%s): loaded, want an error", fx.ID, fx.Description)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s (%s): %v", fx.ID, fx.Description, err)
	}
	// A hook event is JSON: numbers reach vouch as JSON numbers, not as
	// the YAML integers the fixture file holds.
	call := &Call{Phase: Pre, Tool: fx.Envelope.ToolName, Args: asJSON(t, fx.Envelope.Arguments).(map[string]any), Cwd: "/work", SessionID: "s"}
	if fx.CallMetadata != nil {
		call.Metadata = asJSON(t, fx.CallMetadata).(map[string]any)
	}
	if fx.Result != nil {
		call.Phase, call.Result = Post, asJSON(t, fx.Result)
	}
	var counters Counters
	if s := fx.Session; s != nil {
		counters = Counters{Attempts: s.Attempts, Execs: s.ToolCalls, ToolCalls: s.PerTool[fx.Envelope.ToolName]}
	}
	var principal map[string]any
	if fx.Principal != nil {
		principal = asJSON(t, fx.Principal).(map[string]any)
	}
	env := Env{Principal: principal, Getenv: func(k string) (string, bool) {
		v, ok := fx.Environment[k]
		return v, ok
	}}
	d, _, err := e.Decide(p, call, counters, env, Derive(call, "/home/user", "/work"))
	if err != nil {
		t.Fatalf("%s (%s): %v", fx.ID, fx.Description, err)
	}
	approval := d.Decision == Ask && approvalRule(fx.Contract, d.Rule())
	var got string
	switch {
	case d.Decision == Deny:
		got = "denied"
	case approval && (fx.ApprovalPending || fx.ApprovalDecision == "denied" || fx.ApprovalDecision == "rejected" || fx.TimeoutExpired && fx.Expected.Verdict == "denied"):
		got = "denied"
	case approval:
		got = "allowed"
	case d.RedactedOutput != nil:
		got = "redacted"
	case hasAction(d, ActWarn):
		got = "warned"
	case d.Decision == Allow:
		got = "allowed"
	default:
		got = d.Decision
	}
	if got != fx.Expected.Verdict {
		t.Errorf("%s (%s): %s (decision %s by %q), want %s", fx.ID, fx.Description, got, d.Decision, d.Rule(), fx.Expected.Verdict)
		return
	}
	if want := fx.Expected.MessageContains; want != "" && !messageHas(d, want) {
		t.Errorf("%s (%s): no finding's message contains %q: %+v", fx.ID, fx.Description, want, d.Findings)
	}
}

// asJSON is v as a hook event carries it: through JSON.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	if v == nil {
		return map[string]any{}
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// approvalRule reports whether the contract's rule id asks a person.
func approvalRule(contract map[string]any, id string) bool {
	rules, _ := contract["rules"].([]any)
	for _, r := range rules {
		m, _ := r.(map[string]any)
		if m["id"] != id {
			continue
		}
		if then, ok := m["then"].(map[string]any); ok && then["action"] == "ask" {
			return true
		}
		return m["outside"] == "ask" || m["outside"] == "approve"
	}
	return false
}

func hasAction(d *Decision, action string) bool {
	for _, f := range d.Findings {
		if f.Action == action && !f.Observed {
			return true
		}
	}
	return false
}

func messageHas(d *Decision, want string) bool {
	for _, f := range d.Findings {
		if strings.Contains(strings.ToLower(f.Message), strings.ToLower(want)) {
			return true
		}
	}
	return false
}
