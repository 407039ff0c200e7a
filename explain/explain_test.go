package explain

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/compile"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/selectors"

	"github.com/vouch-dev/vouch/output"
)

func mustRulespec(t testing.TB, src string) *rulespec.Rulespec {
	t.Helper()
	rs, err := rulespec.Parse("rs.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse rulespec: %v", err)
	}
	return rs
}

func mustEnvelope(t testing.TB, src string) *envelope.Envelope {
	t.Helper()
	env, err := envelope.Parse("env.yaml", []byte(src), envelope.DefaultLimits())
	if err != nil {
		t.Fatalf("parse envelope: %v", err)
	}
	return env
}

func TestSentence(t *testing.T) {
	tests := []struct {
		pred string
		want string
	}{
		{"{claim: caps, rule: contains, value: migration_guide, when: {claim: breaking, rule: equals, value: true}}",
			"When `breaking` equals true, `caps` must contain \"migration_guide\" (an element of an array, or a substring of a string)."},
		{"{claim: caps, rule: exists}", "`caps` must be present (a missing key or null fails)."},
		{"{claim: caps, rule: not_exists}", "`caps` must be absent (a missing key or null)."},
		{"{claim: caps, rule: equals, value: {a: 1}}", "`caps` must equal {\"a\":1}."},
		{"{claim: caps, rule: any_of, value: [a, 1]}", "`caps` must be one of [\"a\",1] (for an array: every element)."},
		{"{claim: caps, rule: min_length, value: 2, when: {claim: breaking, rule: not_exists}}",
			"When `breaking` is absent, `caps` must have at least 2 characters, elements or keys."},
		{"{claim: caps, rule: greater_than, value: 1.5}", "`caps` must be a number greater than 1.5 (for an array: every element)."},
		{"{claim: caps, rule: matches, value: '^a', when: {claim: breaking, rule: matches, value: x}}",
			"When `breaking` matches \"x\", `caps` must match the regular expression \"^a\" (searched anywhere unless anchored; for an array: every element)."},
	}
	for _, tt := range tests {
		t.Run(tt.pred, func(t *testing.T) {
			rs := mustRulespec(t, "claims: [{name: caps, selector: a}, {name: breaking, selector: b}]\npredicates:\n  - "+tt.pred+"\n")
			if got, err := Sentence(rs.Predicates[0]); err != nil || got != tt.want {
				t.Errorf("Sentence:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestReads(t *testing.T) {
	tests := []struct{ sel, want string }{
		{"a.b", `facts → key "a" → key "b"; absent if`},
		{"a[0]", `facts → key "a" → element 0; absent if`},
		{"a[*].b", `facts → key "a" → every element [*] → key "b"; the non-null matches form one flat array`},
		{`a["x.y"]`, `facts → key "a" → key "x.y"; absent if`},
		{"facts.a", `facts → (the "facts" prefix is dropped) → key "a"; absent if`},
		{`["facts"].a`, `facts → key "facts" → key "a"; absent if`},
	}
	for _, tt := range tests {
		if got := Reads(selectors.MustParse(tt.sel)); !strings.HasPrefix(got, tt.want) {
			t.Errorf("Reads(%s) = %q, want prefix %q", tt.sel, got, tt.want)
		}
	}
}

func TestClausesFor(t *testing.T) {
	sem, err := newSemanticsIndex()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rule, when   rulespec.Rule
		strict       bool
		want, reject []string
	}{
		{rulespec.Contains, "", false,
			[]string{"pass(Ch) :- check(Ch, _, /contains), hit(Ch).", "contains_rule(/contains).", "verdict(I, /fail) :- predicate(I, Ch), !skipped(I), !pass(Ch)."},
			[]string{"contains_rule(/not_contains).", "skipped(I) :- condition(I, W), !pass(W), !undecided_condition(I).", "verdict(I, /skipped) :- predicate(I, _), skipped(I).", "strict_rejected(I) :- option(/strict), predicate(I, Ch), pass(Ch), vacuous_check(Ch).", "absent(Ch) :- check(Ch, C, _), !present(C)."}},
		{rulespec.Contains, rulespec.Equals, false,
			[]string{"skipped(I) :- condition(I, W), !pass(W), !undecided_condition(I).", "pass(Ch) :- check(Ch, C, /equals), claim(C, T), claim_key(C, K), check_value(Ch, T, K)."},
			nil},
		{rulespec.NoneOf, "", true,
			[]string{"strict_rejected(I) :- option(/strict), predicate(I, Ch), pass(Ch), vacuous_check(Ch).", "vacuous_when_absent(/none_of).", "pass(Ch) :- check(Ch, _, /none_of), absent(Ch)."},
			[]string{"pass(Ch) :- check(Ch, _, /not_contains), absent(Ch)."}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-%s-%v", tt.rule, tt.when, tt.strict), func(t *testing.T) {
			got := sem.clausesFor(tt.rule, tt.when, tt.strict)
			set := make(map[string]bool)
			for _, c := range got {
				set[c] = true
			}
			for _, w := range tt.want {
				if !set[w] {
					t.Errorf("missing %s in\n%s", w, strings.Join(got, "\n"))
				}
			}
			for _, r := range tt.reject {
				if set[r] {
					t.Errorf("unexpected %s", r)
				}
			}
		})
	}
}

func TestTypeHint(t *testing.T) {
	tests := []struct{ want, found, hint string }{
		{"false", `"false"`, `expected boolean false, found string "false"; write value: "false" or fix the envelope`},
		{`"1"`, "1", `expected string "1", found number 1; write value: 1 or fix the envelope`},
		{"true", `"false"`, ""},
		{"1", "2", ""},
		{`["a"]`, `"a"`, ""},
	}
	for _, tt := range tests {
		if got := typeHint(gjson.Parse(tt.want), gjson.Parse(tt.found)); got != tt.hint {
			t.Errorf("typeHint(%s, %s) = %q, want %q", tt.want, tt.found, got, tt.hint)
		}
	}
}

func TestNearest(t *testing.T) {
	idx := newPathIndex(gjson.Parse(`{"csv_importer":{"capabilities":["a"],"file":"x"},"api":{"breaking":true}}`))
	tests := []struct {
		text string
		want []string
	}{
		{"csv_importr.capabilities", []string{"csv_importer.capabilities"}},
		{"api.braking", []string{"api.breaking"}},
		{"csv_importer.capabilities[*]", []string{"csv_importer.capabilities"}},
		{"nothing.like.it", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, idx.nearest(tt.text)); diff != "" {
			t.Errorf("nearest(%s) (-want +got):\n%s", tt.text, diff)
		}
	}
}

func TestResolve(t *testing.T) {
	root := gjson.Parse(`{"a":{"b":[1,2],"n":null,"s":"x"}}`)
	tests := []struct{ sel, prefix, why string }{
		{"a.c", "a", `has no key "c"`},
		{"a.b[5]", "a.b", "has 2 elements, so index 5 is out of range"},
		{"a.s.t", "a.s", `is string "x", not a mapping`},
		{"a.n", "a", "`a.n` is null"},
		{"facts.a.c", "a", `has no key "c"`},
		{`["facts"].a`, "", `has no key "facts"`},
	}
	// An envelope's own facts key does not redirect a prefixed selector.
	steered := gjson.Parse(`{"facts":{"a":{"c":1}},"a":{"b":1}}`)
	if prefix, why := resolve(steered, selectors.MustParse("facts.a.c")); pathText(prefix) != "a" || !strings.Contains(why, `has no key "c"`) {
		t.Errorf("resolve(facts.a.c) over a facts key = %q, %q; want the prefix dropped", pathText(prefix), why)
	}
	if prefix, _ := resolve(steered, selectors.MustParse(`["facts"].a.c`)); len(prefix) != 3 {
		t.Errorf("resolve([\"facts\"].a.c) stopped at %q; want it to resolve", pathText(prefix))
	}
	for _, tt := range tests {
		prefix, why := resolve(root, selectors.MustParse(tt.sel))
		if pathText(prefix) != tt.prefix || !strings.Contains(why, tt.why) {
			t.Errorf("resolve(%s) = %q, %q; want %q, containing %q", tt.sel, pathText(prefix), why, tt.prefix, tt.why)
		}
	}
}

func TestExplainOutcomes(t *testing.T) {
	rs := mustRulespec(t, `claims:
  - {name: caps, selector: caps}
  - {name: flag, selector: flag}
predicates:
  - {claim: caps, rule: contains, value: a}
  - {claim: caps, rule: contains, value: z}
  - {claim: caps, rule: exists, when: {claim: flag, rule: equals, value: true}}
  - {claim: flag, rule: not_contains, value: q}
`)
	env := mustEnvelope(t, "facts: {caps: [a, b], flag: false}\n")
	ex, err := Explain(rs, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ex.Predicates {
		got = append(got, fmt.Sprintf("%d %s %v %s", p.Index, p.Outcome.Status, p.Outcome.Vacuous, p.Outcome.Derivation.Fact))
	}
	want := []string{
		"0 pass false verdict(0, /pass).",
		"1 fail false verdict(1, /fail).",
		"2 skipped false verdict(2, /skipped).",
		"3 fail false verdict(3, /fail).",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if ex.Verdict != "fail" {
		t.Errorf("verdict = %s, want fail", ex.Verdict)
	}
	// The mismatch fact for not_contains on a boolean is the evidence.
	if diff := cmp.Diff([]string{`mismatch("p3").`}, ex.Predicates[3].Outcome.Evidence); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}
}

func TestSelect(t *testing.T) {
	rs := mustRulespec(t, `claims: [{name: a, selector: a}, {name: b, selector: b}]
predicates:
  - {claim: a, rule: exists, id: first}
  - {claim: b, rule: exists}
  - {claim: a, rule: not_exists}
`)
	tests := []struct {
		sel  []string
		want []int
		err  string
	}{
		{nil, []int{0, 1, 2}, ""},
		{[]string{"a"}, []int{0, 2}, ""},
		{[]string{"first", "1"}, []int{0, 1}, ""},
		{[]string{"2", "2"}, []int{2}, ""},
		{[]string{"frist"}, nil, `"frist" is not a predicate index, id or claim name of rs.yaml (did you mean "first"?)`},
		{[]string{"3"}, nil, "no predicate with index 3; indexes run from 0 to 2"},
	}
	for _, tt := range tests {
		got, err := selectPredicates(rs, tt.sel)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("select %v: err %v, want %s", tt.sel, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("select %v: %v", tt.sel, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("select %v (-want +got):\n%s", tt.sel, diff)
		}
	}
}

func TestCitations(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "a.go"), []byte("1\n2\n3\n4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := mustRulespec(t, "claims: [{name: f, selector: f}, {name: g, selector: g}]\npredicates:\n"+
		"  - {claim: f, rule: file_exists}\n"+
		"  - {claim: g, rule: no_file_exists, when: {claim: f, rule: file_exists}}\n"+
		"  - {claim: f, rule: exists}\n")
	env := mustEnvelope(t, "facts:\n  f: ['src/a.go:2-3', 'src/a.go:3-9', src, nope.go]\n  g: src/a.go\n")
	ex, err := Explain(rs, env, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ex.Predicates {
		for _, c := range p.Outcome.Citations {
			got = append(got, fmt.Sprintf("%d %s %s", p.Index, c.Check, c.Describe()))
		}
	}
	want := []string{
		`0 p0 "nope.go" — nothing at this path: not found`,
		`0 p0 "src" — a directory, not a file; cite the files`,
		`0 p0 "src/a.go:2-3" — regular file, 4 lines: found`,
		`0 p0 "src/a.go:3-9" — regular file, 4 lines: not found (lines 3-9 are not all in the file)`,
		`1 p1 "src/a.go" — regular file: found`,
		`1 w1 "nope.go" — nothing at this path: not found`,
		`1 w1 "src" — a directory, not a file; cite the files`,
		`1 w1 "src/a.go:2-3" — regular file, 4 lines: found`,
		`1 w1 "src/a.go:3-9" — regular file, 4 lines: not found (lines 3-9 are not all in the file)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("citations (-want +got):\n%s", diff)
	}
	// The facts are the store's, as the program holds them.
	c := ex.Predicates[0].Outcome.Citations[2]
	wantFacts := []string{`ref_exists("src/a.go:2-3", /file).`, `ref_lines("src/a.go:2-3", 4).`, `ref_range("src/a.go:2-3", 2, 3).`, `found("src/a.go:2-3").`}
	if diff := cmp.Diff(wantFacts, c.Facts); diff != "" {
		t.Errorf("facts (-want +got):\n%s", diff)
	}
	if c.Kind != "file" || c.Lines != 4 || c.First != 2 || c.Last != 3 || !c.Found {
		t.Errorf("citation fields: %+v", c)
	}
}

func TestCitationsCapped(t *testing.T) {
	var refs []string
	for i := range maxCitations + 7 {
		refs = append(refs, fmt.Sprintf("f%03d.go", i))
	}
	rs := mustRulespec(t, "claims: [{name: f, selector: f}]\npredicates:\n  - {claim: f, rule: file_exists}\n")
	env := mustEnvelope(t, "facts:\n  f: ["+strings.Join(refs, ", ")+"]\n")
	ex, err := Explain(rs, env, Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	o := ex.Predicates[0].Outcome
	if len(o.Citations) != maxCitations || o.CitationsOmitted != 7 {
		t.Errorf("got %d citations, %d omitted; want %d, 7", len(o.Citations), o.CitationsOmitted, maxCitations)
	}
	var b strings.Builder
	if err := ex.WriteText(&b, output.Painter{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "    ... and 7 more cited paths\n") {
		t.Errorf("text lacks the omitted count:\n%s", b.String())
	}
}

// TestClauseLinesMatchParsing proves that pairing the generated clauses
// with semantics.dl's lines in order gives what parsing each line alone
// gives.
func TestClauseLinesMatchParsing(t *testing.T) {
	want := make(map[string]string)
	for _, line := range strings.Split(compile.Semantics(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "Decl") {
			continue
		}
		if u, err := datalog.ParseRules(line); err == nil && len(u.Clauses) == 1 {
			want[u.Clauses[0].String()] = line
		}
	}
	got, err := clauseLines(compile.Semantics(), compile.SemanticsUnit().Clauses)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("clause lines (-parsed +paired):\n%s", diff)
	}
}

// TestSentenceUnknownRule: a rule type without a descriptor is an error,
// never a vaguer sentence.
func TestSentenceUnknownRule(t *testing.T) {
	p := rulespec.Predicate{Check: rulespec.Check{Claim: "caps", Rule: rulespec.Rule("disjoint_from")}}
	if got, err := Sentence(p); err == nil || !strings.Contains(err.Error(), `"disjoint_from" has no descriptor`) {
		t.Fatalf("Sentence = %q, %v; want an error naming the rule type", got, err)
	}
}
