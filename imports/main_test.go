package imports

import (
	"fmt"
	"os"
	"testing"
)

// TestMain points the import cache at a directory of its own, so tests
// neither read nor fill the user's cache directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vouch-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(CacheDirEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
