// Package toml reads the part of TOML that Python project files use:
// tables ([a.b]), arrays of tables ([[a]]), bare, quoted and dotted keys,
// basic and literal strings (single- and multi-line), integers, floats,
// booleans, arrays and inline tables. Dates are kept as their text. Every
// error names its line and column. It is a reader for pyproject.toml's
// tool sections, not a general TOML library: it never writes.
package toml

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vouch-dev/vouch/yamldoc"
)

// Table is a TOML table: keys to values (string, int64, float64, bool,
// []any, Table). Datetimes are strings.
type Table map[string]any

// Error is a syntax error at a 1-based line and column: vouch's one
// positioned error type, so callers report it as they report every
// loader's. Parse sees bytes, not a file: the caller sets File.
type Error = yamldoc.Error

// errorAt is a syntax error at line and col.
func errorAt(line, col int, msg string) *Error {
	return &Error{Pos: yamldoc.Pos{Line: line, Col: col}, Msg: msg}
}

type parser struct {
	src  string
	i    int
	line int
	col0 int // index where the current line starts
	root Table
	// defined records tables created by a header, to reject a header
	// given twice.
	defined map[string]bool
}

// Parse reads a TOML document.
func Parse(data []byte) (t Table, err error) {
	if !utf8.Valid(data) {
		return nil, errorAt(1, 1, "file is not UTF-8")
	}
	p := &parser{src: strings.TrimPrefix(string(data), "\ufeff"), line: 1, root: Table{}, defined: map[string]bool{}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			t, err = nil, e
		}
	}()
	p.document()
	return p.root, nil
}

func (p *parser) fail(format string, args ...any) {
	panic(errorAt(p.line, p.i-p.col0+1, fmt.Sprintf(format, args...)))
}

func (p *parser) eof() bool { return p.i >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.i]
}

func (p *parser) advance() {
	if p.src[p.i] == '\n' {
		p.line++
		p.col0 = p.i + 1
	}
	p.i++
}

// spaces skips blanks within a line.
func (p *parser) spaces() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.i++
	}
}

// comment skips a comment to the end of the line.
func (p *parser) comment() {
	if p.peek() == '#' {
		for !p.eof() && p.peek() != '\n' {
			p.i++
		}
	}
}

// endOfLine requires nothing but blanks and a comment before the newline.
func (p *parser) endOfLine() {
	p.spaces()
	p.comment()
	if p.eof() {
		return
	}
	if p.peek() == '\r' {
		p.i++
	}
	if p.peek() != '\n' {
		p.fail("unexpected %q; want a new line", p.peek())
	}
	p.advance()
}

// blank skips whitespace, newlines and comments (inside arrays).
func (p *parser) blank() {
	for !p.eof() {
		switch p.peek() {
		case ' ', '\t', '\r', '\n':
			p.advance()
		case '#':
			p.comment()
		default:
			return
		}
	}
}

func (p *parser) document() {
	cur := p.root
	for {
		p.blank()
		if p.eof() {
			return
		}
		if p.peek() == '[' {
			cur = p.header()
			p.endOfLine()
			continue
		}
		p.keyValue(cur)
		p.endOfLine()
	}
}

func (p *parser) header() Table {
	p.i++
	array := p.peek() == '['
	if array {
		p.i++
	}
	p.spaces()
	keys := p.key()
	p.spaces()
	if p.peek() != ']' {
		p.fail("table header needs a closing ]")
	}
	p.i++
	if array {
		if p.peek() != ']' {
			p.fail("array of tables header needs ]]")
		}
		p.i++
	}
	parent := p.root
	for _, k := range keys[:len(keys)-1] {
		parent = p.descend(parent, k)
	}
	last := keys[len(keys)-1]
	name := strings.Join(keys, "\x00")
	if array {
		t := Table{}
		switch v := parent[last].(type) {
		case nil:
			parent[last] = []any{t}
		case []any:
			parent[last] = append(v, t)
		default:
			p.fail("%s is not an array of tables", strings.Join(keys, "."))
		}
		return t
	}
	if p.defined[name] {
		p.fail("table [%s] is defined twice", strings.Join(keys, "."))
	}
	p.defined[name] = true
	switch v := parent[last].(type) {
	case nil:
		t := Table{}
		parent[last] = t
		return t
	case Table:
		return v
	}
	p.fail("%s is already a value, not a table", strings.Join(keys, "."))
	return nil
}

// descend returns the table at key k of t, creating it; the last element
// of an array of tables stands for the array.
func (p *parser) descend(t Table, k string) Table {
	switch v := t[k].(type) {
	case nil:
		n := Table{}
		t[k] = n
		return n
	case Table:
		return v
	case []any:
		if len(v) > 0 {
			if n, ok := v[len(v)-1].(Table); ok {
				return n
			}
		}
	}
	p.fail("key %s is already a value, not a table", k)
	return nil
}

func (p *parser) keyValue(t Table) {
	keys := p.key()
	p.spaces()
	if p.peek() != '=' {
		p.fail("want = after the key %s", strings.Join(keys, "."))
	}
	p.i++
	p.spaces()
	v := p.value()
	for _, k := range keys[:len(keys)-1] {
		t = p.descend(t, k)
	}
	last := keys[len(keys)-1]
	if _, dup := t[last]; dup {
		p.fail("key %s is defined twice", strings.Join(keys, "."))
	}
	t[last] = v
}

// key reads a bare, quoted or dotted key.
func (p *parser) key() []string {
	var keys []string
	for {
		p.spaces()
		switch c := p.peek(); {
		case c == '"':
			keys = append(keys, p.basicString())
		case c == '\'':
			keys = append(keys, p.literalString())
		default:
			start := p.i
			for !p.eof() && isBare(p.peek()) {
				p.i++
			}
			if p.i == start {
				p.fail("want a key, found %s", p.found())
			}
			keys = append(keys, p.src[start:p.i])
		}
		p.spaces()
		if p.peek() != '.' {
			return keys
		}
		p.i++
	}
}

func (p *parser) found() string {
	if p.eof() {
		return "the end of the file"
	}
	return strconv.QuoteRune(rune(p.peek()))
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func (p *parser) value() any {
	switch c := p.peek(); {
	case c == '"':
		if strings.HasPrefix(p.src[p.i:], `"""`) {
			return p.multiBasic()
		}
		return p.basicString()
	case c == '\'':
		if strings.HasPrefix(p.src[p.i:], "'''") {
			return p.multiLiteral()
		}
		return p.literalString()
	case c == '[':
		return p.array()
	case c == '{':
		return p.inlineTable()
	case strings.HasPrefix(p.src[p.i:], "true"):
		p.i += 4
		return true
	case strings.HasPrefix(p.src[p.i:], "false"):
		p.i += 5
		return false
	}
	start := p.i
	for !p.eof() && strings.IndexByte(" \t\r\n,]}#", p.peek()) < 0 {
		p.i++
	}
	text := p.src[start:p.i]
	if text == "" {
		p.fail("want a value, found %s", p.found())
	}
	clean := strings.ReplaceAll(text, "_", "")
	base := 10
	if len(clean) > 2 && clean[0] == '0' && strings.IndexByte("xob", clean[1]) >= 0 {
		base = 0 // 0x, 0o, 0b prefixes
	}
	if n, err := strconv.ParseInt(clean, base, 64); err == nil && (base == 0 || !leadingZero(clean)) {
		return n
	}
	if f, err := strconv.ParseFloat(clean, 64); err == nil && !leadingDigitZero(clean) {
		return f
	}
	switch clean {
	case "inf", "+inf", "-inf", "nan", "+nan", "-nan":
		f, _ := strconv.ParseFloat(clean, 64)
		return f
	}
	if len(text) >= 10 && text[4] == '-' && text[7] == '-' {
		// A date or date-time: a space-separated time joins it.
		if p.peek() == ' ' && p.i+1 < len(p.src) && p.src[p.i+1] >= '0' && p.src[p.i+1] <= '9' {
			p.i++
			for !p.eof() && strings.IndexByte(" \t\r\n,]}#", p.peek()) < 0 {
				p.i++
			}
			return p.src[start:p.i]
		}
		return text
	}
	p.i = start
	p.fail("value %q is not a string, number, boolean, array or table", text)
	return nil
}

// leadingZero reports a decimal with a superfluous leading zero, which
// TOML forbids.
func leadingZero(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return len(s) > 1 && s[0] == '0'
}

// leadingDigitZero reports a number such as 07 or 07.5.
func leadingDigitZero(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9'
}

func (p *parser) basicString() string {
	p.i++ // opening quote
	var b strings.Builder
	for {
		if p.eof() || p.peek() == '\n' {
			p.fail("string has no closing \"")
		}
		c := p.peek()
		if c == '"' {
			p.i++
			return b.String()
		}
		if c == '\\' {
			p.escape(&b)
			continue
		}
		b.WriteByte(c)
		p.i++
	}
}

func (p *parser) escape(b *strings.Builder) {
	p.i++
	if p.eof() {
		p.fail("string ends inside an escape")
	}
	c := p.peek()
	p.i++
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case 'e':
		b.WriteByte(0x1b)
	case '"', '\\':
		b.WriteByte(c)
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if p.i+n > len(p.src) {
			p.fail("\\%c needs %d hex digits", c, n)
		}
		r, err := strconv.ParseUint(p.src[p.i:p.i+n], 16, 32)
		if err != nil || !utf8.ValidRune(rune(r)) {
			p.fail("\\%c%s is not a Unicode scalar value", c, p.src[p.i:p.i+n])
		}
		b.WriteRune(rune(r))
		p.i += n
	default:
		p.i--
		p.fail("unknown escape \\%c", c)
	}
}

func (p *parser) literalString() string {
	p.i++
	start := p.i
	for !p.eof() && p.peek() != '\'' {
		if p.peek() == '\n' {
			p.fail("string has no closing '")
		}
		p.i++
	}
	if p.eof() {
		p.fail("string has no closing '")
	}
	s := p.src[start:p.i]
	p.i++
	return s
}

func (p *parser) multiBasic() string {
	p.i += 3
	p.skipFirstNewline()
	var b strings.Builder
	for {
		if p.eof() {
			p.fail(`multi-line string has no closing """`)
		}
		if strings.HasPrefix(p.src[p.i:], `"""`) {
			p.i += 3
			// Up to two quotes may end the content.
			for k := 0; k < 2 && p.peek() == '"'; k++ {
				b.WriteByte('"')
				p.i++
			}
			return b.String()
		}
		c := p.peek()
		if c == '\\' {
			// A backslash at the end of a line trims the following blanks.
			j := p.i + 1
			for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t' || p.src[j] == '\r') {
				j++
			}
			if j < len(p.src) && p.src[j] == '\n' {
				p.i = j
				for !p.eof() && strings.IndexByte(" \t\r\n", p.peek()) >= 0 {
					p.advance()
				}
				continue
			}
			p.escape(&b)
			continue
		}
		b.WriteByte(c)
		p.advance()
	}
}

func (p *parser) multiLiteral() string {
	p.i += 3
	p.skipFirstNewline()
	start := p.i
	for {
		if p.eof() {
			p.fail("multi-line string has no closing '''")
		}
		if strings.HasPrefix(p.src[p.i:], "'''") {
			end := p.i
			p.i += 3
			for k := 0; k < 2 && p.peek() == '\''; k++ {
				p.i++
				end++
			}
			return p.src[start:end]
		}
		p.advance()
	}
}

func (p *parser) skipFirstNewline() {
	if strings.HasPrefix(p.src[p.i:], "\r\n") {
		p.i++
	}
	if p.peek() == '\n' {
		p.advance()
	}
}

func (p *parser) array() []any {
	p.i++
	out := []any{}
	for {
		p.blank()
		if p.peek() == ']' {
			p.i++
			return out
		}
		out = append(out, p.value())
		p.blank()
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return out
		default:
			p.fail("want , or ] in an array, found %s", p.found())
		}
	}
}

func (p *parser) inlineTable() Table {
	p.i++
	t := Table{}
	p.spaces()
	if p.peek() == '}' {
		p.i++
		return t
	}
	for {
		p.spaces()
		p.keyValue(t)
		p.spaces()
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return t
		default:
			p.fail("want , or } in an inline table, found %s", p.found())
		}
	}
}

// Lookup follows a dotted path of table keys ("tool", "setuptools") and
// returns the value there, if every step is a table.
func (t Table) Lookup(keys ...string) (any, bool) {
	var cur any = t
	for _, k := range keys {
		tt, ok := cur.(Table)
		if !ok {
			return nil, false
		}
		if cur, ok = tt[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}
