package imports

import (
	"strings"
	"sync"
)

// Rust import extraction.
//
// Every leaf of a use tree is one Site: `use a::{b, c::{d, e as f}, self};`
// gives a::b [b], a::c::d [d], a::c::e [e] alias f, and a [self]. A glob
// gives Spec a, Names ["*"]. Line and Column are those of the leaf.
//
// Paths inside inline modules: a `self::` or `super::` path written inside
// `mod tests { ... }` is rewritten relative to the file's own module, since
// a Site carries no other way to say which inline module it sits in; so
// `use super::*;` in a file's test module is reported as Spec "self",
// Names ["*"]. A `mod x;` inside inline `mod a { }` has Spec "a::x".
//
// `mod x;` has Names ["x"]; with a `#[path = "p"]` attribute (or one a
// `#[cfg_attr(pred, path = "p")]` applies) its Spec is the path "p" as
// rustc reads the literal, escapes decoded (a module name never holds '/'
// or '.'), so the resolver can honour it.
//
// macro_rules! and quote!-family bodies are skipped: a `use` there is a
// template of code generated elsewhere. Other macro invocations
// (cfg_if! {...}, tokio's cfg_rt! {...}) are scanned like code, because
// their bodies hold the crate's real items.

// maxRustUseDepth bounds nested use groups so input cannot exhaust the stack.
const maxRustUseDepth = 200

// rustTemplateMacro reports whether w names a macro whose body is a code
// template, not items of the file.
func rustTemplateMacro(w []byte) bool {
	switch string(w) {
	case "macro_rules", "quote", "quote_spanned", "parse_quote", "parse_quote_spanned":
		return true
	}
	return false
}

// rustVisibilityWord reports whether w is one of the words of
// `pub(in crate::a)` and the like, which may stand between an attribute and
// the item it applies to.
func rustVisibilityWord(w []byte) bool {
	switch string(w) {
	case "pub", "crate", "in", "self", "super":
		return true
	}
	return false
}

type rustParser struct {
	src    []byte
	toks   []rustTok
	sites  []Site
	errs   []SyntaxError
	inline []string // the inline modules enclosing the current token
	path   []string // the use path being parsed; useTree's scratch stack
}

// rustLexers recycles lexers with their token buffers: the tokens of a
// file are dead once its sites are extracted.
var rustLexers = sync.Pool{New: func() any { return new(rustLexer) }}

// maxPooledRustToks caps the token buffer kept for reuse, so one huge file
// does not pin its buffer for the rest of a scan.
const maxPooledRustToks = 1 << 16

func extractRust(src []byte) ([]Site, []SyntaxError) {
	lx := rustLexers.Get().(*rustLexer)
	lx.lex(src, lx.toks)
	p := &rustParser{src: src, toks: lx.toks, errs: lx.errs}
	p.run()
	toks := lx.toks
	if cap(toks) > maxPooledRustToks {
		toks = nil
	}
	*lx = rustLexer{toks: toks[:0]}
	rustLexers.Put(lx)
	return p.sites, p.errs
}

// punct returns the punctuation character of token t, or 0 if t is not a
// one-character punctuator.
func (p *rustParser) punct(t rustTok) byte {
	if t.kind != rustPunct || t.end-t.start != 1 {
		return 0
	}
	return p.src[t.start]
}

func (p *rustParser) isIdent(i int, w string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == rustIdent && string(p.src[p.toks[i].start:p.toks[i].end]) == w
}

// name returns the text of identifier token i.
func (p *rustParser) name(i int) string { return string(p.src[p.toks[i].start:p.toks[i].end]) }

func (p *rustParser) isPunct(i int, w string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == rustPunct && string(p.src[p.toks[i].start:p.toks[i].end]) == w
}

func (p *rustParser) ident(i int) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == rustIdent
}

// skipGroup returns the index after the bracketed group opening at i.
func (p *rustParser) skipGroup(i int) int {
	depth := 0
	for ; i < len(p.toks); i++ {
		switch p.punct(p.toks[i]) {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth <= 0 {
				return i + 1
			}
		}
	}
	return i
}

func (p *rustParser) run() {
	// braces holds, per open '{', the inline module it opened ("" if none),
	// with a flag telling module braces from others.
	type brace struct {
		module bool
	}
	var braces []brace
	pathAttr := ""
	for i := 0; i < len(p.toks); {
		t := p.toks[i]
		switch {
		case p.punct(t) == '#' && (p.isPunct(i+1, "[") || p.isPunct(i+1, "!") && p.isPunct(i+2, "[")):
			j := i + 1
			if p.isPunct(j, "!") {
				j++
			}
			end := p.skipGroup(j)
			if v, ok := p.pathAttr(j+1, end-1); ok {
				pathAttr = v
			}
			i = end
			continue
		case t.kind == rustIdent && rustTemplateMacro(p.src[t.start:t.end]) && p.isPunct(i+1, "!"):
			j := i + 2
			if p.ident(j) {
				j++
			}
			i = p.skipGroup(j)
			pathAttr = ""
			continue
		case p.isIdent(i, "use") && !p.isPunct(i-1, "::") && i+1 < len(p.toks) && !p.isPunct(i+1, "<"):
			p.path = p.path[:0]
			i = p.useTree(i+1, 0)
		case p.isIdent(i, "mod") && p.ident(i+1) && p.isPunct(i+2, ";"):
			name := p.name(i + 1)
			spec := strings.Join(append(append([]string(nil), p.inline...), name), "::")
			if pathAttr != "" {
				spec = pathAttr
			}
			n := p.toks[i+1]
			p.sites = append(p.sites, Site{Line: n.line, Column: n.col, Kind: KindMod, Spec: spec, Names: []string{name}})
			i += 3
		case p.isIdent(i, "mod") && p.ident(i+1) && p.isPunct(i+2, "{"):
			p.inline = append(p.inline, p.name(i+1))
			braces = append(braces, brace{module: true})
			i += 3
		case p.isIdent(i, "extern") && p.isIdent(i+1, "crate") && p.ident(i+2):
			n := p.toks[i+2]
			s := Site{Line: n.line, Column: n.col, Kind: KindExternCrate, Spec: p.name(i + 2)}
			i += 3
			if p.isIdent(i, "as") && p.ident(i+1) {
				s.Alias = p.name(i + 1)
				i += 2
			}
			p.sites = append(p.sites, s)
		case p.punct(t) == '{':
			braces = append(braces, brace{})
			i++
		case p.punct(t) == '}':
			if n := len(braces); n > 0 {
				if braces[n-1].module {
					p.inline = p.inline[:len(p.inline)-1]
				}
				braces = braces[:n-1]
			}
			i++
		default:
			i++
		}
		// An attribute applies to the next item only; visibility keeps it.
		if t.kind != rustIdent || !rustVisibilityWord(p.src[t.start:t.end]) {
			if c := p.punct(t); c != '(' && c != ')' {
				pathAttr = ""
			}
		}
	}
}

// pathAttr reads the attribute in tokens [i, end) (inside #[...]): the
// value of path = "p", or of a path = "p" that cfg_attr(pred, ...)
// applies (rustc honours either; which cfg holds is not known here, so
// the last path a cfg_attr names counts). Its string is decoded as rustc
// decodes it: "../\x2egit/x.rs" is ../.git/x.rs.
func (p *rustParser) pathAttr(i, end int) (string, bool) {
	if p.isIdent(i, "path") && p.isPunct(i+1, "=") && i+3 == end && p.toks[i+2].kind == rustString {
		return rustStringValue(p.src, p.toks[i+2])
	}
	if !p.isIdent(i, "cfg_attr") || !p.isPunct(i+1, "(") || !p.isPunct(end-1, ")") {
		return "", false
	}
	// The attributes follow the predicate, each ending at a ',' outside
	// any group.
	v, found := "", false
	k := i + 2
	first := true
	for k < end-1 {
		start := k
		for k < end-1 && !p.isPunct(k, ",") {
			if c := p.punct(p.toks[k]); c == '(' || c == '[' || c == '{' {
				k = p.skipGroup(k)
				continue
			}
			k++
		}
		if !first {
			if pv, ok := p.pathAttr(start, k); ok {
				v, found = pv, true
			}
		}
		first = false
		k++ // the ','
	}
	return v, found
}

// useTree parses a use tree at i, with p.path holding the path prefix
// written so far, and returns the index after it (after the ';' at top
// level). It leaves its own segments on p.path for the caller to drop.
func (p *rustParser) useTree(i int, depth int) int {
	if depth > maxRustUseDepth {
		p.errs = append(p.errs, SyntaxError{Line: p.toks[i-1].line, Message: "use groups nested too deeply; the rest of the file is not read", Stop: true})
		return len(p.toks)
	}
	if p.isPunct(i, "::") { // leading :: or {::a}
		if len(p.path) == 0 {
			p.path = append(p.path, "")
		}
		i++
	}
	for {
		switch {
		case p.isPunct(i, "$") && p.isIdent(i+1, "crate"):
			p.path = append(p.path, "$crate")
			i += 2
			if !p.isPunct(i, "::") {
				return i
			}
			i++
		case p.ident(i) && !p.isIdent(i, "as"):
			last := i
			p.path = append(p.path, p.name(i))
			i++
			if p.isPunct(i, "::") {
				i++
				continue
			}
			path := p.path
			leaf := path[len(path)-1]
			s := Site{Line: p.toks[last].line, Column: p.toks[last].col, Kind: KindUse, Names: []string{leaf}}
			spec := path
			if leaf == "self" && len(path) > 1 {
				spec = path[:len(path)-1]
			}
			if p.isIdent(i, "as") && p.ident(i+1) {
				s.Alias = p.name(i + 1)
				i += 2
			}
			s.Spec = p.joinPath(spec)
			p.sites = append(p.sites, s)
			return p.endTree(i, depth)
		case p.isPunct(i, "*"):
			s := Site{Line: p.toks[i].line, Column: p.toks[i].col, Kind: KindUse, Spec: p.joinPath(p.path), Names: []string{"*"}}
			p.sites = append(p.sites, s)
			return p.endTree(i+1, depth)
		case p.isPunct(i, "{"):
			i++
			for i < len(p.toks) && !p.isPunct(i, "}") {
				if p.isPunct(i, ",") {
					i++
					continue
				}
				mark := len(p.path)
				next := p.useTree(i, depth+1)
				p.path = p.path[:mark]
				if next == i {
					next++ // malformed: never stall
				}
				i = next
			}
			return p.endTree(i+1, depth)
		default:
			// Not a use tree after all (a macro fragment, a syntax error).
			return i
		}
	}
}

// endTree consumes the ';' that ends a top-level use declaration.
func (p *rustParser) endTree(i, depth int) int {
	if depth == 0 && p.isPunct(i, ";") {
		return i + 1
	}
	return i
}

// joinPath writes a path with "::", rewriting a leading self/super inside
// inline modules relative to the file's module (see the package comment).
func (p *rustParser) joinPath(path []string) string {
	if d := len(p.inline); d > 0 && len(path) > 0 && (path[0] == "self" || path[0] == "super") {
		k := 0
		for k < len(path) && path[k] == "super" {
			k++
		}
		rest := path[k:]
		if k == 0 {
			rest = path[1:] // self
		}
		var out []string
		if k <= d {
			out = append(append([]string{"self"}, p.inline[:d-k]...), rest...)
		} else {
			for range k - d {
				out = append(out, "super")
			}
			out = append(out, rest...)
		}
		path = out
	}
	return strings.Join(path, "::")
}
