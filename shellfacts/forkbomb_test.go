package shellfacts

import (
	"slices"
	"strings"
	"testing"
)

// TestForkBomb pins which function definitions are fork bombs: a function
// calling itself detached (background, pipeline, coprocess), not one
// calling itself in turn or calling another function.
func TestForkBomb(t *testing.T) {
	tests := []struct {
		command string
		want    bool
	}{
		{`:(){ :|:& };:`, true},
		{`bomb() { bomb | bomb & }; bomb`, true},
		{`f() { f & f; }; f`, true},
		{`function g { g | g; }; g`, true},
		{`f() { f & f; }; sudo true && f`, true},
		// Not called, or a recursion with an end.
		{`f() { f & f; }`, false},
		{`f() { echo x | f; }; echo`, false},
		{`tree() { ls "$1" | while read d; do [ -d "$1/$d" ] && tree "$1/$d"; done; }; tree .`, false},
		{`walk() { for d in "$1"/*/; do walk "$d" & done; wait; }; walk .`, false},
		{`f() { [ "$1" -gt 0 ] && f $(($1 - 1)) & }; f 3`, false},
		{`f() { echo "$1"; [ "$1" -gt 0 ] && f $(($1 - 1)); }; f 3`, false},
		{`f() { g & g; }; g() { echo x; }`, false},
		{`f() { sleep 1 & wait; }`, false},
	}
	for _, tt := range tests {
		f, err := Parse(tt.command, Options{Cwd: "/r"})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(f.Unknown, func(s string) bool { return strings.HasPrefix(s, forkBombPrefix) })
		if got != tt.want {
			t.Errorf("Parse(%q): fork bomb %v, want %v (unknown %q)", tt.command, got, tt.want, f.Unknown)
		}
	}
}
