package receipt

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/output"
)

func TestDefaultPath(t *testing.T) {
	tests := []struct{ out, env, want string }{
		{"build/vouch", ".vouch/envelope.yaml", filepath.Join("build/vouch", FileName)},
		{"", ".vouch/envelope.yaml", filepath.Join(".vouch", FileName)},
		{"", "envelope.yaml", FileName},
	}
	for _, tt := range tests {
		if got := DefaultPath(tt.out, tt.env); got != tt.want {
			t.Errorf("DefaultPath(%q, %q) = %q, want %q", tt.out, tt.env, got, tt.want)
		}
	}
}

func TestWriteProblems(t *testing.T) {
	var b strings.Builder
	if err := WriteProblems(&b, []Problem{{Subject: "rulespec", Msg: "changed"}, {Subject: "mac", Msg: "invalid"}}, output.Painter{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("FAIL rulespec: changed\nFAIL mac: invalid\n", b.String()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestWriteOK(t *testing.T) {
	_, path := setup(t, true)
	r, probs, err := Verify(path, Options{Key: key})
	if err != nil || len(probs) != 0 {
		t.Fatalf("Verify = %v, %v", probs, err)
	}
	tests := []struct {
		name string
		opts Options
		want []string // lines that must appear, in order
	}{
		{"signed, expected rulespec", Options{Key: key, Rulespec: "x"}, []string{
			"OK " + path + ": hashes match and the HMAC-SHA256 is valid",
			"  rulespec ../analysis/rulespec.yaml sha256:",
			"  root     .., 0 evidence files rehashed",
			"  verdict pass (0:pass), vouch test, 2026-01-02T03:04:05Z",
		}},
		{"unsigned, no expected rulespec", Options{}, []string{
			"OK " + path + ": hashes match; unsigned, so the receipt itself is not authenticated",
			"  note: no vouch.yaml and no --rulespec, so the rulespec was not checked against an expected one; this receipt covers " +
				filepath.Join(filepath.Dir(path), "../analysis/rulespec.yaml"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := r.WriteOK(&b, path, tt.opts, output.Painter{}); err != nil {
				t.Fatal(err)
			}
			rest := b.String()
			for _, line := range tt.want {
				i := strings.Index(rest, line)
				if i < 0 {
					t.Fatalf("missing %q in order in:\n%s", line, b.String())
				}
				rest = rest[i+len(line):]
			}
		})
	}
}
