package explain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/output"
)

// Run finds the rulespec as verify does and loads the envelope when given.
func TestRun(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"vouch.yaml": "rulespec: rs.yaml\nstrict: true\n",
		"rs.yaml":    "claims:\n  - {name: caps, selector: a.caps}\npredicates:\n  - {claim: caps, rule: exists, id: has-caps}\n",
		"env.yaml":   "facts:\n  a: {caps: [x]}\n",
		"bad.yaml":   "facts: [\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	ex, err := Run(Request{Envelope: "env.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := ex.WriteText(&b, output.Painter{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "has-caps") {
		t.Errorf("explanation does not name the predicate:\n%s", b.String())
	}
	for _, tt := range []struct {
		req  Request
		want string
	}{
		{Request{Envelope: "bad.yaml"}, "invalid input"},
		{Request{Rulespec: "none.yaml"}, "none.yaml"},
		{Request{RootSet: true}, "--root is empty"},
		{Request{Select: []string{"no-such"}}, "no-such"},
	} {
		if _, err := Run(tt.req); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Run(%+v) = %v, want an error naming %q", tt.req, err, tt.want)
		}
	}
}
