package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vouch-dev/vouch/datalog"
)

// The written guard.dl is self-contained: parsing and evaluating it alone
// derives the decision that was answered.
func TestTraceReplays(t *testing.T) {
	e, _ := NewEngine()
	p := mustPolicy(t, "testdata/bench12.yaml")
	c := Call{Phase: Pre, Tool: "Bash", Cwd: "/work/repo", Args: map[string]any{"command": "kubectl apply -f prod.yaml"}}
	d, ev, err := e.Decide(p, &c, Counters{}, Env{}, Derive(&c, "", ""))
	if err != nil {
		t.Fatal(err)
	}
	if d.Decision != Ask {
		t.Fatalf("decision %s, want ask", d.Decision)
	}
	dir := t.TempDir()
	if err := WriteTrace(dir, ev, d); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"guard.dl", "conditions.dl"} {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		res, err := datalog.Eval(string(src), nil, datalog.Options{})
		if err != nil {
			t.Fatalf("%s does not evaluate alone: %v", name, err)
		}
		if name == "guard.dl" {
			ds := res.Facts("decision", 1)
			if len(ds) != 1 || ds[0].String() != "decision(/ask)" {
				t.Fatalf("replayed decision %v, want decision(/ask)", ds)
			}
		}
	}
}
