package rulecheck

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/rulespec"
)

func TestCheck(t *testing.T) {
	const claims = "claims:\n  - {name: a, selector: x.a}\n  - {name: b, selector: x.b}\npredicates:\n"
	tests := []struct {
		name  string
		preds string
		want  []string // code@line:col
	}{
		{"clean", "  - {claim: a, rule: exists}\n  - {claim: b, rule: equals, value: 1}\n", nil},
		{"unused claim", "  - {claim: a, rule: exists}\n", []string{"unused-claim@3:5"}},
		{"duplicate ignores notes and ids", "  - {claim: a, rule: exists}\n  - {claim: a, rule: exists, id: x, notes: n}\n  - {claim: b, rule: exists}\n", []string{"duplicate@6:5"}},
		{"numbers compare by value", "  - {claim: a, rule: equals, value: 1}\n  - {claim: a, rule: equals, value: 1.0}\n  - {claim: b, rule: exists}\n", []string{"duplicate@6:5"}},
		{"mapping key order is ignored", "  - {claim: a, rule: equals, value: {p: 1, q: 2}}\n  - {claim: a, rule: equals, value: {q: 2, p: 1}}\n  - {claim: b, rule: exists}\n", []string{"duplicate@6:5"}},
		{"equals twice", "  - {claim: a, rule: equals, value: x}\n  - {claim: a, rule: equals, value: y}\n  - {claim: b, rule: exists}\n", []string{"contradiction@6:5"}},
		{"equals on different claims", "  - {claim: a, rule: equals, value: x}\n  - {claim: b, rule: equals, value: y}\n", nil},
		{"any_of partly allowed", "  - {claim: a, rule: any_of, value: [p, q]}\n  - {claim: a, rule: none_of, value: [p]}\n  - {claim: b, rule: exists}\n", nil},
		{"any_of all forbidden", "  - {claim: a, rule: none_of, value: [p, q]}\n  - {claim: a, rule: any_of, value: [q]}\n  - {claim: b, rule: exists}\n", []string{"contradiction@6:5"}},
		{"lengths equal is fine", "  - {claim: a, rule: min_length, value: 2}\n  - {claim: a, rule: max_length, value: 2}\n  - {claim: b, rule: exists}\n", nil},
		{"bounds meet", "  - {claim: a, rule: greater_than, value: 1.5}\n  - {claim: a, rule: less_than, value: 1.5}\n  - {claim: b, rule: exists}\n", []string{"contradiction@6:5"}},
		{"bounds leave room", "  - {claim: a, rule: greater_than, value: 1}\n  - {claim: a, rule: less_than, value: 1.5}\n  - {claim: b, rule: exists}\n", nil},
		{"different conditions", "  - {claim: a, rule: exists, when: {claim: b, rule: exists}}\n  - {claim: a, rule: not_exists, when: {claim: b, rule: not_exists}}\n", nil},
		{"same condition", "  - {claim: a, rule: exists, when: {claim: b, rule: exists}}\n  - {claim: a, rule: not_exists, when: {claim: b, rule: exists}}\n", []string{"contradiction@6:5"}},
		{"max_length guarded by min_length", "  - {claim: a, rule: max_length, value: 3}\n  - {claim: a, rule: min_length, value: 1}\n  - {claim: b, rule: exists}\n", nil},
		{"max_length alone", "  - {claim: a, rule: max_length, value: 3}\n  - {claim: b, rule: exists}\n", []string{"vacuous-when-absent@5:5"}},
		{"when not_exists on own claim", "  - {claim: a, rule: none_of, value: [x], when: {claim: a, rule: not_exists}}\n  - {claim: b, rule: exists}\n", []string{"never-fails@5:49"}},
		{"anchored patterns", "  - {claim: a, rule: matches, value: '^x'}\n  - {claim: b, rule: matches, value: 'y$'}\n", nil},
		{"unanchored when", "  - {claim: a, rule: exists, when: {claim: b, rule: matches, value: y}}\n", []string{"unanchored-pattern@5:36", "unchecked-condition@5:36"}},
		{"when over a claim nothing requires", "  - {claim: a, rule: exists, when: {claim: b, rule: equals, value: true}}\n", []string{"unchecked-condition@5:36"}},
		{"when over a required claim", "  - {claim: a, rule: exists, when: {claim: b, rule: equals, value: true}}\n  - {claim: b, rule: exists}\n", nil},
		{"when over a claim required only conditionally", "  - {claim: a, rule: exists, when: {claim: b, rule: equals, value: true}}\n  - {claim: b, rule: exists, when: {claim: a, rule: exists}}\n", []string{"unchecked-condition@5:36"}},
		{"when over a claim guarded by a rule failing on absence", "  - {claim: a, rule: exists, when: {claim: b, rule: greater_than, value: 1}}\n  - {claim: b, rule: min_length, value: 1}\n", nil},
		{"when that passes on absence", "  - {claim: a, rule: exists, when: {claim: b, rule: none_of, value: [x]}}\n", nil},
		{"file_exists with no_file_exists", "  - {claim: a, rule: no_file_exists}\n  - {claim: a, rule: file_exists}\n  - {claim: b, rule: exists}\n", []string{"evidence-conflict@6:5"}},
		{"file_exists with no_file_exists under one when", "  - {claim: a, rule: file_exists, when: {claim: b, rule: exists}}\n  - {claim: a, rule: no_file_exists, when: {claim: b, rule: exists}}\n", []string{"evidence-conflict@6:5"}},
		{"file_exists with no_file_exists, a when between", "  - {claim: a, rule: file_exists, when: {claim: b, rule: exists}}\n  - {claim: a, rule: no_file_exists}\n", nil},
		{"file_exists on different claims", "  - {claim: a, rule: file_exists}\n  - {claim: b, rule: no_file_exists}\n", nil},
		{"any_of lists disjoint", "  - {claim: a, rule: any_of, value: [p, q]}\n  - {claim: a, rule: any_of, value: [r]}\n  - {claim: b, rule: exists}\n", []string{"disjoint-any-of@6:5"}},
		{"any_of lists share a member", "  - {claim: a, rule: any_of, value: [p, q]}\n  - {claim: a, rule: any_of, value: [q, r]}\n  - {claim: b, rule: exists}\n", nil},
		{"any_of members compare as verify does", "  - {claim: a, rule: any_of, value: [1, x]}\n  - {claim: a, rule: any_of, value: [1.0]}\n  - {claim: b, rule: exists}\n", nil},
		{"any_of members are type-strict", "  - {claim: a, rule: any_of, value: [1]}\n  - {claim: a, rule: any_of, value: ['1']}\n  - {claim: b, rule: exists}\n", []string{"disjoint-any-of@6:5"}},
		{"any_of disjoint, a when between", "  - {claim: a, rule: any_of, value: [p]}\n  - {claim: a, rule: any_of, value: [r], when: {claim: b, rule: exists}}\n", nil},
		{"any_of [] is never-passes only", "  - {claim: a, rule: any_of, value: [p]}\n  - {claim: a, rule: any_of, value: []}\n  - {claim: b, rule: exists}\n", []string{"never-passes@6:5"}},
		{"three any_of lists", "  - {claim: a, rule: any_of, value: [p]}\n  - {claim: a, rule: any_of, value: [p, q]}\n  - {claim: a, rule: any_of, value: [q]}\n  - {claim: b, rule: exists}\n", []string{"disjoint-any-of@7:5"}},
		{"none_of [] in a when", "  - {claim: a, rule: exists, when: {claim: b, rule: none_of, value: []}}\n", []string{"never-fails@5:36"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := rulespec.Parse("r.yaml", []byte(claims+tt.preds))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range Check(rs) {
				got = append(got, w.Code+"@"+strconv.Itoa(w.Line)+":"+strconv.Itoa(w.Col))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRepoClaims: repository claims have a known shape, so comparisons
// that can never match are found before any run.
func TestRepoClaims(t *testing.T) {
	const claims = "claims:\n  - {name: said, selector: files}\n  - {name: changed, from: repo, selector: changed}\n  - {name: deps, from: repo, selector: dependencies_added}\n  - {name: base, from: repo, selector: base}\npredicates:\n"
	tests := []struct {
		name  string
		preds string
		want  []string
	}{
		{"the example", "  - {claim: changed, rule: subset_of, value_from: said}\n  - {claim: deps, rule: max_length, value: 0}\n  - {claim: base, rule: exists}\n", nil},
		{"strings against mappings", "  - {claim: changed, rule: subset_of, value_from: deps}\n  - {claim: said, rule: exists}\n  - {claim: base, rule: exists}\n", []string{"type-mismatch@7:5"}},
		{"a set rule on a string", "  - {claim: base, rule: same_set, value: [x]}\n  - {claim: said, rule: exists}\n  - {claim: changed, rule: exists}\n  - {claim: deps, rule: exists}\n", []string{"type-mismatch@7:5"}},
		{"value_from a string", "  - {claim: changed, rule: superset_of, value_from: base}\n  - {claim: said, rule: exists}\n  - {claim: deps, rule: exists}\n", []string{"type-mismatch@7:5"}},
		{"numbers against strings", "  - {claim: changed, rule: subset_of, value: [1, 2]}\n  - {claim: said, rule: exists}\n  - {claim: deps, rule: exists}\n  - {claim: base, rule: exists}\n", []string{"type-mismatch@7:5"}},
		{"equals a number", "  - {claim: base, rule: equals, value: 3}\n  - {claim: said, rule: exists}\n  - {claim: changed, rule: exists}\n  - {claim: deps, rule: exists}\n", []string{"type-mismatch@7:5"}},
		{"compared with itself", "  - {claim: changed, rule: same_set, value_from: changed}\n  - {claim: said, rule: exists}\n  - {claim: deps, rule: exists}\n  - {claim: base, rule: exists}\n", []string{"never-fails@7:5"}},
		{"envelope claims are unknown", "  - {claim: said, rule: subset_of, value: [1]}\n  - {claim: changed, rule: exists}\n  - {claim: deps, rule: exists}\n  - {claim: base, rule: exists}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := rulespec.Parse("r.yaml", []byte(claims+tt.preds))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range Check(rs) {
				got = append(got, w.Code+"@"+strconv.Itoa(w.Line)+":"+strconv.Itoa(w.Col))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
	rs, err := rulespec.Parse("r.yaml", []byte("claims:\n  - {name: c, from: repo, selector: chnged}\npredicates:\n  - {claim: c, rule: exists}\n"))
	if err != nil {
		t.Fatal(err)
	}
	ws := Check(rs)
	if len(ws) != 1 || ws[0].Code != UnknownRepoField || !strings.Contains(ws[0].Message, `did you mean "changed"`) {
		t.Errorf("unknown field: got %v", ws)
	}
	for _, tt := range []struct{ selector, hint string }{
		{`"files[*].lines_add"`, `did you mean "lines_added"`},
		{`"dependencies_added[0].nme"`, `did you mean "name"`},
		{`"imports_added[*].resolutoin.kind"`, `did you mean "resolution"`},
	} {
		rs, err := rulespec.Parse("r.yaml", []byte("claims:\n  - {name: c, from: repo, selector: "+tt.selector+"}\npredicates:\n  - {claim: c, rule: exists}\n"))
		if err != nil {
			t.Fatal(err)
		}
		ws := Check(rs)
		if len(ws) != 1 || ws[0].Code != UnknownRepoField || !strings.Contains(ws[0].Message, tt.hint) {
			t.Errorf("%s: got %v, want %s", tt.selector, ws, tt.hint)
		}
	}
	for _, ok := range []string{`"files[*].lines_added"`, `"imports_added[*].resolution.kind"`, `"changed[0]"`} {
		rs, err := rulespec.Parse("r.yaml", []byte("claims:\n  - {name: c, from: repo, selector: "+ok+"}\npredicates:\n  - {claim: c, rule: exists}\n"))
		if err != nil {
			t.Fatal(err)
		}
		if ws := Check(rs); len(ws) != 0 {
			t.Errorf("%s: got %v, want no warning", ok, ws)
		}
	}
}

// The facts-prefix warning follows the spelling, not the envelope: a bare
// facts. prefix is dropped and warned about; the quoted ["facts"] reaches a
// key literally named facts and is not.
func TestFactsPrefix(t *testing.T) {
	tests := []struct {
		sel  string
		want []string
	}{
		{"facts.a", []string{"facts-prefix@2:5"}},
		{"'facts[0]'", []string{"facts-prefix@2:5"}},
		{"facts", []string{"facts-prefix@2:5"}},
		{`'["facts"].a'`, nil},
		{`'["facts"]'`, nil},
		{"a.facts", nil},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			src := "claims:\n  - {name: a, selector: " + tt.sel + "}\npredicates:\n  - {claim: a, rule: exists}\n"
			rs, err := rulespec.Parse("r.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range Check(rs) {
				got = append(got, w.Code+"@"+strconv.Itoa(w.Line)+":"+strconv.Itoa(w.Col))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}
