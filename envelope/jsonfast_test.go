package envelope

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func init() { panicInJSONPath = true }

// viaYAML parses data through yaml.v3 only, as Parse did before the JSON
// fast path.
func viaYAML(data []byte, lim Limits) (*Envelope, error) {
	return viaYAMLAs(data, data, lim)
}

// viaYAMLAs is viaYAML for data, but parses ref instead, a rewrite of data
// with the same meaning.
func viaYAMLAs(data, ref []byte, lim Limits) (*Envelope, error) {
	lim = lim.normalized()
	if int64(len(data)) > lim.MaxBytes {
		return nil, tooLargeFile("e.yaml", lim.MaxBytes)
	}
	return parseYAML("e.yaml", ref, lim, sha256.Sum256(data))
}

// plainEscapes rewrites valid JSON data, replacing each escape \/ and each
// surrogate-pair escape (\ud83d\ude00) with the character it stands for,
// escapes that JSON allows and yaml.v3 refuses. Spaces after the string make
// up for the characters removed, so every position outside strings keeps
// its line and column. changed reports whether anything was replaced.
func plainEscapes(data []byte) (out []byte, changed bool) {
	if !validJSON(data) || !bytes.Contains(data, []byte(`\`)) {
		return data, false
	}
	hexAt := func(i int) rune {
		if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
			return -1
		}
		r, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 32)
		if err != nil {
			return -1
		}
		return rune(r)
	}
	inString, pad := false, 0
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case !inString:
			inString = c == '"'
		case c == '"':
			out = append(append(out, '"'), bytes.Repeat([]byte{' '}, pad)...)
			inString, pad = false, 0
			i++
			continue
		case c == '\\' && data[i+1] == '/':
			out = append(out, '/')
			pad++
			i += 2
			continue
		case c == '\\' && data[i+1] == 'u':
			hi, lo := hexAt(i), hexAt(i+6)
			if hi >= 0xD800 && hi < 0xDC00 && lo >= 0xDC00 && lo < 0xE000 {
				out = utf8.AppendRune(out, utf16.DecodeRune(hi, lo))
				pad += 11
				i += 12
				continue
			}
			out = append(out, data[i:i+6]...)
			i += 6
			continue
		case c == '\\':
			out = append(out, data[i:i+2]...)
			i += 2
			continue
		}
		out = append(out, c)
		i++
	}
	return out, !bytes.Equal(out, data)
}

// sameAsYAML checks that Parse (which takes the fast path when it can)
// agrees exactly with the YAML path: Facts, Metadata, SHA256, and the error
// text including file:line:col. It returns whether the fast path decided.
//
// JSON with the escapes \/ or surrogate pairs, which yaml.v3 refuses, must
// be decided by the fast path exactly when it decides plainEscapes(data),
// and is then compared with the YAML path's reading of that rewrite (when
// the fast path declines, YAML's error stands). When
// the fast path succeeds, Facts and Metadata must also hold the values that
// encoding/json reads from data.
func sameAsYAML(t *testing.T, data []byte, lim Limits) (fast bool) {
	t.Helper()
	got, gotErr := Parse("e.yaml", data, lim)
	if looksLikeJSON(data) {
		_, fast, _ = parseJSON("e.json", data, lim.normalized(), "")
	}
	ref := data
	if plain, rewritten := plainEscapes(data); rewritten {
		if _, fastPlain, _ := parseJSON("e.json", plain, lim.normalized(), ""); fastPlain != fast {
			t.Fatalf("%q: fast path decided %v, but %v for the same JSON without \\/ and surrogate escapes", trim(data), fast, fastPlain)
		}
		if fast {
			ref = plain
		}
	}
	want, wantErr := viaYAMLAs(data, ref, lim)
	if fast && gotErr == nil {
		sameAsEncodingJSON(t, data, got)
	}
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("%q (fast %v): YAML path gives %v, Parse gives %v", trim(data), fast, wantErr, gotErr)
	}
	if wantErr != nil {
		if wantErr.Error() != gotErr.Error() {
			t.Fatalf("%q (fast %v): errors differ\n YAML: %v\n Parse: %v", trim(data), fast, wantErr, gotErr)
		}
		return fast
	}
	if !bytes.Equal(want.Facts, got.Facts) || !bytes.Equal(want.Metadata, got.Metadata) ||
		(want.Metadata == nil) != (got.Metadata == nil) || want.SHA256 != got.SHA256 {
		t.Fatalf("%q (fast %v): output differs\n YAML:  %s | %s\n Parse: %s | %s", trim(data), fast, want.Facts, want.Metadata, got.Facts, got.Metadata)
	}
	return fast
}

// sameAsEncodingJSON checks that env, parsed from the JSON data, holds the
// facts and metadata that encoding/json reads from data.
func sameAsEncodingJSON(t *testing.T, data []byte, env *Envelope) {
	t.Helper()
	var top map[string]any
	if err := json.Unmarshal(bytes.TrimPrefix(data, bom), &top); err != nil {
		t.Fatalf("%q: the fast path decided JSON that encoding/json refuses: %v", trim(data), err)
	}
	for _, part := range []struct {
		name string
		got  []byte
	}{{"facts", env.Facts}, {"metadata", env.Metadata}} {
		var got any
		if part.got != nil {
			if err := json.Unmarshal(part.got, &got); err != nil {
				t.Fatalf("%q: %s is not JSON: %v", trim(data), part.name, err)
			}
		}
		if !reflect.DeepEqual(got, top[part.name]) {
			t.Fatalf("%q: %s = %s, but encoding/json reads %#v", trim(data), part.name, part.got, top[part.name])
		}
	}
}

// validJSON is json.Valid after an optional UTF-8 BOM, which Parse allows.
func validJSON(data []byte) bool { return json.Valid(bytes.TrimPrefix(data, bom)) }

func trim(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// jsonCases are valid JSON. fast says whether the fast path must decide
// (true) or hand the document to YAML (false) because yaml.v3 reads it
// differently or refuses it.
var jsonCases = []struct {
	in   string
	fast bool
}{
	{`{"facts":{}}`, true},
	{`{"facts": {"a": [1, 2.5, "x", null, true, false, {"b": {}}]}, "metadata": {"k": "v"}}`, true},
	{`{"metadata": {"k": "v"}, "facts": {"z": 1, "a": 2}}`, true},
	{"\xef\xbb\xbf {\n\"facts\" : {\"a\"\t:\t1}\r\n}\r\n", true},
	{"\n\n  {\"facts\":\n\t{\"a\":\n\t\t[1,\r\n\t2]}}  \n", true},
	// Numbers, each as yaml.v3 resolves it.
	{`{"facts":{"a":1.0,"b":-0,"c":1e2,"d":1E+2,"e":0.1,"f":-0.0,"g":1e-400,"h":123456789012345678901234.5,"i":0,"j":-1,"k":0e5,"l":1e21,"m":1e-7,"n":5e-324,"o":1.7976931348623157e308}}`, true},
	{`{"facts":{"max":9223372036854775807,"min":-9223372036854775808}}`, true},
	{`{"facts":{"a":9223372036854775808}}`, true},                   // fits uint64: !!int, out of range
	{`{"facts":{"a":18446744073709551615}}`, true},                  // largest uint64
	{`{"facts":{"a":-9223372036854775809}}`, true},                  // !!float, out of range
	{`{"facts":{"a":10000000000000000000000}}`, true},               // !!float, out of range
	{`{"facts":{"a":1` + strings.Repeat("0", 400) + `}}`, true},     // beyond float64: !!str, out of range
	{`{"facts":{"a":1e999,"b":-1e999,"c":1.5E+400}}`, true},         // beyond float64: !!str, out of range
	{`{"facts":{"a":1e-400,"b":-1e-400}}`, true},                    // underflow rounds to 0
	{`{"facts":{"a":[1,2,` + strings.Repeat("9", 30) + `]}}`, true}, // error position in an array
	{`{"facts":{"a":0.000000000000000000000000000001,"b":100000000000000000000.0}}`, true},
	// Strings and escapes.
	{`{"facts":{"s":"tab\there \"q\" back\\ nl\n\r\b\f \u0000\u001f\u007f\u0085 \u00e9\u2028\u2029\uFFFE\uffff <&>"}}`, true},
	{`{"facts":{"k\u00e9y":"v","\"":1,"\\":2,"\u0000":3,"":4}}`, true},
	{"{\"facts\":{\"é中文😀\":\"é中文😀\xc2\xa0\xef\xbb\xbf\"}}", true},
	{`{"facts":{"1":"1","true":"true","~":"~","null":"null","<<":"<<","&a":"*a"}}`, true},
	// Escapes that YAML refuses: \/ and surrogate pairs are decoded by the
	// fast path (sameAsYAML compares them with their characters written
	// out); a lone or reversed surrogate is left to YAML's error.
	{`{"facts":{"a":"\/"}}`, true},
	{`{"facts":{"a":"ok \ud83d\ude00","b":"\uD83D\uDE00\ud800\udc00\udbff\udfff"}}`, true},
	{`{"facts":{"url":"https:\/\/x.test\/a\/b","k\/\ud83d\ude00":1,"n":1e400}}`, true},
	{`{"facts":{"\/":1,"/":2}}`, true},
	{`{"facts":{"\ud83d\ude00":1,"😀":2}}`, true},
	{`{"facts":"\ud83d\ude00\/"}`, true},
	{`{"f\/cts":{}}`, true},
	{"{\"facts\":{\"a\":\"\\/\\ud83d\\ude00\",\r\n\"b\":[\"\\/\",{\"c\":1,\"c\":2}]}}", true},
	{`{"facts":{"` + strings.Repeat(`\/`, 499) + `":1}}`, true},
	{`{"facts":{"` + strings.Repeat(`\/`, 500) + `":1}}`, false},
	{`{"facts":{"a":"\udc00"}}`, false},       // lone low surrogate
	{`{"facts":{"a":"\ud83d"}}`, false},       // lone high surrogate
	{`{"facts":{"a":"\ud83dx"}}`, false},      // high surrogate, then a character
	{`{"facts":{"a":"\ud83d\u0041"}}`, false}, // high surrogate, then no low one
	{`{"facts":{"a":"\ud83d\ud83d"}}`, false}, // two high surrogates
	{`{"facts":{"a":"\ude00\ud83d"}}`, false}, // reversed pair
	{`{"facts":{"a":"\ud83d\ude00\udc00"}}`, false},
	{"{\"facts\":{\"a\":\"x\u0085y\"}}", false},   // YAML folds a raw NEL
	{"{\"facts\":{\"a\":\"x\u2028y\"}}", false},   // a raw line separator
	{"{\"facts\":{\"a\":\"x\x7fy\"}}", false},     // YAML refuses DEL
	{"{\"facts\":{\"a\":\"x\xc2\x80y\"}}", false}, // and C1 controls
	{"{\"facts\":{\"a\":\"x\uffffy\"}}", false},   // and U+FFFF
	{"{\"facts\":{\"a\":\"x\xffy\"}}", false},     // invalid UTF-8
	// Whitespace that YAML treats differently.
	{"\t{\"facts\":{}}", false},
	{"{\"facts\":{}}\n\t\n", false},
	{"{\"facts\":{\"a\"\n:1}}", false},
	{"{\"facts\"\r:{}}", false},
	{`{"facts":{"` + strings.Repeat("k", 1030) + `":1}}`, false},
	{`{"facts":{"` + strings.Repeat("k", 990) + `":1}}`, true},
	// Top-level rules.
	{`{}`, true},
	{`{"fact":{}}`, true},
	{`{"facts":{},"metadata":{},"extra":1}`, true},
	{`{"facts":{},"facts":{}}`, true},
	{`{"facts":{},"metadata":null,"metadata":{}}`, true},
	{`{"facts":null}`, true},
	{`{"facts":[1]}`, true},
	{`{"facts":"x"}`, true},
	{`{"facts":"` + strings.Repeat("é", 50) + `"}`, true},
	{`{"facts":1.50}`, true},
	{`{"facts":true}`, true},
	{`{"facts":false}`, true},
	{`{"facts":"null"}`, true},
	{`{"facts":{},"metadata":null}`, true},
	{`{"facts":{},"metadata":[]}`, true},
	{`{"facts":{},"metadata":"m"}`, true},
	{`{"metadata":7,"facts":{"a":1e999999999999}}`, true},
	{`{"metadata":{"a":1,"a":2},"facts":{"b":1,"b":2}}`, true},
	{`{"metadata":{"a":1},"facts":{"b":[[[[[[[[[[1]]]]]]]]]]}}`, true},
	// Duplicate keys, small and large mappings, and positions after
	// multi-byte characters and CR line ends.
	{"{\"facts\":{\"é\":1,\r\n  \"ü\": 2, \"é\":3}}", true},
	{"{\"facts\":{\"a\":1,\r\"b\":[\"é\",\r\"ü\",{\"a\":1,\"a\":2}]}}", true},
	{`{"facts":{"a":1,"\u0061":2}}`, true},
	{`{"facts":{"` + strings.Repeat("x", 100) + `":1,"` + strings.Repeat("x", 100) + `":2}}`, true},
	{wideJSON(40, "k5"), true},
	{wideJSON(17, "k16"), true},
	{wideJSON(16, "k15"), true},
	{wideJSON(100, ""), true},
}

// wideJSON is a facts mapping of n keys, then dup repeated if it is set.
func wideJSON(n int, dup string) string {
	var b strings.Builder
	b.WriteString(`{"facts":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	if dup != "" {
		b.WriteString(`,"` + dup + `":{"inner":[` + dup[1:] + `]}`)
	}
	b.WriteString("}}")
	return b.String()
}

func TestJSONMatchesYAML(t *testing.T) {
	limits := []Limits{{}, {MaxDepth: 2}, {MaxDepth: 3}, {MaxBytes: 40}, {MaxBytes: 60, MaxDepth: 4}}
	for _, tt := range jsonCases {
		if !validJSON([]byte(tt.in)) {
			t.Errorf("%q is not valid JSON", tt.in)
			continue
		}
		for _, lim := range limits {
			if fast := sameAsYAML(t, []byte(tt.in), lim); fast != tt.fast && int64(len(tt.in)) <= lim.normalized().MaxBytes {
				t.Errorf("%q with %+v: fast path decided %v, want %v", trim([]byte(tt.in)), lim, fast, tt.fast)
			}
		}
	}
}

// TestJSONFastPathDepth checks depth counting and errors at every limit near
// the nesting of the document, and nesting past yaml.v3's own limit.
func TestJSONFastPathDepth(t *testing.T) {
	nest := func(n int, open, close string) string {
		return `{"facts":{"a":` + strings.Repeat(open, n) + "1" + strings.Repeat(close, n) + `}}`
	}
	for _, n := range []int{1, 2, 3, 5} {
		for d := 1; d <= n+2; d++ {
			sameAsYAML(t, []byte(nest(n, `[`, `]`)), Limits{MaxDepth: d})
			sameAsYAML(t, []byte(nest(n, `{"b":`, `}`)), Limits{MaxDepth: d})
		}
	}
	deep := []byte(nest(maxFlowLevel, "[", "]"))
	if sameAsYAML(t, deep, Limits{MaxDepth: HardMaxDepth}) {
		t.Error("the fast path decided a document past yaml.v3's nesting limit")
	}
	sameAsYAML(t, []byte(nest(maxFlowLevel-3, "[", "]")), Limits{MaxDepth: HardMaxDepth})
}

// TestJSONFastPathSize checks the size limit at every byte count around the
// output's size, so each place the limit is checked is hit.
func TestJSONFastPathSize(t *testing.T) {
	in := []byte(`{"facts":{"a":[1,"two",{"b":null}],"c":"\u00e9\n"},"metadata":{"m":[true,1e2]}}`)
	for n := int64(1); n <= int64(len(in))+5; n++ {
		sameAsYAML(t, in, Limits{MaxBytes: n})
	}
}

// TestJSONFastPathDeclines checks that the fast path never decides a
// document that is not valid JSON, so YAML flow mappings keep working.
func TestJSONFastPathDeclines(t *testing.T) {
	for _, in := range []string{
		`{facts: {a: 1}}`, `{"facts": {a: 1}}`, `{"facts": {"a": 1},}`, `{"facts": {"a": 'x'}}`,
		`{"facts": {"a": 01}}`, `{"facts": {"a": .5}}`, `{"facts": {"a": 1.}}`, `{"facts": {"a": +1}}`,
		`{"facts": {"a": 0x10}}`, `{"facts": {"a": NaN}}`, `{"facts": {"a": .inf}}`, `{"facts": {"a": 1}} # c`,
		`{"facts": {"a": 1}}` + "\n---\n{}", `{"facts": {"a": "x` + "\n" + `y"}}`, `{"facts": {"a": "\x"}}`,
		`{"facts": {"a": "\u12"}}`, `{"facts": {"a": [1 2]}}`, `{"facts": {"a": tru}}`, `{"facts": {"a": 1}`,
		`{"facts": {"a": 1}}}`, `{"facts": {"a": -}}`, `{"facts": {"a": 1e}}`, `{"facts": {"a": ~}}`,
		`{"facts": &x {"a": 1}}`, `{"facts": {"a": 1}, "metadata": {"b": *x}}`, `{"facts": !!map {}}`,
		`{"facts"` + "\x00" + `: {}}`, `{`, `{"`, `{"facts"`, `{"facts":`, `{"facts":{`,
	} {
		if _, fast, _ := parseJSON("e.json", []byte(in), DefaultLimits(), ""); fast {
			t.Errorf("parseJSON decided %q, which is not valid JSON", in)
		}
		sameAsYAML(t, []byte(in), DefaultLimits())
	}
}

func FuzzJSONMatchesYAML(f *testing.F) {
	for _, tt := range jsonCases {
		f.Add([]byte(tt.in), uint16(0), uint8(0))
	}
	f.Add([]byte(`{"facts":{"a":[1,"two",{"b":null}],"c":"\u00e9\n"},"metadata":{"m":[true,1e2]}}`), uint16(40), uint8(2))
	f.Add([]byte(`{"facts":{"a":[[[[1]]]]}}`), uint16(0), uint8(3))
	f.Add([]byte(`{facts: {a: 1}}`), uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, maxBytes uint16, maxDepth uint8) {
		lim := Limits{MaxBytes: int64(maxBytes), MaxDepth: int(maxDepth)}
		if _, fast, _ := parseJSON("e.json", data, lim.normalized(), ""); fast && !validJSON(data) {
			t.Fatalf("parseJSON decided %q, which is not valid JSON", data)
		}
		sameAsYAML(t, data, lim)
	})
}

// jsonRecords is a JSON envelope whose facts hold an array of n records,
// about 50 bytes each: the shape of a large generated report.
func jsonRecords(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"metadata": {"agent": "bench"}, "facts": {"results": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"file": "pkg/sub/file_` + strconv.Itoa(i) + `.go", "line": ` + strconv.Itoa(i*7) + `, "ok": true, "tags": ["a", "b"], "ratio": 0.5}`)
	}
	b.WriteString("]}}\n")
	return b.Bytes()
}

func benchJSON(b *testing.B, data []byte, parse func() error) {
	b.Helper()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := parse(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseJSON100kArray(b *testing.B) {
	data := jsonRecords(100000)
	b.Run("fast", func(b *testing.B) {
		benchJSON(b, data, func() error { _, err := Parse("bench.json", data, DefaultLimits()); return err })
	})
	b.Run("yaml", func(b *testing.B) {
		benchJSON(b, data, func() error { _, err := viaYAML(data, DefaultLimits()); return err })
	})
}
