package selectors

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// StepKind says what a Step does with the value it meets.
type StepKind int

const (
	// Key looks up Step.Key in an object.
	Key StepKind = iota
	// Index takes element Step.Index of an array.
	Index
	// Wildcard takes every element of an array.
	Wildcard
)

// String names the kind for messages and test failures.
func (k StepKind) String() string {
	switch k {
	case Key:
		return "Key"
	case Index:
		return "Index"
	case Wildcard:
		return "Wildcard"
	}
	return "StepKind(" + strconv.Itoa(int(k)) + ")"
}

// Step is one element of a parsed selector.
type Step struct {
	// Kind selects which of Key and Index is meaningful.
	Kind StepKind
	// Key is the unescaped key text of a Key step.
	Key string
	// Index is the array position of an Index step.
	Index int
	// Col is the 1-based rune column where the step starts in the selector
	// text, so later diagnostics can point at it.
	Col int
}

// maxIndex bounds indexes so that they fit every platform's int and so that
// a typo of many digits is reported rather than silently never matching.
const maxIndex = math.MaxInt32

// Selector is a parsed selector. It is immutable after Parse, so one value
// may be shared between goroutines.
type Selector struct {
	text  string
	steps []Step
	// prefixed is true when the text began with the bare key "facts"
	// followed by more steps; that key was dropped from steps at Parse,
	// because selectors are relative to the facts mapping. Whether it is
	// dropped depends on the rulespec alone, never on the envelope: the
	// quoted spelling ["facts"] is the way to reach a key named facts.
	prefixed bool
}

// SyntaxError reports why a selector could not be parsed.
type SyntaxError struct {
	// Col is the 1-based column, in runes, of the offending character.
	Col int
	// Msg describes the problem and, where possible, what to write instead.
	Msg string
}

// Error formats the error as "column N: msg".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("column %d: %s", e.Col, e.Msg)
}

// Parse parses selector text. Every failure is a *SyntaxError.
func Parse(text string) (*Selector, error) {
	if text == "" {
		return nil, &SyntaxError{Col: 1, Msg: "empty selector; write a key path such as a.b"}
	}
	if !utf8.ValidString(text) {
		col := 1
		for i, r := range text {
			if r == utf8.RuneError {
				if _, size := utf8.DecodeRuneInString(text[i:]); size == 1 {
					break
				}
			}
			col++
		}
		return nil, &SyntaxError{Col: col, Msg: "selector is not valid UTF-8"}
	}
	p := parser{src: []rune(text)}
	steps, err := p.parse()
	if err != nil {
		return nil, err
	}
	sel := &Selector{text: text, steps: steps}
	if len(steps) > 1 && steps[0].Kind == Key && steps[0].Key == "facts" && text[0] != '[' {
		sel.steps, sel.prefixed = steps[1:], true
	}
	return sel, nil
}

// MustParse is Parse for selectors written as constants in tests; it panics
// on a syntax error, so it must never be fed input from users or files.
func MustParse(text string) *Selector {
	s, err := Parse(text)
	if err != nil {
		panic(fmt.Sprintf("selectors.MustParse(%q): %v", text, err))
	}
	return s
}

// String returns the selector exactly as it was written.
func (s *Selector) String() string { return s.text }

// Canonical returns a normalised spelling: bare keys joined by '.', other keys
// as ["..."], indexes as [n] and wildcards as [*]. A dropped "facts." prefix
// is left out, and a first key literally named facts is written ["facts"].
// Parsing it yields the same steps (apart from columns).
func (s *Selector) Canonical() string { return canonical(s.steps) }

// FactsPrefix reports whether the selector was written with a bare leading
// "facts" key before other steps (facts.a, facts[0]), which Parse dropped:
// the selector reads the same as without it, and authors should be told to
// drop it.
func (s *Selector) FactsPrefix() bool { return s.prefixed }

// LoneFacts reports whether the selector is the bare key facts alone, which
// reads a key named facts inside the facts mapping, not the mapping itself.
func (s *Selector) LoneFacts() bool {
	return !s.prefixed && len(s.steps) == 1 && s.steps[0].Kind == Key && s.steps[0].Key == "facts" && s.text[0] != '['
}

// Steps returns a copy of the parsed steps, without a dropped "facts."
// prefix.
func (s *Selector) Steps() []Step {
	out := make([]Step, len(s.steps))
	copy(out, s.steps)
	return out
}

// HasWildcard reports whether any step is [*], in which case Select always
// yields an array.
func (s *Selector) HasWildcard() bool {
	for _, st := range s.steps {
		if st.Kind == Wildcard {
			return true
		}
	}
	return false
}

// Equal reports whether two selectors have the same steps, ignoring how they
// were spelled (columns and quoting).
func (s *Selector) Equal(t *Selector) bool {
	if len(s.steps) != len(t.steps) {
		return false
	}
	for i := range s.steps {
		a, b := s.steps[i], t.steps[i]
		if a.Kind != b.Kind || a.Key != b.Key || a.Index != b.Index {
			return false
		}
	}
	return true
}

func canonical(steps []Step) string {
	var b strings.Builder
	for i, st := range steps {
		switch st.Kind {
		case Key:
			// A first key named facts is quoted so that it is not read
			// back as the prefix Parse drops.
			if needsQuote(st.Key) || i == 0 && st.Key == "facts" && len(steps) > 1 {
				b.WriteByte('[')
				b.WriteString(quoteKey(st.Key))
				b.WriteByte(']')
			} else {
				if i > 0 {
					b.WriteByte('.')
				}
				b.WriteString(st.Key)
			}
		case Index:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(st.Index))
			b.WriteByte(']')
		case Wildcard:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

// isBare reports whether r may appear in an unquoted key.
func isBare(r rune) bool {
	switch r {
	case '.', '[', ']', '"':
		return false
	}
	return !unicode.IsSpace(r) && !unicode.IsControl(r)
}

func needsQuote(key string) bool {
	if key == "" {
		return true
	}
	for _, r := range key {
		if !isBare(r) {
			return true
		}
	}
	return false
}

// quoteKey writes key as a string literal that parseString reads back.
func quoteKey(key string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range key {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if unicode.IsControl(r) {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

type parser struct {
	src []rune
}

func (p *parser) errAt(i int, format string, args ...any) error {
	return &SyntaxError{Col: i + 1, Msg: fmt.Sprintf(format, args...)}
}

// text returns the source between two rune offsets, for hints.
func (p *parser) text(from, to int) string {
	if to > len(p.src) {
		to = len(p.src)
	}
	return string(p.src[from:to])
}

func (p *parser) parse() ([]Step, error) {
	src := p.src
	n := len(src)
	var steps []Step
	i := 0
	for i < n {
		c := src[i]
		switch {
		case c == '[':
			st, next, err := p.bracket(i)
			if err != nil {
				return nil, err
			}
			steps = append(steps, st)
			i = next
		case c == '.' && len(steps) == 0:
			return nil, p.errAt(i, "selector starts with '.'; remove it, selectors are relative to the facts mapping (write %s)", p.hintAfterDot(i))
		case c == '.':
			if i+1 == n {
				return nil, p.errAt(i, "selector ends with '.'; remove it or add a key after it")
			}
			switch d := src[i+1]; {
			case d == '.':
				return nil, p.errAt(i+1, "empty key between dots; remove one '.', or write [\"\"] to select the empty key")
			case d == '[':
				return nil, p.errAt(i, "'.' cannot come before '['; write %s%s", p.text(0, i), p.text(i+1, n))
			case isBare(d):
				st, next, err := p.bare(i + 1)
				if err != nil {
					return nil, err
				}
				steps = append(steps, st)
				i = next
			default:
				return nil, p.stray(i+1, i+1)
			}
		case len(steps) == 0 && isBare(c):
			st, next, err := p.bare(i)
			if err != nil {
				return nil, err
			}
			steps = append(steps, st)
			i = next
		case isBare(c):
			// A key glued to a closing bracket, as in a[0]b.
			return nil, p.errAt(i, "expected '.' or '[' after %q; write %s.%s", p.text(0, i), p.text(0, i), p.text(i, n))
		default:
			return nil, p.stray(i, i)
		}
	}
	return steps, nil
}

// hintAfterDot suggests the selector without its leading dots.
func (p *parser) hintAfterDot(i int) string {
	j := i
	for j < len(p.src) && p.src[j] == '.' {
		j++
	}
	if j == len(p.src) {
		return "a key such as a.b"
	}
	return p.text(j, len(p.src))
}

// bare reads an unquoted key starting at i.
func (p *parser) bare(i int) (Step, int, error) {
	src := p.src
	j := i
	for j < len(src) && isBare(src[j]) {
		j++
	}
	if j < len(src) {
		switch c := src[j]; {
		case c == '.' || c == '[':
			// The caller handles the next step.
		default:
			return Step{}, 0, p.stray(j, i)
		}
	}
	return Step{Kind: Key, Key: string(src[i:j]), Col: i + 1}, j, nil
}

// stray explains an unexpected character at i; keyStart is where the key it
// interrupts began, used to suggest a quoted spelling.
func (p *parser) stray(i, keyStart int) error {
	src := p.src
	c := src[i]
	switch {
	case c == ']':
		return p.errAt(i, "unmatched ']'; remove it, or open the bracket with '['")
	case c == '"':
		if i == keyStart {
			lit, end, err := p.quoted(i)
			if err == nil {
				return p.errAt(i, "a quoted key must be in brackets; write %s[%s]%s", p.prefixBefore(i), lit, p.text(end, len(src)))
			}
		}
		return p.errAt(i, "'\"' cannot appear in a bare key; write %s", p.requote(keyStart))
	case unicode.IsSpace(c):
		if strings.TrimSpace(p.text(i, len(src))) == "" {
			return p.errAt(i, "trailing whitespace; remove it")
		}
		if i == 0 || i == keyStart && (src[i-1] == '.' || src[i-1] == ']') {
			return p.errAt(i, "unexpected whitespace; remove it, or quote a key that contains spaces as [\"first key\"]")
		}
		return p.errAt(i, "whitespace cannot appear in a bare key; write %s", p.requote(keyStart))
	case unicode.IsControl(c):
		return p.errAt(i, "control character U+%04X is not allowed here; quote the key and write it as \\u%04x", c, c)
	}
	return p.errAt(i, "unexpected %q; write a key, [n], [*] or [\"key\"]", c)
}

// prefixBefore returns the selector text before the key starting at i,
// without the '.' that introduced it, for hints that requote that key.
func (p *parser) prefixBefore(i int) string {
	if i > 0 && p.src[i-1] == '.' {
		return p.text(0, i-1)
	}
	return p.text(0, i)
}

// requote suggests the whole selector with the key starting at i quoted.
// The key is taken to run up to the next '.', '[' or ']', which is the most
// likely extent of what the author meant.
func (p *parser) requote(i int) string {
	j := i
	for j < len(p.src) && p.src[j] != '.' && p.src[j] != '[' && p.src[j] != ']' {
		j++
	}
	return p.prefixBefore(i) + "[" + quoteKey(p.text(i, j)) + "]" + p.text(j, len(p.src))
}

// bracket parses [n], [*] or ["key"] with '[' at i and returns the offset
// after ']'.
func (p *parser) bracket(i int) (Step, int, error) {
	src := p.src
	n := len(src)
	unclosed := func() error {
		return p.errAt(i, "unclosed '['; write [n], [*] or [\"key\"]")
	}
	if i+1 == n {
		return Step{}, 0, unclosed()
	}
	closeAt := func(j int, st Step) (Step, int, error) {
		if j == n {
			return Step{}, 0, unclosed()
		}
		if src[j] != ']' {
			return Step{}, 0, p.errAt(j, "expected ']' but found %q; write %s]", src[j], p.text(i, j))
		}
		return st, j + 1, nil
	}
	c := src[i+1]
	switch {
	case c == '*':
		return closeAt(i+2, Step{Kind: Wildcard, Col: i + 1})
	case c == '"':
		_, end, err := p.quoted(i + 1)
		if err != nil {
			return Step{}, 0, err
		}
		key, _ := p.unquote(i+1, end)
		return closeAt(end, Step{Kind: Key, Key: key, Col: i + 1})
	case c >= '0' && c <= '9':
		j := i + 1
		for j < n && src[j] >= '0' && src[j] <= '9' {
			j++
		}
		digits := p.text(i+1, j)
		if len(digits) > 1 && digits[0] == '0' {
			return Step{}, 0, p.errAt(i+1, "index %s has a leading zero; write [%s]", digits, trimZeros(digits))
		}
		v, err := strconv.ParseUint(digits, 10, 64)
		if err != nil || v > maxIndex {
			return Step{}, 0, p.errAt(i+1, "index %s is too large; indexes go up to %d", digits, maxIndex)
		}
		return closeAt(j, Step{Kind: Index, Index: int(v), Col: i + 1})
	case c == '-':
		return Step{}, 0, p.errAt(i+1, "negative indexes are not supported; count from the start with [0], [1], ...")
	case c == '+':
		return Step{}, 0, p.errAt(i+1, "an index takes no sign; write [%s", p.text(i+2, n))
	case c == ']':
		return Step{}, 0, p.errAt(i, "empty brackets; write [n], [*] or [\"key\"]")
	case unicode.IsSpace(c):
		return Step{}, 0, p.errAt(i+1, "whitespace is not allowed inside brackets; write [n], [*] or [\"key\"] with nothing around it")
	case isBare(c):
		j := i + 1
		for j < n && isBare(src[j]) {
			j++
		}
		word := p.text(i+1, j)
		return Step{}, 0, p.errAt(i+1, "a key inside brackets must be quoted; write [%s]", quoteKey(word))
	}
	return Step{}, 0, p.errAt(i+1, "unexpected %q after '['; write [n], [*] or [\"key\"]", c)
}

func trimZeros(digits string) string {
	t := strings.TrimLeft(digits, "0")
	if t == "" {
		return "0"
	}
	return t
}

// quoted checks the string literal whose opening quote is at q. It returns
// the literal as written and the offset after the closing quote.
func (p *parser) quoted(q int) (string, int, error) {
	src := p.src
	n := len(src)
	j := q + 1
	for j < n {
		c := src[j]
		switch {
		case c == '"':
			return p.text(q, j+1), j + 1, nil
		case c == '\\':
			if j+1 == n {
				j++
				continue
			}
			switch e := src[j+1]; e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				r, ok := p.hex4(j + 2)
				if !ok {
					return "", 0, p.errAt(j, "\\u must be followed by four hex digits, as in \\u00e9")
				}
				j += 6
				if isHighSurrogate(r) {
					r2, ok := rune(0), false
					if j+1 < n && src[j] == '\\' && src[j+1] == 'u' {
						r2, ok = p.hex4(j + 2)
					}
					if !ok || !isLowSurrogate(r2) {
						return "", 0, p.errAt(j-6, "\\u%04x is half of a surrogate pair; follow it with \\udc00..\\udfff or write the character itself", r)
					}
					j += 6
				} else if isLowSurrogate(r) {
					return "", 0, p.errAt(j-6, "\\u%04x is the second half of a surrogate pair without the first; write the character itself", r)
				}
			default:
				return "", 0, p.errAt(j, "unknown escape \\%c; inside quotes use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX", e)
			}
		case unicode.IsControl(c):
			return "", 0, p.errAt(j, "control character U+%04X inside quotes; write it as \\u%04x", c, c)
		default:
			j++
		}
	}
	return "", 0, p.errAt(q, "unclosed quote; end the key with '\"'")
}

// unquote decodes a literal already checked by quoted; from is the opening
// quote and end the offset after the closing one.
func (p *parser) unquote(from, end int) (string, bool) {
	src := p.src
	var b strings.Builder
	for j := from + 1; j < end-1; {
		c := src[j]
		if c != '\\' {
			b.WriteRune(c)
			j++
			continue
		}
		switch src[j+1] {
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
		case 'u':
			r, _ := p.hex4(j + 2)
			if isHighSurrogate(r) {
				r2, _ := p.hex4(j + 8)
				r = utf16.DecodeRune(r, r2)
				j += 6
			}
			b.WriteRune(r)
			j += 6
			continue
		default:
			b.WriteRune(src[j+1])
		}
		j += 2
	}
	return b.String(), true
}

func (p *parser) hex4(i int) (rune, bool) {
	if i+4 > len(p.src) {
		return 0, false
	}
	var r rune
	for _, c := range p.src[i : i+4] {
		var d rune
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | d
	}
	return r, true
}

func isHighSurrogate(r rune) bool { return r >= 0xd800 && r < 0xdc00 }
func isLowSurrogate(r rune) bool  { return r >= 0xdc00 && r < 0xe000 }
