package receipt

import (
	"os"
	"path/filepath"
	"testing"
)

// The receipt vouches for the architecture bytes that were evaluated: a file
// swapped on disk between the check and the receipt must not be re-read.
func TestAddArchitectureUsesParsedHashes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	arch := write("architecture.yaml", "swapped after the check\n")
	prog := write("lint.compiled.dl", "program on disk\n")
	trace := write("lint_evaluation.txt", "trace on disk\n")
	const parsed, written, traced = "aaaa", "bbbb", "cccc"
	tests := []struct {
		name      string
		sums      map[string]string
		wantArch  string
		wantProg  string
		wantTrace string
	}{
		{"parsed bytes win", map[string]string{arch: parsed, prog: written, trace: traced}, parsed, written, traced},
		{"unknown paths fall back to disk", nil, sha(t, arch), sha(t, prog), sha(t, trace)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Receipt{}
			in := ArchInputs{Files: []string{arch}, Program: prog, Trace: trace, SHA256: tt.sums}
			if err := r.AddArchitecture(filepath.Join(dir, FileName), in, false, false, "pass"); err != nil {
				t.Fatal(err)
			}
			a := r.Architecture
			if a.Files[0].SHA256 != tt.wantArch || a.Program.SHA256 != tt.wantProg || a.Trace.SHA256 != tt.wantTrace {
				t.Errorf("got arch %s program %s trace %s, want %s %s %s",
					a.Files[0].SHA256, a.Program.SHA256, a.Trace.SHA256, tt.wantArch, tt.wantProg, tt.wantTrace)
			}
		})
	}
}

func sha(t *testing.T, p string) string {
	t.Helper()
	s, err := hashFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
