package imports

import "sync"

// JavaScript/TypeScript import extraction.
//
// Positions: a Site's Line and Column are those of the module specifier's
// opening quote, so a multi-line import points at the string it imports.
//
// Names hold the names as the imported module exports them: "default" for a
// default import, "*" for a namespace import or `export *`, and the
// exported-side name of each `{a as b}` specifier. Alias holds the local
// name when the form binds exactly one name under a name of its own
// (`import x from`, `import * as ns`, `import {a as b}`,
// `import x = require()`, `export * as ns`).
//
// Limits: JSX is recognised by a heuristic (see jsxStart), and a
// TypeScript type assertion with a matching closing tag later in the file
// would be mistaken for JSX; `foo.require('x')` and any require after a '.'
// are not imports; a require or import() whose argument is not a single
// literal is skipped without a note.

type jsParser struct {
	lx    *jsLexer
	toks  []jsTok
	sites []Site
	errs  []SyntaxError
}

// jsLexers recycles lexers with their token buffers and JSX name caches:
// the tokens of a file are dead once its sites are extracted.
var jsLexers = sync.Pool{New: func() any { return new(jsLexer) }}

// maxPooledJSToks caps the token buffer kept for reuse, so one huge file
// does not pin its buffer for the rest of a scan.
const maxPooledJSToks = 1 << 16

func extractJS(src []byte, ts bool) ([]Site, []SyntaxError) {
	_ = ts // the lexer and parser accept the union of JS and TS syntax
	lx := jsLexers.Get().(*jsLexer)
	lx.lex(src, lx.toks)
	p := jsParser{lx: lx, toks: lx.toks, errs: lx.errs}
	for i := 0; i < len(p.toks); {
		i = p.statement(i)
	}
	toks := lx.toks
	if cap(toks) > maxPooledJSToks {
		toks = nil
	}
	if len(lx.closingAt) > 64 {
		lx.closingAt = nil
	}
	*lx = jsLexer{toks: toks[:0], closingAt: lx.closingAt}
	jsLexers.Put(lx)
	return p.sites, p.errs
}

// val returns the value of string or template token i: the decoded text of
// a string, the raw text of a template without substitutions.
func (p *jsParser) val(i int) string {
	t := p.toks[i]
	switch t.kind {
	case jsString:
		return jsStringValue(p.lx.text(t))
	case jsTemplate:
		if t.end == t.start {
			return "" // unterminated: template() never closed it
		}
		return string(p.lx.src[t.start+1 : t.end-1])
	}
	return ""
}

func (p *jsParser) is(i int, word string) bool {
	if i >= len(p.toks) || i < 0 {
		return false
	}
	t := p.toks[i]
	return (t.kind == jsIdent || t.kind == jsPunct) && string(p.lx.text(t)) == word
}

func (p *jsParser) kind(i int) (jsTokKind, bool) {
	if i >= len(p.toks) {
		return 0, false
	}
	return p.toks[i].kind, true
}

func (p *jsParser) ident(i int) bool {
	k, ok := p.kind(i)
	return ok && k == jsIdent && p.toks[i].end > p.toks[i].start
}

// literal reports whether token i is a string or a template literal without
// substitutions: the only specifiers an import can be resolved from.
func (p *jsParser) literal(i int) bool {
	k, ok := p.kind(i)
	return ok && (k == jsString || k == jsTemplate)
}

// name returns the text of identifier token i, or the value of a literal.
func (p *jsParser) name(i int) string {
	if p.toks[i].kind == jsIdent {
		return string(p.lx.text(p.toks[i]))
	}
	return p.val(i)
}

func (p *jsParser) afterDot(i int) bool {
	return i > 0 && p.lx.isDot(p.toks[i-1])
}

func (p *jsParser) add(i int, kind Kind, names []string, alias string) {
	t := p.toks[i]
	p.sites = append(p.sites, Site{Line: t.line, Column: t.col, Kind: kind, Spec: p.val(i), Names: names, Alias: alias})
}

// statement looks for an import form at token i and returns the index of
// the next token to examine.
func (p *jsParser) statement(i int) int {
	// Fast path: only the identifiers import, export and require (6 and 7
	// bytes long) can start a form.
	if t := p.toks[i]; t.kind != jsIdent || t.end-t.start != 6 && t.end-t.start != 7 {
		return i + 1
	}
	switch {
	case p.afterDot(i):
		return i + 1
	case p.is(i, "import"):
		return p.importForm(i)
	case p.is(i, "export"):
		return p.exportForm(i)
	case p.is(i, "require") && p.is(i+1, "(") && p.literal(i+2) && p.is(i+3, ")"):
		p.add(i+2, KindRequire, nil, "")
		return i + 4
	}
	return i + 1
}

func (p *jsParser) importForm(i int) int {
	j := i + 1
	switch {
	case p.is(j, "."): // import.meta
		return j
	case p.is(j, "("):
		if p.literal(j+1) && (p.is(j+2, ")") || p.is(j+2, ",")) {
			p.add(j+1, KindDynamic, nil, "")
			return j + 2
		}
		return j
	case p.literal(j):
		p.add(j, KindImport, nil, "")
		return j + 1
	}
	kind := KindImport
	if p.is(j, "type") || p.is(j, "typeof") {
		// `import type from 'x'` imports a default named "type"; and
		// `import type, {a}` likewise.
		switch {
		case p.is(j+1, "from") && !p.literal(j+2),
			p.is(j+1, "{"), p.is(j+1, "*"),
			p.ident(j+1) && !p.is(j+1, "from") && !p.is(j+1, ","):
			kind = KindTypeOnly
			j++
		}
	}
	var names []string
	alias, bound := "", 0
	if p.ident(j) && !p.is(j, "{") {
		local := string(p.lx.text(p.toks[j]))
		if p.is(j+1, "=") {
			// TS import x = require('a'); import x = A.B is no import.
			if p.is(j+2, "require") && p.is(j+3, "(") && p.literal(j+4) {
				p.add(j+4, KindRequire, nil, local)
				return j + 5
			}
			return j + 1
		}
		names, alias, bound = append(names, "default"), local, 1
		j++
		if p.is(j, ",") {
			j++
		}
	}
	switch {
	case p.is(j, "*") && p.is(j+1, "as") && p.ident(j+2):
		names, alias, bound = append(names, "*"), string(p.lx.text(p.toks[j+2])), bound+1
		j += 3
	case p.is(j, "{"):
		var n []string
		var a string
		var cnt int
		j, n, a, cnt = p.namedList(j)
		names = append(names, n...)
		if cnt > 0 {
			if bound == 0 {
				alias = a
			}
			bound += cnt
		}
	}
	if bound != 1 {
		alias = ""
	}
	if p.is(j, "from") && p.literal(j+1) {
		p.add(j+1, kind, names, alias)
		return j + 2
	}
	return j
}

// namedList parses `{ a, b as c, type T, "s" as d }` starting at the '{'
// and returns the index after the '}', the exported-side names, the local
// name of a lone renamed specifier, and how many specifiers there were.
func (p *jsParser) namedList(j int) (int, []string, string, int) {
	j++ // '{'
	var names []string
	alias := ""
	count := 0
	for j < len(p.toks) && !p.is(j, "}") {
		if p.is(j, ",") {
			j++
			continue
		}
		// An inline `type` modifier, unless `type` is itself the name.
		if p.is(j, "type") && (p.ident(j+1) || p.literal(j+1)) && !p.is(j+1, "as") && !p.is(j+1, ",") && !p.is(j+1, "}") {
			j++
		}
		if !p.ident(j) && !p.literal(j) && !p.is(j, "default") {
			return j, names, "", count // malformed: give up on this form
		}
		name := p.name(j)
		names = append(names, name)
		count++
		alias = ""
		j++
		if p.is(j, "as") && (p.ident(j+1) || p.literal(j+1)) {
			alias = p.name(j + 1)
			j += 2
		}
	}
	if count != 1 {
		alias = ""
	}
	return j + 1, names, alias, count
}

func (p *jsParser) exportForm(i int) int {
	j := i + 1
	kind := KindReexport
	if p.is(j, "type") && (p.is(j+1, "{") || p.is(j+1, "*")) {
		kind = KindTypeOnly
		j++
	}
	var names []string
	alias := ""
	switch {
	case p.is(j, "*"):
		names = []string{"*"}
		j++
		if p.is(j, "as") && (p.ident(j+1) || p.literal(j+1)) {
			alias = p.name(j + 1)
			j += 2
		}
	case p.is(j, "{"):
		j, names, alias, _ = p.namedList(j)
	default:
		return j
	}
	if p.is(j, "from") && p.literal(j+1) {
		p.add(j+1, kind, names, alias)
		return j + 2
	}
	return j
}
