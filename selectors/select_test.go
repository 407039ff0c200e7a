package selectors

import (
	"testing"

	"github.com/tidwall/gjson"
)

const sampleFacts = `{
  "a": {"b": {"c": 42}, "n": null, "s": "str", "arr": [10, 20, null, 30]},
  "items": [
    {"id": 1, "tags": ["x"], "sub": [{"v": 1}, {"v": 2}]},
    {"id": 2, "tags": ["y", "z"], "sub": []},
    {"tags": null, "sub": [{"v": null}, {"v": 3}, {"w": 4}]},
    {"id": null, "sub": {"v": 5}},
    "scalar",
    null,
    {"id": 5}
  ],
  "empty": [],
  "obj": {"k": 1},
  "str": "hello",
  "num": 3.5,
  "yes": true,
  "nothing": null,
  "matrix": [[1, 2], [3], [], null, "x"],
  "odd": {
    "a.b": "dot", "*": "star", "?": "question", "#": "hash", "@this": "at",
    "a|b": "pipe", "back\\slash": "backslash", "qu\"ote": "quote",
    "first key": "space", "é😀": "unicode", "": "empty", "0": "zero",
    "\u00e9t\u00e9": "escaped in JSON", "[0]": "brackets", "a*": "glob"
  },
  "numkeys": {"0": "key zero", "1": "key one"},
  "list": ["index zero", "index one"]
}`

type selectCase struct {
	name    string
	facts   string // sampleFacts when empty
	sel     string
	present bool
	raw     string // Value.Raw when present
	warning string // exact Warning
}

func runSelectCases(t *testing.T, tests []selectCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.facts
			if src == "" {
				src = sampleFacts
			}
			if !gjson.Valid(src) {
				t.Fatalf("test facts are not valid JSON: %s", src)
			}
			sel, err := Parse(tt.sel)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.sel, err)
			}
			got := sel.Select(gjson.Parse(src))
			if got.Present != tt.present {
				t.Fatalf("Select(%q).Present = %v (value %s), want %v", tt.sel, got.Present, got.Value.Raw, tt.present)
			}
			if tt.present {
				if got.Value.Raw != tt.raw {
					t.Errorf("Select(%q).Value.Raw = %s, want %s", tt.sel, got.Value.Raw, tt.raw)
				}
				if !gjson.Valid(got.Value.Raw) {
					t.Errorf("Select(%q).Value.Raw %q is not valid JSON", tt.sel, got.Value.Raw)
				}
			}
			if got.Warning != tt.warning {
				t.Errorf("Select(%q).Warning = %q, want %q", tt.sel, got.Warning, tt.warning)
			}
		})
	}
}

func TestSelectPlainPaths(t *testing.T) {
	runSelectCases(t, []selectCase{
		{name: "nested keys", sel: "a.b.c", present: true, raw: "42"},
		{name: "object value", sel: "a.b", present: true, raw: `{"c": 42}`},
		{name: "string", sel: "str", present: true, raw: `"hello"`},
		{name: "number", sel: "num", present: true, raw: "3.5"},
		{name: "boolean", sel: "yes", present: true, raw: "true"},
		{name: "empty array is present", sel: "empty", present: true, raw: "[]"},
		{name: "index", sel: "a.arr[1]", present: true, raw: "20"},
		{name: "last index", sel: "a.arr[3]", present: true, raw: "30"},
		{name: "index into nested array", sel: "matrix[0][1]", present: true, raw: "2"},
		{name: "missing key", sel: "a.zzz", present: false},
		{name: "missing top key", sel: "zzz", present: false},
		{name: "missing deeper", sel: "zzz.y.x", present: false},
		{name: "index out of range", sel: "a.arr[4]", present: false},
		{name: "index far out of range", sel: "a.arr[2147483647]", present: false},
		{name: "index into empty array", sel: "empty[0]", present: false},
		{name: "key step on array", sel: "a.arr.x", present: false},
		{name: "key step on string", sel: "str.x", present: false},
		{name: "key step on number", sel: "num.x", present: false},
		{name: "index step on object", sel: "obj[0]", present: false},
		{name: "index step on string", sel: "str[0]", present: false},
		{name: "index on facts mapping", sel: "[0]", present: false},
		{name: "null is absent", sel: "nothing", present: false},
		{name: "nested null is absent", sel: "a.n", present: false},
		{name: "null array element is absent", sel: "a.arr[2]", present: false},
		{name: "step through null", sel: "a.n.x", present: false},
		{name: "index through null", sel: "nothing[0]", present: false},
		{name: "facts not an object", facts: `[1,2]`, sel: "a", present: false},
		{name: "facts empty object", facts: `{}`, sel: "a", present: false},
	})
}

func TestSelectExactKeys(t *testing.T) {
	runSelectCases(t, []selectCase{
		{name: "dot", sel: `odd["a.b"]`, present: true, raw: `"dot"`},
		{name: "star", sel: `odd.*`, present: true, raw: `"star"`},
		{name: "star quoted", sel: `odd["*"]`, present: true, raw: `"star"`},
		{name: "glob does not match", sel: `odd["a?"]`, present: false},
		{name: "glob key matches itself only", sel: `odd["a*"]`, present: true, raw: `"glob"`},
		{name: "question", sel: `odd.?`, present: true, raw: `"question"`},
		{name: "hash", sel: `odd.#`, present: true, raw: `"hash"`},
		{name: "at", sel: `odd.@this`, present: true, raw: `"at"`},
		{name: "modifier-like key that is missing", sel: `obj.@this`, present: false},
		{name: "hash on array is not a length", sel: `list.#`, present: false},
		{name: "pipe", sel: `odd.a|b`, present: true, raw: `"pipe"`},
		{name: "backslash", sel: `odd["back\\slash"]`, present: true, raw: `"backslash"`},
		{name: "backslash bare", sel: `odd.back\slash`, present: true, raw: `"backslash"`},
		{name: "quote", sel: `odd["qu\"ote"]`, present: true, raw: `"quote"`},
		{name: "space", sel: `odd["first key"]`, present: true, raw: `"space"`},
		{name: "unicode", sel: `odd.é😀`, present: true, raw: `"unicode"`},
		{name: "unicode escaped in selector", sel: `odd["\u00e9\ud83d\ude00"]`, present: true, raw: `"unicode"`},
		{name: "key escaped in JSON", sel: `odd.été`, present: true, raw: `"escaped in JSON"`},
		{name: "empty key", sel: `odd[""]`, present: true, raw: `"empty"`},
		{name: "brackets in key", sel: `odd["[0]"]`, present: true, raw: `"brackets"`},
		{name: "numeric key", sel: `odd.0`, present: true, raw: `"zero"`},
		{name: "numeric key on object", sel: `numkeys.1`, present: true, raw: `"key one"`},
		{name: "numeric key is not an array index", sel: `list.0`, present: false},
		{name: "array index is not a numeric key", sel: `numkeys[0]`, present: false},
		{name: "array index", sel: `list[1]`, present: true, raw: `"index one"`},
		{name: "prefix of a key does not match", sel: `odd.first`, present: false},
		{name: "case matters", sel: `OBJ.k`, present: false},
	})
}

func TestSelectFactsPrefix(t *testing.T) {
	runSelectCases(t, []selectCase{
		{
			name: "prefix dropped", sel: "facts.a.b.c", present: true, raw: "42",
			warning: `selector "facts.a.b.c" starts with "facts."; selectors are relative to the facts mapping, so it was read as "a.b.c"; drop the prefix`,
		},
		{
			name: "prefix dropped, still absent", sel: "facts.zzz", present: false,
			warning: `selector "facts.zzz" starts with "facts."; selectors are relative to the facts mapping, so it was read as "zzz"; drop the prefix`,
		},
		{
			name: "prefix before a bracket", sel: `facts["obj"].k`, present: true, raw: "1",
			warning: `selector "facts[\"obj\"].k" starts with "facts"; selectors are relative to the facts mapping, so it was read as "obj.k"; drop the prefix`,
		},
		{
			name: "quoted facts is a literal key", sel: `["facts"].obj`, present: false,
		},
		{
			name: "quoted facts reads the key facts", facts: `{"facts": {"a": 1}, "a": 2}`, sel: `["facts"].a`, present: true, raw: "1",
		},
		{
			name: "lone facts is absent", sel: "facts", present: false,
			warning: `selector "facts" names the key "facts", which the facts mapping does not have; selectors are relative to the facts mapping, so name a key inside it`,
		},
		// The envelope cannot steer a prefixed selector by adding a key
		// named facts: the prefix is dropped all the same.
		{
			name: "a facts key in the envelope does not redirect the prefix", facts: `{"facts": {"a": 1}, "a": 2}`, sel: "facts.a", present: true, raw: "2",
			warning: `selector "facts.a" starts with "facts."; selectors are relative to the facts mapping, so it was read as "a"; drop the prefix`,
		},
		{
			name: "real facts key, lone", facts: `{"facts": 7}`, sel: "facts", present: true, raw: "7",
		},
		{
			name: "a facts key holding null does not redirect", facts: `{"facts": null, "a": 2}`, sel: "facts.a", present: true, raw: "2",
			warning: `selector "facts.a" starts with "facts."; selectors are relative to the facts mapping, so it was read as "a"; drop the prefix`,
		},
		{
			name: "an empty facts key does not redirect", facts: `{"facts": {}, "a": 2}`, sel: "facts.a", present: true, raw: "2",
			warning: `selector "facts.a" starts with "facts."; selectors are relative to the facts mapping, so it was read as "a"; drop the prefix`,
		},
		{
			name: "facts.facts reaches a key named facts", facts: `{"facts": {"a": 1}, "a": 2}`, sel: "facts.facts.a", present: true, raw: "1",
			warning: `selector "facts.facts.a" starts with "facts."; selectors are relative to the facts mapping, so it was read as "[\"facts\"].a"; drop the prefix`,
		},
		{
			name: "facts later in the path is ordinary", facts: `{"a": {"facts": 3}}`, sel: "a.facts", present: true, raw: "3",
		},
		{
			name: "prefix with wildcard over non-array", sel: "facts.obj[*]", present: true, raw: "[]",
			warning: `selector "facts.obj[*]" starts with "facts."; selectors are relative to the facts mapping, so it was read as "obj[*]"; drop the prefix; "obj" is an object, not an array; [*] matched nothing`,
		},
		{
			name: "prefix then wildcard over the mapping", sel: "facts[*]", present: true, raw: "[]",
			warning: `selector "facts[*]" starts with "facts"; selectors are relative to the facts mapping, so it was read as "[*]"; drop the prefix; the facts mapping is an object, not an array; [*] matched nothing`,
		},
	})
}

func TestSelectWildcards(t *testing.T) {
	runSelectCases(t, []selectCase{
		{name: "all elements, nulls dropped", sel: "a.arr[*]", present: true, raw: "[10,20,30]"},
		{name: "field of each, missing and null dropped", sel: "items[*].id", present: true, raw: "[1,2,5]"},
		{name: "array values stay one element", sel: "items[*].tags", present: true, raw: `[["x"],["y", "z"]]`},
		{name: "index after wildcard", sel: "items[*].tags[0]", present: true, raw: `["x","y"]`},
		{name: "index directly after wildcard", sel: "matrix[*][0]", present: true, raw: "[1,3]"},
		{name: "index after wildcard out of range everywhere", sel: "matrix[*][5]", present: true, raw: "[]"},
		{name: "nested wildcards flatten", sel: "items[*].sub[*].v", present: true, raw: "[1,2,3]"},
		{name: "nested wildcards over arrays of arrays", sel: "matrix[*][*]", present: true, raw: "[1,2,3]"},
		{name: "inner non-array is dropped silently", sel: "items[*].sub[*]", present: true, raw: `[{"v": 1},{"v": 2},{"v": null},{"v": 3},{"w": 4}]`},
		{name: "whole elements", sel: "matrix[*]", present: true, raw: `[[1, 2],[3],[],"x"]`},
		{name: "objects and scalars kept in order", sel: "items[*].sub", present: true, raw: `[[{"v": 1}, {"v": 2}],[],[{"v": null}, {"v": 3}, {"w": 4}],{"v": 5}]`},
		{name: "over empty array", sel: "empty[*]", present: true, raw: "[]"},
		{name: "over empty array with more steps", sel: "empty[*].a[*].b", present: true, raw: "[]"},
		{name: "nothing matched below", sel: "items[*].zzz", present: true, raw: "[]"},
		{name: "prefix missing", sel: "zzz[*]", present: false},
		{name: "prefix missing deeper", sel: "a.zzz[*].b", present: false},
		{name: "prefix null", sel: "nothing[*]", present: false},
		{name: "prefix index out of range", sel: "list[9][*]", present: false},
		{name: "prefix through non-object", sel: "str.x[*]", present: false},
		{
			name: "prefix is an object", sel: "obj[*]", present: true, raw: "[]",
			warning: `"obj" is an object, not an array; [*] matched nothing`,
		},
		{
			name: "prefix is a string", sel: "str[*].x", present: true, raw: "[]",
			warning: `"str" is a string, not an array; [*] matched nothing`,
		},
		{
			name: "prefix is a number", sel: "num[*]", present: true, raw: "[]",
			warning: `"num" is a number, not an array; [*] matched nothing`,
		},
		{
			name: "prefix is a boolean", sel: "yes[*]", present: true, raw: "[]",
			warning: `"yes" is a boolean, not an array; [*] matched nothing`,
		},
		{
			name: "prefix with odd key named canonically", sel: `odd["a.b"][*]`, present: true, raw: "[]",
			warning: `"odd[\"a.b\"]" is a string, not an array; [*] matched nothing`,
		},
		{
			name: "wildcard over the mapping", sel: "[*]", present: true, raw: "[]",
			warning: `the facts mapping is an object, not an array; [*] matched nothing`,
		},
		{name: "wildcard over an array facts", facts: `[1,null,{"a":2}]`, sel: "[*]", present: true, raw: `[1,{"a":2}]`},
		{name: "example from the brief", facts: `{"a":[{"b":[1,2]},{"b":[3]}]}`, sel: "a[*].b[*]", present: true, raw: "[1,2,3]"},
		{name: "tags example from the brief", facts: `{"a":[{"tags":["x"]},{"tags":["y","z"]}]}`, sel: "a[*].tags", present: true, raw: `[["x"],["y","z"]]`},
		{name: "strings with commas survive", facts: `{"a":["x,y","]"]}`, sel: "a[*]", present: true, raw: `["x,y","]"]`},
		{name: "whitespace in source", facts: "{\"a\" : [ 1 ,\n 2 ] }", sel: "a[*]", present: true, raw: `[1,2]`},
	})
}

func TestSelectWildcardValueIsParsedArray(t *testing.T) {
	got := MustParse("items[*].id").Select(gjson.Parse(sampleFacts))
	if !got.Value.IsArray() {
		t.Fatalf("Value is %v, want an array", got.Value.Type)
	}
	var ids []int64
	for _, v := range got.Value.Array() {
		ids = append(ids, v.Int())
	}
	if len(ids) != 3 || ids[0] != 1 || ids[1] != 2 || ids[2] != 5 {
		t.Errorf("ids = %v, want [1 2 5]", ids)
	}
	if n := got.Value.Get("#").Int(); n != 3 {
		t.Errorf(`Value.Get("#") = %d, want 3`, n)
	}
}

// TestLookupKeyPathsAgree checks that gjson's path lookup, used for plain
// keys, finds exactly what the decoded-key scan finds.
func TestLookupKeyPathsAgree(t *testing.T) {
	obj := gjson.Parse(`{"a":1,"A":2,"0":3,"a-b":4,"a_b":5,"\u00e9":6,"é2":7,"x\"y":8,"":9,"k":{"k":10},"dup":11,"dup":12,"nul":null}`)
	keys := []string{"a", "A", "0", "a-b", "a_b", "é", "é2", `x"y`, "", "k", "dup", "nul", "missing", "1", "-", "ab"}
	for _, k := range keys {
		want, wantOK := scanKey(obj, k)
		got, gotOK := lookupKey(obj, k)
		if gotOK != wantOK || got.Raw != want.Raw {
			t.Errorf("key %q: lookupKey = (%q, %v), scanKey = (%q, %v)", k, got.Raw, gotOK, want.Raw, wantOK)
		}
	}
	if v, ok := lookupKey(obj, "dup"); !ok || v.Raw != "11" {
		t.Errorf("duplicate key: got (%q, %v), want the first value 11", v.Raw, ok)
	}
	if v, ok := lookupKey(gjson.Parse(`[1,2]`), "0"); ok {
		t.Errorf("lookupKey on an array found %q; keys must not index arrays", v.Raw)
	}
}
