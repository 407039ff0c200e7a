// Package atomicfile writes files so that readers see either the old
// content or the new, never a half-written file: the data goes to a
// temporary file in the same directory and is renamed over the target.
//
// Write also syncs the data before the rename, so the new content survives
// a power loss once Write returns; WriteUnsynced does not, for files that
// any run regenerates (compiled programs, traces), where an fsync per file
// was a large part of a short run's wall time.
//
// A process killed between creating the temporary file and the rename
// leaves it behind. Temporary files are named after the target and the
// writing process (".NAME.vouch-tmp-PID-RANDOM"), in the target's own
// directory, so the next write of the same target finds them and removes
// those whose process is gone, or that are older than StaleAfter.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// StaleAfter is the age after which a temporary file is removed whatever
// its process: no write takes that long.
const StaleAfter = 10 * time.Minute

// tmpTag marks vouch's temporary files.
const tmpTag = ".vouch-tmp-"

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
	base := filepath.Base(path)
	removeStale(dir, base, time.Now())
	tmp, err := os.CreateTemp(dir, "."+base+tmpTag+strconv.Itoa(os.Getpid())+"-*")
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

// removeStale deletes temporary files an earlier write of base left in
// dir: ours (".base.vouch-tmp-PID-N") when PID is no longer running or
// the file is older than StaleAfter, and those of older vouch versions
// (".base.N", N all digits) older than StaleAfter. Only regular files are
// removed, and failures are ignored: cleaning up is best effort and must
// never fail the write.
func removeStale(dir, base string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + "."
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		old := now.Sub(info.ModTime()) > StaleAfter
		switch {
		case strings.HasPrefix(rest, tmpTag[1:]):
			pid, _, ok := strings.Cut(strings.TrimPrefix(rest, tmpTag[1:]), "-")
			n, err := strconv.Atoi(pid)
			if !ok || err != nil {
				continue
			}
			if old || (n != os.Getpid() && !alive(n)) {
				os.Remove(filepath.Join(dir, name))
			}
		case digits(rest) && old:
			os.Remove(filepath.Join(dir, name))
		}
	}
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
