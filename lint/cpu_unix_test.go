//go:build unix

package lint

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time: on a shared machine
// it varies far less than wall time, so runs are compared by it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
