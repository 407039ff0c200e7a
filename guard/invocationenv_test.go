package guard

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTempDirIsTheInvocations: whether a write lies in the temporary
// directory (and so not outside the repository) is decided by the
// invocation's TMPDIR, never by the deciding process's: a hook server
// started with TMPDIR=$HOME must not let ~/.bashrc through as scratch
// work for a client without one.
func TestTempDirIsTheInvocations(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "repo")
	// The home and temporary directories need not exist, and must not
	// be under /tmp (where t.TempDir is), the default temporary
	// directory.
	home, ctmp := "/nonexistent-vouch-test/home", "/nonexistent-vouch-test/tmp"
	for _, d := range []string{filepath.Join(repo, ".vouch")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pol := filepath.Join(repo, ".vouch", "guard.yaml")
	if err := os.WriteFile(pol, []byte("apiVersion: vouch/v1\nkind: Ruleset\nbuiltins: [writes-outside-repo]\nrules: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		// process is this process's TMPDIR, client the invocation's
		// environment.
		process string
		client  map[string]string
		path    string
		want    string
	}{
		{"process TMPDIR is the home directory", home, map[string]string{"HOME": home}, filepath.Join(home, ".bashrc"), Deny},
		{"process TMPDIR is the home directory, client TMPDIR empty", home, map[string]string{"HOME": home, "TMPDIR": ""}, filepath.Join(home, ".bashrc"), Deny},
		{"client TMPDIR", "", map[string]string{"TMPDIR": ctmp}, filepath.Join(ctmp, "x"), Allow},
		{"client TMPDIR, write to /tmp", "", map[string]string{"TMPDIR": ctmp}, "/tmp/x", Allow},
		{"client TMPDIR, write to /var/tmp", "", map[string]string{"TMPDIR": ctmp}, "/var/tmp/x", Deny},
		{"no TMPDIR anywhere, write to /tmp", "", nil, "/tmp/x", Allow},
		{"process TMPDIR elsewhere, write to /tmp", ctmp, nil, "/tmp/x", Allow},
		{"process TMPDIR elsewhere, write there", ctmp, nil, filepath.Join(ctmp, "x"), Deny},
		{"write in the repository", home, nil, filepath.Join(repo, "a.go"), Allow},
	}
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TMPDIR", tt.process)
			lookup := func(k string) (string, bool) { v, ok := tt.client[k]; return v, ok }
			args, _ := json.Marshal(map[string]any{"file_path": tt.path})
			ev := `{"phase":"pre","session_id":"s","call_id":"1","cwd":"` + repo + `","tool":"Write","args":` + string(args) + `}`
			out := RunHook(context.Background(), e, strings.NewReader(ev), HookOptions{
				Harness: JSON, Policy: pol, Root: repo, Env: Env{Getenv: lookup}, Home: tt.client["HOME"], NoState: true,
			})
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			if out.Decision.Decision != tt.want {
				t.Fatalf("write to %s: %s by %q, want %s", tt.path, out.Decision.Decision, out.Decision.Rule(), tt.want)
			}
		})
	}
}

// TestDeriveInDir: a call without a usable cwd and no known repository
// root resolves its relative paths in the invocation's directory, not in
// the deciding process's.
func TestDeriveInDir(t *testing.T) {
	tests := []struct {
		name     string
		cwd, dir string
		root     string
		want     string
	}{
		{"no cwd, no root", "", "/client/dir", "", "/client/dir/a.txt"},
		{"relative cwd, no root", "sub", "/client/dir", "", "/client/dir/sub/a.txt"},
		{"no cwd, root known", "", "/client/dir", "/repo", "/repo/a.txt"},
		{"absolute cwd", "/w", "/client/dir", "", "/w/a.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Call{Tool: "Read", Cwd: tt.cwd, Args: map[string]any{"file_path": "a.txt"}}
			f := DeriveIn(&c, DeriveContext{Root: tt.root, Dir: tt.dir})
			if len(f.Reads) != 1 || f.Reads[0] != tt.want {
				t.Fatalf("reads %v, want [%s]", f.Reads, tt.want)
			}
		})
	}
}
