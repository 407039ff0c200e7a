package arch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDepcruise(t *testing.T) {
	src := `{
  "forbidden": [
    {"name": "a", "severity": "error", "comment": "why", "from": {"path": ["^src/([^/]+)/", "^lib/"], "pathNot": "spec"},
     "to": {"pathNot": "^src/$1/", "circular": true, "viaNot": "ui", "dependencyTypes": ["import", "dynamic-import"], "couldNotResolve": false}},
    {"from": {}, "to": {}},
    {"from": {}, "to": {"path": "x"}},
    {"name": "off", "severity": "ignore", "from": {}, "to": {}},
    {"name": "lonely", "from": {"orphan": true}, "to": {"path": "ignored"}}
  ],
  "allowed": [{"from": {}, "to": {"dependencyTypes": ["core"]}}],
  "allowedSeverity": "info",
  "options": {"doNotFollow": {"path": "node_modules", "dependencyTypes": ["npm", "core"]}, "maxDepth": 3, "reporterOptions": {}, "tsConfig": {"fileName": "tsconfig.build.json"}}
}`
	m, err := ParseDepcruise(".dependency-cruiser.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range m.Rules {
		got = append(got, r.Name+" "+string(r.Type)+" "+r.Severity)
	}
	want := []string{"a forbid_dependency error", "unnamed forbid_dependency warn", "unnamed-2 forbid_dependency warn", "lonely forbid_dependency warn", "not-in-allowed allowed_dependencies info"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	a := m.Rules[0].Dep
	wantA := DepRule{
		From: DepFrom{DepPaths: DepPaths{Path: []string{"^src/([^/]+)/", "^lib/"}, PathNot: []string{"spec"}}},
		To: DepTo{DepPaths: DepPaths{PathNot: []string{"^src/$1/"}}, Circular: a.To.Circular, ViaOnly: DepPaths{PathNot: []string{"ui"}},
			DependencyTypes: []string{"import", "type-only", "dynamic"}, CouldNotResolve: a.To.CouldNotResolve},
	}
	if diff := cmp.Diff(wantA, *a); diff != "" || !*a.To.Circular || *a.To.CouldNotResolve {
		t.Errorf("rule a (-want +got):\n%s", diff)
	}
	if o := m.Rules[3].Dep; o.From.Orphan == nil || len(o.To.Path) != 0 {
		t.Errorf("orphan rule keeps its to: %+v", o)
	}
	if len(m.Skipped) != 1 || m.Skipped[0].Name != "off" {
		t.Errorf("skipped = %+v, want the ignore rule", m.Skipped)
	}
	var notes []string
	for _, n := range m.Notes {
		notes = append(notes, n.Msg)
	}
	wantNotes := []string{
		"dependency-cruiser ignores the to part of an orphan rule; so does vouch",
		"options.doNotFollow.dependencyTypes is not applied by vouch; only options.doNotFollow.path is",
		"option maxDepth is not applied by vouch; findings may differ from dependency-cruiser's",
		"vouch resolves TypeScript paths with the tsconfig.json nearest each file, not with tsconfig.build.json",
	}
	if diff := cmp.Diff(wantNotes, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if sc := m.Scope; sc == nil || !sc.NoTypeOnly || !sc.JSOnly || !cmp.Equal(sc.DoNotFollow, []string{"node_modules"}) {
		t.Errorf("scope = %+v", m.Scope)
	}
}

func TestParseDepcruiseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"extends a package", `{"extends": "@acme/rules"}`, `x.json:1:13: extends "@acme/rules": vouch reads dependency-cruiser's own configurations`},
		{"extends a missing file", `{"extends": ["./nowhere"]}`, `x.json:1:14: extends "./nowhere": no such file`},
		{"extends a number", `{"extends": 1}`, `x.json:1:13: extends must be a string or an array of strings, found a number`},
		{"required", `{"required": []}`, "x.json:1:2: required rules are not evaluated by vouch"},
		{"severity", `{"forbidden": [{"severity": "fatal", "from": {}, "to": {}}]}`, `x.json:1:29: severity "fatal"; want one of error, warn, info, ignore`},
		{"scope", `{"forbidden": [{"scope": "folder", "from": {}, "to": {}}]}`, `x.json:1:26: scope "folder" is not evaluated by vouch`},
		{"via", `{"forbidden": [{"from": {}, "to": {"circular": true, "via": "x"}}]}`, "x.json:1:54: to.via is not evaluated by vouch"},
		{"no to", `{"forbidden": [{"from": {}}]}`, "x.json:1:16: a rule needs from and to"},
		{"lookbehind", `{"forbidden": [{"from": {"path": "(?<=a)b"}, "to": {}}]}`, `x.json:1:34: from.path: regular expression "(?<=a)b" uses lookbehind`},
		{"backref", `{"forbidden": [{"from": {}, "to": {"path": "(a)\\1"}}]}`, `x.json:1:44: to.path: regular expression "(a)\\1" uses the back-reference \1`},
		{"group in from", `{"forbidden": [{"from": {"path": "^$1"}, "to": {}}]}`, `refers to a group ($1...), which only a to path or path_not may do`},
		{"bad type", `{"forbidden": [{"from": {}, "to": {"dependencyTypes": ["aliased-tsconfig"]}}]}`, "vouch resolves aliases (tsconfig paths, package imports) but does not mark them"},
		{"unknown key", `{"forbiden": []}`, `x.json:1:2: unknown key "forbiden" in the configuration (did you mean "forbidden"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDepcruise("x.json", []byte(tt.src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestParseDepcruiseExtends: extended files are merged under the
// extending one as dependency-cruiser merges them, errors are placed in
// the file they are in, and a circle of extends is refused.
func TestParseDepcruiseExtends(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("base.json", `{"extends": "dependency-cruiser/configs/recommended-warn-only",
		"forbidden": [{"name": "b", "severity": "error", "from": {"path": "^a"}, "to": {"path": "^b"}}],
		"options": {"exclude": "^x", "tsPreCompilationDeps": true}}`)
	top := write("top.js", `module.exports = {extends: "./base", forbidden: [{name: "b", severity: "info"}, {name: "no-circular", severity: "error"}], options: {exclude: "^y"}};`)
	data, _ := os.ReadFile(top)
	m, err := ParseDepcruise(top, data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range m.Rules {
		got = append(got, r.Name+" "+r.Severity+" "+filepath.Base(r.Pos.File))
	}
	want := []string{
		"b info top.js",
		"no-circular error top.js",
		"no-orphans warn recommended-warn-only (built into vouch)",
		"no-deprecated-core warn recommended-warn-only (built into vouch)",
		"no-duplicate-dep-types warn recommended-warn-only (built into vouch)",
		"no-non-package-json warn recommended-warn-only (built into vouch)",
		"not-to-deprecated warn recommended-warn-only (built into vouch)",
		"not-to-unresolvable warn recommended-warn-only (built into vouch)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	if r := m.Rules[0]; r.Dep == nil || !cmp.Equal(r.Dep.From.Path, []string{"^a"}) {
		t.Errorf("rule b keeps base's conditions: %+v", r.Dep)
	}
	if sc := m.Scope; sc == nil || !cmp.Equal(sc.Exclude, []string{"^y"}) || sc.NoTypeOnly {
		t.Errorf("options: own exclude, base's tsPreCompilationDeps; got %+v", m.Scope)
	}
	if !slices.Contains(m.Files, filepath.Join(dir, "base.json")) {
		t.Errorf("files %v lack base.json (receipts hash it)", m.Files)
	}

	write("a.json", `{"extends": "./b.json"}`)
	write("b.json", `{"extends": "./a.json", "forbidden": [{"from": {}, "to": {"bogus": 1}}]}`)
	data, _ = os.ReadFile(filepath.Join(dir, "a.json"))
	_, err = ParseDepcruise(filepath.Join(dir, "a.json"), data)
	if err == nil || !strings.Contains(err.Error(), "extend each other in a circle") {
		t.Errorf("circle: error %v", err)
	}
	write("c.json", `{"extends": "./d.json"}`)
	write("d.json", `{"forbidden": [{"from": {}, "to": {"bogus": 1}}]}`)
	data, _ = os.ReadFile(filepath.Join(dir, "c.json"))
	_, err = ParseDepcruise(filepath.Join(dir, "c.json"), data)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "d.json")+":1:36: unknown key \"bogus\"") {
		t.Errorf("error in an extended file: %v", err)
	}
}

// TestParseDepcruiseExtendsConfined: a configuration cannot extend a file
// outside the repository, directly or through a link.
func TestParseDepcruiseExtendsConfined(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{"forbidden": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "link.json")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, filepath.Join(outside, "secret.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"./" + filepath.ToSlash(rel), "./link.json"} {
		src := `{"extends": "` + ext + `"}`
		file := filepath.Join(root, ".dependency-cruiser.json")
		_, err := ParseDepcruiseIn(root, file, []byte(src))
		if err == nil || !strings.Contains(err.Error(), "leaves "+root) && !strings.Contains(err.Error(), "leaves") {
			t.Errorf("extends %s: %v, want it refused", ext, err)
		}
	}
	// Inside the root it is read.
	if err := os.WriteFile(filepath.Join(root, "base.json"), []byte(`{"forbidden": [{"name": "x", "from": {}, "to": {"circular": true}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ParseDepcruiseIn(root, filepath.Join(root, ".dependency-cruiser.json"), []byte(`{"extends": "./base.json"}`))
	if err != nil || len(m.Rules) != 1 {
		t.Fatalf("extends inside the root: %v, %d rules", err, len(m.Rules))
	}
}
