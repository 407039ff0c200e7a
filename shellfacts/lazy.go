package shellfacts

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr on first use. The patterns with bounded
// repetitions ({1,1000}) cost milliseconds to compile, and every vouch
// process links this package, while only a command that mentions sed, awk
// or inline code needs them: compiling at package init made each hook call
// pay ~12 ms before reading its event.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
