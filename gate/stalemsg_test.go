package gate

import (
	"strings"
	"testing"
)

// TestStaleMessageQuotes checks that a changed name that could forge a
// line of output is printed quoted, and an ordinary one as it is.
func TestStaleMessageQuotes(t *testing.T) {
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{"src/a.go"}, "(src/a.go)"},
		{[]string{"src/a\nPASS.go", "b.go"}, `("src/a\nPASS.go", b.go)`},
		{[]string{"src/\x1b[2J.go"}, `("src/\x1b[2J.go")`},
	} {
		got := StaleMessage(".vouch/envelope.yaml", tc.files)
		if !strings.Contains(got, tc.want) {
			t.Errorf("StaleMessage(%q) = %q, want it to hold %s", tc.files, got, tc.want)
		}
	}
}
