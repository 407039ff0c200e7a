package lint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// Check reports the hash of every configuration byte it parsed and every
// artifact byte it wrote, keyed by the paths in Files and Artifacts, so a
// receipt never has to re-read them.
func TestCheckHashesWhatItRead(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"architecture.yaml": "nodes:\n  - {ref_id: a, kind: domain, source: src/a}\n  - {ref_id: b, kind: domain, source: src/b}\n" +
			"rules:\n  - name: a-b\n    deny: {from: {ref_id: a}, to: {ref_id: b}}\n",
		"src/a/x.py":        "from src.b import y\n",
		"src/b/y.py":        "Y = 1\n",
		"src/a/__init__.py": "",
		"src/b/__init__.py": "",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Check(context.Background(), root, Config{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) == 0 {
		t.Fatal("no configuration files reported")
	}
	want := func(p string) string {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		return hex.EncodeToString(sum[:])
	}
	for _, f := range rep.Files {
		if got := rep.FileSHA256[f]; got != want(f) {
			t.Errorf("FileSHA256[%s] = %q, want the hash of its bytes %q", f, got, want(f))
		}
	}
	if got := rep.Artifacts.ProgramSHA256; got != want(rep.Artifacts.Program) {
		t.Errorf("ProgramSHA256 = %q, want %q", got, want(rep.Artifacts.Program))
	}
	if got := rep.Artifacts.TraceSHA256; got != want(rep.Artifacts.Trace) {
		t.Errorf("TraceSHA256 = %q, want %q", got, want(rep.Artifacts.Trace))
	}
}
