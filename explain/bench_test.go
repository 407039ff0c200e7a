package explain

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/output"
)

// BenchmarkExplain500 explains a rulespec of 500 predicates (a mix of rule
// types, a fifth of them conditional, a tenth failing) against an envelope.
func BenchmarkExplain500(b *testing.B) {
	var rs, env strings.Builder
	rs.WriteString("claims:\n")
	env.WriteString("facts:\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&rs, "  - {name: c%d, selector: \"m%d.caps\"}\n  - {name: n%d, selector: \"m%d.n\"}\n", i, i, i, i)
		fmt.Fprintf(&env, "  m%d: {caps: [a, b, c%d], n: %d}\n", i, i, i)
	}
	rs.WriteString("predicates:\n")
	for i := 0; i < 500; i++ {
		c := i % 100
		switch i % 5 {
		case 0:
			fmt.Fprintf(&rs, "  - {claim: c%d, rule: contains, value: a, id: p%d}\n", c, i)
		case 1:
			fmt.Fprintf(&rs, "  - {claim: n%d, rule: greater_than, value: %d}\n", c, i%10)
		case 2:
			fmt.Fprintf(&rs, "  - {claim: c%d, rule: matches, value: '^[a-c]'}\n", c)
		case 3:
			fmt.Fprintf(&rs, "  - {claim: c%d, rule: none_of, value: [x, y]}\n", c)
		case 4:
			fmt.Fprintf(&rs, "  - {claim: c%d, rule: min_length, value: 3, when: {claim: n%d, rule: less_than, value: 50}}\n", c, c)
		}
	}
	r := mustRulespec(b, rs.String())
	e := mustEnvelope(b, env.String())
	b.ResetTimer()
	for b.Loop() {
		ex, err := Explain(r, e, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := ex.WriteText(io.Discard, output.Painter{}); err != nil {
			b.Fatal(err)
		}
	}
}
