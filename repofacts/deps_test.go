package repofacts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// show is a declaration as the tests compare it:
// "eco:name@version [origin] (source)".
func show(d declared) string {
	s := d.Ecosystem + ":" + d.Name + "@" + d.Version
	if d.origin != "" {
		s += " [" + d.origin + "]"
	}
	return s + " (" + d.Source + ")"
}

// TestManifestDeps reads manifests written the ways their tools accept,
// including the ones a line-by-line reader misfiled; want lists what the
// tools themselves see (cargo metadata, tomllib, npm, pip's
// parse_requirements, setuptools), or the error.
func TestManifestDeps(t *testing.T) {
	tests := []struct {
		name, file, data string
		files            map[string]string // what includes read
		want             []string
		err              string
	}{
		// Cargo.
		{name: "cargo: a target's dependencies as an inline table", file: "rs/Cargo.toml",
			data: "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\n\n[target.'cfg(unix)']\ndependencies = { evil-crate = \"1\" }\n",
			want: []string{"cargo:evil-crate@1 (rs/Cargo.toml)", "cargo:serde@1 (rs/Cargo.toml)"}},
		{name: "cargo: target tables, dev and build variants", file: "Cargo.toml",
			data: "[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n[target.x86_64-pc-windows-gnu.dev-dependencies]\nwinapi = \"0.3\"\n[target.'cfg(unix)'.build-dependencies]\ncc = \"1\"\n[dev_dependencies]\nold-dev = \"1\"\n[build_dependencies]\nold-build = \"1\"\n",
			want: []string{"cargo:cc@1 (Cargo.toml)", "cargo:libc@0.2 (Cargo.toml)", "cargo:old-build@1 (Cargo.toml)", "cargo:old-dev@1 (Cargo.toml)", "cargo:winapi@0.3 (Cargo.toml)"}},
		{name: "cargo: dotted keys and inline tables", file: "Cargo.toml",
			data: "dependencies.evil = \"1\"\nbuild-dependencies = { cc = \"1.0\" }\ndev-dependencies.tokio.version = \"1\"\n[dependencies.serde]\nversion = \"1\"\nfeatures = [\"derive\"]\n",
			want: []string{"cargo:cc@1.0 (Cargo.toml)", "cargo:evil@1 (Cargo.toml)", "cargo:serde@1 (Cargo.toml)", "cargo:tokio@1 (Cargo.toml)"}},
		{name: "cargo: a table name inside a multi-line string is text", file: "Cargo.toml",
			data: "[package]\ndescription = \"\"\"\n[dependencies]\nfake = \"1\"\n\"\"\"\nreadme = '''\n[dev-dependencies]\n'''\n[dependencies]\nreal = \"1\"\n",
			want: []string{"cargo:real@1 (Cargo.toml)"}},
		{name: "cargo: one crate in three tables is three entries, in order", file: "Cargo.toml",
			data: "[dependencies]\nserde = \"1\"\n\n[dev-dependencies]\nserde = \"=0.0.1\"\n\n[build-dependencies]\nserde = \"1.0.100\"\n",
			want: []string{"cargo:serde@1 (Cargo.toml)", "cargo:serde@1.0.100 (Cargo.toml)", "cargo:serde@=0.0.1 (Cargo.toml)"}},
		{name: "cargo: package = renames, git and path are origins", file: "Cargo.toml",
			data: "[dependencies]\nfoo = { package = \"evil\", version = \"1\" }\nserde = { git = \"https://example.invalid/serde\", branch = \"x\" }\nlocal = { path = \"../local\" }\nws = { workspace = true }\n",
			want: []string{
				"cargo:evil@1 (Cargo.toml)",
				`cargo:local@path = "../local" [path = "../local"] (Cargo.toml)`,
				`cargo:serde@git = "https://example.invalid/serde", branch = "x" [git = "https://example.invalid/serde", branch = "x"] (Cargo.toml)`,
				"cargo:ws@workspace = true (Cargo.toml)",
			}},
		{name: "cargo: workspace dependencies, [patch] and [replace]", file: "Cargo.toml",
			data: "[workspace.dependencies]\nanyhow = \"1\"\n[patch.crates-io]\nserde = { git = \"https://example.invalid/serde\" }\n[replace]\n\"foo:0.1.0\" = { path = \"vendor/foo\" }\n",
			want: []string{
				"cargo:anyhow@1 (Cargo.toml)",
				`cargo:foo@path = "vendor/foo" [replace.foo:0.1.0: path = "vendor/foo"] (Cargo.toml)`,
				`cargo:serde@git = "https://example.invalid/serde" [patch.crates-io: git = "https://example.invalid/serde"] (Cargo.toml)`,
			}},
		{name: "cargo: invalid TOML is an error at its line", file: "Cargo.toml",
			data: "[dependencies]\nserde = \"1\"\nevil = \n", err: "Cargo.toml:3:"},
		{name: "cargo: a key twice is an error, as to cargo", file: "Cargo.toml",
			data: "[dependencies]\nserde = \"1\"\n[dependencies]\nevil = \"1\"\n", err: "Cargo.toml:3:"},

		// pyproject.toml.
		{name: "pyproject: a table line inside a multi-line string", file: "py/pyproject.toml",
			data: "[project]\nname = \"x\"\nversion = \"0.1\"\ndescription = \"\"\"\n[tool.nothing]\n\"\"\"\ndependencies = [\"requests\", \"evil-py\"]\n",
			want: []string{"python:evil-py@ (py/pyproject.toml)", "python:requests@ (py/pyproject.toml)"}},
		{name: "pyproject: a literal multi-line string, an array across lines", file: "pyproject.toml",
			data: "[project]\nreadme = '''\n[tool.poetry.dependencies]\nfake = \"1\"\n'''\ndependencies = [\n  \"a>=1\", # c ]\n  'B_c[x] ; python_version > \"3\"',\n  \"d @ https://example.invalid/d.whl\",\n]\n",
			want: []string{`python:a@>=1 (pyproject.toml)`, `python:b-c@[x] ; python_version > "3" (pyproject.toml)`,
				"python:d@@ https://example.invalid/d.whl [https://example.invalid/d.whl] (pyproject.toml)"}},
		{name: "pyproject: optional, build, groups, Poetry and uv", file: "pyproject.toml",
			data: "[project.optional-dependencies]\ntest = [\"pytest\"]\n[build-system]\nrequires = [\"setuptools>=61\"]\n[dependency-groups]\ndev = [\"ruff\", {include-group = \"test\"}]\n" +
				"[tool.poetry.dependencies]\npython = \"^3.9\"\nrequests = \"^2\"\nmine = { git = \"https://example.invalid/mine\", tag = \"v1\" }\nmulti = [{ version = \"1\", python = \"<3.9\" }, { version = \"2\" }]\n" +
				"[tool.poetry.group.docs.dependencies]\nsphinx = \"*\"\n[tool.poetry.dev-dependencies]\nblack = \"*\"\n" +
				"[tool.uv]\ndev-dependencies = [\"mypy\"]\noverride-dependencies = [\"urllib3<2\"]\n[tool.uv.sources]\nrequests = { git = \"https://example.invalid/requests\" }\n",
			want: []string{
				"python:black@* (pyproject.toml)",
				`python:mine@git = "https://example.invalid/mine", tag = "v1" [git = "https://example.invalid/mine", tag = "v1"] (pyproject.toml)`,
				"python:multi@1 (pyproject.toml)", "python:multi@2 (pyproject.toml)",
				"python:mypy@ (pyproject.toml)", "python:pytest@ (pyproject.toml)", "python:requests@^2 (pyproject.toml)",
				`python:requests@git = "https://example.invalid/requests" [tool.uv.sources: git = "https://example.invalid/requests"] (pyproject.toml)`,
				"python:ruff@ (pyproject.toml)", "python:setuptools@>=61 (pyproject.toml)", "python:sphinx@* (pyproject.toml)",
				"python:urllib3@<2 (pyproject.toml)",
			}},
		{name: "pyproject: an unterminated string is an error", file: "pyproject.toml",
			data: "[project]\ndescription = \"\"\"\n[tool.x]\ndependencies = [\"evil\"]\n", err: "pyproject.toml:"},

		// package.json.
		{name: "npm: a byte order mark, as npm strips it", file: "js/package.json",
			data: "\xef\xbb\xbf{\"name\": \"x\", \"dependencies\": {\"lodash\": \"4\", \"evil-js\": \"1\"}}\n",
			want: []string{"npm:evil-js@1 (js/package.json)", "npm:lodash@4 (js/package.json)"}},
		{name: "npm: every dependency field; aliases, git and file specifiers", file: "package.json",
			data: `{"dependencies": {"lodash": "npm:evil-js@^1", "s": "npm:@scope/evil@2", "g": "github:attacker/g", "f": "file:../f"},
			  "devDependencies": {"d": "1"}, "peerDependencies": {"p": "2"}, "optionalDependencies": {"o": "3"}, "bundleDependencies": ["b"]}`,
			want: []string{"npm:@scope/evil@npm:@scope/evil@2 (package.json)", "npm:d@1 (package.json)", "npm:evil-js@npm:evil-js@^1 (package.json)",
				"npm:f@file:../f [file:../f] (package.json)", "npm:g@github:attacker/g [github:attacker/g] (package.json)", "npm:o@3 (package.json)", "npm:p@2 (package.json)"}},
		{name: "npm: overrides, resolutions and pnpm overrides", file: "package.json",
			data: `{"overrides": {"a": {".": "1", "b@2": "npm:evil@1"}}, "resolutions": {"**/c": "2", "x/@s/d": "3"}, "pnpm": {"overrides": {"e@1>f": "4"}}}`,
			want: []string{"npm:@s/d@3 (package.json)", "npm:a@1 (package.json)", "npm:c@2 (package.json)", "npm:evil@npm:evil@1 (package.json)", "npm:f@4 (package.json)"}},
		{name: "npm: a field that is not an object declares nothing", file: "package.json",
			data: `{"dependencies": 3, "devDependencies": ["x"]}`, want: []string{}},
		{name: "npm: a syntax error is an error at its line and column", file: "package.json",
			data: "{\n  \"dependencies\": {\"a\": \"1\",}\n}\n", err: "package.json:2:"},

		// go.mod and go.work.
		{name: "go: replace directives are dependencies on the replacement", file: "go.mod",
			data: "module m\n\ngo 1.21\n\nrequire golang.org/x/text v0.14.0\n\nreplace golang.org/x/text => github.com/attacker/text v0.0.1\n\nreplace example.com/a v1.0.0 => ../fork\n",
			want: []string{"go:../fork@example.com/a v1.0.0 => ../fork [replace example.com/a v1.0.0 => ../fork] (go.mod)",
				"go:github.com/attacker/text@golang.org/x/text => github.com/attacker/text v0.0.1 [replace golang.org/x/text => github.com/attacker/text v0.0.1] (go.mod)",
				"go:golang.org/x/text@v0.14.0 (go.mod)"}},
		{name: "go: go.work replace", file: "go.work",
			data: "go 1.22\n\nuse ./a\n\nreplace golang.org/x/text => github.com/attacker/text v0.0.1\n",
			want: []string{"go:github.com/attacker/text@golang.org/x/text => github.com/attacker/text v0.0.1 [replace golang.org/x/text => github.com/attacker/text v0.0.1] (go.work)"}},
		{name: "go: a byte order mark", file: "go.mod", data: "\xef\xbb\xbfmodule m\n\nrequire a.example/b v1.0.0\n",
			want: []string{"go:a.example/b@v1.0.0 (go.mod)"}},
		{name: "go: a syntax error is an error at its line", file: "go.mod",
			data: "module m\n\nrequire (\n\tgithub.com/evil/x\n)\n", err: "go.mod:4:"},

		// Requirements files.
		{name: "pip: -r includes and -e VCS installs", file: "py/requirements.txt",
			data:  "requests==2.0\n-r extra.in\n-e git+https://example.invalid/evil/evil-vcs#egg=evil-vcs\n",
			files: map[string]string{"py/extra.in": "evil-included==1\n"},
			want: []string{"python:evil-included@==1 (py/extra.in)",
				"python:evil-vcs@-e git+https://example.invalid/evil/evil-vcs#egg=evil-vcs [-e git+https://example.invalid/evil/evil-vcs#egg=evil-vcs] (py/requirements.txt)",
				"python:requests@==2.0 (py/requirements.txt)"}},
		{name: "pip: every spelling of -r, nested, relative to the including file", file: "requirements.txt",
			data:  "--requirement=a/one.txt\n-rtwo.txt\n--requirem three.txt\n-r 'four five.txt'\n",
			files: map[string]string{"a/one.txt": "-r ../a/b/deep.txt\n", "a/b/deep.txt": "deep\n", "two.txt": "two\n", "three.txt": "three\n", "four five.txt": "four\n"},
			want:  []string{"python:deep@ (a/b/deep.txt)", "python:four@ (four five.txt)", "python:three@ (three.txt)", "python:two@ (two.txt)"}},
		{name: "pip: only a line's first -r; an editable line's -r and an include line's index are ignored", file: "requirements.txt",
			data:  "-r a.txt -r b.txt\n-e git+https://example.invalid/e#egg=e -r b.txt\n-r a.txt --index-url https://example.invalid/ignored\n",
			files: map[string]string{"a.txt": "a\n", "b.txt": "b\n"},
			want:  []string{"python:a@ (a.txt)", "python:e@-e git+https://example.invalid/e#egg=e [-e git+https://example.invalid/e#egg=e] (requirements.txt)"}},
		{name: "pip: constraints add nothing; indexes are sources", file: "requirements.txt",
			data:  "-c constraints.txt\n--extra-index-url https://example.invalid/simple\n-i https://example.invalid/i\n-f ./wheels\n--no-index\n--pre\n",
			files: map[string]string{"constraints.txt": "evil==1\n"},
			want: []string{"python:./wheels@--find-links [--find-links ./wheels] (requirements.txt)",
				"python:https://example.invalid/i@--index-url [--index-url https://example.invalid/i] (requirements.txt)",
				"python:https://example.invalid/simple@--extra-index-url [--extra-index-url https://example.invalid/simple] (requirements.txt)"}},
		{name: "pip: lines joined, split and commented as pip does", file: "requirements.txt",
			data: "evil\\\n-py==1\nrequests\x0cform-feed\nsep\u2028arated\nurl @ https://example.invalid/u.zip#egg=u # comment\nkept#not-a-comment\n  # comment \\\nafter-comment\nc # x \\\nhidden\n",
			want: []string{"python:after-comment@ (requirements.txt)", "python:arated@ (requirements.txt)", "python:c@ (requirements.txt)",
				"python:evil-py@==1 (requirements.txt)", "python:form-feed@ (requirements.txt)", "python:kept@#not-a-comment (requirements.txt)",
				"python:requests@ (requirements.txt)", "python:sep@ (requirements.txt)",
				"python:url@@ https://example.invalid/u.zip#egg=u [https://example.invalid/u.zip#egg=u] (requirements.txt)"}},
		{name: "pip: URLs, wheels and paths by egg, file or as written", file: "requirements.txt",
			data: "https://example.invalid/evil-1.0-py3-none-any.whl\ngit+https://example.invalid/x.git\n./local\n--editable ../outside\n${PKG}==1\n",
			want: []string{"python:${PKG}==1@ [${PKG}==1] (requirements.txt)",
				"python:../outside@-e ../outside [-e ../outside] (requirements.txt)",
				"python:./local@./local [./local] (requirements.txt)",
				"python:evil@https://example.invalid/evil-1.0-py3-none-any.whl [https://example.invalid/evil-1.0-py3-none-any.whl] (requirements.txt)",
				"python:git+https://example.invalid/x.git@git+https://example.invalid/x.git [git+https://example.invalid/x.git] (requirements.txt)"}},
		{name: "pip: UTF-16 with a byte order mark", file: "requirements.txt",
			data: "\xff\xfee\x00v\x00i\x00l\x00\n\x00", want: []string{"python:evil@ (requirements.txt)"}},
		{name: "pip: a remote include is itself the dependency", file: "requirements.txt",
			data: "-r https://example.invalid/reqs.txt\n", want: []string{"python:https://example.invalid/reqs.txt@-r [-r https://example.invalid/reqs.txt] (requirements.txt)"}},
		{name: "pip: a missing include is an error", file: "py/requirements.txt", data: "a\n-r gone.txt\n", err: "py/requirements.txt:2: -r gone.txt: py/gone.txt does not exist"},
		{name: "pip: an include outside the root is an error", file: "requirements.txt", data: "-r ../x.txt\n", err: "outside the repository root"},
		{name: "pip: an unknown option is an error, as to pip", file: "requirements.txt", data: "--bogus x\n", err: "requirements.txt:1: no such option: --bogus"},
		{name: "pip: an ambiguous abbreviation is an error", file: "requirements.txt", data: "--req x\n", err: "ambiguous option: --req"},
		{name: "pip: includes nest at most maxIncludeDepth deep", file: "requirements.txt", data: "-r 1.txt\n",
			files: chain(maxIncludeDepth + 1), err: "nested more than"},
		{name: "pip: an include cycle is read once", file: "requirements.txt", data: "a\n-r b.txt\n",
			files: map[string]string{"b.txt": "b\n-r requirements.txt\n"}, want: []string{"python:a@ (requirements.txt)", "python:b@ (b.txt)"}},

		// setup.cfg.
		{name: "setup.cfg: ':' delimiter, ';' on one line, file:, extras", file: "setup.cfg",
			data:  "[metadata]\nname = x\n[options]\ninstall_requires: a; b>=1\nsetup_requires =\n    setuptools_scm\n[options.extras_require]\ntest = file: test.in\ndocs =\n    sphinx\n    # dropped\n",
			files: map[string]string{"test.in": "pytest\n# comment\n"},
			want:  []string{"python:a@ (setup.cfg)", "python:b@>=1 (setup.cfg)", "python:pytest@ (setup.cfg)", "python:setuptools-scm@ (setup.cfg)", "python:sphinx@ (setup.cfg)"}},
		{name: "setup.cfg: [DEFAULT] and %(name)s interpolation", file: "setup.cfg",
			data: "[DEFAULT]\nevil = evil-pkg\n[options]\ninstall_requires =\n    ok\n    %(evil)s\n    %(more)s\nmore = more-evil\n",
			want: []string{"python:evil-pkg@ (setup.cfg)", "python:more-evil@ (setup.cfg)", "python:ok@ (setup.cfg)"}},
		{name: "setup.cfg: an option twice is an error, as to configparser", file: "setup.cfg",
			data: "[options]\ninstall_requires = a\ninstall_requires = evil\n", err: "setup.cfg:3: option \"install_requires\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			include := func(p string) ([]byte, error) {
				if s, ok := tt.files[p]; ok {
					return []byte(s), nil
				}
				if p == tt.file {
					return []byte(tt.data), nil
				}
				return nil, errNoFile
			}
			deps, err := manifestDeps(tt.file, []byte(tt.data), include)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want one containing %q (got %d dependencies)", err, tt.err, len(deps))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, d := range deps {
				got = append(got, show(d))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("dependencies (-want +got):\n%s", diff)
			}
		})
	}
}

// chain is n requirements files, each including the next.
func chain(n int) map[string]string {
	m := map[string]string{}
	for i := 1; i <= n; i++ {
		m[fmt.Sprintf("%d.txt", i)] = fmt.Sprintf("p%d\n-r %d.txt\n", i, i+1)
	}
	return m
}
