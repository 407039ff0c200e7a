package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveLimits(t *testing.T) {
	root := t.TempDir()
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	six := []byte(strings.Repeat("x\n", 300))
	write("a.txt", six)
	write("copy.txt", six)
	if err := os.Link(filepath.Join(root, "a.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Skip(err)
	}
	// A sparse file: huge by size, nothing on disk. Refused by its size,
	// before a byte is read.
	f, err := os.Create(filepath.Join(root, "sparse.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil {
		t.Skip(err)
	}
	f.Close()
	sum := sha256.Sum256(six)
	want := hex.EncodeToString(sum[:])

	tests := []struct {
		name    string
		cites   []string
		lim     Limits
		wantErr string
	}{
		{"hard link hashed once", []string{"a.txt", "link.txt", "a.txt:1-2"}, Limits{MaxHashBytes: 1000}, ""},
		{"two copies exceed the budget", []string{"a.txt", "copy.txt"}, Limits{MaxHashBytes: 1000}, "more than 1000 bytes to hash"},
		{"sparse file over the default budget", []string{"sparse.bin"}, Limits{}, "sparse.bin alone is 3221225472 bytes"},
		{"too many citations", []string{"a", "b", "c", "a"}, Limits{MaxCitations: 2}, "cites 3 distinct citations (a path with lines counts apart from the bare path), more than the limit of 2"},
		{"at the citation limit", []string{"a", "b", "a"}, Limits{MaxCitations: 2}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			infos, err := Resolve(root, tt.cites, Options{Hash: true, Limits: tt.lim})
			if tt.wantErr != "" {
				var le *LimitError
				if !errors.As(err, &le) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want a LimitError with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range tt.cites {
				if i := infos[c]; i.Exists && i.SHA256 != want {
					t.Errorf("%s: sha256 %q, want %s", c, i.SHA256, want)
				}
			}
		})
	}
}

// BenchmarkMissing measures a citation of a path that does not exist:
// its cost must not grow with the number of other citations.
func BenchmarkMissing(b *testing.B) {
	root := b.TempDir()
	for _, n := range []int{1_000, 10_000} {
		cites := make([]string, n)
		for i := range cites {
			cites[i] = fmt.Sprintf("missing/dir%d/file%d.go", i%100, i)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Resolve(root, cites, Options{Hash: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/citation")
		})
	}
}
