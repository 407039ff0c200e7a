//go:build !linux

package hugeheap

// grow does nothing where vouch knows no way to ask for huge pages.
func grow(int64) uintptr { return 0 }

// first does nothing where vouch knows no way to ask for huge pages.
func first() uintptr { return 0 }
