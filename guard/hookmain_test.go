package guard

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseHookFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    HookRequest
		wantErr string
	}{
		{nil, HookRequest{Harness: ClaudeCode, Timeout: DefaultReadTimeout}, ""},
		{[]string{"-p", "p.yaml", "--harness", "codex"}, HookRequest{Policy: "p.yaml", Harness: Codex, Timeout: DefaultReadTimeout}, ""},
		{[]string{"--policy=p.yaml", "-timeout=250ms", "--trace", "tr"}, HookRequest{Policy: "p.yaml", Harness: ClaudeCode, TraceDir: "tr", Timeout: 250 * time.Millisecond}, ""},
		{[]string{"--policy", "-odd.yaml"}, HookRequest{Policy: "-odd.yaml", Harness: ClaudeCode, Timeout: DefaultReadTimeout}, ""},
		{[]string{"--polcy", "x"}, HookRequest{}, "unknown flag --polcy (did you mean --policy?)"},
		{[]string{"--policy", "a", "-p", "b"}, HookRequest{}, "--policy is given twice"},
		{[]string{"--timeout", "soon"}, HookRequest{}, "not a duration"},
		{[]string{"--trace"}, HookRequest{}, "--trace needs a value"},
		{[]string{"check"}, HookRequest{}, "the hook takes only flags"},
		{[]string{"--", "x"}, HookRequest{}, "the hook takes only flags"},
	}
	for _, tt := range tests {
		got, err := ParseHookFlags(tt.args)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseHookFlags(%q) error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseHookFlags(%q) = %+v, %v; want %+v", tt.args, got, err, tt.want)
		}
	}
}

// Main answers help and version, fails closed on a flag error, and
// otherwise answers the hook.
func TestLeanMain(t *testing.T) {
	run := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := Main(args, strings.NewReader("{}"), &out, &errs, noEnv, "v1.2.3")
		return code, out.String(), errs.String()
	}
	if code, out, _ := run("--help"); code != 0 || !strings.Contains(out, "Usage:") {
		t.Errorf("--help: %d %q", code, out)
	}
	if code, out, _ := run("--version"); code != 0 || out != "vouch-guard v1.2.3\n" {
		t.Errorf("--version: %d %q", code, out)
	}
	if code, _, errs := run("--harness", "claudecode"); code != 2 || !strings.Contains(errs, "vouch-guard: ") {
		t.Errorf("bad harness: %d %q", code, errs)
	}
	commandRepo(t)
	// An event without a tool is denied in Claude Code's protocol.
	if code, _, errs := run(); code != 2 || !strings.Contains(errs, "bad hook event") {
		t.Errorf("bad event: %d %q", code, errs)
	}
}

// A panic while deciding reaches RunHook's caller rather than killing the
// process from another goroutine, so the hook server can recover it.
func TestRunHookRaisesPanicInCaller(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic reached the caller")
		}
	}()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".vouch"), 0o755); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(root, ".vouch", "guard.yaml")
	if err := os.WriteFile(policy, []byte("apiVersion: vouch/v1\nkind: Ruleset\nrules:\n  - {id: r, type: pre, tool: Bash, when: {args.command: {contains: x}}, then: {action: deny, message: m}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A nil engine panics when it decides.
	RunHook(context.Background(), nil, strings.NewReader(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}`),
		HookOptions{Harness: ClaudeCode, Policy: policy, Root: root})
}
