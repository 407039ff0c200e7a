package envelope

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/yamldoc"
)

func TestParseValid(t *testing.T) {
	tests := []struct {
		name, in    string
		facts, meta string // meta "" means Metadata must be nil
	}{
		{"empty facts", "facts: {}\n", `{}`, ""},
		{"order kept", "facts:\n  z: 1\n  a: 2\n  m: 3\n", `{"z":1,"a":2,"m":3}`, ""},
		{"scalars", "facts: {n: ~, e: null, t: true, f: False, i: -42, p: +7, x: 0x1F, o: 0o17, old: 012, u: 1_000, fl: 2.5, ex: 3.0e2, neg0: -0.0, s: hello}",
			`{"n":null,"e":null,"t":true,"f":false,"i":-42,"p":7,"x":31,"o":15,"old":10,"u":1000,"fl":2.5,"ex":300,"neg0":-0,"s":"hello"}`, ""},
		{"int64 bounds", "facts: {max: 9223372036854775807, min: -9223372036854775808}",
			`{"max":9223372036854775807,"min":-9223372036854775808}`, ""},
		{"tiny and huge floats", "facts: {a: 1e-7, b: 1.5e300, c: .5}", `{"a":1e-07,"b":1.5e+300,"c":0.5}`, ""},
		{"quoted stay strings", `facts: {a: "1", b: 'true', c: "~", d: "0x10"}`, `{"a":"1","b":"true","c":"~","d":"0x10"}`, ""},
		{"explicit str tag", "facts: {a: !!str 12}", `{"a":"12"}`, ""},
		{"explicit int and float tags", `facts: {a: !!int "12", b: !!float 3, c: !!float "1e3"}`, `{"a":12,"b":3,"c":1000}`, ""},
		{"timestamp binary custom", "facts: {d: 2001-12-14, ts: 2001-12-14t21:59:43.10-05:00, b: !!binary aGk=, c: !shell ls -l}",
			`{"d":"2001-12-14","ts":"2001-12-14t21:59:43.10-05:00","b":"aGk=","c":"ls -l"}`, ""},
		{"keys are text", "facts: {1: a, true: b, ~: c, 2.50: d}", `{"1":"a","true":"b","~":"c","2.50":"d"}`, ""},
		{"quoted merge-like key is a string", `facts: {"<<": 1}`, `{"<<":1}`, ""},
		{"escapes", `facts: {s: "tab\there \"q\" back\\ nl\n bell\a del\x7f ls\u2028 e\u00e9 <&>"}`,
			`{"s":"tab\there \"q\" back\\ nl\n bell\u0007 del` + "\x7f" + ` ls\u2028 e` + "\u00e9" + ` <&>"}`, ""},
		{"block scalars", "facts:\n  lit: |\n    a\n    b\n  fold: >\n    a\n    b\n", `{"lit":"a\nb\n","fold":"a b\n"}`, ""},
		{"nested", "facts:\n  a:\n    - b: [1, {c: []}]\n    - {}\n", `{"a":[{"b":[1,{"c":[]}]},{}]}`, ""},
		{"aliases expand", "facts:\n  base: &b {x: 1, y: [2]}\n  copy: *b\n  list: [*b, *b]\n", `{"base":{"x":1,"y":[2]},"copy":{"x":1,"y":[2]},"list":[{"x":1,"y":[2]},{"x":1,"y":[2]}]}`, ""},
		{"alias key", "facts: {a: &k name, *k : v}", `{"a":"name","name":"v"}`, ""},
		{"facts via alias from metadata", "metadata: &m {a: 1}\nfacts: *m\n", `{"a":1}`, `{"a":1}`},
		{"metadata", "metadata:\n  agent: bot\n  run: 3\nfacts: {a: 1}\n", `{"a":1}`, `{"agent":"bot","run":3}`},
		{"null metadata is absent", "metadata:\nfacts: {a: 1}\n", `{"a":1}`, ""},
		{"json input", `{"facts": {"a": [1, 2.5, "x", null, true, {"b": {}}]}, "metadata": {"k": "v"}}`,
			`{"a":[1,2.5,"x",null,true,{"b":{}}]}`, `{"k":"v"}`},
		{"explicit document markers", "---\nfacts: {a: 1}\n...\n", `{"a":1}`, ""},
		{"comments only around", "# hi\nfacts: {a: 1} # there\n# bye\n", `{"a":1}`, ""},
		{"big key mapping dedup path", bigMapping(40, false), bigMappingJSON(40), ""},
		{"NaN-like text quoted", `facts: {a: ".nan"}`, `{"a":".nan"}`, ""},
		{"quoted, tagged or block numbers out of range stay strings", "facts: {a: \"1e400\", b: '1e400', c: !!str 1e400, d: \"0xFFFFFFFFFFFFFFFFFF\", e: 1e400x, f: 1_0e400}\nmetadata:\n  g: |-\n    1e400\n",
			`{"a":"1e400","b":"1e400","c":"1e400","d":"0xFFFFFFFFFFFFFFFFFF","e":"1e400x","f":"1_0e400"}`, `{"g":"1e400"}`},
		// Past 2^53 a float cannot hold every integer: a whole number
		// written as a decimal keeps its exact value.
		{"whole decimals stay exact", "facts: {a: 9007199254740993.0, b: 9.007199254740993e15, c: -9007199254740993.0}", `{"a":9007199254740993,"b":9007199254740993,"c":-9007199254740993}`, ""},
		{"python json.dumps emoji", `{"facts": {"x": "ok \ud83d\ude00"}}`, `{"x":"ok 😀"}`, ""},
		{"php slash escape", `{"facts":{"url":"https:\/\/example.com\/a"}}`, `{"url":"https://example.com/a"}`, ""},
		{"leading zero 09 is a float to YAML", "facts: {a: 09}", `{"a":9}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, err := Parse("e.yaml", []byte(tt.in), DefaultLimits())
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !json.Valid(env.Facts) {
				t.Fatalf("facts are not valid JSON: %s", env.Facts)
			}
			if diff := cmp.Diff(tt.facts, string(env.Facts)); diff != "" {
				t.Errorf("facts (-want +got):\n%s", diff)
			}
			if tt.meta == "" {
				if env.Metadata != nil {
					t.Errorf("metadata = %s, want nil", env.Metadata)
				}
			} else if diff := cmp.Diff(tt.meta, string(env.Metadata)); diff != "" {
				t.Errorf("metadata (-want +got):\n%s", diff)
			}
			if len(env.SHA256) != 64 || env.File != "e.yaml" {
				t.Errorf("File/SHA256 = %q/%q", env.File, env.SHA256)
			}
		})
	}
}

func bigMapping(n int, dup bool) string {
	var b strings.Builder
	b.WriteString("facts:\n")
	for i := range n {
		b.WriteString("  k")
		b.WriteString(itoa(i))
		b.WriteString(": ")
		b.WriteString(itoa(i))
		b.WriteString("\n")
	}
	if dup {
		b.WriteString("  k3: again\n")
	}
	return b.String()
}

func bigMappingJSON(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + itoa(i) + `":` + itoa(i))
	}
	b.WriteByte('}')
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in  string
		lim       Limits
		line, col int
		msg       string
	}{
		{"empty file", "", Limits{}, 0, 0, "the envelope is empty; write a mapping with a top-level facts: key"},
		{"comment only", "# nothing\n", Limits{}, 0, 0, "the envelope is empty"},
		{"empty document", "---\n", Limits{}, 2, 1, "the envelope is empty"},
		{"null document", "~\n", Limits{}, 1, 1, "the envelope is empty"},
		{"syntax error with line", "facts:\n  a: 1\n b: [\n", Limits{}, 3, 0, "not valid YAML: did not find expected key; fix the syntax"},
		{"syntax error in first line", "a: b: c\n", Limits{}, 0, 0, "not valid YAML: mapping values are not allowed in this context"},
		{"tab indentation", "facts:\n\ta: 1\n", Limits{}, 2, 0, "not valid YAML: found character that cannot start any token"},
		{"unknown anchor", "facts: {a: *nope}\n", Limits{}, 0, 0, "unknown anchor 'nope' referenced"},
		{"two documents", "facts: {}\n---\nfacts: {}\n", Limits{}, 2, 1, "more than one YAML document"},
		{"trailing empty document", "facts: {}\n---\n", Limits{}, 2, 1, "more than one YAML document"},
		{"second document broken", "facts: {}\n---\n[\n", Limits{}, 4, 0, "not valid YAML: did not find expected node content"},
		{"top level sequence", "- facts\n", Limits{}, 1, 1, "the top level of the envelope is a sequence, not a mapping"},
		{"top level scalar", "hello\n", Limits{}, 1, 1, `the top level of the envelope is a scalar, not a mapping`},
		{"no facts", "metadata: {}\n", Limits{}, 1, 1, "the envelope has no facts: key"},
		{"facts null", "facts:\n", Limits{}, 1, 1, "facts is empty (null); write facts: {} or a mapping"},
		{"facts tilde", "facts: ~\n", Limits{}, 1, 1, "write facts: {}"},
		{"facts sequence", "facts:\n  - a\n", Limits{}, 2, 3, "facts must be a mapping, not a sequence"},
		{"facts scalar", "facts: yes\n", Limits{}, 1, 8, `facts must be a mapping, not a scalar ("yes")`},
		{"metadata scalar", "facts: {}\nmetadata: x\n", Limits{}, 2, 11, "metadata must be a mapping"},
		{"typo key", "facts: {}\nfatcs: {}\n", Limits{}, 2, 1, `unknown top-level key "fatcs" (did you mean "facts"?)`},
		{"typo metadata", "facts: {}\nmetdata: {}\n", Limits{}, 2, 1, `unknown top-level key "metdata" (did you mean "metadata"?)`},
		{"unrelated key no hint", "facts: {}\nzzzzzzzzzz: 1\n", Limits{}, 2, 1, `unknown top-level key; only facts and metadata`},
		{"duplicate top key", "facts: {}\nfacts: {a: 1}\n", Limits{}, 2, 1, `duplicate key "facts" (first defined at line 1); remove one of them`},
		{"top merge key", "<<: {facts: {}}\n", Limits{}, 1, 1, "merge keys are not supported; write the keys out"},
		{"top sequence key", "[a]: 1\nfacts: {}\n", Limits{}, 1, 1, "a top-level key must be facts or metadata, not a sequence"},
		{"duplicate key", "facts:\n  tests: 1\n  other: 2\n  tests: 3\n", Limits{}, 4, 3, `duplicate key "tests" (first defined at line 2); remove one of them`},
		{"duplicate key big mapping", bigMapping(40, true), Limits{}, 42, 3, `duplicate key "k3" (first defined at line 5)`},
		{"duplicate key via different spelling", "facts: {1: a, \"1\": b}\n", Limits{}, 1, 15, `duplicate key "1" (first defined at line 1)`},
		{"duplicate in metadata", "facts: {}\nmetadata: {a: 1, a: 2}\n", Limits{}, 2, 18, `duplicate key "a"`},
		{"merge key", "facts:\n  base: &b {a: 1}\n  more:\n    <<: *b\n", Limits{}, 4, 5, "merge keys are not supported; write the keys out"},
		{"sequence key", "facts:\n  ? [a, b]\n  : 1\n", Limits{}, 2, 5, "a mapping key must be a scalar, not a sequence"},
		{"mapping key", "facts: {{a: 1}: 2}\n", Limits{}, 1, 9, "a mapping key must be a scalar, not a mapping"},
		{"int out of range", "facts:\n  id: 9223372036854775808\n", Limits{}, 2, 7, "integer out of range of a 64-bit signed integer; quote it to keep it as a string"},
		{"negative int out of range", "facts: {id: -9223372036854775809}\n", Limits{}, 1, 13, "integer out of range"},
		{"huge int", "facts: {id: 123456789012345678901234567890}\n", Limits{}, 1, 13, "integer out of range"},
		{"tagged int out of range", "facts: {id: !!int 99999999999999999999}\n", Limits{}, 1, 13, "integer out of range"},
		{"bad tagged int", "facts: {id: !!int abc}\n", Limits{}, 1, 13, `"abc" is not an integer`},
		{"bad tagged float", "facts: {x: !!float abc}\n", Limits{}, 1, 12, `"abc" is not a number`},
		{"bad tagged bool", "facts: {x: !!bool maybe}\n", Limits{}, 1, 12, `"maybe" is not a boolean`},
		{"float out of range", "facts:\n  y: 1e400\n", Limits{}, 2, 6, "number out of range of a 64-bit float; quote it to keep it as a string"},
		{"fraction a float makes whole", "facts:\n  y: 9007199254740993.5\n", Limits{}, 2, 6, `"9007199254740993.5": number is not a whole number, but a 64-bit float cannot tell it from one`},
		{"fraction a float makes whole, JSON", `{"facts": {"y": 9007199254740993.5}}`, Limits{}, 1, 17, `"9007199254740993.5": number is not a whole number`},
		{"float underflow", "facts:\n  y: 1e-400\n", Limits{}, 2, 6, `"1e-400": number is not a whole number`},
		{"float out of range flow", "facts: {a: 1, y: -1.5E+400}\n", Limits{}, 1, 18, "number out of range of a 64-bit float"},
		{"float out of range leading point", "facts: {y: .5e400}\n", Limits{}, 1, 12, "number out of range of a 64-bit float"},
		{"float out of range in metadata", "facts: {}\nmetadata: {y: 1e999}\n", Limits{}, 2, 15, "number out of range of a 64-bit float"},
		{"json float out of range", `{"facts": {"y": 1e400}}`, Limits{}, 1, 17, "number out of range of a 64-bit float; quote it to keep it as a string"},
		{"int too long for a float", "facts: {id: 1" + strings.Repeat("0", 400) + "}\n", Limits{}, 1, 13, "integer out of range of a 64-bit signed integer"},
		{"json int too long for a float", `{"facts": {"id": -1` + strings.Repeat("0", 400) + `}}`, Limits{}, 1, 18, "integer out of range of a 64-bit signed integer"},
		{"hex beyond 64 bits", "facts: {id: 0xFFFFFFFFFFFFFFFFFF}\n", Limits{}, 1, 13, "integer out of range of a 64-bit signed integer"},
		{"octal beyond 64 bits", "facts: {id: 0o7777777777777777777777777}\n", Limits{}, 1, 13, "integer out of range of a 64-bit signed integer"},
		{"json lone surrogate", `{"facts": {"a": "\ud83d"}}`, Limits{}, 0, 0, "not valid YAML: found invalid Unicode character escape code"},
		{"inf", "facts: {x: .inf}\n", Limits{}, 1, 12, `".inf" is not a finite number`},
		{"minus inf", "facts: {x: -.Inf}\n", Limits{}, 1, 12, "not a finite number"},
		{"nan", "facts:\n  x: .NaN\n", Limits{}, 2, 6, `".NaN" is not a finite number and JSON cannot hold it`},
		{"self alias", "facts:\n  a: &a [1, *a]\n", Limits{}, 2, 13, "alias *a refers to the value that contains it"},
		{"self alias in mapping", "facts: {a: &a {b: {c: *a}}}\n", Limits{}, 1, 23, "alias *a refers to the value that contains it"},
		{"facts anchored and aliased inside", "facts: &f {x: *f}\n", Limits{}, 1, 15, "alias *f refers to the value that contains it"},
		{"metadata cycle", "facts: {}\nmetadata: &m {a: [*m]}\n", Limits{}, 2, 19, "alias *m refers to the value that contains it"},
		{"json duplicate key", `{"facts": {"a": 1, "a": 2}}`, Limits{}, 1, 20, `duplicate key "a" (first defined at line 1)`},
		{"nul byte", "facts: {a: 1}\x00\n", Limits{}, 1, 14, "not valid YAML: control characters are not allowed (U+0000)"},
		// yaml.v3's reader gives no position for a character it refuses;
		// vouch finds it.
		{"nul in a string", "facts:\n  a: 1\n  b: \"x\x00y\"\n", Limits{}, 3, 8, "not valid YAML: control characters are not allowed (U+0000); fix the syntax"},
		{"byte 0xff in a string", "facts:\n  a: 1\n  b: \"x\xffy\"\n", Limits{}, 3, 8, "not valid YAML: invalid leading UTF-8 octet (byte 0xff); fix the syntax"},
		{"column counts characters", "facts:\n  é: \"日本\x7f\"\n", Limits{}, 2, 9, "control characters are not allowed (U+007F)"},
		{"truncated sequence", "facts:\r\n  a: \"\xe6\x97\"\r\n", Limits{}, 2, 7, "invalid trailing UTF-8 octet (byte 0xe6)"},
		{"C1 control", "facts:\n  a: 1\n\n  b: \"\xc2\x80\"\n", Limits{}, 4, 7, "control characters are not allowed (U+0080)"},
		{"too deep", "facts: {a: " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "}\n", Limits{}, 1, 12 + 255, "nest deeper than the limit of 256 levels here; flatten the data or raise the limit with --max-depth"},
		{"too deep custom", "facts:\n  a:\n    b:\n      c: 1\n", Limits{MaxDepth: 2}, 4, 7, "limit of 2 levels"},
		{"deep via alias", "facts: {a: &x [[1]], b: [*x]}\n", Limits{MaxDepth: 3}, 1, 16, "limit of 3 levels"},
		{"way too deep for yaml", "facts: " + strings.Repeat("[", 100000), Limits{}, 0, 0, "not valid YAML: exceeded max depth of 10000; flatten the data"},
		{"way too deep block", "facts:\n" + strings.Repeat("- ", 12000) + "1\n", Limits{}, 2, 0, "not valid YAML: exceeded max depth of 10000; flatten the data"},
		{"file over limit", "facts: {a: 1}\n", Limits{MaxBytes: 5}, 0, 0, "larger than the limit of 5 bytes; shrink it or raise the limit with --max-envelope-bytes"},
		{"json over limit", "facts: {a: ~, b: ~, c: ~, d: ~, e: ~}\n", Limits{MaxBytes: 40}, 1, 36, "the JSON for this envelope grows past the limit of 40 bytes here"},
		{"facts and metadata share budget", "facts: {a: ~, b: ~, c: ~}\nmetadata: {d: ~, e: ~, f: ~}\n", Limits{MaxBytes: 55}, 2, 11, "past the limit of 55 bytes"},
		{"billion laughs", billionLaughs, Limits{}, 10, 16, "alias *lol8 expands to more than 67108864 bytes of JSON"},
		{"string bomb", stringBomb, Limits{MaxBytes: 1 << 20}, 3, 7, "alias *s expands to at least 10002 bytes"},
		{"invalid utf8", "facts: {a: \"\xff\"}\n", Limits{}, 1, 13, "not valid YAML: invalid"},
		{"control character", "facts: {a: \"\x01\"}\n", Limits{}, 1, 13, "not valid YAML: control characters are not allowed (U+0001)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, err := Parse("envelope.yaml", []byte(tt.in), tt.lim)
			if err == nil {
				t.Fatalf("Parse succeeded with facts %s; want error %q", env.Facts, tt.msg)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			if e.File != "envelope.yaml" || e.Line != tt.line || e.Col != tt.col {
				t.Errorf("position = %s:%d:%d, want envelope.yaml:%d:%d (%v)", e.File, e.Line, e.Col, tt.line, tt.col, err)
			}
			if !strings.Contains(e.Msg, tt.msg) {
				t.Errorf("message %q does not contain %q", e.Msg, tt.msg)
			}
		})
	}
}

// billionLaughs is the classic alias bomb: ten levels of nine-fold repetition.
const billionLaughs = `facts:
  lol1: &lol1 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
  lol2: &lol2 [*lol1,*lol1,*lol1,*lol1,*lol1,*lol1,*lol1,*lol1,*lol1]
  lol3: &lol3 [*lol2,*lol2,*lol2,*lol2,*lol2,*lol2,*lol2,*lol2,*lol2]
  lol4: &lol4 [*lol3,*lol3,*lol3,*lol3,*lol3,*lol3,*lol3,*lol3,*lol3]
  lol5: &lol5 [*lol4,*lol4,*lol4,*lol4,*lol4,*lol4,*lol4,*lol4,*lol4]
  lol6: &lol6 [*lol5,*lol5,*lol5,*lol5,*lol5,*lol5,*lol5,*lol5,*lol5]
  lol7: &lol7 [*lol6,*lol6,*lol6,*lol6,*lol6,*lol6,*lol6,*lol6,*lol6]
  lol8: &lol8 [*lol7,*lol7,*lol7,*lol7,*lol7,*lol7,*lol7,*lol7,*lol7]
  lol9: &lol9 [*lol8,*lol8,*lol8,*lol8,*lol8,*lol8,*lol8,*lol8,*lol8]
  lolz: [*lol9,*lol9,*lol9,*lol9,*lol9,*lol9,*lol9,*lol9,*lol9]
`

// stringBomb repeats one long string through few aliases; the structure is
// tiny, so only counting string lengths catches it.
var stringBomb = "facts:\n  s: &s " + strings.Repeat("x", 10000) + "\n  r: [" + strings.TrimSuffix(strings.Repeat("*s, ", 200), ", ") + "]\n"

func TestErrorString(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{File: "e.yaml", Pos: yamldoc.Pos{Line: 4, Col: 3}, Msg: "bad"}, "e.yaml:4:3: bad"},
		{Error{File: "e.yaml", Pos: yamldoc.Pos{Line: 4}, Msg: "bad"}, "e.yaml:4: bad"},
		{Error{File: "e.yaml", Msg: "bad"}, "e.yaml: bad"},
		{Error{File: "e.yaml", Pos: yamldoc.Pos{Col: 7}, Msg: "bad"}, "e.yaml: bad"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("facts: {a: "+strings.Repeat("x", 100)+"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(filepath.Join(dir, "missing.yaml"), DefaultLimits())
	var e *Error
	if !errors.As(err, &e) || e.Msg != "no such file or directory" || e.Line != 0 || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: got %v, want *Error with the OS reason wrapping fs.ErrNotExist", err)
	}
	if _, err := Load(dir, DefaultLimits()); !errors.As(err, &e) || e.File != dir || !strings.Contains(e.Msg, "not a regular file but a directory") {
		t.Errorf("directory: got %v, want *Error saying it is a directory", err)
	}
	_, err = Load(big, Limits{MaxBytes: 50})
	if !errors.As(err, &e) || e.Error() != big+": the envelope is larger than the limit of 50 bytes; shrink it or raise the limit with --max-envelope-bytes" {
		t.Errorf("big file: got %v", err)
	}
	env, err := Load(big, DefaultLimits())
	if err != nil || string(env.Facts) != `{"a":"`+strings.Repeat("x", 100)+`"}` {
		t.Errorf("big file under default limit: %v", err)
	}
}

func TestLoadTestdata(t *testing.T) {
	tests := []struct {
		file, facts, meta, sha string
	}{
		{"pr_review.yaml",
			`{"action":"open_pull_request","repo":"vouch-dev/vouch","branch":"fix/flaky-test","files_changed":[{"path":"envelope/envelope.go","added":120,"removed":4},{"path":"envelope/envelope_test.go","added":300,"removed":0}],"tests":{"ran":true,"passed":412,"failed":0,"coverage":87.5},"reviewers":["alice","bob"],"labels":["bugfix","tests"],"also_labels":["bugfix","tests"],"notes":"Fixed a race in the loader.\nNo behaviour change.\n"}`,
			`{"agent":"claude-code","run_id":"7f3a9c","started":"2026-11-20T09:14:00Z"}`, ""},
		{"deploy.json",
			`{"action":"deploy","service":"billing","environment":"staging","replicas":3,"canary":{"percent":10.5,"healthy":true},"rollback_plan":null,"commands":["kubectl apply -f billing.yaml","kubectl rollout status deploy/billing"]}`,
			`{"agent":"ops-bot","ticket":"OPS-1142"}`, ""},
		{"shell.yaml",
			`{"action":"run_shell","command":"rm -rf ./build \u0026\u0026 make release","cwd":"/home/agent/project","network":false,"exit_code":0,"env":{"GOFLAGS":"-mod=readonly","1":"numeric key"},"limits":{"cpu":2,"memory_mb":1024,"timeout_s":300}}`,
			"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata", tt.file)
			env, err := Load(path, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			// Compare semantically for strings whose escaping json.Compact keeps.
			if diff := cmp.Diff(normalize(t, tt.facts), normalize(t, string(env.Facts))); diff != "" {
				t.Errorf("facts (-want +got):\n%s", diff)
			}
			if tt.meta != "" {
				if diff := cmp.Diff(tt.meta, string(env.Metadata)); diff != "" {
					t.Errorf("metadata (-want +got):\n%s", diff)
				}
			} else if env.Metadata != nil {
				t.Errorf("metadata = %s, want nil", env.Metadata)
			}
			raw, _ := os.ReadFile(path)
			if env2, _ := Parse(path, raw, DefaultLimits()); env2 == nil || env2.SHA256 != env.SHA256 {
				t.Errorf("SHA256 differs between Load and Parse")
			}
		})
	}
}

// normalize re-encodes JSON so that "\u0026" and "&" compare equal.
func normalize(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("invalid JSON %s: %v", s, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestSHA256(t *testing.T) {
	env, err := Parse("e.yaml", []byte("facts: {}\n"), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	// Computed independently with: printf 'facts: {}\n' | sha256sum
	const want = "59fe63f68c9401389b4f6e53840b7cfaa62696c2befc11e22c2c41ba55abce36"
	if env.SHA256 != want {
		t.Errorf("SHA256 = %s, want %s", env.SHA256, want)
	}
}

// TestAliasBombIsCheap checks that refusing billion laughs costs memory in
// proportion to the file, not to the 10^9-element expansion. TotalAlloc is
// cumulative, so the figure does not depend on when the GC runs.
func TestAliasBombIsCheap(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("bomb.yaml", []byte(billionLaughs), DefaultLimits())
	runtime.ReadMemStats(&after)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "alias *lol8 expands to more than") {
		t.Fatalf("got %v, want the alias bomb refused", err)
	}
	if spent := after.TotalAlloc - before.TotalAlloc; spent > 1<<20 {
		t.Errorf("refusing the bomb allocated %d bytes, want under 1 MiB", spent)
	}
}
