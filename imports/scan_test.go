package imports

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/vouch-dev/vouch/internal/fsstat"
)

// siteKeys renders records as "file:line spec -> kind target" for compact
// comparisons.
func siteKeys(rs []Record) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.File+":"+strconv.Itoa(r.Line)+" "+r.Spec+" -> "+string(r.Resolution.Kind)+" "+r.Resolution.Target)
	}
	return out
}

func mustScan(t *testing.T, root string, opts Options) *Result {
	t.Helper()
	res, err := Scan(context.Background(), root, opts)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return res
}

// backdate moves every file's mtime into the past so the cache's racy-entry
// rule does not force a re-hash on the next run.
func backdate(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

func TestScanCache(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":          "module example.com/m\n",
		"main.go":         "package main\n\nimport \"example.com/m/lib\"\n",
		"lib/lib.go":      "package lib\n\nimport \"os\"\n",
		"pkg/a.py":        "import json\n",
		"pkg/__init__.py": "",
	})
	backdate(t, root)
	want := []string{"lib/lib.go:3 os -> stdlib os", "main.go:3 example.com/m/lib -> internal lib", "pkg/a.py:1 json -> stdlib json"}

	res := mustScan(t, root, Options{})
	if diff := cmp.Diff(want, siteKeys(res.Records)); diff != "" {
		t.Fatalf("cold (-want +got):\n%s", diff)
	}
	if res.Stats.Extracted != 4 || res.Stats.Cached != 0 {
		t.Fatalf("cold stats %+v, want 4 extracted", res.Stats)
	}
	res = mustScan(t, root, Options{})
	if diff := cmp.Diff(want, siteKeys(res.Records)); diff != "" {
		t.Fatalf("warm (-want +got):\n%s", diff)
	}
	if res.Stats.Extracted != 0 || res.Stats.Cached != 4 {
		t.Fatalf("warm stats %+v, want 4 cached by stat", res.Stats)
	}

	// Edit: only the edited file is parsed again.
	os.WriteFile(filepath.Join(root, "pkg/a.py"), []byte("import json\nimport csv\n"), 0o644)
	res = mustScan(t, root, Options{})
	want = []string{"lib/lib.go:3 os -> stdlib os", "main.go:3 example.com/m/lib -> internal lib", "pkg/a.py:1 json -> stdlib json", "pkg/a.py:2 csv -> stdlib csv"}
	if diff := cmp.Diff(want, siteKeys(res.Records)); diff != "" {
		t.Fatalf("after edit (-want +got):\n%s", diff)
	}
	if res.Stats.Extracted != 1 {
		t.Fatalf("after edit stats %+v, want 1 extracted", res.Stats)
	}

	// Rename: a new path is extracted; the cache is not searched by
	// content (see cacheEntry).
	os.Rename(filepath.Join(root, "lib/lib.go"), filepath.Join(root, "lib/renamed.go"))
	res = mustScan(t, root, Options{})
	if res.Stats.Extracted != 1 {
		t.Fatalf("after rename stats %+v, want the renamed file extracted", res.Stats)
	}
	if res.Records[0].File != "lib/renamed.go" {
		t.Fatalf("after rename first record %+v", res.Records[0])
	}

	// Delete: the record disappears and the cache is pruned.
	os.Remove(filepath.Join(root, "pkg/a.py"))
	res = mustScan(t, root, Options{})
	if len(res.Records) != 2 {
		t.Fatalf("after delete records %v", siteKeys(res.Records))
	}
	c := loadCache(root)
	if _, ok := c.byPath["pkg/a.py"]; ok || len(c.byPath) != 3 {
		t.Fatalf("cache not pruned: %d entries", len(c.byPath))
	}

	// Corruption: a flipped byte invalidates the whole cache.
	file := filepath.Join(cacheDir(root), cacheFileName)
	data, _ := os.ReadFile(file)
	data[len(data)/2] ^= 0xff
	os.WriteFile(file, data, 0o644)
	res = mustScan(t, root, Options{})
	if res.Stats.Extracted != 3 || len(res.Records) != 2 {
		t.Fatalf("after corruption stats %+v records %v", res.Stats, siteKeys(res.Records))
	}

	// --no-cache neither reads nor writes.
	os.RemoveAll(cacheDir(root))
	res = mustScan(t, root, Options{NoCache: true})
	if res.Stats.Extracted != 3 {
		t.Fatalf("no-cache stats %+v", res.Stats)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("--no-cache wrote the cache: %v", err)
	}
}

// TestCacheDistrustsWhatTheAgentCanArrange covers the ways the working
// tree's owner could make a scan take stale or forged results from the
// cache: an edit backdated with touch -r (same size and mtime), a cache
// planted with an entry for the file's current content, a named pipe at
// the cache's path, and a gate's Fresh scan.
func TestCacheDistrustsWhatTheAgentCanArrange(t *testing.T) {
	clean := "import os\n"
	evil := "import db\n" // same length as clean
	cases := []struct {
		name    string
		arrange func(t *testing.T, root string)
		opts    Options
	}{
		{"edit backdated to the cached mtime", func(t *testing.T, root string) {
			p := filepath.Join(root, "ui.py")
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(evil), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, Options{}},
		{"cache planted for the edited content", func(t *testing.T, root string) {
			p := filepath.Join(root, "ui.py")
			if err := os.WriteFile(p, []byte(evil), 0o644); err != nil {
				t.Fatal(err)
			}
			// An entry claiming the file imports only os, keyed the
			// way a content-addressed cache would find it.
			planted := []*cacheEntry{{Path: "elsewhere.py", Lang: Python, Size: int64(len(evil)),
				fileResult: fileResult{Sites: []Site{{Line: 1, Column: 8, Kind: KindImport, Spec: "os"}}}}}
			if err := os.WriteFile(filepath.Join(cacheDir(root), cacheFileName), encodeCache(planted), 0o644); err != nil {
				t.Fatal(err)
			}
		}, Options{}},
		{"stat-matching entry planted in the working tree", func(t *testing.T, root string) {
			// The agent writes the file, reads its size and times
			// with stat, and writes where the cache once lived an
			// entry that matches them: no scan reads it.
			if err := os.WriteFile(filepath.Join(root, "ui.py"), []byte(evil), 0o644); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(filepath.Join(root, "ui.py"))
			if err != nil {
				t.Fatal(err)
			}
			ct, _ := fsstat.ChangeTime(fi)
			e := &cacheEntry{Path: "ui.py", Lang: Python, Size: fi.Size(), MTime: fi.ModTime().UnixNano(), CTime: ct,
				fileResult: fileResult{Sites: []Site{{Line: 1, Column: 8, Kind: KindImport, Spec: "os"}}}}
			dir := filepath.Join(root, ".vouch", "cache")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "imports.bin"), encodeCache([]*cacheEntry{e}), 0o644); err != nil {
				t.Fatal(err)
			}
		}, Options{}},
		{"fresh scan ignores a stat-matching entry", func(t *testing.T, root string) {
			c := loadCache(root)
			e := c.byPath["ui.py"]
			if e == nil {
				t.Fatal("warm-up wrote no entry for ui.py")
			}
			e.Sites = []Site{{Line: 1, Column: 8, Kind: KindImport, Spec: "os"}}
			if err := os.WriteFile(filepath.Join(root, "ui.py"), []byte(evil), 0o644); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(filepath.Join(root, "ui.py"))
			if err != nil {
				t.Fatal(err)
			}
			e.MTime = fi.ModTime().UnixNano()
			e.CTime, _ = fsstat.ChangeTime(fi)
			if err := os.WriteFile(filepath.Join(cacheDir(root), cacheFileName), encodeCache([]*cacheEntry{e}), 0o644); err != nil {
				t.Fatal(err)
			}
		}, Options{Fresh: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{"ui.py": clean})
			backdate(t, root)
			mustScan(t, root, Options{})
			tc.arrange(t, root)
			res := mustScan(t, root, tc.opts)
			if diff := cmp.Diff([]string{"ui.py:1 db -> external db"}, siteKeys(res.Records)); diff != "" {
				t.Fatalf("records (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("named pipe at the cache path", func(t *testing.T) {
		root := writeTree(t, map[string]string{"ui.py": clean})
		if err := os.MkdirAll(cacheDir(root), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := mkfifo(filepath.Join(cacheDir(root), cacheFileName)); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
		done := make(chan *Result, 1)
		go func() { done <- mustScan(t, root, Options{}) }()
		select {
		case res := <-done:
			if res.Stats.Extracted != 1 {
				t.Fatalf("stats %+v, want the file extracted", res.Stats)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a named pipe at the cache path hung the scan")
		}
	})
}

func TestCacheRoundTripAndCorruption(t *testing.T) {
	entries := []*cacheEntry{{Path: "a.py", Lang: Python, Size: 10, MTime: 5, fileResult: fileResult{
		Sites:  []Site{{Line: 1, Column: 8, Kind: KindFrom, Spec: "x", Names: []string{"y"}, Alias: "z"}},
		Errors: []SyntaxError{{Line: 3, Message: "bad"}, {Line: 4, Message: "too deep", Stop: true}},
	}}, {Path: "b.go", Lang: Go, fileResult: fileResult{Constraint: "linux"}}}
	data := encodeCache(entries)
	got, err := decodeCache(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(entries, got, cmp.AllowUnexported(cacheEntry{})); diff != "" {
		t.Fatalf("round trip (-want +got):\n%s", diff)
	}
	for _, bad := range [][]byte{nil, data[:len(data)-1], append([]byte("X"), data[1:]...), append(slices.Clone(data), 0)} {
		if _, err := decodeCache(bad); err == nil {
			t.Errorf("decodeCache accepted corrupt input of %d bytes", len(bad))
		}
	}
}

func FuzzDecodeCache(f *testing.F) {
	f.Add(encodeCache([]*cacheEntry{{Path: "a.py", Lang: Python, fileResult: fileResult{Sites: []Site{{Line: 1, Spec: "x"}}}}}))
	f.Add([]byte(cacheMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := decodeCache(data)
		if err == nil && !slices.Equal(encodeCache(entries), data) {
			t.Fatalf("accepted input does not re-encode identically")
		}
	})
}

func TestStatTrustworthy(t *testing.T) {
	start := time.Unix(1000, 500)
	tests := []struct {
		mtime int64
		want  bool
	}{
		{start.UnixNano() - 1, true},
		{start.UnixNano(), false},
		{start.UnixNano() + 1, false},
		{time.Unix(999, 0).UnixNano(), false}, // whole seconds: too close
		{time.Unix(997, 0).UnixNano(), true},
	}
	for _, tt := range tests {
		if got := statTrustworthy(tt.mtime, start); got != tt.want {
			t.Errorf("statTrustworthy(%d) = %v, want %v", tt.mtime, got, tt.want)
		}
	}
}

func TestScanWalk(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.py"), []byte("import secret\n"), 0o644)
	root := writeTree(t, map[string]string{
		"ok.py":               "import os\n",
		"node_modules/m/x.js": "require('y')\n",
		"build/gen.py":        "import gen\n",
		"gen/skip.py":         "import skip\n",
		"deep/x_test.py":      "import unittest\n",
		"big.py":              "import big\n" + strings.Repeat("#\n", 600),
		"bin.py":              "import a\x00\n",
		"latin1.py":           "import a # caf\xe9\n",
		"broken.py":           "import ok2\nfrom x imp y\n",
		"README.md":           "import nothing\n",
	})
	os.Symlink(root, filepath.Join(root, "loop"))
	os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(root, "escape.py"))
	os.Symlink(filepath.Join(root, "ok.py"), filepath.Join(root, "alias.py"))
	os.Symlink(filepath.Join(root, "nowhere.py"), filepath.Join(root, "dangling.py"))
	res := mustScan(t, root, Options{NoCache: true, Exclude: []string{"gen", "*_test.py"}, MaxFileSize: 1000})
	wantRecs := []string{"alias.py:1 os -> stdlib os", "broken.py:1 ok2 -> external ok2", "ok.py:1 os -> stdlib os"}
	if diff := cmp.Diff(wantRecs, siteKeys(res.Records)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	var warns []string
	for _, w := range res.Warnings {
		warns = append(warns, w.File+":"+strconv.Itoa(w.Line)+" unread="+strconv.FormatBool(w.Unread))
	}
	// A plain syntax error leaves the rest of the file read; a dangling
	// link runs nowhere. Everything else skipped hides what it imports.
	wantWarns := []string{"big.py:0 unread=true", "bin.py:0 unread=true", "broken.py:2 unread=false",
		"dangling.py:0 unread=false", "escape.py:0 unread=true", "latin1.py:0 unread=true"}
	if diff := cmp.Diff(wantWarns, warns); diff != "" {
		t.Errorf("warnings (-want +got):\n%s\n%v", diff, res.Warnings)
	}
}

func TestScanGitMode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := writeTree(t, map[string]string{
		".gitignore":    "ignored/\n",
		"tracked.py":    "import a\n",
		"untracked.py":  "import b\n",
		"ignored/x.py":  "import c\n",
		"build/keep.py": "import d\n", // build/ is only a default exclude outside git
		"vendor/v.go":   "package v\nimport \"e\"\n",
	})
	for _, args := range [][]string{{"init", "-q"}, {"add", "tracked.py", ".gitignore"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.Remove(filepath.Join(root, "tracked.py")) // deleted but still in the index
	res := mustScan(t, root, Options{NoCache: true})
	want := []string{"build/keep.py:1 d -> external d", "untracked.py:1 b -> external b"}
	if diff := cmp.Diff(want, siteKeys(res.Records)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("unexpected warnings %v", res.Warnings)
	}
}

func TestScanErrors(t *testing.T) {
	if _, err := Scan(context.Background(), filepath.Join(t.TempDir(), "missing"), Options{}); err == nil || !strings.Contains(err.Error(), ErrNotFound.Error()) {
		t.Errorf("missing root: err = %v, want ErrNotFound", err)
	}
	f := filepath.Join(t.TempDir(), "file.py")
	os.WriteFile(f, nil, 0o644)
	if _, err := Scan(context.Background(), f, Options{}); err == nil {
		t.Errorf("file root: want an error")
	}
}

func TestScanLangFilter(t *testing.T) {
	root := writeTree(t, map[string]string{"a.py": "import x\n", "b.go": "package b\nimport \"y\"\n"})
	res := mustScan(t, root, Options{NoCache: true, Langs: []Lang{Go}})
	if diff := cmp.Diff([]string{"b.go:2 y -> stdlib y"}, siteKeys(res.Records)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestScanProgress: the progress callback ends with every file done.
func TestScanProgress(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.go", "b.py", "c.js"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var last [2]int
	calls := 0
	_, err := Scan(context.Background(), dir, Options{NoCache: true, Progress: func(done, total int) {
		calls++
		last = [2]int{done, total}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || last != [2]int{3, 3} {
		t.Errorf("progress: %d calls, last %v; want the last to be 3 of 3", calls, last)
	}
}

// TestScanUnread: every way a source file's imports can go unread is a
// warning marked Unread, so vouch lint can fail on it; ordinary syntax
// errors, after which the rest of the file is still read, are not.
func TestScanUnread(t *testing.T) {
	deepTemplate := strings.Repeat("`${", maxJSNesting+1) + "1" + strings.Repeat("}`", maxJSNesting+1) + "\nrequire('child_process')\n"
	deepJSX := "const x = " + strings.Repeat("<a>{", maxJSNesting+1) + "1" + strings.Repeat("}</a>", maxJSNesting+1) + ";\nrequire('child_process')\n"
	deepUse := "use " + strings.Repeat("a::{", maxRustUseDepth+2) + "b" + strings.Repeat("}", maxRustUseDepth+2) + ";\nuse std::process::Command;\n"
	tests := []struct {
		name, file, src string
		want            string // the file's one warning: line, unread, message prefix
	}{
		{"invalid UTF-8", "web/evil.js", "// caf\xe9\nrequire(\"child_process\")\n", "0 true skipped: not valid UTF-8"},
		{"NUL byte", "web/nul.js", "require(\"child_process\")\x00\n", "0 true skipped: binary file"},
		{"over the size limit", "web/big.js", "require(\"child_process\")\n" + strings.Repeat("//\n", 3400), "0 true skipped: 10225 bytes is over the 10000-byte size limit"},
		{"template nesting", "web/tmpl.js", deepTemplate, "1 true syntax error: template literals nested too deeply; the rest of the file is not read"},
		{"JSX nesting", "web/jsx.jsx", deepJSX, "1 true syntax error: JSX nested too deeply; the rest of the file is not read"},
		{"Rust use nesting", "src/lib.rs", deepUse, "1 true syntax error: use groups nested too deeply; the rest of the file is not read"},
		{"plain syntax error", "app/x.py", "from x imp y\nimport os\n", "1 false syntax error: invalid 'from' statement"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{tt.file: tt.src})
			res := mustScan(t, root, Options{NoCache: true, MaxFileSize: 10000})
			if len(res.Warnings) != 1 {
				t.Fatalf("warnings = %v, want one", res.Warnings)
			}
			w := res.Warnings[0]
			got := strconv.Itoa(w.Line) + " " + strconv.FormatBool(w.Unread) + " " + w.Message
			if w.File != tt.file || !strings.HasPrefix(got, tt.want) {
				t.Errorf("warning = %s %q, want %s %q", w.File, got, tt.file, tt.want)
			}
		})
	}
}

// TestScanGitIgnoresOnlyGitignoreFiles: the listing honours the work
// tree's .gitignore files, never .git/info/exclude or core.excludesFile,
// which whoever writes .git controls; nor does core.ignorecase widen a
// .gitignore pattern.
func TestScanGitIgnoresOnlyGitignoreFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := writeTree(t, map[string]string{
		".gitignore":          "ignored.js\nweb/Gen.js\n",
		"ignored.js":          "require('a')\n",
		"web/excluded.js":     "require('child_process')\n",
		"web/global.js":       "require('child_process')\n",
		"web/gen.js":          "require('child_process')\n",
		"excludes/global.txt": "web/global.js\n",
	})
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("config", "core.excludesFile", filepath.Join(root, "excludes", "global.txt"))
	git("config", "core.ignorecase", "true")
	if err := os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), []byte("web/excluded.js\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := mustScan(t, root, Options{NoCache: true})
	want := []string{
		"web/excluded.js:1 child_process -> stdlib child_process",
		"web/gen.js:1 child_process -> stdlib child_process",
		"web/global.js:1 child_process -> stdlib child_process",
	}
	if diff := cmp.Diff(want, siteKeys(res.Records)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestScanImportsThroughLinkedDirectories: node and Python open a module
// through a symlinked directory at its real path; the import resolves
// there when the link stays inside the root, and not otherwise.
func TestScanImportsThroughLinkedDirectories(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.js"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := writeTree(t, map[string]string{
		"infra/db.js":     "module.exports = 1\n",
		"infra/sub/q.js":  "module.exports = 2\n",
		"web/a.js":        "require('./link/db.js')\nrequire('./link/db')\nrequire('./link/sub/q')\nrequire('./far/x.js')\nrequire('./nothere')\n",
		"pkg/__init__.py": "",
		"pkg/db.py":       "",
		"app/__init__.py": "",
		"app/m.py":        "from .plink import db\nfrom .plink.db import x\nfrom . import plink\n",
	})
	for link, target := range map[string]string{"web/link": "../infra", "app/plink": "../pkg", "web/far": outside} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	res := mustScan(t, root, Options{NoCache: true})
	want := []string{
		"app/m.py:1 .plink -> internal pkg/db.py",
		"app/m.py:2 .plink.db -> internal pkg/db.py",
		"app/m.py:3 . -> internal pkg/__init__.py",
		"web/a.js:1 ./link/db.js -> internal infra/db.js",
		"web/a.js:2 ./link/db -> internal infra/db.js",
		"web/a.js:3 ./link/sub/q -> internal infra/sub/q.js",
		"web/a.js:4 ./far/x.js -> unresolved ",
		"web/a.js:5 ./nothere -> unresolved ",
	}
	if diff := cmp.Diff(want, siteKeys(res.Records)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestScanFollowsJSIntoOtherExtensions: a file JS/TS requires or imports
// is run by node as JavaScript whatever its extension, so it is scanned as
// JavaScript, transitively and once each, loops included; assets,
// JSON, type-only imports and unreferenced files are not.
func TestScanFollowsJSIntoOtherExtensions(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		want   []string // "file:line spec -> target" of the records outside the .js/.ts files
		unread []string
	}{
		{"require of a .txt", map[string]string{
			"web/a.js":       `require("./helper.txt")`,
			"web/helper.txt": `require("../infra/db")`,
			"infra/db.js":    ``,
			"web/unused.txt": `require("../infra/db")`,
		}, []string{"web/helper.txt:1 ../infra/db -> infra/db.js"}, nil},
		{"import, transitive, loop", map[string]string{
			"web/a.ts":   `import "./x.data"`,
			"web/x.data": "import \"./y\"\nrequire('./x.data')",
			"web/y":      `require("child_process")`,
		}, []string{"web/x.data:1 ./y -> web/y", "web/x.data:2 ./x.data -> web/x.data", "web/y:1 child_process -> child_process"}, nil},
		{"a python file run by node", map[string]string{
			"web/a.js":    `require("./tool.py")`,
			"web/tool.py": `require("fs") // import os`,
		}, []string{"web/tool.py:1 fs -> fs"}, nil},
		{"assets, json and type-only imports are not run", map[string]string{
			"web/a.ts":     "import './s.css'\nimport logo from './logo.png'\nimport d from './d.json'\nimport type { T } from './t.txt'",
			"web/s.css":    `require("child_process")`,
			"web/logo.png": "\x89PNG\x00",
			"web/d.json":   `{}`,
			"web/t.txt":    `require("child_process")`,
		}, nil, nil},
		{"an unreadable referenced file is unread", map[string]string{
			"web/a.js":    `require("./bin.dat")`,
			"web/bin.dat": "\x00require('child_process')",
		}, nil, []string{"web/bin.dat"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			res := mustScan(t, root, Options{NoCache: true})
			var got []string
			for _, r := range res.Records {
				if l, ok := LangOf(r.File); ok && (l == JavaScript || l == TypeScript || l == r.Lang) {
					continue // the file's own language
				}
				if r.Lang != JavaScript {
					t.Errorf("%s scanned as %s, want js", r.File, r.Lang)
				}
				got = append(got, fmt.Sprintf("%s:%d %s -> %s", r.File, r.Line, r.Spec, r.Resolution.Target))
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			var unread []string
			for _, w := range res.Warnings {
				if w.Unread {
					unread = append(unread, w.File)
				}
			}
			if diff := cmp.Diff(tt.unread, unread, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("unread (-want +got):\n%s", diff)
			}
		})
	}
}
