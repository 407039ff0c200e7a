package guard

import (
	"strings"
	"testing"
)

const header = "apiVersion: edictum/v1\nkind: Ruleset\nmetadata: {name: t}\ndefaults: {mode: enforce}\n"

// TestLoadPolicyErrors: every problem is positioned and says what to do.
func TestLoadPolicyErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", "p.yaml: the guard policy is empty"},
		{"no api", "kind: Ruleset\n", "p.yaml:1:1: the guard policy has no apiVersion"},
		{"bad api", "apiVersion: edictum/v2\n", `p.yaml:1:13: apiVersion must be "vouch/v1" or "edictum/v1", found "edictum/v2" (did you mean "edictum/v1"?)`},
		{"unknown top", header + "rulez: []\n", `p.yaml:5:1: unknown key "rulez" in the guard policy (did you mean "rules"?)`},
		{"edictum needs defaults", "apiVersion: edictum/v1\nkind: Ruleset\nmetadata: {name: t}\nrules: []\n", "needs `defaults: {mode: enforce}`"},
		{"vouch ext in edictum", header + "builtins: [sensitive-reads]\nrules: []\n", `unknown key "builtins"`},
		{"derived in edictum", header + "rules:\n  - id: a\n    type: pre\n    tool: Bash\n    when: {derived.commands: {equals: rm}}\n    then: {action: block, message: m}\n", "selector derived.commands is a vouch extension"},
		{"bad selector", header + "rules:\n  - id: a\n    type: pre\n    tool: Bash\n    when: {arg.command: {equals: rm}}\n    then: {action: block, message: m}\n", `p.yaml:9:12: unknown selector "arg.command" (did you mean "args."?)`},
		{"bad op", header + "rules:\n  - id: a\n    type: pre\n    tool: Bash\n    when: {args.command: {containz: rm}}\n    then: {action: block, message: m}\n", `unknown operator "containz" (did you mean "contains"?)`},
		{"bad regex", header + "rules:\n  - id: a\n    type: pre\n    tool: Bash\n    when: {args.command: {matches: '('}}\n    then: {action: block, message: m}\n", "p.yaml:9:36: matches: invalid regular expression"},
		{"two keys", header + "rules:\n  - id: a\n    type: pre\n    tool: Bash\n    when: {args.a: {equals: 1}, args.b: {equals: 2}}\n    then: {action: block, message: m}\n", "a condition must be a mapping with exactly one key"},
		{"dup id", header + "rules:\n  - id: a\n    type: session\n    limits: {max_attempts: 1}\n    then: {action: block, message: m}\n  - id: a\n    type: session\n    limits: {max_attempts: 2}\n    then: {action: block, message: m}\n", `duplicate rule id "a" (first at line 6)`},
		{"bad limit", header + "rules:\n  - id: a\n    type: session\n    limits: {max_attempts: 0}\n    then: {action: block, message: m}\n", "max_attempts must be a whole number of at least 1"},
		{"sandbox needs within", header + "rules:\n  - id: a\n    type: sandbox\n    tool: Write\n    message: m\n", `sandbox rule "a" needs within or allows`},
		{"post ask", header + "rules:\n  - id: a\n    type: post\n    tool: '*'\n    when: {output.text: {contains: x}}\n    then: {action: ask, message: m}\n", `a post rule's action must be one of block, redact, warn, found "ask"`},
		{"gt string", header + "rules:\n  - id: a\n    type: pre\n    tool: '*'\n    when: {args.n: {gt: many}}\n    then: {action: block, message: m}\n", `gt needs a number, found "many"`},
		{"two docs", header + "rules: []\n---\nx: 1\n", "holds more than one YAML document"},
		{"unknown builtin", "apiVersion: vouch/v1\nkind: Ruleset\nbuiltins: [sensitive-read]\n", `unknown built-in rule set "sensitive-read" (did you mean "sensitive-reads"?)`},
		// One error, at the repetition, not one per rule of the set.
		{"builtin twice", "apiVersion: vouch/v1\nkind: Ruleset\nbuiltins: [destructive-commands, destructive-commands]\n", `p.yaml:3:34: built-in rule set "destructive-commands" is listed twice (first at line 3); list it once`},
	}
	// single are the cases that must report exactly one error.
	single := map[string]bool{"builtin twice": true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadPolicy("p.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error:\n%v\nwant it to contain %q", err, tt.want)
			}
			if n := strings.Count(err.Error(), "p.yaml"); single[tt.name] && n != 1 {
				t.Errorf("%d errors, want 1:\n%v", n, err)
			}
		})
	}
}

// TestOperators runs every operator and selector through a decision, as
// Edictum's evaluator gives them: a missing value fails every operator but
// exists, a type mismatch makes the rule fire (fail closed, policy_error).
func TestOperators(t *testing.T) {
	e, _ := NewEngine()
	call := Call{Phase: Pre, Tool: "mcp__github__create_issue", Cwd: "/repo",
		Args:     map[string]any{"title": "Fix the build", "n": 3.0, "flag": true, "labels": []any{"bug"}, "nested": map[string]any{"k": "v"}},
		Metadata: map[string]any{"ticket": "JIRA-1", "environment": "prod"}}
	env := Env{Principal: map[string]any{"role": "dev", "claims": map[string]any{"team": "core"}},
		Getenv: func(k string) (string, bool) {
			v, ok := map[string]string{"CI": "true", "LEVEL": "7", "NAME": "x"}[k]
			return v, ok
		}}
	tests := []struct {
		when string
		want string // "fire", "pass", or "error"
	}{
		{`{args.title: {equals: "Fix the build"}}`, "fire"},
		{`{args.title: {not_equals: "Fix the build"}}`, "pass"},
		{`{args.n: {equals: 3}}`, "fire"},
		{`{args.n: {equals: "3"}}`, "pass"},
		{`{args.n: {in: [1, 2, 3]}}`, "fire"},
		{`{args.title: {not_in: [a, b]}}`, "fire"},
		{`{args.title: {contains: build}}`, "fire"},
		{`{args.title: {contains_any: [nope, Fix]}}`, "fire"},
		{`{args.title: {starts_with: Fix}}`, "fire"},
		{`{args.title: {ends_with: Fix}}`, "pass"},
		{`{args.title: {matches: '^Fix\s'}}`, "fire"},
		{`{args.title: {matches_any: ['^x', 'build$']}}`, "fire"},
		{`{args.n: {gt: 2}}`, "fire"},
		{`{args.n: {gte: 3}}`, "fire"},
		{`{args.n: {lt: 3}}`, "pass"},
		{`{args.n: {lte: 3}}`, "fire"},
		{`{args.missing: {exists: false}}`, "fire"},
		{`{args.title: {exists: true}}`, "fire"},
		{`{args.missing: {equals: x}}`, "pass"},
		{`{args.missing: {not_equals: x}}`, "pass"},
		{`{args.nested.k: {equals: v}}`, "fire"},
		{`{args.n: {contains: x}}`, "error"},
		{`{args.flag: {gt: 1}}`, "error"},
		{`{args.labels: {equals: bug}}`, "pass"},
		{`{tool.name: {starts_with: "mcp__github__"}}`, "fire"},
		{`{principal.role: {equals: dev}}`, "fire"},
		{`{principal.claims.team: {equals: core}}`, "fire"},
		{`{env.CI: {equals: true}}`, "fire"},
		{`{env.LEVEL: {gte: 7}}`, "fire"},
		{`{env.UNSET: {exists: true}}`, "pass"},
		{`{metadata.ticket: {starts_with: JIRA}}`, "fire"},
		{`{environment: {equals: prod}}`, "fire"},
		{`{output.text: {exists: true}}`, "pass"},
		{`{all: [{args.n: {gt: 1}}, {args.title: {contains: Fix}}]}`, "fire"},
		{`{all: [{args.n: {gt: 5}}, {args.n: {contains: x}}]}`, "pass"},
		{`{all: [{args.n: {gt: 1}}, {args.n: {contains: x}}]}`, "error"},
		{`{any: [{args.n: {gt: 5}}, {args.title: {contains: Fix}}]}`, "fire"},
		{`{any: [{args.n: {gt: 1}}, {args.n: {contains: x}}]}`, "fire"},
		{`{any: [{args.n: {gt: 5}}, {args.n: {contains: x}}]}`, "error"},
		{`{not: {args.n: {gt: 5}}}`, "fire"},
		{`{not: {args.n: {contains: x}}}`, "error"},
		// Nested all/any go through conditions.dl.
		{`{all: [{any: [{args.n: {gt: 5}}, {args.title: {contains: Fix}}]}, {args.flag: {equals: true}}]}`, "fire"},
		{`{all: [{any: [{args.n: {gt: 5}}, {args.n: {contains: x}}]}, {args.flag: {equals: true}}]}`, "error"},
		{`{any: [{all: [{args.n: {gt: 5}}, {args.n: {contains: x}}]}, {args.flag: {equals: false}}]}`, "pass"},
		{`{not: {any: [{all: [{args.n: {gt: 1}}, {args.flag: {equals: true}}]}, {args.title: {equals: z}}]}}`, "pass"},
		{`{any: [{all: [{args.n: {gt: 1}}, {not: {args.flag: {equals: true}}}]}, {all: [{args.title: {starts_with: Fix}}, {args.n: {lt: 4}}]}]}`, "fire"},
		{`{not: {all: [{args.n: {gt: 1}}, {not: {any: [{args.title: {contains: zzz}}, {args.flag: {equals: false}}]}}]}}`, "pass"},
	}
	for _, tt := range tests {
		t.Run(tt.when, func(t *testing.T) {
			src := header + "rules:\n  - id: r\n    type: pre\n    tool: 'mcp__github__*'\n    when: " + tt.when + "\n    then: {action: block, message: m}\n"
			p, err := LoadPolicy("p.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			c := call
			d, _, err := e.Decide(p, &c, Counters{}, env, Derive(&c, "", ""))
			if err != nil {
				t.Fatal(err)
			}
			got := "pass"
			if d.Decision == Deny {
				got = "fire"
				if d.Findings[0].Metadata["policy_error"] == true {
					got = "error"
				}
			}
			if got != tt.want {
				t.Fatalf("got %s, want %s (%+v)", got, tt.want, d.Findings)
			}
		})
	}
}

// TestModes: per-rule and policy-wide observe, disabled rules, first deny
// wins, tool selection.
func TestModes(t *testing.T) {
	e, _ := NewEngine()
	rules := `rules:
  - id: first
    type: pre
    tool: Bash
    when: {args.command: {contains: rm}}
    then: {action: block, message: "first"}
  - id: second
    type: pre
    tool: "*"
    when: {args.command: {contains: rm}}
    then: {action: block, message: "second"}
  - id: off
    type: pre
    enabled: false
    tool: "*"
    when: {args.command: {contains: rm}}
    then: {action: block, message: "off"}
`
	c := Call{Phase: Pre, Tool: "Bash", Args: map[string]any{"command": "rm x"}}
	for _, tt := range []struct {
		name, policy, decision, findings string
	}{
		{"first deny wins", header + rules, Deny, "first"},
		{"policy observe", strings.Replace(header, "mode: enforce", "mode: observe", 1) + rules, Allow, "~first,~second"},
		{"rule observe", header + strings.Replace(rules, "    tool: Bash\n", "    tool: Bash\n    mode: observe\n", 1), Deny, "~first,second"},
		{"other tool", header + strings.Replace(rules, "tool: Bash", "tool: Read", 1), Deny, "second"},
		{"prefix glob", header + strings.Replace(rules, "tool: Bash", "tool: 'Ba*'", 1), Deny, "first"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := LoadPolicy("p.yaml", []byte(tt.policy))
			if err != nil {
				t.Fatal(err)
			}
			cc := c
			d, _, err := e.Decide(p, &cc, Counters{}, Env{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range d.Findings {
				s := f.Rule
				if f.Observed {
					s = "~" + s
				}
				got = append(got, s)
			}
			if d.Decision != tt.decision || strings.Join(got, ",") != tt.findings {
				t.Fatalf("got %s %v, want %s %s", d.Decision, got, tt.decision, tt.findings)
			}
		})
	}
}

// TestPolicyWarnings: Edictum keys whose meaning vouch does not apply are
// reported with their position, never silently accepted.
func TestPolicyWarnings(t *testing.T) {
	src := `apiVersion: edictum/v1
kind: Ruleset
metadata: {name: e}
defaults: {mode: enforce}
observe_alongside: true
tools:
  Read: {side_effect: read}
rules:
  - id: ask-deploy
    type: pre
    tool: Bash
    when: {args.command: {contains: deploy}}
    then: {action: ask, message: confirm, timeout: 60, timeout_action: block}
  - id: pii
    type: post
    tool: Bash
    when: {output.text: {matches: 'x'}}
    then: {action: redact, message: pii}
  - id: pii-read
    type: post
    tool: Read
    when: {output.text: {matches: 'x'}}
    then: {action: redact, message: pii}
`
	p, err := LoadPolicy("e.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"e.yaml:5:20: observe_alongside has no effect here",
		"e.yaml:13:52: rule \"ask-deploy\": the approval timeout is not applied",
		"e.yaml:13:72: rule \"ask-deploy\": timeout_action block is not applied",
		"e.yaml:14:1: post rule \"pii\": tools: side-effect classes are not applied",
	}
	if len(p.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %d", p.Warnings, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(p.Warnings[i], w) {
			t.Errorf("warning %d = %q, want prefix %q", i, p.Warnings[i], w)
		}
	}
	clean, err := LoadPolicy("c.yaml", []byte("apiVersion: vouch/v1\nkind: Ruleset\nbuiltins: [sensitive-reads]\n"))
	if err != nil || len(clean.Warnings) != 0 {
		t.Errorf("a policy without such keys: warnings %q, %v", clean.Warnings, err)
	}
}
