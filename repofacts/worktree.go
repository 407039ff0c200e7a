package repofacts

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"

	"github.com/vouch-dev/vouch/internal/fsstat"
	"github.com/vouch-dev/vouch/internal/safeopen"
)

// Git file modes as the index and trees spell them.
const (
	modeFile    = "100644"
	modeExec    = "100755"
	modeSymlink = "120000"
	modeGitlink = "160000"
)

// objectFormat hashes blobs the way the repository names its objects:
// git's id of a blob is the hash of "blob <size>\x00" and the content.
type objectFormat struct {
	name string
	new  func() hash.Hash
}

func formatOf(name string) (objectFormat, error) {
	switch name {
	case "sha1":
		return objectFormat{name: name, new: sha1.New}, nil
	case "sha256":
		return objectFormat{name: name, new: sha256.New}, nil
	}
	return objectFormat{}, fmt.Errorf("the repository's object format %q is not one vouch knows (sha1, sha256); use a repository git and vouch both read", name)
}

// blobID is the id of a blob holding data.
func (f objectFormat) blobID(data []byte) string {
	h := f.new()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// workEntry is a path as the working tree has it: its git mode and blob
// id, or absent (deleted, a directory now, or not a file git stores).
type workEntry struct {
	mode, id string
	present  bool
}

// hashWork reads one working-tree path and returns its entry: a regular
// file's content hashed as a blob, with mode 100755 when its owner may
// execute it, and a symbolic link's target as git stores it. Nothing the
// repository configures (clean filters, end-of-line conversion, the
// index's cached stat data) takes part: the ids are of the bytes on disk.
// keepMode is the mode git last recorded, used where the file system has
// no executable bit to read.
//
// added says the base lacks the path: a regular file larger than
// MaxWorkFileBytes is then refused before it is read.
func hashWork(f objectFormat, full, keepMode string, added bool, hashes *Hashes, buf []byte) (workEntry, error) {
	fi, err := os.Lstat(full)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return workEntry{}, nil
		}
		return workEntry{}, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(full)
		if err != nil {
			return workEntry{}, err
		}
		return workEntry{mode: modeSymlink, id: f.blobID([]byte(t)), present: true}, nil
	case fi.Mode().IsRegular():
		mode := modeFile
		if fi.Mode()&0o100 != 0 {
			mode = modeExec
		}
		if runtime.GOOS == "windows" && keepMode == modeExec {
			mode = modeExec
		}
		if fi.Size() > MaxWorkFileBytes {
			if added {
				return workEntry{}, errTooLarge(fi.Size())
			}
			// Unchanged only if the base's blob has this size: the
			// caller asks before reading gigabytes.
			return workEntry{mode: mode}, errBig
		}
		key, cacheable := fsstat.KeyOf(fi)
		if id, ok := hashes.get(f, full, key, cacheable); ok {
			return workEntry{mode: mode, id: id, present: true}, nil
		}
		id, err := hashFile(f, full, fi.Size(), buf)
		if err != nil {
			return workEntry{}, err
		}
		hashes.put(f, full, key, cacheable, id)
		return workEntry{mode: mode, id: id, present: true}, nil
	}
	// A directory (a file replaced by one: its files are listed on their
	// own), a FIFO, a socket: git stores no blob for it here.
	return workEntry{}, nil
}

// hashFile hashes a regular file as a blob without holding it in memory,
// reading through buf (one per worker, so hashing thousands of files does
// not allocate a buffer for each). A file whose size is not the size its
// status gave changed while vouch read it: that is an error (run again),
// never an id of content that was not there.
func hashFile(f objectFormat, full string, size int64, buf []byte) (id string, err error) {
	// The caller saw a regular file, but it may have been replaced by
	// a FIFO since: open without blocking, and check again.
	file, _, err := safeopen.Open(full, safeopen.Options{})
	if errors.Is(err, safeopen.ErrNotRegular) {
		return "", errChanged()
	}
	if err != nil {
		return "", err
	}
	defer file.Close()
	h := f.new()
	h.Write([]byte("blob " + strconv.FormatInt(size, 10) + "\x00"))
	n, err := io.CopyBuffer(h, io.LimitReader(file, size+1), buf)
	if err != nil {
		return "", err
	}
	if n != size {
		return "", errChanged()
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// MaxWorkFileBytes bounds a working-tree file vouch stores for the diff
// (an added or changed one): a larger one is an error, never read whole.
const MaxWorkFileBytes = 512 << 20

func errTooLarge(size int64) error {
	return &Error{Msg: fmt.Sprintf("it is %d bytes, more than the %d (512 MiB) vouch compares in one working-tree file; remove it, or keep it out of the work with .gitignore, and run vouch again", size, int64(MaxWorkFileBytes))}
}

func errChanged() error {
	return &Error{Msg: "it changed while vouch read it; run vouch again once nothing writes to the working tree"}
}

// onlyReader hides *os.File's WriterTo, so io.CopyBuffer uses the buffer
// it is given instead of allocating its own.
type onlyReader struct{ io.Reader }

// Hashes remembers the blob ids of working-tree files for the calls of
// one run: the gate reads the repository two or three times (staleness,
// repository facts, the receipt's work pin), and each would otherwise read
// and hash every file again. It lives only in memory and is keyed by path
// and the file's status, change time and inode included (fsstat.Key), so
// nothing the agent writes can fill it, and a file edited between two
// calls, even one backdated with touch -r, is hashed again. The zero
// value is ready to use; a nil *Hashes caches nothing.
type Hashes struct {
	mu sync.Mutex
	m  map[hashKey]string
}

type hashKey struct {
	format, path string
	stat         fsstat.Key
}

func (h *Hashes) get(f objectFormat, path string, k fsstat.Key, ok bool) (string, bool) {
	if h == nil || !ok {
		return "", false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	id, found := h.m[hashKey{f.name, path, k}]
	return id, found
}

func (h *Hashes) put(f objectFormat, path string, k fsstat.Key, ok bool, id string) {
	if h == nil || !ok {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = make(map[hashKey]string)
	}
	h.m[hashKey{f.name, path, k}] = id
}

// hashAllWork hashes every path (relative to root) on a few goroutines;
// the result is keyed by path, so it does not depend on their order.
// state gives each path's base and index entries: the mode last recorded,
// and whether the base has it (a file the base lacks is stored for the
// diff if present, so one over MaxWorkFileBytes is refused unread).
//
// A file of the base larger than MaxWorkFileBytes is hashed only if
// baseSizes (which gives the sizes of base blobs by id) says its base
// blob has the same size; otherwise it changed, and is refused unread.
func hashAllWork(f objectFormat, root string, paths []string, state map[string]pathState, hashes *Hashes, baseSizes func(ids []string) (map[string]int64, error)) (map[string]workEntry, error) {
	out := make(map[string]workEntry, len(paths))
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
		big      []string
	)
	work := make(chan string)
	workers := min(runtime.GOMAXPROCS(0), 8, len(paths))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 64<<10)
			for p := range work {
				w := state[p]
				keep := w.base.mode
				if !w.base.present {
					keep = w.index.mode
				}
				e, err := hashWork(f, filepath.Join(root, filepath.FromSlash(p)), keep, !w.base.present, hashes, buf)
				mu.Lock()
				if err == errBig {
					big, err = append(big, p), nil
				}
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("read %s in the working tree: %w", ShownPath(p), err)
				}
				out[p] = e
				mu.Unlock()
			}
		}()
	}
	for _, p := range paths {
		work <- p
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if len(big) > 0 {
		ids := make([]string, len(big))
		for i, p := range big {
			ids[i] = state[p].base.id
		}
		sizes, err := baseSizes(ids)
		if err != nil {
			return nil, err
		}
		buf := make([]byte, 64<<10)
		for _, p := range big {
			full := filepath.Join(root, filepath.FromSlash(p))
			fi, err := os.Lstat(full)
			switch {
			case err != nil:
			case !fi.Mode().IsRegular():
				err = errChanged()
			case fi.Size() != sizes[state[p].base.id]:
				err = errTooLarge(fi.Size())
			}
			var id string
			if err == nil {
				id, err = hashFile(f, full, fi.Size(), buf)
			}
			if err != nil {
				return nil, fmt.Errorf("read %s in the working tree: %w", ShownPath(p), err)
			}
			e := out[p]
			e.id, e.present = id, true
			out[p] = e
		}
	}
	return out, nil
}

// errBig is hashWork's answer for a file of the base too large to read
// before its base size is known.
var errBig = errors.New("larger than MaxWorkFileBytes")
