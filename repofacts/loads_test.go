package repofacts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRefusedLoads: a build that compiles or embeds one of vouch's own
// files, or a file inside a .git directory, by a literal path no import
// record carries is refused as an import of one is: each case's work
// stops Collect naming the load (want), or passes (want "").
func TestRefusedLoads(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the cases use symbolic links")
	}
	const embedGo = "package main\n\nimport _ \"embed\"\n\n//go:embed %s\nvar v []byte\n\nfunc main() {}\n"
	embed := func(pat string) string { return strings.Replace(embedGo, "%s", pat, 1) }
	tests := []struct {
		name  string
		base  map[string]string
		links map[string]string // link -> target, made before the base commit
		work  map[string]string
		gone  []string // removed by the work
		want  string
	}{
		{name: "include_str of the envelope",
			work: map[string]string{"src/lib.rs": "pub const E: &str = include_str!(\"../.vouch/envelope.yaml\");\n"},
			want: "src/lib.rs:1: ../.vouch/envelope.yaml loads .vouch/envelope.yaml"},
		{name: "include_bytes of a verdict",
			work: map[string]string{"src/lib.rs": "pub const V: &[u8] = include_bytes!(\"../.vouch/verification.json\");\n"},
			want: "src/lib.rs:1: ../.vouch/verification.json loads .vouch/verification.json"},
		{name: "include_str through a link into .git",
			links: map[string]string{"src/cfg": "../sub/.git/config"},
			work:  map[string]string{"src/lib.rs": "pub const C: &str = include_str!(\"cfg\");\n"},
			want:  "src/lib.rs:1: cfg loads src/cfg, which is sub/.git/config"},
		{name: "include_str of a file of the work",
			work: map[string]string{"src/lib.rs": "pub const C: &str = include_str!(\"data.txt\");\n", "src/data.txt": "x"},
			want: ""},
		// Any path a cfg_attr names may be compiled, not only the last.
		{name: "cfg_attr path of the envelope",
			work: map[string]string{"src/lib.rs": "#[cfg_attr(windows, path = \"../.vouch/envelope.yaml\")]\n#[cfg_attr(unix, path = \"util.rs\")]\nmod x;\n", "src/util.rs": ""},
			want: "src/lib.rs:1: ../.vouch/envelope.yaml loads .vouch/envelope.yaml"},
		{name: "nested cfg_attr path into .git",
			work: map[string]string{"src/lib.rs": "#[cfg_attr(a, cfg_attr(b, path = \"../sub/.git/x.rs\"))]\n#[path = \"util.rs\"]\nmod x;\n", "src/util.rs": ""},
			want: "src/lib.rs:1: ../sub/.git/x.rs loads sub/.git/x.rs"},
		// Where the cfg does not hold, rustc opens the module's own file.
		{name: "cfg_attr path, and the mod's file through a link into .git",
			links: map[string]string{"src/hooks": "../sub/.git/hooks"},
			work:  map[string]string{"src/lib.rs": "#[cfg_attr(unix, path = \"util.rs\")]\nmod hooks;\n", "src/util.rs": "", "sub/.git/hooks/mod.rs": ""},
			want:  "src/lib.rs:2: util.rs loads src/hooks/mod.rs, which is sub/.git/hooks/mod.rs"},
		{name: "cfg_attr paths of the work",
			work: map[string]string{"src/lib.rs": "#[cfg_attr(unix, path = \"util.rs\")]\n#[cfg_attr(windows, path = \"win.rs\")]\nmod x;\n", "src/util.rs": "", "src/win.rs": ""},
			want: ""},
		// node loads a directory's package.json main: a changed main
		// redirects an unchanged importer's require.
		{name: "unchanged require of a directory whose main changed",
			base: map[string]string{"app.js": "require('./lib');\n", "lib/index.js": "", "lib/package.json": `{"name": "lib"}`},
			work: map[string]string{"lib/package.json": `{"name": "lib", "main": "../.vouch/envelope.yaml"}`},
			want: "app.js:1: ./lib loads .vouch/envelope.yaml"},
		{name: "unchanged require through a linked directory whose main changed",
			base:  map[string]string{"app.js": "require('./alias');\n", "lib/index.js": "", "lib/package.json": `{"name": "lib"}`},
			links: map[string]string{"alias": "lib"},
			work:  map[string]string{"lib/package.json": `{"name": "lib", "main": "../sub/.git/x.js"}`, "sub/.git/x.js": ""},
			want:  "app.js:1: ./alias loads sub/.git/x.js"},
		{name: "changed require of a directory whose main leads into .git",
			base: map[string]string{"app.js": "module.exports = 1;\n", "lib/package.json": `{"main": "../sub/.git/x.js"}`},
			work: map[string]string{"app.js": "require('./lib');\n", "sub/.git/x.js": ""},
			want: "app.js:1: ./lib loads sub/.git/x.js"},
		// Once lib.js is gone, require("./lib") loads lib/'s main.
		{name: "a deleted file no longer shadows a main",
			base: map[string]string{"app.js": "require('./lib');\n", "lib.js": "", "lib/package.json": `{"main": "../.vouch/envelope.yaml"}`},
			gone: []string{"lib.js"},
			want: "app.js:1: ./lib loads .vouch/envelope.yaml"},
		{name: "a main of the work",
			base: map[string]string{"app.js": "require('./lib');\n", "lib/index.js": "", "lib/package.json": `{"name": "lib"}`},
			work: map[string]string{"lib/package.json": `{"name": "lib", "main": "main.js"}`, "lib/main.js": ""},
			want: ""},
		{name: "go:embed of the envelope",
			work: map[string]string{"main.go": embed(".vouch/envelope.yaml")},
			want: "main.go:5: .vouch/envelope.yaml loads .vouch/envelope.yaml"},
		{name: "go:embed glob a verdict would match",
			work: map[string]string{"main.go": embed(".vouch/*.json")},
			want: "main.go:5: .vouch/*.json loads .vouch/envelope.schema.json"},
		{name: "go:embed of the directory",
			work: map[string]string{"main.go": embed(".vouch")},
			want: "main.go:5: .vouch loads .vouch/envelope.yaml"},
		{name: "go:embed through a link into .git",
			links: map[string]string{"data/h": "../sub/.git/config"},
			work:  map[string]string{"main.go": embed("data/h")},
			want:  "main.go:5: data/h loads data/h, which is sub/.git/config"},
		{name: "go:embed in a test file",
			work: map[string]string{"x_test.go": strings.Replace(embed(".vouch/envelope.yaml"), "package main", "package main_test", 1)},
			want: "x_test.go:5: .vouch/envelope.yaml loads .vouch/envelope.yaml"},
		{name: "go:embed of the work",
			work: map[string]string{"main.go": embed("static"), "static/a.txt": "x"},
			want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			base := map[string]string{"go.mod": goMod, "Cargo.toml": "[package]\nname = \"app\"\nversion = \"0.1.0\"\n",
				"src/lib.rs": "pub fn f() {}\n", ".vouch/envelope.yaml": "facts: {}\n"}
			for p, c := range tt.base {
				base[p] = c
			}
			r.write(base)
			for l, to := range tt.links {
				full := filepath.Join(r.dir, filepath.FromSlash(l))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(to, full); err != nil {
					t.Fatal(err)
				}
				r.git("add", l)
			}
			r.commit(nil)
			if strings.Contains(fmt.Sprint(tt.links, tt.work), "sub/.git") {
				r.git("init", "-q", "sub") // a nested repository, not work
			}
			r.write(tt.work)
			r.remove(tt.gone...)
			env := filepath.Join(r.dir, ".vouch", "envelope.yaml")
			_, err := Collect(context.Background(), Options{Root: r.dir, Envelope: env, Exclude: []string{filepath.Join(r.dir, ".vouch")}})
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Collect: %v, want no error", err)
			case tt.want != "" && err == nil:
				t.Fatalf("Collect passed, want a refusal naming %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), "\n  "+tt.want+"\n") && !strings.HasSuffix(err.Error(), "\n  "+tt.want):
				t.Fatalf("Collect: %v\nwant a refusal naming %q", err, tt.want)
			}
		})
	}
}
