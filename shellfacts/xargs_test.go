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

// TestXargsListedInput pins xargs -0 fed by a find -print0 or grep -lZ:
// each path is below the listing's starting points, so a writer or
// remover acts below them, as find -exec's {} does. Any other producer,
// xargs without -0 (which splits a name at blanks), a find that follows
// links or prints more, and an operand that only starts in the match
// ({}/.., /tmp/{}) stay paths only known at run time.
func TestXargsListedInput(t *testing.T) {
	tests := []struct {
		command                   string
		writesBelow, delBelow     []string
		deletes                   []string
		writesUnres, deletesUnres []string
		listed                    bool
	}{
		{command: `grep -rlZ foo src | xargs -0 sed -i s/a/b/`, writesBelow: []string{"/repo/src"}, listed: true},
		{command: `grep -lZ foo a.txt b.txt | xargs -0 rm`, deletes: []string{"/repo/a.txt", "/repo/b.txt"}, listed: true},
		{command: `grep -rlZ x / | xargs -0 sed -i s/a/b/`, writesBelow: []string{"/"}, listed: true},
		{command: `find src -name '*.go' -print0 | xargs -0 gofmt -w`, listed: true},
		{command: `find src -name '*.txt' -print0 | xargs -0 sed -i s/a/b/`, writesBelow: []string{"/repo/src"}, listed: true},
		{command: `find src -name '*.o' -print0 | xargs -0 rm -f`, delBelow: []string{"/repo/src"}, listed: true},
		{command: `find /home/u -print0 | xargs -0 rm`, deletes: []string{"/home/u"}, listed: true},
		{command: `grep -rl foo src | xargs sed -i s/a/b/`, writesUnres: []string{"{arguments from input}"}},
		{command: `grep -rlZ foo src | xargs sed -i s/a/b/`, writesUnres: []string{"{arguments from input}"}},
		{command: `grep -rl foo src | xargs -0 sed -i s/a/b/`, writesUnres: []string{"{arguments from input}"}},
		{command: `grep -RlZ foo src | xargs -0 sed -i s/a/b/`, writesUnres: []string{"{arguments from input}"}},
		{command: `find -L src -print0 | xargs -0 sed -i s/a/b/`, writesUnres: []string{"{arguments from input}"}},
		{command: `find src -print0 -print | xargs -0 sed -i s/a/b/`, writesUnres: []string{"{arguments from input}"}},
		{command: `ls -1 | xargs -0 sed -i s/a/b/`, writesUnres: []string{"{arguments from input}"}},
		{command: `find src -print0 > l | xargs -0 sed -i s/a/b/`, writesUnres: []string{"{arguments from input}"}},
		{command: `find src -print0 | xargs -0 -I{} cp x /tmp/{}`, writesUnres: []string{"/tmp/{}"}},
		{command: `find src -name x -exec cp {} /tmp/{} \;`, writesUnres: []string{"/tmp/{}"}},
		{command: `find src -name x -exec mv {} {}.bak \;`, writesBelow: []string{"/repo/src"}, delBelow: []string{"/repo/src"}},
		{command: `find src -name x -exec rm {}/../../y \;`, deletesUnres: []string{"{}/../../y"}},
	}
	for _, tt := range tests {
		f, err := Parse(tt.command, Options{Cwd: "/repo", Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		listed := slices.ContainsFunc(f.Commands, func(c Command) bool { return c.ListedInput })
		if !slices.Equal(f.WritesBelow, tt.writesBelow) || !slices.Equal(f.DeletesBelow, tt.delBelow) ||
			!slices.Equal(f.Deletes, tt.deletes) || !slices.Equal(f.WritesUnresolved, tt.writesUnres) ||
			!slices.Equal(f.DeletesUnresolved, tt.deletesUnres) || listed != tt.listed {
			t.Errorf("%q: writes below %q, deletes below %q, deletes %q, writes unresolved %q, deletes unresolved %q, listed %v;\nwant %q, %q, %q, %q, %q, %v",
				tt.command, f.WritesBelow, f.DeletesBelow, f.Deletes, f.WritesUnresolved, f.DeletesUnresolved, listed,
				tt.writesBelow, tt.delBelow, tt.deletes, tt.writesUnres, tt.deletesUnres, tt.listed)
		}
	}
}
