//go:build !unix

package output

// nonBlock: this system has no FIFOs to wait on.
const nonBlock = 0

// noReader: nor readers to miss.
func noReader(error) bool { return false }
