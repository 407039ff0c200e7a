package guard

import (
	"bytes"
	"testing"

	"github.com/vouch-dev/vouch/output"
)

func TestWriteValidation(t *testing.T) {
	tests := []struct {
		name       string
		warnings   []string
		paint      output.Painter
		wantStderr string
	}{
		{"no warnings", nil, output.Painter{}, ""},
		{"plain warnings", []string{"a", "b"}, output.Painter{}, "warning: a\nwarning: b\n"},
		{"painted warning", []string{"a"}, output.Painter{On: true}, output.Painter{On: true}.Warn("warning:") + " a\n"},
	}
	for _, tt := range tests {
		var out, errs bytes.Buffer
		if err := WriteValidation(&out, &errs, "policy.yaml: ok", tt.warnings, tt.paint); err != nil {
			t.Fatal(err)
		}
		if out.String() != "policy.yaml: ok\n" || errs.String() != tt.wantStderr {
			t.Errorf("%s: stdout %q, stderr %q; want the summary and %q", tt.name, out.String(), errs.String(), tt.wantStderr)
		}
	}
}
