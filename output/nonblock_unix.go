//go:build unix

package output

import (
	"errors"
	"syscall"
)

// nonBlock opens a FIFO for writing without waiting for a reader.
const nonBlock = syscall.O_NONBLOCK

// noReader reports whether err is what such an open returns when no
// process has the FIFO open for reading.
func noReader(err error) bool { return errors.Is(err, syscall.ENXIO) }
