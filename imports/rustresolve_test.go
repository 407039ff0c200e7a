package imports

import (
	"reflect"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRustResolve(t *testing.T) {
	r, warns := newRustResolver(jsFixtureRepo(t, "testdata/rust/repo"))
	wantWarns := []Warning{{File: "Cargo.toml", Message: `workspace member "missing" matches no package`}}
	if diff := cmp.Diff(wantWarns, warns); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	const app = "crates/app/src/"
	in := func(target string) Resolution { return Resolution{Kind: Internal, Target: target} }
	tests := []struct {
		name string
		file string
		site Site
		want Resolution
	}{
		{"mod next to crate root", app + "main.rs", Site{Kind: KindMod, Spec: "config"}, in(app + "config.rs")},
		{"mod dir with mod.rs", app + "main.rs", Site{Kind: KindMod, Spec: "net"}, in(app + "net/mod.rs")},
		{"mod under non-mod.rs parent", app + "config.rs", Site{Kind: KindMod, Spec: "loader"}, in(app + "config/loader.rs")},
		{"mod from mod.rs", app + "net/mod.rs", Site{Kind: KindMod, Spec: "http"}, in(app + "net/http.rs")},
		{"path attribute", app + "main.rs", Site{Kind: KindMod, Spec: "platform/linux.rs"}, in(app + "platform/linux.rs")},
		{"path attribute missing", app + "main.rs", Site{Kind: KindMod, Spec: "nope.rs"},
			Resolution{Kind: Unresolved, Reason: `no file crates/app/src/nope.rs for #[path = "nope.rs"]`}},
		{"path attribute of another extension", app + "main.rs", Site{Kind: KindMod, Spec: "gen.txt"},
			Resolution{Kind: Unresolved, Reason: `no file crates/app/src/gen.txt for #[path = "gen.txt"]`}},
		{"missing mod", app + "main.rs", Site{Kind: KindMod, Spec: "missing"},
			Resolution{Kind: Unresolved, Reason: "no file for mod missing", Tried: []string{"crates/app/src/missing.rs", "crates/app/src/missing/mod.rs"}}},
		{"mod in inline mod", app + "main.rs", Site{Kind: KindMod, Spec: "net::http"}, in(app + "net/http.rs")},
		{"crate path deepest module", app + "config/loader.rs", Site{Kind: KindUse, Spec: "crate::net::http::Client"}, in(app + "net/http.rs")},
		{"crate path item in root", app + "config/loader.rs", Site{Kind: KindUse, Spec: "crate::VERSION"}, in(app + "main.rs")},
		{"crate glob", app + "net/http.rs", Site{Kind: KindUse, Spec: "crate::config", Names: []string{"*"}}, in(app + "config.rs")},
		{"super", app + "config/loader.rs", Site{Kind: KindUse, Spec: "super::Settings"}, in(app + "config.rs")},
		{"super super", app + "config/loader.rs", Site{Kind: KindUse, Spec: "super::super::net"}, in(app + "net/mod.rs")},
		{"super above root", app + "config/loader.rs", Site{Kind: KindUse, Spec: "super::super::super::x"},
			Resolution{Kind: Unresolved, Reason: "super::super::super::x goes above the crate root"}},
		{"super from mod.rs", app + "net/mod.rs", Site{Kind: KindUse, Spec: "super::config"}, in(app + "config.rs")},
		{"self", app + "net/mod.rs", Site{Kind: KindUse, Spec: "self::http::Client"}, in(app + "net/http.rs")},
		{"self item", app + "config/loader.rs", Site{Kind: KindUse, Spec: "self::tests::helper"}, in(app + "config/loader.rs")},
		{"relative local module", app + "main.rs", Site{Kind: KindUse, Spec: "config::Settings"}, in(app + "config.rs")},
		{"workspace crate", app + "net/http.rs", Site{Kind: KindUse, Spec: "core_lib::model::user::User"}, in("crates/core-lib/lib/model/user.rs")},
		{"workspace crate root item", app + "main.rs", Site{Kind: KindUse, Spec: "core_lib::Thing"}, in("crates/core-lib/lib/core.rs")},
		{"crate path in lib with custom path", "crates/core-lib/lib/model/user.rs", Site{Kind: KindUse, Spec: "crate::model::User"}, in("crates/core-lib/lib/model.rs")},
		{"std", app + "main.rs", Site{Kind: KindUse, Spec: "std::io::Read"}, Resolution{Kind: Stdlib, Target: "std"}},
		{"core", app + "main.rs", Site{Kind: KindUse, Spec: "core::fmt"}, Resolution{Kind: Stdlib, Target: "core"}},
		{"external", app + "main.rs", Site{Kind: KindUse, Spec: "serde::Deserialize"}, Resolution{Kind: External, Target: "serde"}},
		{"leading colons", app + "main.rs", Site{Kind: KindUse, Spec: "::config::X"}, Resolution{Kind: External, Target: "config"}},
		{"extern crate workspace", app + "main.rs", Site{Kind: KindExternCrate, Spec: "core_lib"}, in("crates/core-lib/lib/core.rs")},
		{"extern crate external", app + "main.rs", Site{Kind: KindExternCrate, Spec: "libc"}, Resolution{Kind: External, Target: "libc"}},
		{"extern crate std", app + "main.rs", Site{Kind: KindExternCrate, Spec: "alloc"}, Resolution{Kind: Stdlib, Target: "alloc"}},
		{"bin from Cargo.toml is its own root", app + "tool.rs", Site{Kind: KindUse, Spec: "crate::x"}, in(app + "tool.rs")},
		{"src/bin file is its own root", app + "bin/extra.rs", Site{Kind: KindUse, Spec: "crate::x"}, in(app + "bin/extra.rs")},
		{"integration test mod", "crates/app/tests/it.rs", Site{Kind: KindMod, Spec: "common"}, in("crates/app/tests/common/mod.rs")},
		{"integration test helper crate path", "crates/app/tests/common/mod.rs", Site{Kind: KindUse, Spec: "crate::x"},
			Resolution{Kind: Unresolved, Reason: "cannot tell which crate root crates/app/tests/common/mod.rs belongs to"}},
		{"file outside any package", "scripts/gen.rs", Site{Kind: KindUse, Spec: "crate::a"}, in("scripts/gen.rs")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.resolve(tt.file, tt.site); !cmp.Equal(tt.want, got) {
				t.Errorf("resolve(%q, %+v) mismatch (-want +got):\n%s", tt.file, tt.site, cmp.Diff(tt.want, got))
			}
		})
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, tt := range tests {
				if got := r.resolve(tt.file, tt.site); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("concurrent resolve(%q, %+v) = %+v", tt.file, tt.site, got)
				}
			}
		})
	}
	wg.Wait()
}

func TestParseCargoTOML(t *testing.T) {
	src := `
[package]
name = "my-app" # comment
description = "a # in a string"
[lib]
name = 'my_lib'
path = "src/my lib.rs"
[[bin]]
name = "a"
path = "src/a.rs"
[[bin]]
path = "src/b.rs"
[workspace]
members = ["a", 'b/*', # c
  "d",
]
exclude = ["x"]
[dependencies]
name = "not the package name"
`
	got, errs := parseCargoTOML([]byte(src))
	want := cargoManifest{hasPackage: true, hasWorkspace: true, name: "my-app", libName: "my_lib", libPath: "src/my lib.rs",
		binPaths: []string{"src/a.rs", "src/b.rs"}, members: []string{"a", "b/*", "d"}, exclude: []string{"x"}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(cargoManifest{})); diff != "" {
		t.Errorf("parseCargoTOML mismatch (-want +got):\n%s", diff)
	}
	if len(errs) != 0 {
		t.Errorf("unexpected errors %v", errs)
	}
	_, errs = parseCargoTOML([]byte("[workspace]\nmembers = [1, 2]\n"))
	if want := []SyntaxError{{Line: 2, Message: "workspace.members is not an array of strings"}}; !cmp.Equal(want, errs) {
		t.Errorf("errors = %v, want %v", errs, want)
	}
}
