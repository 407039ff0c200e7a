package repofacts

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
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
	// Msg already says what ErrNotWorkTree or ErrNoBase would add.
	if e.Err != nil && e.Err != ErrNotWorkTree && e.Err != ErrNoBase {
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
	out, _, err := g.runErr(ctx, stdin, args...)
	return out, err
}

// runErr runs git and returns its standard output and, when it
// succeeds, what it wrote on its standard error (warnings).
func (g *git) runErr(ctx context.Context, stdin []byte, args ...string) (out, warnings []byte, err error) {
	c := g.cmd(ctx, args...)
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, nil, errNoGit()
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.Bytes(), stderr.Bytes(), nil
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
	top, ok := gitEntryDir(g.dir)
	if !ok {
		return &Error{Msg: fmt.Sprintf("%s is not inside a git work tree (no .git at or above it); %s", shown, hint), Err: ErrNotWorkTree}
	}
	if _, err := exec.LookPath("git"); err != nil {
		return errNoGit()
	}
	out, err := g.run(ctx, nil, "rev-parse", "--is-inside-work-tree", "--show-toplevel")
	if err != nil {
		if _, ok := err.(*Error); ok {
			return err
		}
		return &Error{Msg: fmt.Sprintf("git cannot read the repository holding %s, so the work in it cannot be checked; repair the repository (git status shows what is wrong) and run vouch again", shown), Err: err}
	}
	inside, toplevel, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if inside != "true" {
		return &Error{Msg: fmt.Sprintf("%s is inside a git directory, not a work tree; run vouch in the work tree", shown)}
	}
	// The work tree is the directory holding the .git entry. A
	// repository's core.worktree can name another (a parent, so the
	// root's files sit under a prefix no base path has), and git would
	// then compare the wrong trees: refuse it rather than follow it.
	if top != "" {
		want, err := filepath.EvalSymlinks(top)
		if err != nil {
			want = top
		}
		if filepath.Clean(toplevel) != filepath.Clean(want) {
			return &Error{Msg: fmt.Sprintf("git takes %s as the work tree of the repository at %s (core.worktree?); vouch checks the directory that holds .git: remove the setting (git config --unset core.worktree) and run vouch again", toplevel, top)}
		}
	}
	return nil
}

// gitEntryDir returns the nearest of dir and the directories above it that
// has a .git entry (a directory, or the file a linked worktree or
// submodule has). ok is also true, with top "", when GIT_DIR names the
// repository: then the caller's environment says where it is. It looks
// past GIT_CEILING_DIRECTORIES on purpose: a repository that git was told
// not to find is still one.
func gitEntryDir(dir string) (top string, ok bool) {
	if os.Getenv("GIT_DIR") != "" {
		return "", true
	}
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", false
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
//
// Every object it returns is hashed again as git names objects ("TYPE
// SIZE\x00" and the content, with the repository's object format) and
// compared with its id: git verifies no object cat-file prints, and the
// work controls .git/objects, so a loose object file (or a pack) may hold
// other content than its id names. A mismatch is an *Error.
type blobReader struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	f   objectFormat
}

func (g *git) blobs(ctx context.Context, f objectFormat) (*blobReader, error) {
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
	return &blobReader{cmd: c, in: in, out: bufio.NewReaderSize(out, 64<<10), f: f}, nil
}

// objectFormat asks git for the repository's object format.
func (g *git) objectFormat(ctx context.Context) (objectFormat, error) {
	out, err := g.run(ctx, nil, "rev-parse", "--show-object-format")
	if err != nil {
		return objectFormat{}, err
	}
	return formatOf(strings.TrimSpace(string(out)))
}

// errTampered is the *Error for an object whose content does not hash to
// its id.
func errTampered(id string) error {
	return &Error{Msg: fmt.Sprintf("the repository's object store is corrupt or tampered with: object %s does not hash to its id, so the base cannot be read; run git fsck, and check the work in a fresh clone", id)}
}

// request asks for the object named by spec (an id, or COMMIT:PATH).
func (b *blobReader) request(spec string) error {
	if _, err := io.WriteString(b.in, spec+"\n"); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	return nil
}

// answer reads the answer to one request: the object's content goes to
// the writer sink returns for its type and size (nil discards it), and
// is verified against want (an id; "" takes the id git names it by).
// ok is false when there is no such object.
func (b *blobReader) answer(want string, sink func(typ string, size int64) io.Writer) (id, typ string, ok bool, err error) {
	header, err := b.out.ReadString('\n')
	if err != nil {
		return "", "", false, fmt.Errorf("git cat-file: %w", err)
	}
	header = strings.TrimSuffix(header, "\n")
	if strings.HasSuffix(header, " missing") || strings.HasSuffix(header, " ambiguous") {
		return "", "", false, nil
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return "", "", false, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return "", "", false, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	id, typ = f[0], f[1]
	if want != "" && id != want {
		return "", "", false, fmt.Errorf("git cat-file: asked for %s, got %q", want, header)
	}
	if b.f.new == nil {
		// Started without asking git the format (HeadTree): the first
		// id's length says it.
		if b.f, err = formatOf(map[int]string{40: "sha1", 64: "sha256"}[len(id)]); err != nil {
			return "", "", false, fmt.Errorf("git cat-file: unexpected header %q", header)
		}
	}
	h := b.f.new()
	h.Write([]byte(typ + " " + f[2] + "\x00"))
	var w io.Writer = h
	if dst := sink(typ, size); dst != nil {
		w = io.MultiWriter(h, dst)
	}
	if _, err := io.CopyN(w, b.out, size); err != nil {
		return "", "", false, fmt.Errorf("git cat-file: %w", err)
	}
	if _, err := b.out.Discard(1); err != nil { // the trailing newline
		return "", "", false, fmt.Errorf("git cat-file: %w", err)
	}
	if hex.EncodeToString(h.Sum(nil)) != id {
		return "", "", false, errTampered(id)
	}
	return id, typ, true, nil
}

// read returns the content of the blob named by spec (a blob id, or
// COMMIT:PATH), or ok false when there is no such blob; data is nil when
// the blob is larger than max.
func (b *blobReader) read(spec string, max int64) (data []byte, ok bool, err error) {
	if strings.ContainsAny(spec, "\n") {
		return nil, false, nil
	}
	if err := b.request(spec); err != nil {
		return nil, false, err
	}
	want := ""
	if !strings.Contains(spec, ":") {
		want = spec
	}
	var buf *bytes.Buffer
	_, typ, ok, err := b.answer(want, func(typ string, size int64) io.Writer {
		if typ != "blob" || size > max {
			return nil
		}
		buf = bytes.NewBuffer(make([]byte, 0, size))
		return buf
	})
	if err != nil || !ok || typ != "blob" {
		return nil, false, err
	}
	if buf == nil {
		return nil, true, nil
	}
	return buf.Bytes(), true, nil
}

// copyTo streams the blob id to w without holding it in memory; ok is
// false when there is no such blob. On a verification error w has
// received the content already: the caller must discard what it wrote.
func (b *blobReader) copyTo(id string, w io.Writer) (ok bool, err error) {
	if strings.ContainsAny(id, "\n") {
		return false, nil
	}
	if err := b.request(id); err != nil {
		return false, err
	}
	_, typ, ok, err := b.answer(id, func(typ string, _ int64) io.Writer {
		if typ != "blob" {
			return nil
		}
		return w
	})
	return ok && typ == "blob", err
}

func (b *blobReader) close() {
	b.in.Close()
	_ = b.cmd.Wait()
}

// abort ends the process without waiting for it to answer what it was
// asked: a writer blocked on a full pipe then fails instead of hanging.
func (b *blobReader) abort() {
	_ = b.cmd.Process.Kill()
	b.close()
}
