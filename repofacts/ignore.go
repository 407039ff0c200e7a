package repofacts

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/vouch-dev/vouch/imports"
)

// treeReader reads a commit's tree for imports.ListUnignored: the
// .gitignore rules vouch lint and repository facts honour are the ones
// it has. Every object it reads, from the commit down the trees to each
// .gitignore, is hashed again as it is read (blobReader.answer): the
// work controls .git/objects, where a forged object could give the base
// a rule it never had. Only the trees on the paths asked for are read.
type treeReader struct {
	name string
	b    *blobReader
	// own says Close ends b.
	own   bool
	root  string // the commit's tree
	trees map[string][]treeEntry
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	mode, name, id string
}

// openTree reads commit (an id; HEAD, which names no commit in a
// repository without one) through b and returns a reader of its tree.
func openTree(b *blobReader, name, commit string, own bool) (*treeReader, error) {
	if commit == emptyTree {
		return nil, imports.ErrNoCommit
	}
	r := &treeReader{name: name, b: b, own: own, trees: map[string][]treeEntry{}}
	want := commit
	if commit == "HEAD" {
		want = "" // the id git names it by
	}
	data, ok, err := r.object(commit, want, "commit")
	if err != nil {
		return nil, err
	}
	if !ok {
		if commit == "HEAD" {
			return nil, imports.ErrNoCommit
		}
		return nil, r.lacks(commit)
	}
	size := 2 * b.f.new().Size()
	id, ok := bytes.CutPrefix(data, []byte("tree "))
	if !ok || len(id) < size || (len(id) > size && id[size] != '\n') {
		return nil, fmt.Errorf("commit %s: no tree line", commit)
	}
	r.root = string(id[:size])
	return r, nil
}

func (r *treeReader) Close() {
	if r.own {
		r.b.close()
	}
}

// Lookup is imports.TreeReader's. The trees on the paths are read a
// level at a time, and the .gitignore blobs all at once, each batch's
// requests written while its answers are read: a round trip per level,
// not per object.
func (r *treeReader) Lookup(paths []string) ([]imports.TreeEntry, error) {
	deepest := 0
	for _, p := range paths {
		deepest = max(deepest, strings.Count(p, "/")+1)
	}
	for depth := range deepest {
		var ids []string
		seen := map[string]bool{}
		for _, p := range paths {
			parts := strings.Split(p, "/")
			if depth >= len(parts) {
				continue
			}
			id, ok := r.dirTree(parts[:depth])
			if _, cached := r.trees[id]; ok && !cached && !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			if err := r.readTrees(ids); err != nil {
				return nil, err
			}
		}
	}
	out := make([]imports.TreeEntry, len(paths))
	var blobs []string
	var at []int
	for i, p := range paths {
		e, ok := r.find(p)
		if !ok {
			continue
		}
		out[i].Present = true
		if e.mode != modeFile && e.mode != modeExec {
			continue
		}
		out[i].File = true
		if pathBase(p) == ".gitignore" {
			blobs = append(blobs, e.id)
			at = append(at, i)
		}
	}
	if len(blobs) == 0 {
		return out, nil
	}
	sent := r.send(blobs)
	for k, id := range blobs {
		var buf *bytes.Buffer
		_, typ, ok, err := r.b.answer(id, func(typ string, size int64) io.Writer {
			if typ != "blob" || size > imports.MaxGitignoreBytes {
				return nil
			}
			buf = bytes.NewBuffer(make([]byte, 0, size))
			return buf
		})
		if err == nil && (!ok || typ != "blob") {
			err = r.lacks(id)
		}
		if err != nil {
			r.b.abort()
			return nil, err
		}
		if buf == nil {
			out[at[k]].Big = true
		} else {
			out[at[k]].Data = buf.Bytes()
		}
	}
	if err := <-sent; err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return out, nil
}

// send writes a request for each of ids from another goroutine, so a
// batch larger than the pipes cannot block; its error arrives on the
// channel once every request is written.
func (r *treeReader) send(ids []string) <-chan error {
	sent := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(r.b.in, 64<<10)
		for _, id := range ids {
			if _, err := w.WriteString(id + "\n"); err != nil {
				sent <- err
				return
			}
		}
		sent <- w.Flush()
	}()
	return sent
}

// readTrees reads and parses the trees ids (verified) in one batch.
func (r *treeReader) readTrees(ids []string) error {
	sent := r.send(ids)
	for _, id := range ids {
		var buf bytes.Buffer
		_, typ, ok, err := r.b.answer(id, func(string, int64) io.Writer { return &buf })
		if err == nil && !ok {
			err = r.lacks(id)
		}
		if err == nil && typ != "tree" {
			err = fmt.Errorf("object %s of %s is a %s, not a tree", id, r.name, typ)
		}
		if err != nil {
			r.b.abort()
			return err
		}
		es, err := parseTree(buf.Bytes(), r.b.f.new().Size())
		if err != nil {
			r.b.abort()
			return errTampered(id)
		}
		r.trees[id] = es
	}
	if err := <-sent; err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	return nil
}

// dirTree returns the id of the tree at the directory parts (the root
// for none), from the trees read so far; ok is false when it is not
// known to be one.
func (r *treeReader) dirTree(parts []string) (string, bool) {
	id := r.root
	for _, name := range parts {
		es, ok := r.trees[id]
		if !ok {
			return "", false
		}
		k := slices.IndexFunc(es, func(e treeEntry) bool { return e.name == name })
		if k < 0 || es[k].mode != "40000" {
			return "", false
		}
		id = es[k].id
	}
	return id, true
}

// find returns p's entry from the trees read (Lookup reads every tree on
// the path first); ok is false when there is none.
func (r *treeReader) find(p string) (treeEntry, bool) {
	parts := strings.Split(p, "/")
	id, ok := r.dirTree(parts[:len(parts)-1])
	if !ok {
		return treeEntry{}, false
	}
	es := r.trees[id]
	k := slices.IndexFunc(es, func(e treeEntry) bool { return e.name == parts[len(parts)-1] })
	if k < 0 {
		return treeEntry{}, false
	}
	return es[k], true
}

// object reads the object spec names, which must be of type typ,
// verified against want (blobReader.answer); ok is false when there is
// none.
func (r *treeReader) object(spec, want, typ string) ([]byte, bool, error) {
	if err := r.b.request(spec); err != nil {
		return nil, false, err
	}
	var buf bytes.Buffer
	_, got, ok, err := r.b.answer(want, func(string, int64) io.Writer { return &buf })
	if err != nil || !ok {
		return nil, false, err
	}
	if got != typ {
		return nil, false, fmt.Errorf("object %s of %s is a %s, not a %s", spec, r.name, got, typ)
	}
	return buf.Bytes(), true, nil
}

func (r *treeReader) lacks(id string) error {
	return &Error{Msg: fmt.Sprintf("the repository's object store lacks object %s of %s; fetch it, or check the work in a fresh clone", id, r.name)}
}

// parseTree reads a tree object's entries: mode SP name NUL raw-id,
// repeated; size is the raw id's length.
func parseTree(data []byte, size int) ([]treeEntry, error) {
	var es []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+1+size {
			return nil, fmt.Errorf("malformed tree")
		}
		es = append(es, treeEntry{mode: string(data[:sp]), name: string(data[sp+1 : nul]), id: hex.EncodeToString(data[nul+1 : nul+1+size])})
		data = data[nul+1+size:]
	}
	return es, nil
}

func pathBase(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// knownTree is a commit read through a blobReader that is already open
// (repository facts'), as imports.TrustedTree.
type knownTree struct {
	name, commit string
	b            *blobReader
}

func (t *knownTree) Name() string { return t.name }

func (t *knownTree) Open(context.Context) (imports.TreeReader, error) {
	r, err := openTree(t.b, t.name, t.commit, false)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// lazyTree resolves its commit and starts its own cat-file process when
// opened, as imports.TrustedTree.
type lazyTree struct {
	mu   sync.Mutex
	name string
	// start starts the reader and says which commit to read and its
	// name.
	start func(ctx context.Context) (b *blobReader, commit, name string, err error)
}

func (t *lazyTree) Name() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.name
}

func (t *lazyTree) Open(ctx context.Context) (imports.TreeReader, error) {
	b, commit, name, err := t.start(ctx)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.name = name
	t.mu.Unlock()
	if b == nil {
		return nil, imports.ErrNoCommit
	}
	r, err := openTree(b, name, commit, true)
	if err != nil {
		b.abort()
		return nil, err
	}
	return r, nil
}

// HeadTree is the tree of HEAD in the repository holding root, whose
// .gitignore rules vouch lint honours (imports.Options.Trusted): a rule
// the work adds hides no file from the rules until it is committed. In a
// repository without commits (HEAD names none) the work tree's rules
// stand. One cat-file process reads it, HEAD included.
func HeadTree(root string) imports.TrustedTree {
	return &lazyTree{name: "HEAD", start: func(ctx context.Context) (*blobReader, string, string, error) {
		g, err := gitAt(root)
		if err != nil {
			return nil, "", "HEAD", err
		}
		// The format is read off the first id cat-file prints.
		b, err := g.blobs(ctx, objectFormat{})
		return b, "HEAD", "HEAD", err
	}}
}

// BaseTree is the tree of the base repository facts compare the work
// with (base and from as Options' Base and BaseFrom; "" for the
// default), whose .gitignore rules the gate's architecture check honours
// (imports.Options.Trusted), as repository facts do: both then list the
// same files.
func BaseTree(root, base, from string) imports.TrustedTree {
	return &lazyTree{name: "the base", start: func(ctx context.Context) (*blobReader, string, string, error) {
		g, err := gitAt(root)
		if err != nil {
			return nil, "", "the base", err
		}
		desc, commit, err := resolveBase(ctx, g, Options{Base: base, BaseFrom: from})
		if err != nil {
			return nil, "", "the base", err
		}
		name := "the base " + desc
		if commit == emptyTree {
			return nil, emptyTree, name, nil
		}
		b, err := g.blobs(ctx, objectFormat{})
		return b, commit, name, err
	}}
}

func gitAt(root string) (*git, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, &Error{Msg: "resolve the root", Err: err}
	}
	return &git{dir: abs}, nil
}
