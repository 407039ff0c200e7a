// Package canonpath turns a path an agent names into the one absolute path the
// operating system would use for it, so that a sandbox rule ("writes only
// within the repository", "never read ~/.ssh") compares like with like.
//
// An agent, or a prompt injected into one, can name the same file in many
// spellings: relative to the working directory, with `..`, through a
// symbolic link, with URL-style escapes such as %2e%2e%2f that some tools
// decode, or with `~`. Canonical folds all of them into one form:
//
//   - relative paths are made absolute against the caller's working directory;
//   - percent escapes of '.', '/', '\\' and '%' itself (%2e, %2f, %5c, %25, in
//     either case) are decoded, repeatedly, before anything else, so a
//     double-encoded %252e%252e cannot survive as a literal name and later
//     turn into `..` in a tool that decodes it; an escaped NUL (%00) is an error;
//   - a leading `~` or `~/` is expanded against the given home directory, and
//     `~user` against that user's home directory from the password database;
//   - the path is then resolved one component at a time, exactly as the
//     kernel walks it: every existing symbolic link is replaced by its target
//     (at most 40 times, as Linux allows), and `..` steps to the parent of
//     the directory actually reached, so `link/..` where link points to
//     /etc/ssh is /etc, not the directory holding link;
//   - below a component that does not exist nothing can be looked up, so the
//     rest is kept lexically (a later `..` that climbs back out of the
//     missing part returns to resolving links).
//
// What it does not do: it does not fold letter case (Linux file systems are
// case sensitive; on a case-insensitive file system two spellings may still
// name one file), it does not treat '\\' as a separator (on Unix it is an
// ordinary byte of a file name), and it cannot see the future: a link created
// after the check, before the tool runs, is not seen (a time-of-check race
// that only the tool itself can close). A caller that knows of links that
// do not exist yet but will when the path is used (a shell command line
// that runs `ln -s /etc e && rm -rf e/`) passes them as Links to
// CanonicalFromLinks and EntryFromLinks, which resolve through them as
// through links on disk.
package canonpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxLen is the longest path, in bytes after decoding, that Canonical
// accepts. Linux refuses paths longer than 4096 bytes (PATH_MAX); the bound
// here is generous, and exists so hostile input costs bounded work.
const MaxLen = 16 << 10

// maxLinks is how many symbolic links one resolution may follow; Linux gives
// up with ELOOP after 40.
const maxLinks = 40

// maxDecodeRounds bounds repeated percent-decoding. Each round removes at
// least two bytes, so this only limits deliberately nested encodings.
const maxDecodeRounds = 8

// ErrEmpty, ErrNUL, ErrTooLong and ErrLoop classify the paths Canonical refuses.
var (
	// ErrEmpty is returned for an empty path: it names nothing, and tools
	// disagree about what it means.
	ErrEmpty = errors.New("empty path")
	// ErrNUL is returned for a path holding a NUL byte, plain or escaped:
	// the kernel would cut the path there, so what a tool touches differs
	// from what a rule saw.
	ErrNUL = errors.New("path contains a NUL byte")
	// ErrTooLong is returned for a path longer than MaxLen.
	ErrTooLong = errors.New("path too long")
	// ErrLoop is returned when resolving symbolic links does not end.
	ErrLoop = errors.New("too many levels of symbolic links")
	// ErrUnknownLink is returned when a path goes through one of the
	// given Links whose target is only known at run time.
	ErrUnknownLink = errors.New("goes through a symbolic link whose target is only known at run time")
)

// Links are symbolic links that will exist when a path is used though the
// file system does not hold them when it is resolved: a shell command line
// that makes a link (ln -s TARGET NAME) and then names a path through it
// in a later command. Each key is where a link will be, as EntryFrom gives
// it (canonical directories, the link's own name last); its value is the
// target as the link will hold it, resolved as a link's target is
// (relative to the link's directory), or "" when the target is only known
// at run time (symlink(2) refuses an empty target, so "" is never a real
// one), which makes every path through the link ErrUnknownLink. A key
// stands for a link whatever the file system holds at its place now.
type Links map[string]string

// Canonical returns the clean absolute form of p: made absolute against cwd
// (an absolute directory), URL-style percent escapes such as %2e%2e and %2f
// decoded before cleaning (so they cannot smuggle `..`), `~` and `~/`
// expanded against home when home != "", and symlinks resolved for the
// longest existing prefix (the rest appended cleaned). A path containing a
// NUL byte, or an empty path, is an error.
//
// cwd is needed only when p is relative (after `~` expansion); it must then
// be absolute. Canonical reads the file system (lstat and readlink) but never
// changes it.
func Canonical(p, cwd, home string) (string, error) {
	return canonical(p, cwd, home, false, false, nil)
}

// EntryFrom is CanonicalFrom for a program that acts on the directory
// entry p names rather than on what it points to: rm, unlink, rmdir and
// rename (mv's source) remove or move a symbolic link itself, not its
// target. Every directory above the last component is resolved; the last
// component is kept as it is, unless p ends in "/", "/." or "/.." (a
// trailing slash makes the kernel follow a link, so `rm -r link/` acts on
// the target and is resolved like Canonical).
func EntryFrom(p, base, home string) (string, error) {
	return canonical(p, base, home, true, true, nil)
}

// CanonicalFrom is Canonical for callers whose working directory base is
// already canonical (a result of Canonical): base's own components are not
// looked up again, which saves a system call per component of base on
// every relative path. A base that is not canonical gives wrong answers.
func CanonicalFrom(p, base, home string) (string, error) {
	return canonical(p, base, home, true, false, nil)
}

// CanonicalFromLinks is CanonicalFrom that also follows links, the links
// a command is about to make (see Links). A tilde is not expanded.
func CanonicalFromLinks(p, base string, links Links) (string, error) {
	return canonical(p, base, "", true, false, links)
}

// EntryFromLinks is EntryFrom that also follows links (see Links) in the
// directories above the last component. A tilde is not expanded.
func EntryFromLinks(p, base string, links Links) (string, error) {
	return canonical(p, base, "", true, true, links)
}

func canonical(p, cwd, home string, trusted, entry bool, links Links) (string, error) {
	if p == "" {
		return "", ErrEmpty
	}
	if len(p) > MaxLen {
		return "", fmt.Errorf("%w (%d bytes, at most %d)", ErrTooLong, len(p), MaxLen)
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", ErrNUL
	}
	d, err := decode(p)
	if err != nil {
		return "", err
	}
	d, err = expandTilde(d, home)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(d) {
		if cwd == "" {
			return "", fmt.Errorf("relative path %q needs a working directory", p)
		}
		if !filepath.IsAbs(cwd) {
			return "", fmt.Errorf("working directory %q is not absolute", cwd)
		}
		if strings.IndexByte(cwd, 0) >= 0 {
			return "", fmt.Errorf("working directory: %w", ErrNUL)
		}
		if trusted {
			return resolveEntry(filepath.Clean(cwd), d, entry, links)
		}
		d = cwd + "/" + d
	}
	return resolveEntry("/", d, entry, links)
}

// resolveEntry resolves rel from start; with entry, the last component is
// appended without following it when it is a name (not "", "." or "..").
func resolveEntry(start, rel string, entry bool, links Links) (string, error) {
	if !entry {
		return resolve(start, rel, links)
	}
	i := strings.LastIndexByte(rel, '/')
	last := rel[i+1:]
	if last == "" || last == "." || last == ".." {
		return resolve(start, rel, links)
	}
	dir := "."
	if i >= 0 {
		dir = rel[:i+1]
	}
	d, err := resolve(start, dir, links)
	if err != nil {
		return "", err
	}
	return join(d, last), nil
}

// Within reports whether path (already canonical) is dir or below it (also
// canonical). The comparison respects component boundaries: /repo2 is not
// within /repo. Relative or empty arguments are never within anything, so a
// caller that forgot to canonicalise fails closed.
func Within(path, dir string) bool {
	if !filepath.IsAbs(path) || !filepath.IsAbs(dir) {
		return false
	}
	path, dir = filepath.Clean(path), filepath.Clean(dir)
	if dir == "/" || path == dir {
		return true
	}
	return strings.HasPrefix(path, dir) && path[len(dir)] == '/'
}

// decode undoes percent escapes of the bytes that matter for path
// structure, repeating until nothing changes.
func decode(p string) (string, error) {
	for round := 0; ; round++ {
		if !strings.Contains(p, "%") {
			return p, nil
		}
		next, err := decodeOnce(p)
		if err != nil {
			return "", err
		}
		if next == p {
			return p, nil
		}
		if round == maxDecodeRounds {
			return "", fmt.Errorf("path %q is percent-encoded more than %d times", p, maxDecodeRounds)
		}
		p = next
	}
}

func decodeOnce(p string) (string, error) {
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) {
			switch strings.ToLower(p[i+1 : i+3]) {
			case "2e":
				b.WriteByte('.')
			case "2f":
				b.WriteByte('/')
			case "5c":
				b.WriteByte('\\')
			case "25":
				b.WriteByte('%')
			case "00":
				return "", ErrNUL
			default:
				b.WriteByte('%')
				continue
			}
			i += 2
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String(), nil
}

// expandTilde expands a leading ~ or ~user the way a shell does.
func expandTilde(p, home string) (string, error) {
	if p == "" || p[0] != '~' {
		return p, nil
	}
	name, rest, _ := strings.Cut(p[1:], "/")
	if name == "" {
		if home == "" {
			// No home to expand against: the path stays relative and
			// names a directory called "~", which is what a tool given
			// the literal string would open.
			return p, nil
		}
		return home + "/" + rest, nil
	}
	dir, err := UserHome(name)
	if err != nil {
		return "", fmt.Errorf("expanding ~%s: %w", name, err)
	}
	return dir + "/" + rest, nil
}

// resolve walks the path rel from the real directory start, component by
// component like the kernel does, replacing existing symbolic links by
// their targets, and names in links by theirs.
func resolve(start, rel string, links Links) (string, error) {
	// todo holds the components still to walk, in reverse order so the
	// next one is at the end and a link target can be pushed cheaply.
	todo := reversed(strings.Split(rel, "/"))
	done := start
	// missing holds components below done that do not exist; they are
	// kept lexically, and a ".." that climbs back out of them returns to
	// resolving, so "missing/../link" still follows link.
	var missing []string
	hops := 0
	// followLink replaces the link at next by target.
	followLink := func(next, target string) error {
		hops++
		if hops > maxLinks {
			return fmt.Errorf("%s: %w", next, ErrLoop)
		}
		if strings.HasPrefix(target, "/") {
			done, missing = "/", nil
		}
		todo = append(todo, reversed(strings.Split(target, "/"))...)
		if len(todo) > MaxLen {
			return fmt.Errorf("%s: %w", next, ErrTooLong)
		}
		return nil
	}
	for len(todo) > 0 {
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		switch {
		case c == "" || c == ".":
			continue
		case c == ".." && len(missing) > 0:
			missing = missing[:len(missing)-1]
			continue
		case c == "..":
			// done is a real directory with no links in it, so its
			// lexical parent is the kernel's "..".
			done = filepath.Dir(done)
			continue
		}
		if len(links) > 0 {
			// A link still to be made may lie below a directory that
			// does not exist yet either (mkdir d && ln -s /etc d/e).
			at := join(done, c)
			if len(missing) > 0 {
				at = join(done, strings.Join(missing, "/")+"/"+c)
			}
			if target, ok := links[at]; ok {
				if target == "" {
					return "", fmt.Errorf("%s: %w", at, ErrUnknownLink)
				}
				if err := followLink(at, target); err != nil {
					return "", err
				}
				continue
			}
		}
		if len(missing) > 0 {
			missing = append(missing, c)
			continue
		}
		next := join(done, c)
		fi, err := os.Lstat(next)
		if err != nil {
			// Missing, unreadable or not a directory: nothing below
			// can be looked up, so the rest is kept lexically.
			missing = append(missing, c)
			continue
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", fmt.Errorf("reading link %s: %w", next, err)
		}
		if err := followLink(next, target); err != nil {
			return "", err
		}
	}
	for _, c := range missing {
		done = join(done, c)
	}
	return done, nil
}

func join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

func reversed(s []string) []string {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}
