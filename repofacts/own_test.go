package repofacts

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVouchDirIsWork: under .vouch only the files vouch writes are left
// out, even with the output directory (.vouch) excluded as a whole and a
// .vouch/.gitignore that ignores everything: code there, the .gitignore
// and the guard policy are work.
func TestVouchDirIsWork(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{
		"package.json":      `{"name": "x", "dependencies": {}}`,
		"src/app.js":        "module.exports = 1\n",
		".vouch/.gitignore": "*\n!.gitignore\n!envelope.yaml\n",
	})
	r.write(map[string]string{
		"src/app.js":        "const pad = require('../.vouch/pad.js')\nmodule.exports = pad\n",
		".vouch/pad.js":     "module.exports = require('left-pad')\n",
		".vouch/guard.yaml": "mode: observe\n",
		".vouch/.gitignore": "*\n!.gitignore\n!envelope.yaml\n!lib\n",
		// vouch's own files.
		".vouch/envelope.yaml":                                             "facts: {}\n",
		".vouch/verification.json":                                         "{}",
		".vouch/.verification.json.vouch-tmp-12-345":                       "{}",
		".vouch/rulespec.compiled.dl":                                      "x",
		".vouch/gate.compiled.dl":                                          "x",
		".vouch/lint/lint_evaluation.txt":                                  "x",
		".vouch/cache/imports.bin":                                         "x",
		".vouch/cache/guard-0123456789abcdef0123456789abcdef01234567.json": "{}",
		".vouch/guard/audit.jsonl":                                         "{}\n",
		".vouch/guard/sessions/0123456789abcdef0123456789abcdef.log":       "x\n",
		// An output directory elsewhere: only the artifacts are vouch's.
		"build/vouch/verification.json": "{}",
		"build/vouch/helper.js":         "module.exports = 2\n",
	})
	for _, opts := range []Options{
		{Root: r.dir, Exclude: []string{filepath.Join(r.dir, ".vouch"), filepath.Join(r.dir, ".vouch", "envelope.yaml"), filepath.Join(r.dir, "build", "vouch")}},
		{Root: r.dir, Envelope: filepath.Join(r.dir, ".vouch", "envelope.yaml"), Exclude: []string{filepath.Join(r.dir, "build", "vouch"), filepath.Join(r.dir, ".vouch")}, StateOnly: true},
	} {
		d := collect(t, opts)
		want := []string{".vouch/.gitignore", ".vouch/guard.yaml", ".vouch/pad.js", "build/vouch/helper.js", "src/app.js"}
		if !cmp.Equal(d.Changed, want) {
			t.Errorf("state only %v: changed = %v, want %v", opts.StateOnly, d.Changed, want)
		}
		if opts.StateOnly {
			continue
		}
		var deps []string
		for _, x := range d.DependenciesAdded {
			deps = append(deps, x.Ecosystem+":"+x.Name+" "+x.Source)
		}
		if !slices.Contains(deps, "npm:left-pad .vouch/pad.js") {
			t.Errorf("dependencies_added = %v, want npm:left-pad from .vouch/pad.js", deps)
		}
	}
}

// TestOwnFiles pins what is vouch's: its files under .vouch, spelled as
// its writers spell them, the artifacts only in the output directories
// given, and nothing that is tracked but the envelope.
func TestOwnFiles(t *testing.T) {
	own := ownFiles("env/e.yaml", []string{"out", "."})
	h := "0123456789abcdef0123456789abcdef"
	for _, p := range []string{".vouch/envelope.yaml", ".vouch/lint/architecture.compiled.dl",
		".vouch/cache/imports.bin", ".vouch/cache/imports.bin.tmp123", ".vouch/cache/guard-" + h + "01234567.json", ".vouch/cache/.guard-" + h + "01234567.json.vouch-tmp-1-2",
		".vouch/guard/audit.jsonl", ".vouch/guard/sessions/" + h + ".log", ".vouch/guard/sessions/" + h + ".writes", ".vouch/rulespec.schema.json", "out/verification.json", "out/lint/lint_evaluation.txt", "out", "env/e.yaml",
		"env/.e.yaml.vouch-tmp-9-9", "out/.verification.json.vouch-tmp-12-345"} {
		if !own.has(p, false) {
			t.Errorf("%s is not vouch's", p)
		}
	}
	if !own.has("env/e.yaml", true) {
		t.Errorf("the envelope, tracked, is not vouch's")
	}
	for _, p := range []string{".vouch/.gitignore", ".vouch/guard.yaml", ".vouch/pad.js", ".vouch/cache/pad.js", ".vouch/guard/x.js",
		".vouch/guard/sessions/x/y.log", ".vouch/lint/x.js", "out/helper.js", "env/other.yaml", "a.go", ".vouch/.pad.js.vouch-tmp-1",
		".vouch/x.vouch-tmp-1",
		// Near misses of the names vouch makes up.
		".vouch/cache/imports.bin.tmp.js", ".vouch/cache/imports.bin.tmp12.js", ".vouch/cache/imports.bin.tmp",
		".vouch/.verification.json.vouch-tmp-1.js", "out/.verification.json.vouch-tmp-1-2.js", "out/.verification.json.vouch-tmp-1",
		".vouch/guard/sessions/x.log", ".vouch/guard/sessions/" + h + "0.log", ".vouch/guard/sessions/" + h + ".writes.js", ".vouch/guard/sessions/" + strings.ToUpper(h) + ".log",
		".vouch/cache/guard-x.json", ".vouch/cache/guard-" + h + ".json",
		// Artifacts outside the output directories given.
		".vouch/datalog_evaluation.txt", ".vouch/verification.json", "lint_evaluation.txt"} {
		if own.has(p, false) {
			t.Errorf("%s is taken for vouch's", p)
		}
	}
	for _, p := range []string{".vouch/cache/imports.bin", ".vouch/guard/sessions/" + h + ".log", "out/datalog_evaluation.txt", "out/.verification.json.vouch-tmp-12-345"} {
		if own.has(p, true) {
			t.Errorf("%s is taken for vouch's though tracked", p)
		}
	}
}

// TestCommittedOwnNames: code committed under a name vouch leaves out
// while untracked (an artifact in the output directory, a guard log) is
// work, and so are untracked files whose names only resemble vouch's.
func TestCommittedOwnNames(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"package.json": `{"name": "x", "dependencies": {}}`, "src/a.js": "module.exports = 1\n",
		".vouch/.gitignore": "*\n!.gitignore\n!envelope.yaml\n"})
	h := "0123456789abcdef0123456789abcdef"
	evil := "module.exports = require('left-pad')\n"
	committed := []string{".vouch/datalog_evaluation.txt", ".vouch/guard/sessions/" + h + ".log", ".vouch/envelope.yaml"}
	untracked := []string{".vouch/cache/imports.bin.tmp.js", ".vouch/.verification.json.vouch-tmp-1.js", ".vouch/guard/sessions/x.log", ".vouch/cache/guard-x.json"}
	files := map[string]string{}
	var req strings.Builder
	for _, p := range append(committed, untracked...) {
		files[p] = evil
		if p != ".vouch/envelope.yaml" { // loading the envelope is an error (TestLoadsOwnFile)
			req.WriteString("require('../" + p + "')\n")
		}
	}
	files["src/a.js"] = req.String()
	r.write(files)
	r.git("add", "-f", "--", ".vouch/datalog_evaluation.txt", ".vouch/guard/sessions/"+h+".log", ".vouch/envelope.yaml")
	d := collect(t, Options{Root: r.dir, Envelope: filepath.Join(r.dir, ".vouch", "envelope.yaml"), Exclude: []string{filepath.Join(r.dir, ".vouch")}})
	want := append([]string{"src/a.js"}, committed[:2]...)
	want = append(want, untracked...)
	slices.Sort(want)
	if !cmp.Equal(d.Changed, want) {
		t.Errorf("changed = %v, want %v", d.Changed, want)
	}
	if len(d.DependenciesAdded) == 0 {
		t.Errorf("no dependency added")
	}
}
