// Package lazyre holds regular expressions that are compiled on first use.
//
// A package-level regexp.MustCompile runs in every vouch process that
// links the package, whatever the command: a guard hook paid for the
// patterns of SARIF output and YAML error messages it never uses. Start-up
// is most of a hook call's cost, so patterns are compiled when first
// needed instead.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is called
// and returns the same *regexp.Regexp from then on. expr must be valid:
// as with regexp.MustCompile, an invalid one panics, on first use.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
