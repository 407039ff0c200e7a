package compile

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Type is the JSON type of a value as the datalog program sees it. Integers
// and floats are both numbers: the rulespec compares numbers by value.
type Type string

// The value types, spelled as the Mangle names used in the program.
const (
	TString Type = "/string"
	TNumber Type = "/number"
	TBool   Type = "/bool"
	TArray  Type = "/array"
	TObject Type = "/object"
	TNull   Type = "/null"
)

// typeOf classifies a gjson value.
// numTypes is the number of Types; index numbers them from 0, for small
// per-type tables that need no map.
const numTypes = 6

func (t Type) index() int {
	switch t {
	case TString:
		return 0
	case TNumber:
		return 1
	case TBool:
		return 2
	case TArray:
		return 3
	case TObject:
		return 4
	}
	return 5
}

func typeOf(v gjson.Result) Type {
	switch v.Type {
	case gjson.String:
		return TString
	case gjson.Number:
		return TNumber
	case gjson.True, gjson.False:
		return TBool
	case gjson.JSON:
		if v.IsArray() {
			return TArray
		}
		return TObject
	}
	return TNull
}

// number is an exact JSON number: either an int64 or a float64 that is not
// an integer in int64 range (those are folded into ints so that 1 and 1.0
// are the same number).
type number struct {
	isInt bool
	i     int64
	f     float64
}

// parseNumber reads a number from its raw JSON text, exactly. The envelope
// and rulespec loaders wrote that text, so it is an int64 or a finite float.
func parseNumber(raw string) number {
	if i, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return number{isInt: true, i: i}
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		// Unreachable for loader output; keep a total order anyway.
		return number{f: 0, isInt: true}
	}
	if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
		return number{isInt: true, i: int64(f)}
	}
	return number{f: f}
}

// key is the canonical spelling: equal numbers get equal keys, and no float
// key can be mistaken for an integer key.
func (n number) key() string {
	if n.isInt {
		return strconv.FormatInt(n.i, 10)
	}
	return strconv.FormatFloat(n.f, 'g', -1, 64)
}

// cmpNumbers compares exactly, with no rounding of the int64 side.
func cmpNumbers(a, b number) int {
	switch {
	case a.isInt && b.isInt:
		return cmpInt(a.i, b.i)
	case !a.isInt && !b.isInt:
		switch {
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		}
		return 0
	case a.isInt:
		return -cmpFloatInt(b.f, a.i)
	default:
		return cmpFloatInt(a.f, b.i)
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpFloatInt compares a non-integral or out-of-range float with an int64.
func cmpFloatInt(f float64, i int64) int {
	if f >= 1<<63 {
		return 1
	}
	if f < -(1 << 63) {
		return -1
	}
	t := math.Trunc(f)
	if c := cmpInt(int64(t), i); c != 0 {
		return c
	}
	// Same integer part: the fraction decides.
	if f > t {
		return 1
	}
	if f < t {
		return -1
	}
	return 0
}

// canonicalKey spells a value so that deep-equal values, and only those,
// share a key: strings are themselves; numbers are normalised; arrays and
// objects are compact JSON with sorted keys and normalised numbers.
func canonicalKey(v gjson.Result) string {
	switch typeOf(v) {
	case TString:
		return v.Str
	case TNumber:
		return parseNumber(v.Raw).key()
	case TBool:
		if v.Type == gjson.True {
			return "true"
		}
		return "false"
	case TNull:
		return "null"
	}
	return string(appendCanonical(nil, v))
}

func appendCanonical(dst []byte, v gjson.Result) []byte {
	w := canonWriter{raw: v.Raw, dst: dst}
	// Only an object needs the index: its fields are written in key
	// order, so the writer must step over each field's value before
	// writing any. Without a '{' there is none (a '{' in a string only
	// costs the needless index).
	if strings.IndexByte(w.raw, '{') >= 0 {
		w.index(w.ws(0), false)
	}
	w.emit(w.ws(0), 0)
	return w.dst
}

// canonWriter writes the canonical form of a JSON text in time linear in
// its size. Walking the value with gjson's ForEach rescans each element to
// find its end, once per level of nesting above it, so deep values cost
// their size times their depth.
//
// index makes one pass that records, for every array or object that is the
// value of an object field (in document order), where it ends; emit makes a
// second pass that writes arrays and scalars as it meets them and, for an
// object, steps over its field values with those ends to collect and sort
// the fields, then writes each field's value once. Each byte is read a
// bounded number of times, whatever the depth.
type canonWriter struct {
	raw   string
	dst   []byte
	skips []canonSkip
}

// canonSkip is a container that is an object field's value: end is the
// offset after it; next is the index of the first skip after its subtree.
type canonSkip struct{ end, next int }

// ws returns the offset of the first non-whitespace byte at or after i.
func (w *canonWriter) ws(i int) int {
	for i < len(w.raw) {
		switch w.raw[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd returns the offset after the string literal opening at i.
func (w *canonWriter) stringEnd(i int) int {
	for j := i + 1; j < len(w.raw); j++ {
		switch w.raw[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(w.raw)
}

// scalarEnd returns the offset after the number or literal at i.
func (w *canonWriter) scalarEnd(i int) int {
	for i < len(w.raw) {
		switch w.raw[i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// index scans the value at i and returns the offset after it, recording
// skips; field says the value is an object field's.
func (w *canonWriter) index(i int, field bool) int {
	if i >= len(w.raw) {
		return i
	}
	switch c := w.raw[i]; c {
	case '"':
		return w.stringEnd(i)
	case '[', '{':
		slot := -1
		if field {
			slot = len(w.skips)
			w.skips = append(w.skips, canonSkip{})
		}
		closer := byte(']')
		if c == '{' {
			closer = '}'
		}
		i = w.ws(i + 1)
		for i < len(w.raw) && w.raw[i] != closer {
			if c == '{' {
				i = w.ws(w.stringEnd(i))
				i = w.ws(i + 1) // ':'
				i = w.index(i, true)
			} else {
				i = w.index(i, false)
			}
			i = w.ws(i)
			if i < len(w.raw) && w.raw[i] == ',' {
				i = w.ws(i + 1)
			}
		}
		if i < len(w.raw) {
			i++
		}
		if slot >= 0 {
			w.skips[slot] = canonSkip{end: i, next: len(w.skips)}
		}
		return i
	}
	return w.scalarEnd(i)
}

// canonField is an object field awaiting its turn: its key, where its value
// starts, and for a container value the index of its skip.
type canonField struct {
	key  string
	at   int
	skip int
}

// emit writes the value at i, whose nested skips start at k, and returns
// the offset after it and the index of the first skip after it.
func (w *canonWriter) emit(i, k int) (int, int) {
	if i >= len(w.raw) {
		return i, k
	}
	switch w.raw[i] {
	case '"':
		end := w.stringEnd(i)
		w.dst = strconv.AppendQuote(w.dst, stringValue(w.raw[i:end]))
		return end, k
	case '[':
		w.dst = append(w.dst, '[')
		i = w.ws(i + 1)
		first := true
		for i < len(w.raw) && w.raw[i] != ']' {
			if !first {
				w.dst = append(w.dst, ',')
			}
			first = false
			i, k = w.emit(i, k)
			i = w.ws(i)
			if i < len(w.raw) && w.raw[i] == ',' {
				i = w.ws(i + 1)
			}
		}
		w.dst = append(w.dst, ']')
		return min(i+1, len(w.raw)), k
	case '{':
		var fields []canonField
		i = w.ws(i + 1)
		for i < len(w.raw) && w.raw[i] != '}' {
			kend := w.stringEnd(i)
			f := canonField{key: stringValue(w.raw[i:kend]), skip: -1}
			i = w.ws(kend)
			i = w.ws(i + 1) // ':'
			f.at = i
			if i < len(w.raw) && (w.raw[i] == '[' || w.raw[i] == '{') {
				f.skip = k
				i, k = w.skips[k].end, w.skips[k].next
			} else if i < len(w.raw) && w.raw[i] == '"' {
				i = w.stringEnd(i)
			} else {
				i = w.scalarEnd(i)
			}
			fields = append(fields, f)
			i = w.ws(i)
			if i < len(w.raw) && w.raw[i] == ',' {
				i = w.ws(i + 1)
			}
		}
		// The same sort as ever, over the same keys in the same order, so
		// duplicate keys come out as they always have.
		sort.Slice(fields, func(a, b int) bool { return fields[a].key < fields[b].key })
		w.dst = append(w.dst, '{')
		for n, f := range fields {
			if n > 0 {
				w.dst = append(w.dst, ',')
			}
			w.dst = strconv.AppendQuote(w.dst, f.key)
			w.dst = append(w.dst, ':')
			w.emit(f.at, f.skip+1)
		}
		w.dst = append(w.dst, '}')
		return min(i+1, len(w.raw)), k
	case 't':
		w.dst = append(w.dst, "true"...)
	case 'f':
		w.dst = append(w.dst, "false"...)
	case 'n':
		w.dst = append(w.dst, "null"...)
	default:
		end := w.scalarEnd(i)
		w.dst = append(w.dst, parseNumber(w.raw[i:end]).key()...)
		return end, k
	}
	return w.scalarEnd(i), k
}

// stringValue is a string literal's value, unescaped exactly as gjson
// unescapes Result.Str.
func stringValue(lit string) string {
	if strings.IndexByte(lit, '\\') < 0 {
		return lit[1 : len(lit)-1]
	}
	return gjson.Parse(lit).Str
}

// length is what min_length and max_length measure: characters of a string,
// elements of an array, keys of an object. ok is false for other types.
func length(v gjson.Result) (n int64, ok bool) {
	switch typeOf(v) {
	case TString:
		return int64(utf8.RuneCountInString(v.Str)), true
	case TArray, TObject:
		v.ForEach(func(_, _ gjson.Result) bool {
			n++
			return true
		})
		return n, true
	}
	return 0, false
}
