package repofacts

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Revision resolves ref to a commit in the repository holding root, with
// the same checks and messages as a base (from names where ref came from,
// such as "--new-from-rev"). A missing git, a root outside a work tree or
// a ref that names no commit is an *Error.
func Revision(ctx context.Context, root, ref, from string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", &Error{Msg: "resolve the root", Err: err}
	}
	g := &git{dir: abs}
	if _, err := g.run(ctx, nil, "rev-parse", "--is-inside-work-tree"); err != nil {
		if _, ok := err.(*Error); ok {
			return "", err
		}
		return "", &Error{Msg: fmt.Sprintf("%s: %s is not inside a git work tree; run vouch in a git repository", from, root)}
	}
	if ref == "" {
		return "", &Error{Msg: fmt.Sprintf("%s: the revision is empty; give a branch, tag or commit", from)}
	}
	_, commit, err := resolveBase(ctx, g, Options{Base: ref, BaseFrom: from})
	return commit, err
}

// ExtractTree writes the regular files of commit's tree below root's
// place in the repository into dir (which must exist), so a whole
// pipeline can run on the code as it was. Symbolic links, submodules and
// entries that would leave dir are skipped: the tree is a repository's
// history and is not trusted to stay inside dir.
func ExtractTree(ctx context.Context, root, commit, dir string) error {
	abs, err := filepath.Abs(root)
	if err != nil {
		return &Error{Msg: "resolve the root", Err: err}
	}
	g := &git{dir: abs}
	prefix, err := g.run(ctx, nil, "rev-parse", "--show-prefix")
	if err != nil {
		return &Error{Msg: "find the root in the repository", Err: err}
	}
	top, err := g.run(ctx, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return &Error{Msg: "find the repository's top level", Err: err}
	}
	treeish := commit
	if p := strings.TrimSpace(string(prefix)); p != "" {
		treeish = commit + ":" + strings.TrimSuffix(p, "/")
	}
	// From the top level: in a subdirectory git archive would restrict
	// the archive to it a second time.
	tg := &git{dir: strings.TrimSpace(string(top))}
	c := tg.cmd(ctx, "archive", "--format=tar", treeish)
	out, err := c.StdoutPipe()
	if err != nil {
		return fmt.Errorf("git archive: %w", err)
	}
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		return &Error{Msg: "run git archive", Err: err}
	}
	xerr := untar(out, dir)
	// Drain what is left so git can exit, then wait for it.
	_, _ = io.Copy(io.Discard, out)
	werr := c.Wait()
	if werr != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = werr.Error()
		}
		return &Error{Msg: fmt.Sprintf("read the tree of %s: git archive: %s", commit, msg)}
	}
	if xerr != nil {
		return fmt.Errorf("extract the tree of %s: %w", commit, xerr)
	}
	return nil
}

// untar writes a tar stream's directories and regular files under dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if name == "." || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
			if err != nil {
				return err
			}
			_, cerr := io.Copy(f, tr)
			if err := f.Close(); cerr == nil {
				cerr = err
			}
			if cerr != nil {
				return cerr
			}
		}
	}
}
