package shellfacts

import (
	"slices"
	"testing"
)

// TestXargsReplaceInShell pins xargs -I with a shell: the input put into
// sh -c's code, or into the name of the script a shell runs, is code,
// and the unknown_commands entry says so; put where the shell takes it
// as an argument ($1 after sh -c CODE NAME), it is data.
func TestXargsReplaceInShell(t *testing.T) {
	tests := []struct {
		command string
		unknown []string
	}{
		{`find . -name '*.go' | xargs -I% sh -c 'gofmt -l %'`,
			[]string{`xargs -I% sh -c 'gofmt -l %' (each input line replaces % in the code before sh parses it)`}},
		{`ls | xargs -i bash -ec 'rm -rf {}'`,
			[]string{`xargs -I{} bash -c 'rm -rf {}' (each input line replaces {} in the code before bash parses it)`}},
		{`ls | xargs -I% sh %`, []string{`xargs -I% sh % (each input line names the script sh runs)`}},
		{`ls | xargs -I% sh -c 'gofmt -l "$1"' _ %`, nil},
		{`ls | xargs -I{} sh -c 'echo x' {}`, nil},
	}
	for _, tt := range tests {
		f, err := Parse(tt.command, Options{Cwd: "/repo", Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(f.Unknown, tt.unknown) {
			t.Errorf("%q: unknown %q, want %q", tt.command, f.Unknown, tt.unknown)
		}
	}
}
