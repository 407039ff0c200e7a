package safeopen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// OpenOwn opens name, a relative path below the directory root, for
// reading one of vouch's own state files (the guard's audit log) with the
// same refusals as Append: the directories on the way must be real
// directories below root, and the file a regular file with a single link,
// opened with O_NOFOLLOW and without blocking. The guard never writes to
// anything else there, so anything else (a symlink to another file, a
// hard link, a FIFO an agent planted) is not the state vouch wrote and is
// refused with ErrLink, ErrNotRegular or ErrOutsideRoot instead of read.
// A missing file or directory is an *Error wrapping fs.ErrNotExist. The
// caller closes the file.
func OpenOwn(root, name string) (*os.File, fs.FileInfo, error) {
	return openOwn(root, name, os.O_RDONLY, 0, false, "vouch reads only the regular file the guard wrote itself")
}

// openOwn opens a file of vouch's own below root with flag (O_NOFOLLOW
// and non-blocking added), refusing what is not the file vouch wrote: a
// directory on the way that is not a real directory (create makes the
// missing ones), a symbolic link, something other than a regular file, or
// a file with more than one link. why ends each refusal's message.
func openOwn(root, name string, flag int, perm fs.FileMode, create bool, why string) (*os.File, fs.FileInfo, error) {
	fail := func(err error) (*os.File, fs.FileInfo, error) {
		return nil, nil, &Error{Path: filepath.Join(root, name), Err: err}
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
	if err := realDirs(r, name, create); err != nil {
		return fail(err)
	}
	link := fmt.Errorf("%w (a symbolic link); remove it, %s", ErrLink, why)
	if fi, err := r.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fail(link)
	}
	f, err := r.OpenFile(name, flag|nonBlock|noFollow, perm)
	if err != nil {
		if escapes(err) {
			err = ErrOutsideRoot
		} else if errors.Is(err, syscall.ELOOP) {
			err = link
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
		return fail(fmt.Errorf("%w (%d hard links to one file); remove it, %s", ErrLink, n, why))
	}
	return f, st, nil
}
