package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Resolve: flags given win over vouch.yaml, vouch.yaml over the defaults,
// and bad limits are the user's error.
func TestResolve(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "vouch.yaml"), []byte("envelope: env.yaml\nrulespec: rs.yaml\nout: build\nstrict: true\nbase: main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	ptr := func(n int) *int { return &n }
	no := false
	tests := []struct {
		name    string
		req     Request
		check   func(t *testing.T, in Input, dir string)
		wantErr string
	}{
		{name: "vouch.yaml's defaults", req: Request{MaxElements: 10}, check: func(t *testing.T, in Input, dir string) {
			if filepath.Base(in.EnvelopePath) != "env.yaml" || filepath.Base(in.RulespecPath) != "rs.yaml" || in.RulespecExplicit {
				t.Errorf("paths %s %s explicit %v", in.EnvelopePath, in.RulespecPath, in.RulespecExplicit)
			}
			if !in.Strict || in.Base != "main" || !strings.Contains(in.BaseFrom, "vouch.yaml") {
				t.Errorf("strict %v base %q from %q", in.Strict, in.Base, in.BaseFrom)
			}
			if filepath.Base(dir) != "build" {
				t.Errorf("artifacts into %s, want build", dir)
			}
		}},
		{name: "flags win", req: Request{Envelope: "other/e.yaml", Rulespec: "r.yaml", RulespecSet: true, Out: "o", Strict: &no, Base: "HEAD~1", BaseSet: true, MaxElements: 10,
			Outputs: func(dir string) []string { return []string{filepath.Join(dir, "x")} }},
			check: func(t *testing.T, in Input, dir string) {
				if in.EnvelopePath != "other/e.yaml" || in.RulespecPath != "r.yaml" || !in.RulespecExplicit {
					t.Errorf("paths %s %s explicit %v", in.EnvelopePath, in.RulespecPath, in.RulespecExplicit)
				}
				if in.Strict || in.Base != "HEAD~1" || in.BaseFrom != "--base" || dir != "o" {
					t.Errorf("strict %v base %q from %q dir %q", in.Strict, in.Base, in.BaseFrom, dir)
				}
				if len(in.Outputs) != 1 || in.Outputs[0] != filepath.Join("o", "x") {
					t.Errorf("outputs %v", in.Outputs)
				}
			}},
		{name: "bad depth", req: Request{MaxElements: 10, MaxDepth: ptr(0)}, wantErr: "--max-depth must be positive"},
		{name: "bad elements", req: Request{}, wantErr: "--max-elements must be positive"},
		{name: "empty root", req: Request{RootSet: true, MaxElements: 10}, wantErr: "--root is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, dir, err := Resolve(tt.req)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Resolve error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, in, dir)
		})
	}
}
