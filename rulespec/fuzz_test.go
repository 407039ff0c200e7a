package rulespec

import (
	"errors"
	"os"
	"testing"
)

// FuzzParse checks that Parse never panics and that its result is always
// one of: a rulespec with at least one predicate, each naming a defined
// claim; or a non-empty ErrorList whose every entry names the file.
func FuzzParse(f *testing.F) {
	seed, err := os.ReadFile("testdata/seed.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed))
	f.Add(string(seed[:len(seed)/2]))
	f.Add("claims: [\n")
	f.Add("")
	f.Add("- a\n")
	f.Add(header + "  - {claim: caps, rule: min_len, value: 1.5, when: {claim: x, rule: any_of, value: [null]}}\n")
	f.Add(header + "  - {claim: caps, rule: matches, value: '([a-z'}\n")
	f.Add("claims:\n  - {name: a, selector: \"\\u00e9..b\"}\n  - {name: b, selector: &s 'x''..y'}\n  - {name: c, selector: *s}\npredicates: []\n")
	f.Add(header + "  - &p {claim: caps, rule: any_of, value: &v [*v]}\n  - *p\n---\nx\n")
	f.Fuzz(func(t *testing.T, in string) {
		rs, err := Parse("f.yaml", []byte(in))
		if err != nil {
			if rs != nil {
				t.Fatalf("Parse returned both a rulespec and %v", err)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for _, e := range list {
				if e.File != "f.yaml" {
					t.Fatalf("error %q has File %q", e.Error(), e.File)
				}
				if e.Msg == "" {
					t.Fatalf("error %q has no message", e.Error())
				}
			}
			return
		}
		if rs == nil || len(rs.Predicates) == 0 {
			t.Fatalf("Parse succeeded with no predicates: %+v", rs)
		}
		defined := make(map[string]bool)
		for _, c := range rs.Claims {
			if c.Selector == nil {
				t.Fatalf("claim %q has no selector", c.Name)
			}
			defined[c.Name] = true
		}
		for i, p := range rs.Predicates {
			if !defined[p.Claim] {
				t.Fatalf("predicate %d names undefined claim %q", i, p.Claim)
			}
			if p.When != nil && !defined[p.When.Claim] {
				t.Fatalf("predicate %d's when names undefined claim %q", i, p.When.Claim)
			}
			if !p.Rule.Valid() {
				t.Fatalf("predicate %d has invalid rule %q", i, p.Rule)
			}
			if (p.Value == nil) != (p.Rule.Value() == NoValue) {
				t.Fatalf("predicate %d (%s) has Value %v", i, p.Rule, p.Value)
			}
		}
	})
}
