package imports

import (
	"slices"
	"strings"
)

// loader is implemented by the resolvers of languages whose imports load
// files by a path the resolver computes (Python modules, Rust mod files).
type loader interface {
	loadPaths(r Record) []string
}

// LoadPaths lists the repository-relative files that running r's import
// may open, as far as r's resolver names files: its resolved target, and
// the files the resolver looks for whether or not they are listed (a
// file inside a .git directory, or one of vouch's own, never is, yet the
// runtime loads it). Callers that must refuse such loads check each path
// as written and, where it exists, as its symbolic links resolve. Records
// that load no code at run time (a Python import under TYPE_CHECKING, a
// TS type-only import) list nothing, and neither do languages whose
// imports name no file (Go's name package directories, which only listed
// files make). JavaScript and TypeScript are the caller's: node's
// candidates depend on extensions the caller knows best.
func (rs *Resolvers) LoadPaths(r Record) []string {
	if r.TypeChecking || r.Kind == KindTypeOnly {
		return nil
	}
	l, ok := rs.byLang[r.Lang].(loader)
	if !ok {
		return nil
	}
	return l.loadPaths(r)
}

// loadPaths are the files Python may open to import r: below each root
// the resolver tries (or the relative import's package), every module
// on the dotted path as a module file, a compiled one and a package's
// __init__.py, and a from-import's name as a submodule; and the
// resolved target.
func (r *pyResolver) loadPaths(rec Record) []string {
	var out []string
	if rec.Resolution.Kind == Internal {
		out = append(out, rec.Resolution.Target)
	}
	spec := rec.Spec
	level := len(spec) - len(strings.TrimLeft(spec, "."))
	var parts []string
	if mod := spec[level:]; mod != "" {
		parts = strings.Split(mod, ".")
	}
	if rec.Kind == KindFrom && len(rec.Names) == 1 && rec.Names[0] != "*" {
		parts = append(parts, rec.Names[0])
	}
	var bases []string
	if level > 0 {
		base := dirOf(rec.File)
		for i := 1; i < level; i++ {
			if base == "" {
				return out // above the root: Python opens nothing of the repository's
			}
			base = dirOf(base)
		}
		bases = []string{base}
	} else {
		bases = r.rootsFor(rec.File)
	}
	for _, b := range bases {
		for i := range parts {
			p := joinRel(b, strings.Join(parts[:i+1], "/"))
			out = append(out, p+".py", p+".pyc", p+"/__init__.py")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// loadPaths are the files rustc may compile for a mod declaration: the
// file a #[path] attribute names (relative to the declaring file's
// directory), the files a plain mod looks for, and the resolved target.
// Other records (use, extern crate) name modules of files already read.
func (r *rustResolver) loadPaths(rec Record) []string {
	if rec.Kind != KindMod {
		return nil
	}
	var out []string
	if rec.Resolution.Kind == Internal {
		out = append(out, rec.Resolution.Target)
	}
	out = append(out, rec.Resolution.Tried...)
	if rustPathAttr(rec.Spec) {
		out = append(out, jsJoin(jsDir(rec.File), rec.Spec))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
