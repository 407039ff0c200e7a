package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRef(t *testing.T) {
	tests := []struct {
		in          string
		path        string
		first, last int64
		err         string
	}{
		{in: "src/foo.go", path: "src/foo.go"},
		{in: "src/foo.go:42", path: "src/foo.go", first: 42, last: 42},
		{in: "src/foo.go:10-20", path: "src/foo.go", first: 10, last: 20},
		{in: "a:b.go", path: "a:b.go"},
		{in: "a.go:x", path: "a.go:x"},
		{in: "a.go:0", err: "line numbers start at 1"},
		{in: "a.go:20-10", err: "line range 20-10 ends before it starts"},
		{in: "a.go:99999999999999999999", err: "line number 99999999999999999999 is too large"},
		{in: ":3", err: "the path is empty"},
		{in: "", err: "the path is empty"},
		{in: "a\x00b", err: "the path contains a NUL byte"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := ParseRef(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("ParseRef(%q) error = %v, want %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseRef(%q): %v", tt.in, err)
			}
			if r.Path != tt.path || r.First != tt.first || r.Last != tt.last {
				t.Errorf("ParseRef(%q) = %+v, want %s %d-%d", tt.in, r, tt.path, tt.first, tt.last)
			}
		})
	}
}

// tree builds a repository root holding src/foo.go (3 lines), an empty
// file, a directory, .git/HEAD, src/.gitignore, and symlinks pointing inside and outside the root.
func tree(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "src", "pkg"), 0o755))
	must(os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "src", ".gitignore"), []byte("x\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "src", "foo.go"), []byte("a\nb\nc"), 0o644))
	must(os.WriteFile(filepath.Join(root, "empty.txt"), nil, 0o644))
	must(os.WriteFile(filepath.Join(base, "secret.txt"), []byte("outside\n"), 0o644))
	must(os.Symlink("src/foo.go", filepath.Join(root, "inside-link")))
	must(os.Symlink("../secret.txt", filepath.Join(root, "outside-link")))
	must(os.Symlink("..", filepath.Join(root, "up")))
	return root
}

func TestCheck(t *testing.T) {
	root := tree(t)
	tests := []struct {
		cite    string
		exists  bool
		kind    Kind
		lines   int64
		invalid string
		root    bool
		git     bool
	}{
		{cite: ".", exists: true, kind: Dir, root: true},
		{cite: "./", exists: true, kind: Dir, root: true},
		{cite: "src/..", exists: true, kind: Dir, root: true},
		{cite: ".git", exists: true, kind: Dir, git: true},
		{cite: ".git/HEAD", exists: true, kind: File, git: true},
		{cite: ".git/HEAD:1", exists: true, kind: File, git: true, lines: 1},
		{cite: "src/../.git/HEAD", exists: true, kind: File, git: true},
		{cite: ".git/missing", git: true},
		{cite: "src/.git/x", git: true},
		{cite: "src/.gitignore", exists: true, kind: File},
		{cite: ".git/../src/foo.go", exists: true, kind: File},
		{cite: "src/foo.go", exists: true, kind: File},
		{cite: "src/foo.go:3", exists: true, kind: File, lines: 3},
		{cite: "src/foo.go:1-3", exists: true, kind: File, lines: 3},
		{cite: "src/./pkg/../foo.go", exists: true, kind: File},
		{cite: "src/pkg", exists: true, kind: Dir},
		{cite: "empty.txt:1", exists: true, kind: File, lines: 0},
		{cite: "inside-link:2", exists: true, kind: File, lines: 3},
		{cite: "src/missing.go"},
		{cite: "/etc/passwd", invalid: "absolute path"},
		{cite: "../secret.txt", invalid: "path escapes the repository root"},
		{cite: "src/../../secret.txt", invalid: "path escapes the repository root"},
		{cite: "outside-link", invalid: "resolves through a symlink to outside"},
		{cite: "up/secret.txt", invalid: "resolves through a symlink to outside"},
		{cite: "src/foo.go:0", invalid: "line numbers start at 1"},
	}
	var cites []string
	for _, tt := range tests {
		cites = append(cites, tt.cite)
	}
	got := Check(root, cites)
	for _, tt := range tests {
		info, ok := got[tt.cite]
		if !ok {
			t.Errorf("%s: no result", tt.cite)
			continue
		}
		if tt.invalid != "" {
			if !strings.Contains(info.Invalid, tt.invalid) || info.Exists {
				t.Errorf("%s: got %+v, want invalid containing %q", tt.cite, info, tt.invalid)
			}
			continue
		}
		if info.Invalid != "" || info.Exists != tt.exists || info.Kind != tt.kind || info.Lines != tt.lines {
			t.Errorf("%s: got %+v, want exists=%v kind=%q lines=%d", tt.cite, info, tt.exists, tt.kind, tt.lines)
		}
		if info.IsRoot != tt.root || info.InGit != tt.git {
			t.Errorf("%s: IsRoot=%v InGit=%v, want %v %v", tt.cite, info.IsRoot, info.InGit, tt.root, tt.git)
		}
		if info.Ref.Ranged() != info.LinesKnown && info.Kind == File {
			t.Errorf("%s: LinesKnown = %v for a citation ranged=%v", tt.cite, info.LinesKnown, info.Ref.Ranged())
		}
	}
}

func TestCheckBadRoot(t *testing.T) {
	for _, root := range []string{"", filepath.Join(t.TempDir(), "nope")} {
		got := Check(root, []string{"a.go"})
		if got["a.go"].Invalid == "" {
			t.Errorf("root %q: citation is not invalid: %+v", root, got["a.go"])
		}
	}
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"src/foo.go", "a.go:1", "a.go:10-20", "a.go:0", ":1", "a:b:3-4", "x.go:9223372036854775808"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRef(s)
		if err != nil {
			return
		}
		if r.Path == "" || (r.Ranged() && (r.First < 1 || r.Last < r.First)) || (!r.Ranged() && r.Last != 0) {
			t.Fatalf("ParseRef(%q) = %+v", s, r)
		}
		if !strings.HasPrefix(s, r.Path) {
			t.Fatalf("path %q is not a prefix of %q", r.Path, s)
		}
	})
}
