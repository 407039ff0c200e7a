//go:build unix

package guard

import (
	"syscall"
	"testing"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds a cpu-ns/op metric: on a shared machine the wall time
// of ns/op includes time the process waited for a core, CPU time does not.
// Call it just before the timed loop and call what it returns just after.
func reportCPU(b *testing.B) (stop func()) {
	start := processCPU()
	return func() {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	}
}
