package imports

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// rustTokKind classifies Rust tokens. Like the JS lexer, this one exists to
// be exact about what is code and what is a literal or a comment; it does
// not tell keywords from identifiers.
type rustTokKind uint8

const (
	rustIdent    rustTokKind = iota // identifiers, keywords, raw identifiers (text without r#)
	rustPunct                       // one punctuation character, or "::"
	rustString                      // any string literal; its text is the contents
	rustChar                        // character and byte literals
	rustLifetime                    // 'a, also loop labels
	rustNumber
)

// rustTok holds no text of its own: start and end delimit, in the source,
// an identifier's text (raw prefix excluded), a punctuator, or a string
// literal's contents; see rustTokText.
type rustTok struct {
	kind       rustTokKind
	line       int
	col        int
	start, end int
}

// rustTokText returns the text of an identifier, a punctuator or a string
// literal's contents; nothing for other tokens.
func rustTokText(src []byte, t rustTok) []byte {
	switch t.kind {
	case rustIdent, rustPunct, rustString:
		return src[t.start:t.end]
	}
	return nil
}

type rustLexer struct {
	src       []byte
	pos       int
	line      int
	lineStart int
	toks      []rustTok
	errs      []SyntaxError
}

func isRustIdentStart(c byte) bool {
	return c == '_' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isRustIdentPart(c byte) bool { return isRustIdentStart(c) || (c >= '0' && c <= '9') }

// rustSpaceLen returns the byte length of the non-ASCII white space rustc
// skips between tokens at src[i] (Pattern_White_Space: U+0085, U+200E,
// U+200F, U+2028, U+2029), or 0. Read as identifier bytes, they would
// glue a following keyword to them: rustc compiles `x;\u2028use a::b;`
// with the `use`, which must not vanish into an identifier here.
func rustSpaceLen(src []byte, i int) int {
	switch {
	case i+1 < len(src) && src[i] == 0xC2 && src[i+1] == 0x85:
		return 2
	case i+2 < len(src) && src[i] == 0xE2 && src[i+1] == 0x80:
		switch src[i+2] {
		case 0x8E, 0x8F, 0xA8, 0xA9:
			return 3
		}
	}
	return 0
}

// identEnd returns where the identifier characters starting at i end.
// Other non-ASCII bytes stay identifier bytes: rustc rejects those that
// are not XID characters, so they cannot hide code that compiles.
func (lx *rustLexer) identEnd(i int) int {
	src := lx.src
	for i < len(src) {
		c := src[i]
		if c < 0x80 && !isRustIdentPart(c) || c >= 0x80 && rustSpaceLen(src, i) > 0 {
			break
		}
		i++
	}
	return i
}

func lexRust(src []byte) ([]rustTok, []SyntaxError) {
	lx := &rustLexer{}
	lx.lex(src, nil)
	return lx.toks, lx.errs
}

// lex tokenizes src into toks[:0], so that one lexer, and its token
// buffer, can serve file after file.
func (lx *rustLexer) lex(src []byte, toks []rustTok) {
	if toks == nil {
		toks = make([]rustTok, 0, len(src)/6)
	}
	*lx = rustLexer{src: src, line: 1, toks: toks[:0]}
	// rustc drops a leading byte order mark; read as identifier bytes it
	// would hide a `use` on the first line.
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		lx.pos, lx.lineStart = 3, 3
	}
	// A shebang line (but not an inner attribute #![...]) is not Rust.
	if len(src) > lx.pos+2 && src[lx.pos] == '#' && src[lx.pos+1] == '!' && src[lx.pos+2] != '[' {
		for lx.pos < len(src) && src[lx.pos] != '\n' {
			lx.pos++
		}
	}
	for lx.pos < len(src) {
		lx.next()
	}
}

// emit records a token whose text, if any, is src[textStart:textEnd].
func (lx *rustLexer) emit(kind rustTokKind, start, line, lineStart, textStart, textEnd int) {
	lx.toks = append(lx.toks, rustTok{kind: kind, line: line, col: start - lineStart + 1, start: textStart, end: textEnd})
}

// emitIdent records an identifier without copying its text.
func (lx *rustLexer) emitIdent(start, textStart, line, lineStart int) {
	lx.toks = append(lx.toks, rustTok{kind: rustIdent, line: line, col: start - lineStart + 1, start: textStart, end: lx.pos})
}

// skipTo advances to end, counting the newlines it passes.
func (lx *rustLexer) skipTo(end int) {
	for ; lx.pos < end; lx.pos++ {
		if lx.src[lx.pos] == '\n' {
			lx.line++
			lx.lineStart = lx.pos + 1
		}
	}
}

func (lx *rustLexer) at(i int) byte {
	if i < len(lx.src) {
		return lx.src[i]
	}
	return 0
}

func (lx *rustLexer) next() {
	src, p := lx.src, lx.pos
	c := src[p]
	start, line, lineStart := p, lx.line, lx.lineStart
	switch {
	case c == '\n':
		lx.skipTo(p + 1)
	case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
		lx.pos++
	case c >= 0x80 && rustSpaceLen(src, p) > 0:
		lx.pos += rustSpaceLen(src, p)
	case c == '/' && lx.at(p+1) == '/':
		for lx.pos < len(src) && src[lx.pos] != '\n' {
			lx.pos++
		}
	case c == '/' && lx.at(p+1) == '*':
		lx.blockComment()
	case c == '"':
		lx.quoted(start, line, lineStart)
	case c == '\'':
		lx.quote()
	case (c == 'b' || c == 'c') && lx.at(p+1) == '"':
		lx.pos++
		lx.quoted(start, line, lineStart)
	case c == 'b' && lx.at(p+1) == '\'':
		lx.pos++
		lx.charLit(start, line, lineStart)
	case c == 'r' && lx.at(p+1) == '#' && isRustIdentStart(lx.at(p+2)):
		lx.pos = lx.identEnd(p + 2)
		lx.emitIdent(start, p+2, line, lineStart)
	case c == 'r' && (lx.at(p+1) == '"' || lx.at(p+1) == '#'):
		lx.pos++
		lx.rawString(start, line, lineStart)
	case (c == 'b' || c == 'c') && lx.at(p+1) == 'r' && (lx.at(p+2) == '"' || lx.at(p+2) == '#'):
		lx.pos += 2
		lx.rawString(start, line, lineStart)
	case isRustIdentStart(c):
		lx.pos = lx.identEnd(p)
		lx.emitIdent(start, p, line, lineStart)
	case c >= '0' && c <= '9':
		for lx.pos < len(src) {
			if e := lx.identEnd(lx.pos); e > lx.pos {
				lx.pos = e
			} else if src[lx.pos] == '.' && lx.at(lx.pos+1) >= '0' && lx.at(lx.pos+1) <= '9' {
				lx.pos++
			} else {
				break
			}
		}
		lx.emit(rustNumber, start, line, lineStart, 0, 0)
	case c == ':' && lx.at(p+1) == ':':
		lx.pos += 2
		lx.emit(rustPunct, start, line, lineStart, p, p+2)
	default:
		lx.pos++
		lx.emit(rustPunct, start, line, lineStart, p, p+1)
	}
}

// blockComment skips a block comment; Rust's nest.
func (lx *rustLexer) blockComment() {
	line := lx.line
	depth := 0
	src := lx.src
	for lx.pos < len(src) {
		switch {
		case src[lx.pos] == '/' && lx.at(lx.pos+1) == '*':
			depth++
			lx.pos += 2
		case src[lx.pos] == '*' && lx.at(lx.pos+1) == '/':
			depth--
			lx.pos += 2
			if depth == 0 {
				return
			}
		default:
			lx.skipTo(lx.pos + 1)
		}
	}
	lx.errs = append(lx.errs, SyntaxError{Line: line, Message: "unterminated block comment"})
}

// quoted scans a "..." literal whose opening quote is at lx.pos.
func (lx *rustLexer) quoted(start, line, lineStart int) {
	src := lx.src
	open := lx.pos
	i := open + 1
	for i < len(src) && src[i] != '"' {
		if src[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(src) {
		lx.skipTo(len(src))
		lx.errs = append(lx.errs, SyntaxError{Line: line, Message: "unterminated string literal"})
		return
	}
	lx.skipTo(i + 1)
	lx.emit(rustString, start, line, lineStart, open+1, i)
}

// rawString scans r#"..."# with lx.pos at the first '#' or the quote.
func (lx *rustLexer) rawString(start, line, lineStart int) {
	src := lx.src
	hashes := 0
	for lx.pos < len(src) && src[lx.pos] == '#' {
		hashes++
		lx.pos++
	}
	if lx.at(lx.pos) != '"' {
		// Not a raw string after all (r#[ is not Rust): keep going.
		lx.emit(rustPunct, start, line, lineStart, start, start+1)
		lx.pos = start + 1
		return
	}
	body := lx.pos + 1
	for i := body; i < len(src); i++ {
		if src[i] != '"' {
			continue
		}
		n := 0
		for n < hashes && i+1+n < len(src) && src[i+1+n] == '#' {
			n++
		}
		if n == hashes {
			lx.skipTo(i + 1 + hashes)
			lx.emit(rustString, start, line, lineStart, body, i)
			return
		}
	}
	lx.skipTo(len(src))
	lx.errs = append(lx.errs, SyntaxError{Line: line, Message: "unterminated raw string literal"})
}

// quote tells a character literal from a lifetime or label: 'a' and '\n'
// are characters, 'a and 'static are lifetimes.
func (lx *rustLexer) quote() {
	src := lx.src
	start, line, lineStart := lx.pos, lx.line, lx.lineStart
	if lx.at(lx.pos+1) == '\\' {
		lx.charLit(start, line, lineStart)
		return
	}
	_, size := utf8.DecodeRune(src[min(lx.pos+1, len(src)):])
	if lx.at(lx.pos+1+size) == '\'' && lx.at(lx.pos+1) != '\n' {
		lx.pos += 2 + size
		lx.emit(rustChar, start, line, lineStart, 0, 0)
		return
	}
	lx.pos = lx.identEnd(lx.pos + 1)
	lx.emit(rustLifetime, start, line, lineStart, 0, 0)
}

// charLit scans a character literal with lx.pos at its opening quote. It
// never runs past the line, so a stray quote costs one line at most.
func (lx *rustLexer) charLit(start, line, lineStart int) {
	src := lx.src
	i := lx.pos + 1
	for i < len(src) && src[i] != '\'' && src[i] != '\n' {
		if src[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(src) || src[i] != '\'' {
		lx.errs = append(lx.errs, SyntaxError{Line: line, Message: "unterminated character literal"})
		lx.skipTo(min(i, len(src)))
		return
	}
	lx.skipTo(i + 1)
	lx.emit(rustChar, start, line, lineStart, 0, 0)
}

// rustStringValue is the value of the string literal token t as rustc
// reads it: a raw string's contents as they are, an ordinary one's with
// its escapes decoded. ok is false for a byte or C string (not a str)
// and for an escape rustc rejects.
func rustStringValue(src []byte, t rustTok) (string, bool) {
	if t.kind != rustString || t.start == 0 {
		return "", false
	}
	body := src[t.start:t.end]
	// src[t.start-1] is the opening quote; before it, a raw string's
	// hashes, and before those the prefix (r, b, c, br, cr).
	i := t.start - 2
	for i >= 0 && src[i] == '#' {
		i--
	}
	prefix := byte(0)
	if i >= 0 {
		prefix = src[i]
	}
	switch {
	case prefix == 'r':
		if i > 0 && (src[i-1] == 'b' || src[i-1] == 'c') {
			return "", false
		}
		return string(body), true
	case prefix == 'b' || prefix == 'c':
		return "", false
	}
	var b strings.Builder
	for j := 0; j < len(body); j++ {
		c := body[j]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		j++
		if j >= len(body) {
			return "", false
		}
		switch e := body[j]; e {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case '0':
			b.WriteByte(0)
		case 'x':
			if j+2 >= len(body) {
				return "", false
			}
			v, err := strconv.ParseUint(string(body[j+1:j+3]), 16, 8)
			if err != nil || v > 0x7f {
				return "", false
			}
			b.WriteByte(byte(v))
			j += 2
		case 'u':
			end := bytes.IndexByte(body[j:], '}')
			if j+1 >= len(body) || body[j+1] != '{' || end < 0 {
				return "", false
			}
			hex := strings.ReplaceAll(string(body[j+2:j+end]), "_", "")
			v, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || hex == "" || len(hex) > 6 || !utf8.ValidRune(rune(v)) {
				return "", false
			}
			b.WriteRune(rune(v))
			j += end
		case '\n', '\r':
			// A line continuation: the line break and the white space
			// that follows are not part of the value.
			for j+1 < len(body) && (body[j+1] == ' ' || body[j+1] == '\t' || body[j+1] == '\n' || body[j+1] == '\r') {
				j++
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
