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
	root, name := s.sessionFile("x")
	f, err := os.OpenFile(filepath.Join(root, name), os.O_WRONLY|os.O_APPEND, 0)
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
	data, _ := os.ReadFile(filepath.Join(root, name))
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
	s := &Store{Root: "/repo", Dir: ".vouch/guard/sessions"}
	for _, id := range []string{"../../etc/passwd", "", "a/b"} {
		if root, name := s.sessionFile(id); root != "/repo" || filepath.Dir(name) != ".vouch/guard/sessions" {
			t.Errorf("session %q stored in %s below %s", id, name, root)
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

// A link planted where a session log or the audit log should be is never
// written through: the hook's state stays in files of its own.
func TestStateLinksRefused(t *testing.T) {
	repo := t.TempDir()
	victim := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(victim, []byte("safe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Store{Root: repo, Dir: filepath.Join(".vouch", "guard", "sessions")}
	_, name := s.sessionFile("x")
	if err := os.MkdirAll(filepath.Join(repo, filepath.Dir(name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(repo, name)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open("x"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("session log through a symlink: %v, want a symbolic-link error", err)
	}
	if err := os.Symlink(victim, filepath.Join(repo, ".vouch", "guard", "audit.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := AppendAudit(repo, AuditRecord{Decision: Allow}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("audit log through a symlink: %v, want a symbolic-link error", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "safe\n" {
		t.Errorf("the linked file was written: %q", data)
	}
}
