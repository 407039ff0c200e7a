package output

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	var b bytes.Buffer
	if p, err := NewProgress("auto", &b, "x"); err != nil || p != nil {
		t.Fatalf("auto on a buffer (not a terminal) = %v, %v; want nothing drawn", p, err)
	}
	if p, err := NewProgress("never", &b, "x"); err != nil || p != nil {
		t.Fatalf("never = %v, %v", p, err)
	}
	if _, err := NewProgress("sometimes", &b, "x"); err == nil || !strings.Contains(err.Error(), "unknown --progress") {
		t.Errorf("bad mode: %v", err)
	}
	p, err := NewProgress("always", &b, "vouch lint")
	if err != nil || p == nil {
		t.Fatal(err)
	}
	clock := time.Unix(0, 0)
	p.now = func() time.Time { return clock }
	p.Update(1, 10)
	clock = clock.Add(50 * time.Millisecond)
	p.Update(2, 10) // too soon: not redrawn
	clock = clock.Add(100 * time.Millisecond)
	p.Update(5, 10)
	p.Update(10, 10) // the last count is always drawn
	p.Done()
	want := "\r\x1b[Kvouch lint: 1/10 files\r\x1b[Kvouch lint: 5/10 files\r\x1b[Kvouch lint: 10/10 files\r\x1b[K"
	if got := b.String(); got != want {
		t.Errorf("drawn %q, want %q", got, want)
	}
	var nilp *Progress
	nilp.Update(1, 2)
	nilp.Done()
}

// TestProgressThreshold: auto mode (here forced past the terminal check)
// says nothing about short runs.
func TestProgressThreshold(t *testing.T) {
	var b bytes.Buffer
	p := &Progress{w: &b, label: "x", now: time.Now}
	p.Update(10, ProgressThreshold-1)
	p.Done()
	if b.Len() != 0 {
		t.Errorf("drew %q for a short run", b.String())
	}
	p.Update(10, ProgressThreshold)
	if b.Len() == 0 {
		t.Error("drew nothing for a long run")
	}
}
