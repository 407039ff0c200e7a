package imports

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Python dynamic imports: calls that import a module named by a string,
// recorded as KindDynamic with the string as Spec, at the string's
// opening quote.
//
//   - `importlib.import_module('x')` and `import_module('x')`, whatever
//     the receiver (an alias of importlib) and whether or not the bare
//     name was imported from importlib;
//   - `__import__('x')`, `builtins.__import__('x')`,
//     `importlib.__import__('x')`;
//   - a call of a name the file binds to either function:
//     `from importlib import import_module as im`, `im = import_module`,
//     `im = importlib.import_module`, wherever the call sits in the file.
//
// Calls inside an f-string's replacement fields count (lexPyAll lexes
// the fields). The module name must be a string literal, the first
// argument or the keyword argument name=, possibly in parentheses and
// implicitly concatenated (`'o' 's'`), whose escapes decode (a \N{...}
// escape does not, nor does a bytes literal or an f-string with a
// replacement field); like a JS require(name), any other argument is
// skipped without a note. A relative name keeps its dots, so
// `import_module('.x', __package__)` resolves as `from . import x` would.

// pyDynamicNames are the functions whose call imports the module its
// string argument names.
var pyDynamicNames = map[string]bool{"import_module": true, "__import__": true}

// pyDynamicModules are the modules a from-import of those names must come
// from to make an alias of them.
var pyDynamicModules = map[string]bool{"importlib": true, "builtins": true}

// extractPyDynamic returns the dynamic import calls of src, given the
// import statements extractPython found in it. extractPython calls it
// only when a name of pyDynamicNames appears in the file's text, so the
// common file is not read twice.
func extractPyDynamic(src []byte, sites []Site) []Site {
	aliases := make(map[string]bool)
	for _, s := range sites {
		if s.Kind == KindFrom && s.Alias != "" && len(s.Names) == 1 && pyDynamicNames[s.Names[0]] && pyDynamicModules[s.Spec] {
			aliases[s.Alias] = true
		}
	}
	toks := lexPyAll(src)
	// Assignments `x = import_module` / `x = a.b.__import__` ending
	// their statement bind x to the function.
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].kind != pyName || !pyDynamicNames[string(toks[i].text)] || pyOpIs(toks[i+1], '(') {
			continue
		}
		end := toks[i+1]
		if end.kind != pyNewline && end.kind != pyEOF && !pyOpIs(end, ';') {
			continue
		}
		j := i
		for j >= 2 && pyOpIs(toks[j-1], '.') && toks[j-2].kind == pyName {
			j -= 2
		}
		// `==`, `<=`, `!=` and `:=` are two one-byte ops, so a name
		// before the '=' is an assignment's target.
		if j >= 2 && pyOpIs(toks[j-1], '=') && toks[j-2].kind == pyName {
			aliases[string(toks[j-2].text)] = true
		}
	}
	var out []Site
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != pyName || !pyOpIs(toks[i+1], '(') {
			continue
		}
		name := string(t.text)
		afterDot := i > 0 && pyOpIs(toks[i-1], '.')
		if !pyDynamicNames[name] && !(aliases[name] && !afterDot) {
			continue
		}
		if i > 0 && toks[i-1].kind == pyName && string(toks[i-1].text) == "def" {
			continue
		}
		if s, ok := pyCallArg(toks, i+1); ok {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return sites
	}
	sites = append(sites, out...)
	slices.SortStableFunc(sites, func(a, b Site) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	return sites
}

// maxPyFieldNesting bounds how deep lexPyAll lexes f-strings inside
// replacement fields: CPython refuses a file nesting more than 150.
const maxPyFieldNesting = 160

// lexPyAll returns every token of src, the final pyEOF included, and the
// tokens of each f-string replacement field after its string, in
// parentheses: `f"{__import__('x')}"` imports x as the call on its own
// would.
func lexPyAll(src []byte) []pyTok {
	return lexPyTokens(newPyLexer(src), 0, nil)
}

func lexPyTokens(lx *pyLexer, nest int, toks []pyTok) []pyTok {
	lx.wantFields = nest < maxPyFieldNesting
	for {
		t := lx.next()
		switch {
		case t.kind == pyEOF:
			if nest == 0 {
				toks = append(toks, t)
			}
			return toks
		case t.kind == pyNewline && nest > 0:
			continue
		}
		toks = append(toks, t)
		fields := lx.fields
		lx.fields = nil
		for _, f := range fields {
			// depth 1: a field's line breaks end no statement.
			sub := &pyLexer{src: lx.src[:f.end], i: f.start, line: f.line, lineStart: f.lineStart, depth: 1, utf8: lx.utf8}
			col := f.start - f.lineStart + 1
			toks = append(toks, pyTok{kind: pyOp, text: []byte("("), line: f.line, col: col})
			toks = lexPyTokens(sub, nest+1, toks)
			toks = append(toks, pyTok{kind: pyOp, text: []byte(")"), line: f.line, col: col})
		}
	}
}

func pyOpIs(t pyTok, c byte) bool {
	return t.kind == pyOp && len(t.text) == 1 && t.text[0] == c
}

// pyCallArg reads the call whose '(' is toks[j] and returns a Site for
// the module name it passes as a string literal, possibly parenthesised
// and implicitly concatenated: the first argument, or the keyword
// argument name= wherever it stands (both functions take it so).
func pyCallArg(toks []pyTok, j int) (Site, bool) {
	if s, ok := pyLiteralArg(toks, j+1); ok {
		return s, true
	}
	depth := 0
	for k := j + 1; k < len(toks) && toks[k].kind != pyEOF; k++ {
		t := toks[k]
		switch {
		case pyOpIs(t, '(') || pyOpIs(t, '[') || pyOpIs(t, '{'):
			depth++
		case pyOpIs(t, ')') || pyOpIs(t, ']') || pyOpIs(t, '}'):
			if depth == 0 {
				return Site{}, false
			}
			depth--
		case depth == 0 && t.kind == pyName && string(t.text) == "name" && k+2 < len(toks) &&
			(pyOpIs(toks[k-1], '(') || pyOpIs(toks[k-1], ',')) && pyOpIs(toks[k+1], '=') && !pyOpIs(toks[k+2], '='):
			return pyLiteralArg(toks, k+2)
		}
	}
	return Site{}, false
}

// pyLiteralArg returns a Site for the argument starting at toks[k] when
// it is a string literal, possibly parenthesised and implicitly
// concatenated, followed by ',' or ')'.
func pyLiteralArg(toks []pyTok, k int) (Site, bool) {
	open := 0
	for k < len(toks) && pyOpIs(toks[k], '(') {
		open++
		k++
	}
	if k >= len(toks) || toks[k].kind != pyString {
		return Site{}, false
	}
	first := toks[k]
	var b strings.Builder
	for ; k < len(toks) && toks[k].kind == pyString; k++ {
		v, ok := pyStringValue(toks[k].text)
		if !ok {
			return Site{}, false
		}
		b.WriteString(v)
	}
	for range open {
		if k >= len(toks) || !pyOpIs(toks[k], ')') {
			return Site{}, false
		}
		k++
	}
	if k >= len(toks) || !pyOpIs(toks[k], ')') && !pyOpIs(toks[k], ',') || b.Len() == 0 {
		return Site{}, false
	}
	return Site{Line: first.line, Column: first.col, Kind: KindDynamic, Spec: b.String()}, true
}

// pyStringValue decodes a str literal token (prefix, quotes and all). It
// refuses bytes literals (import_module rejects them), f-strings with a
// replacement field, unterminated strings and escapes it does not decode
// (\N{...}).
func pyStringValue(tok []byte) (string, bool) {
	i := 0
	raw := false
	for i < len(tok) && tok[i] != '\'' && tok[i] != '"' {
		switch tok[i] | 0x20 {
		case 'r':
			raw = true
		case 'b':
			return "", false
		case 'f', 't':
			if bytes.ContainsAny(tok, "{}") {
				return "", false
			}
		}
		i++
	}
	if i >= len(tok) {
		return "", false
	}
	q := tok[i]
	n := 1
	if i+2 < len(tok) && tok[i+1] == q && tok[i+2] == q && len(tok)-i >= 6 {
		n = 3
	}
	body := tok[i+n:]
	if len(body) < n || !bytes.Equal(body[len(body)-n:], tok[i:i+n]) {
		return "", false
	}
	body = body[:len(body)-n]
	if raw || bytes.IndexByte(body, '\\') < 0 {
		return string(body), true
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := body[i]; e {
		case '\n':
		case '\r':
			if i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'x', 'u', 'U':
			w := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+1+w > len(body) {
				return "", false
			}
			v, err := strconv.ParseUint(string(body[i+1:i+1+w]), 16, 32)
			if err != nil || v > utf8.MaxRune {
				return "", false
			}
			b.WriteRune(rune(v))
			i += w
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := 0
			k := 0
			for ; k < 3 && i+k < len(body) && body[i+k] >= '0' && body[i+k] <= '7'; k++ {
				v = v*8 + int(body[i+k]-'0')
			}
			b.WriteRune(rune(v))
			i += k - 1
		case 'N':
			return "", false
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), true
}
