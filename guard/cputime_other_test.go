//go:build !unix

package guard

import "testing"

// reportCPU reports nothing where getrusage is not available.
func reportCPU(b *testing.B) (stop func()) { return func() {} }
