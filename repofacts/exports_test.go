package repofacts

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExportsBuildConstraints: an identifier counts as still declared only
// in a file that some build compiles.
func TestExportsBuildConstraints(t *testing.T) {
	const api = "package api\n\n// Parse is public API.\nfunc Parse() int { return 1 }\n\nfunc Other() int { return 2 }\n"
	const other = "package api\n\nfunc Other() int { return 2 }\n"
	tests := []struct {
		name   string
		base   map[string]string
		change map[string]string
		remove []string
		want   []string
	}{
		{name: "moved to a //go:build ignore file", change: map[string]string{"api/api.go": other, "api/parse_gone.go": "//go:build ignore\n\npackage api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{"api.Parse"}},
		{name: "moved to an old-style // +build ignore file", change: map[string]string{"api/api.go": other, "api/parse_gone.go": "// +build ignore\n\npackage api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{"api.Parse"}},
		{name: "moved to a _ file", change: map[string]string{"api/api.go": other, "api/_parse.go": "package api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{"api.Parse"}},
		{name: "moved to a . file", change: map[string]string{"api/api.go": other, "api/.parse.go": "package api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{"api.Parse"}},
		{name: "moved to an impossible constraint", change: map[string]string{"api/api.go": other, "api/parse.go": "//go:build linux && windows\n\npackage api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{"api.Parse"}},
		{name: "moved to a file that needs a build tag", change: map[string]string{"api/api.go": other, "api/parse.go": "//go:build integration\n\npackage api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{"api.Parse"}},
		{name: "moved to a file for an unknown platform", change: map[string]string{"api/api.go": other, "api/parse_plan10.go": "package api\n\nfunc Parse() int { return 1 }\n", "api/parse_linux_vax.go": "package api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{}}, // _plan10 and _vax are not GOOS/GOARCH names: these files build everywhere
		{name: "its own file gains //go:build ignore", change: map[string]string{"api/api.go": "//go:build ignore\n\n" + api},
			want: []string{"api.Other", "api.Parse"}},
		{name: "its own file changes package", change: map[string]string{"api/api.go": "package other\n\nfunc Parse() int { return 1 }\nfunc Other() int { return 2 }\n"},
			want: []string{"api.Other", "api.Parse"}},
		{name: "moved to an ignored file", base: map[string]string{".gitignore": "*_gen.go\n"},
			change: map[string]string{"api/api.go": other, "api/parse_gen.go": "package api\n\nfunc Parse() int { return 1 }\n"},
			want:   []string{"api.Parse"}},
		{name: "moved to a file for one platform: still API there", change: map[string]string{"api/api.go": other, "api/parse_windows.go": "package api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{}},
		{name: "moved to a cgo-only file", change: map[string]string{"api/api.go": other, "api/parse_cgo.go": "//go:build cgo\n\npackage api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{}},
		{name: "moved to an unchanged file with a constraint", base: map[string]string{"api/unix.go": "//go:build unix\n\npackage api\n\nfunc Parse() int { return 1 }\n"},
			change: map[string]string{"api/api.go": other}, want: []string{}},
		{name: "moved to another file", change: map[string]string{"api/api.go": other, "api/parse.go": "package api\n\nfunc Parse() int { return 1 }\n"},
			want: []string{}},
		{name: "a base file no build compiled was never API", base: map[string]string{"api/gen.go": "//go:build ignore\n\npackage main\n\nfunc Generate() {}\n", "api/tool.go": "//go:build ignore\n\npackage api\n\nfunc Tool() {}\n"},
			change: map[string]string{}, remove: []string{"api/gen.go", "api/tool.go"}, want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			base := map[string]string{"go.mod": goMod, "api/api.go": api}
			for k, v := range tt.base {
				base[k] = v
			}
			r.commit(base)
			r.write(tt.change)
			r.remove(tt.remove...)
			d := collect(t, Options{Root: r.dir})
			if diff := cmp.Diff(tt.want, d.GoExportsRemoved); diff != "" {
				t.Errorf("go_exports_removed (-want +got):\n%s", diff)
			}
		})
	}
}
