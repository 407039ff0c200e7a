// Package hugeheap backs the Go heap with transparent huge pages: its
// first chunks at the start of a process (First), and the room a run
// that is about to allocate tens of megabytes will need (Grow).
//
// On the virtual machines vouch was measured on, the first touch of each
// fresh 4 KiB page costs the kernel 17-22 µs, so a run whose heap grows
// to 20 MB spent a third or more of its CPU time filling pages, while a
// 2 MiB huge page costs about as much as seven small faults (see
// docs/performance.md, "Sixth round"). Go asks for no huge pages for its
// heap, and it maps the heap in 4 MiB steps, each a new mapping that
// would lose any advice given before it. Grow therefore makes the heap
// map the room in one step, advises that mapping, and hands the room back
// to the heap, which then allocates from it as from any free memory.
package hugeheap

import (
	"os"
	"runtime/debug"
	"strings"
)

// Limits on what Grow asks for: below minBytes a run touches too few
// pages for huge pages to pay (a huge page costs the kernel more to fill
// than the few small pages a small run touches in it); above maxBytes the
// run is large enough that the heap's own growth dominates, and reserving
// more address space buys nothing.
const (
	minBytes = 4 << 20
	maxBytes = 256 << 20
)

// Grow readies about n bytes of heap, backed by huge pages where the
// kernel allows them. It does nothing when n is small, when the user
// turned huge pages off for Go (GODEBUG=disablethp=1) or for vouch
// (VOUCH_HUGEPAGES=0), or on systems without transparent huge pages.
// It allocates nothing the caller sees and changes no result, only how
// fast memory is first touched.
//
// With fresh memory that cheap, Grow also has the collector run less
// often (GOGC=200, unless the environment sets GOGC): the 1,000-predicate
// verify took 206-212 ms of CPU against 227-234 at the default 100, for
// 37 MB of memory instead of 36. GOGC=400 saved no more, and its heap
// outgrew the room at twice the input (7,600 page faults instead of
// 2,000, and 2.2 times the memory).
func Grow(n int64) {
	if n < minBytes || !wanted() {
		return
	}
	if grow(min(n, maxBytes)) == 0 {
		return
	}
	if _, set := os.LookupEnv("GOGC"); !set {
		if prev := debug.SetGCPercent(gcPercent); prev > gcPercent {
			debug.SetGCPercent(prev)
		}
	}
}

// gcPercent is the GOGC Grow sets.
const gcPercent = 200

// ForFiles is Grow for a run that loads the named files and holds about
// perByte bytes of heap for each byte they hold.
func ForFiles(perByte int64, paths ...string) { Grow(estimate(perByte, paths...)) }

// estimate is perByte times the files' total size, capped at maxBytes.
// Files that cannot be read count as empty: the loader that opens them
// reports the error.
func estimate(perByte int64, paths ...string) int64 {
	var total int64
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
	}
	if perByte <= 0 {
		return 0
	}
	return min(total, maxBytes/perByte) * perByte
}

// wanted reports whether the environment leaves huge pages on.
func wanted() bool {
	if os.Getenv("VOUCH_HUGEPAGES") == "0" {
		return false
	}
	for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if strings.TrimSpace(kv) == "disablethp=1" {
			return false
		}
	}
	return true
}

// First gives the heap's first 4 MiB huge pages, for a run that is
// small but not tiny: the shipped example's verify touches about 500
// fresh heap pages, 300 of them after main starts, in the first chunk
// the runtime maps. Package initialisation has already touched some of
// that chunk by then, and the kernel gives a huge page on first touch
// only to a range nothing has touched, so First also asks the kernel to
// collapse what is there into huge pages (MADV_COLLAPSE, Linux 6.1 and
// later), which costs 0.1-0.9 ms of copying against the 5 ms or more the
// small faults would have cost. It does nothing when the environment
// turns huge pages off (see Grow) or where the kernel refuses.
func First() {
	if !wanted() {
		return
	}
	first()
}
