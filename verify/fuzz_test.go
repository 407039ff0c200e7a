package verify

import (
	"bytes"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/rulespec"
)

// fuzzRulespec reads the fuzzed envelope through every rule type, so any
// value an agent writes reaches the program in every form the compiler has.
const fuzzRulespec = `
claims:
  - {name: a, selector: a}
  - {name: all, selector: "a[*]"}
  - {name: deep, selector: "a[*].b"}
predicates:
  - {claim: a, rule: exists}
  - {claim: a, rule: equals, value: {"x": [1, "two", 3.5]}}
  - {claim: all, rule: contains, value: "\"). evil(1). p(\""}
  - {claim: a, rule: not_contains, value: "x"}
  - {claim: all, rule: any_of, value: [1, "a", true, null-ish]}
  - {claim: deep, rule: none_of, value: [0, "b"]}
  - {claim: all, rule: greater_than, value: -1.5}
  - {claim: a, rule: less_than, value: 9007199254740993}
  - {claim: a, rule: min_length, value: 1}
  - {claim: all, rule: max_length, value: 3}
  - {claim: all, rule: matches, value: "^[a-z]+$", when: {claim: a, rule: exists}}
  - {claim: a, rule: not_exists, when: {claim: deep, rule: matches, value: "\\d"}}
`

// FuzzProgramRoundTrip proves that whatever an envelope holds, the written
// .dl parses and, evaluated alone, gives exactly the verdicts reported: no
// string in the envelope can change the program's meaning.
func FuzzProgramRoundTrip(f *testing.F) {
	for _, s := range []string{
		"facts: {a: 1}",
		"facts: {a: [1, 2.5, -3, 1e300, \"s\", true, null, {b: x}]}",
		"facts: {a: \"\\\"). q(1). p(\\\"\"}",
		"facts: {a: [{b: 1}, {b: \"\\u0000\\r\\n\\t\\\\\"}, {b: [9]}]}",
		"facts: {a: {x: [1, two, 3.5]}}",
		"facts: {a: \"héllo 😀 \\x7f\"}",
		"facts: {a: [abc, def]}",
		"facts: {}",
	} {
		f.Add(s)
	}
	rs, err := rulespec.Parse("fuzz.yaml", []byte(fuzzRulespec))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		env, err := envelope.Parse("e.yaml", []byte(text), envelope.Limits{MaxBytes: 1 << 16, MaxDepth: 16})
		if err != nil {
			return
		}
		for _, strict := range []bool{false, true} {
			o, err := RunLoaded(rs, env, strict, 0, 0)
			if err != nil {
				t.Fatalf("RunLoaded: %v", err)
			}
			var dl bytes.Buffer
			if err := o.Program.WriteDL(&dl, o.header()); err != nil {
				t.Fatal(err)
			}
			res, err := datalog.Eval(dl.String(), nil, datalog.Options{})
			if err != nil {
				t.Fatalf("written program does not evaluate: %v\n%s", err, dl.String())
			}
			var got []string
			for _, f := range res.Facts("verdict", 2) {
				got = append(got, f.String())
			}
			for _, f := range res.Facts("vacuous", 1) {
				got = append(got, f.String())
			}
			for _, f := range res.Facts("run_verdict", 1) {
				got = append(got, f.String())
			}
			sort.Strings(got)
			if diff := cmp.Diff(reported(o), got); diff != "" {
				t.Fatalf("replayed verdicts differ (-reported +replayed):\n%s", diff)
			}
		}
	})
}
