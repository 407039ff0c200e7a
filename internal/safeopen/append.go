package safeopen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrLink: a file vouch writes its own state to, or a directory on the way
// to it, is a symbolic link or has other hard links, so writing would change
// some other file (an agent that plants .vouch/guard/audit.jsonl ->
// ~/.bashrc would have vouch append to it).
var ErrLink = errors.New("is a link")

// Append opens name, a relative path below the directory root, for
// appending vouch's own state (audit log, session logs), creating the file
// and its directories as needed. It refuses, with ErrLink, ErrNotRegular or
// ErrOutsideRoot, anything but a real directory chain below root ending in
// a regular file with a single link: every directory is checked with lstat
// and created through an os.Root, the file is opened with O_NOFOLLOW and
// without blocking, and its mode and link count are checked on the open
// descriptor. The file is opened read-write so a caller can read what is
// there under a lock before appending.
func Append(root, name string, perm fs.FileMode) (*os.File, error) {
	f, _, err := openOwn(root, name, os.O_RDWR|os.O_CREATE|os.O_APPEND, perm, true, "vouch writes only to a regular file of its own")
	return f, err
}

// realDirs checks, with lstat through r, that every directory on the way
// to name is a real directory and not a link; create makes the missing
// ones, else a missing one is fs.ErrNotExist.
func realDirs(r *os.Root, name string, create bool) error {
	parts := strings.Split(filepath.ToSlash(name), "/")
	dir := ""
	for _, p := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, p)
		fi, err := r.Lstat(dir)
		switch {
		case create && errors.Is(err, fs.ErrNotExist):
			if err := r.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("creating %s: %w", dir, err)
			}
			if fi, err = r.Lstat(dir); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s %w (a symbolic link); remove it so vouch can keep its state in a real directory", dir, ErrLink)
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is %s, not a directory", dir, Kind(fi.Mode()))
		}
	}
	return nil
}
