package guard

import (
	"bytes"
	"testing"
)

func TestAnswerWrite(t *testing.T) {
	tests := []struct {
		name string
		a    Answer
	}{
		{"allow, nothing said", Answer{}},
		{"deny on stderr", Answer{Stderr: []byte("denied\n"), Exit: 2}},
		{"JSON on stdout", Answer{Stdout: []byte(`{"decision":"allow"}` + "\n"), Exit: 0}},
		{"both", Answer{Stdout: []byte("{}\n"), Stderr: []byte("why\n"), Exit: 1}},
	}
	for _, tt := range tests {
		var out, errs bytes.Buffer
		if code := tt.a.Write(&out, &errs); code != tt.a.Exit || out.String() != string(tt.a.Stdout) || errs.String() != string(tt.a.Stderr) {
			t.Errorf("%s: Write = %d, %q, %q; want %d, %q, %q", tt.name, code, out.String(), errs.String(), tt.a.Exit, tt.a.Stdout, tt.a.Stderr)
		}
	}
}
