package repofacts

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/parallel"
)

// This file finds the changed files that run though no changed file
// names them: the target of an unchanged symbolic link, and a file an
// unchanged JS/TS file requires. Their imports are the work's as much as
// a changed source file's (docs/repository-facts.md).

// unchangedLink is a symbolic link of the base tree that the work left
// alone, whose name makes it source in lang: node or Python run the file
// it leads to, now, and base, at base (root-relative, "" when it leads
// to no regular file inside the root).
type unchangedLink struct {
	path      string
	lang      imports.Lang
	now, base string
}

// unchangedLinks lists, sorted by path, the unchanged links (not in
// touched) of a source language whose run code may differ from the
// base's: the file they lead to changed and is not read as itself in
// that language already, or they lead to another file now (a link on the
// way changed).
func (s *sources) unchangedLinks(touched map[string]bool, changed map[string]*change) ([]unchangedLink, error) {
	var out []unchangedLink
	for p := range s.baseLinks {
		l, ok := imports.LangOf(p)
		if !ok || touched[p] {
			continue
		}
		now := s.realRel(p)
		base, err := s.baseTarget(p)
		if err != nil {
			return nil, err
		}
		if now == base {
			if changed[now] == nil {
				continue // runs what it ran
			}
			if tl, ok := imports.LangOf(now); ok && tl == l {
				continue // read as itself, in this language
			}
		}
		out = append(out, unchangedLink{path: p, lang: l, now: now, base: base})
	}
	slices.SortFunc(out, func(a, b unchangedLink) int { return strings.Compare(a.path, b.path) })
	return out, nil
}

// realRel is the root-relative path of the regular file inside the root
// that the working-tree path p leads to, or "".
func (s *sources) realRel(p string) string {
	rel := s.resolvedRel(p)
	if rel == "" || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return ""
	}
	if fi, err := os.Stat(filepath.Join(s.root, filepath.FromSlash(p))); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return rel
}

// realRoot is the root's real path (the root itself when it has none).
func (s *sources) realRoot() string {
	s.realRootOnce.Do(func() {
		s.realRootPath = s.root
		if r, err := filepath.EvalSymlinks(s.root); err == nil {
			s.realRootPath = r
		}
	})
	return s.realRootPath
}

// resolvedRel is where the working-tree path p leads through symbolic
// links, relative to the root's real path ('/'-separated; it begins with
// .. when it leaves the root), or "" when p does not exist.
func (s *sources) resolvedRel(p string) string {
	real, err := filepath.EvalSymlinks(filepath.Join(s.root, filepath.FromSlash(p)))
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(s.realRoot(), real)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// maxLinkHops bounds the links followed resolving one path at base, as
// the kernel bounds them (40 on Linux).
const maxLinkHops = 40

// baseTarget is the path the base tree's link p leads to there,
// following links in the base tree (p itself, and any leading directory
// of where it leads), or "" when it leaves the root, is absolute, or
// loops.
func (s *sources) baseTarget(p string) (string, error) {
	for range maxLinkHops {
		hit := false
		for i := 1; i <= len(p); i++ {
			if i < len(p) && p[i] != '/' {
				continue
			}
			id, ok := s.baseLinks[p[:i]]
			if !ok {
				continue
			}
			text, ok, err := s.blobs.read(id, 4096)
			if err != nil {
				return "", err
			}
			t := string(text)
			if !ok || t == "" || path.IsAbs(t) {
				return "", nil
			}
			np := path.Join(path.Dir(p[:i]), t) + p[i:]
			if np == ".." || strings.HasPrefix(np, "../") {
				return "", nil
			}
			p, hit = np, true
			break
		}
		if !hit {
			return p, nil
		}
	}
	return "", nil
}

// linkSides reads what the unchanged link l runs at base and now: the
// base version of the file it led to (as the base tree holds it, or as
// the working tree does when the work did not touch it) and the file it
// leads to now (readCode). why says why the working side cannot be read.
func (s *sources) linkSides(l unchangedLink, touched map[string]bool) (before, after []byte, why string, err error) {
	after, _, why, err = s.readCode(l.path)
	if err != nil || why != "" {
		return nil, nil, why, err
	}
	if l.base == "" {
		return nil, after, "", nil
	}
	for _, c := range s.cs {
		if c.Status != Added && c.oldPath() == l.base {
			if c.oldBlob == "" {
				return nil, after, "", nil
			}
			data, ok, err := s.blobs.read(c.oldBlob, MaxFileBytes)
			if err != nil || !ok {
				return nil, after, "", err
			}
			return data, after, "", nil
		}
	}
	if touched[l.base] {
		return nil, after, "", nil
	}
	_, data, err := readWork(filepath.Join(s.root, filepath.FromSlash(l.base)), true)
	if err != nil {
		return nil, after, "", nil // not a file at base either
	}
	return data, after, "", nil
}

// unchangedJS returns the records of every unchanged JS/TS file of the
// repository that keep selects (those that load a file node runs as
// JavaScript, jsRunTarget, or a directory whose main the work changed),
// each file read as the code that runs (readCode). A file that cannot
// be read is left to vouch lint, as it is unchanged.
func (s *sources) unchangedJS(repo *imports.Repo, rs *imports.Resolvers, changed map[string]*change, keep func(imports.Record) bool) ([]imports.Record, error) {
	var files []string
	for f := range repo.Files {
		if l, ok := imports.LangOf(f); ok && (l == imports.JavaScript || l == imports.TypeScript) && changed[f] == nil {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	// Every unchanged JS/TS file of a large repository is read here, so
	// the files are read and scanned in parallel (the resolvers are safe
	// for concurrent use, as vouch lint's scan uses them); the results are
	// gathered in file order, the first error by that order winning, so
	// the outcome does not depend on scheduling.
	type result struct {
		recs []imports.Record
		err  error
	}
	results := make([]result, len(files))
	parallel.For(len(files), 0, func(i int) {
		f := files[i]
		data, _, why, err := s.readCode(f)
		if err != nil {
			results[i].err = err
			return
		}
		if why != "" || data == nil {
			return
		}
		l, _ := imports.LangOf(f)
		recs, _ := rs.Extract(f, l, data)
		for _, r := range recs {
			if keep(r) {
				results[i].recs = append(results[i].recs, r)
			}
		}
	})
	var out []imports.Record
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		out = append(out, r.recs...)
	}
	return out, nil
}

// mainChanged lists the directories (root-relative, "." for the root)
// whose package.json "main" the work changed: added, removed, edited or
// moved, or made unreadable. node loads the main for a require of the
// directory, so an unchanged file's require("./lib") loads what the work
// chose. A package.json whose main is as it was (a new dependency, say)
// redirects nothing.
func (s *sources) mainChanged() map[string]bool {
	dirs := map[string]bool{}
	for _, c := range s.cs {
		if path.Base(c.Path) != "package.json" && path.Base(c.oldPath()) != "package.json" || c.gitlink != "" {
			continue
		}
		before, after := "", ""
		if c.Status != Added && path.Base(c.oldPath()) == "package.json" {
			before = packageMain(s.old[c.oldPath()])
		}
		if c.Status != Deleted && path.Base(c.Path) == "package.json" {
			after = packageMain(s.cur[c.Path])
		}
		if before != after {
			dirs[path.Dir(c.oldPath())] = true
			dirs[path.Dir(c.Path)] = true
		}
	}
	return dirs
}

// packageMain is the "main" of the package.json data, "" when it has
// none, or a mark no main equals when it cannot be read as JSON (node
// would stop at it, or read it differently from vouch).
func packageMain(data []byte) string {
	if data == nil {
		return ""
	}
	var m struct {
		Main json.RawMessage `json:"main"`
	}
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\uFEFF")), &m); err != nil {
		return "\x00unreadable"
	}
	return string(m.Main)
}

// shadowsRemoved adds to dirs each directory with a package.json main
// that a file the work deleted or moved away used to shadow: node loads
// lib.js before lib/ for require("./lib"), so once lib.js is gone an
// unchanged main (which may name anything) is what runs.
func (s *sources) shadowsRemoved(rs *imports.Resolvers, dirs map[string]bool) {
	for _, c := range s.cs {
		if c.Status != Deleted && c.Status != Renamed {
			continue
		}
		old := c.oldPath()
		if stem := strings.TrimSuffix(old, path.Ext(old)); stem != old && rs.JSMain(stem) != "" {
			dirs[stem] = true
		}
	}
}

// redirected reports whether the JS/TS record r requires, by a relative
// specifier, one of dirs (directly, or through a symbolic link to a
// directory inside the root).
func redirected(repo *imports.Repo, s *sources, dirs map[string]bool, r imports.Record) bool {
	if len(dirs) == 0 || r.Lang != imports.JavaScript && r.Lang != imports.TypeScript || r.Kind == imports.KindTypeOnly {
		return false
	}
	if !strings.HasPrefix(r.Spec, "./") && !strings.HasPrefix(r.Spec, "../") && r.Spec != "." && r.Spec != ".." {
		return false
	}
	p := path.Join(path.Dir(r.File), r.Spec)
	if dirs[p] {
		return true
	}
	for i := len(p); i > 0; i = strings.LastIndexByte(p[:i], '/') {
		if _, ok := repo.Links[p[:i]]; ok {
			return dirs[s.resolvedRel(p)]
		}
	}
	return false
}
