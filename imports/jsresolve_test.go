package imports

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// jsFixtureRepo builds a Repo from a directory under testdata, the way the
// walk would: every file, '/'-separated, relative to the root.
func jsFixtureRepo(t testing.TB, dir string) *Repo {
	t.Helper()
	root, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = true
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return &Repo{Root: root, Files: files}
}

func TestJSResolve(t *testing.T) {
	r, warns := newJSResolver(jsFixtureRepo(t, "testdata/js/repo"))
	wantWarns := []Warning{{File: "tools/tsconfig.json", Message: "tsconfig extends chain loops back to tools/tsconfig.json"}}
	if diff := cmp.Diff(wantWarns, warns); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	in := func(target string) Resolution { return Resolution{Kind: Internal, Target: target} }
	tests := []struct {
		name, file, spec string
		want             Resolution
	}{
		{"extension probing", "src/esm.ts", "./a", in("src/a.ts")},
		{"tsx probing", "src/esm.ts", "./b", in("src/b.tsx")},
		{"js specifier for ts file", "src/esm.ts", "./a.js", in("src/a.ts")},
		{"jsx specifier for tsx file", "src/esm.ts", "./b.jsx", in("src/b.tsx")},
		{"exact file", "src/esm.ts", "./data.json", in("src/data.json")},
		{"query suffix", "src/esm.ts", "./data.json?raw", in("src/data.json")},
		{"index probing", "src/esm.ts", "./utils", in("src/utils/index.ts")},
		{"parent index", "src/utils/str.ts", ".", in("src/utils/index.ts")},
		// node loads a directory's package.json main before its index.
		{"package.json main", "src/esm.ts", "./withmain", in("src/withmain/lib/entry.js")},
		{"package.json main naming a directory", "src/esm.ts", "./maindir", in("src/maindir/dist/index.js")},
		{"declaration file", "src/esm.ts", "./lib/types", in("src/lib/types.d.ts")},
		{"parent dir", "src/utils/str.ts", "../a", in("src/a.ts")},
		{"missing relative", "src/esm.ts", "./nope",
			Resolution{Kind: Unresolved, Reason: "no file matches ./nope", Tried: []string{"nope.ts", "nope.tsx", "nope.d.ts", "nope.js", "nope.jsx", "nope.mjs", "nope.cjs", "nope.mts", "nope.cts", "nope.json", "nope/index.ts", "nope/index.tsx", "nope/index.d.ts", "nope/index.js", "nope/index.jsx", "nope/index.mjs", "nope/index.cjs", "nope/index.mts", "nope/index.cts", "nope/index.json"}}},
		{"outside repo", "src/esm.ts", "../../x", Resolution{Kind: Unresolved, Reason: "../../x points outside the repository"}},
		{"paths star via extends", "src/esm.ts", "@app/a", in("src/a.ts")},
		{"paths longest prefix", "src/esm.ts", "@app/utils/str", in("src/utils/str.ts")},
		{"paths exact", "src/esm.ts", "~utils", in("src/utils/index.ts")},
		{"paths no file falls to bare", "src/esm.ts", "@app/missing", Resolution{Kind: External, Target: "@app/missing"}},
		{"baseUrl", "src/esm.ts", "src/b", in("src/b.tsx")},
		{"nearest tsconfig baseUrl", "apps/web/main.ts", "shared/thing", in("apps/web/root/shared/thing.ts")},
		{"nearest tsconfig has no paths", "apps/web/main.ts", "@app/a", Resolution{Kind: External, Target: "@app/a"}},
		{"workspace main missing falls to src/index", "src/esm.ts", "@acme/ui", in("packages/ui/src/index.ts")},
		{"workspace subpath", "src/esm.ts", "@acme/ui/button", in("packages/ui/src/button.tsx")},
		{"workspace exports", "src/esm.ts", "core", in("packages/core/lib/main.js")},
		{"negated workspace glob", "src/esm.ts", "ignored", Resolution{Kind: External, Target: "ignored"}},
		{"not a workspace", "src/esm.ts", "web", Resolution{Kind: External, Target: "web"}},
		{"scoped external", "src/esm.ts", "@scope/pkg/sub", Resolution{Kind: External, Target: "@scope/pkg"}},
		{"external subpath", "src/esm.ts", "lodash/fp", Resolution{Kind: External, Target: "lodash"}},
		{"node prefix", "src/esm.ts", "node:fs/promises", Resolution{Kind: Stdlib, Target: "fs"}},
		{"node prefix only module", "src/esm.ts", "node:test", Resolution{Kind: Stdlib, Target: "test"}},
		{"bare builtin", "src/esm.ts", "child_process", Resolution{Kind: Stdlib, Target: "child_process"}},
		{"bare builtin subpath", "src/esm.ts", "path/posix", Resolution{Kind: Stdlib, Target: "path"}},
		{"url", "src/esm.ts", "https://esm.sh/x", Resolution{Kind: External, Target: "https://esm.sh/x"}},
		{"subpath import", "src/esm.ts", "#internal", Resolution{Kind: Unresolved, Reason: "package.json \"imports\" specifier #internal is not supported"}},
		{"empty", "src/esm.ts", "", Resolution{Kind: Unresolved, Reason: "empty module specifier"}},
		// tsconfig `paths` apply before the package.json "imports" check.
		{"hash paths alias", "apps/site/main.ts", "#web/k", in("apps/site/k.ts")},
		{"hash paths alias to the importing file", "apps/site/main.ts", "#web/main", in("apps/site/main.ts")},
		{"hash paths alias no file", "apps/site/main.ts", "#web/missing", Resolution{Kind: Unresolved, Reason: "package.json \"imports\" specifier #web/missing is not supported"}},
		{"hash without matching pattern", "apps/site/main.ts", "#other/k", Resolution{Kind: Unresolved, Reason: "package.json \"imports\" specifier #other/k is not supported"}},
		{"hash outside the alias's tsconfig", "src/esm.ts", "#web/k", Resolution{Kind: Unresolved, Reason: "package.json \"imports\" specifier #web/k is not supported"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.resolve(tt.file, Site{Line: 1, Column: 1, Kind: KindImport, Spec: tt.spec})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("resolve(%q, %q) mismatch (-want +got):\n%s", tt.file, tt.spec, diff)
			}
		})
	}
	// The resolver is shared by the walk's workers.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, tt := range tests {
				if got := r.resolve(tt.file, Site{Spec: tt.spec}); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("concurrent resolve(%q, %q) = %+v, want %+v", tt.file, tt.spec, got, tt.want)
				}
			}
		})
	}
	wg.Wait()
}

func TestJSONCToJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": 1, // c` + "\n" + `}`, `{"a": 1 ` + "\n" + `}`},
		// A kept comma moves past the whitespace after it: still valid JSON.
		{`{"a": "//not a comment", "b": [1, 2,],}`, `{"a": "//not a comment" ,"b": [1 ,2]}`},
		{`{"a": "x\"/*y*/", /* c */ "b": 2}`, `{"a": "x\"/*y*/"  ,"b": 2}`},
		{`[1, /* c */ ]`, `[1  ]`},
	}
	for _, tt := range tests {
		if got := string(jsoncToJSON([]byte(tt.in))); got != tt.want {
			t.Errorf("jsoncToJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestJSResolveBaseURLForJS: a tsconfig's baseUrl and paths speak for a
// JavaScript file only when tsc compiles it (allowJs); otherwise node runs
// it and loads a bare specifier from node_modules, so a decoy left-pad/
// directory does not make require("left-pad") internal.
func TestJSResolveBaseURLForJS(t *testing.T) {
	in := Resolution{Kind: Internal, Target: "left-pad/index.js"}
	ext := Resolution{Kind: External, Target: "left-pad"}
	tests := []struct {
		name, tsconfig, file string
		want                 Resolution
	}{
		{"js without allowJs", `{"compilerOptions": {"baseUrl": "."}}`, "src/app.js", ext},
		{"js followed as js", `{"compilerOptions": {"baseUrl": "."}}`, "src/app.txt", ext},
		{"js paths without allowJs", `{"compilerOptions": {"paths": {"*": ["./*"]}}}`, "src/app.mjs", ext},
		{"ts", `{"compilerOptions": {"baseUrl": "."}}`, "src/app.ts", in},
		{"js with allowJs", `{"compilerOptions": {"baseUrl": ".", "allowJs": true}}`, "src/app.js", in},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"tsconfig.json": tt.tsconfig, "left-pad/index.js": "", tt.file: ""}
			r, _ := newJSResolver(repoOf(writeTree(t, files), files))
			if got := r.resolve(tt.file, Site{Kind: KindRequire, Spec: "left-pad"}); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("resolve(%s, left-pad) = %+v, want %+v", tt.file, got, tt.want)
			}
		})
	}
}
