package selectors

import (
	"testing"

	"github.com/tidwall/gjson"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a", "a.b", "a[0]", "a[*]", "items[*].tags[0]", "a.b[2][*].c",
		`a["odd.key"]`, `["first key"].b`, `[""]`, `a["\u00e9\ud83d\ude00"]`,
		`a["x\"y\\z"]`, `a["\n\t"]`, "", ".", "a..b", "a.", ".a", "a[", `a["`,
		"a[01]", "a[-1]", "a[+1]", "a[99999999999]", "a[]", "a[b]", `"a".b`,
		"a b", "a[0]b", "a]", "a.[0]", `a["\ud800"]`, "a\xff", "日本.語[*]",
		"facts.a", `a["\u0000"]`, "\u0085", "a[\"\u0085\"]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sel, err := Parse(text)
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("Parse(%q) returned %T, want *SyntaxError", text, err)
			}
			return
		}
		if sel.String() != text {
			t.Fatalf("String() = %q, want %q", sel.String(), text)
		}
		if len(sel.Steps()) == 0 {
			t.Fatalf("Parse(%q) succeeded with no steps", text)
		}
		canon := sel.Canonical()
		again, err := Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) ok, but Parse(Canonical() = %q): %v", text, canon, err)
		}
		if !sel.Equal(again) {
			t.Fatalf("Parse(Canonical()) steps %+v, want %+v", again.Steps(), sel.Steps())
		}
		if again.Canonical() != canon {
			t.Fatalf("Canonical is not stable: %q then %q", canon, again.Canonical())
		}
	})
}

func FuzzSelect(f *testing.F) {
	f.Add("a.b", `{"a":{"b":1}}`)
	f.Add("a[*].b[*]", `{"a":[{"b":[1,2]},{"b":[3]},null,{"b":{"c":1}}]}`)
	f.Add("a[*][0]", `{"a":[[1],[],2,[null,3]]}`)
	f.Add("facts.x", `{"x":[1,2]}`)
	f.Add("facts.x", `{"facts":{"x":1}}`)
	f.Add(`["a.b"][*]`, `{"a.b":"str"}`)
	f.Add("[*]", `{}`)
	f.Add(`a[""].0`, `{"a":{"":{"0":"zero"}}}`)
	f.Add("a.b", `{"a":{"b":null}}`)
	f.Add("a[2]", `{"a":[1,2,"\u00e9"]}`)
	f.Add("k[*]", `{"k":["x,y","]","{",{"z":[]}]}`)
	f.Add("é.a-b", `{"\u00e9":{"a-b":1},"a":2}`)
	f.Add("x0.Y_1", `{"x0":{"Y_1":true,"y_1":false}}`)
	f.Fuzz(func(t *testing.T, selText, facts string) {
		sel, err := Parse(selText)
		if err != nil {
			return
		}
		if !gjson.Valid(facts) || !gjson.Parse(facts).IsObject() {
			return
		}
		root := gjson.Parse(facts)
		// The two key lookups must agree for every key the fuzzer invents.
		for _, st := range sel.Steps() {
			if st.Kind != Key {
				continue
			}
			a, aok := lookupKey(root, st.Key)
			b, bok := scanKey(root, st.Key)
			if aok != bok || a.Raw != b.Raw {
				t.Fatalf("key %q in %s: lookupKey (%q, %v), scanKey (%q, %v)", st.Key, facts, a.Raw, aok, b.Raw, bok)
			}
		}
		got := sel.Select(root)
		// A prepared Doc, with its key maps, must select exactly what a
		// plain scan selects; select twice so the second read hits the maps.
		doc := NewDoc(root)
		for range 2 {
			if viaDoc := sel.SelectDoc(doc); viaDoc.Present != got.Present || viaDoc.Value.Raw != got.Value.Raw || viaDoc.Warning != got.Warning {
				t.Fatalf("Select(%q) over %s: SelectDoc gave %+v, Select gave %+v", selText, facts, viaDoc, got)
			}
		}
		if !got.Present {
			if got.Value.Exists() {
				t.Fatalf("absent result carries a value %q", got.Value.Raw)
			}
			return
		}
		if !gjson.Valid(got.Value.Raw) {
			t.Fatalf("Select(%q) over %s gave invalid JSON %q", selText, facts, got.Value.Raw)
		}
		if got.Value.Type == gjson.Null {
			t.Fatalf("Select(%q) over %s is present but null", selText, facts)
		}
		if sel.HasWildcard() && !got.Value.IsArray() {
			t.Fatalf("Select(%q) has a wildcard but gave %s", selText, got.Value.Raw)
		}
	})
}
