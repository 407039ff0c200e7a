package repofacts

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/imports"
)

// This file refuses the loads of files that exist on disk but that the
// listing imports resolve against does not hold: a file .gitignore
// ignores (build/evil.js, debug.log, a sourceless helper.pyc), one in a
// directory git could not list, one outside the root (an absolute path,
// ../../elsewhere, a directory link leading out). The resolver marks
// such an import unresolved, which adds nothing to the facts, while node
// and CPython load the file that is there: the code it holds would run
// unchecked. A file of the work named by an absolute path, or by a path
// that leaves the root and comes back, is refused too, rather than
// followed: the same spelling loads another file, or none, in another
// checkout, and vouch lint does not follow it either.

// pathLoads are the refusals of unlistedLoads, by kind: loads of vouch's
// own files and of files inside a .git directory that ownLoads and
// gitLoads do not catch (they read paths as written relative to the
// importing file, not absolute ones), loads of files the listing does
// not hold, and loads of listed files by a spelling vouch does not
// follow.
type pathLoads struct {
	own, git, unlisted, spelled []string
}

// jsLoadExts are the extensions node (and the TS loaders tsx and
// ts-node) try after a relative or absolute specifier, in their order.
var jsLoadExts = []string{".js", ".json", ".node", ".cjs", ".mjs", ".ts", ".tsx", ".mts", ".cts", ".jsx"}

// unlistedLoads checks each record of the work whose specifier names a
// file by its path, against the file system as the runtime sees it:
// for JS/TS, a relative, absolute or file: specifier the resolver left
// unresolved, with node's extensions and index files; for Python, the
// modules a record may import (imports.Resolvers.LoadPaths), a package
// directory before a module file before a sourceless .pyc, as
// CPython's path finder tries them; for Rust, the files a mod
// declaration or an include! may compile. The first file that exists is
// what runs. Data a JS import loads (JSON, styles, a native addon) and
// Go's package directories are left alone. leftOut says whether a
// root-relative path is one of vouch's own files; a changed file is work
// whether or not the listing holds it (an untracked file under .vouch,
// which importDiff reads as what it loads).
func unlistedLoads(root string, repo *imports.Repo, rs *imports.Resolvers, work []imports.Record, files []fileLoad, changed map[string]*change, leftOut func(string) (bool, error)) (pathLoads, error) {
	realRoot := root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		realRoot = r
	}
	var out pathLoads
	// check files the refusal of the file abs that r loads, if any;
	// covered says ownLoads and gitLoads already read r's candidates as
	// written, so a load of an own or .git file is theirs to report.
	check := func(r imports.Record, abs string, covered bool) error {
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			real = abs
		}
		rel, err := filepath.Rel(realRoot, real)
		if err != nil || !filepath.IsLocal(rel) {
			out.unlisted = append(out.unlisted, unlistedLine(r, real, "outside the repository root"))
			return nil
		}
		rel = filepath.ToSlash(rel)
		if hasGitComponent(rel) {
			if !covered {
				out.git = append(out.git, unlistedLine(r, rel, ""))
			}
			return nil
		}
		own, err := leftOut(rel)
		if err != nil {
			return err
		}
		switch {
		case own:
			if !covered {
				out.own = append(out.own, unlistedLine(r, rel, ""))
			}
		case !repo.Files[rel] && changed[rel] == nil:
			out.unlisted = append(out.unlisted, unlistedLine(r, rel, "not in the listing: ignored by git, or in a directory git could not read"))
		case !covered:
			out.spelled = append(out.spelled, unlistedLine(r, rel, ""))
		}
		return nil
	}
	for _, fl := range files {
		// include!("x.rs") and path attributes name one file each;
		// //go:embed patterns are left to the go command's own rules.
		if fl.r.Lang != imports.Rust {
			continue
		}
		r := fl.r
		abs, inside := specPath(root, r.File, r.Spec)
		if f := firstFile([]string{abs}); f != "" {
			if err := check(r, f, inside); err != nil {
				return out, err
			}
		}
	}
	for _, r := range work {
		switch {
		case r.Lang == imports.JavaScript || r.Lang == imports.TypeScript:
			if r.Kind == imports.KindTypeOnly || r.Resolution.Kind == imports.Internal {
				continue
			}
			abs, inside, ok := jsSpecPath(root, r.File, r.Spec)
			if !ok {
				continue
			}
			f := firstFile(jsFileCandidates(abs))
			if f == "" {
				continue // loads nothing
			}
			if l, ok := imports.LangOf(f); !(ok && (l == imports.JavaScript || l == imports.TypeScript)) && !imports.RunsAsJS(f) {
				continue // data: JSON, styles, an addon
			}
			if err := check(r, f, inside); err != nil {
				return out, err
			}
		case r.Lang == imports.Python:
			for _, m := range pyModules(rs.LoadPaths(r)) {
				abs := filepath.Join(root, filepath.FromSlash(m))
				f := firstFile([]string{filepath.Join(abs, "__init__.py"), abs + ".py", abs + ".pyc"})
				if f == "" {
					continue
				}
				if err := check(r, f, true); err != nil {
					return out, err
				}
			}
		case r.Lang == imports.Rust && r.Kind == imports.KindMod:
			var cands []string
			inside := true
			if path.IsAbs(r.Spec) {
				cands, inside = []string{filepath.FromSlash(r.Spec)}, false
			} else {
				for _, c := range rs.LoadPaths(r) {
					inside = inside && !strings.HasPrefix(c, "../")
					cands = append(cands, filepath.Join(root, filepath.FromSlash(c)))
				}
			}
			if f := firstFile(cands); f != "" {
				if err := check(r, f, inside); err != nil {
					return out, err
				}
			}
		}
	}
	for _, l := range []*[]string{&out.own, &out.git, &out.unlisted, &out.spelled} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	return out, nil
}

// unlistedLine names the record r that loads the file f, and why f is
// refused when why is not "".
func unlistedLine(r imports.Record, f, why string) string {
	l := loadLine(r, f)
	if why != "" {
		l += " (" + why + ")"
	}
	return l
}

// jsSpecPath is the absolute path a JS/TS specifier names, before node
// adds extensions: a relative one joined to the importing file's
// directory, an absolute one as is, a file: URL's path. inside says a
// relative specifier stays inside the root as written, so ownLoads and
// gitLoads read it. ok is false for a bare specifier.
func jsSpecPath(root, file, spec string) (abs string, inside, ok bool) {
	switch {
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		abs, inside = specPath(root, file, spec)
		return abs, inside, true
	case strings.HasPrefix(spec, "/"):
		return filepath.Clean(filepath.FromSlash(spec)), false, true
	case strings.HasPrefix(strings.ToLower(spec), "file:"):
		u, err := url.Parse(spec)
		if err != nil || u.Path == "" || u.Host != "" && u.Host != "localhost" {
			return "", false, false
		}
		return filepath.Clean(filepath.FromSlash(u.Path)), false, true
	}
	return "", false, false
}

// specPath is the absolute path of spec, relative to the directory of
// the root-relative file, and whether it stays inside the root as
// written.
func specPath(root, file, spec string) (string, bool) {
	rel := path.Join(path.Dir(file), spec)
	if path.IsAbs(spec) {
		return filepath.Clean(filepath.FromSlash(spec)), false
	}
	return filepath.Join(root, filepath.FromSlash(rel)), rel != ".." && !strings.HasPrefix(rel, "../")
}

// jsFileCandidates are the files node and the TS loaders try for the
// absolute path abs, in order: abs itself, with each extension, the TS
// source a .js name stands for, and a directory's index files.
func jsFileCandidates(abs string) []string {
	out := []string{abs}
	for _, e := range jsLoadExts {
		out = append(out, abs+e)
	}
	switch ext := filepath.Ext(abs); ext {
	case ".js", ".jsx", ".mjs", ".cjs":
		for _, e := range []string{".ts", ".tsx", ".mts", ".cts"} {
			out = append(out, strings.TrimSuffix(abs, ext)+e)
		}
	}
	for _, e := range jsLoadExts {
		out = append(out, filepath.Join(abs, "index"+e))
	}
	return out
}

// pyModules are the module paths (root-relative, without extension)
// whose files the Python load paths ps name: each p of p.py, p.pyc and
// p/__init__.py.
func pyModules(ps []string) []string {
	var out []string
	for _, p := range ps {
		if m, ok := strings.CutSuffix(p, "/__init__.py"); ok {
			out = append(out, m)
		} else if m, ok := strings.CutSuffix(p, ".py"); ok {
			out = append(out, m)
		} else if m, ok := strings.CutSuffix(p, ".pyc"); ok {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// firstFile is the first of the absolute paths cands that is a regular
// file (through symbolic links), or "".
func firstFile(cands []string) string {
	for _, c := range cands {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

// problems are the refusals of loads of unlisted files and of listed
// ones by a spelling vouch does not follow, as importDiff words them.
func (l pathLoads) problems() []string {
	var out []string
	if len(l.unlisted) > 0 {
		out = append(out, "the work loads files that are not part of the work (vouch lists the files git lists, which leaves out what .gitignore ignores and anything outside the root), so what they run is never checked; make them part of the work (add them, or drop the ignore rule) or load no such file:\n  "+strings.Join(l.unlisted, "\n  "))
	}
	if len(l.spelled) > 0 {
		out = append(out, "the work loads files of the work by an absolute path, or by a path that leaves the root and comes back, which vouch does not follow for dependencies or architecture rules (and which names another file in another checkout); name them by a relative path inside the root:\n  "+strings.Join(l.spelled, "\n  "))
	}
	return out
}
