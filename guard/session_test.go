package guard

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A writer that died mid-line leaves a torn record: it is not counted, and
// the next record still lands on a line of its own.
func TestSessionTornLine(t *testing.T) {
	s := &Store{Dir: t.TempDir()}
	sess, err := s.Open("x")
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Append(sessionRecord{Kind: "attempt", Tool: "Bash"}); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	// Simulate a crash mid-write.
	f, err := os.OpenFile(s.sessionFile("x"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"kind":"exec","tool":"Ba`)
	f.Close()

	sess, err = s.Open("x")
	if err != nil {
		t.Fatal(err)
	}
	if got := sess.Counters("Bash"); got != (Counters{Attempts: 1}) {
		t.Fatalf("counters after torn line = %+v, want 1 attempt", got)
	}
	if err := sess.Append(sessionRecord{Kind: "exec", Tool: "Bash", OK: true}); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	sess, err = s.Open("x")
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if got := sess.Counters("Bash"); got != (Counters{Attempts: 1, Execs: 1, ToolCalls: 1}) {
		t.Fatalf("counters = %+v", got)
	}
	data, _ := os.ReadFile(s.sessionFile("x"))
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 3 {
		t.Fatalf("log has %d lines, want 3 (record, torn fragment, record):\n%s", len(lines), data)
	}
}

// Concurrent openers serialise on the lock: no count is lost or doubled.
func TestSessionConcurrent(t *testing.T) {
	s := &Store{Dir: t.TempDir()}
	var wg sync.WaitGroup
	seen := make(chan int, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sess, err := s.Open("busy")
			if err != nil {
				t.Error(err)
				return
			}
			defer sess.Close()
			seen <- sess.Counters("Bash").Attempts
			if err := sess.Append(sessionRecord{Kind: "attempt", Tool: "Bash"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	close(seen)
	got := map[int]bool{}
	for n := range seen {
		if got[n] {
			t.Fatalf("two openers saw %d earlier attempts", n)
		}
		got[n] = true
	}
	if len(got) != 20 {
		t.Fatalf("saw %d distinct counts, want 20", len(got))
	}
}

// Session ids choose no path.
func TestSessionFileName(t *testing.T) {
	s := &Store{Dir: "/state"}
	for _, id := range []string{"../../etc/passwd", "", "a/b"} {
		if dir := filepath.Dir(s.sessionFile(id)); dir != "/state" {
			t.Errorf("session %q stored in %s", id, dir)
		}
	}
}

func TestCountersConsecutiveFailures(t *testing.T) {
	sess := &Session{records: []sessionRecord{
		{Kind: "exec", Tool: "A", OK: false},
		{Kind: "exec", Tool: "A", OK: true},
		{Kind: "attempt", Tool: "B"},
		{Kind: "exec", Tool: "B", OK: false},
		{Kind: "exec", Tool: "A", OK: false},
	}}
	want := Counters{Attempts: 1, Execs: 4, ToolCalls: 3, ConsecutiveFailures: 2}
	if got := sess.Counters("A"); got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}
