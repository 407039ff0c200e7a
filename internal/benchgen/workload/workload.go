// Package workload builds the benchmark workloads of docs/performance.md:
// a rulespec, an envelope, and the same rules written in Rego for conftest,
// so the in-process benchmarks and the whole-process comparison measure
// exactly the same inputs.
package workload

import (
	"fmt"
	"strings"
)

// Workload is one benchmark input.
type Workload struct {
	// Rulespec and Envelope are vouch's inputs; EnvelopeName is the
	// envelope's file name (its extension picks YAML or JSON).
	Rulespec, Envelope, EnvelopeName string
	// Rego is a conftest policy (package main, deny rules) that fails
	// exactly when the rulespec does.
	Rego string
}

// Wide is preds predicates, cycling through eight rule types, over an
// envelope with keys keys: top-level groups of ten fields each.
func Wide(keys, preds int) Workload {
	var env, rs, rego strings.Builder
	env.WriteString("facts:\n")
	groups := keys / 10
	for g := 0; g < groups; g++ {
		fmt.Fprintf(&env, "  g%d:\n", g)
		fmt.Fprintf(&env, "    name: \"item-%d\"\n    count: %d\n    ratio: %d.5\n    ok: true\n    tags: [a, b, c%d]\n", g, g, g, g)
		fmt.Fprintf(&env, "    path: src/g%d.go\n    owner: team-%d\n    size: %d\n    notes: \"n\"\n    extra: {k: v}\n", g, g%7, g*3)
	}
	rs.WriteString("claims:\n")
	for i := 0; i < preds; i++ {
		g := i % groups
		fmt.Fprintf(&rs, "  - {name: c%d_name, selector: g%d.name}\n  - {name: c%d_count, selector: g%d.count}\n  - {name: c%d_tags, selector: g%d.tags}\n", i, g, i, g, i, g)
	}
	rs.WriteString("predicates:\n")
	rego.WriteString("package main\n\nimport rego.v1\n\n")
	for i := 0; i < preds; i++ {
		g := i % groups
		v := fmt.Sprintf("input.facts.g%d", g)
		var body string
		switch i % 8 {
		case 0:
			fmt.Fprintf(&rs, "  - {claim: c%d_name, rule: exists}\n", i)
			body = fmt.Sprintf("not %s.name", v)
		case 1:
			fmt.Fprintf(&rs, "  - {claim: c%d_name, rule: matches, value: \"^item-[0-9]+$\"}\n", i)
			body = fmt.Sprintf("not regex.match(`^item-[0-9]+$`, %s.name)", v)
		case 2:
			fmt.Fprintf(&rs, "  - {claim: c%d_count, rule: greater_than, value: -1}\n", i)
			body = fmt.Sprintf("not %s.count > -1", v)
		case 3:
			fmt.Fprintf(&rs, "  - {claim: c%d_tags, rule: contains, value: a}\n", i)
			body = fmt.Sprintf("not \"a\" in %s.tags", v)
		case 4:
			fmt.Fprintf(&rs, "  - {claim: c%d_tags, rule: none_of, value: [x, y]}\n", i)
			body = fmt.Sprintf("some t in %s.tags\n\tt in {\"x\", \"y\"}", v)
		case 5:
			fmt.Fprintf(&rs, "  - {claim: c%d_tags, rule: min_length, value: 2}\n", i)
			body = fmt.Sprintf("count(%s.tags) < 2", v)
		case 6:
			fmt.Fprintf(&rs, "  - {claim: c%d_count, rule: less_than, value: 1000000, when: {claim: c%d_name, rule: exists}}\n", i, i)
			body = fmt.Sprintf("%s.name\n\tnot %s.count < 1000000", v, v)
		case 7:
			fmt.Fprintf(&rs, "  - {claim: c%d_tags, rule: any_of, value: [a, b, c%d]}\n", i, i%groups)
			body = fmt.Sprintf("some t in %s.tags\n\tnot t in {\"a\", \"b\", \"c%d\"}", v, i%groups)
		}
		fmt.Fprintf(&rego, "deny contains \"p%d\" if {\n\t%s\n}\n\n", i, body)
	}
	return Workload{Rulespec: rs.String(), Envelope: env.String(), EnvelopeName: "envelope.yaml", Rego: rego.String()}
}

// Array is five predicates over an items array of n objects, read
// through items[*].
func Array(n int) Workload {
	var env strings.Builder
	env.WriteString(`{"facts": {"items": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			env.WriteByte(',')
		}
		fmt.Fprintf(&env, `{"id": %d, "name": "item-%d", "score": %d.25}`, i, i, i%100)
	}
	env.WriteString("]}}\n")
	rs := `claims:
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
	rego := `package main

import rego.v1

deny contains "p0" if {
	count([x | some it in input.facts.items; x := it.id]) < 1
}

deny contains "p1" if {
	some it in input.facts.items
	not it.id > -1
}

deny contains "p2" if {
	some it in input.facts.items
	not it.score < 100
}

deny contains "p3" if {
	some it in input.facts.items
	not regex.match(` + "`^item-[0-9]+$`" + `, it.name)
}

deny contains "p4" if {
	some it in input.facts.items
	it.name == "item-forbidden"
}
`
	return Workload{Rulespec: rs, Envelope: env.String(), EnvelopeName: "envelope.json", Rego: rego}
}
