package hugeheap

import (
	"runtime"
	"syscall"
	"unsafe"
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
// with small pages, as it would have been; grow returns the room's
// address if the kernel took the advice, else 0.
func grow(n int64) uintptr {
	const huge = 2 << 20
	b := make([]byte, (n+huge-1)/huge*huge)
	err := syscall.Madvise(b, madvHugepage)
	base := uintptr(unsafe.Pointer(&b[0]))
	runtime.KeepAlive(b)
	runtime.GC()
	if err != nil {
		return 0
	}
	return base
}

// madvCollapse is MADV_COLLAPSE from <linux/mman.h> (Linux 6.1).
const madvCollapse = 25

// chunkBytes is the runtime's heap mapping unit (pallocChunkBytes): the
// heap is mapped in aligned chunks of this size. arenaBytes is the size
// of the aligned regions the runtime reserves for its heap
// (heapArenaBytes on 64-bit Linux): two chunks in one arena are both
// heap, or not yet mapped.
const (
	chunkBytes = 4 << 20
	arenaBytes = 64 << 20
)

// first advises the heap chunk that holds a fresh heap object, and the
// chunk after it, and collapses their 2 MiB halves; it returns the first
// chunk's address (0 if the kernel refused the advice). The runtime
// starts the heap at a random place, so the pages a run uses can run on
// from one chunk into the next: advising only the first left a third of
// the runs measured with no gain. The next chunk may not be mapped yet
// (the advice fails with ENOMEM), and then what the runtime maps there
// later comes without advice. A half nothing has touched yet gets its
// huge page on first touch from the advice alone; collapsing it fails
// at once (EINVAL). Errors are otherwise ignored: a kernel that refuses
// leaves the pages as they were.
func first() uintptr {
	b := heapObject(64)
	base := uintptr(unsafe.Pointer(&b[0])) &^ (chunkBytes - 1)
	if madvise(base, chunkBytes, madvHugepage) != 0 {
		return 0
	}
	end := base + chunkBytes
	if next := base + chunkBytes; next&^(arenaBytes-1) == base&^(arenaBytes-1) && madvise(next, chunkBytes, madvHugepage) == 0 {
		end = next + chunkBytes
	}
	const huge = 2 << 20
	for p := base; p < end; p += huge {
		madvise(p, huge, madvCollapse)
	}
	runtime.KeepAlive(b)
	return base
}

// madvise is madvise(2) on an address range the Go heap owns, which the
// syscall package only takes as a slice.
func madvise(addr, n uintptr, advice int) syscall.Errno {
	_, _, e := syscall.Syscall(syscall.SYS_MADVISE, addr, n, uintptr(advice))
	return e
}

// heapObject allocates n bytes on the heap: the compiler puts a slice
// whose size it cannot see there.
//
//go:noinline
func heapObject(n int) []byte { return make([]byte, n) }
