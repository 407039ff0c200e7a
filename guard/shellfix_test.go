package guard

import (
	"strings"
	"testing"
)

// TestStarterBypasses runs the starter policy's built-in sets (as `vouch
// init --guard` writes them, enforced) on commands an adversarial review
// found allowed: hard links that give a protected or secret file a new
// name, tilde prefixes bash expands where the analysis did not (~+, ~-,
// name=~), symbolic links made earlier in the same command line, and a
// download fed to an interpreter through a process substitution. Each
// comes with look-alikes that must stay allowed.
func TestStarterBypasses(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	src := "apiVersion: vouch/v1\nkind: Ruleset\ndefaults: {mode: enforce}\n" +
		"builtins: [sensitive-reads, destructive-commands, writes-outside-repo, network-exfiltration, protect-vouch]\n"
	p, err := LoadPolicy("starter.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		command  string
		decision string
		rule     string // "" with Allow
	}{
		// Hard links.
		{`ln .vouch/guard.yaml n && sed 's/mode: enforce/mode: observe/' n > /tmp/n2 && cat /tmp/n2 > n`, Ask, "protect-vouch-writes"},
		{`ln .claude/settings.json s && echo {} > s`, Ask, "protect-vouch-writes"},
		{`cp -l .vouch/guard.yaml n`, Ask, "protect-vouch-writes"},
		{`cp --link .claude/settings.json s`, Ask, "protect-vouch-writes"},
		{`link .vouch/guard.yaml n`, Ask, "protect-vouch-writes"},
		{`ln -t /tmp .vouch/guard.yaml`, Ask, "protect-vouch-writes"},
		{`ln -f src/a.go .vouch/guard.yaml /tmp`, Ask, "protect-vouch-writes"},
		{`cp -rl .vouch /tmp/v`, Ask, "protect-vouch-writes"},
		{`cp -al . /tmp/r`, Ask, "protect-vouch-trees"},
		{`ln ~/.ssh/id_rsa k`, Deny, "sensitive-reads-files"},
		{`ln ~/.bashrc b`, Deny, "writes-outside-repo"},
		{`ln -s ../x y`, Allow, ""},
		{`ln src/a.go b.go`, Allow, ""},
		{`cp -r src dst`, Allow, ""},
		{`find . -name '*.pyc' -delete`, Allow, ""},
	}
	for _, tt := range tests {
		c := Call{Phase: Pre, Tool: "Bash", Cwd: "/repo", Args: map[string]any{"command": tt.command}}
		t.Run(strings.ReplaceAll(tt.command, "/", "_"), func(t *testing.T) {
			facts := Derive(&c, "/home/u", "/repo")
			d, _, err := e.Decide(p, &c, Counters{}, Env{}, facts)
			if err != nil {
				t.Fatal(err)
			}
			if d.Decision != tt.decision || d.Rule() != tt.rule {
				t.Errorf("%s by %q, want %s by %q (facts %+v)", d.Decision, d.Rule(), tt.decision, tt.rule, facts)
			}
		})
	}
}
