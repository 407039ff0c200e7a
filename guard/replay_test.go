package guard

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/output"
)

// TestReplayAuditHostileLog: the repository's own log is opened as from:
// audit opens it, so a link planted there is refused rather than followed
// out of the root; a log with no record is an error, not a replay of
// nothing that passes as "no decision changes".
func TestReplayAuditHostileLog(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "hostname")
	if err := os.WriteFile(outside, []byte("box\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		plant   func(path string) error
		arg     string // the log named on the command line; "" for the default
		wantErr string
	}{
		{name: "symlink out of the root", plant: func(p string) error { return os.Symlink(outside, p) },
			wantErr: "is a link (a symbolic link)"},
		{name: "hard link", plant: func(p string) error { return os.Link(outside, p) },
			wantErr: "is a link (2 hard links to one file)"},
		{name: "empty log", plant: func(p string) error { return os.WriteFile(p, nil, 0o644) },
			wantErr: "no records: the log is empty, so there is nothing to replay"},
		{name: "not an audit log", plant: func(p string) error { return os.WriteFile(p, []byte("box\nbox\n"), 0o644) },
			wantErr: "no records: none of its 2 lines is a record vouch guard wrote"},
		{name: "a file named on the command line is followed, and must hold records", arg: outside,
			wantErr: "no records: none of its 1 lines is a record vouch guard wrote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if runtime.GOOS == "windows" && tt.plant != nil {
				t.Skip("links need privileges")
			}
			repo := commandRepo(t)
			if err := os.MkdirAll(filepath.Join(repo, ".vouch", "guard"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.plant != nil {
				if err := tt.plant(AuditPath(repo)); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := ReplayAudit("", tt.arg, noEnv)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "audit log") {
				t.Fatalf("ReplayAudit = %+v, %v; want an error containing %q", rep, err, tt.wantErr)
			}
		})
	}
}

// genLog yields n replayable records, generated as they are read, and
// samples the live heap every thousand lines.
type genLog struct {
	n, i    int
	buf     []byte
	base    uint64
	maxHeap uint64
}

func (g *genLog) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		if g.i == g.n {
			return 0, io.EOF
		}
		g.i++
		cmd := "ls"
		if g.i%3 == 0 {
			cmd = "rm -rf build"
		}
		g.buf = fmt.Appendf(g.buf, `{"time":"t%d","session":"s","tool":"Bash","decision":"allow","args":{"command":%q}}`+"\n", g.i, cmd)
		if g.i%1000 == 0 {
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > g.base {
				g.maxHeap = max(g.maxHeap, ms.HeapAlloc-g.base)
			}
		}
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

// TestReplayLogStreams: replay holds one record at a time and a bounded
// report: every decision is counted, the list keeps only the changed ones
// once it is full, and the live heap does not grow with the log.
func TestReplayLogStreams(t *testing.T) {
	p := mustPolicy(t, "testdata/basic.yaml")
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	g := &genLog{n: 6_000, base: ms.HeapAlloc}
	rep, err := replayLog(e, p, g, "audit.jsonl", Env{}, "/home/u", "/repo", replayLimits{results: 100, records: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Replayed != 6_000 || rep.Changed != 2_000 {
		t.Errorf("replayed %d, changed %d; want 6000 and 2000 (every third record is rm -rf)", rep.Replayed, rep.Changed)
	}
	if len(rep.Results) != 100 || !rep.ChangedOnly || rep.Omitted != 5_900 || rep.ChangedOmitted != 1_900 {
		t.Errorf("listed %d (changed only %v), omitted %d (%d changed); want 100 (true), 5900 (1900)",
			len(rep.Results), rep.ChangedOnly, rep.Omitted, rep.ChangedOmitted)
	}
	for _, r := range rep.Results {
		if !r.Changed {
			t.Fatalf("an unchanged decision is listed after the list filled: %+v", r)
		}
	}
	// Held whole (ReadAudit, then Replay), the 6,000 decoded records and
	// their results take over 6 MB; streamed, the heap grows by some 200 KB.
	if g.maxHeap > 2<<20 {
		t.Errorf("live heap grew by %d MB while replaying", g.maxHeap>>20)
	}
	var b strings.Builder
	if err := rep.WriteText(&b, output.Painter{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "6000 decisions replayed, 2000 changed, 1900 changed decisions not listed (a report lists at most 100000; replay a part of the log to see them)\n") {
		t.Errorf("text ends %q", b.String()[max(0, b.Len()-200):])
	}

	// Past the record bound, replay stops with a clear error.
	_, err = replayLog(e, p, &genLog{n: 50}, "audit.jsonl", Env{}, "/home/u", "/repo", replayLimits{results: 100, records: 10})
	if err == nil || !strings.Contains(err.Error(), "line 11: more than 10 records") || !strings.Contains(err.Error(), "replay a part of it") {
		t.Errorf("error %v, want the record bound at line 11", err)
	}
}

// TestReplayLogKeepsEverySmallLog: a log within the bound lists every
// decision, with its line in the file (blank and torn lines counted).
func TestReplayLogKeepsEverySmallLog(t *testing.T) {
	p := mustPolicy(t, "testdata/basic.yaml")
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	log := `{"session":"s","tool":"Bash","decision":"allow","args":{"command":"ls"}}` + "\n\n" +
		`{"session":"s","tool":"Bash","decision":"allow","args":{"command":"rm -rf b"}}` + "\n" + `{"session":"s","tool":"Ba`
	rep, err := ReplayLog(e, p, strings.NewReader(log), "audit.jsonl", Env{}, "/home/u", "/repo")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Replayed != 2 || rep.Changed != 1 || rep.Skipped != 1 || len(rep.Results) != 2 || rep.ChangedOnly || rep.Omitted != 0 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Results[0].Line != 1 || rep.Results[1].Line != 3 || !rep.Results[1].Changed {
		t.Errorf("results %+v, want lines 1 and 3, the second changed", rep.Results)
	}
}
