package shellfacts

import "testing"

// TestGoPattern pins the translation of bash's bracket expressions into
// filepath.Match's, including brackets that only look like a class.
func TestGoPattern(t *testing.T) {
	tests := []struct{ in, want string }{
		{"*.go", "*.go"},
		{"[!a]x", "[^a]x"},
		{"[[:alpha:]]*", "[a-zA-Z]*"},
		{"x[[:digit:][:upper:]]", "x[0-9A-Z]"},
		{"[[:punct:]]x", "?x"},
		// "[:]" is a bracket holding ":", not the start of a class.
		{"[:]", "[:]"},
		{"[:]x[:]", "[:]x[:]"},
		{"[[:]", "[[:]"},
	}
	for _, tt := range tests {
		if got := GoPattern(tt.in); got != tt.want {
			t.Errorf("GoPattern(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
