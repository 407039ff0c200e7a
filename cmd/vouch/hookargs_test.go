package main

import (
	"io"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/guard"
	"github.com/vouch-dev/vouch/internal/cliapp"
)

// TestHookArgsMatchCLI checks the fast path of run: every argument list
// hookArgs accepts must mean what urfave/cli makes of it, and what it
// refuses (subcommands, help, unknown or repeated flags, bad values) is
// left to the CLI.
func TestHookArgsMatchCLI(t *testing.T) {
	tests := []struct {
		args []string
		fast bool
	}{
		{[]string{"vouch", "guard"}, true},
		{[]string{"vouch", "guard", "--policy", "p.yaml"}, true},
		{[]string{"vouch", "guard", "-p", "p.yaml", "--harness", "codex"}, true},
		{[]string{"vouch", "guard", "--policy=p.yaml", "--harness=gemini", "--timeout=3s", "--trace", "tr"}, true},
		{[]string{"vouch", "guard", "-policy", "p.yaml", "-timeout", "250ms"}, true},
		{[]string{"vouch", "guard", "--harness", "json", "--policy", "-odd-name.yaml"}, true},
		{[]string{"vouch", "guard", "check", "--policy", "p.yaml"}, false},
		{[]string{"vouch", "guard", "--help"}, false},
		{[]string{"vouch", "guard", "--policy", "a", "--policy", "b"}, false},
		{[]string{"vouch", "guard", "--timeout", "soon"}, false},
		{[]string{"vouch", "guard", "--policy"}, false},
		{[]string{"vouch", "guard", "--verbose"}, false},
		{[]string{"vouch", "guard", "extra"}, false},
		{[]string{"vouch", "guard", "--", "x"}, false},
		{[]string{"vouch", "verify", "--policy", "p"}, false},
		{[]string{"vouch"}, false},
	}
	for _, tt := range tests {
		got, ok := hookArgs(tt.args)
		if ok != tt.fast {
			t.Errorf("hookArgs(%q) fast = %v, want %v", tt.args, ok, tt.fast)
			continue
		}
		if !ok {
			continue
		}
		app := newApp(io.Discard, io.Discard)
		var cliFlags guard.HookRequest
		ran := false
		for _, c := range app.Commands {
			if c.Name == "guard" {
				c.Action = func(c *cli.Context) error {
					ran = true
					cliFlags = guard.HookRequest{Policy: c.String("policy"), Harness: c.String("harness"), TraceDir: c.String("trace"), Timeout: c.Duration("timeout")}
					return nil
				}
			}
		}
		if err := app.Run(cliapp.FlagsFirst(app, tt.args)); err != nil || !ran {
			t.Errorf("CLI on %q: ran %v, error %v", tt.args, ran, err)
			continue
		}
		if got != cliFlags {
			t.Errorf("hookArgs(%q) = %+v, the CLI reads %+v", tt.args, got, cliFlags)
		}
	}
	if h, _ := hookArgs([]string{"vouch", "guard"}); h.Harness != guard.ClaudeCode || h.Timeout != guard.DefaultReadTimeout || h.Timeout == time.Duration(0) {
		t.Errorf("defaults %+v", h)
	}
}
