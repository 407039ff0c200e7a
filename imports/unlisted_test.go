package imports

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUnlistedDirs pins how git's warnings about directories it could not
// open while listing (exit status 0, their files left out) become unread
// warnings, as the walk reports a directory it cannot read.
func TestUnlistedDirs(t *testing.T) {
	tests := []struct {
		name, stderr string
		want         []Warning
	}{
		{"none", "", nil},
		{"one", "warning: could not open directory 'src/hidden/': Permission denied\n",
			[]Warning{{File: "src/hidden", Message: "cannot read: git could not open the directory: Permission denied", Unread: true}}},
		{"two, and another warning", "warning: could not open directory 'a/': Permission denied\nwarning: something else\nwarning: could not open directory 'b/c/': Input/output error\n",
			[]Warning{
				{File: "a", Message: "cannot read: git could not open the directory: Permission denied", Unread: true},
				{File: "b/c", Message: "cannot read: git could not open the directory: Input/output error", Unread: true},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, unlistedDirs(tt.stderr)); diff != "" {
				t.Errorf("unlistedDirs (-want +got):\n%s", diff)
			}
		})
	}
}

// TestListFilesUnlistedDir runs the listing with a git that, like one
// meeting a directory it may not open, warns and exits 0: the directory
// is an unread warning, not silently missing. (Permissions cannot stage
// this when the tests run as root.)
func TestListFilesUnlistedDir(t *testing.T) {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	if out, err := exec.Command(real, "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte("import os\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	script := "#!/bin/sh\n\"" + real + "\" \"$@\"\nrc=$?\necho \"warning: could not open directory 'src/hidden/': Permission denied\" >&2\nexit $rc\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	l, err := listFiles(context.Background(), root, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !l.gitMode || !slices.Contains(l.files, "a.py") {
		t.Fatalf("listing %+v, want git's listing with a.py", l)
	}
	want := Warning{File: "src/hidden", Message: "cannot read: git could not open the directory: Permission denied", Unread: true}
	if !slices.Contains(l.warnings, want) {
		t.Errorf("warnings %+v, want %+v", l.warnings, want)
	}
}
