// Package parallel runs independent pieces of work by index on a few
// goroutines: each index once, results written by the caller into its own
// slot, so the outcome does not depend on scheduling.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for every i in [0, n), on at most workers goroutines
// (GOMAXPROCS when workers <= 0), and returns when every call has.
// Indexes are handed out in order, one at a time, so uneven pieces of
// work balance across the goroutines.
func For(n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
