package repofacts

import (
	"strings"
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
// panic, and every dependency has a name and a known ecosystem.
func FuzzManifest(f *testing.F) {
	for _, s := range []struct{ file, data string }{
		{"go.mod", "module m\n\nrequire (\n\ta/b v1.0.0\n)\n"},
		{"package.json", `{"dependencies": {"x": "1"}, "devDependencies": 3}`},
		{"requirements.txt", "a==1\n-r other.txt\nB[x]>=2 ; python_version<'3'\n"},
		{"pyproject.toml", "[project]\ndependencies = [\"a>=1\", # c\n  'b']\n[tool.poetry.dependencies]\npython = \"^3\"\nc = {version = \"1\"}\n"},
		{"Cargo.toml", "[dependencies]\nserde = \"1\"\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n[dependencies.tokio]\nversion = \"1\"\n"},
		{"setup.cfg", "[options]\ninstall_requires =\n    a\n    b>=2\n"},
	} {
		f.Add(s.file, []byte(s.data))
	}
	f.Fuzz(func(t *testing.T, file string, data []byte) {
		names := []string{"go.mod", "package.json", "requirements.txt", "pyproject.toml", "Cargo.toml", "setup.cfg"}
		base := names[len(file)%len(names)]
		deps, _ := manifestDeps(base, data)
		for k, d := range deps {
			if d.Name == "" || !strings.HasPrefix(k, d.Ecosystem+"\x00") {
				t.Fatalf("bad dependency %q: %+v", k, d)
			}
		}
	})
}
