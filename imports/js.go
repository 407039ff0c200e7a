package imports

import (
	"cmp"
	"slices"
	"sync"
)

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
// Besides `require('x')`, the other ways node lets code call require
// with a literal are recorded as KindRequire at the literal:
// `require?.('x')`, `(require)('x')` and `(0, require)('x')`,
// `require.call(t, 'x')`, `require.apply(t, ['x'])`, the method forms
// `module.require('x')`, `require.main.require('x')`,
// `process.mainModule.require('x')`, `global.require('x')` and
// `globalThis.require('x')`, `createRequire(url)('x')` (any receiver:
// `module.createRequire(url)('x')`), and a call of a name bound to
// require or to a createRequire result (`const r = createRequire(url);
// r('x')`, `const r = require; r('x')`), wherever it is called in the file.
// A literal may sit in parentheses (`require(('x'))`); comments anywhere
// between the tokens are skipped by the lexer.
//
// Limits: JSX is recognised by a heuristic (see jsxStart), and a
// TypeScript type assertion with a matching closing tag later in the file
// would be mistaken for JSX; `foo.require('x')` on any other receiver is
// not an import; a require or import() whose argument is not a single
// literal (a concatenation, a variable, a comma expression) is skipped
// without a note, as is require reached through a computed member
// (`module['require']`), Reflect.apply, or an alias bound by
// destructuring.

type jsParser struct {
	lx    *jsLexer
	toks  []jsTok
	sites []Site
	errs  []SyntaxError
	// aliases are the names the file binds to require or to a
	// createRequire result; their calls are found in a second pass, so
	// a call before the binding (a hoisted function) counts too.
	aliases map[string]bool
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
	if len(p.aliases) > 0 {
		p.aliasCalls()
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

// val returns the value of string or template token i (a template without
// substitutions): the text the engine makes of it, escapes decoded.
func (p *jsParser) val(i int) string {
	t := p.toks[i]
	switch t.kind {
	case jsString:
		return jsStringValue(p.lx.text(t))
	case jsTemplate:
		if t.end == t.start {
			return "" // unterminated: template() never closed it
		}
		return jsCooked(p.lx.src[t.start+1:t.end-1], true)
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
	if i >= len(p.toks) || i < 0 {
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
	// Fast path: only the identifiers import, export, require (6 and 7
	// bytes long) and createRequire (13) can start a form.
	if t := p.toks[i]; t.kind != jsIdent || t.end-t.start != 6 && t.end-t.start != 7 && t.end-t.start != 13 && !t.esc {
		return i + 1
	}
	switch {
	case p.is(i, "require"):
		if p.afterDot(i) && !p.requireReceiver(i-2) {
			return i + 1
		}
		p.bindAlias(i, i+1)
		return p.requireCall(i + 1)
	case p.is(i, "createRequire"):
		// Whatever its receiver (node:module's export, `module.` or an
		// alias of the module): the name is node's.
		if !p.is(i+1, "(") {
			return i + 1
		}
		end := p.closeParen(i + 1)
		if end < 0 {
			return i + 2
		}
		p.bindAlias(i, end+1)
		return p.requireCall(end + 1)
	case p.afterDot(i):
		return i + 1
	case p.is(i, "import"):
		return p.importForm(i)
	case p.is(i, "export"):
		return p.exportForm(i)
	}
	return i + 1
}

// requireReceivers are the objects whose require method is node's
// require: `module.require`, `global.require`, `globalThis.require`; the
// two-step ones (`require.main.require`, `process.mainModule.require`)
// are in requireReceiver.
var requireReceivers = map[string]bool{"module": true, "global": true, "globalThis": true}

// requireReceiver reports whether token r, the object before a
// `.require`, is one whose require method loads a module as require does.
// Any other receiver (`router.require('x')`) is an ordinary method.
func (p *jsParser) requireReceiver(r int) bool {
	if !p.ident(r) {
		return false
	}
	name := string(p.lx.text(p.toks[r]))
	if !p.afterDot(r) {
		return requireReceivers[name]
	}
	return name == "main" && p.is(r-2, "require") && !p.afterDot(r-2) ||
		name == "mainModule" && p.is(r-2, "process") && !p.afterDot(r-2)
}

// requireCall reads what follows a name that holds require (require
// itself, a createRequire result, an alias) at token j: a call of it with
// a literal first argument, possibly through `?.(`, `.call(t, ...)`,
// `.apply(t, [...])`, or after the parentheses that close a wrapping
// `(require)` or `(0, require)`. It records the literal and returns the
// index of the next token to examine.
func (p *jsParser) requireCall(j int) int {
	for p.is(j, ")") {
		j++ // (require)('x'), (0, require)('x')
	}
	if p.is(j, "?.") {
		j++
	}
	apply := false
	if p.is(j, ".") && (p.is(j+1, "call") || p.is(j+1, "apply")) {
		apply = p.is(j+1, "apply")
		j += 2
		if p.is(j, "?.") {
			j++
		}
		if !p.is(j, "(") {
			return j
		}
		// Skip the this-argument, whatever it is, to the comma after it.
		k := p.skipArg(j + 1)
		if k < 0 || !p.is(k, ",") {
			return j + 1
		}
		j = k // callArg reads from a '(' or, here, the ','
		if apply {
			if !p.is(j+1, "[") {
				return j + 1
			}
			j++
		}
	}
	if lit, ok := p.callArg(j); ok {
		p.add(lit, KindRequire, nil, "")
		return lit + 1
	}
	return j
}

// callArg reports the literal that is the first argument of the call
// whose '(' (or '[' of an apply array, or ',' after a this-argument) is
// token j, allowing parentheses around it: `('x')`, `(('x'), opts)`.
func (p *jsParser) callArg(j int) (int, bool) {
	if !p.is(j, "(") && !p.is(j, "[") && !p.is(j, ",") {
		return 0, false
	}
	k := j + 1
	open := 0
	for p.is(k, "(") {
		open++
		k++
	}
	if !p.literal(k) {
		return 0, false
	}
	e := k + 1
	for range open {
		if !p.is(e, ")") {
			return 0, false
		}
		e++
	}
	if p.is(e, ")") || p.is(e, ",") || p.is(e, "]") {
		return k, true
	}
	return 0, false
}

// maxArgTokens bounds how far skipArg and closeParen look, so a file of
// unclosed parentheses stays linear.
const maxArgTokens = 256

// skipArg returns the index of the ',' or ')' that ends the call argument
// starting at token j (at bracket depth 0), or -1.
func (p *jsParser) skipArg(j int) int {
	depth := 0
	for k := j; k < len(p.toks) && k < j+maxArgTokens; k++ {
		switch {
		case p.is(k, "(") || p.is(k, "[") || p.is(k, "{"):
			depth++
		case p.is(k, ")") || p.is(k, "]") || p.is(k, "}"):
			if depth == 0 {
				return k
			}
			depth--
		case depth == 0 && p.is(k, ","):
			return k
		}
	}
	return -1
}

// closeParen returns the index of the ')' matching the '(' at token j, or
// -1.
func (p *jsParser) closeParen(j int) int {
	k := p.skipArg(j + 1)
	for k >= 0 && p.is(k, ",") {
		k = p.skipArg(k + 1)
	}
	if k < 0 || !p.is(k, ")") {
		return -1
	}
	return k
}

// openParen returns the index of the '(' matching the ')' at token j, or
// -1.
func (p *jsParser) openParen(j int) int {
	depth := 0
	for k := j; k >= 0 && k > j-maxArgTokens; k-- {
		switch {
		case p.is(k, ")") || p.is(k, "]") || p.is(k, "}"):
			depth++
		case p.is(k, "(") || p.is(k, "[") || p.is(k, "{"):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// bindAlias records the name x in `x = require` or `x =
// createRequire(url)`, where the require-holding expression starts at
// token i (at `require` or `createRequire`, after any receiver) and ends
// before token end, when nothing follows that would make x something
// else (a call, a member).
func (p *jsParser) bindAlias(i, end int) {
	start := i
	// Back over the receiver: module.createRequire,
	// require('module').createRequire.
	for p.afterDot(start) && start >= 2 {
		k := start - 2
		if p.is(k, ")") {
			k = p.openParen(k) - 1
		}
		if !p.ident(k) {
			return
		}
		start = k
	}
	if !p.is(start-1, "=") || !p.ident(start-2) || p.afterDot(start-2) {
		return
	}
	if end < len(p.toks) && (p.is(end, "(") || p.is(end, "?.") || p.is(end, ".") || p.is(end, "[")) {
		return
	}
	name := string(p.lx.text(p.toks[start-2]))
	if name == "require" {
		return // already read as require
	}
	if p.aliases == nil {
		p.aliases = make(map[string]bool)
	}
	p.aliases[name] = true
}

// aliasCalls records the calls of the names bindAlias found, anywhere in
// the file, and puts the sites back in source order.
func (p *jsParser) aliasCalls() {
	n := len(p.sites)
	for i := 0; i < len(p.toks); i++ {
		if p.toks[i].kind == jsIdent && !p.afterDot(i) && p.aliases[string(p.lx.text(p.toks[i]))] {
			p.requireCall(i + 1)
		}
	}
	if len(p.sites) > n {
		slices.SortStableFunc(p.sites, func(a, b Site) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
		})
	}
}

func (p *jsParser) importForm(i int) int {
	j := i + 1
	switch {
	case p.is(j, "."): // import.meta
		return j
	case p.is(j, "("):
		if lit, ok := p.callArg(j); ok && !p.is(lit+1, "]") {
			p.add(lit, KindDynamic, nil, "")
			return lit + 1
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
