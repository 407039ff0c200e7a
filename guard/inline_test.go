package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/config"
)

// TestLoadInlinePolicy: a policy under guard.policy in vouch.yaml loads
// through LoadPolicyFile (cached too), and one that is not a mapping of
// rules is refused with the file named.
func TestLoadInlinePolicy(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "vouch.yaml")
	src := "guard:\n  policy:\n    apiVersion: vouch/v1\n    kind: Ruleset\n    rules:\n      - {id: r, type: pre, tool: Bash, when: {args.command: {equals: x}}, then: {action: block, message: m}}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	for range 2 { // the second load comes from the cache
		p, err := LoadPolicyFile(file+config.InlinePolicy, cache)
		if err != nil {
			t.Fatal(err)
		}
		if p.File != file+config.InlinePolicy || len(p.Rules) == 0 || p.Rules[0].ID != "r" {
			t.Errorf("policy %s with rules %+v", p.File, p.Rules)
		}
	}
	if err := os.WriteFile(file, []byte("guard:\n  principal: {role: x}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPolicyFile(file+config.InlinePolicy, ""); err == nil || !strings.Contains(err.Error(), "guard.policy holds no policy") {
		t.Errorf("no inline policy: %v", err)
	}
}
