package repofacts

import (
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

// mayRunAsJS reports whether node may run the changed file t as
// JavaScript when a JS/TS file requires it although vouch does not read
// it as JS/TS by its name: not a JS/TS file, nor one of the asset
// extensions bundlers load as data (jsRunTarget).
func mayRunAsJS(t string) bool {
	if l, ok := imports.LangOf(t); ok && (l == imports.JavaScript || l == imports.TypeScript) {
		return false
	}
	return !jsAssetExts[strings.ToLower(path.Ext(t))]
}

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
	real, err := filepath.EvalSymlinks(filepath.Join(s.root, filepath.FromSlash(p)))
	if err != nil {
		return ""
	}
	root := s.root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() {
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
// repository that load a file node runs as JavaScript (jsRunTarget),
// each file read as the code that runs (readCode). They are followed,
// not the work's: what they load may be. A file that cannot be read is
// left to vouch lint, as it is unchanged.
func (s *sources) unchangedJS(repo *imports.Repo, rs *imports.Resolvers, changed map[string]*change) ([]imports.Record, error) {
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
			if _, ok := jsRunTarget(r, changed); ok {
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
