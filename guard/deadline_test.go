//go:build unix

package guard

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDeadlineRecordsNothing: a decision that passes its deadline while
// waiting for a lock (another holder of the audit log or the session
// log) is answered with the deadline deny, and records nothing later,
// when the lock is released: the direct run's process has exited by then,
// and the hook server must not record what no harness was told.
func TestDeadlineRecordsNothing(t *testing.T) {
	tests := []struct {
		name string
		// session: another process holds the session log locked, else
		// the audit log.
		session bool
	}{
		{"audit log held", false},
		{"session log held", true},
	}
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := t.TempDir()
			pol := filepath.Join(repo, "guard.yaml")
			if err := os.WriteFile(pol, []byte(cacheTestPolicy), 0o644); err != nil {
				t.Fatal(err)
			}
			ev := `{"phase":"pre","session_id":"s","call_id":"1","cwd":"` + repo + `","tool":"Bash","args":{"command":"ls"}}`
			o := HookOptions{Harness: JSON, Policy: pol, Root: repo, Env: Env{}, Timeout: 200 * time.Millisecond}
			// A first call makes the logs. Its deadline is long: on a
			// loaded machine 200 ms can pass before it is done.
			first := o
			first.Timeout = time.Minute
			if out := RunHook(context.Background(), e, strings.NewReader(ev), first); out.Err != nil || out.Decision.Decision != Allow {
				t.Fatalf("first call: %+v", out)
			}
			held := filepath.Join(repo, ".vouch", "guard", "audit.jsonl")
			if tt.session {
				logs, _ := filepath.Glob(filepath.Join(repo, ".vouch", "guard", "sessions", "*.log"))
				if len(logs) != 1 {
					t.Fatalf("session logs %v, want one", logs)
				}
				held = logs[0]
			}
			lines := func() (audit, session int) {
				a, _ := os.ReadFile(filepath.Join(repo, ".vouch", "guard", "audit.jsonl"))
				logs, _ := filepath.Glob(filepath.Join(repo, ".vouch", "guard", "sessions", "*.log"))
				s, _ := os.ReadFile(logs[0])
				return strings.Count(string(a), "\n"), strings.Count(string(s), "\n")
			}
			a0, s0 := lines()
			// Another open file description holds the lock, as another
			// process would.
			f, err := os.OpenFile(held, os.O_RDWR|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
				t.Fatal(err)
			}
			out := RunHook(context.Background(), e, strings.NewReader(ev), o)
			if out.Decision.Decision != Deny || out.Err == nil || !strings.Contains(out.Err.Error(), "deadline") {
				t.Fatalf("past the deadline: %+v, want the deadline deny", out)
			}
			// The decision's goroutine gives up its wait too.
			time.Sleep(100 * time.Millisecond)
			f.Close()
			time.Sleep(300 * time.Millisecond)
			if a, s := lines(); a != a0 || s != s0 {
				t.Fatalf("after the deadline deny, audit log %d -> %d lines, session log %d -> %d", a0, a, s0, s)
			}
		})
	}
}
