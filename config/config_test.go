package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cfg, err := Parse("vouch.yaml", "repo", []byte(`# settings
rulespec: rules/spec.yaml
envelope: work/env.yaml
out: build/vouch
strict: true
limits:
  max_envelope_bytes: 1024
  max_depth: 8
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{File: "vouch.yaml", Root: "repo", Rulespec: filepath.Join("repo", "rules", "spec.yaml"),
		Envelope: filepath.Join("repo", "work", "env.yaml"), Out: filepath.Join("repo", "build", "vouch"), Strict: true}
	want.Limits.MaxBytes, want.Limits.MaxDepth = 1024, 8
	if *cfg != want {
		t.Errorf("got %+v\nwant %+v", *cfg, want)
	}
}

func TestParseArchitecture(t *testing.T) {
	cfg, err := Parse("vouch.yaml", "repo", []byte("rulespec: r.yaml\narchitecture:\n  config: .beadloom/_graph\n  baseline: .vouch/arch-baseline.json\n  strict: true\n  mode: observe\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Architecture{Config: filepath.Join("repo", ".beadloom", "_graph"), Baseline: filepath.Join("repo", ".vouch", "arch-baseline.json"),
		BaselineFile: "vouch.yaml", BaselineLine: 4, BaselineCol: 13, Strict: true, Observe: true, Line: 3, Col: 3}
	if cfg.Architecture == nil || *cfg.Architecture != want {
		t.Errorf("got %+v\nwant %+v", cfg.Architecture, want)
	}
	if cfg.Strict {
		t.Error("architecture.strict leaked into the rulespec's strict")
	}
	// An empty section turns the rules on with lint's defaults.
	for _, text := range []string{"architecture:\n", "architecture: {}\n", "architecture: {mode: enforce}\n"} {
		cfg, err := Parse("vouch.yaml", ".", []byte(text))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		a := cfg.Architecture
		if a == nil || a.Config != "" || a.Baseline != "" || a.Strict || a.Observe || a.Line != 1 {
			t.Errorf("%q: got %+v", text, a)
		}
	}
	// No section: no architecture rules in the gate.
	cfg, err = Parse("vouch.yaml", ".", []byte("strict: true\n"))
	if err != nil || cfg.Architecture != nil {
		t.Errorf("got %+v, %v; want no architecture", cfg, err)
	}
}

func TestParseDefaults(t *testing.T) {
	for _, text := range []string{"", "# nothing yet\n", "~\n", "{}\n"} {
		cfg, err := Parse("vouch.yaml", ".", []byte(text))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if cfg.Rulespec != DefaultRulespec || cfg.Envelope != filepath.FromSlash(DefaultEnvelope) || cfg.Out != "" || cfg.Strict {
			t.Errorf("%q: got %+v", text, cfg)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"unknown key", "rulespecs: a.yaml\n", []string{`vouch.yaml:1:1: unknown key "rulespecs" in vouch.yaml (did you mean "rulespec"?); allowed keys are architecture, base, envelope, guard, limits, out, rulespec, strict`}},
		{"unknown architecture key", "architecture:\n  basline: b.json\n", []string{`vouch.yaml:2:3: unknown key "basline" in architecture (did you mean "baseline"?); allowed keys are baseline, config, mode, new_from, strict`}},
		{"misspelt section", "architectur: {}\n", []string{`vouch.yaml:1:1: unknown key "architectur" in vouch.yaml (did you mean "architecture"?)`}},
		{"bad architecture values", "architecture:\n  config: /etc/arch.yaml\n  baseline: ../b.json\n  strict: maybe\n  mode: obsrve\n", []string{
			`vouch.yaml:2:11: architecture.config must be relative to the repository root, found the absolute path "/etc/arch.yaml"`,
			`vouch.yaml:3:13: architecture.baseline must stay inside the repository root, found "../b.json"`,
			`vouch.yaml:4:11: architecture.strict must be true or false, found "maybe"`,
			`vouch.yaml:5:9: architecture.mode must be enforce or observe, found "obsrve" (did you mean "observe"?)`,
		}},
		{"architecture not a mapping", "architecture: [a]\n", []string{"vouch.yaml:1:15: architecture must be a mapping, found a list"}},
		{"architecture duplicate", "architecture: {strict: true, strict: false}\n", []string{`vouch.yaml:1:30: duplicate key "strict" in architecture`}},
		{"unknown limit", "limits:\n  max_dept: 3\n", []string{`vouch.yaml:2:3: unknown key "max_dept" in limits (did you mean "max_depth"?)`}},
		{"every problem at once", "out: 3\nstrict: yes please\nenvelope: /abs/e.yaml\n", []string{
			`vouch.yaml:1:6: out must be a path relative to the repository root, found the number 3`,
			`vouch.yaml:2:9: strict must be true or false, found "yes please"`,
			`vouch.yaml:3:11: envelope must be relative to the repository root, found the absolute path "/abs/e.yaml"`,
		}},
		{"bad limit", "limits: {max_depth: -1, max_envelope_bytes: big}\n", []string{"1:21: max_depth must be a positive integer", "1:45: max_envelope_bytes must be a positive integer"}},
		{"escaping path", "rulespec: ../other/r.yaml\n", []string{`vouch.yaml:1:11: rulespec must stay inside the repository root, found "../other/r.yaml"`}},
		{"depth above hard limit", "limits: {max_depth: 20000}\n", []string{"above the hard limit 10000"}},
		{"duplicate", "out: a\nout: b\n", []string{`vouch.yaml:2:1: duplicate key "out" in vouch.yaml (first at line 1)`}},
		{"not a mapping", "- a\n", []string{"vouch.yaml:1:1: vouch.yaml must be a mapping, found a list"}},
		{"two documents", "out: a\n---\nout: b\n", []string{"more than one YAML document"}},
		{"syntax", "out: [a\n", []string{"vouch.yaml:2: not valid YAML"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("vouch.yaml", ".", []byte(tt.text))
			if err == nil {
				t.Fatal("no error")
			}
			msgs := strings.Split(err.Error(), "\n")
			if len(msgs) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(msgs), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.Contains(msgs[i], w) {
					t.Errorf("error %d = %q, want it to contain %q", i, msgs[i], w)
				}
			}
		})
	}
}

func TestDiscover(t *testing.T) {
	base := t.TempDir()
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(base, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(filepath.Join(base, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("cfg/a/b")
	write("cfg/vouch.yaml")
	mk("git/.git")
	mk("git/sub/dir")
	write("vouch.yaml") // above the git top level: must not be used
	mk("git/nested/.git")
	tests := []struct {
		wd, root, file string
	}{
		{"cfg/a/b", filepath.Join("..", ".."), filepath.Join("..", "..", "vouch.yaml")},
		{"cfg", ".", "vouch.yaml"},
		{"git/sub/dir", filepath.Join("..", ".."), ""},
		{"git/nested", ".", ""},
	}
	for _, tt := range tests {
		root, file, err := Discover(filepath.Join(base, tt.wd))
		if err != nil {
			t.Fatal(err)
		}
		if root != tt.root || file != tt.file {
			t.Errorf("Discover(%s) = %q, %q; want %q, %q", tt.wd, root, file, tt.root, tt.file)
		}
	}
}

func TestLoadRootFlag(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("out: o\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(".", dir)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Out != filepath.Join(dir, "o") || cfg.File != filepath.Join(dir, FileName) {
		t.Errorf("got %+v", cfg)
	}
	if _, err := Load(".", filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing --root is not an error")
	}
}

// FuzzParse: no input makes Parse panic, and an accepted file yields paths
// under the root.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "rulespec: a.yaml\n", "limits: {max_depth: 3, max_envelope_bytes: 10}\n", "out: [\n",
		"strict: true\nenvelope: e.yaml\n", "a: &x [*x]\n",
		"architecture:\n  config: architecture.yaml\n  baseline: b.json\n  strict: true\n  mode: observe\n",
		"architecture: {config: .beadloom/_graph, mode: enforce}\n", "architecture:\n", "architecture: {mode: [x], baseline: ../x}\n", "rulespec: *a\n", "- 1\n", "---\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse("vouch.yaml", "root", data)
		if err != nil {
			if _, ok := err.(ErrorList); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		paths := []string{cfg.Rulespec, cfg.Envelope}
		if a := cfg.Architecture; a != nil {
			for _, p := range []string{a.Config, a.Baseline} {
				if p != "" {
					paths = append(paths, p)
				}
			}
		}
		for _, p := range paths {
			if !strings.HasPrefix(p, "root") {
				t.Fatalf("path %q is not under the root", p)
			}
		}
	})
}

// TestParseGuardPolicy: guard.policy is a path joined to the root, or the
// ruleset itself, which the guard reads from this file.
func TestParseGuardPolicy(t *testing.T) {
	cfg, err := Parse("repo/vouch.yaml", "repo", []byte("guard:\n  policy: rules/guard.yaml\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Guard.Policy != filepath.Join("repo", "rules", "guard.yaml") {
		t.Errorf("path policy = %q", cfg.Guard.Policy)
	}
	cfg, err = Parse("repo/vouch.yaml", "repo", []byte("guard:\n  policy:\n    apiVersion: vouch/v1\n    kind: Ruleset\n    rules: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Guard.Policy != "repo/vouch.yaml"+InlinePolicy {
		t.Errorf("inline policy = %q, want repo/vouch.yaml%s", cfg.Guard.Policy, InlinePolicy)
	}
}

// LoadRoot is the --root rule every command shares: an empty --root is an
// error, an unset one finds the root, and a bad vouch.yaml says it is
// the configuration.
func TestLoadRoot(t *testing.T) {
	good, bad := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(good, FileName), []byte("out: o\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, FileName), []byte("out: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(good)
	tests := []struct {
		name    string
		root    string
		rootSet bool
		wantOut string
		wantErr string
	}{
		{name: "found from the working directory", wantOut: filepath.Join(".", "o")},
		{name: "given", root: good, rootSet: true, wantOut: filepath.Join(good, "o")},
		{name: "empty", rootSet: true, wantErr: "--root is empty"},
		{name: "bad vouch.yaml", root: bad, rootSet: true, wantErr: "invalid configuration:\n"},
		{name: "missing", root: filepath.Join(good, "missing"), rootSet: true, wantErr: "invalid configuration:\n--root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := LoadRoot(tt.root, tt.rootSet)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("LoadRoot error %v, want one starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Out != tt.wantOut {
				t.Errorf("out = %q, want %q", cfg.Out, tt.wantOut)
			}
		})
	}
}
