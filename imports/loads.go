package imports

import (
	"slices"
	"strings"
)

// loader is implemented by the resolvers of languages whose imports load
// files by a path the resolver computes (Python modules, Rust mod files,
// Go package directories).
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
// TS type-only import) list nothing. A Go import of a local module lists
// its package directory, not a file: the go command compiles every Go
// file there. JavaScript and TypeScript are the caller's: node's
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

// JSMain is the "main" of the package.json in the repository-relative
// directory dir ("." for the root) as written, or "" when it has none (or
// no package.json the resolvers read): node loads that file, resolved
// against dir (lexically, as node joins paths), for a require of the
// directory, whether or not it is a file of the repository.
func (rs *Resolvers) JSMain(dir string) string {
	r, ok := rs.byLang[JavaScript].(*jsResolver)
	if !ok {
		return ""
	}
	if m, ok := r.mains[dir]; ok {
		return m
	}
	// Through a symbolic link to a directory, the package.json read is
	// the linked directory's.
	if real := r.repo.realPath(dir); real != "" {
		return r.mains[real]
	}
	return ""
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
// directory), the files a plain mod looks for (with a path attribute
// too), and the resolved target.
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
		// The path may be one a cfg_attr applies, whose cfg need not hold
		// (the record cannot say): then rustc opens the module's own file,
		// found by its name. The other path attributes are
		// RustLoads'.
		if len(rec.Names) == 1 {
			base := jsJoin(r.childDir(rec.File), rec.Names[0])
			out = append(out, base+".rs", base+"/mod.rs")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// FileLoad is a file that a source file compiles or embeds by a literal
// path, apart from its import records: Rust's include!("x.rs"),
// include_str! and include_bytes!, and each path = "x.rs" an attribute
// names. It is not an import record (vouch imports does not list it, and
// rules do not see it), but what it names becomes part of what the
// including file builds, so a caller that refuses loads of files outside
// the work checks it too.
type FileLoad struct {
	Line, Column int
	// Form is how the file is named: the macro ("include!",
	// "include_str!", "include_bytes!") or "#[path]".
	Form string
	// Spec is the path as written, its escapes decoded.
	Spec string
	// Path is Spec joined to the including file's directory, as rustc
	// resolves it; repository-relative and cleaned (it may begin with ..).
	Path string
}

// RustLoads lists the files the Rust source src of the
// repository-relative file names by a string literal path, wherever they
// are (a macro body included, as the file the macro expands in is not
// known): every include!, include_str! and include_bytes!, and every
// path = "..." of an attribute, a #[path] or one nested in cfg_attr at
// any depth. include_str! and include_bytes! read data rather than code,
// yet a build that embeds a file depends on it as much as one that
// compiles it: a test can read a verdict file so, or run what a file
// holds. Each path attribute counts, not only the one the import record
// carries, since which cfg holds is not known and any may be compiled. A
// path attribute inside an inline module is joined to the file's own
// directory like any other (rustc adds the inline modules' names). A
// path computed by a macro (concat!, env!) names no file here.
func RustLoads(file string, src []byte) []FileLoad {
	lx := rustLexers.Get().(*rustLexer)
	lx.lex(src, lx.toks)
	toks := lx.toks
	var out []FileLoad
	is := func(i int, kind rustTokKind, text string) bool {
		return i >= 0 && i < len(toks) && toks[i].kind == kind && string(src[toks[i].start:toks[i].end]) == text
	}
	add := func(t rustTok, form string, lit rustTok) {
		if spec, ok := rustStringValue(src, lit); ok {
			out = append(out, FileLoad{Line: t.line, Column: t.col, Form: form, Spec: spec, Path: jsJoin(jsDir(file), spec)})
		}
	}
	depth := 0 // brackets open inside attributes (#[ or #![)
	for i, t := range toks {
		if t.kind == rustPunct {
			switch {
			case is(i, rustPunct, "[") && (is(i-1, rustPunct, "#") || is(i-1, rustPunct, "!") && is(i-2, rustPunct, "#")):
				depth++
			case depth > 0 && (is(i, rustPunct, "[") || is(i, rustPunct, "(") || is(i, rustPunct, "{")):
				depth++
			case depth > 0 && (is(i, rustPunct, "]") || is(i, rustPunct, ")") || is(i, rustPunct, "}")):
				depth--
			}
			continue
		}
		if t.kind != rustIdent || i+3 >= len(toks) {
			continue
		}
		name := string(src[t.start:t.end])
		switch {
		case depth > 0 && name == "path" && is(i+1, rustPunct, "=") && toks[i+2].kind == rustString &&
			(is(i-1, rustPunct, "[") || is(i-1, rustPunct, ",")):
			// #[path = "x"], or an attribute cfg_attr applies: each
			// follows the predicate after a ','.
			add(t, "#[path]", toks[i+2])
		case (name == "include" || name == "include_str" || name == "include_bytes") && is(i+1, rustPunct, "!") &&
			(is(i+2, rustPunct, "(") || is(i+2, rustPunct, "[") || is(i+2, rustPunct, "{")) && toks[i+3].kind == rustString:
			add(t, name+"!", toks[i+3])
		}
	}
	if cap(toks) > maxPooledRustToks {
		toks = nil
	}
	*lx = rustLexer{toks: toks[:0]}
	rustLexers.Put(lx)
	return out
}
