package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/rulespec"
)

// The semantic test suite: every rule type, and `when`, wildcards and strict
// mode, run end to end through the loaders, the compiler and the datalog
// engine. The expected outcomes are the rulespec semantics as specified, not
// whatever the clauses happen to compute.

// missing stands for "the key is not in the facts at all".
const missing = "<missing>"

// runYAML verifies the envelope text against the rulespec text.
func runYAML(t *testing.T, rs, env string, strict bool) *Outcome {
	t.Helper()
	r, err := rulespec.Parse("r.yaml", []byte(rs))
	if err != nil {
		t.Fatalf("rulespec.Parse: %v\n%s", err, rs)
	}
	e, err := envelope.Parse("e.yaml", []byte(env), envelope.DefaultLimits())
	if err != nil {
		t.Fatalf("envelope.Parse: %v\n%s", err, env)
	}
	out, err := RunLoaded(r, e, strict, 0, 0)
	if err != nil {
		t.Fatalf("RunLoaded: %v", err)
	}
	return out
}

// oneRule builds a rulespec with one claim c (selector sel) and one
// predicate `c rule value`; value is YAML flow text, empty for none.
func oneRule(sel, rule, value string) string {
	s := "claims:\n  - name: c\n    selector: " + sel + "\npredicates:\n  - claim: c\n    rule: " + rule + "\n"
	if value != "" {
		s += "    value: " + value + "\n"
	}
	return s
}

// factsV is an envelope whose facts hold v: value (YAML flow text), or no v
// at all for missing.
func factsV(value string) string {
	if value == missing {
		return "facts:\n  other: 1\n"
	}
	return "facts:\n  v: " + value + "\n"
}

// outcome is what a test asserts about one predicate.
type outcome struct {
	Status  Status
	Vacuous bool
}

func got(p PredicateReport) outcome { return outcome{p.Status, p.Vacuous} }

var (
	pass    = outcome{Pass, false}
	fail    = outcome{Fail, false}
	vacuous = outcome{Pass, true}
	skipped = outcome{Skipped, false}
)

// checkSummary asserts the report's counts and verdict agree with the
// statuses it lists.
func checkSummary(t *testing.T, rep *Report, want Summary, verdict string) {
	t.Helper()
	if diff := cmp.Diff(want, rep.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if rep.Verdict != verdict {
		t.Errorf("verdict = %q, want %q", rep.Verdict, verdict)
	}
}

type ruleCase struct {
	rule, value string // value: YAML flow text; empty for rules without one
	fact        string // YAML flow text for facts.v, or missing
	want        outcome
}

func (c ruleCase) String() string {
	return fmt.Sprintf("v=%s/%s_%s", c.fact, c.rule, c.value)
}

// ruleCases covers every rule in pass, fail, absent, null, vacuous and
// type-mismatch forms.
var ruleCases = []ruleCase{
	// exists: only an absent claim (missing key or null) fails.
	{"exists", "", missing, fail},
	{"exists", "", "null", fail},
	{"exists", "", `""`, pass},
	{"exists", "", "[]", pass},
	{"exists", "", "{}", pass},
	{"exists", "", "0", pass},
	{"exists", "", "false", pass},
	{"exists", "", `"x"`, pass},

	// not_exists: the mirror image, and never vacuous.
	{"not_exists", "", missing, pass},
	{"not_exists", "", "null", pass},
	{"not_exists", "", `""`, fail},
	{"not_exists", "", "[]", fail},
	{"not_exists", "", "{}", fail},
	{"not_exists", "", "0", fail},
	{"not_exists", "", "false", fail},

	// equals: absent fails; numbers by value, everything else type-strict and deep.
	{"equals", `"y"`, missing, fail},
	{"equals", `"y"`, "null", fail},
	{"equals", `"y"`, `""`, fail},
	{"equals", `"y"`, "[]", fail},
	{"equals", `"y"`, "0", fail},
	{"equals", `"y"`, `"y"`, pass},
	{"equals", `"y"`, `"Y"`, fail},
	{"equals", `"y"`, `["y"]`, fail},
	{"equals", "0", "0", pass},
	{"equals", "0", "0.0", pass},
	{"equals", "0", "-0.0", pass},
	{"equals", "0", "false", fail},
	{"equals", "0", `""`, fail},
	{"equals", "1", "1.0", pass},
	{"equals", "1.0", "1", pass},
	{"equals", "1.5", "1.5", pass},
	{"equals", "1.5", "1.50", pass},
	{"equals", "1", "2", fail},
	{"equals", "0.1", "0.10000000000000001", pass}, // the same float64
	{"equals", "9007199254740993", "9007199254740992", fail},
	{"equals", "1", `"1"`, fail},
	{"equals", `"1"`, "1", fail},
	{"equals", "false", `"false"`, fail},
	{"equals", `"false"`, "false", fail},
	{"equals", "false", "false", pass},
	{"equals", "true", "false", fail},
	{"equals", `""`, `""`, pass},
	{"equals", "[]", "[]", pass},
	{"equals", "{}", "{}", pass},
	{"equals", "[]", "{}", fail},
	{"equals", "[1, 2]", "[1, 2]", pass},
	{"equals", "[1, 2]", "[2, 1]", fail},
	{"equals", "[1, 2]", "[1, 2, 2]", fail},
	{"equals", "[1.0, 2]", "[1, 2.0]", pass},
	{"equals", `[1, "2"]`, "[1, 2]", fail},
	{"equals", "{a: 1, b: 2}", "{b: 2, a: 1}", pass},
	{"equals", "{a: 1}", `{a: "1"}`, fail},
	{"equals", "{a: 1}", "{a: 1, b: 2}", fail},
	{"equals", "{a: {b: [1, {c: true}]}}", "{a: {b: [1.0, {c: true}]}}", pass},
	{"equals", "{a: {b: [1, {c: true}]}}", `{a: {b: [1, {c: "true"}]}}`, fail},

	// contains: an equal element of an array, or a substring of a string.
	{"contains", `"x"`, missing, fail},
	{"contains", `"x"`, "null", fail},
	{"contains", `"x"`, `""`, fail},
	{"contains", `"x"`, "[]", fail},
	{"contains", `"x"`, "0", fail},
	{"contains", `"x"`, `["a", "x"]`, pass},
	{"contains", `"x"`, `["xy"]`, fail},
	{"contains", `"x"`, `"axb"`, pass},
	{"contains", `"x"`, `"abc"`, fail},
	{"contains", `"x"`, "{x: 1}", fail},
	{"contains", `"x"`, "true", fail},
	{"contains", `"é"`, `"héllo"`, pass},
	{"contains", "1", "[1.0, 2]", pass},
	{"contains", "1", `["1"]`, fail},
	{"contains", `"1"`, "[1]", fail},
	{"contains", "1", `"123"`, fail}, // a number is no substring
	{"contains", "[1]", "[[1], 2]", pass},
	{"contains", "[1]", "[1, 2]", fail},
	{"contains", "{a: 1}", "[{a: 1.0}]", pass},
	{"contains", "false", "[false]", pass},
	{"contains", "false", `["false"]`, fail},

	// not_contains: absent passes vacuously; other types fail.
	{"not_contains", `"x"`, missing, vacuous},
	{"not_contains", `"x"`, "null", vacuous},
	{"not_contains", `"x"`, "[]", vacuous},
	{"not_contains", `"x"`, `""`, pass},
	{"not_contains", `"x"`, `["a", "b"]`, pass},
	{"not_contains", `"x"`, `["a", "x"]`, fail},
	{"not_contains", `"x"`, `"abc"`, pass},
	{"not_contains", `"x"`, `"axb"`, fail},
	{"not_contains", `"x"`, "0", fail},
	{"not_contains", `"x"`, "{a: 1}", fail},
	{"not_contains", `"x"`, "false", fail},
	{"not_contains", "1", "[1.0]", fail},
	{"not_contains", "1", `["1"]`, pass},
	{"not_contains", "1", `"123"`, pass},   // contains fails: a number is no substring
	{"not_contains", "[x]", `"[x]"`, pass}, // nor is an array

	// any_of: a scalar equals a member; every element of an array does.
	{"any_of", "[a, b]", missing, fail},
	{"any_of", "[a, b]", "null", fail},
	{"any_of", "[a, b]", `"a"`, pass},
	{"any_of", "[a, b]", `"c"`, fail},
	{"any_of", "[a, b]", `""`, fail},
	{"any_of", "[a, b]", `["a", "b", "a"]`, pass},
	{"any_of", "[a, b]", `["a", "c"]`, fail},
	{"any_of", "[a, b]", "[]", vacuous},
	{"any_of", "[a, b]", "{a: 1}", fail},
	{"any_of", "[1.0, 2]", "1", pass},
	{"any_of", "[1, 2]", "[2.0, 1]", pass},
	{"any_of", "[1, 2]", `"1"`, fail},
	{"any_of", "[1, 2]", `["1"]`, fail},
	{"any_of", `["true"]`, "true", fail},
	{"any_of", "[{k: 1}]", "{k: 1}", pass},
	{"any_of", "[[1, 2]]", "[1, 2]", fail}, // elements 1 and 2 are not members
	{"any_of", "[[1, 2]]", "[[1, 2]]", pass},

	// none_of: absent passes vacuously; no element may be a member.
	{"none_of", "[a, b]", missing, vacuous},
	{"none_of", "[a, b]", "null", vacuous},
	{"none_of", "[a, b]", "[]", vacuous},
	{"none_of", "[a, b]", `"c"`, pass},
	{"none_of", "[a, b]", `"a"`, fail},
	{"none_of", "[a, b]", `["c", "d"]`, pass},
	{"none_of", "[a, b]", `["c", "a"]`, fail},
	{"none_of", "[1]", "1.0", fail},
	{"none_of", "[1]", `"1"`, pass},
	{"none_of", "[1]", `["1", true]`, pass},
	{"none_of", "[false]", "false", fail},
	{"none_of", "[{k: 1}]", "{k: 1}", fail},

	// greater_than: exact numeric comparison; arrays element-wise.
	{"greater_than", "5", missing, fail},
	{"greater_than", "5", "null", fail},
	{"greater_than", "5", "6", pass},
	{"greater_than", "5", "5", fail},
	{"greater_than", "5", "5.0", fail},
	{"greater_than", "5", "5.5", pass},
	{"greater_than", "5", "4.9", fail},
	{"greater_than", "5", "-6", fail},
	{"greater_than", "2", "2.5", pass},
	{"greater_than", "-1", "0", pass},
	{"greater_than", "0.1", "0.2", pass},
	{"greater_than", "0.2", "0.1", fail},
	{"greater_than", "9007199254740992.0", "9007199254740993", pass},
	{"greater_than", "9007199254740993", "9007199254740992.0", fail},
	{"greater_than", "9223372036854775806", "9223372036854775807", pass},
	{"greater_than", "9.2e18", "9223372036854775807", pass},
	{"greater_than", "1e300", "1e301", pass},
	{"greater_than", "5", `"6"`, fail},
	{"greater_than", "5", "true", fail},
	{"greater_than", "5", "{a: 6}", fail},
	{"greater_than", "5", "[6, 7]", pass},
	{"greater_than", "5", "[6, 5]", fail},
	{"greater_than", "5", `[6, "7"]`, fail},
	{"greater_than", "5", `["a"]`, fail},
	{"greater_than", "5", "[6, null]", fail},
	{"greater_than", "5", "[6, [7]]", fail},
	{"greater_than", "5", "[]", vacuous},
	{"greater_than", "0", "[0.5, 1e-300]", pass},

	// less_than: the mirror image.
	{"less_than", "0", missing, fail},
	{"less_than", "0", "null", fail},
	{"less_than", "0", "-1", pass},
	{"less_than", "0", "0", fail},
	{"less_than", "0", "-0.0", fail},
	{"less_than", "0", "-1e-300", pass},
	{"less_than", "0.2", "0.1", pass},
	{"less_than", "0.1", "0.2", fail},
	{"less_than", "2", "2.5", fail},
	{"less_than", "9007199254740993", "9007199254740992.0", pass},
	{"less_than", "9007199254740992.0", "9007199254740993", fail},
	{"less_than", "-9223372036854775807", "-9223372036854775808", pass},
	{"less_than", "9.3e18", "9223372036854775807", pass},
	{"less_than", "0.2", "[0.1, -1]", pass},
	{"less_than", "0.2", "[0.1, 0.3]", fail},
	{"less_than", "0.2", "[]", vacuous},
	{"less_than", "5", `"1"`, fail},
	{"less_than", "5", "false", fail},
	{"less_than", "5", `[1, "2"]`, fail},

	// min_length: characters, elements, keys; other types fail.
	{"min_length", "2", missing, fail},
	{"min_length", "2", "null", fail},
	{"min_length", "2", `"ab"`, pass},
	{"min_length", "2", `"a"`, fail},
	{"min_length", "5", `"héllo"`, pass},
	{"min_length", "6", `"héllo"`, fail},
	{"min_length", "2", "[1, 1]", pass}, // elements, not distinct elements
	{"min_length", "2", "[1]", fail},
	{"min_length", "2", "{a: 1, b: 2}", pass},
	{"min_length", "2", "{a: [1, 2, 3]}", fail},
	{"min_length", "2", "12", fail},
	{"min_length", "0", "12", fail},
	{"min_length", "1", "true", fail},
	{"min_length", "0", `""`, pass},
	{"min_length", "0", "[]", pass},

	// max_length: absent passes vacuously; an empty value is not vacuous.
	{"max_length", "2", missing, vacuous},
	{"max_length", "2", "null", vacuous},
	{"max_length", "5", `"héllo"`, pass},
	{"max_length", "4", `"héllo"`, fail},
	{"max_length", "2", "[1, 2, 3]", fail},
	{"max_length", "2", "[1, 1]", pass},
	{"max_length", "2", "[]", pass},
	{"max_length", "0", `""`, pass},
	{"max_length", "1", "{a: 1}", pass},
	{"max_length", "1", "{a: 1, b: 2}", fail},
	{"max_length", "2", "1", fail},
	{"max_length", "2", "false", fail},

	// matches: unanchored RE2 search; arrays element-wise; others fail.
	{"matches", `"^Re: "`, missing, fail},
	{"matches", `"^Re: "`, "null", fail},
	{"matches", `"^Re: "`, `"Re: hi"`, pass},
	{"matches", `"^Re: "`, `"Fwd: Re: hi"`, fail},
	{"matches", `"b+"`, `"abbc"`, pass},
	{"matches", `"^$"`, `""`, pass},
	{"matches", `"^h.llo$"`, `"héllo"`, pass},
	{"matches", `"[0-9]"`, `["a1", "b2"]`, pass},
	{"matches", `"[0-9]"`, `["a1", "b"]`, fail},
	{"matches", `"[0-9]"`, `["a1", 1]`, fail},
	{"matches", `"[0-9]"`, "[]", vacuous},
	{"matches", `"1"`, "1", fail},
	{"matches", `"true"`, "true", fail},
	{"matches", `"a"`, `{a: "a"}`, fail},

	// file_exists, no_file_exists: citations resolved under the root, which
	// RunLoaded takes to be the working directory (this package's).
	{"file_exists", "", missing, fail},
	{"file_exists", "", "null", fail},
	{"file_exists", "", `"verify.go"`, pass},
	{"file_exists", "", `"verify.go:1-10"`, pass},
	{"file_exists", "", `"verify.go:100000"`, fail},
	// Evidence cites regular files: the root, directories and .git fail
	// (TestEvidenceMessages covers a directory and the reasons).
	{"file_exists", "", `"."`, fail},
	{"file_exists", "", `""`, fail},
	{"file_exists", "", `"./"`, fail},
	{"file_exists", "", `".:1"`, fail},
	{"file_exists", "", `".git/HEAD"`, fail},
	{"file_exists", "", `".git"`, fail},
	{"file_exists", "", `[".", "verify.go"]`, fail},
	{"file_exists", "", `"report.go"`, pass},
	{"file_exists", "", `"nope.go"`, fail},
	{"file_exists", "", `"../go.mod"`, fail},
	{"file_exists", "", `"/etc/passwd"`, fail},
	{"file_exists", "", `["verify.go", "report.go:1"]`, pass},
	{"file_exists", "", `["verify.go", "nope.go"]`, fail},
	{"file_exists", "", `["verify.go", 1]`, fail},
	{"file_exists", "", "[]", vacuous},
	{"file_exists", "", "1", fail},
	{"file_exists", "", "{a: verify.go}", fail},
	{"no_file_exists", "", missing, vacuous},
	{"no_file_exists", "", "null", vacuous},
	{"no_file_exists", "", `"nope.go"`, pass},
	{"no_file_exists", "", `"verify.go"`, fail},
	// Lines are irrelevant to absence: verify.go is there.
	{"no_file_exists", "", `"verify.go:100000"`, fail},
	{"no_file_exists", "", `"verify.go/"`, fail},
	{"file_exists", "", `"verify.go/"`, fail},
	{"file_exists", "", `"verify.go/."`, fail},
	{"file_exists", "", `"verify.go/:1"`, fail},
	{"file_exists", "", `"testdata/"`, fail},
	{"no_file_exists", "", `"../go.mod"`, fail},
	{"no_file_exists", "", `["nope.go", "gone.go"]`, pass},
	{"no_file_exists", "", `["nope.go", "verify.go"]`, fail},
	{"no_file_exists", "", "[]", vacuous},
	{"no_file_exists", "", `"."`, fail},
	{"no_file_exists", "", `".git/HEAD"`, fail},
	{"no_file_exists", "", "1", fail},

	// subset_of, superset_of, same_set: an array claim's distinct elements
	// compared as a set with the list, by type and value.
	{"subset_of", "[a, b]", missing, fail},
	{"subset_of", "[a, b]", "null", fail},
	{"subset_of", "[a, b]", `"a"`, fail},
	{"subset_of", "[a, b]", `["a"]`, pass},
	{"subset_of", "[a, b]", `["b", "a", "a"]`, pass},
	{"subset_of", "[a, b]", `["a", "c"]`, fail},
	{"subset_of", "[a, b]", "[]", vacuous},
	{"subset_of", "[a, b]", "{a: 1}", fail},
	{"subset_of", "[1.0, 2]", "[1]", pass},
	{"subset_of", "[1, 2]", `["1"]`, fail},
	{"subset_of", "[]", "[a]", fail},
	{"superset_of", "[a, b]", `["a", "b", "c"]`, pass},
	{"superset_of", "[a, b]", `["a"]`, fail},
	{"superset_of", "[a, b]", "[]", fail},
	{"superset_of", "[a, b]", missing, fail},
	{"superset_of", "[a, b]", `"ab"`, fail},
	{"superset_of", "[]", "[x]", vacuous},
	{"superset_of", "[true]", `["true"]`, fail},
	{"same_set", "[a, b]", `["b", "a", "a"]`, pass},
	{"same_set", "[a, b]", `["a"]`, fail},
	{"same_set", "[a, b]", `["a", "b", "c"]`, fail},
	{"same_set", "[a, b]", "[]", fail},
	{"same_set", "[]", "[]", vacuous},
	{"same_set", "[{k: 1}]", "[{k: 1.0}]", pass},
	{"same_set", "[a]", missing, fail},

	// Strings that must survive being written into the program.
	{"equals", `"say \"hi\"\\ \u00e9\t\r\n"`, `"say \"hi\"\\ \u00e9\t\r\n"`, pass},
	{"equals", `"a\rb"`, `"a\nb"`, fail},
	{"contains", `"\"). x("`, `"p(\"). x(\"q"`, pass},
	{"contains", `"😀"`, `["😀", "b"]`, pass},
	{"matches", `"^a\\\\b$"`, `"a\\b"`, pass}, // the pattern ^a\\b$: a literal backslash
	{"matches", `"^a.b$"`, `"a\nb"`, fail},
	{"max_length", "1", `"😀"`, pass},
}

func TestRuleSemantics(t *testing.T) {
	seen := make(map[string]bool)
	for _, c := range ruleCases {
		seen[c.rule] = true
		t.Run(c.String(), func(t *testing.T) {
			out := runYAML(t, oneRule("v", c.rule, c.value), factsV(c.fact), false)
			p := out.Report.Predicates[0]
			if g := got(p); g != c.want {
				t.Errorf("v: %s; %s %s: got %+v, want %+v (message %q)", c.fact, c.rule, c.value, g, c.want, p.Message)
			}
			verdict := "pass"
			wantSum := Summary{Total: 1, Passed: 1}
			if c.want.Status == Fail {
				verdict, wantSum = "fail", Summary{Total: 1, Failed: 1}
			}
			if c.want.Vacuous {
				wantSum.Vacuous = 1
			}
			checkSummary(t, out.Report, wantSum, verdict)
		})
	}
	for _, r := range rulespec.Rules() {
		if !seen[string(r)] {
			t.Errorf("rule %s has no cases", r)
		}
	}
}

// TestRuleSemanticsStrict runs every rule case again under strict mode:
// vacuous passes become failures that stay marked vacuous, and nothing else
// changes.
func TestRuleSemanticsStrict(t *testing.T) {
	for _, c := range ruleCases {
		t.Run(c.String(), func(t *testing.T) {
			out := runYAML(t, oneRule("v", c.rule, c.value), factsV(c.fact), true)
			p := out.Report.Predicates[0]
			want := c.want
			if want.Vacuous {
				want.Status = Fail
			}
			if g := got(p); g != want {
				t.Errorf("strict, v: %s; %s %s: got %+v, want %+v", c.fact, c.rule, c.value, g, want)
			}
			if c.want.Vacuous && !strings.Contains(p.Message, "--strict") {
				t.Errorf("message %q does not say the strict mode failed it", p.Message)
			}
			if (out.Report.Verdict == "pass") != (want.Status == Pass) {
				t.Errorf("verdict %s for predicate status %s", out.Report.Verdict, want.Status)
			}
		})
	}
}

// TestSeedNullTable is the null/edge-case table the semantics must hold to.
func TestSeedNullTable(t *testing.T) {
	values := []string{"null", missing, `""`, "[]", "0"}
	rows := []struct {
		rule, value string
		want        []Status
	}{
		{"exists", "", []Status{Fail, Fail, Pass, Pass, Pass}},
		{"not_exists", "", []Status{Pass, Pass, Fail, Fail, Fail}},
		{"contains", `"x"`, []Status{Fail, Fail, Fail, Fail, Fail}},
		{"equals", `"y"`, []Status{Fail, Fail, Fail, Fail, Fail}},
		{"equals", "0", []Status{Fail, Fail, Fail, Fail, Pass}},
	}
	for _, row := range rows {
		var gotStatus []Status
		for _, v := range values {
			out := runYAML(t, oneRule("v", row.rule, row.value), factsV(v), false)
			gotStatus = append(gotStatus, out.Report.Predicates[0].Status)
		}
		if diff := cmp.Diff(row.want, gotStatus); diff != "" {
			t.Errorf("%s %s over %v (-want +got):\n%s", row.rule, row.value, values, diff)
		}
	}
}

// TestWildcards: a [*] selector yields the flat array of the non-null
// matches, absent only when the path before the wildcard is.
func TestWildcards(t *testing.T) {
	tests := []struct {
		name, sel, rule, value, facts string
		want                          outcome
	}{
		{"ids all positive", "items[*].id", "greater_than", "0", "items: [{id: 1}, {id: 2.5}]", pass},
		{"one id zero", "items[*].id", "greater_than", "0", "items: [{id: 1}, {id: 0}]", fail},
		{"one id a string", "items[*].id", "greater_than", "0", `items: [{id: 1}, {id: "2"}]`, fail},
		{"missing and null ids dropped", "items[*].id", "greater_than", "0", "items: [{id: 1}, {name: x}, {id: null}]", pass},
		{"only null ids", "items[*].id", "greater_than", "0", "items: [{id: null}, {}]", vacuous},
		{"empty items", "items[*].id", "greater_than", "0", "items: []", vacuous},
		{"items missing", "items[*].id", "greater_than", "0", "other: 1", fail},
		{"items null", "items[*].id", "greater_than", "0", "items: null", fail},
		{"items missing exists", "items[*].id", "exists", "", "other: 1", fail},
		{"items missing not_exists", "items[*].id", "not_exists", "", "other: 1", pass},
		{"empty items exists", "items[*].id", "exists", "", "items: []", pass},
		{"empty items not_exists", "items[*].id", "not_exists", "", "items: []", fail},
		{"items not an array", "items[*].id", "greater_than", "0", "items: {id: 1}", vacuous},
		{"ids equal array", "items[*].id", "equals", "[1, 2]", "items: [{id: 1}, {id: 2}]", pass},
		{"ids in order", "items[*].id", "equals", "[2, 1]", "items: [{id: 1}, {id: 2}]", fail},
		{"ids contain", "items[*].id", "contains", "2", "items: [{id: 1}, {id: 2.0}]", pass},
		{"ids none_of", "items[*].id", "none_of", "[3]", "items: [{id: 1}, {id: 2}]", pass},
		{"ids any_of", "items[*].id", "any_of", "[1, 2]", "items: [{id: 1}, {id: 3}]", fail},
		{"id count", "items[*].id", "min_length", "2", "items: [{id: 1}, {id: null}, {id: 1}]", pass},
		{"array value stays one element", "items[*].tags", "max_length", "2", "items: [{tags: [a, b, c]}, {tags: [d]}]", pass},
		{"names match", "items[*].name", "matches", `"^[a-z]+$"`, "items: [{name: ab}, {name: cd}]", pass},
		{"a name does not match", "items[*].name", "matches", `"^[a-z]+$"`, "items: [{name: ab}, {name: C}]", fail},
		{"nested all below", "groups[*].items[*].n", "less_than", "10", "groups: [{items: [{n: 1}, {n: 2}]}, {items: [{n: 9.5}]}]", pass},
		{"nested one above", "groups[*].items[*].n", "less_than", "10", "groups: [{items: [{n: 1}]}, {items: [{n: 3}, {n: 11}]}]", fail},
		{"nested flattened", "groups[*].items[*].n", "equals", "[1, 3, 11]", "groups: [{items: [{n: 1}]}, {items: [{n: 3}, {n: 11}]}, {}]", pass},
		{"nested flattened length", "groups[*].items[*].n", "min_length", "3", "groups: [{items: [{n: 1}]}, {items: [{n: 3}, {n: 11}]}]", pass},
		{"nested all empty", "groups[*].items[*].n", "less_than", "10", "groups: [{items: []}, {}]", vacuous},
		{"nested groups missing", "groups[*].items[*].n", "less_than", "10", "other: 1", fail},
		{"whole elements", "tags[*]", "contains", `"x"`, "tags: [a, x, null]", pass},
		{"whole elements none", "tags[*]", "not_contains", `"y"`, "tags: [a, x, null]", pass},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := runYAML(t, oneRule(tc.sel, tc.rule, tc.value), "facts:\n  "+tc.facts+"\n", false)
			p := out.Report.Predicates[0]
			if g := got(p); g != tc.want {
				t.Errorf("%s %s %s over {%s}: got %+v, want %+v (actual %s, message %q)", tc.sel, tc.rule, tc.value, tc.facts, g, tc.want, p.Actual, p.Message)
			}
		})
	}
}

// whenSpec: predicate `body` applies when `cond` passes; both are written
// as rule/value pairs on the claims body and cond.
func whenSpec(bodyRule, bodyValue, condRule, condValue string) string {
	s := "claims:\n  - name: body\n    selector: b\n  - name: cond\n    selector: w\npredicates:\n  - claim: body\n    rule: " + bodyRule + "\n"
	if bodyValue != "" {
		s += "    value: " + bodyValue + "\n"
	}
	s += "    when:\n      claim: cond\n      rule: " + condRule + "\n"
	if condValue != "" {
		s += "      value: " + condValue + "\n"
	}
	return s
}

func TestWhen(t *testing.T) {
	tests := []struct {
		name                                   string
		bodyRule, bodyValue, condRule, condVal string
		facts                                  string
		want                                   outcome
	}{
		{"met, body passes", "exists", "", "equals", "true", "{w: true, b: 1}", pass},
		{"met, body fails", "exists", "", "equals", "true", "{w: true}", fail},
		{"not met", "exists", "", "equals", "true", "{w: false}", skipped},
		{"not met, type-strict", "exists", "", "equals", "true", `{w: "true"}`, skipped},
		{"condition on absent claim", "exists", "", "equals", "true", "{}", skipped},
		{"condition on null claim", "exists", "", "equals", "true", "{w: null}", skipped},
		{"condition not_exists on absent claim", "exists", "", "not_exists", "", "{}", fail},
		{"condition exists on empty string", "exists", "", "exists", "", `{w: ""}`, fail},
		{"condition vacuous none_of on absent claim", "equals", "1", "none_of", "[x]", "{b: 1}", pass},
		{"condition numeric", "exists", "", "greater_than", "10", "{w: 10.5}", fail},
		{"condition numeric not met", "exists", "", "greater_than", "10", "{w: 10}", skipped},
		{"condition on array", "exists", "", "any_of", "[a, b]", "{w: [b, a]}", fail},
		{"condition min_length not met", "exists", "", "min_length", "1", "{w: []}", skipped},
		{"skipped body would be vacuous", "not_contains", `"x"`, "equals", "true", "{w: false}", skipped},
		{"met body vacuous", "not_contains", `"x"`, "equals", "true", "{w: true}", vacuous},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := runYAML(t, whenSpec(tc.bodyRule, tc.bodyValue, tc.condRule, tc.condVal), "facts: "+tc.facts+"\n", false)
			p := out.Report.Predicates[0]
			if g := got(p); g != tc.want {
				t.Errorf("got %+v, want %+v (message %q)", g, tc.want, p.Message)
			}
		})
	}
}

// TestWhenMatches: a reply must carry the id of what it replies to.
func TestWhenMatches(t *testing.T) {
	const rs = `claims:
  - name: subject
    selector: email.subject
  - name: reply_to_id
    selector: email.reply_to_id
predicates:
  - claim: reply_to_id
    rule: exists
    when:
      claim: subject
      rule: matches
      value: "^Re: "
`
	tests := []struct {
		facts   string
		want    Status
		verdict string
	}{
		{`{subject: "Re: hello", reply_to_id: 42}`, Pass, "pass"},
		{`{subject: "Re: hello", reply_to_id: null}`, Fail, "fail"},
		{`{subject: "Re: hello"}`, Fail, "fail"},
		{`{subject: "Hello", reply_to_id: 42}`, Skipped, "pass"},
		{`{subject: "Hello"}`, Skipped, "pass"},
		{`{subject: "Fwd: Re: hello"}`, Skipped, "pass"},
		{`{subject: 5}`, Skipped, "pass"},
		{`{subject: ["Re: a", "Re: b"]}`, Fail, "fail"},
		{`{subject: ["Re: a", "b"]}`, Skipped, "pass"},
		{`{}`, Skipped, "pass"},
	}
	for _, tc := range tests {
		t.Run(tc.facts, func(t *testing.T) {
			out := runYAML(t, rs, "facts:\n  email: "+tc.facts+"\n", false)
			p := out.Report.Predicates[0]
			if p.Status != tc.want || p.Vacuous {
				t.Errorf("got %s (vacuous %v), want %s", p.Status, p.Vacuous, tc.want)
			}
			if out.Report.Verdict != tc.verdict {
				t.Errorf("verdict %s, want %s", out.Report.Verdict, tc.verdict)
			}
			if tc.want == Skipped && !strings.Contains(p.Message, `subject matches "^Re: "`) {
				t.Errorf("skip message %q does not name the condition", p.Message)
			}
		})
	}
}

// TestStrict: strict mode fails vacuous passes only, keeps them marked
// vacuous, and leaves skipped predicates alone.
func TestStrict(t *testing.T) {
	const rs = `claims:
  - name: caps
    selector: caps
  - name: gone
    selector: gone
  - name: flag
    selector: flag
predicates:
  - claim: caps
    rule: none_of
    value: [legacy]
  - claim: gone
    rule: not_contains
    value: x
  - claim: caps
    rule: max_length
    value: 3
  - claim: gone
    rule: max_length
    value: 3
  - claim: gone
    rule: not_contains
    value: x
    when:
      claim: flag
      rule: equals
      value: true
`
	const env = "facts:\n  caps: []\n  flag: false\n"
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprint("strict=", strict), func(t *testing.T) {
			out := runYAML(t, rs, env, strict)
			var gotOut []outcome
			for _, p := range out.Report.Predicates {
				gotOut = append(gotOut, got(p))
			}
			vf := vacuous
			sum, verdict := Summary{Total: 5, Passed: 4, Skipped: 1, Vacuous: 3}, "pass"
			if strict {
				vf = outcome{Fail, true}
				sum, verdict = Summary{Total: 5, Passed: 1, Failed: 3, Skipped: 1, Vacuous: 3}, "fail"
			}
			want := []outcome{vf, vf, pass, vf, skipped}
			if diff := cmp.Diff(want, gotOut); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
			checkSummary(t, out.Report, sum, verdict)
		})
	}
}

// TestCheckedNothing: a run that decides no predicate (every one skipped or
// passed vacuously) is marked checked_nothing; --strict fails it, and fails
// a predicate whose condition reads an absent claim (exists and not_exists
// are decided by absence).
func TestCheckedNothing(t *testing.T) {
	tests := []struct {
		name                                   string
		bodyRule, bodyValue, condRule, condVal string
		facts                                  string
		strict                                 bool
		want                                   outcome
		nothing                                bool
		verdict                                string
		msg                                    string
	}{
		{"absent condition claim", "exists", "", "equals", "true", "{b: 1}", false, skipped, true, "pass", "did not hold"},
		{"absent condition claim, strict", "exists", "", "equals", "true", "{b: 1}", true, fail, false, "fail", "could not be decided, cond is absent"},
		{"absent claim under exists, strict", "exists", "", "exists", "", "{b: 1}", true, skipped, true, "fail", "did not hold"},
		{"present claim not met", "exists", "", "equals", "true", "{w: false, b: 1}", false, skipped, true, "pass", "did not hold"},
		{"present claim not met, strict", "exists", "", "equals", "true", "{w: false, b: 1}", true, skipped, true, "fail", "did not hold"},
		{"met, body passes, strict", "exists", "", "equals", "true", "{w: true, b: 1}", true, pass, false, "pass", ""},
		{"met, body vacuous", "not_contains", `"x"`, "equals", "true", "{w: true}", false, vacuous, true, "pass", "without checking anything"},
		{"met, body vacuous, strict", "not_contains", `"x"`, "equals", "true", "{w: true}", true, outcome{Fail, true}, false, "fail", "--strict"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := runYAML(t, whenSpec(tc.bodyRule, tc.bodyValue, tc.condRule, tc.condVal), "facts: "+tc.facts+"\n", tc.strict)
			p := out.Report.Predicates[0]
			if g := got(p); g != tc.want {
				t.Errorf("got %+v, want %+v (message %q)", g, tc.want, p.Message)
			}
			if out.Report.CheckedNothing != tc.nothing {
				t.Errorf("checked_nothing %v, want %v", out.Report.CheckedNothing, tc.nothing)
			}
			if out.Report.Verdict != tc.verdict {
				t.Errorf("verdict %s, want %s", out.Report.Verdict, tc.verdict)
			}
			if !strings.Contains(p.Message, tc.msg) {
				t.Errorf("message %q does not contain %q", p.Message, tc.msg)
			}
			var b strings.Builder
			if err := out.Report.WriteText(&b, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			if warned := strings.Contains(text, CheckedNothingWarning); warned != (tc.nothing && tc.verdict == "pass") {
				t.Errorf("warning printed %v in\n%s", warned, text)
			}
			if failed := strings.Contains(text, CheckedNothingFailure); failed != (tc.nothing && tc.verdict == "fail") {
				t.Errorf("strict failure line printed %v in\n%s", failed, text)
			}
		})
	}
}

func TestMultiplePredicatesVerdict(t *testing.T) {
	const rs = `claims:
  - name: a
    selector: a
predicates:
  - claim: a
    rule: exists
  - claim: a
    rule: equals
    value: 2
  - claim: a
    rule: less_than
    value: 2
    when:
      claim: a
      rule: greater_than
      value: 5
`
	out := runYAML(t, rs, "facts: {a: 1}\n", false)
	var gotOut []outcome
	for _, p := range out.Report.Predicates {
		gotOut = append(gotOut, got(p))
	}
	if diff := cmp.Diff([]outcome{pass, fail, skipped}, gotOut); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	checkSummary(t, out.Report, Summary{Total: 3, Passed: 1, Failed: 1, Skipped: 1}, "fail")
}

// TestExample runs the seed's complete example.
func TestExample(t *testing.T) {
	dir := filepath.Join("..", "testdata", "examples", "csv-importer")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	rs := read(filepath.Join("analysis", "rulespec.yaml"))
	t.Run("passing", func(t *testing.T) {
		out := runYAML(t, rs, read("envelope.yaml"), false)
		var statuses []Status
		for _, p := range out.Report.Predicates {
			statuses = append(statuses, p.Status)
			if p.Vacuous {
				t.Errorf("predicate %d is vacuous", p.Index)
			}
		}
		want := []Status{Pass, Pass, Pass, Pass, Pass, Pass, Pass, Skipped}
		if diff := cmp.Diff(want, statuses); diff != "" {
			t.Errorf("statuses (-want +got):\n%s", diff)
		}
		checkSummary(t, out.Report, Summary{Total: 8, Passed: 7, Skipped: 1}, "pass")
		if m := out.Report.Predicates[7].Message; !strings.Contains(m, "breaking equals true") || !strings.Contains(m, "boolean false") {
			t.Errorf("skip message %q should name the condition and the value found", m)
		}
	})
	t.Run("failing", func(t *testing.T) {
		out := runYAML(t, rs, read("envelope-failing.yaml"), false)
		var failing []int
		for _, p := range out.Report.Predicates {
			if p.Status == Fail {
				failing = append(failing, p.Index)
			} else if p.Status != Pass {
				t.Errorf("predicate %d is %s", p.Index, p.Status)
			}
		}
		if diff := cmp.Diff([]int{2, 4, 5, 6, 7}, failing); diff != "" {
			t.Errorf("failing predicates (-want +got):\n%s", diff)
		}
		checkSummary(t, out.Report, Summary{Total: 8, Passed: 3, Failed: 5}, "fail")
		msgs := map[int][]string{
			2: {`"legacy_parser"`, "found in", "handle_csv"},
			4: {`"src/importers/csv.py"`, `^src/.*\\.rs$`},
			5: {"length 0", "1"},
			6: {"expected no value", "removed Reader.open"},
			7: {`"migration_guide"`, "not found", "legacy_parser"},
		}
		for i, parts := range msgs {
			m := out.Report.Predicates[i].Message
			for _, part := range parts {
				if !strings.Contains(m, part) {
					t.Errorf("predicate %d message %q lacks %q", i, m, part)
				}
			}
		}
	})
}

// TestFailureMessages: a failure says what was expected and what was found.
func TestFailureMessages(t *testing.T) {
	tests := []struct {
		rule, value, fact string
		parts             []string
	}{
		{"equals", `"y"`, `"x"`, []string{`string "y"`, `string "x"`}},
		{"equals", "1", `"1"`, []string{`number 1`, `string "1"`, "types must match"}},
		{"equals", `"y"`, missing, []string{"absent", "v"}},
		{"equals", `"y"`, "null", []string{"absent"}},
		{"greater_than", "5", "3", []string{"3", "not greater than 5"}},
		{"greater_than", "5", "[7, 3, 9]", []string{"element 3", "not greater than 5"}},
		{"less_than", "5", `"3"`, []string{"needs a number", `"3"`}},
		{"any_of", "[a, b]", `[a, c, d]`, []string{`"c"`, `"d"`, `["a","b"]`}},
		{"any_of", "[a, b]", `"z"`, []string{`"z"`, `["a","b"]`}},
		{"none_of", "[a, b]", `[c, b]`, []string{"forbidden", `"b"`}},
		{"min_length", "3", `"ab"`, []string{"length 2", "3", `"ab"`}},
		{"max_length", "1", "[1, 2]", []string{"length 2", "more than 1"}},
		{"matches", `"^a"`, `"ba"`, []string{`"ba"`, `"^a"`}},
		{"matches", `"^a"`, `[ab, ba]`, []string{`"ba"`, `"^a"`}},
		{"contains", `"x"`, `[a, b]`, []string{`"x"`, "not found", `["a","b"]`}},
		{"contains", "1", `"123"`, []string{"substring", `"123"`}},
		{"not_exists", "", `"here"`, []string{"expected no value", `"here"`}},
		{"subset_of", "[a, b]", "[a, c, d]", []string{`elements of c not in ["a","b"]`, `"c"`, `"d"`}},
		{"superset_of", "[a, b]", "[a]", []string{`members of ["a","b"] missing from c`, `"b"`}},
		{"same_set", "[a, b]", "[a, c]", []string{`not in`, `"c"`, `missing`, `"b"`}},
		{"same_set", "[a]", `"a"`, []string{"compares arrays as sets", `string "a"`}},
		// Numbers are shown as numbers, strings that look like them quoted.
		{"any_of", "[1, 2]", `[1, 9.3e18, "9"]`, []string{`elements not in [1,2]: "9", 9.3e+18`}},
		{"none_of", "[1, 9223372036854775808.0]", `[9223372036854775808.0, 2]`, []string{`forbidden elements present: 9.223372036854776e+18`}},
		{"subset_of", "[1]", "[1, 2.5, true]", []string{`elements of c not in [1]: 2.5, true`}},
		{"superset_of", "[1, 2]", "[1]", []string{`members of [1,2] missing from c: 2`}},
	}
	for _, tc := range tests {
		t.Run(tc.rule+"/"+tc.fact, func(t *testing.T) {
			out := runYAML(t, oneRule("v", tc.rule, tc.value), factsV(tc.fact), false)
			p := out.Report.Predicates[0]
			if p.Status != Fail {
				t.Fatalf("status %s, want fail", p.Status)
			}
			for _, part := range tc.parts {
				if !strings.Contains(p.Message, part) {
					t.Errorf("message %q lacks %q", p.Message, part)
				}
			}
		})
	}
}

// verdictFacts lists the facts that carry the verdicts, sorted.
func verdictFacts(res *datalog.Result) []string {
	var out []string
	for _, q := range []struct {
		name  string
		arity int
	}{{"verdict", 2}, {"vacuous", 1}, {"run_verdict", 1}} {
		for _, f := range res.Facts(q.name, q.arity) {
			out = append(out, f.String())
		}
	}
	sort.Strings(out)
	return out
}

// TestWrittenProgramAgrees: the .dl file written as an artifact, parsed
// back and evaluated on its own, reaches the same verdicts as the run.
func TestWrittenProgramAgrees(t *testing.T) {
	for _, c := range ruleCases {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprint(c, "/strict=", strict), func(t *testing.T) {
				out := runYAML(t, oneRule("v", c.rule, c.value), factsV(c.fact), strict)
				var dl strings.Builder
				if err := out.Program.WriteDL(&dl, []string{"test"}); err != nil {
					t.Fatal(err)
				}
				res, err := datalog.Eval(dl.String(), nil, datalog.Options{})
				if err != nil {
					t.Fatalf("evaluate written program: %v", err)
				}
				if diff := cmp.Diff(verdictFacts(out.Result), verdictFacts(res)); diff != "" {
					t.Errorf("written program disagrees (-run +written):\n%s", diff)
				}
			})
		}
	}
}

// TestRulesTogether runs every rule case in one rulespec over one envelope,
// so that checks share the program (number ranks, regex results, element
// facts): each predicate must get the outcome it gets alone.
func TestRulesTogether(t *testing.T) {
	for _, strict := range []bool{false, true} {
		var rs, env strings.Builder
		rs.WriteString("claims:\n")
		env.WriteString("facts:\n")
		for i, c := range ruleCases {
			fmt.Fprintf(&rs, "  - name: c%d\n    selector: v%d\n", i, i)
			if c.fact != missing {
				fmt.Fprintf(&env, "  v%d: %s\n", i, c.fact)
			}
		}
		rs.WriteString("predicates:\n")
		for i, c := range ruleCases {
			fmt.Fprintf(&rs, "  - claim: c%d\n    rule: %s\n", i, c.rule)
			if c.value != "" {
				fmt.Fprintf(&rs, "    value: %s\n", c.value)
			}
		}
		out := runYAML(t, rs.String(), env.String(), strict)
		for i, c := range ruleCases {
			want := c.want
			if strict && want.Vacuous {
				want.Status = Fail
			}
			if g := got(out.Report.Predicates[i]); g != want {
				t.Errorf("strict=%v, %s: got %+v, want %+v", strict, c, g, want)
			}
		}
		if out.Report.Verdict != "fail" {
			t.Errorf("verdict %s, want fail", out.Report.Verdict)
		}
	}
}

// TestRulesAsConditions uses every rule case as a when condition: the
// predicate applies exactly when the same check would pass as a predicate.
func TestRulesAsConditions(t *testing.T) {
	var rs, env strings.Builder
	rs.WriteString("claims:\n  - name: k\n    selector: k\n")
	env.WriteString("facts:\n  k: 1\n")
	for i, c := range ruleCases {
		fmt.Fprintf(&rs, "  - name: c%d\n    selector: v%d\n", i, i)
		if c.fact != missing {
			fmt.Fprintf(&env, "  v%d: %s\n", i, c.fact)
		}
	}
	rs.WriteString("predicates:\n")
	for i, c := range ruleCases {
		fmt.Fprintf(&rs, "  - claim: k\n    rule: equals\n    value: 1\n    when:\n      claim: c%d\n      rule: %s\n", i, c.rule)
		if c.value != "" {
			fmt.Fprintf(&rs, "      value: %s\n", c.value)
		}
	}
	out := runYAML(t, rs.String(), env.String(), false)
	for i, c := range ruleCases {
		want := pass
		if c.want.Status != Pass {
			want = skipped
		}
		if g := got(out.Report.Predicates[i]); g != want {
			t.Errorf("when %s: got %+v, want %+v", c, g, want)
		}
	}
}

// TestOneClaimManyRules reads one claim with rules that need different facts
// about it (whole key, elements, strings, numbers, length), as predicates and
// as conditions.
func TestOneClaimManyRules(t *testing.T) {
	const rs = `claims:
  - name: xs
    selector: xs
predicates:
  - {claim: xs, rule: equals, value: [a, 1, b, 2.5]}
  - {claim: xs, rule: contains, value: 2.5}
  - {claim: xs, rule: not_contains, value: c}
  - {claim: xs, rule: any_of, value: [a, b, 1, 2.5]}
  - {claim: xs, rule: none_of, value: [b]}
  - {claim: xs, rule: matches, value: "^[ab]$"}
  - {claim: xs, rule: greater_than, value: 0}
  - {claim: xs, rule: min_length, value: 4}
  - {claim: xs, rule: max_length, value: 3}
  - {claim: xs, rule: exists, when: {claim: xs, rule: matches, value: "^[a-z]$"}}
  - {claim: xs, rule: exists, when: {claim: xs, rule: any_of, value: [a, b, 1]}}
`
	out := runYAML(t, rs, "facts:\n  xs: [a, 1, b, 2.5, a]\n", false)
	var gotOut []outcome
	for _, p := range out.Report.Predicates {
		gotOut = append(gotOut, got(p))
	}
	want := []outcome{fail, pass, pass, pass, fail, fail, fail, pass, fail, skipped, skipped}
	if diff := cmp.Diff(want, gotOut); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	checkSummary(t, out.Report, Summary{Total: 11, Passed: 4, Failed: 5, Skipped: 2}, "fail")
}

// TestValueFrom compares claim c (facts v) with claim d (facts w) through
// value_from: the value claim stands where a literal value would, and a
// value claim that is absent or of the wrong type fails the check. The
// written program, evaluated on its own, must agree.
func TestValueFrom(t *testing.T) {
	tests := []struct {
		rule, v, w string
		want       outcome
	}{
		{"equals", `"x"`, `"x"`, pass},
		{"equals", "[1, 2]", "[1.0, 2]", pass},
		{"equals", "[1, 2]", "[2, 1]", fail},
		{"equals", `"x"`, missing, fail},
		{"equals", missing, missing, fail},
		{"contains", "[a, b]", `"b"`, pass},
		{"contains", `"abc"`, `"bc"`, pass},
		{"contains", "[a, b]", missing, fail},
		{"any_of", `"a"`, "[a, b]", pass},
		{"any_of", "[a, c]", "[a, b]", fail},
		{"any_of", `"a"`, `"a"`, fail}, // the value must be a list
		// An empty array passes only against a value: without one the
		// check fails, as every value_from rule does.
		{"any_of", "[]", "[a]", vacuous},
		{"any_of", "[]", missing, fail},
		{"any_of", "[]", `"a"`, fail},
		{"greater_than", "[]", "3", vacuous},
		{"greater_than", "[]", missing, fail},
		{"less_than", "[]", `"2"`, fail},
		{"greater_than", "5", "3", pass},
		{"greater_than", "3", "3.5", fail},
		{"less_than", "[1, 2]", "2.5", pass},
		{"less_than", "1", `"2"`, fail},
		{"less_than", "1", missing, fail},
		{"subset_of", "[a]", "[a, b]", pass},
		{"subset_of", "[a, c]", "[a, b]", fail},
		{"subset_of", "[]", "[a]", vacuous},
		{"subset_of", "[a]", missing, fail},
		{"subset_of", "[]", missing, fail},
		{"subset_of", "[a]", `"a"`, fail},
		{"superset_of", "[a, b]", "[b]", pass},
		{"superset_of", "[a]", "[a, b]", fail},
		{"superset_of", "[a]", "[]", vacuous},
		{"superset_of", "[a]", missing, fail},
		{"same_set", "[a, b, a]", "[b, a]", pass},
		{"same_set", "[a]", "[a, b]", fail},
		{"same_set", "[1]", `["1"]`, fail},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/v=%s/w=%s", tc.rule, tc.v, tc.w), func(t *testing.T) {
			rs := "claims:\n  - {name: c, selector: v}\n  - {name: d, selector: w}\npredicates:\n  - {claim: c, rule: " + tc.rule + ", value_from: d}\n"
			env := "facts:\n  other: 1\n"
			if tc.v != missing {
				env += "  v: " + tc.v + "\n"
			}
			if tc.w != missing {
				env += "  w: " + tc.w + "\n"
			}
			out := runYAML(t, rs, env, false)
			p := out.Report.Predicates[0]
			if g := got(p); g != tc.want {
				t.Errorf("got %+v, want %+v (message %q)", g, tc.want, p.Message)
			}
			var dl strings.Builder
			if err := out.Program.WriteDL(&dl, []string{"test"}); err != nil {
				t.Fatal(err)
			}
			res, err := datalog.Eval(dl.String(), nil, datalog.Options{})
			if err != nil {
				t.Fatalf("evaluate written program: %v", err)
			}
			if diff := cmp.Diff(verdictFacts(out.Result), verdictFacts(res)); diff != "" {
				t.Errorf("written program disagrees (-run +written):\n%s", diff)
			}
		})
	}
}
