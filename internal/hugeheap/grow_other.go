//go:build !linux

package hugeheap

// grow does nothing where vouch knows no way to ask for huge pages.
func grow(int64) bool { return false }
