package safeopen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
	fail := func(err error) (*os.File, error) {
		return nil, &Error{Path: filepath.Join(root, name), Err: err}
	}
	name = filepath.Clean(name)
	if !filepath.IsLocal(name) {
		return fail(ErrOutsideRoot)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	if err := realDirs(r, name, true); err != nil {
		return fail(err)
	}
	if fi, err := r.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fail(fmt.Errorf("%w (a symbolic link); remove it, vouch writes only to a regular file of its own", ErrLink))
	}
	f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_APPEND|nonBlock|noFollow, perm)
	if err != nil {
		if escapes(err) {
			err = ErrOutsideRoot
		} else if errors.Is(err, syscall.ELOOP) {
			err = fmt.Errorf("%w (a symbolic link); remove it, vouch writes only to a regular file of its own", ErrLink)
		}
		return fail(err)
	}
	st, err := regular(f)
	if err != nil {
		f.Close()
		return fail(err)
	}
	if n, ok := links(st); ok && n > 1 {
		f.Close()
		return fail(fmt.Errorf("%w (%d hard links to one file); remove it, vouch writes only to a file of its own", ErrLink, n))
	}
	return f, nil
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
