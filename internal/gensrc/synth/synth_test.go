package synth

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateDeterministicAndSized(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	opts := Options{FilesPerLang: 25, TargetSize: 4000, Seed: 7}
	sa, err := Generate(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Generate(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sa != sb {
		t.Fatalf("stats differ: %+v vs %+v", sa, sb)
	}
	perLang := map[string]int{}
	filepath.Walk(a, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(a, p)
		other, err := os.ReadFile(filepath.Join(b, rel))
		mine, _ := os.ReadFile(p)
		if err != nil || !bytes.Equal(mine, other) {
			t.Errorf("%s differs between runs with the same seed", rel)
		}
		ext := filepath.Ext(p)
		if ext == ".go" || ext == ".js" || ext == ".ts" || ext == ".rs" || (ext == ".py" && !strings.HasSuffix(p, "__init__.py") && !strings.HasSuffix(p, "shared.py")) {
			perLang[ext]++
			if len(mine) < opts.TargetSize {
				t.Errorf("%s is %d bytes, want at least %d", rel, len(mine), opts.TargetSize)
			}
		}
		return nil
	})
	want := map[string]int{".go": 25, ".py": 25, ".js": 25, ".ts": 25, ".rs": 25}
	for ext, n := range want {
		if perLang[ext] != n {
			t.Errorf("%d %s files, want %d", perLang[ext], ext, n)
		}
	}
}
