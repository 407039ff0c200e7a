package guard

import (
	"errors"
	"os"
	"testing"
)

// FuzzParseEvent: any bytes, any harness: a Call or an ErrBadEvent, never
// a panic, and every answer rendered from a bad event is a deny.
func FuzzParseEvent(f *testing.F) {
	seeds := []string{
		`{"session_id":"s","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}`,
		`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{},"tool_response":{"success":false}}`,
		`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}`,
		`{"conversation_id":"c","hook_event_name":"beforeShellExecution","command":"ls","workspace_roots":["/r"]}`,
		`{"hook_event_name":"beforeMCPExecution","tool_name":"x","tool_input":"{\"a\":1}"}`,
		`{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}","cwd":"/r"}`,
		`{"toolName":"bash","toolArgs":"{","toolResult":{"resultType":"failure"}}`,
		`{"phase":"post","tool":"Read","args":{"file_path":"/x"},"result":"ok"}`,
		`[]`, `null`, `{"tool_name":1}`, `{} {}`, "",
	}
	for _, s := range seeds {
		for _, h := range Harnesses() {
			f.Add(h, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, harness string, data []byte) {
		c, err := ParseEvent(harness, data)
		if err != nil {
			if CheckHarness(harness) == nil && !errors.Is(err, ErrBadEvent) {
				t.Fatalf("error is not ErrBadEvent: %v", err)
			}
			if CheckHarness(harness) == nil {
				a := Render(harness, Pre, "", ErrorDecision(err))
				if len(a.Stdout) == 0 {
					t.Fatalf("%s: a bad event got an empty answer", harness)
				}
			}
			return
		}
		if c.Tool == "" && harness != Copilot {
			t.Fatalf("parsed a call without a tool")
		}
		if c.Args == nil || c.Metadata == nil {
			t.Fatalf("nil args or metadata")
		}
		Derive(c, "/home/u", "/repo")
	})
}

// FuzzLoadPolicy: any bytes load or give positioned errors, never a panic;
// a policy that loads evaluates without error.
func FuzzLoadPolicy(f *testing.F) {
	for _, file := range []string{"testdata/basic.yaml", "testdata/bench12.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("apiVersion: vouch/v1\nkind: Ruleset\nbuiltins: [sensitive-reads]\n"))
	f.Add([]byte(header + "rules:\n  - id: a\n    type: pre\n    tool: '*'\n    when: {not: {any: [{args.a: {gt: 1}}]}}\n    then: {action: block, message: '{args.a}'}\n"))
	f.Add([]byte("apiVersion: edictum/v1\nkind: Ruleset\nrules: &a [*a]\n"))
	e, err := NewEngine()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := LoadPolicy("p.yaml", data)
		if err != nil {
			return
		}
		c := Call{Phase: Pre, Tool: "Bash", Cwd: "/repo", Args: map[string]any{"command": "cat .env", "a": 2.0}}
		if _, _, err := e.Decide(p, &c, Counters{Attempts: 1}, Env{}, Derive(&c, "", "/repo")); err != nil {
			t.Fatalf("a loaded policy failed to evaluate: %v", err)
		}
	})
}
