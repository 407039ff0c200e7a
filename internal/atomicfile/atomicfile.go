// Package atomicfile writes files so that readers see either the old
// content or the new, never a half-written file: the data goes to a
// temporary file in the same directory, is synced, and is renamed over the
// target.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data atomically, creating the parent
// directories if needed. perm applies to a newly created file.
func Write(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	for _, err := range []error{werr, serr, cerr, os.Chmod(name, perm)} {
		if err != nil {
			os.Remove(name)
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
