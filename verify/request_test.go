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
		{name: "flags win", req: Request{Envelope: "other/e.yaml", Rulespec: "r.yaml", RulespecSet: true, Out: "o", Strict: &no, Base: "HEAD~1", BaseSet: true, MaxElements: 10, AuditSession: "s9",
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
				if in.AuditSession != "s9" {
					t.Errorf("audit session %q", in.AuditSession)
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

// Command runs a request and writes the artifacts unless told not to; a
// bad rulespec or envelope is "invalid input".
func TestCommand(t *testing.T) {
	const rulespec = "claims:\n  - {name: ok, selector: ok}\npredicates:\n  - {claim: ok, rule: equals, value: true}\n"
	tests := []struct {
		name, envelope, rulespec string
		noArtifacts              bool
		wantVerdict, wantErr     string
	}{
		{name: "pass with artifacts", envelope: "facts: {ok: true}\n", rulespec: rulespec, wantVerdict: "pass"},
		{name: "fail without artifacts", envelope: "facts: {ok: false}\n", rulespec: rulespec, noArtifacts: true, wantVerdict: "fail"},
		{name: "bad envelope", envelope: "facts: [\n", rulespec: rulespec, wantErr: "invalid input:\n"},
		{name: "bad rulespec", envelope: "facts: {ok: true}\n", rulespec: "claims: [\n", wantErr: "invalid input:\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range map[string]string{"rs.yaml": tt.rulespec, "env.yaml": tt.envelope} {
				if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(root, "out")
			o, err := Command(Request{Root: root, RootSet: true, Envelope: filepath.Join(root, "env.yaml"),
				Rulespec: filepath.Join(root, "rs.yaml"), RulespecSet: true, Out: out, MaxElements: DefaultMaxElements, NoArtifacts: tt.noArtifacts})
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("Command error %v, want one starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.Report.Verdict != tt.wantVerdict {
				t.Errorf("verdict %s, want %s", o.Report.Verdict, tt.wantVerdict)
			}
			_, statErr := os.Stat(filepath.Join(out, ProgramFile))
			if written := statErr == nil; written == tt.noArtifacts {
				t.Errorf("program written: %v, with NoArtifacts %v", written, tt.noArtifacts)
			}
		})
	}
}
