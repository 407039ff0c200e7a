package rulespec

import (
	"os"
	"strings"
	"testing"
)

// allRules are the rule type constants; a new constant belongs here and in
// the table, or TestRuleTypeTable fails.
var allRules = []Rule{Exists, NotExists, Equals, Contains, NotContains, AnyOf, NoneOf, GreaterThan, LessThan,
	MinLength, MaxLength, Matches, FileExists, NoFileExists, SubsetOf, SupersetOf, SameSet}

// TestRuleTypeTable: every rule type has a complete descriptor, and the
// other places adding a rule type touches (its clauses, the schema, the
// docs) all know it.
func TestRuleTypeTable(t *testing.T) {
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	semantics := read("../compile/semantics.dl")
	schema := read("../schema/rulespec.schema.json")
	docs := read("../docs/rulespec.md")
	if len(Types()) != len(allRules) {
		t.Errorf("the table has %d rule types, the constants %d", len(Types()), len(allRules))
	}
	seen := map[Rule]bool{}
	for _, r := range allRules {
		typ, ok := r.Type()
		switch {
		case !ok:
			t.Errorf("%s has no descriptor", r)
			continue
		case typ.Must == "" || typ.Cond == "":
			t.Errorf("%s has no explain phrase (Must %q, Cond %q)", r, typ.Must, typ.Cond)
		case !strings.Contains(typ.Must, "{claim}") || !strings.Contains(typ.Cond, "{claim}"):
			t.Errorf("%s: its phrases do not name the claim", r)
		case typ.Absent == 0:
			t.Errorf("%s does not say what an absent claim does", r)
		case (typ.Value != NoValue) != strings.Contains(typ.Must, "{value}"):
			t.Errorf("%s: takes %s but its phrase %s the value", r, typ.Value.describe(), map[bool]string{true: "shows", false: "does not show"}[strings.Contains(typ.Must, "{value}")])
		}
		if seen[r] {
			t.Errorf("%s is in the table twice", r)
		}
		seen[r] = true
		if !strings.Contains(semantics, "/"+string(r)) {
			t.Errorf("compile/semantics.dl has no clause for /%s", r)
		}
		if !strings.Contains(schema, `"`+string(r)+`"`) {
			t.Errorf("schema/rulespec.schema.json does not list %q", r)
		}
		if !strings.Contains(docs, "`"+string(r)+"`") {
			t.Errorf("docs/rulespec.md does not document `%s`", r)
		}
	}
	if _, ok := Rule("exist").Type(); ok {
		t.Error("an unknown rule type has a descriptor")
	}
}

func TestPhrase(t *testing.T) {
	typ, _ := Contains.Type()
	got := Phrase(typ.Must, "caps", `"x"`)
	if want := "`caps` must contain \"x\" (an element of an array, or a substring of a string)"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
