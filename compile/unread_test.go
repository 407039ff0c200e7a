package compile

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/rulespec"
)

// TestUnreadClaimNoFacts: a claim no check reads keeps its section and
// comment in the program but gets no facts, and its number still counts
// when the other claims' numbers are ranked, so their claim_rank facts
// are those of a program where it is read.
func TestUnreadClaimNoFacts(t *testing.T) {
	facts := gjson.Parse(`{"a": 5, "b": 3, "c": 9}`)
	const claims = "claims:\n  - {name: a, selector: a}\n  - {name: b, selector: b}\n  - {name: c, selector: c}\n"
	compileFacts := func(preds string) map[string][]string {
		t.Helper()
		rs, err := rulespec.Parse("r.yaml", []byte(claims+"predicates:\n"+preds))
		if err != nil {
			t.Fatal(err)
		}
		p := Compile(rs, facts, Options{})
		out := map[string][]string{}
		for _, s := range p.Sections {
			for _, name := range []string{"a", "b", "c"} {
				if strings.HasPrefix(s.Comment, `claim "`+name+`"`) {
					out[name] = []string{}
					for _, f := range s.Facts {
						out[name] = append(out[name], f.String())
					}
				}
			}
		}
		return out
	}
	unread := compileFacts("  - {claim: a, rule: greater_than, value: 1}\n  - {claim: c, rule: greater_than, value: 1}\n")
	read := compileFacts("  - {claim: a, rule: greater_than, value: 1}\n  - {claim: b, rule: greater_than, value: 1}\n  - {claim: c, rule: greater_than, value: 1}\n")
	if got, ok := unread["b"]; !ok || len(got) != 0 {
		t.Fatalf("unread claim b: section %v, facts %q; want a section with no facts", ok, got)
	}
	if len(read["b"]) == 0 {
		t.Fatal("claim b read by a check has no facts")
	}
	rank := func(fs []string) string {
		for _, f := range fs {
			if strings.HasPrefix(f, "claim_rank(") {
				return f
			}
		}
		return ""
	}
	for _, name := range []string{"a", "c"} {
		if r := rank(read[name]); r == "" || rank(unread[name]) != r {
			t.Errorf("claim %s: claim_rank %q with b unread, %q with b read; want the same", name, rank(unread[name]), r)
		}
	}
}
