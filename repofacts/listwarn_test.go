package repofacts

import (
	"bytes"
	"context"
	"crypto/sha1"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestListingWarnings: git ls-files --others warns that it could not
// open a directory (one the work made unreadable) and exits 0; the
// files there are missing from its listing, so the facts must not be
// taken from it. git is wrapped so the warning comes whoever runs the
// test (root reads every directory).
func TestListingWarnings(t *testing.T) {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	for _, tc := range []struct {
		name, stderr, want string
	}{
		// The script quotes stderr in '...': it holds no quote.
		{"none", "", ""},
		{"unreadable directory", "warning: could not open directory src/hidden/: Permission denied", "could not list the work tree completely"},
		{"control characters", "warning: could not open directory a\x1b[2Jb/: Permission denied", `"warning: could not open directory a\x1b[2Jb/: Permission denied"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit(map[string]string{"src/a.js": "module.exports = 1\n"})
			r.write(map[string]string{"src/b.js": "module.exports = 2\n"})
			bin := t.TempDir()
			script := "#!/bin/sh\ncase \" $* \" in *\" --others \"*) printf '%s\\n' '" + tc.stderr + "' >&2 ;; esac\nexec " + real + " \"$@\"\n"
			if tc.stderr == "" {
				script = "#!/bin/sh\nexec " + real + " \"$@\"\n"
			}
			if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			_, err := Collect(context.Background(), Options{Root: r.dir})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestIndexPathsOutside: an index entry (written by the work, which
// controls .git) whose path leaves the root is refused, never read.
func TestIndexPathsOutside(t *testing.T) {
	for _, bad := range []string{"../out.js", "/tmp/o.js", "a/../../o"} {
		t.Run(bad, func(t *testing.T) {
			r := newRepo(t)
			r.commit(map[string]string{"src/a.js": "module.exports = 1\n"})
			// Stage a file whose name is as long as bad and sorts as it
			// does (before src/), then rename its entry in place.
			stand := strings.Repeat("a", len(bad))
			r.write(map[string]string{stand: "require('left-pad')\n"})
			r.git("add", stand)
			r.remove(stand)
			idx := filepath.Join(r.dir, ".git", "index")
			data, err := os.ReadFile(idx)
			if err != nil {
				t.Fatal(err)
			}
			at := bytes.Index(data, append([]byte(stand), 0))
			if at < 0 {
				t.Fatal("no entry in the index")
			}
			copy(data[at:], bad)
			body := data[:len(data)-20]
			sum := sha1.Sum(body)
			if err := os.WriteFile(idx, append(body, sum[:]...), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Collect(context.Background(), Options{Root: r.dir})
			if err == nil || !strings.Contains(err.Error(), "names paths outside the work tree") {
				t.Fatalf("err = %v, want the index refused", err)
			}
		})
	}
}
