package ruletest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFiles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "tests")
	empty := filepath.Join(root, "empty")
	for _, d := range []string{dir, empty} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"b_test.yaml", "a_test.yaml", "notes.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		want []string
		err  string
	}{
		{"default", nil, []string{filepath.Join(root, "analysis", "rulespec_test.yaml")}, ""},
		{"directory, sorted, test files only", []string{dir}, []string{filepath.Join(dir, "a_test.yaml"), filepath.Join(dir, "b_test.yaml")}, ""},
		{"a file, even missing, as given", []string{"x.yaml"}, []string{"x.yaml"}, ""},
		{"directory without tests", []string{empty}, nil, "no *_test.yaml files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Files(tt.args, root)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
