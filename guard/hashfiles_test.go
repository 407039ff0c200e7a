//go:build unix

package guard

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestHashFilesListsEveryFile: every file a call wrote is listed, the
// ones not hashed with the reason: over the size cap (a sparse file, so
// nothing is read), not a regular file, or the deadline passed before it
// was reached. Before, such files were left out of files_written, and
// hashing had no deadline.
func TestHashFilesListsEveryFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxHashBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "gone")
	const sumX = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		path string
		want FileHash
	}{
		{"hashed", context.Background(), small, FileHash{Path: small, SHA256: sumX}},
		{"missing", context.Background(), gone, FileHash{Path: gone, Missing: true}},
		{"too large", context.Background(), big, FileHash{Path: big, Reason: UnhashedTooLarge}},
		{"fifo", context.Background(), fifo, FileHash{Path: fifo, Reason: UnhashedNotRegular}},
		{"deadline passed", cancelled, small, FileHash{Path: small, Reason: UnhashedDeadline}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HashFiles(tt.ctx, []string{tt.path})
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("got %+v, want [%+v]", got, tt.want)
			}
		})
	}
}

// TestPostEventRecordsLargeFile: a Write post event on a file over the
// size cap records the file in the audit line, marked too large.
func TestPostEventRecordsLargeFile(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	pol := filepath.Join(repo, "guard.yaml")
	if err := os.WriteFile(pol, []byte(cacheTestPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(repo, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxHashBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ev := `{"phase":"post","session_id":"s","call_id":"1","cwd":"` + repo + `","tool":"Write","args":{"file_path":"big.bin"}}`
	o := HookOptions{Harness: JSON, Policy: pol, Root: repo, Env: Env{}}
	if out := RunHook(context.Background(), e, strings.NewReader(ev), o); out.Err != nil {
		t.Fatal(out.Err)
	}
	b, err := os.ReadFile(filepath.Join(repo, ".vouch", "guard", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var rec AuditRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	want := FileHash{Path: big, Reason: UnhashedTooLarge}
	if len(rec.FilesWritten) != 1 || rec.FilesWritten[0] != want {
		t.Errorf("files_written %+v, want [%+v]", rec.FilesWritten, want)
	}
}
