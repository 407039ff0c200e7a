//go:build !linux

package hookd

import (
	"os"

	"github.com/vouch-dev/vouch/internal/hookwire"
)

// lockExclusive is hookwire.ErrUnsupported outside Linux, where the
// server does not run.
func lockExclusive(string) (*os.File, error) { return nil, hookwire.ErrUnsupported }
