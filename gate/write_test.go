package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/config"
)

func TestWriteEnvelope(t *testing.T) {
	const rulespec = "claims:\n  - {name: tests, selector: tests.passed}\npredicates:\n  - {claim: tests, rule: equals, value: true}\n"
	tests := []struct {
		name    string
		path    string // destination, relative to the root; "" is the default
		input   string
		written bool   // the envelope file exists afterwards
		verdict string // "" when nothing was verified
		err     string
	}{
		{name: "passing", input: "facts: {tests: {passed: true}}\n", written: true, verdict: "pass"},
		{name: "failing is still written", input: "facts: {tests: {passed: false}}\n", written: true, verdict: "fail"},
		{name: "empty facts", input: "facts: {}\n", err: "facts is empty, nothing written"},
		{name: "not an envelope", input: "facts: [\n", err: "invalid envelope, nothing written"},
		{name: "outside the root", path: "../elsewhere.yaml", input: "facts: {a: 1}\n", err: "elsewhere.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, "analysis"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "analysis/rulespec.yaml"), []byte(rulespec), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := config.Load(root, root)
			if err != nil {
				t.Fatal(err)
			}
			dst := ""
			if tt.path != "" {
				dst = filepath.Join(root, tt.path)
			}
			w, err := WriteEnvelope(context.Background(), WriteOptions{Config: cfg, Path: dst, Stdin: strings.NewReader(tt.input), Rulespec: cfg.Rulespec})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || w != nil {
					t.Fatalf("WriteEnvelope = %v, %v; want nothing written and an error containing %q", w, err, tt.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(cfg.Envelope)
			if got := statErr == nil; got != tt.written {
				t.Errorf("envelope written = %v, want %v", got, tt.written)
			}
			if tt.verdict != "" {
				if w.Stamped {
					t.Errorf("stamped outside a git work tree: %+v", w.Stamp)
				}
				if got := w.Outcome.Report.Verdict; got != tt.verdict {
					t.Errorf("verdict = %q, want %q", got, tt.verdict)
				}
			}
		})
	}
}

// Without a Config, WriteEnvelope reads vouch.yaml as --root asks and
// takes its rulespec and base; WriteText says what was written and what
// still fails.
func TestWriteEnvelopeDefaults(t *testing.T) {
	const rulespec = "claims:\n  - {name: tests, selector: tests.passed}\npredicates:\n  - {claim: tests, rule: equals, value: true, id: tests-pass}\n"
	tests := []struct {
		name, vouchYAML, input string
		rootSet, emptyRoot     bool
		wantText, wantErr      string
	}{
		{name: "configured rulespec, passing", vouchYAML: "rulespec: rules.yaml\n", input: "facts: {tests: {passed: true}}\n",
			rootSet: true, wantText: "wrote ROOT/.vouch/envelope.yaml\n"},
		{name: "configured rulespec, failing", vouchYAML: "rulespec: rules.yaml\n", input: "facts: {tests: {passed: false}}\n",
			rootSet: true, wantText: "wrote ROOT/.vouch/envelope.yaml\n"},
		{name: "vouch.yaml's base is used", vouchYAML: "rulespec: rules.yaml\nbase: main\n", input: "facts: {tests: {passed: true}}\n",
			rootSet: true, wantErr: "nothing written"},
		{name: "empty --root", rootSet: true, emptyRoot: true, wantErr: "--root is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range map[string]string{"vouch.yaml": tt.vouchYAML, "rules.yaml": rulespec} {
				if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := WriteOptions{Root: root, RootSet: tt.rootSet, Stdin: strings.NewReader(tt.input)}
			if tt.emptyRoot {
				o.Root = ""
			}
			w, err := WriteEnvelope(context.Background(), o)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || w != nil {
					t.Fatalf("WriteEnvelope = %v, %v; want nothing written and an error containing %q", w, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := w.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.wantText, "ROOT", root)
			if !strings.HasPrefix(b.String(), want) {
				t.Errorf("WriteText = %q, want it to start %q", b.String(), want)
			}
			if failing := strings.Contains(b.String(), "tests-pass"); failing != (w.Outcome.Report.Verdict != "pass") {
				t.Errorf("verdict %s, but the fixes name the failing predicate: %v\n%s", w.Outcome.Report.Verdict, failing, b.String())
			}
		})
	}
}
