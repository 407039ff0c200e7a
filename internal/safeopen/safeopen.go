// Package safeopen opens the files vouch reads (envelopes, rulespecs,
// vouch.yaml, receipts, cited evidence) as untrusted: anything an agent can
// create in the working tree may sit where a file is expected.
//
// Every open is non-blocking and followed by an fstat, so a named pipe, a
// device or a directory is refused at once instead of hanging the process
// (a Stop hook that never answers lets the agent stop). A path that came
// from configuration is opened through an os.Root, so neither ".." nor a
// symlink can make vouch read outside the repository; only a path the user
// typed on the command line is opened as given. Reads are capped, and Read
// returns the exact bytes it read with their sha256, so a caller parses and
// hashes the same bytes and never needs to read the file a second time.
package safeopen

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Errors a caller can test for with errors.Is.
var (
	// ErrNotRegular: the path names a named pipe, socket, device or
	// directory, not a regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file holds more bytes than the cap.
	ErrTooLarge = errors.New("file too large")
	// ErrOutsideRoot: the path, or a symlink on it, leads outside the
	// repository root.
	ErrOutsideRoot = errors.New("outside the repository root")
)

// Options say how to open one input.
type Options struct {
	// Root confines the path to this directory: the path (relative to the
	// working directory, or absolute) must lie under it, and is opened
	// through an os.Root so symlinks cannot lead out. "" opens the path
	// as given, for a path the user named explicitly.
	Root string
	// MaxBytes caps the bytes read; a larger file is ErrTooLarge. Zero
	// or less means no cap, which only callers that stream should use.
	MaxBytes int64
}

// File is an input read whole.
type File struct {
	// Path is the path as the caller gave it.
	Path string
	// Data are the exact bytes read.
	Data []byte
	// SHA256 is the hex sha256 of Data.
	SHA256 string
}

// Error is a failure to open or read one input. Err is one of the
// package's sentinels or the OS error.
type Error struct {
	Path string
	Err  error
}

// Error names the path and the reason.
func (e *Error) Error() string { return e.Path + ": " + Reason(e.Err) }

// Unwrap returns the reason, so errors.Is sees fs.ErrNotExist and the
// package's sentinels.
func (e *Error) Unwrap() error { return e.Err }

// Reason is err without the path, in words: a not-regular file says what it
// is instead.
func Reason(err error) string {
	var ke *kindError
	if errors.As(err, &ke) {
		return ke.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, ErrOutsideRoot) {
			return ErrOutsideRoot.Error()
		}
		return pe.Err.Error()
	}
	return err.Error()
}

// kindError is ErrNotRegular, naming what was found instead.
type kindError struct{ mode fs.FileMode }

func (e *kindError) Error() string {
	return fmt.Sprintf("%s but %s; vouch reads only regular files", ErrNotRegular, Kind(e.mode))
}

func (e *kindError) Unwrap() error { return ErrNotRegular }

// Kind names a file mode's type in words.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// Open opens path for reading without blocking and checks, on the open
// descriptor, that it is a regular file. The caller closes the file.
func Open(path string, opts Options) (*os.File, fs.FileInfo, error) {
	var f *os.File
	var err error
	if opts.Root == "" {
		f, err = os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	} else {
		var rel string
		if rel, err = within(opts.Root, path); err == nil {
			var r *os.Root
			if r, err = os.OpenRoot(opts.Root); err == nil {
				f, err = r.OpenFile(rel, os.O_RDONLY|nonBlock, 0)
				r.Close()
				if err != nil && escapes(err) {
					err = ErrOutsideRoot
				}
			}
		}
	}
	if err != nil {
		return nil, nil, &Error{Path: path, Err: err}
	}
	st, err := regular(f)
	if err != nil {
		f.Close()
		return nil, nil, &Error{Path: path, Err: err}
	}
	return f, st, nil
}

// OpenIn opens name, relative to r, as Open does.
func OpenIn(r *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		if escapes(err) {
			err = ErrOutsideRoot
		}
		return nil, nil, &Error{Path: name, Err: err}
	}
	st, err := regular(f)
	if err != nil {
		f.Close()
		return nil, nil, &Error{Path: name, Err: err}
	}
	return f, st, nil
}

// Read opens path as Open does and reads it whole, up to opts.MaxBytes.
func Read(path string, opts Options) (*File, error) {
	f, _, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(path, f, opts.MaxBytes)
}

// ReadIn reads name, relative to r, as Read does.
func ReadIn(r *os.Root, name string, max int64) (*File, error) {
	f, _, err := OpenIn(r, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(name, f, max)
}

func readAll(path string, f *os.File, max int64) (*File, error) {
	var src io.Reader = f
	if max > 0 {
		src = io.LimitReader(f, max+1)
	}
	data, err := io.ReadAll(src)
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	if max > 0 && int64(len(data)) > max {
		return nil, &Error{Path: path, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)}
	}
	sum := sha256.Sum256(data)
	return &File{Path: path, Data: data, SHA256: hex.EncodeToString(sum[:])}, nil
}

// regular checks the open file's own mode: checking the path first and
// opening after would let the path change in between.
func regular(f *os.File) (fs.FileInfo, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &kindError{st.Mode()}
	}
	return st, nil
}

// within returns path relative to root, refusing a path that is not under
// it. Both are taken relative to the working directory.
func within(root, path string) (string, error) {
	ar, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	ap, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(ar, ap)
	if err != nil || !filepath.IsLocal(rel) {
		return "", ErrOutsideRoot
	}
	return rel, nil
}

// escapes reports whether err is os.Root refusing a path that leaves it.
// The os package does not export that error, so its text is the only way
// to tell.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent"
}

// FileID is a file's identity on its device, whatever name reached it.
type FileID struct{ Dev, Ino uint64 }
