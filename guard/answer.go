package guard

import "io"

// Write delivers the answer to the harness, its bytes to stdout and
// stderr, and returns the exit code it carries, so vouch guard and
// vouch-guard answer byte for byte alike. Write errors are ignored: the
// harness is gone, and the exit code is all that can still reach it.
func (a Answer) Write(stdout, stderr io.Writer) int {
	stdout.Write(a.Stdout)
	stderr.Write(a.Stderr)
	return a.Exit
}
