// Package jslit reads the data literals JavaScript tools keep their
// configuration in: JSON, JSON5-style object literals (unquoted keys,
// single-quoted strings, trailing commas, comments), and a CommonJS or ES
// module whose only statement exports such a literal (`module.exports =
// {...}` or `export default {...}`).
//
// It evaluates nothing: a file that computes its configuration (require,
// spread, function calls, regular-expression literals, template strings,
// variables) is rejected with the position of the first construct that is
// not plain data, so a configuration is never half understood.
package jslit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the type of a Value.
type Kind int

// The kinds of value a literal holds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String names the kind for error messages.
func (k Kind) String() string {
	switch k {
	case Bool:
		return "a boolean"
	case Number:
		return "a number"
	case String:
		return "a string"
	case Array:
		return "an array"
	case Object:
		return "an object"
	}
	return "null"
}

// Value is one literal with its position (1-based line and column, the
// column counted in bytes).
type Value struct {
	Kind Kind
	Bool bool
	Num  float64
	Str  string
	// Items are an array's elements.
	Items []*Value
	// Keys and Fields are an object's entries in source order.
	Keys      []string
	KeyPos    []Pos
	Fields    []*Value
	Line, Col int
}

// Pos is a 1-based line and byte column.
type Pos struct{ Line, Col int }

// Get returns the field named key of an object, or nil.
func (v *Value) Get(key string) *Value {
	for i, k := range v.Keys {
		if k == key {
			return v.Fields[i]
		}
	}
	return nil
}

// Error is a syntax error at a position.
type Error struct {
	Line, Col int
	Msg       string
}

// Error formats the problem as line:col: message.
func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// MaxDepth bounds nesting so hostile input cannot exhaust the stack.
const MaxDepth = 200

// ParseJSON reads a document holding one literal (JSON or its JSON5-style
// relaxations) and nothing else but comments and white space.
func ParseJSON(data []byte) (*Value, error) {
	p := &parser{src: data, line: 1, col: 1}
	v, err := p.document(false)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// ParseModule reads a JavaScript module whose only statement exports an
// object literal: `module.exports = {...}` or `export default {...}`,
// optionally preceded by a "use strict" directive.
func ParseModule(data []byte) (*Value, error) {
	p := &parser{src: data, line: 1, col: 1}
	return p.document(true)
}

type parser struct {
	src       []byte
	i         int
	line, col int
	depth     int
	// module is set for a JavaScript module, where a string may be
	// written as literals joined with + (JSON has no such thing).
	module bool
}

func (p *parser) errf(line, col int, format string, args ...any) error {
	return &Error{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) errHere(format string, args ...any) error {
	return p.errf(p.line, p.col, format, args...)
}

func (p *parser) eof() bool { return p.i >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.i]
}

func (p *parser) advance(n int) {
	for k := 0; k < n && p.i < len(p.src); k++ {
		if p.src[p.i] == '\n' {
			p.line++
			p.col = 1
		} else {
			p.col++
		}
		p.i++
	}
}

// space skips white space and comments.
func (p *parser) space() error {
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			p.advance(1)
		case c == 0xEF && p.i == 0 && len(p.src) >= 3 && p.src[1] == 0xBB && p.src[2] == 0xBF:
			p.i += 3 // byte-order mark
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '/':
			for !p.eof() && p.src[p.i] != '\n' {
				p.advance(1)
			}
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '*':
			line, col := p.line, p.col
			p.advance(2)
			for {
				if p.eof() {
					return p.errf(line, col, "unterminated /* comment")
				}
				if p.src[p.i] == '*' && p.i+1 < len(p.src) && p.src[p.i+1] == '/' {
					p.advance(2)
					break
				}
				p.advance(1)
			}
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) document(module bool) (*Value, error) {
	p.module = module
	if err := p.space(); err != nil {
		return nil, err
	}
	if module {
		if err := p.moduleHead(); err != nil {
			return nil, err
		}
	}
	if p.eof() {
		return nil, p.errHere("no value: the file is empty")
	}
	line, col := p.line, p.col
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if module && v.Kind != Object {
		return nil, p.errf(line, col, "the export is %s, want an object literal", v.Kind)
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if module && p.peek() == ';' {
		p.advance(1)
		if err := p.space(); err != nil {
			return nil, err
		}
	}
	if !p.eof() {
		return nil, p.errHere("unexpected %s after the value: only one literal is read, nothing is evaluated", p.describe())
	}
	return v, nil
}

// moduleHead consumes an optional "use strict" directive and the export
// statement's head, leaving the parser at the literal.
func (p *parser) moduleHead() error {
	for _, d := range []string{`"use strict"`, `'use strict'`} {
		if p.hasPrefix(d) {
			p.advance(len(d))
			if err := p.space(); err != nil {
				return err
			}
			if p.peek() == ';' {
				p.advance(1)
			}
			if err := p.space(); err != nil {
				return err
			}
		}
	}
	switch {
	case p.hasPrefix("module.exports"):
		p.advance(len("module.exports"))
		if err := p.space(); err != nil {
			return err
		}
		if p.peek() != '=' || (p.i+1 < len(p.src) && p.src[p.i+1] == '=') {
			return p.errHere("want = after module.exports")
		}
		p.advance(1)
	case p.hasPrefix("export default") && !isIdentPart(p.at(len("export default"))):
		p.advance(len("export default"))
	default:
		return p.errHere("want `module.exports = {...}` or `export default {...}`, found %s", p.describe())
	}
	return p.space()
}

func (p *parser) at(k int) byte {
	if p.i+k < len(p.src) {
		return p.src[p.i+k]
	}
	return 0
}

func (p *parser) hasPrefix(s string) bool {
	return strings.HasPrefix(string(p.src[p.i:min(len(p.src), p.i+len(s))]), s)
}

// describe names what stands at the current position, for errors.
func (p *parser) describe() string {
	if p.eof() {
		return "end of file"
	}
	c := p.src[p.i]
	if isIdentStart(c) {
		j := p.i
		for j < len(p.src) && isIdentPart(p.src[j]) && j-p.i < 40 {
			j++
		}
		return fmt.Sprintf("%q", string(p.src[p.i:j]))
	}
	r, _ := utf8.DecodeRune(p.src[p.i:])
	return fmt.Sprintf("%q", r)
}

func (p *parser) value() (*Value, error) {
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.eof() {
		return nil, p.errHere("unexpected end of file: want a value")
	}
	line, col := p.line, p.col
	c := p.peek()
	switch {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"' || c == '\'' || (c == '`' && p.module):
		s, err := p.strLit()
		if err != nil {
			return nil, err
		}
		if p.module {
			// dependency-cruiser's own generated configuration splits
			// long comments into literals joined with +.
			if s, err = p.concat(s); err != nil {
				return nil, err
			}
		}
		return &Value{Kind: String, Str: s, Line: line, Col: col}, nil
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	case c == '`':
		return nil, p.errHere("template string: only plain string literals are read")
	case c == '/':
		return nil, p.errHere("regular-expression literal: write the pattern as a string")
	case isIdentStart(c):
		word := p.ident()
		switch word {
		case "true", "false":
			return &Value{Kind: Bool, Bool: word == "true", Line: line, Col: col}, nil
		case "null":
			return &Value{Kind: Null, Line: line, Col: col}, nil
		case "Infinity", "NaN", "undefined":
			return nil, p.errf(line, col, "%s is not a value a configuration can hold", word)
		}
		return nil, p.errf(line, col, "%q is code (a name, call or expression), not a literal: nothing is evaluated", word)
	case c == '.' && p.hasPrefix("..."):
		return nil, p.errHere("spread (...) is code, not a literal: nothing is evaluated")
	}
	return nil, p.errHere("unexpected %s: want a value", p.describe())
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return p.errHere("nested deeper than %d levels", MaxDepth)
	}
	return nil
}

func (p *parser) object() (*Value, error) {
	v := &Value{Kind: Object, Line: p.line, Col: p.col}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.advance(1) // {
	seen := map[string]bool{}
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.peek() == '}' {
			p.advance(1)
			return v, nil
		}
		if p.hasPrefix("...") {
			return nil, p.errHere("spread (...) is code, not a literal: nothing is evaluated")
		}
		kl, kc := p.line, p.col
		var key string
		switch c := p.peek(); {
		case c == '"' || c == '\'':
			s, err := p.str()
			if err != nil {
				return nil, err
			}
			key = s
		case isIdentStart(c):
			key = p.ident()
		case c >= '0' && c <= '9':
			return nil, p.errHere("numeric keys are not read: quote the key")
		case c == '[':
			return nil, p.errHere("computed key is code, not a literal: nothing is evaluated")
		default:
			return nil, p.errHere("unexpected %s: want a key or }", p.describe())
		}
		if seen[key] {
			return nil, p.errf(kl, kc, "duplicate key %q", key)
		}
		seen[key] = true
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.peek() != ':' {
			if p.peek() == '(' {
				return nil, p.errHere("method %q is code, not a literal: nothing is evaluated", key)
			}
			return nil, p.errHere("want : after key %q, found %s", key, p.describe())
		}
		p.advance(1)
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		v.Keys = append(v.Keys, key)
		v.KeyPos = append(v.KeyPos, Pos{kl, kc})
		v.Fields = append(v.Fields, val)
		if err := p.space(); err != nil {
			return nil, err
		}
		switch p.peek() {
		case ',':
			p.advance(1)
		case '}':
		default:
			return nil, p.errHere("want , or } after the value of %q, found %s", key, p.describe())
		}
	}
}

func (p *parser) array() (*Value, error) {
	v := &Value{Kind: Array, Line: p.line, Col: p.col}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.advance(1) // [
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.peek() == ']' {
			p.advance(1)
			return v, nil
		}
		if p.peek() == ',' {
			return nil, p.errHere("empty array element")
		}
		el, err := p.value()
		if err != nil {
			return nil, err
		}
		v.Items = append(v.Items, el)
		if err := p.space(); err != nil {
			return nil, err
		}
		switch p.peek() {
		case ',':
			p.advance(1)
		case ']':
		default:
			return nil, p.errHere("want , or ] in an array, found %s", p.describe())
		}
	}
}

func (p *parser) ident() string {
	j := p.i
	for j < len(p.src) && isIdentPart(p.src[j]) {
		j++
	}
	s := string(p.src[p.i:j])
	p.advance(j - p.i)
	return s
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// strLit reads a quoted string or, in a module, a template literal with
// no substitutions.
func (p *parser) strLit() (string, error) {
	if p.peek() == '`' {
		return p.template()
	}
	return p.str()
}

// concat reads the rest of a string written as literals joined with +
// (s is the first); anything else after a + is code, which is refused.
func (p *parser) concat(s string) (string, error) {
	for {
		if err := p.space(); err != nil {
			return "", err
		}
		if p.eof() || p.peek() != '+' {
			return s, nil
		}
		p.advance(1)
		if err := p.space(); err != nil {
			return "", err
		}
		if p.eof() || (p.peek() != '"' && p.peek() != '\'' && p.peek() != '`') {
			return "", p.errHere("unexpected %s after +: only string literals can be joined, nothing is evaluated", p.describe())
		}
		next, err := p.strLit()
		if err != nil {
			return "", err
		}
		s += next
	}
}

// template reads a template literal that is plain text: a substitution
// (${...}) would be code, and escapes are refused rather than guessed.
func (p *parser) template() (string, error) {
	line, col := p.line, p.col
	p.advance(1)
	start := p.i
	for {
		if p.eof() {
			return "", p.errf(line, col, "unterminated template string")
		}
		switch c := p.src[p.i]; {
		case c == '`':
			s := string(p.src[start:p.i])
			p.advance(1)
			return s, nil
		case c == '\\':
			return "", p.errHere("escape in a template string: write the string in quotes")
		case c == '$' && p.at(1) == '{':
			return "", p.errHere("template string with a substitution (${...}) is code: nothing is evaluated")
		}
		p.advance(1)
	}
}

func (p *parser) str() (string, error) {
	line, col := p.line, p.col
	q := p.peek()
	p.advance(1)
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errf(line, col, "unterminated string")
		}
		c := p.src[p.i]
		switch {
		case c == q:
			p.advance(1)
			return b.String(), nil
		case c == '\n' || c == '\r':
			return "", p.errf(line, col, "unterminated string (line break inside it)")
		case c == '\\':
			el, ec := p.line, p.col
			p.advance(1)
			if p.eof() {
				return "", p.errf(line, col, "unterminated string")
			}
			e := p.src[p.i]
			p.advance(1)
			switch e {
			case '"', '\'', '\\', '/':
				b.WriteByte(e)
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
			case '0':
				b.WriteByte(0)
			case '\n':
				// line continuation
			case 'u':
				r, err := p.unicodeEscape(el, ec)
				if err != nil {
					return "", err
				}
				b.WriteRune(r)
			case 'x':
				if p.i+2 > len(p.src) {
					return "", p.errf(el, ec, "bad \\x escape")
				}
				n, err := strconv.ParseUint(string(p.src[p.i:p.i+2]), 16, 8)
				if err != nil {
					return "", p.errf(el, ec, "bad \\x escape")
				}
				p.advance(2)
				b.WriteRune(rune(n))
			default:
				// JavaScript keeps an unknown escape's character; in a
				// pattern written as a string that is almost always a
				// forgotten double backslash ("\." is ".").
				return "", p.errf(el, ec, "unknown escape \\%c: in a regular expression written as a string, double the backslash (\\\\%c)", e, e)
			}
		default:
			r, size := utf8.DecodeRune(p.src[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errHere("invalid UTF-8 in a string")
			}
			b.WriteString(string(p.src[p.i : p.i+size]))
			p.advance(size)
		}
	}
}

func (p *parser) unicodeEscape(el, ec int) (rune, error) {
	hex4 := func() (rune, bool) {
		if p.i+4 > len(p.src) {
			return 0, false
		}
		n, err := strconv.ParseUint(string(p.src[p.i:p.i+4]), 16, 32)
		if err != nil {
			return 0, false
		}
		p.advance(4)
		return rune(n), true
	}
	if p.peek() == '{' {
		j := p.i + 1
		for j < len(p.src) && p.src[j] != '}' && j-p.i < 8 {
			j++
		}
		if j >= len(p.src) || p.src[j] != '}' {
			return 0, p.errf(el, ec, "bad \\u{...} escape")
		}
		n, err := strconv.ParseUint(string(p.src[p.i+1:j]), 16, 32)
		if err != nil || n > utf8.MaxRune {
			return 0, p.errf(el, ec, "bad \\u{...} escape")
		}
		p.advance(j + 1 - p.i)
		return rune(n), nil
	}
	r, ok := hex4()
	if !ok {
		return 0, p.errf(el, ec, "bad \\u escape: want four hex digits")
	}
	if r >= 0xD800 && r < 0xDC00 && p.hasPrefix("\\u") {
		save, sl, sc := p.i, p.line, p.col
		p.advance(2)
		if lo, ok := hex4(); ok && lo >= 0xDC00 && lo < 0xE000 {
			return (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000, nil
		}
		p.i, p.line, p.col = save, sl, sc
	}
	if r >= 0xD800 && r < 0xE000 {
		return utf8.RuneError, nil
	}
	return r, nil
}

func (p *parser) number() (*Value, error) {
	line, col := p.line, p.col
	j := p.i
	if p.src[j] == '-' || p.src[j] == '+' {
		j++
	}
	if j+1 < len(p.src) && p.src[j] == '0' && (p.src[j+1] == 'x' || p.src[j+1] == 'X') {
		k := j + 2
		for k < len(p.src) && isHex(p.src[k]) {
			k++
		}
		n, err := strconv.ParseInt(string(p.src[j+2:k]), 16, 64)
		if err != nil {
			return nil, p.errf(line, col, "bad hexadecimal number")
		}
		if p.src[p.i] == '-' {
			n = -n
		}
		p.advance(k - p.i)
		return &Value{Kind: Number, Num: float64(n), Line: line, Col: col}, nil
	}
	for j < len(p.src) && (p.src[j] >= '0' && p.src[j] <= '9' || p.src[j] == '.' || p.src[j] == 'e' || p.src[j] == 'E' ||
		((p.src[j] == '-' || p.src[j] == '+') && (p.src[j-1] == 'e' || p.src[j-1] == 'E'))) {
		j++
	}
	text := string(p.src[p.i:j])
	f, err := strconv.ParseFloat(strings.TrimPrefix(text, "+"), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, p.errf(line, col, "bad number %q", text)
	}
	p.advance(j - p.i)
	return &Value{Kind: Number, Num: f, Line: line, Col: col}, nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
