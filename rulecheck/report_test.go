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

// Run checks the named rulespecs, else the configured one under the
// root; vouch.yaml matters only in the second case.
func TestRun(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"vouch.yaml":        "rulespec: rules.yaml\n",
		"rules.yaml":        "claims:\n  - {name: a, selector: x.a}\npredicates:\n  - {claim: a, rule: exists}\n",
		"other.yaml":        "claims:\n  - {name: a, selector: x.a}\n  - {name: b, selector: x.b}\npredicates:\n  - {claim: a, rule: exists}\n",
		"broken/vouch.yaml": "out: [\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name     string
		req      Request
		wantFile string
		wantErr  string
	}{
		{name: "configured rulespec", req: Request{Root: root, RootSet: true}, wantFile: filepath.Join(root, "rules.yaml")},
		{name: "named rulespec", req: Request{Paths: []string{filepath.Join(root, "other.yaml")}}, wantFile: filepath.Join(root, "other.yaml")},
		{name: "named rulespec ignores a broken vouch.yaml", req: Request{Paths: []string{filepath.Join(root, "other.yaml")}, Root: filepath.Join(root, "broken"), RootSet: true},
			wantFile: filepath.Join(root, "other.yaml")},
		{name: "broken vouch.yaml", req: Request{Root: filepath.Join(root, "broken"), RootSet: true}, wantErr: "invalid configuration:"},
		{name: "empty --root", req: Request{RootSet: true}, wantErr: "--root is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run(tt.req)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Run error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Files) != 1 || rep.Files[0].File != tt.wantFile {
				t.Errorf("checked %+v, want %s", rep.Files, tt.wantFile)
			}
		})
	}
}
