// Package evidence checks the files an agent's envelope cites against the
// working tree: "src/foo.go", "src/foo.go:42" and "src/foo.go:10-20" name a
// file, a line and a line range under the repository root.
//
// It only gathers facts (does the path exist and as what kind, is it the
// root itself, inside .git or one of vouch's own files once symlinks are
// resolved, does it end in a slash, how many lines the file has, why a
// citation cannot be checked); the datalog program decides what they mean
// for a verdict, including that only a regular file outside .git and
// vouch's own files is evidence. Every path is resolved through an os.Root, so a
// citation can never make vouch read outside the repository root, whatever
// symlinks the tree holds.
package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/vouch-dev/vouch/internal/lazyre"
	"github.com/vouch-dev/vouch/internal/safeopen"
)

// MaxCountBytes caps how much of one file is read to count its lines. A
// cited range in a larger file cannot be confirmed and is reported as such,
// rather than letting one citation cost unbounded time.
const MaxCountBytes = 256 << 20

// Ref is a parsed citation.
type Ref struct {
	// Path is the cited path as written, without the line suffix.
	Path string
	// First and Last are the cited lines (1-based, inclusive); both are 0
	// when the citation names the whole file.
	First, Last int64
}

// Ranged reports whether the citation names lines.
func (r Ref) Ranged() bool { return r.First > 0 }

// lineSuffix is ":N" or ":N-M" at the end of a citation.
var lineSuffix = lazyre.New(`:([0-9]+)(?:-([0-9]+))?$`)

// ParseRef splits a citation into its path and line range. The error says
// what is wrong in words a user can act on.
func ParseRef(s string) (Ref, error) {
	r := Ref{Path: s}
	if m := lineSuffix().FindStringSubmatchIndex(s); m != nil {
		r.Path = s[:m[0]]
		first, err := strconv.ParseInt(s[m[2]:m[3]], 10, 64)
		if err != nil {
			return Ref{}, fmt.Errorf("line number %s is too large", s[m[2]:m[3]])
		}
		last := first
		if m[4] >= 0 {
			if last, err = strconv.ParseInt(s[m[4]:m[5]], 10, 64); err != nil {
				return Ref{}, fmt.Errorf("line number %s is too large", s[m[4]:m[5]])
			}
		}
		switch {
		case first < 1:
			return Ref{}, errors.New("line numbers start at 1")
		case last < first:
			return Ref{}, fmt.Errorf("line range %d-%d ends before it starts", first, last)
		}
		r.First, r.Last = first, last
	}
	switch {
	case r.Path == "":
		return Ref{}, errors.New("the path is empty")
	case strings.ContainsRune(r.Path, 0):
		return Ref{}, errors.New("the path contains a NUL byte")
	}
	return r, nil
}

// Kind is what a cited path is.
type Kind string

// The kinds of existing paths.
const (
	File  Kind = "file"
	Dir   Kind = "dir"
	Other Kind = "other"
	// Dangling is a symlink whose target does not exist: nothing can be
	// read there, yet something is at the name.
	Dangling Kind = "dangling"
)

// DefaultOutDir is vouch's output directory under the root. It is never
// evidence, whatever Options.OutDir says.
const DefaultOutDir = ".vouch"

// ConfigFile is vouch's configuration file at the root.
const ConfigFile = "vouch.yaml"

// Options name vouch's own files, which are never evidence of work.
type Options struct {
	// OutDir is the output directory, relative to the root unless
	// absolute; DefaultOutDir is always included.
	OutDir string
	// Files are vouch's own input files (the rulespec, the envelope),
	// relative to the working directory unless absolute.
	Files []string
	// Hash asks for the sha256 of every cited regular file, read once
	// while it is checked, so a receipt records exactly what was seen.
	Hash bool
	// Limits bound the cost of the check; zero fields mean the defaults.
	Limits Limits
}

// Limits bound what one envelope's citations may cost: an agent can cite
// as many paths, and as large files, as it likes.
type Limits struct {
	// MaxCitations caps the distinct citations checked.
	MaxCitations int
	// MaxHashBytes caps the bytes read in total to hash cited files.
	// Each file (by device and inode) is read once, however many names
	// or hard links cite it.
	MaxHashBytes int64
}

// Defaults for Limits.
const (
	DefaultMaxCitations = 10_000
	DefaultMaxHashBytes = 256 << 20
)

func (l Limits) normalized() Limits {
	if l.MaxCitations <= 0 {
		l.MaxCitations = DefaultMaxCitations
	}
	if l.MaxHashBytes <= 0 {
		l.MaxHashBytes = DefaultMaxHashBytes
	}
	return l
}

// LimitError says a limit was exceeded: the check stopped, and there is no
// verdict (bad input, exit 2).
type LimitError struct {
	// Msg says what exceeded which limit and which flag raises it.
	Msg string
}

func (e *LimitError) Error() string { return e.Msg }

// Info is what the working tree says about one citation.
type Info struct {
	Ref Ref
	// Invalid, when set, says why the citation cannot be checked: it is
	// malformed, absolute, escapes the root, or cannot be read. Such a
	// citation never counts as present, nor as absent.
	Invalid string
	// Exists is set when the path exists under the root, as Kind.
	Exists bool
	Kind   Kind
	// IsRoot is set when the path names the repository root itself
	// (".", "./", "src/..", a symlink to "."); InGit when one of its
	// segments, as written after cleaning or once symlinks are resolved
	// inside the root, is ".git" in any letter case, or when a resolved
	// ancestor is the root's .git directory. Both hold whether or not the
	// path exists.
	IsRoot bool
	InGit  bool
	// Own is set when the path, as written or resolved, is inside the
	// output directory or is vouch.yaml, the rulespec or the envelope.
	Own bool
	// DirSyntax is set when the path as written ends in "/" or "/.": it
	// names a directory, whatever cleaning makes of it.
	DirSyntax bool
	// Literal is set for a citation with lines when something exists at
	// the whole citation taken as a name ("secret:3"), so it is ambiguous.
	Literal bool
	// Lines is the file's line count, known only when the citation names
	// lines (counting costs a read) and the path is a regular file.
	Lines      int64
	LinesKnown bool
	// SHA256 is the hex sha256 of a cited regular file, set when
	// Options.Hash asked for it.
	SHA256 string
}

// Check resolves each citation under root. It never fails as a whole: a
// problem with the root itself makes every citation invalid, with the
// reason, so the verdicts that depend on them fail closed.
func Check(root string, cites []string) map[string]Info {
	return CheckWith(root, cites, Options{})
}

// CheckWith is Check, also recognising vouch's own files as opts names
// them. It ignores opts.Limits: it is for tools a person runs on a tree
// they trust; Resolve is for envelopes.
func CheckWith(root string, cites []string, opts Options) map[string]Info {
	opts.Limits = Limits{MaxCitations: math.MaxInt, MaxHashBytes: math.MaxInt64}
	out, _ := Resolve(root, cites, opts)
	return out
}

// Resolve is CheckWith within opts.Limits: more distinct citations than
// MaxCitations, or more bytes to hash than MaxHashBytes, is a *LimitError
// (and no result), checked before the work rather than after it.
func Resolve(root string, cites []string, opts Options) (map[string]Info, error) {
	lim := opts.Limits.normalized()
	uniq := append([]string(nil), cites...)
	sort.Strings(uniq)
	uniq = slices.Compact(uniq)
	if len(uniq) > lim.MaxCitations {
		return nil, &LimitError{Msg: fmt.Sprintf("the envelope cites %d distinct citations (a path with lines counts apart from the bare path), more than the limit of %d; cite fewer, or raise the limit with --max-citations", len(uniq), lim.MaxCitations)}
	}
	out := make(map[string]Info, len(uniq))
	var rootErr string
	var r *os.Root
	if root == "" {
		rootErr = "no repository root is known"
	} else {
		var err error
		if r, err = os.OpenRoot(root); err != nil {
			rootErr = "cannot open the repository root: " + reason(err)
		} else {
			defer r.Close()
		}
	}
	var own *ownFiles
	if r != nil {
		own = newOwnFiles(root, r, opts)
	}
	h := &hasher{on: opts.Hash, budget: lim.MaxHashBytes, seen: map[safeopen.FileID]string{}}
	for _, s := range uniq {
		ref, err := ParseRef(s)
		if err != nil {
			out[s] = Info{Invalid: err.Error()}
			continue
		}
		if rootErr != "" {
			out[s] = Info{Ref: ref, Invalid: rootErr}
			continue
		}
		info, err := resolve(r, own, h, s, ref)
		if err != nil {
			return nil, err
		}
		out[s] = info
	}
	return out, nil
}

// hasher hashes cited files within a byte budget, each file once.
type hasher struct {
	on     bool
	budget int64
	used   int64
	seen   map[safeopen.FileID]string
}

func resolve(r *os.Root, own *ownFiles, h *hasher, cite string, ref Ref) (Info, error) {
	info := Info{Ref: ref}
	p := ref.Path
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || filepath.VolumeName(p) != "" {
		info.Invalid = "absolute path; cite paths relative to the repository root"
		return info, nil
	}
	local := filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsLocal(local) {
		info.Invalid = "path escapes the repository root; cite paths inside it"
		return info, nil
	}
	info.DirSyntax = dirSyntax(p)
	if ref.Ranged() {
		if whole := filepath.Clean(filepath.FromSlash(cite)); filepath.IsLocal(whole) {
			if _, err := r.Lstat(whole); err == nil {
				info.Literal = true
			}
		}
	}
	st, err := r.Stat(local)
	dangling := false
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		if lst, lerr := r.Lstat(local); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			dangling = true
		}
	case escapes(err):
		info.Invalid = "path resolves through a symlink to outside the repository root"
		return info, nil
	default:
		info.Invalid = "cannot check the path: " + reason(err)
		return info, nil
	}
	real, rerr := realPath(r, local)
	if rerr != nil {
		info.Invalid = "cannot resolve the path: " + reason(rerr)
		return info, nil
	}
	info.IsRoot = local == "." || real == "."
	info.InGit = gitSegment(local) || gitSegment(real) || own.underGit(r, real)
	info.Own = own.covers(r, local, real, st)
	if st != nil && !info.Own && !info.InGit {
		info.Own, info.InGit = own.linkedOwn(r, st)
	}
	if dangling {
		info.Exists, info.Kind = true, Dangling
		return info, nil
	}
	if st == nil {
		return info, nil
	}
	info.Exists = true
	switch {
	case st.Mode().IsRegular():
		info.Kind = File
	case st.IsDir():
		info.Kind = Dir
	default:
		info.Kind = Other
	}
	if info.Kind != File || (!ref.Ranged() && !h.on) {
		return info, nil
	}
	if ref.Ranged() && st.Size() > MaxCountBytes && !h.on {
		info.Invalid = fmt.Sprintf("the file is larger than %d bytes, too large to check a line range", MaxCountBytes)
		return info, nil
	}
	return h.read(r, local, ref, info)
}

// read opens a cited regular file once (without blocking: it may have
// been swapped for a named pipe since the Stat), hashing it when asked
// and counting its lines for a ranged citation.
func (h *hasher) read(r *os.Root, local string, ref Ref, info Info) (Info, error) {
	f, st, err := safeopen.OpenIn(r, local)
	if err != nil {
		info.Invalid = "cannot read the file: " + safeopen.Reason(errors.Unwrap(err))
		return info, nil
	}
	defer f.Close()
	id, hasID := safeopen.ID(st)
	if sum, ok := h.seen[id]; ok && hasID && h.on && !ref.Ranged() {
		info.SHA256 = sum
		return info, nil
	}
	countable := st.Size() <= MaxCountBytes
	if h.on {
		if _, ok := h.seen[id]; !ok || !hasID {
			if st.Size() > h.budget-h.used {
				return info, &LimitError{Msg: fmt.Sprintf("the cited files hold more than %d bytes to hash (%s alone is %d bytes); cite fewer or smaller files, or raise the limit with --max-evidence-bytes", h.budget, ref.Path, st.Size())}
			}
		}
	}
	var lines lineCounter
	var w []io.Writer
	hs := sha256.New()
	if h.on {
		w = append(w, hs)
	}
	if ref.Ranged() && countable {
		w = append(w, &lines)
	}
	// Read at most what the budget allows (and the size said, plus one
	// byte to notice growth): the file can grow after the fstat.
	limit := st.Size() + 1
	n, err := io.Copy(io.MultiWriter(w...), io.LimitReader(f, limit))
	if err != nil {
		info.Invalid = "cannot read the file: " + reason(err)
		return info, nil
	}
	if n > st.Size() {
		info.Invalid = "the file changed while it was checked"
		return info, nil
	}
	if h.on {
		if _, ok := h.seen[id]; !ok || !hasID {
			h.used += n
		}
		info.SHA256 = hex.EncodeToString(hs.Sum(nil))
		if hasID {
			h.seen[id] = info.SHA256
		}
	}
	if ref.Ranged() {
		if !countable {
			info.Invalid = fmt.Sprintf("the file is larger than %d bytes, too large to check a line range", MaxCountBytes)
			return info, nil
		}
		info.Lines, info.LinesKnown = lines.total(), true
	}
	return info, nil
}

// gitSegment reports whether a cleaned local path has a segment that is
// ".git" in any letter case (case-insensitive filesystems open .GIT as
// .git): the repository's own metadata, never evidence of work.
func gitSegment(local string) bool {
	for _, seg := range strings.Split(filepath.ToSlash(local), "/") {
		if strings.EqualFold(seg, ".git") {
			return true
		}
	}
	return false
}

// dirSyntax reports whether a path as written ends in a separator or a
// separator and ".": it names a directory, though cleaning drops the
// ending and would let it open a file.
func dirSyntax(p string) bool {
	for _, sep := range []string{"/", string(filepath.Separator)} {
		if strings.HasSuffix(p, sep) || strings.HasSuffix(p, sep+".") {
			return true
		}
	}
	return false
}

var errEscape = errors.New("path escapes from parent")

// realPath resolves every symlink of a cleaned local path inside r, one
// segment at a time (Lstat, Readlink), and returns the slash-separated
// path relative to the root that the citation really names ("." for the
// root). Segments from the first missing one on are kept as written.
func realPath(r *os.Root, local string) (string, error) {
	var done []string
	todo := strings.Split(filepath.ToSlash(local), "/")
	hops := 0
	for len(todo) > 0 {
		seg := todo[0]
		todo = todo[1:]
		switch seg {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", errEscape
			}
			done = done[:len(done)-1]
			continue
		}
		cur := strings.Join(append(append([]string(nil), done...), seg), "/")
		fi, err := r.Lstat(filepath.FromSlash(cur))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return path.Clean(strings.Join(append([]string{cur}, todo...), "/")), nil
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, seg)
			continue
		}
		if hops++; hops > 255 {
			return "", errors.New("too many levels of symbolic links")
		}
		target, err := r.Readlink(filepath.FromSlash(cur))
		if err != nil {
			return "", err
		}
		target = filepath.ToSlash(target)
		if filepath.IsAbs(target) || strings.HasPrefix(target, "/") || filepath.VolumeName(target) != "" {
			return "", errEscape
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return strings.Join(done, "/"), nil
}

// ownFiles knows where the root's .git and vouch's own files are, to tell
// a citation that reaches them under another name (a symlink, a hard
// link, other letter case).
type ownFiles struct {
	git   fs.FileInfo
	outs  []string // slash-separated, relative to the root
	outSt []fs.FileInfo
	files []fs.FileInfo
	// ownList and gitList are the regular files under the output
	// directories and at the top of .git, listed on the first
	// hard-linked citation (linkedOwn); truncated when the walk stopped.
	listed           bool
	truncated        bool
	ownList, gitList []fs.FileInfo
}

func newOwnFiles(root string, r *os.Root, opts Options) *ownFiles {
	o := &ownFiles{}
	o.git, _ = r.Stat(".git")
	outs := []string{DefaultOutDir}
	if opts.OutDir != "" {
		outs = append(outs, opts.OutDir)
	}
	absRoot, rootErr := filepath.Abs(root)
	for _, d := range outs {
		if filepath.IsAbs(d) {
			if st, err := os.Stat(d); err == nil {
				o.outSt = append(o.outSt, st)
			}
			if rootErr != nil {
				continue
			}
			rel, err := filepath.Rel(absRoot, d)
			if err != nil {
				continue
			}
			d = rel
		}
		d = filepath.Clean(d)
		if !filepath.IsLocal(d) {
			continue
		}
		o.outs = append(o.outs, filepath.ToSlash(d))
		if st, err := r.Stat(d); err == nil {
			o.outSt = append(o.outSt, st)
		}
	}
	if st, err := r.Stat(ConfigFile); err == nil {
		o.files = append(o.files, st)
	}
	for _, f := range opts.Files {
		if st, err := os.Stat(f); err == nil {
			o.files = append(o.files, st)
		}
	}
	return o
}

// ancestors stats every existing prefix of a resolved path, itself last.
func ancestors(r *os.Root, real string, visit func(fs.FileInfo) bool) bool {
	if real == "." {
		return false
	}
	segs := strings.Split(real, "/")
	for i := range segs {
		st, err := r.Lstat(filepath.FromSlash(strings.Join(segs[:i+1], "/")))
		if err != nil {
			return false
		}
		if visit(st) {
			return true
		}
	}
	return false
}

// underGit reports whether a resolved path is the root's .git directory or
// inside it, by file identity.
func (o *ownFiles) underGit(r *os.Root, real string) bool {
	if o == nil || o.git == nil {
		return false
	}
	return ancestors(r, real, func(st fs.FileInfo) bool { return os.SameFile(st, o.git) })
}

// covers reports whether a path (as written, or resolved) is one of
// vouch's own files: inside an output directory, vouch.yaml, or the same
// file as the rulespec or envelope. st is the target's Stat, or nil.
func (o *ownFiles) covers(r *os.Root, local, real string, st fs.FileInfo) bool {
	if o == nil {
		return false
	}
	for _, p := range []string{filepath.ToSlash(local), real} {
		if strings.EqualFold(p, ConfigFile) {
			return true
		}
		for _, d := range o.outs {
			if d == "." {
				continue
			}
			if strings.EqualFold(p, d) || (len(p) > len(d) && strings.EqualFold(p[:len(d)+1], d+"/")) {
				return true
			}
		}
	}
	if st != nil {
		for _, f := range o.files {
			if os.SameFile(st, f) {
				return true
			}
		}
	}
	return ancestors(r, real, func(a fs.FileInfo) bool {
		for _, d := range o.outSt {
			if os.SameFile(a, d) {
				return true
			}
		}
		return false
	})
}

// escapes reports whether err is os.Root refusing a path that leaves it
// (through a symlink, since ".." was ruled out lexically). The os package
// does not export that error, so its text is the only way to tell.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes")
}

// lineCounter counts lines the way editors number them: a final line
// without a newline still counts, an empty file has none.
type lineCounter struct {
	n     int64
	bytes int64
	last  byte
}

func (c *lineCounter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		c.n += int64(bytes.Count(p, []byte{'\n'}))
		c.last = p[len(p)-1]
		c.bytes += int64(len(p))
	}
	return len(p), nil
}

func (c *lineCounter) total() int64 {
	if c.bytes > 0 && c.last != '\n' {
		return c.n + 1
	}
	return c.n
}

func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
