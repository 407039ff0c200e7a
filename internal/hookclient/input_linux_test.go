package hookclient

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readInput on a file (the hook's own stdin, read without a goroutine)
// gives what the reader goroutine gives: all of it when it ends within
// the bound and the deadline, else what was read and the rest after it.
func TestReadFileInput(t *testing.T) {
	const max = 1 << 10
	small, big := "event", strings.Repeat("x", max+10)
	type result struct {
		data     string
		complete bool
		rest     string // what reader() gives in all, when not complete
	}
	pipe := func(t *testing.T, write string, close bool, later string) *os.File {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		go func() {
			w.Write([]byte(write))
			if later != "" {
				time.Sleep(150 * time.Millisecond)
				w.Write([]byte(later))
			}
			if close || later != "" {
				w.Close()
			}
		}()
		return r
	}
	file := func(t *testing.T, content string) *os.File {
		p := filepath.Join(t.TempDir(), "ev")
		os.WriteFile(p, []byte(content), 0o600)
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	tests := []struct {
		name string
		in   func(t *testing.T) *os.File
		want result
	}{
		{"pipe closed", func(t *testing.T) *os.File { return pipe(t, small, true, "") }, result{small, true, ""}},
		{"empty pipe closed", func(t *testing.T) *os.File { return pipe(t, "", true, "") }, result{"", true, ""}},
		{"pipe past the deadline", func(t *testing.T) *os.File { return pipe(t, small, false, "-late") }, result{small, false, small + "-late"}},
		{"pipe over the bound", func(t *testing.T) *os.File { return pipe(t, big, true, "") }, result{big, false, big}},
		{"file", func(t *testing.T) *os.File { return file(t, small) }, result{small, true, ""}},
		{"file over the bound", func(t *testing.T) *os.File {
			return file(t, strings.Repeat("y", 70<<10))
		}, result{strings.Repeat("y", 70<<10), false, strings.Repeat("y", 70<<10)}},
		{"/dev/null", func(t *testing.T) *os.File {
			f, err := os.Open(os.DevNull)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		}, result{"", true, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.in(t)
			in := readInput(f, max, 60*time.Millisecond)
			// Over the bound, the data read so far may pass it by up to
			// one read: compare its start.
			if in.complete != tt.want.complete || !strings.HasPrefix(tt.want.data, string(in.data)) || (tt.want.complete && string(in.data) != tt.want.data) {
				t.Fatalf("readInput = %q (%d bytes), complete %v; want %d bytes, complete %v", trim(in.data), len(in.data), in.complete, len(tt.want.data), tt.want.complete)
			}
			if !tt.want.complete {
				all, err := io.ReadAll(in.reader())
				if err != nil || string(all) != tt.want.rest {
					t.Fatalf("reader() = %q, %v; want %q", trim(all), err, trim([]byte(tt.want.rest)))
				}
			}
		})
	}
	// The file-descriptor path took them: no goroutine was needed.
	if in, ok := readFileInput(os.NewFile(^uintptr(0), "bad"), max, time.Second); ok {
		t.Fatalf("readFileInput of no descriptor = %+v, true", in)
	}
}

// A read error is kept for the direct run, after what was read.
func TestReadFDError(t *testing.T) {
	dir := t.TempDir()
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), "/dev/stdin")
	defer f.Close()
	in := readFD(fd, f, 100, time.Now().Add(time.Second))
	if in.complete || len(in.data) != 0 {
		t.Fatalf("readFD of a directory = %+v", in)
	}
	_, err = io.ReadAll(in.reader())
	if !errors.Is(err, syscall.EISDIR) || !strings.Contains(err.Error(), "/dev/stdin") {
		t.Fatalf("reader() error = %v, want EISDIR naming /dev/stdin", err)
	}
}

func trim(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(bytes.Clone(b))
}
