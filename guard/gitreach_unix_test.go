//go:build unix

package guard

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestKeptTreeReachesHungGit: a repository whose index is a FIFO makes
// git block; the hook must not wait for it, and a git that does not
// answer counts as "may reach vouch's files", so the command asks.
func TestKeptTreeReachesHungGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	top := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	index := filepath.Join(top, ".git", "index")
	os.Remove(index)
	if err := syscall.Mkfifo(index, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if !keptTreeReaches(top, top, nil) {
		t.Error("keptTreeReaches = false with git blocked on a FIFO index, want true (cannot tell: ask)")
	}
}
