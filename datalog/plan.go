package datalog

import (
	"maps"
	"slices"
	"sync"

	"github.com/google/mangle/analysis"
	"github.com/google/mangle/ast"
)

// A Plan is the part of a program that can derive a fact from one set of
// extensional predicates: the rules none of whose positive premises is a
// predicate that has no facts (and cannot get any), in the program's
// strata, renumbered.
//
// Why: a run sends facts for a few of a fixed program's extensional
// predicates (a rulespec without evidence rules cites no files, a guard
// decision on a Bash call has no paths), and Mangle pays a fixed cost for
// every rule it evaluates and every stratum it sets up, a large part of a
// small run. A rule with a positive premise over an empty relation derives
// nothing, and a predicate all of whose rules are dropped stays empty, so
// dropping them changes no derived fact. A negated premise over an empty
// relation holds, so negations never drop a rule, and an aggregation over
// an empty relation derives nothing in Mangle (no group), so dropping it is
// exact too. A negated premise over a relation that stays empty holds for
// every binding, so a kept rule loses it: the engine pays for every premise
// it evaluates, once per partial solution (a verdict rule's
// !strict_rejected(I) would be looked up for every predicate of a run
// without --strict). Stratification puts a negated predicate in an earlier
// stratum than the rule, so whether it stays empty is known by then.
// Proofs read the program as written, where such a literal shows as
// absent. Tests evaluate programs both ways and compare every fact.
//
// It assumes every fact comes from the store or a kept rule: a premise
// over a predicate Mangle answers otherwise (an external predicate passed
// with engine.WithExternalPredicates, a deferred one) would look empty and
// drop its rule. vouch's programs declare none.
type Plan struct {
	// Info holds the kept rules, and the declarations of their heads
	// only: the engine copies every declaration it is given on each run
	// and needs none of the extensional ones.
	Info *analysis.ProgramInfo
	// Strata and PredToStratum are the kept strata, renumbered.
	Strata        []analysis.Nodeset
	PredToStratum map[ast.PredicateSym]int
	// From is, for each kept stratum, its index in the program's strata.
	From []int
}

// A Planner prepares plans for one program and keeps them by the set of
// predicates with facts they were made for. It is safe for concurrent
// use.
type Planner struct {
	// index numbers every predicate of the program.
	index map[ast.PredicateSym]int
	// initial are the predicates the program's own facts give.
	initial []int
	// levels holds each stratum's rules, in stratum order.
	levels [][]plannedRule
	decls  map[ast.PredicateSym]*ast.Decl
	base   analysis.ProgramInfo

	mu    sync.Mutex
	cache map[string]*Plan
}

// maxPlans bounds a Planner's cache: a process sees a handful of fact
// shapes (a hook one, a test run a few dozen), a fuzzer many more.
const maxPlans = 256

type plannedRule struct {
	clause ast.Clause
	head   int
	// needs are the predicates of the rule's positive premises.
	needs []int
	// negs are, for each of the rule's negated premises over a stored
	// relation, its position in the body and its predicate.
	negs []negPremise
}

type negPremise struct{ at, pred int }

// NewPlanner prepares to plan the program of info evaluated in strata.
func NewPlanner(info *analysis.ProgramInfo, strata []analysis.Nodeset, predToStratum map[ast.PredicateSym]int) *Planner {
	p := &Planner{
		index:  map[ast.PredicateSym]int{},
		levels: make([][]plannedRule, len(strata)),
		decls:  info.Decls,
		base:   *info,
		cache:  map[string]*Plan{},
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
	}
	for _, f := range info.InitialFacts {
		p.initial = append(p.initial, num(f.Predicate))
	}
	for _, c := range info.Rules {
		r := plannedRule{clause: c, head: num(c.Head.Predicate)}
		for i, t := range c.Premises {
			switch a := t.(type) {
			case ast.Atom:
				if !a.Predicate.IsBuiltin() {
					r.needs = append(r.needs, num(a.Predicate))
				}
			case ast.NegAtom:
				if !a.Atom.Predicate.IsBuiltin() {
					r.negs = append(r.negs, negPremise{at: i, pred: num(a.Atom.Predicate)})
				}
			}
		}
		s := predToStratum[c.Head.Predicate]
		p.levels[s] = append(p.levels[s], r)
	}
	return p
}

// key is the set of the program's predicates in present, as a bitset.
// Every predicate counts, not only extensional ones: facts may also be
// given for a predicate that has rules.
func (p *Planner) key(present func(yield func(ast.PredicateSym) bool)) []byte {
	k := make([]byte, (len(p.index)+7)/8)
	for s := range present {
		if i, ok := p.index[s]; ok {
			k[i/8] |= 1 << (i % 8)
		}
	}
	return k
}

// Plan returns the plan for facts of the predicates in present.
func (p *Planner) Plan(present map[ast.PredicateSym]bool) *Plan {
	return p.plan(maps.Keys(present))
}

// PlanList returns the plan for facts of the predicates listed in
// present; it is Plan for a caller that has them in a slice.
func (p *Planner) PlanList(present []ast.PredicateSym) *Plan {
	return p.plan(slices.Values(present))
}

func (p *Planner) plan(present func(yield func(ast.PredicateSym) bool)) *Plan {
	k := p.key(present)
	p.mu.Lock()
	pl := p.cache[string(k)]
	p.mu.Unlock()
	if pl != nil {
		return pl
	}
	have := make([]bool, len(p.index))
	for i := range have {
		have[i] = k[i/8]&(1<<(i%8)) != 0
	}
	for _, i := range p.initial {
		have[i] = true
	}
	pl = &Plan{PredToStratum: map[ast.PredicateSym]int{}}
	info := p.base
	info.Rules = nil
	info.Decls = map[ast.PredicateSym]*ast.Decl{}
	for li, level := range p.levels {
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
			info.Rules = append(info.Rules, withoutEmptyNegations(r, have))
			h := r.clause.Head.Predicate
			set[h] = struct{}{}
			pl.PredToStratum[h] = len(pl.Strata)
			if d, ok := p.decls[h]; ok {
				info.Decls[h] = d
			}
		}
		if len(set) > 0 {
			pl.Strata = append(pl.Strata, set)
			pl.From = append(pl.From, li)
		}
	}
	pl.Info = &info
	p.mu.Lock()
	if len(p.cache) < maxPlans {
		p.cache[string(k)] = pl
	}
	p.mu.Unlock()
	return pl
}

// withoutEmptyNegations is r's clause without the negated premises over
// predicates that have no facts; a clause that would be left without a
// body keeps its own.
func withoutEmptyNegations(r plannedRule, have []bool) ast.Clause {
	drop := 0
	for _, n := range r.negs {
		if !have[n.pred] {
			drop++
		}
	}
	c := r.clause
	if drop == 0 || drop == len(c.Premises) {
		return c
	}
	premises := make([]ast.Term, 0, len(c.Premises)-drop)
	next := 0
	for i, t := range c.Premises {
		if next < len(r.negs) && r.negs[next].at == i {
			n := r.negs[next]
			next++
			if !have[n.pred] {
				continue
			}
		}
		premises = append(premises, t)
	}
	c.Premises = premises
	return c
}

func all(have []bool, needs []int) bool {
	for _, n := range needs {
		if !have[n] {
			return false
		}
	}
	return true
}
