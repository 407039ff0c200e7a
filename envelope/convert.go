package envelope

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

const (
	nullTag      = "!!null"
	boolTag      = "!!bool"
	intTag       = "!!int"
	floatTag     = "!!float"
	mergeTag     = "!!merge"
	smallMapping = 16 // up to this many keys, duplicates are found by a scan instead of a map
)

// ToJSON converts the YAML value n (a scalar, sequence, mapping, alias or a
// document wrapping one) of file to compact JSON text, keys in document order.
//
// Scalars follow their resolved tag: null, booleans, 64-bit integers (YAML's
// hex, octal and underscore forms included) and finite floats become JSON
// literals; strings, timestamps, binary and unknown tags become JSON strings
// of the text as written. A plain scalar shaped like a number that yaml.v3
// leaves a string because it is too large (1e400) is an error. Mapping keys must be scalars and are used as
// written, so the key 1 is "1"; duplicate keys and merge keys (<<) are
// errors. Aliases are expanded.
//
// Depth: n itself, if a mapping or sequence, is at level 1, its child
// collections at level 2, and so on; aliases count at the depth of the
// expanded output. (Parse passes the facts mapping, so the top-level mapping
// of the file is level 0.) More than lim.MaxDepth levels is an error.
//
// Size: the output may not exceed lim.MaxBytes. Every node costs at least one
// output byte, so that bound also bounds the work, and no separate node
// budget is needed. When the value contains aliases, a lower bound of the
// expanded size is computed first (memoized per anchor, so in time linear in
// the document) and an alias bomb is refused before anything is expanded.
func ToJSON(file string, n *yaml.Node, lim Limits) ([]byte, error) {
	return newConverter(file, lim.normalized()).convert(n)
}

// converter holds the state of one conversion. Parse shares one between
// facts and metadata so that together they stay within MaxBytes.
type converter struct {
	file     string
	maxBytes int64
	maxDepth int
	used     int64 // bytes produced by earlier convert calls
	// sizeHint, when set, pre-sizes the next output buffer: the JSON of an
	// envelope is about as long as its YAML, and growing a many-megabyte
	// buffer by doubling would allocate several times the final size.
	sizeHint int
	buf      []byte
	// active lists the anchored nodes being expanded, innermost last; an
	// alias to one of them would expand forever.
	active []*yaml.Node
	// sized is set once the alias lower bound has been checked for root.
	sized bool
	root  *yaml.Node
	memo  map[*yaml.Node]int64 // lower bounds of anchored nodes; -1 while in progress
	// worst is the alias whose target has the largest lower bound, the one
	// to blame for an alias bomb.
	worst     *yaml.Node
	worstSize int64
}

func newConverter(file string, lim Limits) *converter {
	return &converter{file: file, maxBytes: lim.MaxBytes, maxDepth: lim.MaxDepth}
}

// convert converts one value, protected by recover as a last line of
// defence: yaml.v3's Decode runs on hostile scalars.
func (c *converter) convert(n *yaml.Node) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, c.errAt(n, "internal error while converting to JSON (%v); please report this envelope", r)
		}
	}()
	if n == nil {
		return nil, &Error{File: c.file, Msg: "missing value; write a value"}
	}
	c.buf, c.sized, c.root, c.active = nil, false, n, c.active[:0]
	if c.sizeHint > 0 {
		c.buf = make([]byte, 0, c.sizeHint)
		c.sizeHint = 0
	}
	if err := c.value(n, 1); err != nil {
		return nil, err
	}
	c.used += int64(len(c.buf))
	out = c.buf
	c.buf = nil
	return out, nil
}

func (c *converter) errAt(n *yaml.Node, format string, args ...any) *Error {
	e := &Error{File: c.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	return e
}

func (c *converter) overBudget() bool {
	return c.used+int64(len(c.buf)) > c.maxBytes
}

func (c *converter) tooBig(n *yaml.Node) error {
	return c.errAt(n, "the JSON for this envelope grows past the limit of %d bytes here; shrink it or raise the limit with --max-envelope-bytes", c.maxBytes)
}

func (c *converter) tooDeep(n *yaml.Node) error {
	return c.errAt(n, "mappings and sequences nest deeper than the limit of %d levels here; flatten the data or raise the limit with --max-depth", c.maxDepth)
}

// value appends the JSON for n, which sits at nesting level depth.
func (c *converter) value(n *yaml.Node, depth int) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return c.errAt(n, "the document is empty; write a value")
		}
		return c.value(n.Content[0], depth)
	case yaml.AliasNode:
		return c.alias(n, depth)
	case yaml.ScalarNode:
		if err := c.scalar(n); err != nil {
			return err
		}
	case yaml.SequenceNode:
		if depth > c.maxDepth {
			return c.tooDeep(n)
		}
		c.buf = append(c.buf, '[')
		for i, child := range n.Content {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			if err := c.value(child, depth+1); err != nil {
				return err
			}
		}
		c.buf = append(c.buf, ']')
	case yaml.MappingNode:
		if depth > c.maxDepth {
			return c.tooDeep(n)
		}
		if err := c.mapping(n, depth); err != nil {
			return err
		}
	default:
		return c.errAt(n, "unexpected empty YAML node; write a value")
	}
	if c.overBudget() {
		return c.tooBig(n)
	}
	return nil
}

func (c *converter) alias(n *yaml.Node, depth int) error {
	target := n.Alias
	if target == nil {
		return c.errAt(n, "alias *%s has no anchor; define &%s before using it", n.Value, n.Value)
	}
	for _, a := range c.active {
		if a == target {
			return c.errAt(n, "alias *%s refers to the value that contains it, which would repeat forever; write the value out", n.Value)
		}
	}
	if !c.sized {
		c.sized = true
		if err := c.checkExpansion(); err != nil {
			return err
		}
	}
	c.active = append(c.active, target)
	err := c.value(target, depth)
	c.active = c.active[:len(c.active)-1]
	return err
}

// keyOf returns the scalar that a mapping key stands for, following an alias.
func (c *converter) keyOf(k *yaml.Node) (*yaml.Node, error) {
	kr := k
	if kr.Kind == yaml.AliasNode {
		if kr.Alias == nil {
			return nil, c.errAt(k, "alias *%s has no anchor; define &%s before using it", k.Value, k.Value)
		}
		kr = kr.Alias
	}
	if kr.Kind != yaml.ScalarNode {
		return nil, c.errAt(k, "a mapping key must be a scalar, not %s; use a string key", kindName(kr))
	}
	if kr.ShortTag() == mergeTag {
		return nil, c.errAt(k, "merge keys are not supported; write the keys out")
	}
	return kr, nil
}

func (c *converter) mapping(n *yaml.Node, depth int) error {
	if len(n.Content)%2 != 0 {
		return c.errAt(n, "malformed mapping with a key and no value; write key: value pairs")
	}
	var index map[string]*yaml.Node // only for large mappings
	if len(n.Content)/2 > smallMapping {
		index = make(map[string]*yaml.Node, len(n.Content)/2)
	}
	c.buf = append(c.buf, '{')
	for i := 0; i < len(n.Content); i += 2 {
		k := n.Content[i]
		kr, err := c.keyOf(k)
		if err != nil {
			return err
		}
		var first *yaml.Node
		if index != nil {
			first = index[kr.Value]
			if first == nil {
				index[kr.Value] = k
			}
		} else {
			for j := 0; j < i; j += 2 {
				// Earlier keys already passed keyOf, so this cannot fail.
				if pr, _ := c.keyOf(n.Content[j]); pr != nil && pr.Value == kr.Value {
					first = n.Content[j]
					break
				}
			}
		}
		if first != nil {
			return c.errAt(k, "duplicate key %s (first defined at line %d); remove one of them", strconv.Quote(truncate(kr.Value, 80)), first.Line)
		}
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = appendString(c.buf, kr.Value)
		c.buf = append(c.buf, ':')
		if err := c.value(n.Content[i+1], depth+1); err != nil {
			return err
		}
	}
	c.buf = append(c.buf, '}')
	return nil
}

func (c *converter) scalar(n *yaml.Node) error {
	switch n.ShortTag() {
	case nullTag:
		c.buf = append(c.buf, "null"...)
	case boolTag:
		b, err := decodeBool(n)
		if err != nil {
			return c.errAt(n, "%s is not a boolean; write true or false, or quote it to keep it as a string", strconv.Quote(truncate(n.Value, 40)))
		}
		c.buf = strconv.AppendBool(c.buf, b)
	case intTag:
		i, err := decodeInt(n)
		if err != nil {
			if outOfRange(n.Value) {
				return c.errAt(n, "%s", intRangeMsg)
			}
			return c.errAt(n, "%s is not an integer; write a whole number, or quote it to keep it as a string", strconv.Quote(truncate(n.Value, 40)))
		}
		c.buf = strconv.AppendInt(c.buf, i, 10)
	case floatTag:
		// yaml.v3 resolves a plain integer too big for 64 bits as a float,
		// silently losing digits; an identifier-like number would then
		// compare wrongly, so refuse it as the integer it was written as.
		if n.Style&yaml.TaggedStyle == 0 && onlyDigits(n.Value) && outOfRange(n.Value) {
			return c.errAt(n, "%s", intRangeMsg)
		}
		f, err := decodeFloat(n)
		if err != nil {
			return c.errAt(n, "%s is not a number; write a decimal number, or quote it to keep it as a string", strconv.Quote(truncate(n.Value, 40)))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return c.errAt(n, "%s is not a finite number and JSON cannot hold it; quote it to keep it as a string", strconv.Quote(truncate(n.Value, 40)))
		}
		var msg string
		if c.buf, msg = appendExact(c.buf, n.Value, f); msg != "" {
			return c.errAt(n, "%s: %s", strconv.Quote(truncate(n.Value, 40)), msg)
		}
	default:
		// yaml.v3 resolves a plain number it cannot hold (1e400, a 400-digit
		// integer, 0x followed by 17 hex digits) as a string; keeping it
		// would make a number compare equal to a string, so refuse it.
		if n.Style&notPlain == 0 {
			if msg := overflowMsg(n.Value); msg != "" {
				return c.errAt(n, "%s", msg)
			}
		}
		// Strings, timestamps, binary and unknown tags keep their text:
		// predicates compare what the agent wrote, not a reinterpretation.
		c.buf = appendString(c.buf, n.Value)
	}
	return nil
}

// notPlain is the styles that make a scalar other than plain: quoted,
// block or explicitly tagged. Only a plain scalar is resolved as a number.
const notPlain = yaml.TaggedStyle | yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle

const (
	intRangeMsg   = "integer out of range of a 64-bit signed integer; quote it to keep it as a string"
	floatRangeMsg = "number out of range of a 64-bit float; quote it to keep it as a string"
)

// overflowMsg returns the error for s, a plain scalar that yaml.v3 resolved
// as a string, when s has the YAML 1.2 core-schema shape of an integer
// ([-+]?[0-9]+, 0o[0-7]+, 0x[0-9a-fA-F]+) or a float
// ([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?): yaml.v3 leaves such
// a scalar a string only when the number is too large for it. Anything else
// returns "". A float too small (1e-400) is refused later (appendExact).
func overflowMsg(s string) string {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o') {
		for i := 2; i < len(s); i++ {
			c := s[i]
			if !(c >= '0' && c <= '7' || s[1] == 'x' && (c >= '8' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
				return ""
			}
		}
		return intRangeMsg
	}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	whole := digits()
	if i == len(s) {
		if whole == 0 {
			return ""
		}
		return intRangeMsg
	}
	if s[i] == '.' {
		i++
		if digits() == 0 && whole == 0 {
			return ""
		}
	} else if whole == 0 {
		return ""
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return ""
		}
	}
	if i != len(s) {
		return ""
	}
	return floatRangeMsg
}

// decodeBool avoids yaml.v3's reflection-based Decode for the spellings
// that almost every boolean uses.
func decodeBool(n *yaml.Node) (bool, error) {
	switch n.Value {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	var b bool
	err := safeDecode(n, &b)
	return b, err
}

// decodeInt parses plain decimal integers directly (the common case, and
// far cheaper than Decode) and leaves every other form (hex, octal, 0b,
// underscores, a leading zero that YAML 1.1 reads as octal) to yaml.v3 so
// the meaning matches the YAML library exactly.
func decodeInt(n *yaml.Node) (int64, error) {
	if isPlainDecimal(n.Value) {
		if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			return i, nil
		}
	}
	var i int64
	err := safeDecode(n, &i)
	return i, err
}

func decodeFloat(n *yaml.Node) (float64, error) {
	if isSimpleFloat(n.Value) {
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f, nil
		}
	}
	var f float64
	err := safeDecode(n, &f)
	return f, err
}

// safeDecode is yaml.v3's Decode with a recover, as a last line of defence.
func safeDecode(n *yaml.Node, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml decode panicked: %v", r)
		}
	}()
	return n.Decode(v)
}

// isPlainDecimal reports an optional sign followed by digits without a
// leading zero, which strconv base 10 reads exactly as YAML does.
func isPlainDecimal(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isSimpleFloat reports text made only of characters with the same meaning
// to strconv and YAML: digits, sign, point and exponent. Anything else
// (".inf", underscores, hex) goes through yaml.v3.
func isSimpleFloat(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '.', c == '-', c == '+', c == 'e', c == 'E':
		default:
			return false
		}
	}
	return true
}

// outOfRange reports whether s is an integer, in any form YAML accepts
// (sign, 0x/0o/0b or leading-zero octal, underscores), too large for int64,
// so the error can blame its size rather than its spelling.
func outOfRange(s string) bool {
	_, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
	return errors.Is(err, strconv.ErrRange)
}

// onlyDigits reports an optional sign followed by digits and underscores:
// the only integer spelling that yaml.v3 turns into a float when too large.
// It keeps the costly outOfRange check off ordinary floats.
func onlyDigits(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '_' {
			return false
		}
	}
	return true
}
