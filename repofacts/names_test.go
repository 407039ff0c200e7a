package repofacts

import (
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/imports"
)

// TestBadStrings checks that any string of the document JSON would
// collapse to U+FFFD is refused, named by where it is.
func TestBadStrings(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  Doc
		want string // "" for no error
	}{
		{"valid", Doc{Changed: []string{"src/é.js"}}, ""},
		{"changed", Doc{Changed: []string{"src/\xff.js"}}, `changed[0] "src/\xff.js"`},
		{"old path", Doc{Files: []File{{Path: "a", OldPath: "b\xfe"}}}, `files[0].old_path "b\xfe"`},
		{"import target", Doc{ImportsAdded: []imports.Record{{File: "a.js", Resolution: imports.Resolution{Target: "lib/\xff.js"}}}}, `imports_added[0].resolution.target "lib/\xff.js"`},
		{"dependency source", Doc{DependenciesAdded: []Dependency{{Name: "x", Source: "\xc3"}}}, `dependencies_added[0].source "\xc3"`},
		{"warnings are not JSON", Doc{Warnings: []string{"\xff"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := badStrings(&tc.doc)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("badStrings: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("badStrings = %v, want one naming %s", err, tc.want)
			}
		})
	}
}

// TestShownPath checks that a path that could forge a line of output is
// quoted, and any other is printed as it is.
func TestShownPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"src/a.js", "src/a.js"},
		{"src/é b.js", "src/é b.js"},
		{`src/a\n.js`, `src/a\n.js`},
		{"src/a\nPASS.js", `"src/a\nPASS.js"`},
		{"src/\x1b[2Ja.js", `"src/\x1b[2Ja.js"`},
		{"src/\u202ea.js", `"src/\u202ea.js"`},
		{"src/\xff.js", `"src/\xff.js"`},
		{"src/a\tb.js", `"src/a\tb.js"`},
		{`"src/a.js"`, `"\"src/a.js\""`},
	} {
		if got := ShownPath(tc.in); got != tc.want {
			t.Errorf("ShownPath(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
