package hugeheap

import (
	"runtime"
	"syscall"
)

// madvHugepage is MADV_HUGEPAGE from <linux/mman.h>; the syscall package
// does not name it on every architecture.
const madvHugepage = 14

// grow allocates n bytes in one piece, so the runtime maps them as one
// region, advises the region, and has the collector free it at once, so
// that pacing starts again from the live heap as it would have. The pages
// are never written here: nothing is faulted in until the heap reuses
// them. Under a memory limit (lint sets one) the freed room counts as
// held until the scavenger hands pages back to the kernel; for pages
// never touched that costs nothing, and the advice stays on the mapping.
// (debug.FreeOSMemory would hand everything back at once, but also the
// pages a run has already touched, which then fault again: 25k faults
// instead of 20k on the lint benchmark.) A kernel without transparent
// huge pages refuses the advice (EINVAL), which leaves the room mapped
// with small pages, as it would have been; grow reports whether the
// kernel took the advice.
func grow(n int64) bool {
	const huge = 2 << 20
	b := make([]byte, (n+huge-1)/huge*huge)
	err := syscall.Madvise(b, madvHugepage)
	runtime.KeepAlive(b)
	runtime.GC()
	return err == nil
}
