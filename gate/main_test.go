package gate_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/vouch-dev/vouch/imports"
)

// TestMain points the import cache the gate writes at a directory of
// its own, so tests do not fill the user's cache directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vouch-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(imports.CacheDirEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
