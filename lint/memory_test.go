package lint

import (
	"runtime/debug"
	"testing"
)

// TestRoomForFacts: an evaluation from many facts raises the memory limit
// to bytesPerFact each; a small one keeps the base limit.
func TestRoomForFacts(t *testing.T) {
	prev := debug.SetMemoryLimit(baseMemoryLimit)
	defer debug.SetMemoryLimit(prev)
	for _, tc := range []struct {
		facts int
		want  int64
	}{
		{1000, baseMemoryLimit},
		{100_000, baseMemoryLimit},
		{210_000, 210_000 * bytesPerFact},
	} {
		debug.SetMemoryLimit(baseMemoryLimit)
		roomForFacts(tc.facts)
		if got := debug.SetMemoryLimit(-1); got != tc.want {
			t.Errorf("roomForFacts(%d): limit %d, want %d", tc.facts, got, tc.want)
		}
	}
}
