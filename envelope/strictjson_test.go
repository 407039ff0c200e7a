package envelope

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestStrictJSONErrors checks that a .json envelope is held to RFC 8259,
// with a "not valid JSON" message at the offending line and column, where
// YAML would have accepted the same bytes.
func TestStrictJSONErrors(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"trailing comma in object", `{"facts": {"a": 1,}}`,
			`e.json:1:19: not valid JSON: unexpected } (a trailing comma or a missing value); expected a double-quoted key`},
		{"trailing comma in array", "{\"facts\": {\"a\": [1, 2,\n]}}",
			`e.json:2:1: not valid JSON: unexpected ] (a trailing comma or a missing value); expected a value`},
		{"trailing comma at top", `{"facts": {},}`,
			`e.json:1:14: not valid JSON: unexpected } (a trailing comma or a missing value); expected a double-quoted key`},
		{"leading zero", `{"facts": {"a": 01}}`,
			`e.json:1:17: not valid JSON: a number may not have leading zeros (01); write 1, or quote it as a string`},
		{"negative leading zero", `{"facts": {"a": -007}}`,
			`e.json:1:17: not valid JSON: a number may not have leading zeros (01); write 1, or quote it as a string`},
		{"single-quoted value", `{"facts": {"a": 'x'}}`,
			`e.json:1:17: not valid JSON: single quotes are not JSON; use double quotes`},
		{"single-quoted key", `{'facts': {}}`,
			`e.json:1:2: not valid JSON: single quotes are not JSON; use double quotes`},
		{"bare NaN", `{"facts": {"a": NaN}}`,
			`e.json:1:17: not valid JSON: NaN and Infinity are not JSON numbers; write a string or null`},
		{"bare -Infinity", "{\"facts\": {\n  \"a\": -Infinity}}",
			`e.json:2:8: not valid JSON: NaN and Infinity are not JSON numbers; write a string or null`},
		{"line comment", "{\"facts\": {\"a\": 1} // done\n}",
			`e.json:1:20: not valid JSON: comments are not allowed in JSON; remove them`},
		{"hash comment after object", "{\"facts\": {}}\n# done",
			`e.json:2:1: not valid JSON: comments are not allowed in JSON; remove them`},
		{"block comment before key", `{/* x */ "facts": {}}`,
			`e.json:1:2: not valid JSON: comments are not allowed in JSON; remove them`},
		{"unquoted key", `{facts: {}}`,
			`e.json:1:2: not valid JSON: unexpected character 'f'; expected a double-quoted key`},
		{"lone high surrogate", `{"facts": {"a": "x\ud800y"}}`,
			`e.json:1:19: not valid JSON: a \u escape of a lone UTF-16 surrogate is not a character; escape a pair (\ud83d\ude00) or write the character`},
		{"lone low surrogate", "{\"facts\":\n {\"ab\": \"\\udc00\"}}",
			`e.json:2:10: not valid JSON: a \u escape of a lone UTF-16 surrogate is not a character; escape a pair (\ud83d\ude00) or write the character`},
		{"unknown escape", `{"facts": {"a": "\x"}}`,
			`e.json:1:18: not valid JSON: unknown escape \x; JSON allows \" \\ \/ \b \f \n \r \t \uXXXX`},
		{"raw line break in string", "{\"facts\": {\"a\": \"x\ny\"}}",
			`e.json:1:19: not valid JSON: a control character (a raw line break or tab) in a string; escape it (\n, \t)`},
		{"invalid UTF-8", "{\"facts\": {\"a\": \"\xff\"}}",
			`e.json:1:18: not valid JSON: invalid UTF-8; JSON text must be UTF-8`},
		{"plus sign", `{"facts": {"a": +1}}`,
			`e.json:1:17: not valid JSON: unexpected character '+'; expected a value`},
		{"half number", `{"facts": {"a": 1.}}`,
			`e.json:1:17: not valid JSON: malformed number; write digits with an optional fraction and exponent (1, -2.5, 1e3)`},
		{"second document", "{\"facts\": {}}\n---\n{}",
			`e.json:2:1: not valid JSON: unexpected text after the top-level object; an envelope is one JSON object`},
		{"truncated", `{"facts": {"a": [1`,
			`e.json:1:19: not valid JSON: unexpected end of file; expected , or ]`},
		{"yaml document", "facts:\n  a: 1\n",
			`e.json:1:1: not valid JSON: unexpected character 'f'; expected { (the envelope is a JSON object)`},
		{"empty", "",
			`e.json:1:1: not valid JSON: unexpected end of file; expected { (the envelope is a JSON object)`},
		{"too deep", strings.Repeat("[", maxFlowLevel+5),
			`e.json:1:1: not valid JSON: unexpected character '['; expected { (the envelope is a JSON object)`},
		{"nests past the scanner bound", `{"facts": ` + strings.Repeat("[", maxFlowLevel+5),
			`e.json:1:10010: not valid JSON: objects and arrays nest deeper than 10000 levels; flatten the data`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("e.json", []byte(tt.in), DefaultLimits())
			if err == nil {
				t.Fatalf("Parse accepted %q", tt.in)
			}
			if err.Error() != tt.want {
				t.Errorf("Parse(%q)\n got: %v\nwant: %s", tt.in, err, tt.want)
			}
		})
	}
}

// TestStrictJSONYAMLKeepsItsRules checks that the same lenient text in a
// .yaml envelope is still read by YAML's rules.
func TestStrictJSONYAMLKeepsItsRules(t *testing.T) {
	for _, tt := range []struct{ in, facts string }{
		{`{"facts": {"a": 1,}}`, `{"a":1}`},
		{`{"facts": {"a": 'x'}}`, `{"a":"x"}`},
		{`{"facts": {"a": NaN}}`, `{"a":"NaN"}`},
		{"{\"facts\": {\"a\": 1}} # c", `{"a":1}`},
	} {
		env, err := Parse("e.yaml", []byte(tt.in), DefaultLimits())
		if err != nil {
			t.Fatalf("Parse(e.yaml, %q): %v", tt.in, err)
		}
		if string(env.Facts) != tt.facts {
			t.Errorf("Parse(e.yaml, %q) facts %s, want %s", tt.in, env.Facts, tt.facts)
		}
	}
}

// TestStrictJSONAcceptsWhatYAMLRefuses checks valid JSON that yaml.v3
// refuses or reads differently: a .json envelope reads it as JSON.
func TestStrictJSONAcceptsWhatYAMLRefuses(t *testing.T) {
	long := strings.Repeat("k", 1100)
	for _, tt := range []struct{ in, facts string }{
		{"\t{\"facts\": {\"a\": 1}}\t\n", `{"a":1}`},
		{"{\"facts\": {\"a\"\n: 1}}", `{"a":1}`},
		{`{"facts": {"` + long + `": 1}}`, `{"` + long + `":1}`},
		{"{\"facts\": {\"a\": \"x\x7fy\u0085z\"}}", "{\"a\":\"x\x7fy\u0085z\"}"},
		{"{\"facts\": {\"a\u2028\": \"x\u2029\"}}", `{"a\u2028":"x\u2029"}`},
		{"{\"facts\": {\"a\": \"\\n\u2028\"}}", `{"a":"\n\u2028"}`},
		{`{"facts": {"a": "\ud83d\ude00\/"}}`, `{"a":"😀/"}`},
		{`{"facts": {"a": 1e2, "b": -0, "c": 9223372036854775807}}`, `{"a":100,"b":0,"c":9223372036854775807}`},
	} {
		env, err := Parse("E.JSON", []byte(tt.in), DefaultLimits())
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.in, err)
		}
		if string(env.Facts) != tt.facts {
			t.Errorf("Parse(%q) facts %s, want %s", tt.in, env.Facts, tt.facts)
		}
	}
}

// FuzzStrictJSON checks the .json reading against encoding/json: Parse
// accepts only valid UTF-8 JSON without lone surrogate escapes, and what it
// accepts holds the values encoding/json reads.
func FuzzStrictJSON(f *testing.F) {
	for _, tt := range jsonCases {
		f.Add([]byte(tt.in))
	}
	f.Add([]byte(`{"facts": {"a": 1,}}`))
	f.Add([]byte(`{"facts": {"a": "\ud800"}}`))
	f.Add([]byte("\t{\"facts\": {\"a\u2028\": [01]}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		env, err := Parse("e.json", data, DefaultLimits())
		if err == nil && !validStrict(data) {
			t.Fatalf("Parse accepted %q, which is not strict JSON", data)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "e.json:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		sameAsEncodingJSON(t, data, env)
	})
}

// validStrict is RFC 8259 as the fast path reads it: encoding/json's
// grammar, UTF-8 text, and no lone surrogate escapes (which encoding/json
// would silently replace).
func validStrict(data []byte) bool {
	data = bytes.TrimPrefix(data, bom)
	if !json.Valid(data) || !utf8.Valid(data) {
		return false
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return false
	}
	return !bytes.Contains(mustMarshal(v), []byte("\ufffd")) || bytes.Contains(data, []byte("\ufffd")) || bytes.Contains(data, []byte(`\ufffd`)) || bytes.Contains(data, []byte(`\uFFFD`))
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
