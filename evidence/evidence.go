// Package evidence checks the files an agent's envelope cites against the
// working tree: "src/foo.go", "src/foo.go:42" and "src/foo.go:10-20" name a
// file, a line and a line range under the repository root.
//
// It only gathers facts (does the path exist and as what kind, is it the
// root itself or inside .git, how many lines the file has, why a citation
// cannot be checked); the datalog program decides what they mean for a
// verdict, including that only a regular file outside .git is evidence. Every path is resolved through an os.Root, so a
// citation can never make vouch read outside the repository root, whatever
// symlinks the tree holds.
package evidence

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
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
var lineSuffix = regexp.MustCompile(`:([0-9]+)(?:-([0-9]+))?$`)

// ParseRef splits a citation into its path and line range. The error says
// what is wrong in words a user can act on.
func ParseRef(s string) (Ref, error) {
	r := Ref{Path: s}
	if m := lineSuffix.FindStringSubmatchIndex(s); m != nil {
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
)

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
	// (".", "./", "src/.."); InGit when one of its segments, after
	// cleaning, is exactly ".git". Both are lexical facts, recorded
	// whether or not the path exists.
	IsRoot bool
	InGit  bool
	// Lines is the file's line count, known only when the citation names
	// lines (counting costs a read) and the path is a regular file.
	Lines      int64
	LinesKnown bool
}

// Check resolves each citation under root. It never fails as a whole: a
// problem with the root itself makes every citation invalid, with the
// reason, so the verdicts that depend on them fail closed.
func Check(root string, cites []string) map[string]Info {
	out := make(map[string]Info, len(cites))
	uniq := append([]string(nil), cites...)
	sort.Strings(uniq)
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
	for _, s := range uniq {
		if _, done := out[s]; done {
			continue
		}
		ref, err := ParseRef(s)
		if err != nil {
			out[s] = Info{Invalid: err.Error()}
			continue
		}
		if rootErr != "" {
			out[s] = Info{Ref: ref, Invalid: rootErr}
			continue
		}
		out[s] = resolve(r, ref)
	}
	return out
}

func resolve(r *os.Root, ref Ref) Info {
	info := Info{Ref: ref}
	p := ref.Path
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || filepath.VolumeName(p) != "" {
		info.Invalid = "absolute path; cite paths relative to the repository root"
		return info
	}
	local := filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsLocal(local) {
		info.Invalid = "path escapes the repository root; cite paths inside it"
		return info
	}
	info.IsRoot = local == "."
	info.InGit = inGit(local)
	st, err := r.Stat(local)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		return info
	case escapes(err):
		info.Invalid = "path resolves through a symlink to outside the repository root"
		return info
	default:
		info.Invalid = "cannot check the path: " + reason(err)
		return info
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
	if !ref.Ranged() || info.Kind != File {
		return info
	}
	if st.Size() > MaxCountBytes {
		info.Invalid = fmt.Sprintf("the file is larger than %d bytes, too large to check a line range", MaxCountBytes)
		return info
	}
	n, err := countLines(r, local)
	if err != nil {
		info.Invalid = "cannot read the file: " + reason(err)
		return info
	}
	info.Lines, info.LinesKnown = n, true
	return info
}

// inGit reports whether a cleaned local path has a segment that is
// exactly ".git": the repository's own metadata, never evidence of work.
func inGit(local string) bool {
	for _, seg := range strings.Split(filepath.ToSlash(local), "/") {
		if seg == ".git" {
			return true
		}
	}
	return false
}

// escapes reports whether err is os.Root refusing a path that leaves it
// (through a symlink, since ".." was ruled out lexically). The os package
// does not export that error, so its text is the only way to tell.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes")
}

// countLines counts lines the way editors number them: a final line
// without a newline still counts, an empty file has none.
func countLines(r *os.Root, name string) (int64, error) {
	f, err := r.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	var n, total int64
	var last byte = '\n'
	lr := io.LimitReader(f, MaxCountBytes)
	for {
		k, err := lr.Read(buf)
		if k > 0 {
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			last = buf[k-1]
			total += int64(k)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if total > 0 && last != '\n' {
		n++
	}
	return n, nil
}

func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
