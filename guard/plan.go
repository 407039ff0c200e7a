package guard

import (
	"sync"

	"github.com/google/mangle/analysis"
	"github.com/google/mangle/ast"
)

// A plan is the part of a fixed program that can derive a fact from one
// set of extensional predicates: the rules none of whose positive
// premises is a predicate that has no facts (and cannot get any), in the
// program's strata, renumbered.
//
// Why: a decision sends facts for a few of guard.dl's extensional
// predicates (a Bash call has no paths, a policy without sandbox rules
// sends no sandbox facts), and Mangle pays a fixed cost for every rule it
// evaluates and every stratum it sets up, which after the rules were made
// selective was most of a decision. A rule with a positive premise over
// an empty relation derives nothing, and a predicate all of whose rules
// are dropped stays empty, so dropping them changes no derived fact; a
// negated premise over an empty relation holds, so negations never drop
// a rule. TestPlanDerivesTheSame checks this against the whole program.
type plan struct {
	info          *analysis.ProgramInfo
	strata        []analysis.Nodeset
	predToStratum map[ast.PredicateSym]int
}

// planner prepares plans for one fixed program and keeps them by the set
// of extensional predicates they were made for.
type planner struct {
	// index numbers every predicate of the program.
	index map[ast.PredicateSym]int
	// edb is the bit of each extensional predicate in a plan's key; a
	// program with more than 64 is planned afresh on every run.
	edb map[ast.PredicateSym]uint64
	// initial are the predicates the program's own facts give.
	initial []int
	// levels holds each stratum's rules, in stratum order.
	levels [][]plannedRule
	decls  map[ast.PredicateSym]*ast.Decl
	base   analysis.ProgramInfo

	mu    sync.Mutex
	cache map[uint64]*plan
}

type plannedRule struct {
	clause ast.Clause
	head   int
	// needs are the predicates of the rule's positive premises.
	needs []int
}

func newPlanner(info *analysis.ProgramInfo, strata []analysis.Nodeset, predToStratum map[ast.PredicateSym]int) *planner {
	p := &planner{
		index:  map[ast.PredicateSym]int{},
		edb:    map[ast.PredicateSym]uint64{},
		levels: make([][]plannedRule, len(strata)),
		decls:  info.Decls,
		base:   *info,
		cache:  map[uint64]*plan{},
	}
	num := func(s ast.PredicateSym) int {
		if i, ok := p.index[s]; ok {
			return i
		}
		p.index[s] = len(p.index)
		return p.index[s]
	}
	for s := range info.Decls {
		num(s)
		if _, idb := info.IdbPredicates[s]; !idb && len(p.edb) < 64 {
			p.edb[s] = 1 << len(p.edb)
		}
	}
	if len(p.edb) == 64 {
		p.edb = nil
	}
	for _, f := range info.InitialFacts {
		p.initial = append(p.initial, num(f.Predicate))
	}
	for _, c := range info.Rules {
		r := plannedRule{clause: c, head: num(c.Head.Predicate)}
		for _, t := range c.Premises {
			if a, ok := t.(ast.Atom); ok && !a.Predicate.IsBuiltin() {
				r.needs = append(r.needs, num(a.Predicate))
			}
		}
		s := predToStratum[c.Head.Predicate]
		p.levels[s] = append(p.levels[s], r)
	}
	return p
}

// key is the set of extensional predicates in present, and whether it
// can key the cache.
func (p *planner) key(present map[ast.PredicateSym]bool) (uint64, bool) {
	if p.edb == nil {
		return 0, false
	}
	var k uint64
	for s := range present {
		k |= p.edb[s]
	}
	return k, true
}

// plan returns the plan for facts of the predicates in present.
func (p *planner) plan(present map[ast.PredicateSym]bool) *plan {
	k, cacheable := p.key(present)
	if cacheable {
		p.mu.Lock()
		pl := p.cache[k]
		p.mu.Unlock()
		if pl != nil {
			return pl
		}
	}
	have := make([]bool, len(p.index))
	for s := range present {
		if i, ok := p.index[s]; ok {
			have[i] = true
		}
	}
	for _, i := range p.initial {
		have[i] = true
	}
	pl := &plan{predToStratum: map[ast.PredicateSym]int{}}
	info := p.base
	info.Rules = nil
	info.Decls = map[ast.PredicateSym]*ast.Decl{}
	for _, level := range p.levels {
		kept := make([]bool, len(level))
		// A recursive stratum's rules may need each other's heads:
		// repeat until no rule is added.
		for changed := true; changed; {
			changed = false
			for i, r := range level {
				if kept[i] || !all(have, r.needs) {
					continue
				}
				kept[i], have[r.head], changed = true, true, true
			}
		}
		set := analysis.Nodeset{}
		for i, r := range level {
			if !kept[i] {
				continue
			}
			info.Rules = append(info.Rules, r.clause)
			h := r.clause.Head.Predicate
			set[h] = struct{}{}
			pl.predToStratum[h] = len(pl.strata)
			if d, ok := p.decls[h]; ok {
				info.Decls[h] = d
			}
		}
		if len(set) > 0 {
			pl.strata = append(pl.strata, set)
		}
	}
	pl.info = &info
	if cacheable {
		p.mu.Lock()
		p.cache[k] = pl
		p.mu.Unlock()
	}
	return pl
}

func all(have []bool, needs []int) bool {
	for _, n := range needs {
		if !have[n] {
			return false
		}
	}
	return true
}
