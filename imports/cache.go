package imports

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vouch-dev/vouch/internal/safeopen"
)

// extractorVersion is part of every cache key. Bump it whenever any
// extractor's output for the same bytes can change, or the entry layout
// does, so stale results are never reused. (3: entries carry the change
// time and are no longer found by content; 4: a '/' after the head of an
// if, while, for or with starts a regex in JS; 5: a syntax error records
// whether extraction stopped there; 6: Python files are read in the
// encoding their coding line declares; 7: JS lines also end at CR, U+2028
// and U+2029, and Unicode white space separates tokens; 8: a Python
// TYPE_CHECKING block counts only when the name is typing's; 9: Rust
// skips a leading BOM and non-ASCII Pattern_White_Space between tokens;
// 10: JS records require's other call forms and createRequire, Python
// importlib.import_module and __import__ calls; 11: a Rust mod's #[path]
// is decoded as rustc decodes it, and read from cfg_attr too; 12: JS
// specifiers and escaped names are decoded, Python reads f-string fields,
// keyword arguments, form feeds and NFKC names as CPython does.)
const extractorVersion = 12

// cacheMagic starts every cache file; with the version and trailing
// checksum it lets a truncated, foreign or corrupt file be recognised and
// ignored.
const cacheMagic = "VOUCHIMPORTS\x00"

// cacheFileName is the cache file in a root's cache directory (cacheDir).
const cacheFileName = "imports.bin"

// CacheDirEnv names the environment variable that, when set, is the
// directory vouch keeps its import caches in instead of the user's cache
// directory (os.UserCacheDir()/vouch): for CI runners that keep one
// directory between jobs, and for tests, which must not fill the user's.
const CacheDirEnv = "VOUCH_CACHE_DIR"

// cacheEntry is one file's extraction result. A warm run reuses it only
// for the same path and language whose size, modification time and change
// time are all unchanged.
//
// An entry is trusted over the file it describes, so the cache lives
// outside the repository (cacheDir): in the working tree, the agent whose
// work is checked could write an entry matching a file's size and times
// (which it can read with stat after writing the file) that says the file
// imports nothing, and vouch lint would take it. A sandboxed agent
// commonly may write only its working tree; one that may write the
// user's cache directory could as well rewrite vouch itself. Entries are
// still not looked up by content hash (a forged entry would then match in
// any checkout), and the change time, which no system call sets to a
// chosen value, defeats a file edited and then backdated with touch -r.
// vouch gate reads no cache at all (Options.Fresh).
type cacheEntry struct {
	Path  string
	Lang  Lang
	Size  int64
	MTime int64 // UnixNano; 0 means "do not trust stat, extract again"
	CTime int64 // UnixNano change time, recorded with MTime
	fileResult
}

// cache holds the entries loaded from disk.
type cache struct {
	byPath map[string]*cacheEntry
}

// cacheDir is the directory holding the cache of the repository at the
// absolute path root: under $VOUCH_CACHE_DIR, else the user's cache
// directory, "imports/" and a digest of root's real path, so each
// checkout has its own and a moved one starts afresh. It is "" when there
// is no such directory (no home directory): then nothing is cached.
func cacheDir(root string) string {
	base := os.Getenv(CacheDirEnv)
	if base == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		base = filepath.Join(dir, "vouch")
	}
	if !filepath.IsAbs(base) {
		return "" // as os.UserCacheDir refuses a relative $XDG_CACHE_HOME
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(base, "imports", hex.EncodeToString(sum[:16]))
}

// maxCacheBytes caps the cache file read: entries are small, and a larger
// file is not one vouch wrote for any repository it can scan.
const maxCacheBytes = 1 << 30

// loadCache reads the cache; any problem yields an empty cache, because a
// cache must never be trusted over the files themselves. It is opened as
// untrusted input (safeopen): a named pipe at its path must not hang the
// scan, nor a symlink lead out of its directory.
func loadCache(root string) *cache {
	c := &cache{byPath: map[string]*cacheEntry{}}
	dir := cacheDir(root)
	if dir == "" {
		return c
	}
	f, err := safeopen.Read(filepath.Join(dir, cacheFileName), safeopen.Options{Root: dir, MaxBytes: maxCacheBytes})
	if err != nil {
		return c
	}
	entries, err := decodeCache(f.Data)
	if err != nil {
		return c
	}
	for _, e := range entries {
		c.byPath[e.Path] = e
	}
	return c
}

// saveCache writes entries atomically: a temporary file in the same
// directory renamed over the old one, so concurrent or interrupted runs
// leave either the old or the new cache, never a torn one. With no cache
// directory, or one that cannot be made (a read-only or missing home, as
// in many CI containers), it writes nothing and says nothing: the cache
// only saves time. The directories are the user's own (0700), so another
// user of the machine cannot plant entries.
func saveCache(root string, entries []*cacheEntry) error {
	dir := cacheDir(root)
	if dir == "" || os.MkdirAll(dir, 0o700) != nil {
		return nil
	}
	tmp, err := os.CreateTemp(dir, cacheFileName+".tmp*")
	if err != nil {
		return fmt.Errorf("creating cache file: %w", err)
	}
	data := encodeCache(entries)
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("writing cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, cacheFileName)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("installing cache: %w", err)
	}
	return nil
}

type cacheWriter struct{ bytes.Buffer }

func (w *cacheWriter) uint(v uint64) { w.Write(binary.AppendUvarint(nil, v)) }
func (w *cacheWriter) int(v int64)   { w.Write(binary.AppendVarint(nil, v)) }
func (w *cacheWriter) str(s string) {
	w.uint(uint64(len(s)))
	w.WriteString(s)
}

// encodeCache serialises entries: magic, version, a varint-encoded body
// and the SHA-256 of everything before it. A hand-written format keeps a
// warm run over tens of thousands of files well under a second, where
// reflection-based encoders dominate the run time.
func encodeCache(entries []*cacheEntry) []byte {
	var w cacheWriter
	w.WriteString(cacheMagic)
	w.uint(extractorVersion)
	w.uint(uint64(len(entries)))
	for _, e := range entries {
		w.str(e.Path)
		w.str(string(e.Lang))
		w.int(e.Size)
		w.int(e.MTime)
		w.int(e.CTime)
		w.str(e.Constraint)
		w.uint(uint64(len(e.Sites)))
		for _, s := range e.Sites {
			w.uint(uint64(s.Line))
			w.uint(uint64(s.Column))
			w.str(string(s.Kind))
			w.str(s.Spec)
			w.str(s.Alias)
			w.uint(uint64(len(s.Names)))
			for _, n := range s.Names {
				w.str(n)
			}
			tc := uint64(0)
			if s.TypeChecking {
				tc = 1
			}
			w.uint(tc)
		}
		w.uint(uint64(len(e.Errors)))
		for _, se := range e.Errors {
			w.uint(uint64(se.Line))
			w.str(se.Message)
			stop := uint64(0)
			if se.Stop {
				stop = 1
			}
			w.uint(stop)
		}
	}
	sum := sha256.Sum256(w.Bytes())
	w.Write(sum[:])
	return w.Bytes()
}

var errCorruptCache = errors.New("corrupt cache")

type cacheReader struct {
	b   []byte
	err error
	// interned shares the many repeated kinds, specs and names between
	// sites, which keeps warm-run memory proportional to distinct strings.
	interned map[string]string
}

func (r *cacheReader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errCorruptCache
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *cacheReader) int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errCorruptCache
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length that must be satisfiable by the remaining bytes at
// min bytes per element, so a corrupt length cannot trigger a huge
// allocation.
func (r *cacheReader) count(min int) int {
	v := r.uint()
	if r.err == nil && v > uint64(len(r.b)/min) {
		r.err = errCorruptCache
		return 0
	}
	return int(v)
}

func (r *cacheReader) str() string {
	n := r.count(1)
	if r.err != nil {
		return ""
	}
	raw := r.b[:n]
	r.b = r.b[n:]
	if s, ok := r.interned[string(raw)]; ok {
		return s
	}
	s := string(raw)
	r.interned[s] = s
	return s
}

func decodeCache(data []byte) ([]*cacheEntry, error) {
	if len(data) < len(cacheMagic)+sha256.Size || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, errCorruptCache
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, errCorruptCache
	}
	r := &cacheReader{b: body[len(cacheMagic):], interned: map[string]string{}}
	if r.uint() != extractorVersion {
		return nil, errCorruptCache
	}
	n := r.count(8)
	entries := make([]*cacheEntry, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		e := &cacheEntry{}
		e.Path = r.str()
		e.Lang = Lang(r.str())
		e.Size = r.int()
		e.MTime = r.int()
		e.CTime = r.int()
		e.Constraint = r.str()
		ns := r.count(6)
		if ns > 0 {
			e.Sites = make([]Site, ns)
		}
		for j := 0; j < ns && r.err == nil; j++ {
			s := &e.Sites[j]
			s.Line = int(r.uint())
			s.Column = int(r.uint())
			s.Kind = Kind(r.str())
			s.Spec = r.str()
			s.Alias = r.str()
			nn := r.count(1)
			if nn > 0 {
				s.Names = make([]string, nn)
			}
			for k := 0; k < nn && r.err == nil; k++ {
				s.Names[k] = r.str()
			}
			s.TypeChecking = r.uint() == 1
		}
		ne := r.count(3)
		for j := 0; j < ne && r.err == nil; j++ {
			se := SyntaxError{Line: int(r.uint()), Message: r.str()}
			se.Stop = r.uint() == 1
			e.Errors = append(e.Errors, se)
		}
		entries = append(entries, e)
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errCorruptCache
	}
	return entries, nil
}
