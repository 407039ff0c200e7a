package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestManifestTypes(t *testing.T) {
	m := parseManifest([]byte(`{
		"dependencies": {"a": "1", "both": "1"},
		"devDependencies": {"d": "1", "both": "1", "@types/t": "1"},
		"peerDependencies": {"p": "1"},
		"optionalDependencies": {"o": "1"},
		"someOtherDependencies": {"x": "1"},
		"bundleDependencies": ["a"]
	}`))
	tests := []struct {
		m    *manifest
		pkg  string
		want []string
	}{
		{m, "a", []string{"npm", "npm-bundled"}},
		{m, "both", []string{"npm", "npm-dev"}},
		{m, "d", []string{"npm-dev"}},
		{m, "t", []string{"npm-dev"}}, // through @types/t
		{m, "p", []string{"npm-peer"}},
		{m, "o", []string{"npm-optional"}},
		{m, "x", []string{"npm-no-pkg"}}, // a section dependency-cruiser does not name
		{m, "nowhere", []string{"npm-no-pkg"}},
		{nil, "a", []string{"npm-unknown"}},
		{parseManifest([]byte(`not json`)), "a", []string{"npm-unknown"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, manifestTypes(tt.m, tt.pkg)); diff != "" {
			t.Errorf("manifestTypes(%q) (-want +got):\n%s", tt.pkg, diff)
		}
	}
	for in, want := range map[string]string{"lodash": "lodash", "lodash/fp": "lodash", "@scope/pkg/sub": "@scope/pkg", "@scope": "@scope"} {
		if got := npmPackageRoot(in); got != want {
			t.Errorf("npmPackageRoot(%q) = %q, want %q", in, got, want)
		}
	}
}
