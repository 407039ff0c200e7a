package repofacts

import (
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// forgeObject makes the loose object file of id hold the object of
// other content: what an agent that controls .git/objects can do.
func forgeObject(t *testing.T, r *repo, id, otherID string) {
	t.Helper()
	obj := func(id string) string { return filepath.Join(r.dir, ".git", "objects", id[:2], id[2:]) }
	data, err := os.ReadFile(obj(otherID))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(obj(id), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(obj(id), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func wantTampered(t *testing.T, err error, what string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "corrupt or tampered") {
		t.Errorf("%s: err = %v, want an *Error saying the object store is tampered with", what, err)
	}
}

// TestForgedBaseBlob: a base blob whose loose object holds other content
// (one that already requires left-pad) must not make the new
// import look old; nor may a forged base go.mod, read by COMMIT:PATH, or
// a forged blob fool lint's extraction of the base.
func TestForgedBaseBlob(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"package.json": `{"name": "x", "dependencies": {}}`, "src/a.js": "module.exports = 1\n", "src/b.js": "module.exports = 2\n"})
	base := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	evil := "module.exports = require('left-pad')\n"
	r.write(map[string]string{"src/a.js": evil, "evil.txt": "const pad = require('left-pad')\nmodule.exports = 1\n"})
	forged := strings.TrimSpace(r.git("hash-object", "-w", "evil.txt"))
	r.remove("evil.txt")
	forgeObject(t, r, strings.TrimSpace(r.git("rev-parse", "HEAD:src/a.js")), forged)
	for _, stateOnly := range []bool{false, true} {
		_, err := Collect(context.Background(), Options{Root: r.dir, Base: base, StateOnly: stateOnly})
		wantTampered(t, err, "collect")
	}
	err := ExtractTree(context.Background(), r.dir, base, t.TempDir())
	wantTampered(t, err, "extract")
}

// TestForgedBaseManifest: a forged manifest of the base (read as
// COMMIT:PATH when a new import needs the base's declarations) is an
// error, not a declaration.
func TestForgedBaseManifest(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"package.json": `{"name": "x", "dependencies": {}}`, "src/a.js": "module.exports = 1\n"})
	r.write(map[string]string{"src/a.js": "module.exports = require('left-pad')\n", "p.json": `{"name": "x", "dependencies": {"left-pad": "1"}}`})
	forged := strings.TrimSpace(r.git("hash-object", "-w", "p.json"))
	r.remove("p.json")
	forgeObject(t, r, strings.TrimSpace(r.git("rev-parse", "HEAD:package.json")), forged)
	_, err := Collect(context.Background(), Options{Root: r.dir})
	wantTampered(t, err, "collect")
}

// TestForgedBaseTree: git does not verify the trees it walks, so a
// forged tree of the base could name the new content's blob for a path
// and make the change vanish; it is found before git walks it.
func TestForgedBaseTree(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"go.mod": goMod, "src/a.go": "package src\n\nfunc A() {}\n", "src/b.go": "package src\n"})
	r.write(map[string]string{"src/a.go": "package src\n"})
	newID := strings.TrimSpace(r.git("hash-object", "-w", "src/a.go"))
	bID := strings.TrimSpace(r.git("rev-parse", "HEAD:src/b.go"))
	c := gitIn(t, r, "100644 blob "+newID+"\ta.go\n100644 blob "+bID+"\tb.go\n", "mktree")
	forgeObject(t, r, strings.TrimSpace(r.git("rev-parse", "HEAD:src")), c)
	_, err := Collect(context.Background(), Options{Root: r.dir})
	wantTampered(t, err, "collect")
	err = ExtractTree(context.Background(), r.dir, "HEAD", t.TempDir())
	wantTampered(t, err, "extract")
}

// gitIn runs git in r with stdin and returns its trimmed output.
func gitIn(t *testing.T, r *repo, stdin string, args ...string) string {
	t.Helper()
	c := osexec.Command("git", args...)
	c.Dir = r.dir
	c.Stdin = strings.NewReader(stdin)
	out, err := c.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// TestSHA256Repository: trees, blobs and the private diff follow the
// repository's object format.
func TestSHA256Repository(t *testing.T) {
	r := newRepo(t)
	if err := os.RemoveAll(filepath.Join(r.dir, ".git")); err != nil {
		t.Fatal(err)
	}
	c := osexec.Command("git", "init", "-q", "-b", "main", "--object-format=sha256")
	c.Dir = r.dir
	if out, err := c.CombinedOutput(); err != nil {
		t.Skipf("no sha256 repositories here: %v %s", err, out)
	}
	r.git("config", "user.email", "t@example.com")
	r.git("config", "user.name", "t")
	r.commit(map[string]string{"go.mod": goMod, "src/a.go": "package src\n\nfunc A() {}\n", "src/deep/b.txt": strings.Repeat("line\n", 20)})
	r.write(map[string]string{"src/a.go": "package src\n", "src/deep/c.txt": strings.Repeat("line\n", 20) + "more\n"})
	r.remove("src/deep/b.txt")
	d := collect(t, Options{Root: r.dir})
	if !slices.Equal(d.Changed, []string{"src/a.go", "src/deep/b.txt", "src/deep/c.txt"}) || !slices.Equal(d.Renamed, []string{"src/deep/c.txt"}) || !slices.Equal(d.GoExportsRemoved, []string{"src.A"}) {
		t.Errorf("changed %v, renamed %v, exports removed %v", d.Changed, d.Renamed, d.GoExportsRemoved)
	}
	if err := ExtractTree(context.Background(), r.dir, "HEAD", t.TempDir()); err != nil {
		t.Errorf("extract: %v", err)
	}
}
