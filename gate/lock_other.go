//go:build !unix

package gate

// lockDir is a no-op where flock(2) is not available: concurrent gates
// into one output directory are then not serialized.
func lockDir(dir string) (func(), error) { return func() {}, nil }
