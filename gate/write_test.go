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
