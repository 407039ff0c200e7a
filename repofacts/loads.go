package repofacts

import (
	"bytes"
	"go/build"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vouch-dev/vouch/imports"
)

// This file decides which files the work's code loads, for the refusal
// of loads of vouch's own files and of files inside a .git directory
// (docs/repository-facts.md): the files an import record names
// (loadCandidates), and those a build compiles or embeds by a literal
// path that no import record carries (Rust's include! family and path
// attributes, Go's //go:embed).

// fileLoad is one way the work's code names files: the record that
// names them (for a file load that is no import, a record holding only
// its file, line and path as written) and the root-relative paths it may
// load.
type fileLoad struct {
	r     imports.Record
	cands []string
	// dirs says the candidates are directories whose files the go command
	// compiles, never one of vouch's own files: an output directory is
	// one by name only, and the Go files in it are work.
	dirs bool
}

// rustFileLoads are the files the work's Rust file p names by literal
// path (imports.RustLoads).
func rustFileLoads(p string, data []byte) []fileLoad {
	var out []fileLoad
	for _, in := range imports.RustLoads(p, data) {
		out = append(out, fileLoad{r: imports.Record{File: p, Line: in.Line, Column: in.Column, Lang: imports.Rust, Spec: in.Spec},
			cands: []string{in.Path}})
	}
	return out
}

// goEmbedFileLoads are the files the //go:embed patterns of the work's
// Go file p (content data) may embed. A build that embeds a file depends
// on it as much as one that compiles it: a test could read a verdict
// vouch writes, or run what a file inside a .git holds. The go command
// refuses a pattern through a .git directory or a symbolic link, but a
// leaf link is embedded when the work sets GODEBUG embedfollowsymlinks=1
// (a godebug line of go.mod), and vouch's own files sit in ordinary
// directories. The patterns are read as go/build reads them (only from
// a file that imports "embed", as the compiler requires), whatever the
// file's build constraints: some build may compile it.
func (s *sources) goEmbedFileLoads(p string, data []byte, own ownSet) []fileLoad {
	if !bytes.Contains(data, []byte("//go:embed")) {
		return nil // most files embed nothing: skip parsing them again
	}
	ctx := build.Default
	ctx.UseAllFiles = true
	// The one file, whatever its name (go/build skips _x.go), read from
	// data rather than the disk.
	const dir, name = "/vouch-embed", "f.go"
	ctx.ReadDir = func(string) ([]fs.FileInfo, error) { return []fs.FileInfo{fakeFile{name, int64(len(data))}}, nil }
	ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	ctx.IsDir = func(d string) bool { return d == dir }
	ctx.HasSubdir = func(string, string) (string, bool) { return "", false }
	pkg, _ := ctx.ImportDir(dir, build.ImportComment) // what it read, whatever else failed
	if pkg == nil {
		return nil
	}
	var out []fileLoad
	for _, pos := range []map[string][]token.Position{pkg.EmbedPatternPos, pkg.TestEmbedPatternPos, pkg.XTestEmbedPatternPos} {
		for pat, ps := range pos {
			cands := s.embedCandidates(path.Dir(p), pat, own)
			for _, at := range ps {
				out = append(out, fileLoad{r: imports.Record{File: p, Line: at.Line, Column: at.Column, Lang: imports.Go, Spec: pat}, cands: cands})
			}
		}
	}
	slices.SortFunc(out, func(a, b fileLoad) int { return a.r.Line - b.r.Line })
	return out
}

// fakeFile is the fs.FileInfo of the one file goEmbedFileLoads shows
// go/build.
type fakeFile struct {
	name string
	size int64
}

func (f fakeFile) Name() string       { return f.name }
func (f fakeFile) Size() int64        { return f.size }
func (f fakeFile) Mode() fs.FileMode  { return 0o644 }
func (f fakeFile) ModTime() time.Time { return time.Time{} }
func (f fakeFile) IsDir() bool        { return false }
func (f fakeFile) Sys() any           { return nil }

// embedCandidates are the root-relative paths the //go:embed pattern
// pat of a file in the root-relative directory dir may embed: what the
// pattern matches on disk now (a directory by its files), each file of a matched directory as the
// go command walks it (no .git, .hg, .bzr or .svn directory; no name
// starting with '.' or '_' unless the pattern begins all:; not into a
// directory holding a go.mod), and every file of vouch's own that it
// would match were it there (a verdict file is written after the gate
// and before a later build).
func (s *sources) embedCandidates(dir, pat string, own ownSet) []string {
	glob, all := strings.CutPrefix(pat, "all:")
	if !fs.ValidPath(glob) {
		return nil // the go command refuses it
	}
	var out []string
	base := filepath.Join(s.root, filepath.FromSlash(dir))
	matches, _ := filepath.Glob(filepath.Join(base, filepath.FromSlash(glob)))
	for _, m := range matches {
		rel, err := filepath.Rel(s.root, m)
		if err != nil {
			continue
		}
		if fi, err := os.Lstat(m); err != nil || !fi.IsDir() {
			out = append(out, filepath.ToSlash(rel))
			continue
		}
		_ = filepath.WalkDir(m, func(f string, d fs.DirEntry, err error) error {
			if err != nil || f == m {
				return nil
			}
			name := d.Name()
			hidden := name[0] == '.' || name[0] == '_'
			if d.IsDir() {
				if badEmbedDir(name) || hidden && !all {
					return fs.SkipDir
				}
				if _, err := os.Stat(filepath.Join(f, "go.mod")); err == nil {
					return fs.SkipDir
				}
				return nil
			}
			if hidden && !all || !d.Type().IsRegular() {
				return nil
			}
			if rel, err := filepath.Rel(s.root, f); err == nil {
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
	}
	slices.Sort(out)
	disk := len(out)
	prefix := ""
	if dir != "." {
		prefix = dir + "/"
	}
	for _, o := range own.names() {
		rel, ok := strings.CutPrefix(o, prefix)
		if !ok {
			continue
		}
		// The pattern matches the file, or a directory above it that
		// the walk would descend from to it.
		parts := strings.Split(rel, "/")
		for i := 1; i <= len(parts); i++ {
			if ok, _ := path.Match(glob, strings.Join(parts[:i], "/")); !ok {
				continue
			}
			walked := true
			for _, c := range parts[i:] {
				walked = walked && !badEmbedDir(c) && (all || c[0] != '.' && c[0] != '_')
			}
			if walked && !slices.Contains(out[:disk], o) {
				out = append(out, o)
			}
			break
		}
	}
	// What is there now first, so a refusal names a file that exists.
	return slices.Compact(out)
}

// badEmbedDir reports whether the go command never embeds what is in a
// directory named name: a version control system's.
func badEmbedDir(name string) bool {
	switch name {
	case ".git", ".hg", ".bzr", ".svn":
		return true
	}
	return false
}

// refusedLoads lists, each as "file:line: spec loads path", the loads of
// the work's code that name one of vouch's own files (own) and those
// that name a file inside a .git directory (git), and the changed
// symbolic links that lead to either. The work's records name the files
// loadCandidates lists, extra the files that builds compile or embed by
// literal path.
//
// vouch leaves its own files out of the work (the envelope is the
// agent's claim, not its work), so code that loads one runs or reads what
// no rule read: node runs a required .vouch/envelope.yaml as JavaScript,
// rustc compiles it for #[path = "../.vouch/envelope.yaml"] mod x;.
// leftOut says whether a path is such a file. git lists no path with a
// .git component, so such a file is never work (not changed, not read for
// imports, not stamped) whether the .git is the repository's own or a
// nested repository's, while node loads require("./sub/.git/hooks/x.js"),
// and Python import hooks.x through a link hooks to sub/.git/hooks, like
// any other file. A path counts as written and, when it exists, as its
// symbolic links resolve (a link to a directory inside a .git, or to the
// envelope, is no way around it), each path resolved once for both
// checks. A .git component counts in any case, since macOS and Windows
// file systems fold case and git refuses .GIT for that reason.
func refusedLoads(rs *imports.Resolvers, work []imports.Record, extra []fileLoad, s *sources,
	leftOut func(string) (bool, error)) (own, git []string, err error) {
	loads := extra
	for _, r := range work {
		loads = append(loads, fileLoad{r: r, cands: loadCandidates(rs, r), dirs: r.Lang == imports.Go})
	}
	for _, l := range loads {
		ownDone, gitDone := l.dirs, false
		for _, c := range l.cands {
			if ownDone && gitDone {
				break
			}
			at := s.resolvedRel(c)
			// Formatted only for a refusal: most loads are fine, and a
			// large change has many candidates.
			msg := func() string {
				if at != "" && at != c {
					return loadLine(l.r, c) + ", which is " + ShownPath(at)
				}
				return loadLine(l.r, c)
			}
			if !gitDone && (hasGitComponent(c) || hasGitComponent(at)) {
				git, gitDone = append(git, msg()), true
			}
			if ownDone {
				continue
			}
			out, err := leftOut(c)
			if err == nil && !out && at != "" && at != c && filepath.IsLocal(at) {
				out, err = leftOut(at)
			}
			if err != nil {
				return nil, nil, err
			}
			if out {
				own, ownDone = append(own, msg()), true
			}
		}
	}
	for p, to := range s.linkTo {
		out, err := leftOut(to)
		if err != nil {
			return nil, nil, err
		}
		if out {
			own = append(own, linkLine(p, to))
		}
		if hasGitComponent(to) {
			git = append(git, linkLine(p, to))
		}
	}
	slices.Sort(own)
	slices.Sort(git)
	return slices.Compact(own), slices.Compact(git), nil
}
