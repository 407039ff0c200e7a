package datalog

import "github.com/google/mangle/ast"

// StratumLevels gives each of n strata its depth in the graph of strata
// reading one another: 0 for a stratum that reads no other, otherwise one
// more than the deepest stratum it reads (in a positive premise, a negated
// one, or through an aggregation's premises). Strata of one level never
// read each other, so they may be evaluated in any order or together.
func StratumLevels(rules []ast.Clause, predToStratum map[ast.PredicateSym]int, n int) []int {
	reads := make([]map[int]bool, n)
	for _, c := range rules {
		head, ok := predToStratum[c.Head.Predicate]
		if !ok {
			continue
		}
		for _, p := range c.Premises {
			var sym ast.PredicateSym
			switch t := p.(type) {
			case ast.Atom:
				sym = t.Predicate
			case ast.NegAtom:
				sym = t.Atom.Predicate
			default:
				continue
			}
			if s, ok := predToStratum[sym]; ok && s != head {
				if reads[head] == nil {
					reads[head] = map[int]bool{}
				}
				reads[head][s] = true
			}
		}
	}
	level := make([]int, n)
	state := make([]byte, n) // 0 unseen, 1 on the path, 2 done
	var visit func(s int) int
	visit = func(s int) int {
		switch state[s] {
		case 2:
			return level[s]
		case 1:
			// Stratification guarantees no cycle; should one appear,
			// stop rather than recurse forever.
			return 0
		}
		state[s] = 1
		l := 0
		for r := range reads[s] {
			l = max(l, visit(r)+1)
		}
		level[s], state[s] = l, 2
		return l
	}
	for s := range n {
		visit(s)
	}
	return level
}
