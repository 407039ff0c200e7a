package arch

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const ilINI = `[importlinter]
root_packages =
    mypkg
exclude_type_checking_imports = True

[importlinter:contract:layers]
name = Layered
type = layers
containers =
    mypkg.a
    mypkg.b
layers =
    high
    (mid1) | mid2
    low
ignore_imports =
    mypkg.*.low -> mypkg.**.high

[importlinter:contract:f]
name = Forbidden
type = forbidden
source_modules = mypkg.x
forbidden_modules = mypkg.y
allow_indirect_imports = True
`

// TestImportLinterINI checks the translation of each setting: containers
// make one layers rule each, independent siblings one deny per sibling,
// allow_indirect_imports turns chains off, the top-level
// exclude_type_checking_imports reaches every rule.
func TestImportLinterINI(t *testing.T) {
	m, err := ParseImportLinter(".importlinter", []byte(ilINI))
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Name, Type string
		Indirect   bool
		Layers     []string
		From, To   []string
		Ignores    int
		Unmatched  string
		Line       int
	}
	var rules []got
	for _, r := range m.Rules {
		g := got{Name: r.Name, Type: string(r.Type), Indirect: r.Indirect, From: r.From.Modules, To: r.To.Modules, Ignores: len(r.IgnoreImports), Unmatched: r.IgnoreUnmatched, Line: r.Origin.Pos.Line}
		for _, l := range r.Layers {
			g.Layers = append(g.Layers, l.Name)
		}
		if !cmp.Equal(r.DependencyTypesNot, []string{"type-checking"}) {
			t.Errorf("%s: dependency_types_not %v", r.Name, r.DependencyTypesNot)
		}
		rules = append(rules, g)
	}
	want := []got{
		{Name: "Layered [mypkg.a]", Type: "layers", Indirect: true, Layers: []string{"mypkg.a.high", "mypkg.a.mid1 | mypkg.a.mid2", "mypkg.a.low"}, Ignores: 1, Line: 6},
		{Name: "Layered [mypkg.a] [mypkg.a.mid1 independent]", Type: "deny", Indirect: true, From: []string{"mypkg.a.mid1"}, To: []string{"mypkg.a.mid2"}, Ignores: 1, Unmatched: "none", Line: 6},
		{Name: "Layered [mypkg.a] [mypkg.a.mid2 independent]", Type: "deny", Indirect: true, From: []string{"mypkg.a.mid2"}, To: []string{"mypkg.a.mid1"}, Ignores: 1, Unmatched: "none", Line: 6},
		{Name: "Layered [mypkg.b]", Type: "layers", Indirect: true, Layers: []string{"mypkg.b.high", "mypkg.b.mid1 | mypkg.b.mid2", "mypkg.b.low"}, Ignores: 1, Unmatched: "none", Line: 6},
		{Name: "Layered [mypkg.b] [mypkg.b.mid1 independent]", Type: "deny", Indirect: true, From: []string{"mypkg.b.mid1"}, To: []string{"mypkg.b.mid2"}, Ignores: 1, Unmatched: "none", Line: 6},
		{Name: "Layered [mypkg.b] [mypkg.b.mid2 independent]", Type: "deny", Indirect: true, From: []string{"mypkg.b.mid2"}, To: []string{"mypkg.b.mid1"}, Ignores: 1, Unmatched: "none", Line: 6},
		{Name: "Forbidden", Type: "deny", From: []string{"mypkg.x"}, To: []string{"mypkg.y"}, Line: 19},
	}
	if diff := cmp.Diff(want, rules); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	if !cmp.Equal(m.RootPackages, []string{"mypkg"}) || m.Granularity != GranularityModule {
		t.Errorf("root packages %v granularity %q", m.RootPackages, m.Granularity)
	}
	if ig := m.Rules[0].IgnoreImports[0]; ig.From != "mypkg.*.low" || ig.To != "mypkg.**.high" || ig.Pos.Line != 17 {
		t.Errorf("ignore %+v", ig)
	}
}

// TestImportLinterTOML reads the pyproject.toml form, with the lines of
// contracts and of each list entry.
func TestImportLinterTOML(t *testing.T) {
	src := `[project]
name = "demo"

[tool.importlinter]
root_package = "mypkg"

[[tool.importlinter.contracts]]
name = "Independent"
type = "independence"
modules = [
    "mypkg.a",
    "mypkg.b",
]
ignore_imports = ["mypkg.a -> mypkg.b.z"]

[[tool.importlinter.contracts]]
id = "fb"
name = "Forbidden"
type = "forbidden"
source_modules = ["mypkg.a"]
forbidden_modules = ["mypkg.c"]
`
	m, err := ParseImportLinter("pyproject.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range m.Rules {
		names = append(names, r.Name)
	}
	if diff := cmp.Diff([]string{"Independent [mypkg.a]", "Independent [mypkg.b]", "Forbidden"}, names); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	if l := m.Rules[0].Origin.Pos.Line; l != 7 {
		t.Errorf("first contract at line %d, want 7", l)
	}
	if l := m.Rules[2].Origin.Pos.Line; l != 16 {
		t.Errorf("second contract at line %d, want 16", l)
	}
	if l := m.Rules[0].IgnoreImports[0].Pos.Line; l != 14 {
		t.Errorf("ignore at line %d, want 14", l)
	}
}

func TestImportLinterErrors(t *testing.T) {
	head := "[importlinter]\nroot_package = mypkg\n\n[importlinter:contract:1]\nname = C\n"
	for _, tc := range []struct{ src, want string }{
		{head + "type = forbiden\n", `.importlinter:6:1: unknown contract type "forbiden" (did you mean "forbidden"?)`},
		{head + "type = forbidden\nsource_module = mypkg.a\nforbidden_modules = mypkg.b\n", `.importlinter:7:1: unknown key "source_module" in forbidden contract "C" (did you mean "source_modules"?)`},
		{head + "type = layers\nlayers =\n  mypkg.a\n  mypkg.b\nignore_imports = mypkg.a mypkg.b\n", `.importlinter:10:1: ignore_imports entry "mypkg.a mypkg.b": want importer -> imported`},
		{head + "type = layers\nlayers = mypkg.a\n", `.importlinter:4:1: layers contract "C" needs at least two layers`},
		{head + "type = forbidden\nsource_modules = mypkg.a\nforbidden_modules = django\n", `forbidden_modules django are not in the root packages; import-linter needs include_external_packages = True`},
		{head + "type = independence\nmodules =\n  mypkg.a\n  mypkg.b\nallow_indirect_imports = maybe\n", `.importlinter:10:1: allow_indirect_imports = "maybe" must be True or False`},
		{"[importlinter]\nroot_pakage = x\n", `.importlinter:2:1: unknown key "root_pakage" in [importlinter] (did you mean "root_package"?)`},
		{"[importlinter]\nroot_package = x\n", `.importlinter:1:1: no contracts`},
		{"[other]\n", `.importlinter:1:1: no [importlinter] section`},
		{"[importlinter\n", `.importlinter:1:1: section header has no closing ]`},
		{head + "type = forbidden\nsource_modules = mypkg.a\nforbidden_modules = mypkg.b\nas_packages = False\n", `as_packages = False (modules without their descendants) is not supported by vouch`},
		{head + "type = layers\ncontainers = other\nlayers =\n  a\n  b\n", `.importlinter:7:1: invalid container "other": a container must be one of the root packages (mypkg) or a subpackage of one`},
	} {
		_, err := ParseImportLinter(".importlinter", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseImportLinter(%q) = %v, want %s", tc.src, err, tc.want)
		}
	}
}

// TestImportLinterSkipped: a custom contract type (Python code vouch
// cannot run) is reported as skipped, never dropped; acyclic_siblings is
// a rule, with its depth and skipped descendants.
func TestImportLinterSkipped(t *testing.T) {
	src := "[importlinter]\nroot_package = p\ncontract_types =\n  mine: pkg.Mine\n\n[importlinter:contract:1]\nname = A\ntype = acyclic_siblings\nancestors = p\ndepth = 2\nskip_descendants = p.x\n\n[importlinter:contract:2]\nname = B\ntype = mine\n"
	m, err := ParseImportLinter(".importlinter", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Skipped) != 1 || m.Skipped[0].Name != "B" || m.Skipped[0].Pos.Line != 13 {
		t.Errorf("skipped %+v", m.Skipped)
	}
	want := &Siblings{Ancestors: []string{"p"}, Depth: 2, SkipDescendants: []string{"p.x"}}
	if len(m.Rules) != 1 || m.Rules[0].Type != AcyclicSiblings || !reflect.DeepEqual(m.Rules[0].Siblings, want) {
		t.Errorf("rules %+v", m.Rules)
	}
	for _, bad := range []struct{ src, want string }{
		{"depth = -1\n", `depth = "-1" must be a whole number >= 0`},
		{"skip_descendants = p\n", `cannot skip "p": it is also an ancestor`},
	} {
		_, err := ParseImportLinter(".importlinter", []byte("[importlinter]\nroot_package = p\n\n[importlinter:contract:1]\nname = A\ntype = acyclic_siblings\nancestors = p\n"+bad.src))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: got %v, want %s", bad.src, err, bad.want)
		}
	}
}

func TestModulePattern(t *testing.T) {
	for _, tc := range []struct {
		expr string
		desc bool
		name string
		want bool
	}{
		{"a.b", true, "a.b", true},
		{"a.b", true, "a.b.c", true},
		{"a.b", false, "a.b.c", false},
		{"a.b", true, "a.bc", false},
		{"a.*.c", false, "a.x.c", true},
		{"a.*.c", false, "a.x.y.c", false},
		{"a.**.c", false, "a.x.y.c", true},
		{"a.**.c", false, "a.c", false},
		{"a.**", false, "a.b.c", true},
	} {
		p, err := CompileModule(tc.expr, tc.desc)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Match(tc.name); got != tc.want {
			t.Errorf("%s (descendants %v) matches %s = %v, want %v", tc.expr, tc.desc, tc.name, got, tc.want)
		}
	}
	if _, err := CompileModule("a.b*", false); err == nil {
		t.Error("a partial wildcard was accepted")
	}
}

func TestModuleNodes(t *testing.T) {
	files := []string{"README.md", "src/mypkg/__init__.py", "src/mypkg/a.py", "src/mypkg/a.pyi", "src/mypkg/sub/__init__.py", "src/mypkg/sub/b.py", "tests/test_x.py", "tests/mypkg/__init__.py"}
	var got []string
	for _, n := range moduleNodes(files, []string{"mypkg"}) {
		got = append(got, n.ID+"="+n.Source)
	}
	want := []string{"mypkg=src/mypkg/__init__.py", "mypkg.a=src/mypkg/a.py", "mypkg.sub=src/mypkg/sub/__init__.py", "mypkg.sub.b=src/mypkg/sub/b.py"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	// Without root packages: the top-level regular packages.
	got = nil
	for _, n := range moduleNodes([]string{"p/__init__.py", "p/q/__init__.py", "p/q/r.py", "loose/x.py"}, nil) {
		got = append(got, n.ID)
	}
	if diff := cmp.Diff([]string{"p", "p.q", "p.q.r"}, got); diff != "" {
		t.Errorf("nodes without root packages (-want +got):\n%s", diff)
	}
}

func FuzzParseImportLinter(f *testing.F) {
	f.Add(".importlinter", []byte(ilINI))
	f.Add("pyproject.toml", []byte("[tool.importlinter]\nroot_package = \"p\"\n[[tool.importlinter.contracts]]\nname = \"x\"\ntype = \"layers\"\nlayers = [\"p.a\", \"p.b | p.c\"]\n"))
	f.Add("setup.cfg", []byte("[importlinter]\nroot_package=p\n[importlinter:contract:x]\nname=n\ntype=forbidden\nsource_modules=p.a\nforbidden_modules=p.b\nignore_imports=p.**->p.*\n"))
	f.Fuzz(func(t *testing.T, file string, data []byte) {
		if !strings.HasSuffix(file, ".toml") {
			file = ".importlinter"
		}
		m, err := ParseImportLinter(file, data)
		if err != nil {
			var el ErrorList
			if !asList(err, &el) || len(el) == 0 {
				t.Fatalf("error is not a positioned list: %v", err)
			}
			for _, e := range el {
				if e.Line < 1 {
					t.Fatalf("unpositioned error %v", e)
				}
			}
			return
		}
		for _, r := range m.Rules {
			if r.Origin == nil || r.Name == "" {
				t.Fatalf("rule without origin or name: %+v", r)
			}
		}
	})
}

func asList(err error, el *ErrorList) bool {
	l, ok := err.(ErrorList)
	*el = l
	return ok
}

// TestImportLinterMissing: a layer module that does not exist (unless the
// layer is optional) and a root package that is no package are errors
// once the repository's files are known, as import-linter refuses them.
func TestImportLinterMissing(t *testing.T) {
	files := []string{"mypkg/__init__.py", "mypkg/a.py", "mypkg/b/__init__.py", "solo.py"}
	for _, tc := range []struct{ src, want string }{
		{"[importlinter]\nroot_package = mypkg\n\n[importlinter:contract:1]\nname = C\ntype = layers\nlayers =\n  mypkg.a\n  (mypkg.gone)\n  mypkg.b\n", ""},
		{"[importlinter]\nroot_package = mypkg\n\n[importlinter:contract:1]\nname = C\ntype = layers\nlayers =\n  mypkg.a\n  mypkg.gone\n", `.importlinter:9:1: layer module mypkg.gone of contract "C" does not exist`},
		{"[importlinter]\nroot_package = solo\n\n[importlinter:contract:1]\nname = C\ntype = independence\nmodules =\n  solo.a\n  solo.b\n", `.importlinter:1:1: root package solo is a module (solo.py), not a package`},
		{"[importlinter]\nroot_package = nowhere\n\n[importlinter:contract:1]\nname = C\ntype = independence\nmodules =\n  nowhere.a\n  nowhere.b\n", `.importlinter:1:1: root package nowhere was not found`},
	} {
		m, err := ParseImportLinter(".importlinter", []byte(tc.src))
		if err != nil {
			t.Fatalf("parse %q: %v", tc.src, err)
		}
		err = m.Finish(files)
		if tc.want == "" {
			if err != nil {
				t.Errorf("Finish(%q) = %v, want no error", tc.src, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Finish(%q) = %v, want %s", tc.src, err, tc.want)
		}
	}
}
