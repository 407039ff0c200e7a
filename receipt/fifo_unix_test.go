//go:build unix

package receipt

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe in place of the receipt, or of a file it names, is refused
// at once instead of blocking receipt verify forever.
func TestVerifyFIFO(t *testing.T) {
	for _, victim := range []string{FileName, "envelope.yaml"} {
		dir, path := setup(t, false)
		p := filepath.Join(dir, "out", victim)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip(err)
		}
		done := make(chan error, 1)
		var probs []Problem
		go func() {
			var err error
			_, probs, err = Verify(path, Options{Root: dir})
			done <- err
		}()
		select {
		case err := <-done:
			if victim == FileName {
				if !errors.Is(err, ErrMalformed) {
					t.Errorf("receipt FIFO: %v", err)
				}
			} else if err != nil || len(probs) != 1 || probs[0].Subject != "envelope" {
				t.Errorf("envelope FIFO: %+v, %v", probs, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Verify blocked on a FIFO at %s", victim)
		}
	}
}
