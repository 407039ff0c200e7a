package repofacts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/imports"
)

// dependencyDiff fills DependenciesAdded and DependenciesRemoved from the
// manifests, then adds new imports that resolve outside the repository to
// packages no manifest at base declares and no base version of a changed
// file imported.
//
// A manifest is compared when it changed; one that can include other
// files (a requirements file, setup.cfg) whenever a file it reads, itself
// or an included one, changed. A compared manifest whose working-tree
// version cannot be read is an error (it would otherwise declare
// nothing, and hide what it adds); one whose base version cannot be read
// is a warning, and every dependency it declares now is added. An error
// is also one reading the base (an object that does not hash to its id).
func (d *Doc) dependencyDiff(ctx context.Context, g *git, s *sources) error {
	base, err := s.baseListing(ctx, g)
	if err != nil {
		return err
	}
	rd := newReaders(s, base)
	added, removed := map[string]Dependency{}, map[string]Dependency{}
	addedNames := map[string]bool{}
	for _, p := range manifestPairs(s.cs, base) {
		var before, after []declared
		var beforeErr error
		if p.old != "" {
			data, err := rd.oldContent(p)
			if err == nil {
				before, err = manifestDeps(p.old, data, rd.base.read)
			}
			if rd.fatal != nil {
				return rd.fatal
			}
			if err != nil {
				beforeErr = err
				d.Warnings = append(d.Warnings, "dependencies: the base version of "+err.Error()+"; every dependency it declares now counts as added")
			}
		}
		if p.cur != "" {
			if !p.changed && beforeErr == nil && !rd.touched(rd.base.tried) {
				continue // it and every file it read are unchanged
			}
			data, err := rd.curContent(p)
			if err == nil {
				after, err = manifestDeps(p.cur, data, rd.work.read)
			}
			if rd.fatal != nil {
				return rd.fatal
			}
			if err != nil {
				if !p.changed && beforeErr != nil && beforeErr.Error() == err.Error() {
					continue // unreadable as at base: it can hide nothing new
				}
				what := "the work changed this manifest"
				if !p.changed {
					what = "the work changed a file this manifest includes"
				}
				return &Error{Msg: fmt.Sprintf("repository facts: dependencies: %v\n  %s and vouch cannot read it, so it cannot tell which dependencies it adds: make it readable to its own tool (pip, npm, cargo, go) or restore the base version", err, what)}
			}
		}
		beforeKeys := map[string]bool{}
		for _, x := range before {
			beforeKeys[x.key()] = true
		}
		afterKeys := map[string]bool{}
		for _, x := range after {
			afterKeys[x.key()] = true
			if !beforeKeys[x.key()] {
				added[depID(x.Dependency)] = x.Dependency
				addedNames[nameKey(x.Ecosystem, x.Name)] = true
			}
		}
		for _, x := range before {
			if !afterKeys[x.key()] {
				removed[depID(x.Dependency)] = x.Dependency
			}
		}
	}
	// New imports of external packages.
	var external []imports.Record
	for _, r := range d.ImportsAdded {
		if r.Resolution.Kind == imports.External && r.Resolution.Target != "" {
			external = append(external, r)
		}
	}
	if len(external) > 0 {
		known, err := d.baseDeclared(ctx, g, s)
		if err != nil {
			return err
		}
		for _, r := range d.ImportsRemoved {
			if r.Resolution.Kind == imports.External {
				known[nameKey(ecosystemOf(r.Lang), importName(r))] = true
			}
		}
		for _, r := range external {
			eco, name := ecosystemOf(r.Lang), importName(r)
			k := nameKey(eco, name)
			if known[k] || declaredGo(eco, name, known) || addedNames[k] {
				continue
			}
			addedNames[k] = true
			dep := Dependency{Ecosystem: eco, Name: name, Source: r.File}
			added[depID(dep)] = dep
		}
	}
	d.DependenciesAdded = sortedDeps(added)
	d.DependenciesRemoved = sortedDeps(removed)
	return nil
}

func depID(d Dependency) string {
	return d.Ecosystem + "\x00" + d.Name + "\x00" + d.Source + "\x00" + d.Version
}

// manifestPair is a manifest compared across the diff: its base path
// and working-tree path ("" for a side where it is not), and whether the
// manifest file itself changed.
type manifestPair struct {
	old, cur string
	changed  bool
	change   *change
}

// manifestPairs lists the changed manifests, then the unchanged ones
// that include other files, by path.
func manifestPairs(cs []change, base map[string]baseEntry) []manifestPair {
	var out []manifestPair
	seen := map[string]bool{}
	for i := range cs {
		c := &cs[i]
		seen[c.Path], seen[c.oldPath()] = true, true
		p := manifestPair{changed: true, change: c}
		if c.Status != Added && isManifest(c.oldPath()) {
			p.old = c.oldPath()
		}
		if c.Status != Deleted && isManifest(c.Path) {
			p.cur = c.Path
		}
		if p.old != "" || p.cur != "" {
			out = append(out, p)
		}
	}
	var rest []string
	for p, e := range base {
		if !seen[p] && includes(p) && e.typ == "blob" && e.mode != "120000" {
			rest = append(rest, p)
		}
	}
	slices.Sort(rest)
	for _, p := range rest {
		out = append(out, manifestPair{old: p, cur: p})
	}
	return out
}

// baseEntry is a file of the base tree.
type baseEntry struct{ mode, typ, id string }

// baseListing lists the base tree below the root (paths relative to it),
// once per run.
func (s *sources) baseListing(ctx context.Context, g *git) (map[string]baseEntry, error) {
	if s.base != nil {
		return s.base, nil
	}
	s.base = map[string]baseEntry{}
	out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", s.commit)
	if err != nil {
		if s.commit == emptyTree {
			return s.base, nil
		}
		return nil, &Error{Msg: "repository facts: list the base's files", Err: err}
	}
	for _, rec := range splitZ(out) {
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			continue
		}
		s.base[p] = baseEntry{mode: f[0], typ: f[1], id: f[2]}
	}
	return s.base, nil
}

// readers read the files manifests include, on each side, and remember
// which paths they were asked for.
type readers struct {
	s          *sources
	baseFiles  map[string]baseEntry
	byPath     map[string]*change
	gone       map[string]bool
	base, work *sideReader
	// fatal is an error reading the base that must stop the run (a
	// tampered object), whatever the manifest reader made of it.
	fatal error
}

type sideReader struct {
	read  includeReader
	tried []string
}

func newReaders(s *sources, base map[string]baseEntry) *readers {
	r := &readers{s: s, baseFiles: base, byPath: map[string]*change{}, gone: map[string]bool{}}
	for i := range s.cs {
		c := &s.cs[i]
		if c.Status == Deleted {
			r.gone[c.Path] = true
		} else {
			r.byPath[c.Path] = c
		}
		if c.Status == Renamed {
			r.gone[c.OldPath] = true
		}
	}
	r.base = &sideReader{}
	r.base.read = func(p string) ([]byte, error) {
		r.base.tried = append(r.base.tried, p)
		if e, ok := base[p]; ok {
			return r.blob(p, e)
		}
		return nil, errNoFile
	}
	r.work = &sideReader{}
	r.work.read = func(p string) ([]byte, error) {
		r.work.tried = append(r.work.tried, p)
		return r.workFile(p)
	}
	return r
}

// touched reports whether any of paths is a changed path.
func (r *readers) touched(paths []string) bool {
	for _, p := range paths {
		if r.byPath[p] != nil || r.gone[p] {
			return true
		}
	}
	return false
}

func (r *readers) oldContent(p manifestPair) ([]byte, error) {
	r.base.tried = r.base.tried[:0]
	if p.change == nil {
		return r.base.read(p.old)
	}
	data, ok := r.s.old[p.old]
	if !ok {
		return nil, &manifestError{file: p.old, msg: "its base version could not be read"}
	}
	if data == nil {
		return nil, &manifestError{file: p.old, msg: fmt.Sprintf("larger than %d MiB; vouch does not read it", MaxFileBytes>>20)}
	}
	return data, nil
}

func (r *readers) curContent(p manifestPair) ([]byte, error) {
	r.work.tried = r.work.tried[:0]
	if p.change == nil {
		return r.work.read(p.cur)
	}
	if fi, err := os.Lstat(filepath.Join(r.s.root, filepath.FromSlash(p.cur))); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, &manifestError{file: p.cur, msg: "a symbolic link; vouch does not follow it (its tool would read the file it points to)"}
	}
	data, ok := r.s.cur[p.cur]
	if !ok {
		return nil, &manifestError{file: p.cur, msg: "not a regular file that vouch could read"}
	}
	if data == nil {
		return nil, &manifestError{file: p.cur, msg: fmt.Sprintf("larger than %d MiB; vouch does not read it", MaxFileBytes>>20)}
	}
	return data, nil
}

// blob reads a base file; a symbolic link is not followed.
func (r *readers) blob(p string, e baseEntry) ([]byte, error) {
	if e.typ != "blob" {
		return nil, fmt.Errorf("%s is not a file", ShownPath(p))
	}
	if e.mode == "120000" {
		return nil, fmt.Errorf("%s is a symbolic link; vouch does not follow links to included files", ShownPath(p))
	}
	data, ok, err := r.s.blobs.read(e.id, MaxFileBytes)
	if err != nil {
		r.fatal = &Error{Msg: "repository facts: read the base's manifests", Err: err}
		return nil, err
	}
	if !ok {
		return nil, errNoFile
	}
	if data == nil {
		return nil, fmt.Errorf("%s is larger than %d MiB; vouch does not read it", ShownPath(p), MaxFileBytes>>20)
	}
	return data, nil
}

// workFile reads a file of the work: a changed one from disk, an
// unchanged one as its base blob (which it equals). A file on disk that
// is not part of the work (ignored, or vouch's own) is an error: CI's
// checkout would not have it.
func (r *readers) workFile(p string) ([]byte, error) {
	full := filepath.Join(r.s.root, filepath.FromSlash(p))
	if c := r.byPath[p]; c != nil {
		fi, err := os.Lstat(full)
		if err != nil {
			if os.IsNotExist(err) {
				return nil, errNoFile
			}
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file; vouch does not follow links to included files", ShownPath(p))
		}
		if data, ok := r.s.cur[p]; ok && data != nil {
			return data, nil
		}
		if fi.Size() > MaxFileBytes {
			return nil, fmt.Errorf("%s is larger than %d MiB; vouch does not read it", ShownPath(p), MaxFileBytes>>20)
		}
		_, data, err := readWork(full, true)
		if err != nil {
			return nil, err
		}
		if data == nil {
			data = []byte{}
		}
		return data, nil
	}
	if r.gone[p] {
		return nil, errNoFile
	}
	if e, ok := r.baseFiles[p]; ok {
		return r.blob(p, e)
	}
	if _, err := os.Lstat(full); err == nil {
		return nil, fmt.Errorf("%s is not part of the work (ignored by a .gitignore, or one of vouch's own files), so a checkout of the work would not have it", ShownPath(p))
	}
	return nil, errNoFile
}

// baseDeclared reads every manifest at base and returns the keys
// (nameKey) of the dependencies they declare, and the names code imports
// them by; it also counts the working tree's unchanged manifests, which
// equal their base versions. A manifest that does not parse declares
// nothing here: more new imports then count as new dependencies, never
// fewer.
func (d *Doc) baseDeclared(ctx context.Context, g *git, s *sources) (map[string]bool, error) {
	known := map[string]bool{}
	out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", "--name-only", "--full-tree", s.commit)
	if err != nil {
		if s.commit != emptyTree {
			d.Warnings = append(d.Warnings, "dependencies: list the base's files: "+err.Error())
		}
		return known, nil
	}
	for _, p := range splitZ(out) {
		if !isManifest(p) {
			continue
		}
		data, ok, err := s.blobs.read(s.commit+":"+p, MaxFileBytes)
		if err != nil {
			return nil, err
		}
		if !ok || data == nil {
			continue
		}
		deps, _ := manifestDeps(p, data, nil)
		for _, x := range deps {
			known[nameKey(x.Ecosystem, x.Name)] = true
			if x.importAs != "" {
				known[nameKey(x.Ecosystem, x.importAs)] = true
			}
		}
	}
	return known, nil
}

// declaredGo reports whether a Go module path is inside a required
// module: the resolver guesses a module from an import path, and go.mod
// may require a shorter one.
func declaredGo(eco, name string, known map[string]bool) bool {
	if eco != EcoGo {
		return false
	}
	for p := name; ; {
		i := strings.LastIndex(p, "/")
		if i < 0 {
			return false
		}
		p = p[:i]
		if known[nameKey(EcoGo, p)] {
			return true
		}
	}
}

func ecosystemOf(l imports.Lang) string {
	switch l {
	case imports.Go:
		return EcoGo
	case imports.Python:
		return EcoPython
	case imports.Rust:
		return EcoCargo
	}
	return EcoNPM
}

// importName is the package an external import names, spelled as its
// ecosystem's manifests spell it.
func importName(r imports.Record) string {
	if r.Lang == imports.Python {
		return normalizePython(r.Resolution.Target)
	}
	return r.Resolution.Target
}

// sortedDeps orders dependencies by ecosystem, name, source and version,
// so the same work gives byte-identical facts.
func sortedDeps(m map[string]Dependency) []Dependency {
	out := make([]Dependency, 0, len(m))
	for _, d := range m {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b Dependency) int {
		if c := strings.Compare(a.Ecosystem, b.Ecosystem); c != 0 {
			return c
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := strings.Compare(a.Source, b.Source); c != 0 {
			return c
		}
		return strings.Compare(a.Version, b.Version)
	})
	return out
}
