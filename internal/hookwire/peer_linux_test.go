//go:build linux

package hookwire

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A server is accepted only when it sees the client's file system: the
// same mount and user namespaces and the same root directory.
func TestSameView(t *testing.T) {
	if err := sameView("/proc", os.Getpid()); err != nil {
		t.Fatalf("sameView of this process = %v", err)
	}
	// A fake proc tree: "self" and the server's entries are links to
	// files that stand for namespaces and root directories.
	proc := t.TempDir()
	target := func(name string) string {
		p := filepath.Join(proc, "targets", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(pid, name, to string) {
		p := filepath.Join(proc, pid, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
	}
	same := map[string]string{"ns/mnt": target("mnt"), "ns/user": target("user"), "root": target("root")}
	views := map[string]map[string]string{
		"self": same,
		"10":   same,
		"11":   {"ns/mnt": target("mnt2"), "ns/user": same["ns/user"], "root": same["root"]},
		"12":   {"ns/mnt": same["ns/mnt"], "ns/user": target("user2"), "root": same["root"]},
		"13":   {"ns/mnt": same["ns/mnt"], "ns/user": same["ns/user"], "root": target("root2")},
	}
	for pid, view := range views {
		for name, to := range view {
			link(pid, name, to)
		}
	}
	tests := []struct {
		pid  int
		want string
	}{
		{10, ""},
		{11, "another ns/mnt"},
		{12, "another ns/user"},
		{13, "another root"},
		{14, "hook server process 14"},
	}
	for _, tt := range tests {
		err := sameView(proc, tt.pid)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("pid %d: sameView = %v", tt.pid, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("pid %d: sameView = %v, want an error containing %q", tt.pid, err, tt.want)
		}
	}
}
