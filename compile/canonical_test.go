package compile

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// canonicalRef is the canonical form as it was first written, one gjson
// ForEach per level: the specification the one-pass writer must match
// byte for byte (its cost grows with size times depth).
func canonicalRef(dst []byte, v gjson.Result) []byte {
	switch typeOf(v) {
	case TString:
		return strconv.AppendQuote(dst, v.Str)
	case TNumber:
		return append(dst, parseNumber(v.Raw).key()...)
	case TBool:
		if v.Type == gjson.True {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case TNull:
		return append(dst, "null"...)
	case TArray:
		dst = append(dst, '[')
		first := true
		v.ForEach(func(_, e gjson.Result) bool {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = canonicalRef(dst, e)
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
		dst = canonicalRef(dst, f.v)
	}
	return append(dst, '}')
}

var canonicalCases = []string{
	`[]`, `{}`, `[1]`, `[1.0, 1e2, -0, 0.5, 12345678901234567890, -1.5e-3]`,
	`{"b": 1, "a": 2}`, `{"b": {"d": [1, {"z": null, "y": true}], "c": false}, "a": [[], {}]}`,
	` [ 1 , "x" ,	{ "k" : "v" } ]`, "{\n  \"a\" :\n [ 1,\n 2 ]\n}",
	`["a\"b", "\\", "\u00e9\ud83d\ude00", "\n\t\u0000", "}]{[", "é"]`,
	`{"a\"}": {"]": [1]}, "\u0041": "x", "": ""}`,
	`{"dup": 1, "dup": 2, "a": {"dup": [3], "dup": {"x": 1}}}`,
	`[{"b": [{"d": 1, "c": [{"f": 2, "e": 3}]}], "a": {"y": {"x": {}}}}, {"q": "{"}]`,
	`[true, false, null, [null], {"n": null}]`,
	`{"s": "has { brace", "t": ["[", "]"], "u": {"v": "}"}}`,
}

// TestCanonicalMatchesReference: the one-pass writer spells every value
// exactly as the per-level walk did, so no .dl or trace changes.
func TestCanonicalMatchesReference(t *testing.T) {
	for _, src := range append(canonicalCases, deepArray(40), deepObject(40)) {
		if !gjson.Valid(src) {
			t.Fatalf("not valid JSON: %s", src)
		}
		v := gjson.Parse(src)
		check := func(v gjson.Result) {
			t.Helper()
			want := string(canonicalRef(nil, v))
			if got := canonicalKey(v); typeOf(v) == TArray || typeOf(v) == TObject {
				if got != want {
					t.Errorf("canonicalKey(%s)\n got %s\nwant %s", v.Raw, got, want)
				}
			}
		}
		check(v)
		v.ForEach(func(_, e gjson.Result) bool { check(e); return true })
	}
}

func FuzzCanonical(f *testing.F) {
	for _, c := range canonicalCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !gjson.Valid(src) {
			return
		}
		v := gjson.Parse(src)
		if typeOf(v) != TArray && typeOf(v) != TObject {
			return
		}
		if got, want := canonicalKey(v), string(canonicalRef(nil, v)); got != want {
			t.Fatalf("canonicalKey(%s)\n got %s\nwant %s", src, got, want)
		}
	})
}

func deepArray(d int) string { return strings.Repeat("[", d) + "1" + strings.Repeat("]", d) }

func deepObject(d int) string {
	var b strings.Builder
	for i := range d {
		fmt.Fprintf(&b, `{"z%d": [%d, {"y": "s"}], "a%d": `, i, i, i)
	}
	b.WriteString("1")
	b.WriteString(strings.Repeat("}", d))
	return b.String()
}

// BenchmarkCanonicalDeep spells values nested 250 deep, as a none_of over
// their elements does for each one. The cost per byte must not grow with
// the depth.
func BenchmarkCanonicalDeep(b *testing.B) {
	for _, c := range []struct {
		name string
		src  string
	}{
		{"array/depth=250", deepArray(250)},
		{"array/depth=125", deepArray(125)},
		{"object/depth=250", deepObject(250)},
		{"object/depth=125", deepObject(125)},
	} {
		b.Run(c.name, func(b *testing.B) {
			v := gjson.Parse(c.src)
			b.SetBytes(int64(len(c.src)))
			for b.Loop() {
				_ = canonicalKey(v)
			}
		})
	}
}
