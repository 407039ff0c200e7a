package imports

import (
	"fmt"
	"unicode/utf8"
)

// pyTokKind is the coarse token class the Python import extractor needs.
type pyTokKind uint8

const (
	pyEOF     pyTokKind = iota
	pyNewline           // end of a logical line (never inside brackets)
	pyName              // identifier or keyword
	pyOp                // a single operator or delimiter byte
	pyString            // any string literal, including f-strings
	pyNumber
)

// pyTok is one token; text is sliced from the source, not copied.
type pyTok struct {
	kind pyTokKind
	text []byte
	line int // 1-based
	col  int // 1-based, in bytes
	// indent is the indentation of the token's logical line as CPython
	// measures it (see indentation), and logical counts the logical
	// lines before it: a block ends at a later logical line indented no
	// deeper than its header.
	indent, logical int
}

// pyLexer is a Python tokenizer reduced to what import extraction needs:
// it must never mistake the inside of a string or comment for code, and it
// must know where logical lines end, so it handles every string form
// (prefixes, triple quotes, f-string replacement fields with nested quotes),
// comments, backslash continuations and bracket nesting. It never fails:
// problems are recorded as SyntaxErrors and scanning continues.
type pyLexer struct {
	src       []byte
	i         int
	line      int
	lineStart int
	depth     int
	// lastNewline suppresses blank logical lines so callers see at most one
	// pyNewline between statements.
	lastNewline bool
	// indentPending is set between logical lines, until the first
	// character of the next one fixes indent.
	indentPending   bool
	indent, logical int
	peeked          *pyTok
	errs            []SyntaxError
	// With wantFields set, fields collects the expression of each
	// replacement field of the f-strings scanned, outermost strings
	// only (fieldLevel > 0 inside a field's nested strings, whose own
	// fields are found when the field is lexed): the expressions are
	// code, which lexPyAll lexes in turn.
	// utf8 says the file is read as UTF-8, so names are folded as
	// CPython folds them (pyFoldName); a single-byte file's names are
	// its bytes.
	utf8 bool
	// nonASCIIName is set once a name with a non-ASCII character is
	// scanned, in code or in an f-string's field: folded, it may name
	// a loader that the file's bytes do not spell.
	nonASCIIName bool
	wantFields   bool
	fieldLevel   int
	fields       []pyField
}

// pyField is the expression of an f-string replacement field: the source
// src[start:end], starting on line line, whose start is lineStart.
type pyField struct {
	start, end, line, lineStart int
}

func newPyLexer(src []byte) *pyLexer {
	lx := &pyLexer{src: src, line: 1, lastNewline: true, indentPending: true, utf8: !pyBytesEncoded(src)}
	// A UTF-8 byte order mark is legal at the start of a Python file and
	// must not shift columns of the first line.
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		lx.i, lx.lineStart = 3, 3
	}
	return lx
}

func (lx *pyLexer) errorf(line int, format string, args ...any) {
	// Bound the list so a pathological file cannot make warnings dominate
	// memory; the first few errors are what a human needs.
	if len(lx.errs) < 20 {
		lx.errs = append(lx.errs, SyntaxError{Line: line, Message: fmt.Sprintf(format, args...)})
	}
}

// newline records that a line break ends at index i (exclusive of the
// break itself), handling \n, \r\n and lone \r.
func (lx *pyLexer) skipLineBreak() {
	if lx.src[lx.i] == '\r' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] == '\n' {
		lx.i++
	}
	lx.i++
	lx.line++
	lx.lineStart = lx.i
}

func (lx *pyLexer) unread(t pyTok) { lx.peeked = &t }

func isPyNameStart(c byte) bool {
	return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || c >= 0x80
}

func isPyNameChar(c byte) bool {
	return isPyNameStart(c) || (c >= '0' && c <= '9')
}

// pyStringPrefix reports whether an identifier directly followed by a quote
// is a string prefix, and whether it makes a formatted (f or t) string and
// a raw one.
func pyStringPrefix(name []byte) (ok, formatted, raw bool) {
	if len(name) > 2 {
		return false, false, false
	}
	for _, c := range name {
		switch c | 0x20 {
		case 'r':
			raw = true
		case 'f', 't':
			formatted = true
		case 'b', 'u':
		default:
			return false, false, false
		}
	}
	return true, formatted, raw
}

// indentation returns the indentation of the line starting at src[from]
// whose first character other than white space is at src[to], as CPython's
// tokenizer counts it: a space is one column, a tab moves to the next
// multiple of 8, and a form feed starts the count again at 0. So
// "\f" + "import x" is at column 0 and ends an `if` block, though its
// byte column is 2. A continuation backslash there ends the count: the
// line it joins is part of this one.
func indentation(src []byte, from, to int) int {
	col := 0
	for _, c := range src[from:to] {
		switch c {
		case ' ':
			col++
		case '\t':
			col = (col/8 + 1) * 8
		case '\f':
			col = 0
		}
	}
	return col
}

// pyFoldName returns name as CPython reads it, where that is ASCII:
// CPython takes every identifier in NFKC, so `__ｉmport__("x")` is an
// __import__ call and `import ｒequests` imports requests. A character
// whose NFKC form is not ASCII is kept as it is.
func pyFoldName(name []byte) []byte {
	if isASCII(name) || !utf8.Valid(name) {
		return name
	}
	out := make([]byte, 0, len(name))
	for _, r := range string(name) {
		if s, ok := pyNFKCASCII[r]; ok {
			out = append(out, s...)
		} else {
			out = utf8.AppendRune(out, r)
		}
	}
	return out
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// next returns the next token.
func (lx *pyLexer) next() pyTok {
	if lx.peeked != nil {
		t := *lx.peeked
		lx.peeked = nil
		return t
	}
	t := lx.scan()
	t.indent, t.logical = lx.indent, lx.logical
	if t.kind == pyNewline {
		lx.logical++
		lx.indentPending = true
	}
	return t
}

// scan returns the next token, its position only.
func (lx *pyLexer) scan() pyTok {
	src := lx.src
	for lx.i < len(src) {
		c := src[lx.i]
		if lx.indentPending && lx.depth == 0 && c != ' ' && c != '\t' && c != '\f' && c != '#' && c != '\n' && c != '\r' {
			lx.indent = indentation(src, lx.lineStart, lx.i)
			lx.indentPending = false
		}
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			lx.i++
		case c == '#':
			for lx.i < len(src) && src[lx.i] != '\n' && src[lx.i] != '\r' {
				lx.i++
			}
		case c == '\n' || c == '\r':
			line, col := lx.line, lx.i-lx.lineStart+1
			lx.skipLineBreak()
			if lx.depth == 0 && !lx.lastNewline {
				lx.lastNewline = true
				return pyTok{kind: pyNewline, line: line, col: col}
			}
		case c == '\\':
			if lx.i+1 < len(src) && (src[lx.i+1] == '\n' || src[lx.i+1] == '\r') {
				lx.i++
				lx.skipLineBreak()
				continue
			}
			lx.errorf(lx.line, "unexpected character after line continuation character")
			lx.i++
		case isPyNameStart(c):
			start, line, col := lx.i, lx.line, lx.i-lx.lineStart+1
			for lx.i < len(src) && isPyNameChar(src[lx.i]) {
				lx.i++
			}
			name := src[start:lx.i]
			if lx.i < len(src) && (src[lx.i] == '"' || src[lx.i] == '\'') {
				if ok, formatted, raw := pyStringPrefix(name); ok {
					lx.scanString(formatted, raw)
					lx.lastNewline = false
					return pyTok{kind: pyString, text: src[start:lx.i], line: line, col: col}
				}
			}
			lx.lastNewline = false
			if lx.utf8 && !isASCII(name) {
				lx.nonASCIIName = true
				name = pyFoldName(name)
			}
			return pyTok{kind: pyName, text: name, line: line, col: col}
		case c == '"' || c == '\'':
			start, line, col := lx.i, lx.line, lx.i-lx.lineStart+1
			lx.scanString(false, false)
			lx.lastNewline = false
			return pyTok{kind: pyString, text: src[start:lx.i], line: line, col: col}
		case c >= '0' && c <= '9' || (c == '.' && lx.i+1 < len(src) && src[lx.i+1] >= '0' && src[lx.i+1] <= '9'):
			start, line, col := lx.i, lx.line, lx.i-lx.lineStart+1
			for lx.i < len(src) {
				d := src[lx.i]
				if isPyNameChar(d) || d == '.' {
					lx.i++
					continue
				}
				// Exponent signs belong to the number: 1e-5.
				if (d == '+' || d == '-') && (src[lx.i-1]|0x20 == 'e') {
					lx.i++
					continue
				}
				break
			}
			lx.lastNewline = false
			return pyTok{kind: pyNumber, text: src[start:lx.i], line: line, col: col}
		default:
			line, col := lx.line, lx.i-lx.lineStart+1
			switch c {
			case '(', '[', '{':
				lx.depth++
			case ')', ']', '}':
				if lx.depth > 0 {
					lx.depth--
				}
			}
			lx.i++
			lx.lastNewline = false
			return pyTok{kind: pyOp, text: src[lx.i-1 : lx.i], line: line, col: col}
		}
	}
	if !lx.lastNewline {
		lx.lastNewline = true
		return pyTok{kind: pyNewline, line: lx.line, col: lx.i - lx.lineStart + 1}
	}
	return pyTok{kind: pyEOF, line: lx.line, col: lx.i - lx.lineStart + 1}
}

// scanString consumes a string literal whose opening quote is at lx.i.
func (lx *pyLexer) scanString(formatted, raw bool) {
	src := lx.src
	q := src[lx.i]
	startLine := lx.line
	triple := lx.i+2 < len(src) && src[lx.i+1] == q && src[lx.i+2] == q
	if triple {
		lx.i += 3
	} else {
		lx.i++
	}
	if !lx.scanStringBody(q, triple, formatted, raw) {
		lx.errorf(startLine, "unterminated string literal")
	}
}

// scanStringBody consumes up to and including the closing quote and reports
// whether it was found. A single-quoted string ends, unterminated, at a line
// break, which is where Python's tokenizer gives up too, so the rest of the
// file is still read as code.
func (lx *pyLexer) scanStringBody(q byte, triple, formatted, raw bool) bool {
	src := lx.src
	for lx.i < len(src) {
		c := src[lx.i]
		switch c {
		case '\\':
			lx.i++
			if lx.i >= len(src) {
				return false
			}
			switch src[lx.i] {
			case '\n', '\r':
				lx.skipLineBreak()
			case 'N':
				lx.i++
				// \N{NAME} is a character escape, not a replacement field.
				if formatted && !raw && lx.i < len(src) && src[lx.i] == '{' {
					for lx.i < len(src) && src[lx.i] != '}' && src[lx.i] != q && src[lx.i] != '\n' {
						lx.i++
					}
					if lx.i < len(src) && src[lx.i] == '}' {
						lx.i++
					}
				}
			default:
				lx.i++
			}
		case '\n', '\r':
			if !triple {
				return false
			}
			lx.skipLineBreak()
		case '{':
			lx.i++
			if !formatted {
				continue
			}
			if lx.i < len(src) && src[lx.i] == '{' {
				lx.i++
				continue
			}
			lx.scanReplacementField(q, triple)
		default:
			if c == q {
				if !triple {
					lx.i++
					return true
				}
				if lx.i+2 < len(src) && src[lx.i+1] == q && src[lx.i+2] == q {
					lx.i += 3
					return true
				}
			}
			lx.i++
		}
	}
	return false
}

// scanReplacementField consumes an f-string replacement field after its
// '{', up to and including the matching '}'. Since Python 3.12 the
// expression may contain any string, including ones using the enclosing
// quote, so nested literals are scanned recursively; after a top-level ':'
// the format spec is literal text that may itself hold nested fields.
func (lx *pyLexer) scanReplacementField(q byte, triple bool) {
	src := lx.src
	depth := 0
	field := pyField{start: lx.i, end: -1, line: lx.line, lineStart: lx.lineStart}
	// done records the field's expression, which ends at the top-level
	// ':' or '}' (or where the string gave up).
	done := func() {
		if !lx.wantFields || lx.fieldLevel > 0 {
			return
		}
		if field.end < 0 {
			field.end = lx.i
		}
		lx.fields = append(lx.fields, field)
	}
	for lx.i < len(src) {
		c := src[lx.i]
		switch {
		case c == '"' || c == '\'':
			lx.fieldLevel++
			lx.scanString(false, false)
			lx.fieldLevel--
		case isPyNameStart(c):
			start := lx.i
			for lx.i < len(src) && isPyNameChar(src[lx.i]) {
				lx.nonASCIIName = lx.nonASCIIName || src[lx.i] >= 0x80
				lx.i++
			}
			if lx.i < len(src) && (src[lx.i] == '"' || src[lx.i] == '\'') {
				if ok, formatted, raw := pyStringPrefix(src[start:lx.i]); ok {
					lx.fieldLevel++
					lx.scanString(formatted, raw)
					lx.fieldLevel--
				}
			}
		case c == '(' || c == '[' || c == '{':
			depth++
			lx.i++
		case c == ')' || c == ']':
			if depth > 0 {
				depth--
			}
			lx.i++
		case c == '}':
			if depth == 0 {
				field.end = lx.i
				lx.i++
				done()
				return
			}
			lx.i++
			depth--
		case c == ':' && depth == 0:
			field.end = lx.i
			done()
			lx.i++
			lx.scanFormatSpec(q, triple)
			return
		case c == '\n' || c == '\r':
			lx.skipLineBreak()
		case c == '\\':
			lx.i++
			if lx.i < len(src) && (src[lx.i] == '\n' || src[lx.i] == '\r') {
				lx.skipLineBreak()
			}
		default:
			lx.i++
		}
	}
	done()
}

// scanFormatSpec consumes a format spec up to and including the '}' that
// closes its replacement field. It stops without consuming at a line break
// of a single-quoted string or at the closing quote, leaving the error to
// the string scanner.
func (lx *pyLexer) scanFormatSpec(q byte, triple bool) bool {
	src := lx.src
	for lx.i < len(src) {
		c := src[lx.i]
		switch c {
		case '{':
			lx.i++
			lx.scanReplacementField(q, triple)
		case '}':
			lx.i++
			return true
		case '\n', '\r':
			if !triple {
				return false
			}
			lx.skipLineBreak()
		case '\\':
			lx.i++
			if lx.i < len(src) {
				if src[lx.i] == '\n' || src[lx.i] == '\r' {
					lx.skipLineBreak()
				} else {
					lx.i++
				}
			}
		default:
			if c == q {
				return false
			}
			lx.i++
		}
	}
	return false
}
