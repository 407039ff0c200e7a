package ruletest

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const example = "../testdata/examples/csv-importer/analysis/rulespec_test.yaml"

// The shipped example passes, and its cases take every predicate's passing
// and failing path.
func TestShippedExample(t *testing.T) {
	f, err := Load(example)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK {
		t.Fatalf("example cases failed: %+v", r.Cases)
	}
	for _, c := range r.Coverage {
		if !c.Pass || !c.Fail {
			t.Errorf("predicate %s: pass=%v fail=%v, want both", c.Label, c.Pass, c.Fail)
		}
		if c.Conditional && !c.Skipped {
			t.Errorf("conditional predicate %s is never skipped", c.Label)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"empty", "", []string{"t.yaml: test file is empty; it needs cases:"}},
		{"not a mapping", "[1]", []string{"t.yaml:1:1: the test file must be a mapping, found a list"}},
		{"no cases", "rulespec: r.yaml", []string{"t.yaml:1:1: the test file has no cases; add cases: with a name, an envelope or facts, and a verdict or predicates for each"}},
		{"unknown top key", "case: []\ncases: [{name: a, facts: {}, verdict: pass}]", []string{`t.yaml:1:1: unknown key "case" in the test file (did you mean "cases"?); allowed keys are cases, rulespec, strict`}},
		{"strict not bool", "strict: yes please\ncases: [{name: a, facts: {}, verdict: pass}]", []string{`t.yaml:1:9: strict must be true or false, found "yes please"`}},
		{"both envelope and facts", "cases: [{name: a, facts: {}, envelope: e.yaml, verdict: pass}]", []string{`t.yaml:1:26: case "a" has both envelope: and facts:; use one`}},
		{"facts not a mapping", "cases: [{name: a, facts: [1], verdict: pass}]", []string{`t.yaml:1:26: facts must be a mapping, found a list`}},
		{"bad verdict", "cases: [{name: a, facts: {}, verdict: skipped}]", []string{`t.yaml:1:39: unknown verdict "skipped"; use pass or fail`}},
		{"negative index", "cases: [{name: a, facts: {}, predicates: {-1: pass}}]", []string{`t.yaml:1:43: predicate index -1 must be a non-negative integer`}},
		{"duplicate names", "cases:\n  - {name: a, facts: {}, verdict: pass}\n  - {name: a, facts: {}, verdict: pass}", []string{`t.yaml:3:5: duplicate case name "a" (first at line 2); names must be unique so --run can pick one`}},
		{"two documents", "cases: []\n---\ncases: []", []string{`t.yaml:3:1: the test file holds more than one YAML document; remove the '---' separator and keep everything in one document`}},
		{"duplicate facts keys", "cases: [{name: a, facts: {x: 1, x: 2}, verdict: pass}]", []string{`t.yaml:1:33: duplicate key "x" (first defined at line 1); remove one of them`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			got := strings.Split(err.Error(), "\n")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParse(t *testing.T) {
	f, err := Parse("dir/t.yaml", []byte(`rulespec: r.yaml
strict: true
cases:
  - name: one
    envelope: e.yaml
    verdict: fail
    predicates: {3: skipped, my-id: pass}
  - name: two
    facts: {a: [1, "x"]}
    verdict: pass
`))
	if err != nil {
		t.Fatal(err)
	}
	want := &File{Path: "dir/t.yaml", Rulespec: "r.yaml", Strict: true, Cases: []Case{
		{Name: "one", Pos: Pos{Line: 4, Col: 5}, EnvelopePath: "e.yaml", Verdict: "fail", Predicates: []Expect{
			{Index: 3, Status: "skipped", Pos: Pos{Line: 7, Col: 18}}, {Index: -1, ID: "my-id", Status: "pass", Pos: Pos{Line: 7, Col: 30}}}},
		{Name: "two", Pos: Pos{Line: 8, Col: 5}, Facts: []byte(`{"a":[1,"x"]}`), Verdict: "pass"},
	}}
	if diff := cmp.Diff(want, f); diff != "" {
		t.Errorf("parse (-want +got):\n%s", diff)
	}
}

// FuzzParse: no input crashes the parser, and every error is positioned
// in the file or names it.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile(example); err == nil {
		f.Add(data)
	}
	f.Add([]byte("cases: [{name: a, facts: {x: 1}, verdict: pass, predicates: {0: fail, id: skipped}}]"))
	f.Add([]byte("rulespec: r.yaml\nstrict: true\ncases:\n  - name: a\n    envelope: e.yaml\n    verdict: fail\n"))
	f.Add([]byte("cases: &a [*a]"))
	f.Add([]byte("cases:\n- {name: [x], facts: !!binary aGk=}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("t.yaml", data)
		if err == nil {
			if file == nil || len(file.Cases) == 0 {
				t.Fatal("no error and no cases")
			}
			return
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			if !strings.HasPrefix(line, "t.yaml") {
				t.Fatalf("error not naming the file: %q", line)
			}
		}
	})
}
