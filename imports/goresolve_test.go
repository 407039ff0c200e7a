package imports

import (
	"reflect"
	"testing"
)

// TestGoResolverMajorVersion checks that a /vN element (N >= 2) after a
// code host's owner/repo stays in the external module name when go.mod does
// not require the module, and that required modules still win.
func TestGoResolverMajorVersion(t *testing.T) {
	files := map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/req/lib/v3 v3.1.0\n\tgithub.com/req/old v1.0.0\n)\n",
		"main.go": "package main\n",
	}
	root := writeTree(t, files)
	r, warns := newGoResolver(repoOf(root, files))
	if len(warns) != 0 {
		t.Fatalf("unexpected warnings %v", warns)
	}
	ext := func(target string) Resolution { return Resolution{Kind: External, Target: target} }
	tests := []struct {
		spec string
		want Resolution
	}{
		{"github.com/other/thing/v2/x", ext("github.com/other/thing/v2")},
		{"github.com/other/thing/v2", ext("github.com/other/thing/v2")},
		{"github.com/other/thing/v10/a/b", ext("github.com/other/thing/v10")},
		{"gitlab.com/g/p/v4/sub", ext("gitlab.com/g/p/v4")},
		{"bitbucket.org/o/r/v2/x", ext("bitbucket.org/o/r/v2")},
		{"codeberg.org/o/r/v3/x", ext("codeberg.org/o/r/v3")},
		// Not major-version suffixes: v0, v1, leading zeros, non-digits.
		{"github.com/other/thing/v1/x", ext("github.com/other/thing")},
		{"github.com/other/thing/v0/x", ext("github.com/other/thing")},
		{"github.com/other/thing/v02/x", ext("github.com/other/thing")},
		{"github.com/other/thing/v2beta/x", ext("github.com/other/thing")},
		{"github.com/other/thing/v/x", ext("github.com/other/thing")},
		{"github.com/other/thing/x/v2", ext("github.com/other/thing")},
		// gopkg.in keeps .vN in the element: the whole path, as before.
		{"gopkg.in/yaml.v3", ext("gopkg.in/yaml.v3")},
		{"gopkg.in/check.v1", ext("gopkg.in/check.v1")},
		// Other hosts: the whole path.
		{"example.org/a/b/v2/c", ext("example.org/a/b/v2/c")},
		// A required module still names the target.
		{"github.com/req/lib/v3/sub", ext("github.com/req/lib/v3")},
		{"github.com/req/old/pkg", ext("github.com/req/old")},
		{"github.com/req/old/v2/pkg", ext("github.com/req/old")},
	}
	for _, tt := range tests {
		if got := r.resolve("main.go", Site{Kind: KindImport, Spec: tt.spec}); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("resolve(main.go, %q) = %+v, want %+v", tt.spec, got, tt.want)
		}
	}
}

func TestIsMajorVersionElem(t *testing.T) {
	tests := []struct {
		elem string
		want bool
	}{
		{"v2", true}, {"v9", true}, {"v10", true}, {"v123", true},
		{"v1", false}, {"v0", false}, {"v01", false}, {"v", false},
		{"", false}, {"2", false}, {"V2", false}, {"v2.0", false}, {"v2a", false},
	}
	for _, tt := range tests {
		if got := isMajorVersionElem(tt.elem); got != tt.want {
			t.Errorf("isMajorVersionElem(%q) = %v, want %v", tt.elem, got, tt.want)
		}
	}
}
