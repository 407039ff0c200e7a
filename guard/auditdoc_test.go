package guard

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// auditLog writes the audit log of a new repository and returns its root.
func auditLog(t *testing.T, lines ...string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".vouch", "guard"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(AuditPath(root), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// rec is one post record of session writing files.
func rec(session, tool string, files ...string) string {
	r := AuditRecord{Session: session, Tool: tool, Phase: Post, Decision: Allow}
	for _, f := range files {
		r.FilesWritten = append(r.FilesWritten, FileHash{Path: f, SHA256: "00"})
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// TestReadAuditDocument: which records the document holds, and that no
// log, no records, or a session without records is an error rather than a
// document that passes every rule bounding what the agent did.
func TestReadAuditDocument(t *testing.T) {
	s9 := []string{rec("s9", "Write", "src/a.go"), rec("s9", "Edit", "src/b.go")}
	// A record for a fresh session appended after the agent's own, as
	// running vouch guard from a background job does.
	forged := append(slices.Clone(s9), rec("fresh", "Write", "src/a.go"))
	tests := []struct {
		name      string
		lines     []string // nil: no log at all
		opts      AuditDocOptions
		wantFiles []string
		wantErr   string
	}{
		{name: "every session by default", lines: s9, wantFiles: []string{"src/a.go", "src/b.go"}},
		{name: "a forged later session does not replace the agent's", lines: forged, wantFiles: []string{"src/a.go", "src/b.go"}},
		{name: "the session asked for", lines: forged, opts: AuditDocOptions{Session: "s9"}, wantFiles: []string{"src/a.go", "src/b.go"}},
		{name: "only the session asked for", lines: forged, opts: AuditDocOptions{Session: "fresh"}, wantFiles: []string{"src/a.go"}},
		{name: "a session with no records", lines: s9, opts: AuditDocOptions{Session: "s8"}, wantErr: `no record of session "s8": check that --session`},
		{name: "no log", wantErr: "there is no guard audit log"},
		{name: "an empty log", lines: []string{""}, wantErr: "no records: the guard recorded no tool call"},
		{name: "only torn lines", lines: []string{`{"session":"s9","tool":"Wr`}, wantErr: "no records"},
		{name: "a torn line is skipped", lines: append(slices.Clone(s9), `{"session":"s9","tool":"Wr`), wantFiles: []string{"src/a.go", "src/b.go"}},
		{name: "files within the element bound", lines: s9, opts: AuditDocOptions{MaxElements: 2}, wantFiles: []string{"src/a.go", "src/b.go"}},
		{name: "files past the element bound", lines: []string{rec("s9", "Write", "a", "b", "c")}, opts: AuditDocOptions{MaxElements: 2},
			wantErr: "line 1: the log has more than 2 files written; vouch refuses it rather than exhaust memory; raise the limit with --max-elements"},
		{name: "calls past the element bound", lines: []string{rec("s9", "Read"), rec("s9", "Read"), rec("s9", "Read")}, opts: AuditDocOptions{Session: "s9", MaxElements: 2},
			wantErr: `line 3: session "s9" has more than 2 calls`},
		{name: "sessions past the element bound", lines: []string{rec("a", "Read"), `{"session":"b"}`, `{"session":"c"}`}, opts: AuditDocOptions{MaxElements: 2},
			wantErr: "line 3: the log has more than 2 sessions; vouch refuses it rather than exhaust memory; raise the limit with --max-elements if the log is meant to be this large"},
		{name: "other sessions do not count against the bound", lines: []string{rec("x", "Write", "a", "b", "c"), rec("s9", "Write", "a")},
			opts: AuditDocOptions{Session: "s9", MaxElements: 2}, wantFiles: []string{"a"}},
		{name: "a log over the size cap", lines: s9, opts: AuditDocOptions{MaxBytes: 100}, wantErr: "more than the 100 vouch reads: move it aside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.lines != nil {
				root = auditLog(t, tt.lines...)
			}
			data, err := ReadAuditDocument(root, tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var doc AuditDoc
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(doc.FilesWritten, tt.wantFiles) {
				t.Errorf("files_written %q, want %q", doc.FilesWritten, tt.wantFiles)
			}
			if doc.Session != tt.opts.Session {
				t.Errorf("session %q, want %q", doc.Session, tt.opts.Session)
			}
		})
	}
}

// TestReadAuditDocumentPlanted: a FIFO, a symlink or a hard link where the
// log should be is refused at once, never waited on nor followed out of
// the repository.
func TestReadAuditDocumentPlanted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs, symlinks need privileges")
	}
	outside := filepath.Join(t.TempDir(), "clean.jsonl")
	if err := os.WriteFile(outside, []byte(rec("s9", "Write", "src/a.go")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		plant   func(path string) error
		wantErr string
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "named pipe (FIFO); vouch reads only regular files"},
		{"symlink out of the root", func(p string) error { return os.Symlink(outside, p) }, "is a link (a symbolic link)"},
		{"hard link", func(p string) error { return os.Link(outside, p) }, "is a link (2 hard links to one file)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, ".vouch", "guard"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tt.plant(AuditPath(root)); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := ReadAuditDocument(root, AuditDocOptions{})
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "audit log: ") {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("ReadAuditDocument blocked")
			}
		})
	}
}

// TestReadAuditDocumentStreams: a log of huge records is refused at the
// element bound before it is decoded whole; the bound is per document, not
// per record read.
func TestReadAuditDocumentStreams(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"session":"s9","tool":"Write","phase":"post","decision":"allow","files_written":[`)
	for i := range 200_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"path":"src/f%d.go","sha256":"00"}`, i)
	}
	b.WriteString("]}")
	root := auditLog(t, b.String(), b.String(), b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ReadAuditDocument(root, AuditDocOptions{MaxElements: 1000})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "line 1: the log has more than 1000 files written") {
		t.Fatalf("error %v, want the element bound at line 1", err)
	}
	// The three lines hold 600,000 entries; decoded whole they take
	// well over 50 MB.
	if got := after.TotalAlloc - before.TotalAlloc; got > 50<<20 {
		t.Errorf("allocated %d MB before refusing", got>>20)
	}
}

// TestReadAuditDocumentManySessions: a log of one real call and a flood of
// one-line records for distinct sessions (each too small for the calls or
// files bounds to see) stops at the element bound instead of building a
// set of every session in the log.
func TestReadAuditDocumentManySessions(t *testing.T) {
	var b strings.Builder
	b.WriteString(rec("s9", "Write", "src/a.go"))
	for i := range 300_000 {
		fmt.Fprintf(&b, "\n{\"session\":\"%09d\"}", i)
	}
	root := auditLog(t, b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ReadAuditDocument(root, AuditDocOptions{MaxElements: 1000})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "line 1001: the log has more than 1000 sessions") {
		t.Fatalf("error %v, want the element bound at line 1001", err)
	}
	// Read to the end, the 300,000 records allocate over 100 MB
	// (decoding each, and the set of their sessions).
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("allocated %d MB before refusing", got>>20)
	}
}
