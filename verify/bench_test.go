package verify

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/rulespec"
)

// BenchmarkSeedExample is the seed's complete example, loaded from disk and
// verified end to end (without writing artifacts).
func BenchmarkSeedExample(b *testing.B) {
	in := Input{
		RulespecPath: "../testdata/examples/csv-importer/analysis/rulespec.yaml",
		EnvelopePath: "../testdata/examples/csv-importer/envelope.yaml",
		Limits:       envelope.DefaultLimits(),
	}
	for b.Loop() {
		o, err := Run(in)
		if err != nil || o.Report.Verdict != "pass" {
			b.Fatalf("verdict %v, err %v", o, err)
		}
	}
}

// wideInputs builds an envelope with keys top-level groups of ten fields
// each and a rulespec of preds predicates cycling through the rule types.
func wideInputs(b *testing.B, keys, preds int) (*rulespec.Rulespec, *envelope.Envelope) {
	b.Helper()
	var env strings.Builder
	env.WriteString("facts:\n")
	groups := keys / 10
	for g := 0; g < groups; g++ {
		fmt.Fprintf(&env, "  g%d:\n", g)
		fmt.Fprintf(&env, "    name: \"item-%d\"\n    count: %d\n    ratio: %d.5\n    ok: true\n    tags: [a, b, c%d]\n", g, g, g, g)
		fmt.Fprintf(&env, "    path: src/g%d.go\n    owner: team-%d\n    size: %d\n    notes: \"n\"\n    extra: {k: v}\n", g, g%7, g*3)
	}
	var rs strings.Builder
	rs.WriteString("claims:\n")
	for i := 0; i < preds; i++ {
		g := i % groups
		fmt.Fprintf(&rs, "  - {name: c%d_name, selector: g%d.name}\n  - {name: c%d_count, selector: g%d.count}\n  - {name: c%d_tags, selector: g%d.tags}\n", i, g, i, g, i, g)
	}
	rs.WriteString("predicates:\n")
	for i := 0; i < preds; i++ {
		switch i % 8 {
		case 0:
			fmt.Fprintf(&rs, "  - {claim: c%d_name, rule: exists}\n", i)
		case 1:
			fmt.Fprintf(&rs, "  - {claim: c%d_name, rule: matches, value: \"^item-[0-9]+$\"}\n", i)
		case 2:
			fmt.Fprintf(&rs, "  - {claim: c%d_count, rule: greater_than, value: -1}\n", i)
		case 3:
			fmt.Fprintf(&rs, "  - {claim: c%d_tags, rule: contains, value: a}\n", i)
		case 4:
			fmt.Fprintf(&rs, "  - {claim: c%d_tags, rule: none_of, value: [x, y]}\n", i)
		case 5:
			fmt.Fprintf(&rs, "  - {claim: c%d_tags, rule: min_length, value: 2}\n", i)
		case 6:
			fmt.Fprintf(&rs, "  - {claim: c%d_count, rule: less_than, value: 1000000, when: {claim: c%d_name, rule: exists}}\n", i, i)
		case 7:
			fmt.Fprintf(&rs, "  - {claim: c%d_tags, rule: any_of, value: [a, b, c%d]}\n", i, i%groups)
		}
	}
	r, err := rulespec.Parse("bench.yaml", []byte(rs.String()))
	if err != nil {
		b.Fatal(err)
	}
	e, err := envelope.Parse("env.yaml", []byte(env.String()), envelope.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	return r, e
}

// BenchmarkWide is 1,000 predicates over an envelope with 10,000 keys (and
// the same doubled, to show how time grows).
func BenchmarkWide(b *testing.B) {
	for _, size := range []struct{ keys, preds int }{{10_000, 1_000}, {20_000, 2_000}} {
		b.Run(fmt.Sprintf("keys=%d/preds=%d", size.keys, size.preds), func(b *testing.B) {
			rs, env := wideInputs(b, size.keys, size.preds)
			for b.Loop() {
				o, err := RunLoaded(rs, env, false, 0, 0)
				if err != nil {
					b.Fatal(err)
				}
				if o.Report.Summary.Failed != 0 {
					b.Fatalf("unexpected failures: %+v", o.Report.Summary)
				}
			}
		})
	}
}

// arrayInputs builds an envelope whose items array has n objects, and five
// predicates reading it through [*].
func arrayInputs(b *testing.B, n int) (*rulespec.Rulespec, *envelope.Envelope) {
	b.Helper()
	var env strings.Builder
	env.WriteString(`{"facts": {"items": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			env.WriteByte(',')
		}
		fmt.Fprintf(&env, `{"id": %d, "name": "item-%d", "score": %d.25}`, i, i, i%100)
	}
	env.WriteString("]}}\n")
	rs := `
claims:
  - {name: ids, selector: "items[*].id"}
  - {name: names, selector: "items[*].name"}
  - {name: scores, selector: "items[*].score"}
predicates:
  - {claim: ids, rule: min_length, value: 1}
  - {claim: ids, rule: greater_than, value: -1}
  - {claim: scores, rule: less_than, value: 100}
  - {claim: names, rule: matches, value: "^item-[0-9]+$"}
  - {claim: names, rule: not_contains, value: "item-forbidden"}
`
	r, err := rulespec.Parse("bench.yaml", []byte(rs))
	if err != nil {
		b.Fatal(err)
	}
	e, err := envelope.Parse("env.json", []byte(env.String()), envelope.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	return r, e
}

// BenchmarkLargeArray is five predicates over a 100,000-element array read
// through [*] (and the same doubled).
func BenchmarkLargeArray(b *testing.B) {
	for _, n := range []int{100_000, 200_000} {
		b.Run(fmt.Sprintf("elements=%d", n), func(b *testing.B) {
			rs, env := arrayInputs(b, n)
			for b.Loop() {
				o, err := RunLoaded(rs, env, false, 0, 0)
				if err != nil {
					b.Fatal(err)
				}
				if o.Report.Verdict != "pass" {
					b.Fatalf("verdict %s: %+v", o.Report.Verdict, o.Report.Predicates)
				}
			}
		})
	}
}

// BenchmarkTraceWide renders the evaluation trace (a proof for every
// predicate) of the 1,000-predicate run, the part of writing artifacts that
// grows with the rulespec. Each iteration traces a fresh evaluation, since
// a Result shares proofs between calls.
func BenchmarkTraceWide(b *testing.B) {
	rs, env := wideInputs(b, 10_000, 1_000)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		o, err := RunLoaded(rs, env, false, 0, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if len(o.Trace(nil)) == 0 {
			b.Fatal("empty trace")
		}
	}
}
