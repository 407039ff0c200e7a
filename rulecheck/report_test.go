package rulecheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/output"
)

func TestCheckFiles(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.yaml")
	unused := filepath.Join(dir, "unused.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	files := map[string]string{
		clean:  "claims:\n  - {name: a, selector: x.a}\npredicates:\n  - {claim: a, rule: exists}\n",
		unused: "claims:\n  - {name: a, selector: x.a}\n  - {name: b, selector: x.b}\npredicates:\n  - {claim: a, rule: exists}\n",
		bad:    "claims: [\n",
	}
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := CheckFiles([]string{clean, unused})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) != 1 || rep.Warnings[0].Code != UnusedClaim {
		t.Fatalf("warnings = %+v, want one %s", rep.Warnings, UnusedClaim)
	}
	var b strings.Builder
	if err := rep.WriteText(&b, output.Painter{}); err != nil {
		t.Fatal(err)
	}
	want := rep.Warnings[0].String() + "\n" +
		"ok " + clean + ": 1 claim, 1 predicate, no warnings\n" +
		unused + ": 2 claims, 1 predicate, 1 warning\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text -want +got:\n%s", diff)
	}

	if _, err := CheckFiles([]string{clean, bad}); err == nil || !strings.Contains(err.Error(), "invalid input:\n"+bad) {
		t.Errorf("CheckFiles with a bad file: err = %v, want invalid input naming %s", err, bad)
	}
}
