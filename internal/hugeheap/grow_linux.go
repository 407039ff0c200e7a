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
// with small pages, as it would have been; grow reports whether the
// kernel took the advice.
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
// heap is mapped in aligned chunks of this size, so the chunk holding
// any small heap object is the one the heap is allocating from.
const chunkBytes = 4 << 20

// first advises the chunk that holds a fresh heap object and collapses
// its two 2 MiB halves, and returns the chunk's address (0 if the kernel
// refused the advice). A half with no page touched yet gets its huge
// page on first touch from the advice alone; collapsing it fails
// (EINVAL) at once and costs nothing. Errors are ignored: a kernel that
// refuses leaves the pages as they were.
func first() uintptr {
	b := heapObject(64)
	base := uintptr(unsafe.Pointer(&b[0])) &^ (chunkBytes - 1)
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, base, chunkBytes, madvHugepage); e != 0 {
		return 0
	}
	const huge = 2 << 20
	for off := uintptr(0); off < chunkBytes; off += huge {
		syscall.Syscall(syscall.SYS_MADVISE, base+off, huge, madvCollapse)
	}
	runtime.KeepAlive(b)
	return base
}

// heapObject allocates n bytes on the heap: a size the compiler cannot
// see makes the slice escape.
//
//go:noinline
func heapObject(n int) []byte { return make([]byte, n) }
