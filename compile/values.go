package compile

import (
	"math"
	"sort"
	"strconv"
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
	switch typeOf(v) {
	case TString:
		return strconv.AppendQuote(dst, v.Str)
	case TNumber:
		return append(dst, parseNumber(v.Raw).key()...)
	case TBool, TNull:
		return append(dst, canonicalKey(v)...)
	case TArray:
		dst = append(dst, '[')
		first := true
		v.ForEach(func(_, e gjson.Result) bool {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendCanonical(dst, e)
			return true
		})
		return append(dst, ']')
	}
	type kv struct {
		k string
		v gjson.Result
	}
	var fields []kv
	v.ForEach(func(k, e gjson.Result) bool {
		fields = append(fields, kv{k.Str, e})
		return true
	})
	sort.Slice(fields, func(i, j int) bool { return fields[i].k < fields[j].k })
	dst = append(dst, '{')
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendQuote(dst, f.k)
		dst = append(dst, ':')
		dst = appendCanonical(dst, f.v)
	}
	return append(dst, '}')
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
