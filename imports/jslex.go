package imports

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// jsTokKind classifies the tokens the JS/TS import extractor cares about.
// The lexer is not a full ECMAScript scanner: it only has to be exact about
// where strings, comments, template literals and regular expressions start
// and end, because those are the places an import-looking text must not be
// taken for an import.
type jsTokKind uint8

const (
	jsIdent    jsTokKind = iota // identifiers and keywords alike
	jsPunct                     // one punctuator; "..." "?." "=>" kept whole
	jsString                    // '...' or "..."; see jsStringValue
	jsTemplate                  // `...` without substitutions
	jsTmplSub                   // a template literal with ${} substitutions
	jsNumber
	jsRegex
)

// jsTok is one token. It holds no text of its own: identifiers and
// punctuators are read from the source by offset, and a string's or a
// template's value is decoded on demand (see jsParser.val), so lexing a
// file allocates nothing per token.
type jsTok struct {
	kind  jsTokKind
	start int // byte offset of the token in the source
	end   int
	line  int // 1-based
	col   int // 1-based, in bytes
	// esc marks an identifier spelled with \u escapes, whose name is
	// its decoded text (see jsLexer.text).
	esc bool
}

// maxJSNesting bounds the recursion through template substitutions and JSX
// expression containers, so adversarial input cannot exhaust the stack.
const maxJSNesting = 500

type jsLexer struct {
	src       []byte
	pos       int
	line      int
	lineStart int
	toks      []jsTok
	errs      []SyntaxError
	depth     int
	// closingAt caches, per element name, the offset of the last </name>
	// in the source (-1 if none), so checking many bare <Name> tags costs
	// one search per distinct name.
	closingAt map[string]int
	// afterHead is set while the last token is a ')' that closed the head
	// of an if, while, for or with: a statement, so a '/' after it starts
	// a regular expression (`if (a) /x/.test(s)`), where after any other
	// ')' it divides. Reading it as a division let a backtick inside the
	// regex open a template that hid the import on the next line.
	afterHead bool
	// stopped is set once lexing gave up (stop): the rest is unread.
	stopped bool
}

// headKeywords are the statements whose parenthesised head is followed by
// a statement, not a value.
var headKeywords = map[string]bool{"if": true, "while": true, "for": true, "with": true}

// maxJSXNames bounds the distinct names searched for closing tags, keeping
// the lexer linear on adversarial input; past it a bare <Name> is not JSX.
const maxJSXNames = 256

func (lx *jsLexer) lastClosingTag(name []byte) int {
	if at, ok := lx.closingAt[string(name)]; ok {
		return at
	}
	if lx.closingAt == nil {
		lx.closingAt = map[string]int{}
	}
	if len(lx.closingAt) >= maxJSXNames {
		return -1
	}
	closing := make([]byte, 0, len(name)+3)
	closing = append(append(append(closing, '<', '/'), name...), '>')
	at := bytes.LastIndex(lx.src, closing)
	lx.closingAt[string(name)] = at
	return at
}

// text returns the source text of t without allocating a copy; for an
// identifier spelled with escapes, its name: `\u0072equire("x")` calls
// require, as node reads it.
func (lx *jsLexer) text(t jsTok) []byte {
	if t.esc {
		return []byte(jsCooked(lx.src[t.start:t.end], false))
	}
	return lx.src[t.start:t.end]
}

func (lx *jsLexer) errorf(line int, msg string) {
	if lx.stopped {
		// Unwinding after stop: the literals left open are not errors.
		return
	}
	lx.errs = append(lx.errs, SyntaxError{Line: line, Message: msg})
}

// stop records that lexing gives up at the current line: what follows is
// never read, so the file's imports are not all known.
func (lx *jsLexer) stop(msg string) {
	lx.stopped = true
	lx.errs = append(lx.errs, SyntaxError{Line: lx.line, Message: msg + "; the rest of the file is not read", Stop: true})
}

// newline records that the byte at lx.pos-1 ended a line.
func (lx *jsLexer) newline() {
	lx.line++
	lx.lineStart = lx.pos
}

func lexJS(src []byte) ([]jsTok, []SyntaxError) {
	lx := &jsLexer{}
	lx.lex(src, nil)
	return lx.toks, lx.errs
}

// lex tokenizes src into toks[:0], resetting the rest of the lexer's state
// so that one lexer, and its token buffer, can serve file after file.
func (lx *jsLexer) lex(src []byte, toks []jsTok) {
	if toks == nil {
		toks = make([]jsTok, 0, len(src)/6)
	}
	clear(lx.closingAt)
	*lx = jsLexer{src: src, line: 1, toks: toks[:0], closingAt: lx.closingAt}
	// A hashbang line is not JavaScript; any line terminator ends it.
	if bytes.HasPrefix(src, []byte("#!")) {
		lx.skipToLineEnd()
	}
	lx.lexTokens(false)
}

// jsLineEnd is the length of the line terminator at src[i], 0 if none.
// JavaScript ends a line at LF, CR, U+2028 and U+2029: a // comment
// ended only at LF would hide the code node runs after a CR.
func jsLineEnd(src []byte, i int) int {
	switch c := src[i]; {
	case c == '\n' || c == '\r':
		return 1
	case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9):
		return 3
	}
	return 0
}

// jsUnicodeSpace is the length of the non-ASCII white space or line
// terminator at src[i] (U+00A0, U+FEFF, U+1680, U+2000 to U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000), 0 if none. JavaScript skips
// them between tokens: read as identifier bytes they would glue
// `;\u00a0require("x")` into one name and hide the call.
func jsUnicodeSpace(src []byte, i int) int {
	if i+1 >= len(src) {
		return 0
	}
	c, d := src[i], src[i+1]
	switch {
	case c == 0xC2 && d == 0xA0:
		return 2
	case i+2 >= len(src):
		return 0
	}
	e := src[i+2]
	switch {
	case c == 0xEF && d == 0xBB && e == 0xBF, // U+FEFF
		c == 0xE1 && d == 0x9A && e == 0x80, // U+1680
		c == 0xE2 && d == 0x80 && (e >= 0x80 && e <= 0x8A || e == 0xA8 || e == 0xA9 || e == 0xAF),
		c == 0xE2 && d == 0x81 && e == 0x9F, // U+205F
		c == 0xE3 && d == 0x80 && e == 0x80: // U+3000
		return 3
	}
	return 0
}

// skipToLineEnd moves lx.pos to the next line terminator (or the end),
// for // comments and the hashbang line.
func (lx *jsLexer) skipToLineEnd() {
	src := lx.src
	for lx.pos < len(src) {
		c := src[lx.pos]
		if c == '\n' || c == '\r' || c == 0xE2 && jsLineEnd(src, lx.pos) > 0 {
			return
		}
		lx.pos++
	}
}

// identEnd is the end of the identifier-like run from i: ASCII letters,
// digits, '_', '$', non-ASCII characters other than white space, and
// \uHHHH or \u{H...} escapes.
func identEnd(src []byte, i int) int {
	for i < len(src) {
		c := src[i]
		if c == '\\' {
			n := jsIdentEscape(src, i)
			if n == 0 {
				return i
			}
			i += n
			continue
		}
		if !isJSIdentPart(c) || c >= 0x80 && jsUnicodeSpace(src, i) > 0 {
			return i
		}
		i++
	}
	return i
}

// jsIdentEscape is the length of the \uHHHH or \u{H...} escape at src[i],
// 0 if there is none. JavaScript lets one stand for any character of an
// identifier.
func jsIdentEscape(src []byte, i int) int {
	if i+1 >= len(src) || src[i] != '\\' || src[i+1] != 'u' {
		return 0
	}
	if i+2 < len(src) && src[i+2] == '{' {
		end := bytes.IndexByte(src[i+2:], '}')
		if end < 2 {
			return 0
		}
		if _, ok := jsHex(src, i+3, end-1); !ok {
			return 0
		}
		return end + 3
	}
	if _, ok := jsHex(src, i+2, 4); !ok {
		return 0
	}
	return 6
}

func isJSIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isJSIdentPart(c byte) bool { return isJSIdentStart(c) || (c >= '0' && c <= '9') }

// regexAfterKeyword lists the keywords after which a '/' starts a regular
// expression rather than a division.
var regexAfterKeyword = map[string]bool{
	"return": true, "typeof": true, "case": true, "do": true, "else": true,
	"in": true, "of": true, "new": true, "delete": true, "void": true,
	"throw": true, "instanceof": true, "yield": true, "await": true,
	"extends": true,
}

// slashIsRegex decides regex-versus-division from the previous significant
// token, the standard heuristic: after a value (identifier, number, string,
// ')' or ']') a slash divides; anywhere else it starts a regex.
func (lx *jsLexer) slashIsRegex() bool {
	if len(lx.toks) == 0 {
		return true
	}
	t := lx.toks[len(lx.toks)-1]
	switch t.kind {
	case jsIdent:
		// A keyword used as a property name (x.return / 2) is a value.
		if len(lx.toks) >= 2 && lx.isDot(lx.toks[len(lx.toks)-2]) {
			return false
		}
		return regexAfterKeyword[string(lx.text(t))]
	case jsPunct:
		c := lx.src[t.start]
		if c == ')' {
			return lx.afterHead
		}
		return c != ']'
	}
	return false
}

// opensHead reports whether a '(' about to be emitted opens the head of
// an if, while, for, for await or with (not a method called if, x.if()).
func (lx *jsLexer) opensHead() bool {
	n := len(lx.toks)
	if n > 1 && lx.toks[n-1].kind == jsIdent && string(lx.text(lx.toks[n-1])) == "await" {
		n-- // for await (...)
	}
	if n == 0 || lx.toks[n-1].kind != jsIdent || !headKeywords[string(lx.text(lx.toks[n-1]))] {
		return false
	}
	return !(n > 1 && lx.isDot(lx.toks[n-2]))
}

func (lx *jsLexer) isDot(t jsTok) bool {
	if t.kind != jsPunct {
		return false
	}
	s := lx.text(t)
	return len(s) == 1 && s[0] == '.' || len(s) == 2 && s[0] == '?'
}

func (lx *jsLexer) emit(kind jsTokKind, start int) {
	lx.afterHead = false
	lx.toks = append(lx.toks, jsTok{kind: kind, start: start, end: lx.pos,
		line: lx.line, col: start - lx.lineStart + 1})
}

// lexTokens scans code until the end of input or, when inBraces, until the
// '}' that closes the substitution or JSX expression the caller opened.
func (lx *jsLexer) lexTokens(inBraces bool) {
	src := lx.src
	braces := 0
	// heads has one entry per open '(', true when it opens the head of an
	// if, while, for or with.
	var heads []bool
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case c == '\n':
			lx.pos++
			lx.newline()
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			lx.pos++
		case c == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '/':
			lx.skipToLineEnd()
		case c == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '*':
			lx.blockComment()
		case c >= 0x80 && jsUnicodeSpace(src, lx.pos) > 0:
			lx.pos += jsUnicodeSpace(src, lx.pos)
		case c == '/' && lx.slashIsRegex() && lx.regex():
		case c == '\'' || c == '"':
			lx.str(c)
		case c == '`':
			lx.template()
		case isJSIdentStart(c) || c == '\\' && jsIdentEscape(src, lx.pos) > 0:
			start := lx.pos
			lx.pos = identEnd(src, lx.pos)
			lx.emit(jsIdent, start)
			if bytes.IndexByte(src[start:lx.pos], '\\') >= 0 {
				lx.toks[len(lx.toks)-1].esc = true
			}
		case c >= '0' && c <= '9' || c == '.' && lx.pos+1 < len(src) && src[lx.pos+1] >= '0' && src[lx.pos+1] <= '9':
			start := lx.pos
			for {
				lx.pos = identEnd(src, lx.pos)
				if lx.pos >= len(src) || src[lx.pos] != '.' {
					break
				}
				lx.pos++
			}
			lx.emit(jsNumber, start)
		case c == '<' && lx.slashIsRegex() && lx.jsxStart():
			lx.jsxElement()
		default:
			start := lx.pos
			lx.pos++
			switch {
			case c == '.' && bytes.HasPrefix(src[start:], []byte("...")):
				lx.pos = start + 3
			case c == '?' && lx.pos < len(src) && src[lx.pos] == '.' &&
				!(lx.pos+1 < len(src) && src[lx.pos+1] >= '0' && src[lx.pos+1] <= '9'):
				lx.pos++
			case c == '=' && lx.pos < len(src) && src[lx.pos] == '>':
				lx.pos++
			}
			if c == '{' {
				braces++
			} else if c == '}' {
				if braces == 0 && inBraces {
					lx.pos = start // the caller consumes the '}'
					return
				}
				braces--
			}
			head := false
			switch c {
			case '(':
				heads = append(heads, lx.opensHead())
			case ')':
				if k := len(heads); k > 0 {
					head = heads[k-1]
					heads = heads[:k-1]
				}
			}
			lx.emit(jsPunct, start)
			lx.afterHead = head
		}
	}
}

func (lx *jsLexer) blockComment() {
	line := lx.line
	lx.pos += 2
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		lx.pos++
		if c == '\n' {
			lx.newline()
		} else if c == '*' && lx.pos < len(lx.src) && lx.src[lx.pos] == '/' {
			lx.pos++
			return
		}
	}
	lx.errorf(line, "unterminated block comment")
}

// regex scans a regular expression literal at lx.pos. A regex cannot span
// lines, so when none closes on this line the slash is left to be lexed as
// a division: a wrong guess costs at most one line.
func (lx *jsLexer) regex() bool {
	src := lx.src
	i := lx.pos + 1
	inClass := false
	for i < len(src) {
		c := src[i]
		switch {
		case jsLineEnd(src, i) > 0:
			return false
		case c == '\\':
			i++
			if i < len(src) && jsLineEnd(src, i) > 0 {
				return false
			}
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			i++
			for i < len(src) && isJSIdentPart(src[i]) {
				i++
			}
			start := lx.pos
			lx.pos = i
			lx.emit(jsRegex, start)
			return true
		}
		i++
	}
	return false
}

// str scans a quoted string. An unescaped line break ends it with an error,
// so one stray quote (say, an apostrophe in JSX text) spoils one line only.
// The value is decoded later, by jsStringValue, for the few strings that
// need it.
func (lx *jsLexer) str(q byte) {
	src := lx.src
	start, line, col := lx.pos, lx.line, lx.pos-lx.lineStart+1
	lx.pos++
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case c == q:
			lx.pos++
			lx.toks = append(lx.toks, jsTok{kind: jsString, start: start, end: lx.pos, line: line, col: col})
			return
		case c == '\n' || c == '\r':
			// A line break may not stand in a string (U+2028 and
			// U+2029 may, since ES2019).
			lx.errorf(line, "unterminated string literal")
			return
		case c == '\\':
			lx.pos++
			if lx.pos >= len(src) {
				break
			}
			e := src[lx.pos]
			lx.pos++
			switch e {
			case '\n':
				lx.newline()
			case '\r':
				// Lines are counted by '\n' alone, as everywhere else.
				if lx.pos < len(src) && src[lx.pos] == '\n' {
					lx.pos++
					lx.newline()
				}
			}
		default:
			lx.pos++
		}
	}
	lx.errorf(line, "unterminated string literal")
}

// jsStringValue decodes the string literal tok, quotes included, as str
// scanned it.
func jsStringValue(tok []byte) string {
	return jsCooked(tok[1:len(tok)-1], false)
}

// jsCooked returns the value JavaScript gives the body of a string literal
// or, with template set, of a template literal without substitutions (its
// cooked value): every escape decoded as the engine decodes it (\xHH,
// \uHHHH and \u{H...} with UTF-16 surrogate pairs joined, the legacy octal
// escapes of sloppy-mode strings, \0, line continuations, the one-letter
// escapes, and any other escaped character as itself). A specifier is
// what node resolves, so `require("..\x2fauth")` must read `../auth`:
// kept raw, it was taken for a package and crossed a denied boundary
// unseen. A template's CR and CRLF read as LF. An escape the engine
// rejects (a bad \x or \u) cannot run; it is kept as its letter.
func jsCooked(body []byte, template bool) string {
	if bytes.IndexByte(body, '\\') < 0 && !(template && bytes.IndexByte(body, '\r') >= 0) {
		return string(body)
	}
	b := make([]byte, 0, len(body))
	// high is a pending UTF-16 high surrogate from a \u escape, joined
	// with a low one that follows at once, else written as U+FFFD (what
	// node's UTF-8 conversion of a lone surrogate gives).
	var high rune
	flush := func() {
		if high != 0 {
			b = utf8.AppendRune(b, utf8.RuneError)
			high = 0
		}
	}
	unit := func(r rune) {
		if high != 0 && r >= 0xDC00 && r < 0xE000 {
			b = utf8.AppendRune(b, utf16.DecodeRune(high, r))
			high = 0
			return
		}
		flush()
		if r >= 0xD800 && r < 0xDC00 {
			high = r
			return
		}
		b = utf8.AppendRune(b, r)
	}
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			flush()
			i++
			if template && c == '\r' {
				c = '\n'
				if i < len(body) && body[i] == '\n' {
					i++
				}
			}
			b = append(b, c)
			continue
		}
		i++
		if i >= len(body) {
			break
		}
		if n := jsLineEnd(body, i); n > 0 {
			i += n
			if body[i-1] == '\r' && i < len(body) && body[i] == '\n' {
				i++
			}
			continue
		}
		e := body[i]
		i++
		switch e {
		case 'b':
			unit('\b')
		case 'f':
			unit('\f')
		case 'n':
			unit('\n')
		case 'r':
			unit('\r')
		case 't':
			unit('\t')
		case 'v':
			unit('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// LegacyOctalEscapeSequence: up to three digits from
			// 0-3, up to two from 4-7; a lone \0 is NUL.
			v, max := rune(e-'0'), 2
			if e >= '4' {
				max = 1
			}
			for ; max > 0 && i < len(body) && body[i] >= '0' && body[i] <= '7'; max-- {
				v = v*8 + rune(body[i]-'0')
				i++
			}
			unit(v)
		case 'x':
			if v, ok := jsHex(body, i, 2); ok {
				unit(v)
				i += 2
			} else {
				unit('x')
			}
		case 'u':
			switch {
			case i < len(body) && body[i] == '{':
				end := bytes.IndexByte(body[i:], '}')
				if end < 2 {
					unit('u')
					break
				}
				v, ok := jsHex(body, i+1, end-1)
				if !ok || v > unicode.MaxRune {
					unit('u')
					break
				}
				unit(v)
				i += end + 1
			default:
				if v, ok := jsHex(body, i, 4); ok {
					unit(v)
					i += 4
				} else {
					unit('u')
				}
			}
		default:
			// Any other character stands for itself (\8, \', a
			// multi-byte character: its first byte here, the rest
			// copied as they come).
			flush()
			b = append(b, e)
		}
	}
	flush()
	return string(b)
}

// jsHex reads n hex digits at body[i:] as a code point; past
// unicode.MaxRune it fails.
func jsHex(body []byte, i, n int) (rune, bool) {
	if n <= 0 || i+n > len(body) {
		return 0, false
	}
	var v rune
	for _, c := range body[i : i+n] {
		if v > unicode.MaxRune {
			return 0, false
		}
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + rune(c-'0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			v = v*16 + rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// template scans a template literal, lexing the code of each ${}
// substitution as ordinary tokens so that imports inside it are seen.
func (lx *jsLexer) template() {
	src := lx.src
	start, line := lx.pos, lx.line
	idx := len(lx.toks)
	lx.emit(jsTemplate, start)
	lx.pos++
	subs := false
	for lx.pos < len(src) {
		c := src[lx.pos]
		lx.pos++
		switch {
		case c == '`':
			t := &lx.toks[idx]
			t.end = lx.pos
			if subs {
				t.kind = jsTmplSub
				// A closing token so the next slash is seen as a division.
				lx.emit(jsTmplSub, lx.pos-1)
			}
			return
		case c == '\n':
			lx.newline()
		case c == '\\':
			if lx.pos < len(src) {
				if src[lx.pos] == '\n' {
					lx.pos++
					lx.newline()
				} else {
					lx.pos++
				}
			}
		case c == '$' && lx.pos < len(src) && src[lx.pos] == '{':
			lx.pos++
			if !subs {
				subs = true
				lx.toks[idx].kind = jsTmplSub
			}
			if lx.depth >= maxJSNesting {
				lx.stop("template literals nested too deeply")
				lx.pos = len(src)
				return
			}
			lx.depth++
			lx.lexTokens(true)
			lx.depth--
			if lx.pos < len(src) {
				lx.pos++ // the closing '}'
			}
		}
	}
	lx.errorf(line, "unterminated template literal")
}

// jsxStart reports whether the '<' at lx.pos, in expression position, opens
// a JSX element. The same text can be a TypeScript type assertion (<T>x) or
// a generic arrow function (<T,>() => ...), which is why a bare <Name> only
// counts when a matching </Name> follows somewhere later.
func (lx *jsLexer) jsxStart() bool {
	src := lx.src
	i := lx.pos + 1
	if i < len(src) && src[i] == '>' {
		return true // fragment <>
	}
	if i >= len(src) || !isJSIdentStart(src[i]) {
		return false
	}
	nameStart := i
	for i < len(src) && (isJSIdentPart(src[i]) || src[i] == '.' || src[i] == ':' || src[i] == '-') {
		i++
	}
	name := src[nameStart:i]
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i >= len(src) {
		return false
	}
	switch c := src[i]; {
	case c == '/':
		return i+1 < len(src) && src[i+1] == '>'
	case c == '{':
		return true
	case c == '>':
		return lx.lastClosingTag(name) > i
	case isJSIdentStart(c):
		j := i
		for j < len(src) && isJSIdentPart(src[j]) {
			j++
		}
		w := string(src[i:j])
		return w != "extends" && !bytes.Equal(name, []byte("const"))
	}
	return false
}

// jsxElement skips a JSX element starting at '<', lexing the code inside
// its {} expression containers. JSX text is skipped byte by byte, so text
// such as <p>import x from 'y'</p> yields nothing.
func (lx *jsLexer) jsxElement() {
	src := lx.src
	start := lx.pos
	depth := 0 // open elements whose children we are in
	for lx.pos < len(src) {
		// At '<': a tag.
		closing := lx.pos+1 < len(src) && src[lx.pos+1] == '/'
		selfClosing := lx.jsxTag()
		switch {
		case closing:
			depth--
		case !selfClosing:
			depth++
		}
		if depth <= 0 {
			break
		}
		// Children: text up to the next tag, with {} containers.
		for lx.pos < len(src) && src[lx.pos] != '<' {
			switch src[lx.pos] {
			case '\n':
				lx.pos++
				lx.newline()
			case '{':
				lx.pos++
				lx.jsxExpr()
			default:
				lx.pos++
			}
		}
	}
	// Stand for the whole element: a value, so a following slash divides.
	lx.toks = append(lx.toks, jsTok{kind: jsIdent, start: start, end: start, line: lx.line, col: start - lx.lineStart + 1})
}

func (lx *jsLexer) jsxExpr() {
	if lx.depth >= maxJSNesting {
		lx.stop("JSX nested too deeply")
		lx.pos = len(lx.src)
		return
	}
	lx.depth++
	lx.lexTokens(true)
	lx.depth--
	if lx.pos < len(lx.src) {
		lx.pos++ // the closing '}'
	}
}

// jsxTag skips one tag from '<' through '>' and reports whether it closed
// itself with '/>'. Attribute strings may span lines and have no escapes.
func (lx *jsLexer) jsxTag() bool {
	src := lx.src
	lx.pos++ // '<'
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case c == '>':
			lx.pos++
			return false
		case c == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '>':
			lx.pos += 2
			return true
		case c == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '/':
			lx.skipToLineEnd()
		case c == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '*':
			lx.blockComment()
		case c == '\n':
			lx.pos++
			lx.newline()
		case c == '"' || c == '\'':
			lx.pos++
			for lx.pos < len(src) && src[lx.pos] != c {
				if src[lx.pos] == '\n' {
					lx.pos++
					lx.newline()
					continue
				}
				lx.pos++
			}
			lx.pos++
		case c == '{':
			lx.pos++
			lx.jsxExpr()
		default:
			lx.pos++
		}
	}
	return true
}
