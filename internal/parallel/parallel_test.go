package parallel

import (
	"sync/atomic"
	"testing"
)

// TestFor: every index is handed out exactly once, whatever the number of
// workers, including none to do and more workers than work.
func TestFor(t *testing.T) {
	for _, tt := range []struct{ n, workers int }{{0, 2}, {1, 0}, {5, 1}, {3, 8}, {1000, 4}} {
		counts := make([]atomic.Int32, tt.n)
		For(tt.n, tt.workers, func(i int) { counts[i].Add(1) })
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Errorf("n=%d workers=%d: index %d ran %d times", tt.n, tt.workers, i, c)
			}
		}
	}
}
