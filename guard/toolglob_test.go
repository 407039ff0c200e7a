package guard

import "testing"

func TestToolGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*", "Bash", true},
		{"Bash", "Bash", true},
		{"Bash", "bash", false},
		{"Bash*", "BashOutput", true},
		{"mcp__github__*", "mcp__github__create_issue", true},
		{"mcp__github__*", "mcp__gitlab__x", false},
		{"mcp_*", "mcp_../../etc/passwd", true}, // a slash does not stop *
		{"a?c", "a/c", true},
		{"*_test", "x/y_test", true},
		{"*a*b", "xxaxxb", true},
		{"*a*b", "xxaxxbc", false},
		{"[A-Z]ead", "Read", true},
		{"[!A-Z]ead", "Read", false},
		{"[^R]ead", "read", true},
		{"[]]x", "]x", true},
		{"[a-", "a", false}, // unclosed class
		{"", "", true},
		{"", "x", false},
		{"**", "", true},
	}
	for _, tt := range tests {
		if got := toolGlob(tt.pattern, tt.name); got != tt.want {
			t.Errorf("toolGlob(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

func FuzzToolGlob(f *testing.F) {
	for _, s := range []string{"mcp_*", "[a-z]*?", "*a*b*c", "[!x]"} {
		f.Add(s, "mcp_../../x")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		got := toolGlob(pattern, name)
		// A pattern with no wildcard or class matches only itself.
		plain := true
		for _, c := range pattern {
			if c == '*' || c == '?' || c == '[' {
				plain = false
			}
		}
		if plain && got != (pattern == name) {
			t.Errorf("toolGlob(%q, %q) = %v", pattern, name, got)
		}
		if toolGlob("*", name) != true {
			t.Errorf("* does not match %q", name)
		}
	})
}
