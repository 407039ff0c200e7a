package repofacts

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// forgeIndexBlob rewrites the repository's index so that path's entry
// names the blob id, keeping every other field (the stat data of the
// file as it is now), and fixes the index's SHA-1 trailer: what an agent
// that controls .git can do to make git trust an edited file unchanged.
func forgeIndexBlob(t *testing.T, r *repo, path, id string) {
	t.Helper()
	idx := filepath.Join(r.dir, ".git", "index")
	data, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	if string(data[:4]) != "DIRC" || data[7] != 2 {
		t.Fatalf("want an index of version 2, got %q v%d", data[:4], data[7])
	}
	// An entry: 40 bytes of stat data, 20 of id, 2 of flags, the name.
	at := bytes.Index(data, append([]byte(path), 0))
	if at < 62 {
		t.Fatalf("no entry for %s in the index", path)
	}
	raw, err := hex.DecodeString(id)
	if err != nil || len(raw) != 20 {
		t.Fatalf("bad id %q", id)
	}
	copy(data[at-22:at-2], raw)
	body := data[:len(data)-20]
	sum := sha1.Sum(body)
	if err := os.WriteFile(idx, append(body, sum[:]...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func collect(t *testing.T, opts Options) *Doc {
	t.Helper()
	d, err := Collect(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestForgedIndexStat: an edited file whose index entry keeps the base
// blob id but carries the file's current stat data (and whose mtime was
// put back) is still a change, with its old content read for exports.
func TestForgedIndexStat(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"go.mod": goMod, "src/a.go": "package src\n\nfunc A() {}\n", "src/b.go": "package src\n\nfunc B() {}\n"})
	old := strings.TrimSpace(r.git("rev-parse", "HEAD:src/b.go"))
	b := filepath.Join(r.dir, "src", "b.go")
	fi, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	r.write(map[string]string{"src/a.go": "package src\n\nfunc A() { _ = 1 }\n", "src/b.go": "package src\n\nfunc Bee() {}\n"})
	if err := os.Chtimes(b, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	// Record the edited file's stat in the index, then put the old id back.
	r.git("update-index", "src/b.go")
	forgeIndexBlob(t, r, "src/b.go", old)
	r.git("config", "core.trustctime", "false")
	// The index is older than the file, so git trusts the forged entry.
	past := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(r.dir, ".git", "index"), past, past); err != nil {
		t.Fatal(err)
	}
	if out := r.git("diff", "--name-only", "HEAD"); strings.Contains(out, "b.go") {
		t.Fatalf("the forgery did not fool git itself (git diff names %q); the test proves nothing", out)
	}

	d := collect(t, Options{Root: r.dir})
	if want := []string{"src/a.go", "src/b.go"}; !cmp.Equal(d.Changed, want) {
		t.Errorf("changed = %v, want %v", d.Changed, want)
	}
	if want := []string{"src.B"}; !cmp.Equal(d.GoExportsRemoved, want) {
		t.Errorf("go_exports_removed = %v, want %v", d.GoExportsRemoved, want)
	}
	if _, ok := d.State().Files["src/b.go"]; !ok {
		t.Error("the work state does not cover src/b.go")
	}
	st := collect(t, Options{Root: r.dir, StateOnly: true}).State()
	if st.Digest != d.State().Digest {
		t.Error("the state-only digest differs from the full one")
	}
}

// TestCleanFilter: a clean filter set in .git/config for a path named in
// .git/info/attributes (both outside the work) would make git hash the
// old content; the change is still seen, and the filter never runs.
func TestCleanFilter(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"go.mod": goMod, "b.go": "package m\n\nfunc B() {}\n"})
	base := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.write(map[string]string{".git/info/attributes": "b.go filter=hide\n*.txt -diff\n"})
	ran := filepath.Join(t.TempDir(), "ran")
	r.git("config", "filter.hide.clean", "touch "+ran+"; git cat-file blob "+base+":b.go #")
	r.git("config", "filter.hide.smudge", "cat")
	r.write(map[string]string{"b.go": "package m\n\nfunc Bee() {}\n"})
	r.git("add", "b.go") // the filter records the old blob with the new stat
	if out := r.git("diff", "--name-only", "HEAD"); strings.Contains(out, "b.go") {
		t.Fatalf("the filter did not fool git itself (git diff names %q); the test proves nothing", out)
	}
	os.Remove(ran)
	r.write(map[string]string{"notes.txt": "one\ntwo\n"})

	d := collect(t, Options{Root: r.dir})
	want := []File{
		{Path: "b.go", Status: Modified, LinesAdded: 1, LinesDeleted: 1, Lang: "go"},
		// -diff in .git/info/attributes does not hide the lines.
		{Path: "notes.txt", Status: Added, LinesAdded: 2},
	}
	if diff := cmp.Diff(want, d.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if want := []string{"m.B"}; !cmp.Equal(d.GoExportsRemoved, want) {
		t.Errorf("go_exports_removed = %v, want %v", d.GoExportsRemoved, want)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the repository's clean filter ran")
	}
}

// TestReplaceRefs: refs/replace cannot make the base's blob read as the
// new content.
func TestReplaceRefs(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"go.mod": goMod, "b.go": "package m\n\nfunc B() {}\n"})
	old := strings.TrimSpace(r.git("rev-parse", "HEAD:b.go"))
	r.write(map[string]string{"b.go": "package m\n\nfunc Bee() {}\n"})
	now := strings.TrimSpace(r.git("hash-object", "-w", "b.go"))
	r.git("replace", old, now)

	d := collect(t, Options{Root: r.dir})
	if want := []string{"m.B"}; !cmp.Equal(d.GoExportsRemoved, want) {
		t.Errorf("go_exports_removed = %v, want %v", d.GoExportsRemoved, want)
	}
	if len(d.Files) != 1 || d.Files[0].LinesAdded != 1 || d.Files[0].LinesDeleted != 1 {
		t.Errorf("files = %+v, want b.go +1 -1", d.Files)
	}
}

// TestModeAndLinks: an executable bit and a symbolic link are changes, by
// what is on disk.
func TestModeAndLinks(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"run.sh": "echo\n", "a.txt": "a\n"})
	if err := os.Chmod(filepath.Join(r.dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(r.dir, "link")); err != nil {
		t.Skip("no symbolic links here")
	}
	d := collect(t, Options{Root: r.dir})
	want := []File{{Path: "link", Status: Added, LinesAdded: 1}, {Path: "run.sh", Status: Modified}}
	if diff := cmp.Diff(want, d.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestSubdirectoryRoot: with the root below the top level, paths are
// relative to it and changes elsewhere are not listed.
func TestSubdirectoryRoot(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"app/x.txt": "x\n", "other/y.txt": "y\n"})
	r.write(map[string]string{"app/x.txt": "X\n", "app/new.txt": "n\n", "other/y.txt": "Y\n"})
	d := collect(t, Options{Root: filepath.Join(r.dir, "app")})
	if want := []string{"new.txt", "x.txt"}; !cmp.Equal(d.Changed, want) {
		t.Errorf("changed = %v, want %v", d.Changed, want)
	}
}
