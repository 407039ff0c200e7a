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

// TestRuleTypeBehaviour: every descriptor says how explain diagnoses,
// `vouch check` warns about and verify reports the rule, and its fields
// agree with each other, so no package falls back silently on a rule
// type it was not told about.
func TestRuleTypeBehaviour(t *testing.T) {
	for _, typ := range Types() {
		r := typ.Name
		if typ.Hint == 0 {
			t.Errorf("%s: no Hint (use NoHint when explain has nothing to add)", r)
		}
		if typ.Warn == 0 {
			t.Errorf("%s: no Warn (use NoWarn when no value is suspicious)", r)
		}
		if typ.Report == 0 {
			t.Errorf("%s: no Report", r)
		}
		if bounded := typ.Report == ReportOrder || typ.Report == ReportLength; bounded != (typ.Bound != Unbounded) {
			t.Errorf("%s: Report %d with Bound %d; order and length reports need a bound, others none", r, typ.Report, typ.Bound)
		}
		if typ.Evidence != (typ.Report == ReportEvidence) {
			t.Errorf("%s: Evidence %v but Report %d", r, typ.Evidence, typ.Report)
		}
		if typ.Set != (typ.Report == ReportSet) {
			t.Errorf("%s: Set %v but Report %d", r, typ.Set, typ.Report)
		}
		if typ.ValueFrom && typ.Value == NoValue {
			t.Errorf("%s takes no value, so it cannot take value_from", r)
		}
		if typ.ValueFrom && typ.Negative {
			t.Errorf("%s is negative: with an absent value claim it would pass, so it must not take value_from", r)
		}
		if !typ.ValueFrom && (typ.ReadsFrom != 0 || typ.ValueClaimReads != 0) {
			t.Errorf("%s refuses value_from but says what it reads with one", r)
		}
		if typ.ValueFrom && typ.ReadsFrom&(ReadsValue|ReadsMembers) != 0 {
			t.Errorf("%s reads a literal value it does not have when the value comes from a claim", r)
		}
		if (typ.Reads&(ReadsValue|ReadsMembers) != 0) && typ.Value == NoValue {
			t.Errorf("%s reads a value it does not take", r)
		}
	}
}

func TestPhrase(t *testing.T) {
	typ, _ := Contains.Type()
	got := Phrase(typ.Must, "caps", `"x"`)
	if want := "`caps` must contain \"x\" (an element of an array, or a substring of a string)"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
