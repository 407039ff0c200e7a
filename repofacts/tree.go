package repofacts

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Revision resolves ref to a commit in the repository holding root, with
// the same checks and messages as a base (from names where ref came from,
// such as "--new-from-rev"). A missing git, a root outside a work tree
// (wrapping ErrNotWorkTree), a repository git cannot read or a ref that
// names no commit is an *Error.
func Revision(ctx context.Context, root, ref, from string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", &Error{Msg: "resolve the root", Err: err}
	}
	g := &git{dir: abs}
	if err := openWorkTree(ctx, g, root, "run vouch in a git repository"); err != nil {
		if e, ok := err.(*Error); ok {
			e.Msg = from + ": " + e.Msg
		}
		return "", err
	}
	if ref == "" {
		return "", &Error{Msg: fmt.Sprintf("%s: the revision is empty; give a branch, tag or commit", from)}
	}
	_, commit, err := resolveBase(ctx, g, Options{Base: ref, BaseFrom: from})
	return commit, err
}

// BaseCommit resolves the base a run given base (from names where it came
// from; "" for the default) compares the work with, as Collect would,
// without reading the work: receipt verify needs only the commit. Errors
// are Collect's: a root outside a work tree wraps ErrNotWorkTree.
func BaseCommit(ctx context.Context, root, base, from string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", &Error{Msg: "resolve the root", Err: err}
	}
	g := &git{dir: abs}
	if err := openWorkTree(ctx, g, root, "run vouch in a git repository"); err != nil {
		return "", err
	}
	_, commit, err := resolveBase(ctx, g, Options{Base: base, BaseFrom: from})
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
	// From the top level: in a subdirectory ls-tree would restrict the
	// listing to it a second time.
	tg := &git{dir: strings.TrimSpace(string(top))}
	list, err := tg.run(ctx, nil, "ls-tree", "-r", "-z", "--full-tree", treeish)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return &Error{Msg: fmt.Sprintf("read the tree of %s: %s", commit, e.Msg), Err: e.Err}
		}
		return fmt.Errorf("read the tree of %s: %w", commit, err)
	}
	format, err := tg.objectFormat(ctx)
	if err != nil {
		return &Error{Msg: "read the repository's object format", Err: err}
	}
	b, err := tg.blobs(ctx, format)
	if err != nil {
		return err
	}
	defer b.close()
	// ls-tree walked trees git does not verify: check them now, and each
	// blob as it is copied.
	if err := verifyTrees(b, commit); err != nil {
		return err
	}
	for _, entry := range splitZ(list) {
		// mode SP type SP object TAB path
		meta, name, ok := strings.Cut(entry, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") {
			continue // links, submodules
		}
		name = path.Clean(name)
		if name == "." || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			continue
		}
		if err := writeBlob(b, f[2], filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			return fmt.Errorf("extract the tree of %s: %w", commit, err)
		}
	}
	return nil
}

// writeBlob writes the blob id as a new regular file dst.
func writeBlob(b *blobReader, id, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, cerr := b.copyTo(id, f)
	if err := f.Close(); cerr == nil {
		cerr = err
	}
	return cerr
}
