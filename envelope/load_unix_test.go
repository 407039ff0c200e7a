//go:build unix

package envelope

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vouch-dev/vouch/internal/safeopen"
)

// A named pipe where the envelope should be must be refused at once: a
// blocked read would hang a Stop hook until the harness gives up.
func TestLoadRefusesFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "envelope.yaml")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Load(p, DefaultLimits()); done <- err }()
	select {
	case err := <-done:
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, safeopen.ErrNotRegular) || !strings.Contains(e.Msg, "named pipe") {
			t.Fatalf("got %v, want an *Error naming the named pipe", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load blocked on a FIFO")
	}
}

// A symlink from the configured envelope to another repository's file is
// refused, and the message does not echo the other file's content.
func TestLoadInRefusesSymlinkOut(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "passing.yaml")
	if err := os.WriteFile(other, []byte("facts: {secret_value: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "envelope.yaml")
	if err := os.Symlink(other, link); err != nil {
		t.Skip(err)
	}
	_, err := LoadIn(link, root, DefaultLimits())
	if !errors.Is(err, safeopen.ErrOutsideRoot) || strings.Contains(err.Error(), "secret_value") {
		t.Fatalf("got %v, want a refusal that does not echo the content", err)
	}
	if _, err := LoadIn(link, "", DefaultLimits()); err != nil {
		t.Fatalf("an explicit path is opened as given: %v", err)
	}
}
