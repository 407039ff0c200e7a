package hugeheap

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWanted(t *testing.T) {
	tests := []struct {
		hugepages, godebug string
		want               bool
	}{
		{"", "", true},
		{"1", "", true},
		{"0", "", false},
		{"", "disablethp=1", false},
		{"", "madvdontneed=1, disablethp=1", false},
		{"", "disablethp=0", true},
		{"", "xdisablethp=1", true},
	}
	for _, tt := range tests {
		t.Setenv("VOUCH_HUGEPAGES", tt.hugepages)
		t.Setenv("GODEBUG", tt.godebug)
		if got := wanted(); got != tt.want {
			t.Errorf("VOUCH_HUGEPAGES=%q GODEBUG=%q: wanted() = %v, want %v", tt.hugepages, tt.godebug, got, tt.want)
		}
	}
}

func TestEstimate(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	b := filepath.Join(dir, "b")
	if err := os.WriteFile(a, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, make([]byte, 24), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		perByte int64
		paths   []string
		want    int64
	}{
		{"two files", 10, []string{a, b}, 10240},
		{"a missing file counts as empty", 10, []string{a, filepath.Join(dir, "missing")}, 10000},
		{"a directory counts as empty", 10, []string{dir, b}, 240},
		{"capped", maxBytes / 100, []string{a}, maxBytes / 100 * 100},
		{"no files", 10, nil, 0},
		{"no heap per byte", 0, []string{a}, 0},
	}
	for _, tt := range tests {
		if got := estimate(tt.perByte, tt.paths...); got != tt.want {
			t.Errorf("%s: estimate = %d, want %d", tt.name, got, tt.want)
		}
	}
}
