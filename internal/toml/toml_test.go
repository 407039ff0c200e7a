package toml

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	src := `# pyproject
[project]
name = "demo"
version = '1.0'
classifiers = [
  "a",  # first
  "b",
]

[tool.setuptools]
package-dir = {"" = "lib", extra = 'src'}

[tool.setuptools.packages.find]
where = ["src"]

[[tool.poetry.packages]]
include = "pkg"
from = "src"

[[tool.poetry.packages]]
include = "other"

[tool.importlinter]
root_packages = ["a", "b"]
exclude_type_checking_imports = true
n = 1_000
f = 1.5
d = 2024-01-02
dt = 2024-01-02 10:00:00
multi = """
line one \
   joined"""
lit = '''raw\n'''
"quoted.key" = "x"
a.b.c = -7
`
	got, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := Table{
		"project": Table{"name": "demo", "version": "1.0", "classifiers": []any{"a", "b"}},
		"tool": Table{
			"setuptools": Table{
				"package-dir": Table{"": "lib", "extra": "src"},
				"packages":    Table{"find": Table{"where": []any{"src"}}},
			},
			"poetry": Table{"packages": []any{Table{"include": "pkg", "from": "src"}, Table{"include": "other"}}},
			"importlinter": Table{
				"root_packages": []any{"a", "b"}, "exclude_type_checking_imports": true,
				"n": int64(1000), "f": 1.5, "d": "2024-01-02", "dt": "2024-01-02 10:00:00",
				"multi": "line one joined", "lit": `raw\n`, "quoted.key": "x",
				"a": Table{"b": Table{"c": int64(-7)}},
			},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parse (-want +got):\n%s", diff)
	}
	if v, ok := got.Lookup("tool", "setuptools", "package-dir"); !ok || v.(Table)[""] != "lib" {
		t.Errorf("Lookup = %v, %v", v, ok)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a = \n", `1:5: want a value, found '\n'`},
		{"[a]\n[a]\n", "2:4: table [a] is defined twice"},
		{"a = 1\na = 2\n", "2:6: key a is defined twice"},
		{"a = \"x\n", "1:7: string has no closing \""},
		{"a = [1 2]\n", "1:8: want , or ] in an array, found '2'"},
		{"a = 1 b\n", "1:7: unexpected 'b'; want a new line"},
		{"a = \"\\q\"\n", `1:7: unknown escape \q`},
		{"a = yes\n", `1:5: value "yes" is not a string, number, boolean, array or table`},
		{"[a\n", "1:3: table header needs a closing ]"},
		{"= 1\n", `1:1: want a key, found '='`},
		{"a = 07\n", `1:5: value "07" is not a string, number, boolean, array or table`},
	} {
		_, err := Parse([]byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v, want %s", tc.src, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"[a.b]\nc = [1, {d = 'e'}]\n", "[[x]]\ny = \"\"\"\nz\"\"\"\n", "a = 2024-01-01\n", "a.b = true\n", "a = '''x'''\n", "a = \"\\u00e9\"\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(data)
		var e *Error
		if err != nil && (!errors.As(err, &e) || e.Line < 1 || e.Col < 1) {
			t.Fatalf("unpositioned error %v", err)
		}
	})
}
