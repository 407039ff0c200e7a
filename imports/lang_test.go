package imports

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLangs(t *testing.T) {
	tests := []struct {
		in   []string
		want []Lang
		err  string
	}{
		{in: nil, want: nil},
		{in: []string{"go, python", "", "rust"}, want: []Lang{Go, Python, Rust}},
		{in: []string{"go,,ts"}, want: []Lang{Go, TypeScript}},
		{in: []string{"pyhton"}, err: `unknown --lang "pyhton" (did you mean "python"?); want one of go, python, js, ts, rust`},
	}
	for _, tt := range tests {
		got, err := ParseLangs(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ParseLangs(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("ParseLangs(%q): %v", tt.in, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseLangs(%q) -want +got:\n%s", tt.in, diff)
		}
	}
}

func TestWriteWarnings(t *testing.T) {
	var b strings.Builder
	err := WriteWarnings(&b, []Warning{{File: "a.go", Line: 3, Message: "bad"}, {File: "go.mod", Message: "unreadable"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("a.go:3: warning: bad\ngo.mod: warning: unreadable\n", b.String()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
