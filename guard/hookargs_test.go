package guard

import (
	"strings"
	"testing"
)

func TestHookInvocation(t *testing.T) {
	tests := []struct {
		args []string
		want HookRequest
		ok   bool
	}{
		{[]string{"guard"}, HookRequest{Harness: ClaudeCode, Timeout: DefaultReadTimeout}, true},
		{[]string{"guard", "-p", "p.yaml", "--harness=codex"}, HookRequest{Policy: "p.yaml", Harness: Codex, Timeout: DefaultReadTimeout}, true},
		{[]string{"guard", "check"}, HookRequest{}, false},
		{[]string{"guard", "--help"}, HookRequest{}, false},
		{[]string{"verify"}, HookRequest{}, false},
		{nil, HookRequest{}, false},
	}
	for _, tt := range tests {
		got, ok := HookInvocation(tt.args)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("HookInvocation(%q) = %+v, %v; want %+v, %v", tt.args, got, ok, tt.want, tt.ok)
		}
	}
}

func TestArgsError(t *testing.T) {
	tests := []struct{ arg, want string }{
		{"chek", `unknown guard command "chek" (did you mean "check"?); the hook itself takes no arguments (the event comes on stdin); commands are check, replay, test, validate`},
		{"zzzzzz", `unknown guard command "zzzzzz"; the hook itself takes no arguments`},
	}
	for _, tt := range tests {
		if got := ArgsError(tt.arg).Error(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("ArgsError(%q) = %q, want it to start %q", tt.arg, got, tt.want)
		}
	}
}
