package repofacts

import (
	"path/filepath"
	"slices"
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
		".vouch/envelope.yaml":                       "facts: {}\n",
		".vouch/verification.json":                   "{}",
		".vouch/.verification.json.vouch-tmp-12-345": "{}",
		".vouch/rulespec.compiled.dl":                "x",
		".vouch/gate.compiled.dl":                    "x",
		".vouch/lint/lint_evaluation.txt":            "x",
		".vouch/cache/imports.bin":                   "x",
		".vouch/cache/guard-0123abcd.json":           "{}",
		".vouch/guard/audit.jsonl":                   "{}\n",
		".vouch/guard/sessions/0a1b.log":             "x\n",
		// An output directory elsewhere: only the artifacts are vouch's.
		"build/vouch/verification.json": "{}",
		"build/vouch/helper.js":         "module.exports = 2\n",
	})
	for _, opts := range []Options{
		{Root: r.dir, Exclude: []string{filepath.Join(r.dir, ".vouch"), filepath.Join(r.dir, ".vouch", "envelope.yaml"), filepath.Join(r.dir, "build", "vouch")}},
		{Root: r.dir, Exclude: []string{filepath.Join(r.dir, "build", "vouch")}, StateOnly: true},
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

// TestOwnFiles pins what is vouch's under .vouch.
func TestOwnFiles(t *testing.T) {
	own := ownFiles([]string{"out", "env/e.yaml", "."})
	for _, p := range []string{".vouch/envelope.yaml", ".vouch/verification.json", ".vouch/lint/architecture.compiled.dl",
		".vouch/cache/imports.bin", ".vouch/cache/imports.bin.tmp123", ".vouch/cache/guard-ab.json", ".vouch/cache/.guard-ab.json.vouch-tmp-1-2",
		".vouch/guard/audit.jsonl", ".vouch/guard/sessions/ab.log", ".vouch/rulespec.schema.json", "out/verification.json", "out/lint/lint_evaluation.txt", "out", "env/e.yaml",
		"env/.e.yaml.vouch-tmp-9-9"} {
		if !own.has(p) {
			t.Errorf("%s is not vouch's", p)
		}
	}
	for _, p := range []string{".vouch/.gitignore", ".vouch/guard.yaml", ".vouch/pad.js", ".vouch/cache/pad.js", ".vouch/guard/x.js",
		".vouch/guard/sessions/x/y.log", ".vouch/lint/x.js", "out/helper.js", "env/other.yaml", "a.go", ".vouch/.pad.js.vouch-tmp-1",
		".vouch/x.vouch-tmp-1"} {
		if own.has(p) {
			t.Errorf("%s is taken for vouch's", p)
		}
	}
}
