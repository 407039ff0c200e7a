package shellfacts

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestGlobDirsBounded pins that a glob with wildcards in its directory
// part reads a bounded number of directories: /*/*/*/*/* once walked
// much of the file system before the match cap applied.
func TestGlobDirsBounded(t *testing.T) {
	root := t.TempDir()
	for i := range 24 {
		for j := range 24 {
			if err := os.MkdirAll(filepath.Join(root, fmt.Sprintf("a%02d", i), fmt.Sprintf("b%02d", j)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a00", "b00", "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Small: found in full.
	reads := 0
	got, complete := boundedGlob(root+"/a0[0]/b0[0]/*", &reads, 256, 256)
	if !complete || !slices.Equal(got, []string{root + "/a00/b00/f"}) {
		t.Errorf("boundedGlob small = %q, %v", got, complete)
	}
	// 1 + 24 + 576 directories to read: stops at the bound.
	reads = 0
	got, complete = boundedGlob(root+"/*/*/*", &reads, 256, 256)
	if complete || reads > 256 {
		t.Errorf("boundedGlob large: complete %v after %d reads (%d matches)", complete, reads, len(got))
	}
	f, err := Parse("cat "+root+"/*/*/*", Options{Cwd: root})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Incomplete || !slices.ContainsFunc(f.Unresolved, func(s string) bool { return strings.Contains(s, "directories") }) {
		t.Errorf("Parse large glob: Incomplete %v, Unresolved %q", f.Incomplete, f.Unresolved)
	}
	// The whole file system: quick, whatever it holds.
	for _, cmd := range []string{"cat /*/*/*/*/*", "cat /*/*/*/*/*/*", "cat /*/*/*/*/*/* /*/*/*/*/*/*/* /*/*/*/*/*/*/*/*"} {
		start := time.Now()
		if _, err := Parse(cmd, Options{Cwd: root}); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("Parse(%q) took %v", cmd, d)
		}
	}
}
