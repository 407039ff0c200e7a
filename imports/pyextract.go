package imports

import (
	"bytes"
	"strings"
)

// extractPython returns every import in a Python source file, wherever it
// sits: module level, inside functions and classes, under
// `if TYPE_CHECKING:`, in try/except fallbacks. `import a, b` yields one
// Site per module; `from m import x, y` yields one Site per imported name
// (Spec "m", Names ["x"]) so each can resolve to its own submodule.
// Positions follow CPython's ast: an `import` Site sits on its dotted name,
// a `from` Site on its imported name. Calls of importlib.import_module and
// __import__ with a literal are Sites too (see extractPyDynamic).
func extractPython(src []byte) ([]Site, []SyntaxError) {
	lx := newPyLexer(src)
	var sites []Site
	atStmtStart := true
	// inTC is set while the scan is in an `if TYPE_CHECKING:` block;
	// tcIndent and tcLogical are its header's indentation and logical
	// line: a statement on a later logical line indented no deeper ends
	// the block, which is how Python's indentation closes it.
	inTC, tcIndent, tcLogical := false, 0, 0
	// tcQual is the block's condition: "" for a bare `TYPE_CHECKING`,
	// X for `X.TYPE_CHECKING`; tcQuals holds it for every marked site so
	// trustTypeChecking can unmark the blocks whose name is not typing's.
	tcQual := ""
	var tcQuals map[int]string
	mark := func(from int) {
		if !inTC {
			return
		}
		if tcQuals == nil {
			tcQuals = make(map[int]string)
		}
		for i := from; i < len(sites); i++ {
			sites[i].TypeChecking = true
			tcQuals[i] = tcQual
		}
	}
	for {
		t := lx.next()
		if atStmtStart && inTC && t.kind != pyNewline && t.kind != pyEOF && t.indent <= tcIndent && t.logical > tcLogical {
			inTC = false
		}
		n := len(sites)
		switch t.kind {
		case pyEOF:
			if tcQuals != nil {
				trustTypeChecking(src, sites, tcQuals)
			}
			// The names may stand in an f-string's field, which this
			// scan does not lex: any mention of them counts, and any
			// name spelled with non-ASCII characters, which may fold
			// to one of them.
			if bytes.Contains(src, []byte("import_module")) || bytes.Contains(src, []byte("__import__")) || lx.nonASCIIName {
				sites = extractPyDynamic(src, sites)
			}
			return sites, lx.errs
		case pyNewline:
			atStmtStart = true
			continue
		case pyName:
			switch {
			case atStmtStart && bytes.Equal(t.text, []byte("if")):
				// The condition and its ':' are consumed; the body
				// follows on this line or on more-indented lines.
				if qual, ok := typeCheckingCondition(lx); ok {
					if !inTC {
						inTC, tcIndent, tcLogical, tcQual = true, t.indent, t.logical, qual
					}
				}
				atStmtStart = true
				continue
			case bytes.Equal(t.text, []byte("import")):
				// `import` is a hard keyword used only by the two import
				// statements, so it starts one wherever it appears outside
				// a `from` statement; this keeps extraction right even
				// where statement boundaries are hard to see.
				sites = parsePyImport(lx, t, sites)
				mark(n)
				atStmtStart = false
				continue
			case atStmtStart && bytes.Equal(t.text, []byte("from")):
				// `from` elsewhere is `yield from` or `raise ... from`.
				sites = parsePyFrom(lx, t, sites)
				mark(n)
				atStmtStart = false
				continue
			}
		case pyOp:
			// A top-level ';' or ':' (compound statement header such as
			// `if TYPE_CHECKING: import x` or `try: import x`) may be
			// followed by a statement on the same line.
			if (t.text[0] == ';' || t.text[0] == ':') && lx.depth == 0 {
				atStmtStart = true
				continue
			}
		}
		atStmtStart = false
	}
}

// typeCheckingCondition reads the rest of an `if` header after `if` and
// reports whether it is `TYPE_CHECKING` or `X.TYPE_CHECKING` (typing's
// constant, as import-linter's exclude_type_checking_imports recognises
// it) followed by ':', and X ("" for the bare name); whether that name
// really is typing's is trustTypeChecking's question. Any other header is
// consumed up to its ':' too, or to the end of the logical line.
func typeCheckingCondition(lx *pyLexer) (string, bool) {
	var toks []string // the condition's tokens, names and dots only
	ok := true
	for {
		t := lx.next()
		switch {
		case t.kind == pyEOF || t.kind == pyNewline:
			return "", false
		case t.kind == pyOp && t.text[0] == ':' && lx.depth == 0:
			n := len(toks)
			if !ok || !(n == 1 || n == 3 && toks[1] == ".") || toks[n-1] != "TYPE_CHECKING" {
				return "", false
			}
			if n == 3 {
				return toks[0], true
			}
			return "", true
		case t.kind == pyName || t.kind == pyOp && t.text[0] == '.':
			toks = append(toks, string(t.text))
		default:
			ok = false
		}
	}
}

// parsePyDotted reads NAME ('.' NAME)* after its first NAME and returns
// the dotted text and the token that followed it.
func parsePyDotted(lx *pyLexer, first pyTok) (string, pyTok, bool) {
	var b strings.Builder
	b.Write(first.text)
	for {
		t := lx.next()
		if t.kind != pyOp || t.text[0] != '.' {
			return b.String(), t, true
		}
		n := lx.next()
		if n.kind != pyName {
			lx.errorf(n.line, "expected name after '.' in module path")
			return b.String(), n, false
		}
		b.WriteByte('.')
		b.Write(n.text)
	}
}

// parsePyImport parses `import a.b [as c] (, ...)*` after the keyword.
func parsePyImport(lx *pyLexer, kw pyTok, sites []Site) []Site {
	for {
		first := lx.next()
		if first.kind != pyName {
			lx.errorf(kw.line, "expected module name after 'import'")
			lx.unread(first)
			return sites
		}
		spec, t, ok := parsePyDotted(lx, first)
		s := Site{Line: first.line, Column: first.col, Kind: KindImport, Spec: spec}
		if ok && t.kind == pyName && string(t.text) == "as" {
			a := lx.next()
			if a.kind != pyName {
				lx.errorf(a.line, "expected name after 'as'")
				sites = append(sites, s)
				lx.unread(a)
				return sites
			}
			s.Alias = string(a.text)
			t = lx.next()
		}
		sites = append(sites, s)
		if !ok || t.kind != pyOp || t.text[0] != ',' {
			lx.unread(t)
			return sites
		}
	}
}

// parsePyFrom parses `from [.]*[a.b] import (names | (names) | *)` after
// the keyword.
func parsePyFrom(lx *pyLexer, kw pyTok, sites []Site) []Site {
	var spec strings.Builder
	t := lx.next()
	for t.kind == pyOp && t.text[0] == '.' {
		spec.WriteByte('.')
		t = lx.next()
	}
	if t.kind == pyName && string(t.text) != "import" {
		mod, next, ok := parsePyDotted(lx, t)
		spec.WriteString(mod)
		if !ok {
			lx.unread(next)
			return sites
		}
		t = next
	}
	if spec.Len() == 0 || t.kind != pyName || string(t.text) != "import" {
		lx.errorf(kw.line, "invalid 'from' statement: expected 'from <module> import <names>'")
		lx.unread(t)
		return sites
	}
	module := spec.String()
	t = lx.next()
	if t.kind == pyOp && t.text[0] == '*' {
		return append(sites, Site{Line: t.line, Column: t.col, Kind: KindFrom, Spec: module, Names: []string{"*"}})
	}
	paren := t.kind == pyOp && t.text[0] == '('
	if paren {
		t = lx.next()
	}
	n := 0
	for {
		if paren && t.kind == pyOp && t.text[0] == ')' && n > 0 {
			return sites
		}
		if t.kind != pyName {
			lx.errorf(t.line, "expected name in 'from %s import' list", module)
			lx.unread(t)
			return sites
		}
		s := Site{Line: t.line, Column: t.col, Kind: KindFrom, Spec: module, Names: []string{string(t.text)}}
		t = lx.next()
		if t.kind == pyName && string(t.text) == "as" {
			a := lx.next()
			if a.kind != pyName {
				lx.errorf(a.line, "expected name after 'as'")
				lx.unread(a)
				return append(sites, s)
			}
			s.Alias = string(a.text)
			t = lx.next()
		}
		sites = append(sites, s)
		n++
		if t.kind != pyOp || t.text[0] != ',' {
			if paren && !(t.kind == pyOp && t.text[0] == ')') {
				lx.errorf(t.line, "expected ',' or ')' in 'from %s import' list", module)
			}
			if !(paren && t.kind == pyOp && t.text[0] == ')') {
				lx.unread(t)
			}
			return sites
		}
		t = lx.next()
		if !paren && (t.kind == pyNewline || t.kind == pyEOF) {
			lx.errorf(t.line, "trailing comma not allowed without surrounding parentheses")
			lx.unread(t)
			return sites
		}
	}
}
