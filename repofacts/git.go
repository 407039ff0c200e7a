package repofacts

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Error is a problem that stops repository facts from being derived: git
// is missing, the root is not inside a work tree, git cannot read the
// repository, or the base does not name a commit. Commands report it as
// bad input (exit 2).
//
// Only an Error that wraps ErrNotWorkTree (errors.Is) says there is no
// work to compare; every other Error means the work could not be read,
// and a caller that binds or checks the work must fail closed on it.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string {
	// Msg already says what ErrNotWorkTree would add.
	if e.Err != nil && e.Err != ErrNotWorkTree {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNotWorkTree is wrapped by the *Error Collect and Revision return when
// no directory from the root upward has a .git entry: the root is not in
// a git work tree at all, so there is no work to compare. A repository
// that exists but that git cannot read (a broken .git/config, an unknown
// repositoryformatversion, a corrupt index) is a different *Error that
// does not wrap it: the work is there and could not be checked.
var ErrNotWorkTree = errors.New("not inside a git work tree")

// git runs the git executable in one directory with a fixed environment:
// no pager, no prompts, no optional locks, no configured external diff or
// text conversion programs (a repository's config must not make vouch run
// its programs), replace refs ignored (refs/replace would let the work
// substitute what a base blob reads as), and an optional private index.
type git struct {
	dir   string
	index string // GIT_INDEX_FILE, or "" for the repository's own
	// env is added to the environment; with private set, it names a
	// private repository and every variable that could point git
	// elsewhere is dropped from vouch's own environment first.
	env     []string
	private bool
}

// baseArgs come before every subcommand. Settings in them win over the
// work's config (which the agent controls) at every level:
// core.ignorecase=false, since with it true git drops an untracked file
// whose name matches a tracked one but for letter case (src/A.js beside
// a base's src/a.js) and .gitignore patterns match regardless of case;
// core.untrackedCache=false, so no cached listing stands in for reading
// the directories. Other settings that touch listing either fail closed
// (core.protectNTFS/protectHFS make update-index refuse a path: an
// error), have no effect outside macOS (core.precomposeunicode, where the
// file system folds the two spellings anyway) or concern only git status
// (status.showUntrackedFiles), which vouch does not run.
var baseArgs = []string{"-c", "core.quotepath=false", "-c", "diff.external=", "-c", "core.fsmonitor=false",
	"-c", "core.ignorecase=false", "-c", "core.untrackedCache=false", "--no-pager"}

func (g *git) cmd(ctx context.Context, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, "git", append(append([]string{}, baseArgs...), args...)...)
	c.Dir = g.dir
	env := os.Environ()
	if g.private {
		env = slices.DeleteFunc(env, func(kv string) bool {
			k, _, _ := strings.Cut(kv, "=")
			switch k {
			case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE":
				return true
			}
			return false
		})
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_PAGER=cat", "GIT_NO_REPLACE_OBJECTS=1")
	if g.index != "" {
		env = append(env, "GIT_INDEX_FILE="+g.index)
	}
	env = append(env, g.env...)
	c.Env = env
	return c
}

// run runs git and returns its standard output. stdin may be nil.
func (g *git) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	c := g.cmd(ctx, args...)
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errNoGit()
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.Bytes(), nil
}

// openWorkTree checks that git can read the work tree holding g.dir; shown
// names the root in messages and hint says what to do when it is not in a
// work tree. Only a missing .git entry is ErrNotWorkTree: when one exists
// and git still fails (a repository format it does not know, a broken
// config or HEAD), the work is there and could not be read.
func openWorkTree(ctx context.Context, g *git, shown, hint string) error {
	// No .git entry is decided without git, so a machine without git
	// still runs the checks that need no repository; with one, a missing
	// git is an error, never taken for "no work tree".
	if !hasGitEntry(g.dir) {
		return &Error{Msg: fmt.Sprintf("%s is not inside a git work tree (no .git at or above it); %s", shown, hint), Err: ErrNotWorkTree}
	}
	if _, err := exec.LookPath("git"); err != nil {
		return errNoGit()
	}
	out, err := g.run(ctx, nil, "rev-parse", "--is-inside-work-tree")
	if err != nil {
		if _, ok := err.(*Error); ok {
			return err
		}
		return &Error{Msg: fmt.Sprintf("git cannot read the repository holding %s, so the work in it cannot be checked; repair the repository (git status shows what is wrong) and run vouch again", shown), Err: err}
	}
	if strings.TrimSpace(string(out)) != "true" {
		return &Error{Msg: fmt.Sprintf("%s is inside a git directory, not a work tree; run vouch in the work tree", shown)}
	}
	return nil
}

// hasGitEntry reports whether dir or a directory above it has a .git entry
// (a directory, or the file a linked worktree or submodule has), or
// GIT_DIR names the repository. It looks past GIT_CEILING_DIRECTORIES on
// purpose: a repository that git was told not to find is still one.
func hasGitEntry(dir string) bool {
	if os.Getenv("GIT_DIR") != "" {
		return true
	}
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		up := filepath.Dir(d)
		if up == d {
			return false
		}
		d = up
	}
}

func errNoGit() error {
	return &Error{Msg: "the git executable was not found on PATH; install git (repository facts are read with it)"}
}

// splitZ splits NUL-terminated records.
func splitZ(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			out = append(out, string(b))
			break
		}
		out = append(out, string(b[:i]))
		b = b[i+1:]
	}
	return out
}

// blobReader reads objects through one `git cat-file --batch` process,
// so reading a thousand base blobs costs one process, not a thousand.
type blobReader struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func (g *git) blobs(ctx context.Context) (*blobReader, error) {
	c := g.cmd(ctx, "cat-file", "--batch")
	in, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errNoGit()
		}
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return &blobReader{cmd: c, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

// read returns the content of the object named by spec (a blob id, or
// COMMIT:PATH), or ok false when it does not exist.
func (b *blobReader) read(spec string, max int64) (data []byte, ok bool, err error) {
	if strings.ContainsAny(spec, "\n") {
		return nil, false, nil
	}
	if _, err := io.WriteString(b.in, spec+"\n"); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %w", err)
	}
	header, err := b.out.ReadString('\n')
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file: %w", err)
	}
	header = strings.TrimSuffix(header, "\n")
	if strings.HasSuffix(header, " missing") || strings.HasSuffix(header, " ambiguous") {
		return nil, false, nil
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return nil, false, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	buf := make([]byte, size+1) // content and the trailing newline
	if _, err := io.ReadFull(b.out, buf); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %w", err)
	}
	if f[1] != "blob" {
		return nil, false, nil
	}
	if size > max {
		return nil, true, nil
	}
	return buf[:size], true, nil
}

// copyTo streams the blob id to w without holding it in memory; ok is
// false when there is no such blob.
func (b *blobReader) copyTo(id string, w io.Writer) (ok bool, err error) {
	if strings.ContainsAny(id, "\n") {
		return false, nil
	}
	if _, err := io.WriteString(b.in, id+"\n"); err != nil {
		return false, fmt.Errorf("git cat-file: %w", err)
	}
	header, err := b.out.ReadString('\n')
	if err != nil {
		return false, fmt.Errorf("git cat-file: %w", err)
	}
	header = strings.TrimSuffix(header, "\n")
	if strings.HasSuffix(header, " missing") || strings.HasSuffix(header, " ambiguous") {
		return false, nil
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return false, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return false, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	if f[1] != "blob" {
		w = io.Discard
	}
	if _, err := io.CopyN(w, b.out, size); err != nil {
		return false, fmt.Errorf("git cat-file: %w", err)
	}
	if _, err := b.out.Discard(1); err != nil { // the trailing newline
		return false, fmt.Errorf("git cat-file: %w", err)
	}
	return f[1] == "blob", nil
}

func (b *blobReader) close() {
	b.in.Close()
	_ = b.cmd.Wait()
}
