// Package atomicfile writes files so that readers see either the old
// content or the new, never a half-written file: the data goes to a
// temporary file in the same directory and is renamed over the target.
//
// Write also syncs the data before the rename, so the new content survives
// a power loss once Write returns; WriteUnsynced does not, for files that
// any run regenerates (compiled programs, traces), where an fsync per file
// was a large part of a short run's wall time.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data atomically and durably, creating the
// parent directories if needed. perm applies to a newly created file.
func Write(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, true)
}

// WriteUnsynced is Write without the sync: readers and a crash of vouch
// still see the old or the new content whole, but after a power loss the
// file may hold the old content or, on some file systems, be empty. Use it
// only for derived output that a rerun writes again.
func WriteUnsynced(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, false)
}

func write(path string, data []byte, perm os.FileMode, sync bool) error {
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
	var serr error
	if sync {
		serr = tmp.Sync()
	}
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
