package repofacts

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// BenchmarkCollect times Collect on a real repository as it is:
// VOUCH_BENCH_REPO, else the repository holding this package. Every file
// of the base tree is read and hashed on each run, so the cost grows with
// the tree's size, not only with the size of the change.
//
//	VOUCH_BENCH_REPO=/path/to/clone go test ./repofacts -run '^$' -bench Collect -benchtime 10x
func BenchmarkCollect(b *testing.B) {
	root := os.Getenv("VOUCH_BENCH_REPO")
	if root == "" {
		root = ".."
	}
	for _, stateOnly := range []bool{true, false} {
		b.Run(fmt.Sprintf("state_only=%v", stateOnly), func(b *testing.B) {
			for b.Loop() {
				if _, err := Collect(context.Background(), Options{Root: root, StateOnly: stateOnly}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
