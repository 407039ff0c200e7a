package canonpath

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree builds a directory tree with symbolic links in a temporary
// directory and returns its canonical root (the temporary directory itself
// may sit below a link, as on macOS).
//
//	root/
//	  repo/            a directory
//	  repo/src/a.go    a file
//	  repo2/           a sibling whose name extends "repo"
//	  secret/          outside the repository
//	  secret/key       a file
//	  repo/out     ->  ../secret          relative link out of the repo
//	  repo/abs     ->  <root>/secret      absolute link out of the repo
//	  repo/deep    ->  <root>/secret/sub  link to a directory below secret
//	  secret/sub/      a directory
//	  repo/loop1   ->  loop2, repo/loop2 -> loop1
//	  repo/self    ->  .
//	  repo/dangling -> nowhere/x
func tree(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"repo/src", "repo2", "secret/sub"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"repo/src/a.go", "secret/key"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"repo/out":      "../secret",
		"repo/abs":      filepath.Join(root, "secret"),
		"repo/deep":     filepath.Join(root, "secret/sub"),
		"repo/loop1":    "loop2",
		"repo/loop2":    "loop1",
		"repo/self":     ".",
		"repo/dangling": "nowhere/x",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestCanonical(t *testing.T) {
	root := tree(t)
	repo := root + "/repo"
	home := root + "/secret"
	tests := []struct {
		name string
		p    string
		cwd  string
		want string // with ROOT standing for root
		err  error  // when set, the error must wrap it
	}{
		{"relative file", "src/a.go", repo, "ROOT/repo/src/a.go", nil},
		{"dot slash", "./src/./a.go", repo, "ROOT/repo/src/a.go", nil},
		{"absolute ignores cwd", "ROOT/secret/key", repo, "ROOT/secret/key", nil},
		{"dotdot out", "../secret/key", repo, "ROOT/secret/key", nil},
		{"dotdot above root", "../../../../../../../../etc/passwd", repo, "/etc/passwd", nil},
		{"missing file", "src/new.go", repo, "ROOT/repo/src/new.go", nil},
		{"missing dirs cleaned", "x/./y//z/", repo, "ROOT/repo/x/y/z", nil},
		{"missing then dotdot", "x/../src/a.go", repo, "ROOT/repo/src/a.go", nil},
		{"missing then dotdot into link", "x/../out/key", repo, "ROOT/secret/key", nil},
		{"relative link", "out/key", repo, "ROOT/secret/key", nil},
		{"absolute link", "abs/key", repo, "ROOT/secret/key", nil},
		{"link itself", "out", repo, "ROOT/secret", nil},
		{"link to missing below", "out/new/file", repo, "ROOT/secret/new/file", nil},
		// The kernel resolves deep first, then takes its parent: secret, not repo.
		{"dotdot over symlinked dir", "deep/../key", repo, "ROOT/secret/key", nil},
		{"dotdot over symlinked dir twice", "deep/../../repo2", repo, "ROOT/repo2", nil},
		{"self link", "self/self/src/a.go", repo, "ROOT/repo/src/a.go", nil},
		{"dangling link", "dangling", repo, "ROOT/repo/nowhere/x", nil},
		{"file as directory", "src/a.go/x", repo, "ROOT/repo/src/a.go/x", nil},
		{"percent dotdot", "%2e%2e/secret/key", repo, "ROOT/secret/key", nil},
		{"percent upper case", "%2E%2E%2Fsecret%2Fkey", repo, "ROOT/secret/key", nil},
		{"double encoded", "%252e%252e%252fsecret/key", repo, "ROOT/secret/key", nil},
		{"other escapes kept", "a%20b", repo, "ROOT/repo/a%20b", nil},
		{"trailing percent", "a%", repo, "ROOT/repo/a%", nil},
		{"percent short", "a%2", repo, "ROOT/repo/a%2", nil},
		{"backslash is a name byte", "..%5c..%5cetc", repo, `ROOT/repo/..\..\etc`, nil},
		{"tilde", "~/key", repo, "ROOT/secret/key", nil},
		{"tilde alone", "~", repo, "ROOT/secret", nil},
		{"tilde not leading", "a/~/b", repo, "ROOT/repo/a/~/b", nil},
		{"root", "/", repo, "/", nil},
		{"root dotdot", "/..", repo, "/", nil},
		{"empty", "", repo, "", ErrEmpty},
		{"nul", "a\x00b", repo, "", ErrNUL},
		{"escaped nul", "a%00b", repo, "", ErrNUL},
		{"double escaped nul", "a%2500b", repo, "", ErrNUL},
		{"link loop", "loop1/x", repo, "", ErrLoop},
		{"too long", strings.Repeat("a/", MaxLen), repo, "", ErrTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := strings.ReplaceAll(tt.p, "ROOT", root)
			got, err := Canonical(p, tt.cwd, home)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Canonical(%q) = %q, %v; want error %v", p, got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Canonical(%q): %v", p, err)
			}
			want := strings.ReplaceAll(tt.want, "ROOT", root)
			if got != want {
				t.Errorf("Canonical(%q) = %q, want %q", p, got, want)
			}
			// repo is canonical, so CanonicalFrom must agree.
			if from, err := CanonicalFrom(p, tt.cwd, home); err != nil || from != want {
				t.Errorf("CanonicalFrom(%q) = %q, %v; want %q", p, from, err, want)
			}
		})
	}
}

func TestCanonicalCwd(t *testing.T) {
	tests := []struct {
		name, p, cwd, home string
		want               string
		wantErr            bool
	}{
		{"relative needs cwd", "a", "", "", "", true},
		{"relative cwd refused", "a", "rel", "", "", true},
		{"nul in cwd", "a", "/x\x00", "", "", true},
		{"absolute without cwd", "/nonexistent-vouch/a/../b", "", "", "/nonexistent-vouch/b", false},
		{"tilde without home stays literal", "~/x", "/nonexistent-vouch", "", "/nonexistent-vouch/~/x", false},
		{"unknown user", "~no-such-user-vouch/x", "/", "", "", true},
		{"too many encodings", "%" + strings.Repeat("25", 12) + "2e", "/", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonical(tt.p, tt.cwd, tt.home)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("Canonical(%q, %q) = %q, %v; want %q, error %v", tt.p, tt.cwd, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestWithin(t *testing.T) {
	tests := []struct {
		path, dir string
		want      bool
	}{
		{"/repo", "/repo", true},
		{"/repo/a", "/repo", true},
		{"/repo/a/b", "/repo/", true},
		{"/repo2", "/repo", false},
		{"/repo2/a", "/repo", false},
		{"/re", "/repo", false},
		{"/", "/repo", false},
		{"/anything", "/", true},
		{"/", "/", true},
		{"repo/a", "repo", false},
		{"", "/", false},
		{"/a", "", false},
	}
	for _, tt := range tests {
		if got := Within(tt.path, tt.dir); got != tt.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tt.path, tt.dir, got, tt.want)
		}
	}
}

// TestCanonicalEscapesSandbox checks the property a sandbox relies on: for
// every spelling, Within(Canonical(p), repo) agrees with where the file
// really is.
func TestCanonicalEscapesSandbox(t *testing.T) {
	root := tree(t)
	repo := root + "/repo"
	outside := []string{"out/key", "abs/key", "deep/../key", "%2e%2e/secret", "../repo2/x", "x/../../secret", "self/../../secret"}
	inside := []string{"src/a.go", "self/src", "x/y/../z", "out/../repo/src"}
	for _, p := range outside {
		c, err := Canonical(p, repo, "")
		if err != nil {
			t.Fatalf("Canonical(%q): %v", p, err)
		}
		if Within(c, repo) {
			t.Errorf("%q -> %q counted within %s", p, c, repo)
		}
	}
	for _, p := range inside {
		c, err := Canonical(p, repo, "")
		if err != nil {
			t.Fatalf("Canonical(%q): %v", p, err)
		}
		if !Within(c, repo) {
			t.Errorf("%q -> %q counted outside %s", p, c, repo)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"a", "../x", "%2e%2e%2f", "~/x", "/a/./b/../c", "a\x00", "%252e", "////", "~root/x", ".%2e/..", "a%"} {
		f.Add(s)
	}
	cwd, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := Canonical(p, cwd, "/home/u")
		if err != nil {
			if got != "" {
				t.Fatalf("error %v with result %q", err, got)
			}
			return
		}
		if !filepath.IsAbs(got) || filepath.Clean(got) != got {
			t.Fatalf("Canonical(%q) = %q: not clean and absolute", p, got)
		}
		if strings.IndexByte(got, 0) >= 0 {
			t.Fatalf("Canonical(%q) = %q holds NUL", p, got)
		}
		// Canonical forms are fixed points (no escape survives that a
		// second pass would decode into something else).
		again, err := Canonical(got, "/", "")
		if err != nil || again != got {
			t.Fatalf("Canonical(Canonical(%q)) = %q, %v; want %q", p, again, err, got)
		}
	})
}

func BenchmarkCanonical(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "repo/src/pkg"), 0o755); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Canonical("src/pkg/../pkg/file.go", root+"/repo", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEntryFrom pins that the last component is the entry itself (what rm
// and rename act on) unless a trailing slash makes the kernel follow it.
func TestEntryFrom(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"repo/sub", "outside"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	repo := filepath.Join(dir, "repo")
	if err := os.Symlink(filepath.Join(dir, "outside"), filepath.Join(repo, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(repo, "up")); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ p, want string }{
		{"link", repo + "/link"},
		{"./link", repo + "/link"},
		{"sub/../link", repo + "/link"},
		{"link/", dir + "/outside"},
		{"link/.", dir + "/outside"},
		{"link/x", dir + "/outside/x"},
		{"up/outside", dir + "/outside"},
		{"up/repo/link", repo + "/link"},
		{"missing/name", repo + "/missing/name"},
		{"%2e%2e/outside", dir + "/outside"},
		{"/", "/"},
	}
	for _, tt := range tests {
		got, err := EntryFrom(tt.p, repo, "")
		if err != nil || got != tt.want {
			t.Errorf("EntryFrom(%q) = %q, %v; want %q", tt.p, got, err, tt.want)
		}
	}
	if _, err := EntryFrom("a\x00b", repo, ""); err == nil {
		t.Error("EntryFrom accepted a NUL byte")
	}
}

// TestLinks: links a command is about to make resolve like links on disk,
// below directories that do not exist yet too, over what the disk holds
// at their place, and one with an unknown target makes every path through
// it ErrUnknownLink; the link itself is still an entry.
func TestLinks(t *testing.T) {
	root := tree(t)
	repo := root + "/repo"
	links := Links{
		repo + "/e":         "/etc",
		repo + "/rel":       "../secret",
		repo + "/new/up":    "../../secret/sub",
		repo + "/chain":     "e/ssl",
		repo + "/src":       "/usr",
		repo + "/dyn":       "",
		root + "/secret/in": "/var",
		repo + "/loopA":     "loopB",
		repo + "/loopB":     "loopA",
	}
	tests := []struct {
		p, want string
		entry   bool
		err     error
	}{
		{p: "e", want: "/etc"},
		{p: "e/", want: "/etc", entry: true},
		{p: "e", want: repo + "/e", entry: true},
		{p: "e/cron.d/job", want: "/etc/cron.d/job"},
		{p: "e/cron.d/job", want: "/etc/cron.d/job", entry: true},
		{p: "e/..", want: "/"},
		{p: "rel/key", want: root + "/secret/key"},
		{p: "new/up/x", want: root + "/secret/sub/x"},
		{p: "chain/certs", want: "/etc/ssl/certs"},
		{p: "src/a.go", want: "/usr/a.go"},
		{p: "out/in/x", want: "/var/x"},
		{p: "dyn", err: ErrUnknownLink},
		{p: "dyn/x", err: ErrUnknownLink, entry: true},
		{p: "dyn", want: repo + "/dyn", entry: true},
		{p: "loopA", err: ErrLoop},
		{p: "other/x", want: repo + "/other/x"},
	}
	for _, tt := range tests {
		resolve := CanonicalFromLinks
		if tt.entry {
			resolve = EntryFromLinks
		}
		got, err := resolve(tt.p, repo, links)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%q (entry %v): %q, %v; want error %v", tt.p, tt.entry, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q (entry %v): %q, %v; want %q", tt.p, tt.entry, got, err, tt.want)
		}
	}
	// Without links, the disk decides.
	if got, err := CanonicalFromLinks("src/a.go", repo, nil); err != nil || got != repo+"/src/a.go" {
		t.Errorf("no links: %q, %v", got, err)
	}
}
