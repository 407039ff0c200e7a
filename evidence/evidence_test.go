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

// TestCheckResolved: the .git and vouch's-own tests look at where a path
// really leads inside the root, not only at how it is written.
func TestCheckResolved(t *testing.T) {
	root := tree(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644))
	must(os.MkdirAll(filepath.Join(root, ".vouch"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".vouch", "envelope.yaml"), []byte("facts: {}\n"), 0o644))
	must(os.MkdirAll(filepath.Join(root, "build", "vouch"), 0o755))
	must(os.WriteFile(filepath.Join(root, "build", "vouch", "receipt.json"), []byte("{}\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "vouch.yaml"), []byte("out: build/vouch\n"), 0o644))
	must(os.MkdirAll(filepath.Join(root, "analysis"), 0o755))
	must(os.WriteFile(filepath.Join(root, "analysis", "rulespec.yaml"), []byte("claims: []\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "secret:3"), []byte("x\n"), 0o644))
	must(os.Symlink(".git", filepath.Join(root, "gl")))
	must(os.Symlink(".git/config", filepath.Join(root, "cfg.txt")))
	must(os.Symlink("src/../gl/HEAD", filepath.Join(root, "chain")))
	must(os.Symlink(".vouch", filepath.Join(root, "vl")))
	must(os.Symlink("analysis/rulespec.yaml", filepath.Join(root, "rs-link")))
	must(os.Symlink("nowhere", filepath.Join(root, "dangling")))
	must(os.Symlink(".", filepath.Join(root, "here")))
	// Hard links keep no trace of their other names: these are found by
	// file identity. A hard link between two ordinary files stays a file.
	must(os.WriteFile(filepath.Join(root, ".vouch", "verification.json"), []byte("{}\n"), 0o644))
	must(os.Link(filepath.Join(root, ".vouch", "verification.json"), filepath.Join(root, "proof.json")))
	must(os.Link(filepath.Join(root, "build", "vouch", "receipt.json"), filepath.Join(root, "receipt-copy.json")))
	must(os.Link(filepath.Join(root, ".git", "config"), filepath.Join(root, "gitcfg")))
	must(os.Link(filepath.Join(root, "src", "foo.go"), filepath.Join(root, "foo-again.go")))

	type want struct {
		exists             bool
		kind               Kind
		git, own, dir, lit bool
		isRoot             bool
	}
	tests := map[string]want{
		"gl/HEAD":                  {exists: true, kind: File, git: true},
		"gl":                       {exists: true, kind: Dir, git: true},
		"cfg.txt:1":                {exists: true, kind: File, git: true},
		"chain":                    {exists: true, kind: File, git: true},
		"gl/missing":               {git: true},
		".GIT/HEAD":                {git: true}, // lexical on any filesystem; exists only where case folds
		".vouch/envelope.yaml":     {exists: true, kind: File, own: true},
		".vouch/missing":           {own: true},
		"vl/envelope.yaml":         {exists: true, kind: File, own: true},
		"vouch.yaml":               {exists: true, kind: File, own: true},
		"build/vouch/receipt.json": {exists: true, kind: File, own: true},
		"analysis/rulespec.yaml":   {exists: true, kind: File, own: true},
		"rs-link":                  {exists: true, kind: File, own: true},
		"src/foo.go/":              {exists: true, kind: File, dir: true},
		"src/foo.go/.":             {exists: true, kind: File, dir: true},
		"src/pkg/":                 {exists: true, kind: Dir, dir: true},
		"src/foo.go":               {exists: true, kind: File},
		"secret:3":                 {lit: true},
		"src/foo.go:2":             {exists: true, kind: File},
		"dangling":                 {exists: true, kind: Dangling},
		"here":                     {exists: true, kind: Dir, isRoot: true},
		"src/.gitignore":           {exists: true, kind: File},
		".vouchers/x":              {},
		"proof.json":               {exists: true, kind: File, own: true},
		"receipt-copy.json":        {exists: true, kind: File, own: true},
		"gitcfg":                   {exists: true, kind: File, git: true},
		"foo-again.go":             {exists: true, kind: File},
	}
	var cites []string
	for c := range tests {
		cites = append(cites, c)
	}
	opts := Options{OutDir: "build/vouch", Files: []string{filepath.Join(root, "analysis", "rulespec.yaml")}}
	got := CheckWith(root, cites, opts)
	for c, w := range tests {
		info := got[c]
		if c == ".GIT/HEAD" && info.Exists {
			w.exists, w.kind = true, File // a case-insensitive filesystem
		}
		if info.Invalid != "" || info.Exists != w.exists || info.Kind != w.kind || info.InGit != w.git ||
			info.Own != w.own || info.DirSyntax != w.dir || info.Literal != w.lit || info.IsRoot != w.isRoot {
			t.Errorf("%s: got %+v, want %+v", c, info, w)
		}
	}
	// Without the options, only .vouch and vouch.yaml are known to be vouch's.
	plain := Check(root, []string{"build/vouch/receipt.json", "analysis/rulespec.yaml", ".vouch/envelope.yaml", "vouch.yaml"})
	for c, own := range map[string]bool{"build/vouch/receipt.json": false, "analysis/rulespec.yaml": false, ".vouch/envelope.yaml": true, "vouch.yaml": true} {
		if plain[c].Own != own {
			t.Errorf("Check %s: Own = %v, want %v", c, plain[c].Own, own)
		}
	}
}

// TestCheckSymlinkLoop: a symlink cycle is reported, not followed forever.
func TestCheckSymlinkLoop(t *testing.T) {
	root := tree(t)
	if err := os.Symlink("loop", filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	info := Check(root, []string{"loop"})["loop"]
	if info.Invalid == "" || info.Exists {
		t.Fatalf("loop: got %+v, want invalid", info)
	}
}
