package repofacts

import (
	"testing"
)

// FuzzParseDiff feeds arbitrary bytes to the reader of git's -z diff
// output: it must return changes or an error, never panic, and every
// change it returns has a path and a known status.
func FuzzParseDiff(f *testing.F) {
	f.Add([]byte(":100644 100644 de98044 0000000 M\x00a.txt\x001\t0\ta.txt\x00"))
	f.Add([]byte(":100644 100644 587be6b 587be6b R100\x00old.txt\x00new.txt\x000\t0\t\x00old.txt\x00new.txt\x00"))
	f.Add([]byte(":000000 100644 0000000 852e4ee A\x00b.bin\x00-\t-\tb.bin\x00"))
	f.Add([]byte(":100644 100644 x y Z\x00a\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := parseDiff(data)
		if err != nil {
			return
		}
		for _, c := range cs {
			switch c.Status {
			case Added, Modified, Deleted, Renamed:
			default:
				t.Fatalf("status %q", c.Status)
			}
		}
	})
}

// FuzzManifest feeds arbitrary manifests to the dependency readers: no
// panic, every dependency has a name and a known ecosystem, and reading
// the same bytes twice gives the same list. An included file (-r,
// file:) reads as the same bytes again, so includes nest until the depth
// bound.
func FuzzManifest(f *testing.F) {
	for _, s := range []struct{ file, data string }{
		{"go.mod", "module m\n\nrequire (\n\ta/b v1.0.0\n)\n"},
		{"go.mod", "module m\n\nrequire golang.org/x/text v0.14.0\n\nreplace golang.org/x/text => github.com/attacker/text v0.0.1\n"},
		{"go.work", "go 1.22\n\nuse ./a\n\nreplace a/b v1.0.0 => ../fork\n"},
		{"package.json", `{"dependencies": {"x": "1"}, "devDependencies": 3}`},
		{"package.json", "\xef\xbb\xbf" + `{"dependencies": {"a": "npm:evil@1", "b": "github:x/b"}, "overrides": {"c": {".": "1", "d": "2"}}, "pnpm": {"overrides": {"e@1>f": "3"}}}`},
		{"requirements.txt", "a==1\n-r other.txt\nB[x]>=2 ; python_version<'3'\n"},
		{"requirements.txt", "-e git+https://h/evil#egg=evil-vcs\n--requirement=x.in\n-c c.txt\nev\\\nil\n--extra-index-url https://i\n'a\x0cb\n"},
		{"pyproject.toml", "[project]\ndependencies = [\"a>=1\", # c\n  'b']\n[tool.poetry.dependencies]\npython = \"^3\"\nc = {version = \"1\"}\n"},
		{"pyproject.toml", "[project]\ndescription = \"\"\"\n[tool.nothing]\n\"\"\"\ndependencies = [\"evil-py\"]\n[tool.uv.sources]\nx = {git = \"https://g\"}\n"},
		{"Cargo.toml", "[dependencies]\nserde = \"1\"\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n[dependencies.tokio]\nversion = \"1\"\n"},
		{"Cargo.toml", "[target.'cfg(unix)']\ndependencies = { evil-crate = \"1\" }\n[patch.crates-io]\nserde = { git = \"https://g\" }\n[replace]\n\"foo:0.1.0\" = { path = \"x\" }\n"},
		{"setup.cfg", "[options]\ninstall_requires =\n    a\n    b>=2\n"},
		{"setup.cfg", "[DEFAULT]\nx = evil\n[options]\ninstall_requires = a; %(x)s\n[options.extras_require]\nt = file: r.in\n"},
	} {
		f.Add(s.file, []byte(s.data))
	}
	f.Fuzz(func(t *testing.T, file string, data []byte) {
		names := []string{"go.mod", "go.work", "package.json", "requirements.txt", "pyproject.toml", "Cargo.toml", "setup.cfg"}
		base := names[len(file)%len(names)]
		include := func(string) ([]byte, error) { return data, nil }
		deps, err := manifestDeps(base, data, include)
		again, err2 := manifestDeps(base, data, include)
		if (err == nil) != (err2 == nil) || len(deps) != len(again) {
			t.Fatalf("two reads differ: %v %v, %d and %d dependencies", err, err2, len(deps), len(again))
		}
		for i, d := range deps {
			switch d.Ecosystem {
			case EcoGo, EcoNPM, EcoPython, EcoCargo:
			default:
				t.Fatalf("ecosystem %q", d.Ecosystem)
			}
			if d.Name == "" || d != again[i] {
				t.Fatalf("bad dependency %+v (again %+v)", d, again[i])
			}
		}
	})
}
