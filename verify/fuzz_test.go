package verify

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/parse"

	"github.com/vouch-dev/vouch/compile"

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
//
// Only the facts the envelope shapes are parsed per input: the fixed
// semantics must appear verbatim, and compile's tests prove the generated
// analysis equal to parsing them. That keeps an execution to about a
// millisecond, so two minutes of fuzzing try tens of thousands of inputs
// (TestReplayWrittenProgram still replays whole files with stock Mangle).
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
			facts, err := writtenFacts(dl.String())
			if err != nil {
				t.Fatalf("written program: %v\n%s", err, dl.String())
			}
			res, err := datalog.EvalAnalysis(compile.SemanticsAnalysis(), facts, datalog.Options{})
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

// writtenFacts checks that a written program is header comments, the fixed
// semantics verbatim, then nothing but ground facts, and returns the facts
// as stock Mangle parses them. A string that escaped its literal would show
// up here as a rule, a declaration or a non-ground atom.
func writtenFacts(dl string) ([]ast.Atom, error) {
	head, rest, ok := strings.Cut(dl, compile.Semantics())
	if !ok {
		return nil, errors.New("the fixed semantics are not written verbatim")
	}
	for _, line := range strings.Split(head, "\n") {
		if line != "" && !strings.HasPrefix(line, "# ") {
			return nil, fmt.Errorf("header line %q is not a comment", line)
		}
	}
	unit, err := parse.Unit(strings.NewReader(rest))
	if err != nil {
		return nil, fmt.Errorf("parse the facts: %w", err)
	}
	if len(unit.Decls) > 1 || len(unit.Decls) == 1 && unit.Decls[0].DeclaredAtom.Predicate.Symbol != "Package" {
		return nil, fmt.Errorf("the facts declare %d predicates", len(unit.Decls))
	}
	facts := make([]ast.Atom, 0, len(unit.Clauses))
	for _, c := range unit.Clauses {
		if c.Premises != nil || c.Transform != nil {
			return nil, fmt.Errorf("a rule among the facts: %s", c)
		}
		for _, a := range c.Head.Args {
			if _, ok := a.(ast.Constant); !ok {
				return nil, fmt.Errorf("a fact with a variable: %s", c)
			}
		}
		facts = append(facts, c.Head)
	}
	return facts, nil
}

// TestWrittenFactsRejects proves the fuzz target's check would notice a
// string that escaped into program text.
func TestWrittenFactsRejects(t *testing.T) {
	sem := compile.Semantics()
	tests := []struct{ name, dl, want string }{
		{"ok", "# h\n\n" + sem + "\n# c\nclaim(\"a\", /string).\n", ""},
		{"rule", "# h\n\n" + sem + "\nclaim(\"a\", /string). pass(X) :- check(X, _, _).\n", "a rule among the facts"},
		{"decl", "# h\n\n" + sem + "\nDecl evil(X).\n", "declare"},
		{"variable", "# h\n\n" + sem + "\nclaim(X, /string).\n", "variable"},
		{"header", "pass(\"p0\").\n" + sem, "not a comment"},
		{"semantics changed", "# h\n\n" + strings.Replace(sem, "pass(Ch)", "pass(C)", 1), "verbatim"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts, err := writtenFacts(tt.dl)
			if tt.want == "" {
				if err != nil || len(facts) != 1 {
					t.Fatalf("writtenFacts = %v, %v; want one fact", facts, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("writtenFacts error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
