// Package repofacts derives the repository document: what changed between
// a base commit and the working tree, read from the git executable and from
// vouch's own import extractor. Rulespec claims with `from: repo` select
// from it, so an agent's claims are checked against what it did.
//
// The working tree is compared including untracked files that are not
// ignored; the files vouch itself writes (the envelope, its artifacts,
// caches and guard logs; see ownFiles) are left out, and nothing else.
// What changed is decided by hashing the working tree's files, not by
// git's index, and git is run with -z plumbing output and a private index
// and object directory, so the repository's own index and objects are
// never written.
package repofacts

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/safeopen"
)

// MaxFileBytes bounds the content read from one file (either side) for
// imports, dependencies and exports; larger files are still listed with
// their line counts.
const MaxFileBytes = 4 << 20

// Options say where the repository is and what to compare.
type Options struct {
	// Root is the repository root vouch works under; it must be inside a
	// git work tree. Paths in the document are relative to it, and only
	// changes under it are listed.
	Root string
	// Base is the base revision (--base, or vouch.yaml's base:); empty
	// means the merge-base with the default branch's upstream when there
	// is one, else HEAD when the repository has no remote and is not a
	// shallow clone (else an error wrapping ErrNoBase).
	Base string
	// BaseFrom says where Base came from, for error messages ("--base",
	// "vouch.yaml base:").
	BaseFrom string
	// Envelope is the envelope's path, relative to the working directory
	// or absolute: left out even when committed, since it is committed
	// with the work.
	Envelope string
	// Exclude are vouch's own outputs, relative to the working directory
	// or absolute: the artifacts, the output directory. Each is left out
	// as a file and, as a directory, only the artifacts vouch writes into
	// one (ArtifactNames); the rest of a directory is work. The files
	// vouch writes under .vouch on its own are left out too (ownFiles);
	// every other path there is work. None of these is left out when it
	// is in the base tree or the repository's index: vouch never commits
	// them, so one that is tracked was put there by the work.
	Exclude []string
	// StateOnly derives only what State needs (the changed paths and
	// their contents), not imports, dependencies or exports: staleness
	// checks run it on every gate.
	StateOnly bool
	// Hashes, when not nil, shares working-tree blob ids between the
	// calls of one run (see Hashes).
	Hashes *Hashes
}

// File is one changed path.
type File struct {
	Path         string `json:"path"`
	Status       string `json:"status"`
	OldPath      string `json:"old_path,omitempty"`
	LinesAdded   int64  `json:"lines_added"`
	LinesDeleted int64  `json:"lines_deleted"`
	Lang         string `json:"lang,omitempty"`
	Test         bool   `json:"test"`
	Binary       bool   `json:"binary"`
}

// File statuses.
const (
	Added    = "added"
	Modified = "modified"
	Deleted  = "deleted"
	Renamed  = "renamed"
)

// Dependency is an external module or package.
type Dependency struct {
	// Ecosystem is go, npm, python or cargo.
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	// Version is the requirement as written, when a manifest gives one.
	Version string `json:"version,omitempty"`
	// Source is the manifest, or the file whose new import names it.
	Source string `json:"source"`
}

// Doc is the repository document. Lists are sorted and never null.
type Doc struct {
	// Base is the base as given (or the default's description) and
	// BaseCommit the commit it resolved to; BaseCommit is the empty tree's
	// id in a repository without commits.
	Base       string   `json:"base"`
	BaseCommit string   `json:"base_commit"`
	Files      []File   `json:"files"`
	Changed    []string `json:"changed"`
	Added      []string `json:"added"`
	Modified   []string `json:"modified"`
	Deleted    []string `json:"deleted"`
	// Renamed files are in changed by both their old and their new path
	// (a rule forbidding a path must see it leave), in renamed by their
	// new path; their old path is also in files[].old_path.
	Renamed             []string         `json:"renamed"`
	TestsChanged        []string         `json:"tests_changed"`
	ImportsAdded        []imports.Record `json:"imports_added"`
	ImportsRemoved      []imports.Record `json:"imports_removed"`
	DependenciesAdded   []Dependency     `json:"dependencies_added"`
	DependenciesRemoved []Dependency     `json:"dependencies_removed"`
	GoExportsRemoved    []string         `json:"go_exports_removed"`
	// Warnings are problems that did not stop the derivation (a file that
	// could not be parsed, a manifest that could not be read).
	Warnings []string `json:"-"`

	// state is the content digest of every changed path, for stamps.
	state map[string]string
}

// JSON is the document as compact JSON, the form claims select from.
func (d *Doc) JSON() []byte {
	b, err := json.Marshal(d)
	if err != nil {
		// Every field is a plain string, number, bool or slice of them.
		panic(fmt.Sprintf("repofacts: encode: %v", err))
	}
	return b
}

// change is one entry of git's diff before it becomes a File.
type change struct {
	File
	oldBlob string // base blob id, "" for added files
	// tracked is set when Path is in the base tree or the repository's
	// index (the old path of a rename always is).
	tracked bool
	// gitlink is the state of a submodule the work has at Path
	// (gitlinkChanges), "" for a file.
	gitlink string
}

// Collect derives the document for opts.
func Collect(ctx context.Context, opts Options) (*Doc, error) {
	root := opts.Root
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, &Error{Msg: "repository facts: resolve the root", Err: err}
	}
	g := &git{dir: abs}
	if err := openWorkTree(ctx, g, root, "run vouch in a git repository (rules with from: repo compare the work with a base commit)"); err != nil {
		if e, ok := err.(*Error); ok {
			e.Msg = "repository facts: " + e.Msg
		}
		return nil, err
	}
	base, commit, err := resolveBase(ctx, g, opts)
	if err != nil {
		return nil, err
	}
	d := &Doc{Base: base, BaseCommit: commit, state: map[string]string{}}
	changes, links, err := diff(ctx, g, base, commit, opts.Hashes)
	if err != nil {
		return nil, &Error{Msg: "repository facts: compare the working tree with " + base, Err: err}
	}
	own := ownOf(abs, opts.Envelope, opts.Exclude)
	changes = excludeOwn(own, changes)
	if err := badNames(changes); err != nil {
		return nil, err
	}
	if err := d.build(ctx, g, abs, changes, links, own, opts.StateOnly); err != nil {
		return nil, err
	}
	if err := badStrings(d); err != nil {
		return nil, err
	}
	return d, nil
}

// ownOf is the set of vouch's own files (ownFiles) under root: the
// envelope, the artifacts in the output directories given (exclude), and
// the files vouch writes under .vouch.
func ownOf(root, envelope string, exclude []string) ownSet {
	var given []string
	for _, e := range exclude {
		if p, ok := rootRel(root, e); ok {
			given = append(given, p)
		}
	}
	env, _ := rootRel(root, envelope)
	return ownFiles(env, given)
}

// excludeOwn drops vouch's own files, each only while untracked (the
// envelope always).
func excludeOwn(own ownSet, cs []change) []change {
	out := cs[:0]
	for _, c := range cs {
		// The old path of a rename is in the base tree.
		if own.has(c.Path, c.tracked) {
			if c.Status != Renamed || own.has(c.OldPath, true) {
				continue
			}
			// A file renamed into vouch's outputs left its old place.
			c.Status, c.Path, c.OldPath = Deleted, c.OldPath, ""
		} else if c.Status == Renamed && own.has(c.OldPath, true) {
			c.Status, c.OldPath, c.oldBlob = Added, "", ""
		}
		out = append(out, c)
	}
	return out
}

// rootRel makes p (absolute, or relative to the working directory, as
// every path vouch is given) relative to root, '/'-separated; ok is
// false when it is empty or outside root.
func rootRel(root, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", false
		}
		p = abs
	}
	r, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(r) {
		return "", false
	}
	return filepath.ToSlash(filepath.Clean(r)), true
}

// build fills the document from the changes; links are the base tree's
// symbolic links (diff).
func (d *Doc) build(ctx context.Context, g *git, root string, cs []change, links map[string]string, own ownSet, stateOnly bool) error {
	slices.SortFunc(cs, func(a, b change) int { return strings.Compare(a.Path, b.Path) })
	d.Files = make([]File, 0, len(cs))
	d.Changed, d.Added, d.Modified, d.Deleted, d.Renamed, d.TestsChanged = []string{}, []string{}, []string{}, []string{}, []string{}, []string{}
	for i := range cs {
		c := &cs[i]
		if l, ok := imports.LangOf(c.Path); ok {
			c.Lang = string(l)
		}
		c.Test = isTest(c.Path)
		d.Files = append(d.Files, c.File)
		d.Changed = append(d.Changed, c.Path)
		switch c.Status {
		case Added:
			d.Added = append(d.Added, c.Path)
		case Modified:
			d.Modified = append(d.Modified, c.Path)
		case Deleted:
			d.Deleted = append(d.Deleted, c.Path)
		case Renamed:
			d.Renamed = append(d.Renamed, c.Path)
			// The old path was touched too: a rename must not hide
			// a protected file from a rule over changed.
			d.Changed = append(d.Changed, c.OldPath)
		}
		if c.Test {
			d.TestsChanged = append(d.TestsChanged, c.Path)
		}
	}
	// An old path can sort anywhere, and may be another change's path
	// too (a.txt renamed to b.txt while a new a.txt is added).
	slices.Sort(d.Changed)
	d.Changed = slices.Compact(d.Changed)
	if stateOnly {
		src := &sources{root: root, cs: cs, commit: d.BaseCommit}
		src.hashAll()
		d.state = src.digests()
		return nil
	}
	format, err := g.objectFormat(ctx)
	if err != nil {
		return err
	}
	br, err := g.blobs(ctx, format)
	if err != nil {
		return err
	}
	defer br.close()
	src := &sources{root: root, blobs: br, cs: cs, commit: d.BaseCommit, baseLinks: links}
	if err := src.load(); err != nil {
		return &Error{Msg: "repository facts: read file contents", Err: err}
	}
	d.state = src.digests()
	if err := d.importDiff(ctx, g, root, src, own); err != nil {
		return err
	}
	if err := d.dependencyDiff(ctx, g, src); err != nil {
		if e, ok := err.(*Error); ok {
			return e // a manifest vouch cannot read, or the base's listing
		}
		return &Error{Msg: "repository facts: read the base's manifests", Err: err}
	}
	if err := d.exportDiff(ctx, g, root, src); err != nil {
		return &Error{Msg: "repository facts: compare Go exports", Err: err}
	}
	return nil
}

// sources holds both sides of the changed files that vouch reads.
type sources struct {
	root   string
	commit string
	blobs  *blobReader
	cs     []change
	// old and cur map a path to its content at base (by old path) and in
	// the working tree; a missing key means the side does not exist, a
	// nil value that it was too large to read.
	old, cur map[string][]byte
	// hashes are the working-tree content digests of changed paths.
	hashes map[string]string
	// base lists the base tree's files below the root (baseListing).
	base map[string]baseEntry
	// linked holds, for a changed path that is a symbolic link to a
	// regular file inside the root, that file's content (nil when too
	// large): what node or Python runs when they load the link, while
	// cur holds the link's text, which is what git stores and hashes.
	linked map[string][]byte
	// linkTo is the root-relative path a changed symbolic link in linked
	// leads to.
	linkTo map[string]string
	// baseLinks maps each symbolic link of the base tree to its blob id.
	baseLinks map[string]string
	// unread says why the working-tree content of a changed source file
	// could not be read for imports (a link out of the root, a file that
	// could not be opened); importDiff refuses to go on without it.
	unread map[string]string
	// realRootOnce computes realRootPath, the root's real path, once:
	// every link followed is placed relative to it.
	realRootOnce sync.Once
	realRootPath string
}

// wanted reports whether a file's content is read: source files the
// import extractor understands, manifests, and Go files.
func wanted(p string) bool {
	if _, ok := imports.LangOf(p); ok {
		return true
	}
	return isManifest(p)
}

// hashAll hashes the working-tree side of every change and reads
// nothing else.
func (s *sources) hashAll() {
	s.hashes = map[string]string{}
	for _, c := range s.cs {
		if c.gitlink != "" {
			s.hashes[c.Path] = c.gitlink
			continue
		}
		if c.Status == Deleted {
			s.hashes[c.Path] = "deleted"
			continue
		}
		sum, _, err := readWork(filepath.Join(s.root, filepath.FromSlash(c.Path)), false)
		switch {
		case err == nil:
			s.hashes[c.Path] = sum
		case os.IsNotExist(err):
			s.hashes[c.Path] = "missing"
		default:
			s.hashes[c.Path] = "unreadable"
		}
	}
}

func (s *sources) load() error {
	s.old, s.cur, s.hashes = map[string][]byte{}, map[string][]byte{}, map[string]string{}
	s.linked, s.linkTo, s.unread = map[string][]byte{}, map[string]string{}, map[string]string{}
	for _, c := range s.cs {
		if c.gitlink != "" {
			s.hashes[c.Path] = c.gitlink
		} else if c.Status != Deleted {
			keep := wanted(c.Path)
			sum, data, err := readWork(filepath.Join(s.root, filepath.FromSlash(c.Path)), keep)
			switch {
			case err == nil:
				s.hashes[c.Path] = sum
				if keep {
					s.cur[c.Path] = data // nil when too large
					if err := s.follow(c.Path); err != nil {
						return err
					}
				}
			case os.IsNotExist(err):
				s.hashes[c.Path] = "missing"
				s.unread[c.Path] = "it vanished while vouch read the work"
			case errors.As(err, new(*Error)):
				// Changed while read: its imports would go unseen.
				return fmt.Errorf("%s: %w", ShownPath(c.Path), err)
			default:
				// A directory where git saw a file, a socket, an
				// unreadable file: hash what can be said about it.
				s.hashes[c.Path] = "unreadable"
				s.unread[c.Path] = err.Error()
			}
		} else {
			s.hashes[c.Path] = "deleted"
		}
		if c.oldBlob != "" && (wanted(c.Path) || wanted(c.OldPath)) {
			data, ok, err := s.blobs.read(c.oldBlob, MaxFileBytes)
			if err != nil {
				return err
			}
			if ok {
				s.old[c.oldPath()] = data
			}
		}
	}
	return nil
}

// follow fills linked and linkTo (or unread) for p when it is a
// symbolic link: node and Python load the file it points to, as vouch
// imports and lint read it, so that file's imports are p's.
func (s *sources) follow(p string) error {
	fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(p)))
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return nil // read as itself (or unread) already
	}
	data, to, why, err := s.readCode(p)
	if err != nil {
		return err
	}
	if why != "" {
		s.unread[p] = why
	} else if to != "" {
		s.linked[p], s.linkTo[p] = data, to
	}
	return nil
}

// readCode reads the working-tree file p as the code node or Python
// would load: a regular file as itself, a symbolic link as the regular
// file it leads to inside the root (to is that file's root-relative
// path). why says why p's imports cannot be known: a link to a file
// outside the root is not the work's to read (vouch lint reports it the
// same way), and a file that cannot be opened or is larger than
// MaxFileBytes may load anything. A broken link, or one to a directory,
// loads nothing: data is nil and why empty. err is a file that changed
// while it was read.
func (s *sources) readCode(p string) (data []byte, to, why string, err error) {
	abs := filepath.Join(s.root, filepath.FromSlash(p))
	fi, err := os.Lstat(abs)
	if err != nil {
		return nil, "", err.Error(), nil
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, "", "", nil
		}
		rel, err := filepath.Rel(s.realRoot(), real)
		if err != nil || !filepath.IsLocal(rel) {
			return nil, "", "a symbolic link to a file outside the root, which vouch does not read", nil
		}
		tfi, err := os.Stat(real)
		if err != nil || !tfi.Mode().IsRegular() {
			return nil, "", "", nil
		}
		abs, to = real, filepath.ToSlash(rel)
	}
	_, data, err = readWork(abs, true)
	switch {
	case errors.As(err, new(*Error)):
		return nil, "", "", fmt.Errorf("%s: %w", ShownPath(p), err)
	case err != nil:
		return nil, "", err.Error(), nil
	case data == nil:
		return nil, "", fmt.Sprintf("larger than %d MiB; vouch does not read it", MaxFileBytes>>20), nil
	}
	return data, to, "", nil
}

// oldPath is where the file was at base.
func (c change) oldPath() string {
	if c.OldPath != "" {
		return c.OldPath
	}
	return c.Path
}

// readWork returns the sha256 of a working-tree file's content, read
// without following it out of the tree's regular files (a symlink is
// read as its target text, as git stores it), and, when keep is set and
// it is at most MaxFileBytes, the content; a file is streamed, never
// held whole otherwise.
func readWork(p string, keep bool) (sum string, data []byte, err error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return "", nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := os.Readlink(p)
		if err != nil {
			return "", nil, err
		}
		h := sha256.Sum256([]byte(t))
		return hex.EncodeToString(h[:]), []byte(t), nil
	}
	if !fi.Mode().IsRegular() {
		return "", nil, fmt.Errorf("%s is not a regular file", p)
	}
	f, _, err := safeopen.Open(p, safeopen.Options{}) // a FIFO swapped in since Lstat must not block
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	h := sha256.New()
	var buf *bytes.Buffer
	var w io.Writer = h
	if keep && fi.Size() <= MaxFileBytes {
		buf = bytes.NewBuffer(make([]byte, 0, fi.Size()))
		w = io.MultiWriter(h, buf)
	}
	n, err := io.Copy(w, io.LimitReader(f, fi.Size()+1))
	if err != nil {
		return "", nil, err
	}
	if n != fi.Size() {
		return "", nil, errChanged()
	}
	if buf != nil {
		data = buf.Bytes()
	}
	return hex.EncodeToString(h.Sum(nil)), data, nil
}

func (s *sources) digests() map[string]string { return s.hashes }

// State is the state of the work an envelope describes: the base commit
// and a digest of every changed path's content. Two states are equal
// exactly when the same files differ from the same base with the same
// contents.
type State struct {
	Base string `json:"base"`
	// Digest is a sha256 over Files, in path order.
	Digest string `json:"digest"`
	// Files maps each changed path to a sha256 of its working-tree
	// content ("deleted" for a deleted path), or for a submodule to
	// "gitlink ID" and the commit its checkout has, when another (see
	// gitlinkChanges).
	Files map[string]string `json:"files"`
}

// State returns the document's state.
func (d *Doc) State() State {
	st := State{Base: d.BaseCommit, Files: map[string]string{}}
	keys := make([]string, 0, len(d.state))
	for k, v := range d.state {
		keys = append(keys, k)
		st.Files[k] = v
	}
	slices.Sort(keys)
	h := sha256.New()
	fmt.Fprintf(h, "base\x00%s\x00", d.BaseCommit)
	for _, k := range keys {
		fmt.Fprintf(h, "%s\x00%s\x00", k, d.state[k])
	}
	st.Digest = hex.EncodeToString(h.Sum(nil))
	return st
}

// Diff lists the paths whose state differs between st and other, sorted.
func (st State) Diff(other State) []string {
	var out []string
	for p, h := range st.Files {
		if other.Files[p] != h {
			out = append(out, p)
		}
	}
	for p := range other.Files {
		if _, ok := st.Files[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// dirOf is the '/'-separated directory of a repository path, "." for the
// root.
func dirOf(p string) string { return path.Dir(p) }
