package hookwire

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A dialled connection (a bare descriptor waiting in ppoll) carries
// frames larger than the socket's buffers both ways, sees the server's
// close as EOF, and gives up at its deadline with a timeout.
func TestDialedConn(t *testing.T) {
	ln, err := Listen(filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		// Read the client's megabyte, answer with one, close.
		b := make([]byte, len(big))
		_, err = io.ReadFull(c, b)
		got <- b
		if err == nil {
			c.Write(big)
		}
		c.Close()
		// The second connection is held without an answer.
		c2, err := ln.Accept()
		if err == nil {
			time.Sleep(time.Second)
			c2.Close()
		}
	}()
	c, err := Dial(ln.path)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Write(big); err != nil || n != len(big) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if b := <-got; !bytes.Equal(b, big) {
		t.Fatal("the server read another request")
	}
	b := make([]byte, len(big))
	if _, err := io.ReadFull(c, b); err != nil || !bytes.Equal(b, big) {
		t.Fatalf("ReadFull = %v", err)
	}
	if n, err := c.Read(b); n != 0 || err != io.EOF {
		t.Fatalf("Read after the server closed = %d, %v, want EOF", n, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("second Close = %v", err)
	}
	if _, err := c.Read(b); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("Read after Close = %v", err)
	}

	c, err = Dial(ln.path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	c.SetDeadline(start.Add(50 * time.Millisecond))
	if _, err := c.Read(b); !IsTimeout(err) {
		t.Fatalf("Read with no answer = %v, want a timeout", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Fatalf("Read gave up after %v, before its deadline", d)
	}
	c.SetDeadline(time.Now().Add(-time.Second))
	if _, err := c.Read(b); !IsTimeout(err) {
		t.Fatalf("Read past the deadline = %v, want a timeout", err)
	}
}

func TestParseStatus(t *testing.T) {
	full := "Name:\tvouch-guard\nState:\tS (sleeping)\nTracerPid:\t0\nUid:\t0\t0\t0\t0\nSeccomp:\t2\nSeccomp_filters:\t1\nSpeculation_Store_Bypass:\tthread vulnerable\n"
	tests := []struct {
		name string
		in   string
		want confinement
		ok   bool
	}{
		{"all", full, confinement{"0", "2", "1"}, true},
		{"traced", strings.Replace(full, "TracerPid:\t0", "TracerPid:\t4242", 1), confinement{"4242", "2", "1"}, true},
		{"no seccomp fields", "Name:\tx\nTracerPid:\t0\n", confinement{tracerPid: "0"}, true},
		{"no TracerPid", "Name:\tx\nSeccomp:\t0\n", confinement{seccomp: "0"}, false},
		{"no final newline", "TracerPid:\t7", confinement{tracerPid: "7"}, true},
		{"a later line wins", "TracerPid:\t0\nTracerPid:\t9\n", confinement{tracerPid: "9"}, true},
		{"a name only prefixed", "TracerPidX:\t0\nSeccomp_filtersY:\t3\n", confinement{}, false},
		{"empty", "", confinement{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseStatus([]byte(tt.in))
			if got != tt.want || ok != tt.ok {
				t.Fatalf("parseStatus = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// readProcFile reads a file of any size up to its bound, growing from
// the buffer it is given.
func TestReadProcFile(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4095, 4096, 4097, 20000} {
		p := filepath.Join(dir, "f")
		data := bytes.Repeat([]byte{'x'}, size)
		os.WriteFile(p, data, 0o644)
		got, err := readProcFile(p, newScratch()[:0], 16<<10)
		if want := data[:min(size, 16<<10)]; err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: %d bytes, %v; want %d", size, len(got), err, len(want))
		}
	}
	if _, err := readProcFile(filepath.Join(dir, "missing"), nil, 10); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

// holdsSocket finds the socket among a process's descriptor links
// whatever its number, and refuses when no link names it.
func TestHoldsSocketFake(t *testing.T) {
	proc := t.TempDir()
	fd := filepath.Join(proc, "10", "fd")
	os.MkdirAll(fd, 0o755)
	for name, target := range map[string]string{
		"0": "/dev/null", "1": "pipe:[3]", "2": "socket:[5]", "9": "socket:[7]", "10": "socket:[77]",
		"11": "socket:[7" + strings.Repeat("7", 80) + "]",
	} {
		if err := os.Symlink(target, filepath.Join(fd, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		ino  uint32
		want bool
	}{{5, true}, {7, true}, {77, true}, {3, false}, {777, false}, {0, false}} {
		got, err := holdsSocket(proc, 10, tt.ino, newScratch())
		if err != nil || got != tt.want {
			t.Errorf("holdsSocket(socket:[%d]) = %v, %v; want %v", tt.ino, got, err, tt.want)
		}
	}
	if _, err := holdsSocket(proc, 11, 5, newScratch()); err == nil || !strings.Contains(err.Error(), "hook server process 11") {
		t.Errorf("holdsSocket of a missing process = %v", err)
	}
}
