// Package yamlfast builds the yaml.v3 node tree of a YAML document written
// in a small, common subset of YAML, several times faster than yaml.v3's
// scanner, parser and composer, and declines everything else.
//
// It exists because decoding envelopes and rulespecs into *yaml.Node was a
// quarter of the CPU of a large vouch verify, and most of that is yaml.v3
// passing every byte through its token and event machinery. The tree it
// returns is exactly the one yaml.v3 builds (kinds, styles, tags, values,
// positions; comments, anchors and aliases never occur in the subset), so
// callers cannot tell which parser ran. Anything it is not sure of makes it
// decline, and the caller then runs yaml.v3 as before, so every error and
// every unusual construct still goes through yaml.v3 alone. Differential
// tests and a fuzz target hold the two parsers to that.
//
// The subset: one implicit document whose root starts at column 1 (a block
// mapping or sequence, or a one-line scalar or flow collection); block
// mappings and sequences indented with spaces (including sequences at
// their key's indentation and "- key: value" items); keys that are
// one-line plain or quoted scalars; values that are one-line plain,
// single-quoted or double-quoted scalars, or flow mappings and sequences
// on one line. Declined: comments, tabs, carriage returns, control
// characters, a byte order mark, document markers and directives,
// anchors, aliases, tags, block scalars, scalars and flow collections over
// several lines, empty (null) values, complex keys, merge keys, trailing
// commas and deep nesting.
package yamlfast

import (
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// maxDepth bounds nesting far below yaml.v3's own limit (10,000), so the
// recursion is shallow and no input yaml.v3 rejects for depth gets here.
const maxDepth = 200

// maxKeyBytes keeps keys well under libyaml's 1,024-character limit on
// simple keys: a longer key is an error there, so it must be declined here.
const maxKeyBytes = 1000

// Parse returns the document node yaml.v3's Decoder would fill for data,
// and true, when data is a single document in the subset this package
// handles; otherwise nil and false, and the caller should use yaml.v3.
// It never fails and never panics on any input.
func Parse(data []byte) (doc *yaml.Node, ok bool) {
	ascii, ok := scan(data)
	if !ok {
		return nil, false
	}
	p := &parser{src: string(data), ascii: ascii, line: 1}
	p.nodes = make([]yaml.Node, 0, chunkSize(len(data)))
	if p.startsMarker() || !p.nextLine() || p.eof || p.indent != 0 {
		return nil, false
	}
	doc = p.node(yaml.DocumentNode, "", p.pos)
	root, ok := p.block(0)
	if !ok || !p.eof {
		return nil, false
	}
	mark := len(p.stack)
	p.stack = append(p.stack, root)
	doc.Content = p.content(mark)
	return doc, true
}

// chunkSize is how many nodes to allocate at once: a guess from the input
// size (a node for every ten bytes or so) for a small file, so one
// allocation usually holds its tree, and a bound for a large one, so at
// most one partly used chunk is wasted.
func chunkSize(n int) int {
	return min(max(n/10, 16), maxChunk)
}

// maxChunk is the most nodes allocated at once (about 150 KB).
const maxChunk = 1024

// scan checks every byte once before parsing: it declines characters the
// parser would otherwise have to reason about (tabs, carriage returns,
// control characters, invalid UTF-8, line and paragraph separators, the
// byte order mark, non-characters) and reports whether data is all ASCII,
// in which case columns are byte offsets.
func scan(data []byte) (ascii, ok bool) {
	ascii = true
	for i := 0; i < len(data); {
		b := data[i]
		if b < utf8.RuneSelf {
			if (b < 0x20 && b != '\n') || b == 0x7f {
				return false, false
			}
			i++
			continue
		}
		ascii = false
		r, size := utf8.DecodeRune(data[i:])
		// yaml.v3's reader accepts #xA0-#xD7FF, #xE000-#xFFFD and
		// #x10000-#x10FFFF (and #x85, a line break). U+2028 and U+2029
		// are line breaks to its scanner, U+FEFF a byte order mark.
		switch {
		case r == utf8.RuneError && size <= 1:
			return false, false
		case r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF:
			return false, false
		case r >= 0xD800 && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return false, false
		}
		i += size
	}
	return ascii, true
}

// parser holds the state of one Parse. Positions are byte offsets into
// src; the current line is the one starting at lineStart.
type parser struct {
	src       string
	ascii     bool // columns are byte offsets (no multi-byte characters)
	pos       int
	line      int // 1-based line of pos
	lineStart int // offset of the first byte of the current line
	// After nextLine: the indentation of the line now at pos, or eof.
	indent int
	eof    bool
	depth  int

	// cpos and ccont cache how many UTF-8 continuation bytes lie
	// between lineStart and cpos, so columns of a non-ASCII line cost
	// linear time in all.
	cpos, ccont int

	nodes []yaml.Node  // nodes are handed out from this slab
	ptrs  []*yaml.Node // Content slices are cut from this slab
	stack []*yaml.Node // children of the collections being built
}

// column is the 1-based column of offset pos on the current line, counted
// in characters as libyaml does.
func (p *parser) column(pos int) int {
	if p.ascii {
		return pos - p.lineStart + 1
	}
	if p.cpos < p.lineStart || p.cpos > pos {
		p.cpos, p.ccont = p.lineStart, 0
	}
	for ; p.cpos < pos; p.cpos++ {
		if p.src[p.cpos]&0xC0 == 0x80 {
			p.ccont++
		}
	}
	return pos - p.lineStart + 1 - p.ccont
}

// node returns a new node of kind and tag positioned at offset pos of the
// current line. Nodes come from a slab, as one allocation for many: the
// caller only ever holds pointers, as with yaml.v3's nodes.
func (p *parser) node(kind yaml.Kind, tag string, pos int) *yaml.Node {
	return p.newNode(kind, tag, p.line, p.column(pos))
}

// newNode returns a new node of kind and tag at line and column.
func (p *parser) newNode(kind yaml.Kind, tag string, line, column int) *yaml.Node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]yaml.Node, 0, maxChunk)
	}
	// Fill the zeroed slot field by field: appending a whole Node
	// literal copies it with a bulk write barrier, measurably slower.
	p.nodes = p.nodes[:len(p.nodes)+1]
	n := &p.nodes[len(p.nodes)-1]
	n.Kind, n.Tag, n.Line, n.Column = kind, tag, line, column
	return n
}

// content pops the children pushed since mark into a Content slice whose
// capacity is its length, so a caller appending to it cannot overwrite a
// neighbour in the shared slab.
func (p *parser) content(mark int) []*yaml.Node {
	kids := p.stack[mark:]
	n := len(kids)
	if n == 0 {
		// yaml.v3 leaves an empty collection's Content nil.
		return nil
	}
	if cap(p.ptrs)-len(p.ptrs) < n {
		p.ptrs = make([]*yaml.Node, 0, max(n, 2*cap(p.ptrs), 64))
	}
	start := len(p.ptrs)
	p.ptrs = append(p.ptrs, kids...)
	clear(kids)
	p.stack = p.stack[:mark]
	return p.ptrs[start : start+n : start+n]
}

// at reports whether the byte at pos is c.
func (p *parser) at(pos int, c byte) bool {
	return pos < len(p.src) && p.src[pos] == c
}

// blankz reports whether pos is a space, a line break or the end: what
// libyaml requires after '-' and ':' indicators in block context.
func (p *parser) blankz(pos int) bool {
	return pos >= len(p.src) || p.src[pos] == ' ' || p.src[pos] == '\n'
}

// skipSpaces moves pos over spaces.
func (p *parser) skipSpaces() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

// nextLine moves from the end of a line's content (or the start of the
// input) to the first character of the next line with content, setting
// indent, or sets eof. It declines comment lines and document markers.
func (p *parser) nextLine() bool {
	p.skipSpaces()
	for {
		if p.pos >= len(p.src) {
			p.eof = true
			return true
		}
		switch p.src[p.pos] {
		case '\n':
			p.pos++
			p.line++
			p.lineStart = p.pos
			if p.startsMarker() {
				return false
			}
			p.skipSpaces()
		case '#':
			return false
		default:
			p.indent = p.pos - p.lineStart
			return true
		}
	}
}

// startsMarker reports whether the line at pos starts like a document
// marker ("---" or "..."), which the subset declines.
func (p *parser) startsMarker() bool {
	s := p.src[p.pos:]
	return len(s) >= 3 && (s[:3] == "---" || s[:3] == "...")
}

// endLine requires that only spaces follow on the current line, then
// moves to the next line with content.
func (p *parser) endLine() bool {
	p.skipSpaces()
	if p.pos < len(p.src) && p.src[p.pos] != '\n' {
		return false
	}
	return p.nextLine()
}

// entry reports whether a block sequence entry ("- " or a lone "-")
// starts at pos.
func (p *parser) entry() bool {
	return p.at(p.pos, '-') && p.blankz(p.pos+1)
}

// block parses the block node starting at pos, whose column (0-based) is
// indent: a sequence, or a mapping, or, as the value of a key or entry on
// a line of its own, a scalar or flow collection. It returns with pos on
// the next line with content, or eof.
func (p *parser) block(indent int) (*yaml.Node, bool) {
	if p.depth++; p.depth > maxDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	if p.entry() {
		return p.blockSeq(indent)
	}
	if c := p.src[p.pos]; c == '[' || c == '{' {
		n, ok := p.flow()
		return n, ok && p.endLine()
	}
	start := p.pos
	k, ok := p.scalar(false)
	if !ok {
		return nil, false
	}
	if p.at(p.pos, ':') && p.blankz(p.pos+1) {
		if p.pos-start > maxKeyBytes {
			return nil, false
		}
		return p.blockMap(indent, k)
	}
	return k, p.endLine()
}

// blockMap parses a block mapping at column indent whose first key, key,
// has been read, with pos on its ':'.
func (p *parser) blockMap(indent int, key *yaml.Node) (*yaml.Node, bool) {
	// A block mapping starts where its first key does.
	n := p.newNode(yaml.MappingNode, "!!map", key.Line, key.Column)
	mark := len(p.stack)
	for {
		p.stack = append(p.stack, key)
		p.pos++ // the ':'
		p.skipSpaces()
		var v *yaml.Node
		var ok bool
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' {
			// The value is on the lines below: deeper, or a sequence
			// at the key's own indentation. Anything else would be an
			// empty (null) value.
			if !p.nextLine() || p.eof {
				return nil, false
			}
			switch {
			case p.indent > indent:
				v, ok = p.block(p.indent)
			case p.indent == indent && p.entry():
				v, ok = p.blockSeq(indent)
			}
		} else {
			v, ok = p.inline()
		}
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, v)
		if p.eof || p.indent < indent {
			break
		}
		if p.indent > indent || p.entry() {
			// Deeper lines would continue a scalar or be an error;
			// an entry here is an error.
			return nil, false
		}
		if key, ok = p.key(); !ok {
			return nil, false
		}
	}
	n.Content = p.content(mark)
	return n, true
}

// key reads a block mapping key at pos, leaving pos on its ':'.
func (p *parser) key() (*yaml.Node, bool) {
	start := p.pos
	k, ok := p.scalar(false)
	if !ok || !p.at(p.pos, ':') || !p.blankz(p.pos+1) || p.pos-start > maxKeyBytes {
		return nil, false
	}
	return k, true
}

// blockSeq parses a block sequence at column indent, with pos on its
// first '-'.
func (p *parser) blockSeq(indent int) (*yaml.Node, bool) {
	n := p.node(yaml.SequenceNode, "!!seq", p.pos)
	mark := len(p.stack)
	for {
		p.pos++ // the '-'
		p.skipSpaces()
		var v *yaml.Node
		var ok bool
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' {
			if !p.nextLine() || p.eof || p.indent <= indent {
				// An empty (null) entry.
				return nil, false
			}
			v, ok = p.block(p.indent)
		} else {
			// The entry's node starts on this line, and a mapping or
			// sequence there is indented to where it starts.
			v, ok = p.block(p.pos - p.lineStart)
		}
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, v)
		if p.eof || p.indent < indent || (p.indent == indent && !p.entry()) {
			// A line at this indentation that is not an entry ends a
			// sequence at its key's indentation; elsewhere the caller
			// declines it.
			break
		}
		if p.indent > indent {
			return nil, false
		}
	}
	n.Content = p.content(mark)
	return n, true
}

// inline parses the scalar or flow collection that follows a key's ':' on
// the same line, and the end of that line.
func (p *parser) inline() (*yaml.Node, bool) {
	var n *yaml.Node
	var ok bool
	if c := p.src[p.pos]; c == '[' || c == '{' {
		n, ok = p.flow()
	} else {
		n, ok = p.scalar(false)
	}
	return n, ok && p.endLine()
}

// flow parses a flow sequence or mapping, all on the current line, with
// pos on its '[' or '{'.
func (p *parser) flow() (*yaml.Node, bool) {
	if p.depth++; p.depth > maxDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	isMap := p.src[p.pos] == '{'
	var n *yaml.Node
	closer := byte(']')
	if isMap {
		n = p.node(yaml.MappingNode, "!!map", p.pos)
		closer = '}'
	} else {
		n = p.node(yaml.SequenceNode, "!!seq", p.pos)
	}
	n.Style = yaml.FlowStyle
	mark := len(p.stack)
	p.pos++
	p.skipSpaces()
	if p.at(p.pos, closer) {
		p.pos++
		return n, true
	}
	for {
		if isMap {
			start := p.pos
			k, ok := p.scalar(true)
			// Only "key: value"; "key:value", "key" alone and
			// "key : value" mean other things or are declined.
			if !ok || !p.at(p.pos, ':') || !p.at(p.pos+1, ' ') || p.pos-start > maxKeyBytes {
				return nil, false
			}
			p.stack = append(p.stack, k)
			p.pos++
			p.skipSpaces()
		}
		v, ok := p.flowItem()
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, v)
		p.skipSpaces()
		if p.at(p.pos, closer) {
			p.pos++
			break
		}
		if !p.at(p.pos, ',') {
			// A ':' here would make a pair in a sequence; a line break,
			// a collection over several lines.
			return nil, false
		}
		p.pos++
		p.skipSpaces()
		if p.at(p.pos, closer) || p.at(p.pos, ',') {
			// A trailing comma, or an empty entry.
			return nil, false
		}
	}
	n.Content = p.content(mark)
	return n, true
}

// flowItem parses a node inside a flow collection.
func (p *parser) flowItem() (*yaml.Node, bool) {
	if p.pos >= len(p.src) {
		return nil, false
	}
	if c := p.src[p.pos]; c == '[' || c == '{' {
		return p.flow()
	}
	return p.scalar(true)
}

// scalar parses a one-line plain, single-quoted or double-quoted scalar at
// pos, in flow context when flow is set. It leaves pos just after the
// scalar: after a plain scalar's last non-space character, after a quoted
// scalar's closing quote.
func (p *parser) scalar(flow bool) (*yaml.Node, bool) {
	if p.pos >= len(p.src) {
		return nil, false
	}
	switch p.src[p.pos] {
	case '"':
		return p.doubleQuoted()
	case '\'':
		return p.singleQuoted()
	}
	return p.plain(flow)
}

// plain parses a one-line plain scalar.
func (p *parser) plain(flow bool) (*yaml.Node, bool) {
	start := p.pos
	switch c := p.src[start]; c {
	case '-':
		// "-" followed by a non-space starts a scalar ("-1"); decline
		// the rest, which are entries or odd.
		if p.pos+1 >= len(p.src) || !isWordByte(p.src[p.pos+1]) {
			return nil, false
		}
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\n':
		return nil, false
	}
	end := start // just after the last non-space byte
	i := start
	for i < len(p.src) {
		c := p.src[i]
		switch {
		case c == '\n':
			goto done
		case c == ' ':
			i++
			continue
		case c == '#':
			if p.src[i-1] == ' ' {
				// A comment.
				return nil, false
			}
		case c == ':':
			if p.blankz(i + 1) {
				goto done
			}
			if flow {
				// libyaml and the YAML spec differ on ':' inside flow
				// scalars; stay out of it.
				return nil, false
			}
		case flow && (c == ',' || c == '[' || c == ']' || c == '{' || c == '}'):
			goto done
		case flow && c == '?':
			return nil, false
		}
		i++
		end = i
	}
done:
	v := p.src[start:end]
	if v == "<<" {
		// A merge key: yaml.v3 tags it !!merge.
		return nil, false
	}
	n := p.node(yaml.ScalarNode, "", start)
	n.Value = v
	n.Tag = plainTag(n)
	p.pos = end
	return n, true
}

// plainTag is the tag yaml.v3's parser gives the plain scalar n: its own
// resolver decides (int, float, bool, null, timestamp or str), through
// ShortTag. The resolver only looks further than the first byte for
// values starting with a sign, a digit, '.', or a letter of true, false,
// null, yes, no, on, off or '~' (its resolveTable); every other value is a
// string, answered here without the call, which allocates for every value
// (TestPlainTagShortcut holds this to the resolver).
func plainTag(n *yaml.Node) string {
	if n.Value != "" && !maybeResolved[n.Value[0]] {
		return "!!str"
	}
	return n.ShortTag()
}

// maybeResolved marks the first bytes for which yaml.v3's resolver may
// return a tag other than !!str. It is a constant table, never written.
var maybeResolved = [256]bool{
	'+': true, '-': true, '.': true, '~': true,
	'0': true, '1': true, '2': true, '3': true, '4': true,
	'5': true, '6': true, '7': true, '8': true, '9': true,
	'y': true, 'Y': true, 'n': true, 'N': true, 't': true, 'T': true,
	'f': true, 'F': true, 'o': true, 'O': true,
}

// isWordByte reports whether c is a letter, digit, '.' or '_': what may
// follow a '-' that starts a plain scalar in this subset.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
}

// singleQuoted parses a one-line single-quoted scalar, where two quotes
// in a row stand for one.
func (p *parser) singleQuoted() (*yaml.Node, bool) {
	start := p.pos
	var buf []byte
	from := start + 1 // start of the text not yet copied into buf
	i := from
	for {
		if i >= len(p.src) || p.src[i] == '\n' {
			return nil, false
		}
		if p.src[i] == '\'' {
			if !p.at(i+1, '\'') {
				break
			}
			buf = append(buf, p.src[from:i+1]...)
			i += 2
			from = i
			continue
		}
		i++
	}
	n := p.node(yaml.ScalarNode, "!!str", start)
	n.Style = yaml.SingleQuotedStyle
	if buf == nil {
		n.Value = p.src[from:i]
	} else {
		n.Value = string(append(buf, p.src[from:i]...))
	}
	p.pos = i + 1
	return n, true
}

// simpleEscapes maps the one-character escapes of double-quoted scalars to
// what yaml.v3 writes for them. It is a constant table, never written.
var simpleEscapes = [256]string{
	'0': "\x00", 'a': "\x07", 'b': "\x08", 't': "\x09", 'n': "\x0a",
	'v': "\x0b", 'f': "\x0c", 'r': "\x0d", 'e': "\x1b", ' ': " ",
	'"': "\"", '\'': "'", '\\': "\\",
	'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029",
}

// doubleQuoted parses a one-line double-quoted scalar with its escapes.
func (p *parser) doubleQuoted() (*yaml.Node, bool) {
	start := p.pos
	var buf []byte
	from := start + 1
	i := from
	for {
		if i >= len(p.src) || p.src[i] == '\n' {
			return nil, false
		}
		c := p.src[i]
		if c == '"' {
			break
		}
		if c != '\\' {
			i++
			continue
		}
		if i+1 >= len(p.src) {
			return nil, false
		}
		buf = append(buf, p.src[from:i]...)
		e := p.src[i+1]
		if s := simpleEscapes[e]; s != "" {
			buf = append(buf, s...)
			i += 2
		} else {
			digits := 0
			switch e {
			case 'x':
				digits = 2
			case 'u':
				digits = 4
			case 'U':
				digits = 8
			default:
				// Unknown escapes (yaml.v3 rejects "\/", for one) and
				// escaped line breaks.
				return nil, false
			}
			if i+2+digits > len(p.src) {
				return nil, false
			}
			r := rune(0)
			for _, h := range []byte(p.src[i+2 : i+2+digits]) {
				d, ok := hexValue(h)
				if !ok {
					return nil, false
				}
				r = r<<4 | d
			}
			if r < 0 || r > utf8.MaxRune || (r >= 0xD800 && r < 0xE000) {
				// yaml.v3 rejects surrogates and values past U+10FFFF.
				return nil, false
			}
			buf = utf8.AppendRune(buf, r)
			i += 2 + digits
		}
		from = i
	}
	n := p.node(yaml.ScalarNode, "!!str", start)
	n.Style = yaml.DoubleQuotedStyle
	if buf == nil {
		n.Value = p.src[from:i]
	} else {
		n.Value = string(append(buf, p.src[from:i]...))
	}
	p.pos = i + 1
	return n, true
}

// hexValue is the value of one hexadecimal digit.
func hexValue(c byte) (rune, bool) {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0'), true
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10, true
	}
	return 0, false
}
