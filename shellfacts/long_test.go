package shellfacts

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLongCommands: a command line past MaxInput is analysed whole when
// quoted here-document bodies make up the excess (an agent writing a big
// file), and otherwise cut, with Truncated set and the rest unknown code,
// so a policy cannot pass what follows the cut unseen.
func TestLongCommands(t *testing.T) {
	body := func(n int) string { return strings.Repeat(strings.Repeat("x", 69)+"\n", n/70) }
	for _, tc := range []struct {
		name      string
		cmd       string
		truncated bool
		want      []string // commands that must be seen
	}{
		{"quoted heredoc then force push", "cat > notes.txt <<'EOF'\n" + body(70000) + "EOF\ngit push --force origin main", false, []string{"cat", "git"}},
		{"double-quoted delimiter", "cat > n <<\"EOF\"\n" + body(200000) + "EOF\nrm -rf /etc", false, []string{"cat", "rm"}},
		{"backslash delimiter", "cat > n <<\\EOF\n" + body(100000) + "EOF\ncat ~/.ssh/id_rsa", false, []string{"cat"}},
		{"dash heredoc", "cat > n <<-'EOF'\n" + body(100000) + "\tEOF\nrm -rf /etc", false, []string{"cat", "rm"}},
		{"two heredocs", "cat > a <<'A'\n" + body(70000) + "A\ncat > b <<'B'\n" + body(70000) + "B\nrm -rf /etc", false, []string{"cat", "rm"}},
		// An unquoted delimiter's body is code: $(...) in it runs.
		{"unquoted heredoc", "cat > n <<EOF\n" + body(70000) + "EOF\nrm -rf /etc", true, nil},
		{"plain long code", strings.Repeat("echo x; ", 10000) + "rm -rf /etc", true, []string{"echo"}},
		{"past MaxHeredocInput", "cat > n <<'EOF'\n" + body(MaxHeredocInput+1000) + "EOF\nrm -rf /etc", true, nil},
		// <<'EOF' inside quotes is no here-document: the scan is fooled,
		// the parse is not.
		{"fake heredoc in quotes", "echo \"<<'EOF'\"\n" + body(70000) + "EOF\nrm -rf /etc", true, nil},
		{"heredoc not closed", "cat > n <<'EOF'\n" + body(70000) + "rm -rf /etc", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(tc.cmd, Options{Cwd: "/tmp", Home: "/home/u"})
			if err != nil {
				t.Fatal(err)
			}
			if (f.Truncated != "") != tc.truncated {
				t.Errorf("truncated %q, want %v", f.Truncated, tc.truncated)
			}
			if tc.truncated && (len(f.Unknown) == 0 || !f.Incomplete) {
				t.Errorf("truncated without unknown code: %q, incomplete %v", f.Unknown, f.Incomplete)
			}
			if !tc.truncated && f.ParseError != "" {
				t.Errorf("parse error %q", f.ParseError)
			}
			var names []string
			for _, c := range f.Commands {
				names = append(names, c.Name)
			}
			for _, n := range tc.want {
				if !slices.Contains(names, n) {
					t.Errorf("%d commands lack %s", len(names), n)
				}
			}
			if !tc.truncated && strings.Contains(tc.cmd, "rm -rf /etc") && !slices.Contains(f.Deletes, "/etc") {
				t.Errorf("deletes %q lack /etc", f.Deletes)
			}
		})
	}
}

// BenchmarkParseHeredoc measures a command line writing a big file
// through a quoted here-document, the case MaxHeredocInput bounds: mvdan
// copies the body, so the cost grows with its size but not with its
// contents. It chose MaxHeredocInput; 16 MiB is past it and cut at once.
func BenchmarkParseHeredoc(b *testing.B) {
	line := strings.Repeat("x", 69) + "\n"
	for _, kib := range []int{64, 512, 1000, 16384} {
		cmd := "cat > notes.txt <<'EOF'\n" + strings.Repeat(line, kib<<10/70) + "EOF\ngit push --force origin main"
		b.Run(strconv.Itoa(kib)+"KiB", func(b *testing.B) {
			b.SetBytes(int64(len(cmd)))
			for b.Loop() {
				if _, err := Parse(cmd, Options{Cwd: "/tmp"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
