package guard

import (
	"github.com/google/mangle/ast"
)

// terms holds the Mangle constants most decisions use, each made and boxed
// once per Engine. ast.Name checks its argument by splitting it, and every
// constant stored in an ast.BaseTerm is copied to the heap: together they
// were most of the allocations in building a decision's facts.
type terms struct {
	// leaf is each leafResult's name (/false, /true, /error).
	leaf  [3]ast.BaseTerm
	names map[string]ast.BaseTerm
	// small are the numbers 0..len-1: node ids, operand positions and
	// session counts.
	small [64]ast.BaseTerm
}

func newTerms() terms {
	t := terms{names: map[string]ast.BaseTerm{}}
	for _, r := range []leafResult{leafFalse, leafTrue, leafError} {
		t.leaf[r] = mname(r.name())
	}
	for _, n := range []string{"/pre", "/post", "/all", "/any", "/leaf"} {
		t.names[n] = mname(n)
	}
	for i := range t.small {
		t.small[i] = ast.Number(int64(i))
	}
	return t
}

// name returns the Mangle name n, which must be valid.
func (t *terms) name(n string) ast.BaseTerm {
	if c, ok := t.names[n]; ok {
		return c
	}
	return mname(n)
}

// phase returns a phase's name.
func (t *terms) phase(p Phase) ast.BaseTerm {
	return t.name("/" + string(p))
}

// number returns the Mangle number n.
func (t *terms) number(n int64) ast.BaseTerm {
	if n >= 0 && n < int64(len(t.small)) {
		return t.small[n]
	}
	return ast.Number(n)
}

// preparedRule is what a rule contributes to every decision it applies
// to, whatever the call: Policy.Prepare makes it once per policy.
type preparedRule struct {
	id ast.BaseTerm
	// facts are the rule's rule_disabled, rule_mode, rule_action,
	// rule_selects_tool and rule facts, in that order.
	facts []ast.Atom
	// when is the rule's condition with not rewritten away, or nil.
	when *ncond
}

// prepareRules makes each rule's preparedRule.
func prepareRules(p *Policy) []preparedRule {
	out := make([]preparedRule, len(p.Rules))
	for i := range p.Rules {
		r := &p.Rules[i]
		pr := preparedRule{id: ast.String(r.ID)}
		b := &factBuilder{}
		add := b.add
		if !r.Enabled {
			add("rule_disabled", pr.id)
		}
		if r.Observe(p) {
			add("rule_mode", pr.id, mname("/observed"))
		} else {
			add("rule_mode", pr.id, mname("/enforced"))
		}
		if r.Action != "" {
			add("rule_action", pr.id, mname("/"+r.Action))
		}
		add("rule_selects_tool", pr.id)
		switch r.Kind {
		case KindPre, KindPost:
			add("rule", pr.id, mname("/"+r.Kind), ast.Number(int64(bandRules+i)))
			if r.When != nil {
				pr.when = normal(r.When, false)
			}
		case KindSandbox:
			add("rule", pr.id, mname("/sandbox"), ast.Number(int64(bandSandbox+i)))
		case KindSession:
			add("rule", pr.id, mname("/session"), ast.Number(int64(bandSession+i)))
		}
		pr.facts = b.facts
		out[i] = pr
	}
	return out
}
