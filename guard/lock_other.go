//go:build !unix

package guard

import (
	"context"
	"errors"
	"os"
)

// lockFile refuses: without flock the session counts could be lost, and a
// guard that cannot count must not pretend to (the call is denied).
func lockFile(context.Context, *os.File) error {
	return errors.New("the guard session store needs flock(2), which this system lacks")
}
