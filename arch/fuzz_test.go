package arch

import (
	"strings"
	"testing"
)

// FuzzParse drives both loaders with arbitrary YAML: they must never panic,
// and a document that loads must survive Finish without panicking either.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"nodes:\n  - {ref_id: a, kind: domain, source: src/a}\nedges:\n  - {src: a, dst: a, kind: uses}\nrules:\n  - {name: r, deny: {from: {ref_id: a}, to: {}}}\n",
		"version: 3\ntags:\n  layer-a: [a]\nrules:\n  - name: l\n    layers:\n      - {name: a, tag: layer-a}\n      - {name: b, tag: layer-b}\n    enforce: top-down\n    allow_skip: true\n",
		"rules:\n  - {name: f, forbid_import: {from: \"src/**\", to: \"x/[!a]*\"}, exempt: [{from: a, reason: r, until: 2030-01-01}]}\n",
		"rules:\n  - {name: c, forbid_cycles: {edge_kind: depends_on}}\n  - {name: c, module_coverage: {}}\n",
		"nodes: [1, 2]\nrules: {a: b}\n",
		"- a\n- b\n",
		"&a [*a]",
	}
	for _, s := range seeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, beadloom bool) {
		var m *Model
		var err error
		if beadloom {
			m, err = ParseBeadloom("rules.yml", []byte(src), true)
		} else {
			m, err = Parse("architecture.yaml", []byte(src))
		}
		if err != nil {
			if _, ok := err.(ErrorList); !ok {
				t.Fatalf("error is %T, want ErrorList", err)
			}
			return
		}
		_ = m.Finish([]string{"src/a/x.go", "b.py"})
	})
}

func FuzzGlob(f *testing.F) {
	for _, s := range [][2]string{{"src/**", "src"}, {"a/*/c", "a/b/c"}, {"**/x/**", "x"}, {"[!a]*", "b"}, {"[", "x"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		g, err := CompileGlob(pattern)
		if err != nil {
			return
		}
		// The literal-prefix shortcut never changes an answer.
		want := len(g.segs) > 0 && matchSegs(g.segs, strings.Split(strings.TrimPrefix(name, "./"), "/"))
		if got := g.Match(name); got != want {
			t.Errorf("%q.Match(%q) = %v, want %v", pattern, name, got, want)
		}
	})
}

// FuzzParseDepcruise drives the dependency-cruiser reader, in both its
// JSON and module forms: it must never panic, every error is positioned,
// and a configuration that loads survives Finish and Explain.
func FuzzParseDepcruise(f *testing.F) {
	for _, s := range []string{
		`{"forbidden": [{"name": "x", "from": {"path": "^src/([^/]+)/"}, "to": {"pathNot": "^src/$1/", "circular": true, "viaNot": "ui"}}], "options": {"exclude": "legacy"}}`,
		"module.exports = {forbidden: [{from: {orphan: true}, to: {}}], allowed: [{from: {}, to: {dependencyTypes: ['core']}}], allowedSeverity: 'error'};",
		`{"forbidden": [{"from": {"path": "(?!x)"}, "to": {"dependencyTypes": ["npm-dev"]}}]}`,
		`{"options": {"tsPreCompilationDeps": "specify", "doNotFollow": {"path": ["a", "b"]}}}`,
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, module bool) {
		name := ".dependency-cruiser.json"
		if module {
			name = ".dependency-cruiser.cjs"
		}
		m, err := ParseDepcruise(name, []byte(src))
		if err != nil {
			el, ok := err.(ErrorList)
			if !ok {
				t.Fatalf("error is %T, want ErrorList", err)
			}
			for _, e := range el {
				if e.File != name {
					t.Fatalf("error without its file: %v", e)
				}
			}
			return
		}
		if err := m.Finish([]string{"src/a.ts", "src/b.js"}); err != nil {
			return
		}
		var b strings.Builder
		if err := m.Explain(&b); err != nil {
			t.Fatalf("explain: %v", err)
		}
	})
}
