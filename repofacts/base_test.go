package repofacts

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultBaseWithoutUpstream: HEAD stands in for the default base
// only in a repository with no remote that is not a shallow clone;
// elsewhere comparing with HEAD would hide committed work, and Collect
// says there is no base.
func TestDefaultBaseWithoutUpstream(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(r *repo) string // returns the directory to collect in
		want   string               // the base's description, or "" for ErrNoBase
		reason string               // a part of the error's message
	}{
		{"local repository", func(r *repo) string { return r.dir }, "HEAD", ""},
		{"remote without its default branch", func(r *repo) string {
			r.git("remote", "add", "origin", filepath.Join(r.dir, "nowhere.git"))
			return r.dir
		}, "", "has a remote (origin) but origin's default branch is not in this clone"},
		{"default branch with no common ancestor", func(r *repo) string {
			r.git("checkout", "-q", "--orphan", "other")
			r.commit(map[string]string{"b.txt": "1\n"})
			r.git("update-ref", "refs/remotes/origin/main", "main")
			return r.dir
		}, "", "HEAD has no common ancestor with origin/main"},
		{"shallow clone", func(r *repo) string {
			r.commit(map[string]string{"a.txt": "2\n"})
			dst := filepath.Join(t.TempDir(), "shallow")
			r.git("clone", "-q", "--depth", "1", "file://"+r.dir, dst)
			r.git("-C", dst, "remote", "remove", "origin")
			return dst
		}, "", "this is a shallow clone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit(map[string]string{"a.txt": "1\n"})
			dir := tt.setup(r)
			d, err := Collect(context.Background(), Options{Root: dir})
			if tt.want != "" {
				if err != nil {
					t.Fatal(err)
				}
				if d.Base != tt.want {
					t.Errorf("base = %q, want %q", d.Base, tt.want)
				}
				return
			}
			if !errors.Is(err, ErrNoBase) {
				t.Fatalf("got %v, want an error wrapping ErrNoBase", err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.reason) || !strings.Contains(msg, "--base or base: in vouch.yaml") {
				t.Errorf("message %q does not say %q and how to pin the base", msg, tt.reason)
			}
			// A base given explicitly is used as it is.
			if _, err := Collect(context.Background(), Options{Root: dir, Base: "HEAD"}); err != nil {
				t.Errorf("with --base HEAD: %v", err)
			}
		})
	}
}
