package hugeheap

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// TestGrowAdvises: after Grow, some mapping of at least the size asked
// for carries the huge-page advice (VmFlags "hg" in /proc/self/smaps).
func TestGrowAdvises(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages")
	}
	t.Setenv("VOUCH_HUGEPAGES", "")
	t.Setenv("GODEBUG", "")
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC") // t.Setenv restores it
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	const n = 16 << 20
	before := advised(t)
	Grow(n)
	after := advised(t)
	if after < before+n {
		t.Errorf("advised bytes %d before Grow(%d), %d after: want at least %d more", before, n, after, n)
	}
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC after Grow = %d, want %d", got, gcPercent)
	}
	// GOGC in the environment is the user's choice, kept.
	t.Setenv("GOGC", "100")
	Grow(n)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC=100 in the environment: GOGC after Grow = %d, want 100", got)
	}
}

// advised totals the sizes of this process's mappings that carry
// MADV_HUGEPAGE.
func advised(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var total, size int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "Size:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			size = kb << 10
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			for _, fl := range strings.Fields(rest) {
				if fl == "hg" {
					total += size
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}
