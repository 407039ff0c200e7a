package hugeheap

import (
	"bufio"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestGrowAdvises: after grow, the room it made carries the huge-page advice (VmFlags "hg" in /proc/self/smaps).
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
	base := grow(n)
	if base == 0 {
		t.Fatal("grow: the kernel refused the advice")
	}
	for _, addr := range []uint64{uint64(base), uint64(base) + n - 1} {
		if !advisedAt(t, addr) {
			t.Errorf("grow(%d)'s room at %#x is not advised at %#x", n, base, addr)
		}
	}
	Grow(n)
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

// TestFirstAdvises: after First, the mapping holding a fresh heap object
// carries the huge-page advice. (The switches that turn First off are
// wanted's, tested in TestWanted: a mapping advised by an earlier test
// cannot be told from one First advised.)
func TestFirstAdvises(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages")
	}
	t.Setenv("VOUCH_HUGEPAGES", "")
	t.Setenv("GODEBUG", "")
	base := first()
	if base == 0 {
		t.Fatal("first: the kernel refused the advice")
	}
	for _, addr := range []uint64{uint64(base), uint64(base + chunkBytes - 1)} {
		if !advisedAt(t, addr) {
			t.Errorf("the heap chunk at %#x is not advised at %#x after first", base, addr)
		}
	}
}

// advisedAt reports whether the mapping holding addr carries
// MADV_HUGEPAGE (VmFlags "hg" in /proc/self/smaps).
func advisedAt(t *testing.T, addr uint64) bool {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return slices.Contains(strings.Fields(rest), "hg")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping holds %#x", addr)
	return false
}

// mappingRange parses the "lo-hi perms ..." header line of an smaps entry.
func mappingRange(line string) (lo, hi uint64, ok bool) {
	r, _, found := strings.Cut(line, " ")
	if !found {
		return 0, 0, false
	}
	l, h, found := strings.Cut(r, "-")
	if !found {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseUint(l, 16, 64)
	hi, err2 := strconv.ParseUint(h, 16, 64)
	return lo, hi, err1 == nil && err2 == nil
}
