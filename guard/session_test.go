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

// naiveCounters counts every record from the start, as a log without
// checkpoints is read.
func naiveCounters(recs []sessionRecord, tool string) Counters {
	return (&Session{records: recs}).Counters(tool)
}

// Checkpoints change what a reader decodes, never the counts: across
// many hook processes, each opening the log afresh, the counts equal a
// count of every record from the start.
func TestSessionCheckpoints(t *testing.T) {
	s := &Store{Dir: t.TempDir()}
	tools := []string{"Bash", "Write", "mcp__github__create_issue"}
	var all []sessionRecord
	for i := 0; i < 3*checkpointEvery+17; i++ {
		sess, err := s.Open("long")
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tools {
			if got, want := sess.Counters(tool), naiveCounters(all, tool); got != want {
				t.Fatalf("after %d records, counters of %s = %+v, want %+v", len(all), tool, got, want)
			}
		}
		if len(sess.records) > checkpointEvery {
			t.Fatalf("after %d records the reader decoded %d, want at most %d", len(all), len(sess.records), checkpointEvery)
		}
		r := sessionRecord{Kind: "attempt", Tool: tools[i%3], Decision: Allow}
		if i%2 == 1 {
			r = sessionRecord{Kind: "exec", Tool: tools[i%3], OK: i%5 != 0}
		}
		if err := sess.Append(r); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
		sess.Close()
	}
	root, name := s.sessionFile("long")
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"kind":"snapshot"`); n != 3 {
		t.Errorf("log holds %d checkpoints, want 3", n)
	}
}

// writeLog writes a session log's raw text and opens it.
func writeLog(t *testing.T, text string) *Session {
	t.Helper()
	s := &Store{Dir: t.TempDir()}
	root, name := s.sessionFile("x")
	if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sess, err := s.Open("x")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	return sess
}

func TestSessionLogs(t *testing.T) {
	attempt := `{"kind":"attempt","tool":"Bash","decision":"allow"}` + "\n"
	execOK := `{"kind":"exec","tool":"Bash","ok":true}` + "\n"
	execFail := `{"kind":"exec","tool":"Write"}` + "\n"
	snap := `{"kind":"snapshot","attempts":40,"execs":30,"consecutive_failures":2,"tools":{"Bash":20,"Write":10}}` + "\n"
	tests := []struct {
		name string
		log  string
		tool string
		want Counters
	}{
		{"empty", "", "Bash", Counters{}},
		// Logs written before checkpoints existed are counted whole.
		{"no checkpoint", attempt + execOK + execFail + execFail, "Write", Counters{Attempts: 1, Execs: 3, ToolCalls: 2, ConsecutiveFailures: 2}},
		{"checkpoint then records", attempt + snap + attempt + execOK, "Bash", Counters{Attempts: 41, Execs: 31, ToolCalls: 21}},
		{"checkpoint carries failures", snap + execFail, "Write", Counters{Attempts: 40, Execs: 31, ToolCalls: 11, ConsecutiveFailures: 3}},
		{"last checkpoint wins", snap + attempt + `{"kind":"snapshot","attempts":1,"execs":0,"consecutive_failures":0}` + "\n" + attempt, "Bash", Counters{Attempts: 2}},
		// A checkpoint torn by a crash is skipped: the one before it and
		// the records after that still count.
		{"torn checkpoint", snap + execOK + `{"kind":"snapshot","attempts":99,"ex`, "Bash", Counters{Attempts: 40, Execs: 31, ToolCalls: 21}},
		// Forged or damaged checkpoints are not checkpoints.
		{"negative count", snap + `{"kind":"snapshot","attempts":-5,"execs":0,"consecutive_failures":0}` + "\n", "Bash", Counters{Attempts: 40, Execs: 30, ToolCalls: 20, ConsecutiveFailures: 2}},
		{"fractional count", snap + `{"kind":"snapshot","attempts":1.5,"execs":0,"consecutive_failures":0}` + "\n", "Bash", Counters{Attempts: 40, Execs: 30, ToolCalls: 20, ConsecutiveFailures: 2}},
		{"tools not an object", snap + `{"kind":"snapshot","attempts":1,"execs":0,"consecutive_failures":0,"tools":[1]}` + "\n", "Bash", Counters{Attempts: 40, Execs: 30, ToolCalls: 20, ConsecutiveFailures: 2}},
		{"tool count a string", snap + `{"kind":"snapshot","attempts":1,"execs":0,"consecutive_failures":0,"tools":{"Bash":"9"}}` + "\n", "Bash", Counters{Attempts: 40, Execs: 30, ToolCalls: 20, ConsecutiveFailures: 2}},
		// A checkpoint further back than the first window is found by
		// widening it.
		{"checkpoint beyond the window", snap + strings.Repeat(attempt, tailWindow/len(attempt)+10), "Bash", Counters{Attempts: 40 + tailWindow/len(attempt) + 10, Execs: 30, ToolCalls: 20, ConsecutiveFailures: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := writeLog(t, tt.log).Counters(tt.tool); got != tt.want {
				t.Errorf("counters = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// A log with no checkpoint in its last maxTailWindow bytes was not
// written by vouch alone: the hook reports it (and so denies) instead of
// reading it whole on every call.
func TestSessionLogWithoutCheckpoints(t *testing.T) {
	s := &Store{Dir: t.TempDir()}
	root, name := s.sessionFile("x")
	line := `{"kind":"attempt","tool":"Bash","decision":"allow"}` + "\n"
	big := strings.Repeat(line, maxTailWindow/len(line)+1)
	if err := os.WriteFile(filepath.Join(root, name), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.Open("x")
	if err == nil || !strings.Contains(err.Error(), "holds no checkpoint") {
		t.Fatalf("Open = %v, want a no-checkpoint error", err)
	}
}

// TestSessionWrittenSet pins the session's written set across
// checkpoints: records carry their writes until a checkpoint moves them,
// each once, to the set's file, and the set is both; past its bound the
// set reads every script; a log from before the set existed has an
// empty one.
func TestSessionWrittenSet(t *testing.T) {
	tests := []struct {
		name    string
		records int // attempts appended, record i writing /r/f(i%3), the first also /r/first
		add     int // paths added to the set's file directly
		log     string
		want    []string // in the set
		all     bool
		lines   int // in the set's file
	}{
		{name: "before a checkpoint", records: 2, want: []string{"/r/first", "/r/f0", "/r/f1"}, lines: 0},
		{name: "across a checkpoint", records: checkpointEvery + 2, want: []string{"/r/first", "/r/f0", "/r/f1", "/r/f2"}, lines: 4},
		{name: "past the bound", add: maxWrittenPaths + 1, all: true, lines: maxWrittenPaths + 1},
		{name: "older log", log: `{"kind":"attempt","tool":"Write","decision":"allow"}` + "\n", lines: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Store{Dir: t.TempDir()}
			root, name := s.sessionFile("x")
			if tt.log != "" {
				if err := os.WriteFile(filepath.Join(root, name), []byte(tt.log), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sess, err := s.Open("x")
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.records {
				w := []string{"/r/f" + string(rune('0'+i%3))}
				if i == 0 {
					w = append(w, "/r/first")
				}
				if err := sess.appendWrites(sessionRecord{Kind: "attempt", Tool: "Write", Decision: "allow"}, w); err != nil {
					t.Fatal(err)
				}
			}
			if tt.add > 0 {
				var paths []string
				for i := range tt.add {
					paths = append(paths, filepath.Join("/r", strings.Repeat("d", i%7), string(rune('a'+i%26))+strings.Repeat("x", i/26)))
				}
				if err := sess.addWritten(paths, false); err != nil {
					t.Fatal(err)
				}
			}
			sess.Close()
			sess, err = s.Open("x")
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			ws, err := sess.written()
			if err != nil {
				t.Fatal(err)
			}
			if ws.all != tt.all {
				t.Errorf("past the bound: %v, want %v", ws.all, tt.all)
			}
			for _, p := range tt.want {
				if !ws.paths[p] || !ws.wants([]string{p}) {
					t.Errorf("%s is not in the set", p)
				}
			}
			if !tt.all && (len(ws.paths) != len(tt.want) || ws.wants([]string{"/r/other"})) {
				t.Errorf("set = %v, want %v", ws.paths, tt.want)
			}
			data, _ := os.ReadFile(filepath.Join(root, strings.TrimSuffix(name, ".log")+".writes"))
			if got := strings.Count(string(data), "\n"); got != tt.lines {
				t.Errorf("the set's file has %d lines, want %d:\n%s", got, tt.lines, data)
			}
		})
	}
}
