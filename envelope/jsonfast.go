package envelope

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/vouch-dev/vouch/yamldoc"
)

// The JSON fast path. Most envelopes are JSON written by a program, and
// building yaml.v3's node tree for them costs far more than converting them.
// parseJSON reads a JSON envelope directly and must give exactly what the
// YAML path gives for the same bytes: the same Facts and Metadata, and the
// same errors at the same file:line:col. Where YAML reads valid JSON in a
// way that is costly to mirror (or rejects it), the fast path declines and
// the YAML path decides; see jsonScanner for the list. The one exception:
// the escapes \/ and surrogate pairs, common in JSON that YAML refuses, are
// decoded here.

// maxFlowLevel is yaml.v3's limit on nested flow collections: deeper
// documents are a YAML syntax error, so the fast path leaves them to YAML.
const maxFlowLevel = 10000

// maxSimpleKey bounds the characters from a key's opening quote to its
// colon. YAML allows an implicit key at most 1024 characters before its
// ":", so below this bound YAML always accepts the key, and above it YAML
// decides. (Characters, not bytes, so that an escape and the character it
// stands for are judged alike.)
const maxSimpleKey = 1000

// looksLikeJSON reports whether the first byte after an optional UTF-8 BOM
// and JSON whitespace is "{".
func looksLikeJSON(data []byte) bool {
	data = bytes.TrimPrefix(data, bom)
	for _, b := range data {
		switch b {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}

var bom = []byte("\xef\xbb\xbf")

// panicInJSONPath lets tests see a panic in parseJSON instead of the
// silent fallback to YAML.
var panicInJSONPath = false

// topMember is one key of the top-level object.
type topMember struct {
	key            []byte // decoded
	keyOff, valOff int
}

// parseJSON converts data, a JSON envelope, as Parse would through YAML.
// ok is false when the data is not valid JSON, or is JSON that YAML reads
// differently or refuses; the caller then parses it as YAML. A panic (a bug
// here) also falls back rather than crash.
func parseJSON(file string, data []byte, lim Limits, sha string) (env *Envelope, ok bool, err error) {
	return parseJSONMode(file, data, lim, sha, false)
}

// parseStrictJSON converts data, the contents of a .json envelope, which
// must be strict JSON (RFC 8259): unlike parseJSON it never declines, and
// reports JSON that is not valid as "not valid JSON" at file:line:col.
// Valid JSON that YAML would read differently or refuse is read as JSON.
func parseStrictJSON(file string, data []byte, lim Limits, sha string) (env *Envelope, err error) {
	env, ok, err := parseJSONMode(file, data, lim, sha, true)
	if !ok && err == nil {
		// Only a bug (a recovered panic) gets here; fail closed.
		return nil, &Error{File: file, Msg: "the JSON parser failed; simplify the envelope"}
	}
	return env, err
}

func parseJSONMode(file string, data []byte, lim Limits, sha string, strict bool) (env *Envelope, ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			if panicInJSONPath {
				panic(r)
			}
			env, ok, err = nil, false, nil
		}
	}()
	start := 0
	if bytes.HasPrefix(data, bom) {
		start = len(bom)
	}
	s := jsonScanner{data: data, pos: start, strict: strict}
	members, rootOff, valid := s.document()
	c := &jsonConverter{data: data, file: file, base: start, maxBytes: lim.MaxBytes, maxDepth: lim.MaxDepth, strict: strict}
	if !valid {
		if !strict {
			return nil, false, nil
		}
		return nil, true, c.errAt(s.errOff, "not valid JSON: %s", s.errMsg)
	}

	// The top level, checked as Parse checks the YAML mapping.
	var facts, meta *topMember
	for i := range members {
		m := &members[i]
		for j := range i {
			if bytes.Equal(members[j].key, m.key) {
				line, _ := c.lineCol(members[j].keyOff)
				return nil, true, c.errAt(m.keyOff, "duplicate key %s (first defined at line %d); remove one of them", strconv.Quote(string(m.key)), line)
			}
		}
		switch string(m.key) {
		case "facts":
			facts = m
		case "metadata":
			meta = m
		default:
			return nil, true, c.errAt(m.keyOff, "%s", unknownTopKey(string(m.key)))
		}
	}
	if facts == nil {
		return nil, true, c.errAt(rootOff, "the envelope has no facts: key; add facts: with a mapping of facts (facts: {} if there are none)")
	}
	switch data[facts.valOff] {
	case 'n':
		return nil, true, c.errAt(facts.keyOff, "facts is empty (null); write facts: {} or a mapping of facts")
	case '{':
	default:
		return nil, true, c.errAt(facts.valOff, "facts must be a mapping, not %s; write key: value pairs under facts:", c.kindName(facts.valOff))
	}
	env = &Envelope{File: file, SHA256: sha}
	if env.Facts, err = c.convert(facts.valOff, len(data)); err != nil {
		return nil, true, err
	}
	if meta != nil {
		switch data[meta.valOff] {
		case 'n':
			// null metadata is absent, as in the YAML path.
		case '{':
			if env.Metadata, err = c.convert(meta.valOff, 0); err != nil {
				return nil, true, err
			}
		default:
			return nil, true, c.errAt(meta.valOff, "metadata must be a mapping, not %s; write key: value pairs under metadata: or remove it", c.kindName(meta.valOff))
		}
	}
	return env, true, nil
}

// jsonScanner checks that a document is strict JSON (RFC 8259) that YAML
// reads the same way, and finds the top-level members. The escape \/ and
// surrogate pairs (\ud83d\ude00), which Python and PHP write by default, are
// accepted and decoded although yaml.v3 refuses them: the envelope is
// promised to be YAML or JSON. It declines (returns false) on anything
// else, including valid JSON that yaml.v3 refuses or reads differently:
//
//   - \u escapes of lone UTF-16 surrogates (YAML errors; encoding/json
//     would substitute U+FFFD);
//   - raw characters YAML refuses (DEL, C1 controls, U+FFFE, U+FFFF) and
//     raw line breaks that YAML folds or counts as lines (U+0085, U+2028,
//     U+2029), and invalid UTF-8;
//   - a tab before or after the top-level object (YAML errors on a tab
//     that starts a line outside flow collections);
//   - a line break between a key and its colon, or a key of more than
//     maxSimpleKey bytes (YAML's limits on implicit keys);
//   - nesting beyond yaml.v3's maxFlowLevel.
//
// In strict mode (a .json envelope) it instead accepts all of RFC 8259 that
// the converter can represent, and on anything else records where and why
// the document is not valid JSON in errOff and errMsg.
type jsonScanner struct {
	data   []byte
	pos    int
	strict bool
	errOff int
	errMsg string
}

// fail records the first reason the document is not strict JSON.
func (s *jsonScanner) fail(off int, msg string) bool {
	if s.errMsg == "" {
		s.errOff, s.errMsg = min(off, len(s.data)), msg
	}
	return false
}

// unexpected explains the byte at off, where the grammar wanted something
// else, naming the lenient habits RFC 8259 forbids.
func (s *jsonScanner) unexpected(off int, want string) bool {
	if off >= len(s.data) {
		return s.fail(off, "unexpected end of file; expected "+want)
	}
	d := s.data[off:]
	switch {
	case d[0] == '\'':
		return s.fail(off, "single quotes are not JSON; use double quotes")
	case d[0] == '/' || d[0] == '#':
		return s.fail(off, "comments are not allowed in JSON; remove them")
	case d[0] == '}' || d[0] == ']':
		return s.fail(off, fmt.Sprintf("unexpected %c (a trailing comma or a missing value); expected %s", d[0], want))
	case bytes.HasPrefix(d, []byte("NaN")), bytes.HasPrefix(d, []byte("Infinity")), bytes.HasPrefix(d, []byte("-Infinity")):
		return s.fail(off, "NaN and Infinity are not JSON numbers; write a string or null")
	}
	r, _ := utf8.DecodeRune(d)
	return s.fail(off, fmt.Sprintf("unexpected character %q; expected %s", r, want))
}

func (s *jsonScanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// outerWS skips whitespace outside the top-level object, refusing tabs.
func (s *jsonScanner) outerWS() bool {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\n', '\r':
			s.pos++
		case '\t':
			if !s.strict {
				return false
			}
			s.pos++
		default:
			return true
		}
	}
	return true
}

func (s *jsonScanner) document() (members []topMember, rootOff int, ok bool) {
	if !s.outerWS() || s.pos >= len(s.data) || s.data[s.pos] != '{' {
		s.unexpected(s.pos, "{ (the envelope is a JSON object)")
		return nil, 0, false
	}
	rootOff = s.pos
	s.pos++
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
	} else {
		for {
			keyOff := s.pos
			key, ok := s.key()
			if !ok {
				return nil, 0, false
			}
			valOff := s.pos
			if !s.value(1) {
				return nil, 0, false
			}
			members = append(members, topMember{key: key, keyOff: keyOff, valOff: valOff})
			s.ws()
			if s.pos >= len(s.data) {
				s.unexpected(s.pos, ", or }")
				return nil, 0, false
			}
			c := s.data[s.pos]
			s.pos++
			if c == '}' {
				break
			}
			if c != ',' {
				s.unexpected(s.pos-1, ", or }")
				return nil, 0, false
			}
			s.ws()
		}
	}
	if !s.outerWS() || s.pos != len(s.data) {
		if s.pos < len(s.data) && s.data[s.pos] != '/' && s.data[s.pos] != '#' {
			s.fail(s.pos, "unexpected text after the top-level object; an envelope is one JSON object")
		}
		s.unexpected(s.pos, "the end of the file")
		return nil, 0, false
	}
	return members, rootOff, true
}

// key scans `"key" :` and the whitespace after the colon, returning the
// decoded key.
func (s *jsonScanner) key() ([]byte, bool) {
	start := s.pos
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return nil, s.unexpected(s.pos, "a double-quoted key")
	}
	esc, ok := s.str()
	if !ok {
		return nil, false
	}
	body := s.data[start+1 : s.pos-1]
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		if c == ' ' || c == '\t' || (s.strict && (c == '\n' || c == '\r')) {
			s.pos++
			continue
		}
		if c != ':' {
			return nil, s.unexpected(s.pos, ": after the key")
		}
		if !s.strict && s.pos-start > maxSimpleKey && utf8.RuneCount(s.data[start:s.pos]) > maxSimpleKey {
			return nil, false
		}
		s.pos++
		s.ws()
		if !esc {
			return body, true
		}
		return decodeJSONString(nil, body), true
	}
	return nil, s.unexpected(s.pos, ": after the key")
}

// value scans one value whose parent collection is at flow level level.
func (s *jsonScanner) value(level int) bool {
	if s.pos >= len(s.data) {
		return s.unexpected(s.pos, "a value")
	}
	switch c := s.data[s.pos]; c {
	case '{', '[':
		level++
		if level > maxFlowLevel {
			// Also bounds the scanner's recursion in strict mode.
			return s.fail(s.pos, fmt.Sprintf("objects and arrays nest deeper than %d levels; flatten the data", maxFlowLevel))
		}
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		s.pos++
		s.ws()
		if s.pos < len(s.data) && s.data[s.pos] == closer {
			s.pos++
			return true
		}
		for {
			if c == '{' {
				if _, ok := s.key(); !ok {
					return false
				}
			}
			if !s.value(level) {
				return false
			}
			s.ws()
			if s.pos >= len(s.data) {
				return s.unexpected(s.pos, ", or "+string(closer))
			}
			d := s.data[s.pos]
			s.pos++
			if d == closer {
				return true
			}
			if d != ',' {
				return s.unexpected(s.pos-1, ", or "+string(closer))
			}
			s.ws()
		}
	case '"':
		_, ok := s.str()
		return ok
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	default:
		start := s.pos
		if c != '-' && (c < '0' || c > '9') {
			return s.unexpected(start, "a value")
		}
		end, ok := scanNumber(s.data, s.pos)
		s.pos = end
		if !ok {
			if bytes.HasPrefix(s.data[start:], []byte("-Infinity")) {
				return s.unexpected(start, "a value")
			}
			return s.fail(start, "malformed number; write digits with an optional fraction and exponent (1, -2.5, 1e3)")
		}
		if digit := end < len(s.data) && s.data[end] >= '0' && s.data[end] <= '9'; digit {
			// scanNumber stops after a leading 0.
			return s.fail(start, "a number may not have leading zeros (01); write 1, or quote it as a string")
		}
		return true
	}
}

func (s *jsonScanner) lit(word string) bool {
	if !bytes.HasPrefix(s.data[s.pos:], []byte(word)) {
		return s.unexpected(s.pos, "a value")
	}
	s.pos += len(word)
	return true
}

// str scans a string starting at its opening quote and reports whether it
// holds escapes.
func (s *jsonScanner) str() (esc, ok bool) {
	d := s.data
	if s.pos >= len(d) || d[s.pos] != '"' {
		return false, false
	}
	i := s.pos + 1
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return esc, true
		case c == '\\':
			esc = true
			if i+1 >= len(d) {
				return false, s.unexpected(i+1, "an escape")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				_, n := surrogates(d, i)
				if n == 0 {
					if _, ok := hex4(d, i+2); ok {
						return false, s.fail(i, "a \\u escape of a lone UTF-16 surrogate is not a character; escape a pair (\\ud83d\\ude00) or write the character")
					}
					return false, s.fail(i, "a \\u escape needs four hex digits")
				}
				i += n
			default:
				return false, s.fail(i, fmt.Sprintf("unknown escape \\%c; JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", d[i+1]))
			}
		case c < 0x20:
			return false, s.fail(i, "a control character (a raw line break or tab) in a string; escape it (\\n, \\t)")
		case c == 0x7F && !s.strict:
			return false, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				return false, s.fail(i, "invalid UTF-8; JSON text must be UTF-8")
			}
			if !s.strict && !yamlSafeRune(r) {
				return false, false
			}
			i += size
		}
	}
	return false, s.fail(len(d), "unexpected end of file inside a string; close it with \"")
}

// yamlSafeRune reports a non-ASCII character that YAML accepts raw inside a
// double-quoted scalar and keeps unchanged on one line.
func yamlSafeRune(r rune) bool {
	switch {
	case r == 0x2028 || r == 0x2029:
		return false
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// surrogates decodes the \u escape at d[i]: a character that is not a
// surrogate (length 6), or a high surrogate immediately followed by an
// escaped low one (length 12). n is 0 for bad hex digits or a lone or
// reversed surrogate.
func surrogates(d []byte, i int) (r rune, n int) {
	r, ok := hex4(d, i+2)
	switch {
	case !ok || r >= 0xDC00 && r <= 0xDFFF:
		return 0, 0
	case r < 0xD800 || r > 0xDFFF:
		return r, 6
	}
	if i+7 >= len(d) || d[i+6] != '\\' || d[i+7] != 'u' {
		return 0, 0
	}
	lo, ok := hex4(d, i+8)
	if !ok || lo < 0xDC00 || lo > 0xDFFF {
		return 0, 0
	}
	return utf16.DecodeRune(r, lo), 12
}

// scanNumber scans a JSON number at i and returns its end.
func scanNumber(d []byte, i int) (int, bool) {
	digits := func() bool {
		start := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if !digits() {
		return i, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return i, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return i, false
		}
	}
	return i, true
}

// decodeJSONString appends the text of body, the inside of a JSON string
// already checked by str, to dst.
func decodeJSONString(dst, body []byte) []byte {
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := unescape(body, i)
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst
}

// unescape decodes the checked escape at body[i] and returns its character
// and length.
func unescape(body []byte, i int) (rune, int) {
	switch body[i+1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		return surrogates(body, i)
	}
	return rune(body[i+1]), 2 // ", \ or /
}

// jsonConverter writes the compact JSON of checked JSON values, applying
// the converter's rules: depth, size, duplicate keys and YAML's reading of
// numbers.
type jsonConverter struct {
	data     []byte
	file     string
	base     int // offset of the first character (after a BOM)
	maxBytes int64
	maxDepth int
	strict   bool // a .json envelope: strings may hold raw U+2028/U+2029
	used     int64
	buf      []byte
	pos      int
	keys     []keyRef // keys of the mappings being converted, innermost last
}

type keyRef struct {
	val []byte // decoded
	off int
}

func (c *jsonConverter) convert(off, sizeHint int) ([]byte, error) {
	c.pos = off
	c.buf = make([]byte, 0, sizeHint)
	c.keys = c.keys[:0]
	if err := c.value(1); err != nil {
		return nil, err
	}
	c.used += int64(len(c.buf))
	out := c.buf
	c.buf = nil
	return out, nil
}

// lineCol turns a byte offset into YAML's 1-based line and column: lines
// end at \n, \r\n or \r, and columns count characters.
func (c *jsonConverter) lineCol(off int) (line, col int) {
	line, lineStart := 1, c.base
	d := c.data[:off]
	for i := c.base; i < len(d); i++ {
		switch d[i] {
		case '\n':
			line, lineStart = line+1, i+1
		case '\r':
			if i+1 < len(c.data) && c.data[i+1] == '\n' {
				continue
			}
			line, lineStart = line+1, i+1
		}
	}
	return line, utf8.RuneCount(d[lineStart:]) + 1
}

func (c *jsonConverter) errAt(off int, format string, args ...any) *Error {
	line, col := c.lineCol(off)
	return &Error{File: c.file, Pos: yamldoc.Pos{Line: line, Col: col}, Msg: fmt.Sprintf(format, args...)}
}

// kindName describes the value at off as the YAML path's kindName would.
func (c *jsonConverter) kindName(off int) string {
	switch c.data[off] {
	case '{':
		return "a mapping"
	case '[':
		return "a sequence"
	case 'n':
		return "null"
	}
	var text string
	if c.data[off] == '"' {
		end, _ := strEnd(c.data, off)
		text = string(decodeJSONString(nil, c.data[off+1:end-1]))
	} else {
		end, _ := scanNumber(c.data, off)
		if c.data[off] == 't' || c.data[off] == 'f' {
			end = off + 4
			if c.data[off] == 'f' {
				end++
			}
		}
		text = string(c.data[off:end])
	}
	return "a scalar (" + strconv.Quote(truncate(text, 40)) + ")"
}

func (c *jsonConverter) skipWS() {
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

// value appends the JSON for the value at c.pos, at nesting level depth,
// with the checks in the order converter.value makes them.
func (c *jsonConverter) value(depth int) error {
	off := c.pos
	switch c.data[off] {
	case '{', '[':
		if depth > c.maxDepth {
			return c.errAt(off, "mappings and sequences nest deeper than the limit of %d levels here; flatten the data or raise the limit with --max-depth", c.maxDepth)
		}
		var err error
		if c.data[off] == '{' {
			err = c.mapping(depth)
		} else {
			err = c.sequence(depth)
		}
		if err != nil {
			return err
		}
	case '"':
		start := c.pos
		var esc bool
		c.pos, esc = strEnd(c.data, start)
		if body := c.data[start+1 : c.pos-1]; c.strict && hasLineSeparator(body) {
			// appendString escapes these; the lenient scanner never
			// lets them through.
			c.buf = appendString(c.buf, string(decodeJSONString(nil, body)))
		} else if esc {
			c.buf = appendEscaped(c.buf, c.data[start+1:c.pos-1])
		} else {
			c.buf = append(c.buf, c.data[start:c.pos]...)
		}
	case 't':
		c.buf = append(c.buf, "true"...)
		c.pos += 4
	case 'f':
		c.buf = append(c.buf, "false"...)
		c.pos += 5
	case 'n':
		c.buf = append(c.buf, "null"...)
		c.pos += 4
	default:
		if err := c.number(); err != nil {
			return err
		}
	}
	if c.used+int64(len(c.buf)) > c.maxBytes {
		return c.errAt(off, "the JSON for this envelope grows past the limit of %d bytes here; shrink it or raise the limit with --max-envelope-bytes", c.maxBytes)
	}
	return nil
}

func (c *jsonConverter) sequence(depth int) error {
	c.pos++ // [
	c.buf = append(c.buf, '[')
	c.skipWS()
	if c.data[c.pos] == ']' {
		c.pos++
		c.buf = append(c.buf, ']')
		return nil
	}
	for {
		if err := c.value(depth + 1); err != nil {
			return err
		}
		c.skipWS()
		d := c.data[c.pos]
		c.pos++
		if d == ']' {
			c.buf = append(c.buf, ']')
			return nil
		}
		c.buf = append(c.buf, ',')
		c.skipWS()
	}
}

func (c *jsonConverter) mapping(depth int) error {
	c.pos++ // {
	c.buf = append(c.buf, '{')
	c.skipWS()
	if c.data[c.pos] == '}' {
		c.pos++
		c.buf = append(c.buf, '}')
		return nil
	}
	base := len(c.keys)
	defer func() { c.keys = c.keys[:base] }()
	var index map[string]int // for large mappings, key -> offset of first
	for n := 0; ; n++ {
		keyOff := c.pos
		end, esc := strEnd(c.data, keyOff)
		raw := c.data[keyOff:end]
		key := raw[1 : len(raw)-1]
		if esc {
			key = decodeJSONString(nil, key)
		}
		first := -1
		if index != nil {
			if f, dup := index[string(key)]; dup {
				first = f
			} else {
				index[string(key)] = keyOff
			}
		} else {
			for _, k := range c.keys[base:] {
				if bytes.Equal(k.val, key) {
					first = k.off
					break
				}
			}
			c.keys = append(c.keys, keyRef{val: key, off: keyOff})
			if n+1 > smallMapping {
				index = make(map[string]int, 2*smallMapping)
				for _, k := range c.keys[base:] {
					if _, dup := index[string(k.val)]; !dup {
						index[string(k.val)] = k.off
					}
				}
				c.keys = c.keys[:base]
			}
		}
		if first >= 0 {
			line, _ := c.lineCol(first)
			return c.errAt(keyOff, "duplicate key %s (first defined at line %d); remove one of them", strconv.Quote(truncate(string(key), 80)), line)
		}
		if n > 0 {
			c.buf = append(c.buf, ',')
		}
		if esc || (c.strict && hasLineSeparator(key)) {
			c.buf = appendString(c.buf, string(key))
		} else {
			c.buf = append(c.buf, raw...)
		}
		c.buf = append(c.buf, ':')
		c.pos = end
		c.skipWS()
		c.pos++ // :
		c.skipWS()
		if err := c.value(depth + 1); err != nil {
			return err
		}
		c.skipWS()
		d := c.data[c.pos]
		c.pos++
		if d == '}' {
			c.buf = append(c.buf, '}')
			return nil
		}
		c.skipWS()
	}
}

// number appends a number as the YAML path reads it: yaml.v3 resolves a
// whole number that fits int64 (or uint64) as an integer, and otherwise
// tries a float; a number out of float range it leaves a string. The
// converter then refuses integers beyond int64, whether yaml.v3 made them
// !!int (fits uint64), !!float (a plain run of digits) or !!str (too long
// for a float), refuses floats out of range, and writes floats with
// strconv's shortest 'g' form.
func (c *jsonConverter) number() error {
	off := c.pos
	end, _ := scanNumber(c.data, off)
	c.pos = end
	text := c.data[off:end]
	integer := bytes.IndexAny(text, ".eE") < 0
	if integer {
		if i, err := strconv.ParseInt(string(text), 10, 64); err == nil {
			c.buf = strconv.AppendInt(c.buf, i, 10)
			return nil
		}
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if integer {
		return c.errAt(off, "%s", intRangeMsg)
	}
	if err != nil {
		return c.errAt(off, "%s", floatRangeMsg)
	}
	var msg string
	if c.buf, msg = appendExact(c.buf, string(text), f); msg != "" {
		return c.errAt(off, "%s: %s", strconv.Quote(truncate(string(text), 40)), msg)
	}
	return nil
}

// hasLineSeparator reports a raw U+2028 or U+2029.
func hasLineSeparator(b []byte) bool {
	return bytes.Contains(b, []byte("\u2028")) || bytes.Contains(b, []byte("\u2029"))
}

// strEnd returns the end of the string, already checked by
// jsonScanner.str, that starts at d[i], and whether it holds escapes.
func strEnd(d []byte, i int) (end int, esc bool) {
	for i++; ; i++ {
		switch d[i] {
		case '"':
			return i + 1, esc
		case '\\':
			esc = true
			i++ // \u's hex digits hold no quote or backslash
		}
	}
}

// appendEscaped appends body, the inside of a checked JSON string with
// escapes, as appendString would append its decoded text.
func appendEscaped(dst, body []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(body); {
		j := bytes.IndexByte(body[i:], '\\')
		if j < 0 {
			dst = append(dst, body[i:]...)
			break
		}
		dst = append(dst, body[i:i+j]...)
		i += j
		r, n := unescape(body, i)
		i += n
		switch {
		case r >= 0x20 && r < utf8.RuneSelf && r != '"' && r != '\\':
			dst = append(dst, byte(r))
		case r < utf8.RuneSelf, r == 0x2028, r == 0x2029:
			// appendString's escape for this character.
			e := appendString(nil, string(r))
			dst = append(dst, e[1:len(e)-1]...)
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}
