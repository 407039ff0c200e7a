//go:build !unix

package lint

import "time"

// cpuTime is unknown here; benchmarks report zero CPU time.
func cpuTime() time.Duration { return 0 }
