package datalog

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/google/mangle/ast"
	"github.com/google/mangle/engine"
	"github.com/google/mangle/unionfind"
)

// Proof is one derivation of a fact, read back from the evaluated store: a
// clause whose head matches the fact and whose body holds in the final store.
// Extensional facts are leaves with no clause.
type Proof struct {
	Fact ast.Atom
	// Clause is the rule that derived Fact, as written in the program; nil
	// for an extensional fact.
	Clause *ast.Clause
	// Body holds each body literal of Clause, ground.
	Body []Literal
}

// Literal is one ground body literal of a derivation.
type Literal struct {
	// Text is the literal with its variables replaced by their values.
	Text string
	// Negated marks `!p(...)`: the proof rests on that fact being absent.
	Negated bool
	// Builtin marks comparisons and built-in predicates.
	Builtin bool
	// Proof is the derivation of a positive, derived literal.
	Proof *Proof
}

// maxProofDepth guards against a program whose rules recurse through the
// proof; vouch's compiled programs are shallow, so hitting it is a bug.
const maxProofDepth = 64

// Prove finds a derivation of fact in the evaluated store. It re-solves rule
// bodies against the final store rather than re-running the program, so the
// proof shows exactly the facts the engine had.
//
// Proofs of sub-facts are shared between calls on the same Result: a trace
// proving every predicate's verdict proves each shared fact (an option, a
// claim's presence) once. Callers must not modify a returned Proof.
//
// Prove may be called from several goroutines at once: the search only
// reads the evaluated store, and the shared proofs are guarded. For a
// program without recursion, which goroutine proves a shared fact first
// does not change any proof; in a recursive one, or when the step budget
// runs out, it may, so lint (recursive rules) proves one fact at a time.
func (r *Result) Prove(fact ast.Atom) (*Proof, error) {
	if !r.store.Contains(fact) {
		return nil, fmt.Errorf("prove %s: %w", fact, ErrNoFact)
	}
	pv := &prover{r: r, q: engine.QueryContext{PredToRules: r.rules, PredToDecl: r.info.Decls, Store: r.store},
		onPath: make(map[string]bool), budget: maxProofSteps, cache: &r.proofs}
	return pv.prove(fact, 0)
}

// proofCache is what a Result's proofs share. done holds finished proofs
// by the printed fact; a proof is only kept when its search never skipped
// a solution for being on the current path, because such a proof depends
// on where in the tree it was searched. premises holds each clause's body
// with wildcards named, computed once. mu guards both maps, and only
// them: proofs run concurrently and meet only here.
type proofCache struct {
	mu       sync.Mutex
	done     map[string]*Proof
	premises map[*ast.Clause][]ast.Term
}

// proof returns the finished proof of the fact printed as key, if any.
func (c *proofCache) proof(key string) (*Proof, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.done[key]
	return p, ok
}

// keep records a finished proof.
func (c *proofCache) keep(key string, p *Proof) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(map[string]*Proof)
	}
	c.done[key] = p
}

// body returns the clause's body with wildcards named, naming them on
// first use.
func (c *proofCache) body(cl *ast.Clause) []ast.Term {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.premises[cl]; ok {
		return p
	}
	if c.premises == nil {
		c.premises = make(map[*ast.Clause][]ast.Term)
	}
	p := nameWildcards(cl.Premises)
	c.premises[cl] = p
	return p
}

// maxProofSteps bounds the premise evaluations one proof may make. On
// recursive relations over dense graphs a depth-first search for a
// derivation can otherwise take exponential time; running out is reported,
// never mistaken for a proof.
const maxProofSteps = 200_000

// prover searches for one derivation. onPath holds the facts being proved
// on the current branch: a body literal that is one of them would make the
// proof circular (p because q because p), so such solutions are skipped.
type prover struct {
	r      *Result
	q      engine.QueryContext
	onPath map[string]bool
	budget int
	cache  *proofCache
	// pathSkips counts solutions skipped because of onPath.
	pathSkips int
	// probe is mayHold's buffer for a query's arguments.
	probe []ast.BaseTerm
}

func (pv *prover) prove(fact ast.Atom, depth int) (*Proof, error) {
	if depth > maxProofDepth {
		return nil, fmt.Errorf("prove %s: derivation deeper than %d", fact, maxProofDepth)
	}
	key := fact.String()
	if p, ok := pv.cache.proof(key); ok {
		return p, nil
	}
	pv.onPath[key] = true
	defer delete(pv.onPath, key)
	skips := pv.pathSkips
	p, err := pv.search(fact, depth)
	if err == nil && pv.pathSkips == skips {
		pv.cache.keep(key, p)
	}
	return p, err
}

// search tries the clauses of fact's predicate in program order and
// returns the first derivation found.
func (pv *prover) search(fact ast.Atom, depth int) (*Proof, error) {
	clauses := pv.r.rules[fact.Predicate]
	if len(clauses) == 0 {
		return &Proof{Fact: fact}, nil
	}
	for i := range clauses {
		clause := clauses[i]
		premises := pv.premisesOf(&clauses[i])
		// Most clauses are ruled out by their head or first premise;
		// test that on a plain binding of the head's variables before
		// paying for the engine's substitution.
		bind, ok := bindHead(clause.Head, fact)
		if !ok {
			continue
		}
		if bind == nil {
			// A head with function terms: unify it the engine's way.
			uf, err := unionfind.UnifyTermsExtend(clause.Head.Args, fact.Args, unionfind.New())
			if err != nil {
				continue
			}
			bind = fromUnionFind(binding{}, clause.Head, uf)
		}
		if len(premises) > 0 && !pv.mayHold(premises[0], bind) {
			continue
		}
		sol, ok, err := pv.solve(premises, bind)
		if err != nil {
			return nil, fmt.Errorf("prove %s: %w", fact, err)
		}
		if !ok {
			continue
		}
		p := &Proof{Fact: fact, Clause: &clause}
		for _, prem := range premises {
			lit, err := pv.literal(prem, sol, depth)
			if err != nil {
				return nil, err
			}
			p.Body = append(p.Body, lit)
		}
		return p, nil
	}
	// An initial fact written in the program text (such as a rule-kind
	// table) has no clause with a body.
	return &Proof{Fact: fact}, nil
}

// premisesOf returns the clause's body with wildcards named, computed once
// per clause.
func (pv *prover) premisesOf(c *ast.Clause) []ast.Term {
	return pv.cache.body(c)
}

// errFound stops a store scan at its first match.
var errFound = errors.New("found")

// bindHead matches a clause head against the fact to prove, binding the
// head's variables. ok is false when they cannot match (a constant
// differs, or a variable would take two values), exactly when unifying
// them would fail. A head with other terms (function applications) gives
// a nil binding and ok: the caller then skips the quick test.
func bindHead(head, fact ast.Atom) (binding, bool) {
	if len(head.Args) != len(fact.Args) {
		return nil, false
	}
	bind := make(binding, 0, len(head.Args))
	for i, arg := range head.Args {
		c := fact.Args[i]
		if _, ok := c.(ast.Constant); !ok {
			return nil, true
		}
		switch h := arg.(type) {
		case ast.Constant:
			if !h.Equals(c) {
				return nil, false
			}
		case ast.Variable:
			if h.Symbol == "_" {
				continue
			}
			if prev, seen := bind.get(h); seen {
				if !prev.Equals(c) {
					return nil, false
				}
				continue
			}
			bind = append(bind, bound{h, c})
		default:
			return nil, true
		}
	}
	return bind, true
}

// binding is what bindHead binds: a head has a handful of variables, so a
// slice searched in order is cheaper than a map.
type binding []bound

type bound struct {
	v ast.Variable
	// c is the value, always an ast.Constant, kept as the interface value
	// the fact holds: boxing a Constant anew allocates, and proofs read
	// bindings millions of times.
	c ast.BaseTerm
}

// Get implements ast.Subst: a variable's value, or nil when unbound.
func (b binding) Get(v ast.Variable) ast.BaseTerm {
	c, _ := b.get(v)
	return c
}

// with returns b with v bound to c, leaving b itself unchanged: a search
// tries several facts against the same bindings.
func (b binding) with(v ast.Variable, c ast.BaseTerm) binding {
	return append(b[:len(b):len(b)], bound{v, c})
}

// toUnionFind is b in the engine's substitution type, for the premises
// the engine evaluates (built-ins, negations, equalities).
func (b binding) toUnionFind() (unionfind.UnionFind, error) {
	vars := make([]ast.Variable, len(b))
	vals := make([]ast.BaseTerm, len(b))
	for i, x := range b {
		vars[i], vals[i] = x.v, x.c
	}
	return unionfind.InitVars(vars, vals)
}

// fromUnionFind adds to b the values uf gives the variables of t that b
// leaves unbound.
func fromUnionFind(b binding, t ast.Term, uf unionfind.UnionFind) binding {
	vars := map[ast.Variable]bool{}
	ast.AddVars(t, vars)
	names := make([]ast.Variable, 0, len(vars))
	for v := range vars {
		names = append(names, v)
	}
	// Map order must not leak into the binding's order.
	sort.Slice(names, func(i, j int) bool { return names[i].Symbol < names[j].Symbol })
	for _, v := range names {
		if _, done := b.get(v); done || v.Symbol == "_" {
			continue
		}
		if c := uf.Get(v); isConstant(c) {
			b = b.with(v, c)
		}
	}
	return b
}

func (b binding) get(v ast.Variable) (ast.BaseTerm, bool) {
	for _, x := range b {
		if x.v == v {
			return x.c, true
		}
	}
	return nil, false
}

func isConstant(t ast.BaseTerm) bool {
	_, ok := t.(ast.Constant)
	return ok
}

// mayHold is a cheap test that rules a clause out before solving its
// body: a positive first premise over a stored relation must match at
// least one fact once the head's bindings are applied. Most clauses of a
// predicate with many rule types (pass has one per type) fail right there,
// and a store probe costs far less than the engine's general premise
// evaluation. Anything else is left to solve.
func (pv *prover) mayHold(prem ast.Term, bind binding) bool {
	a, ok := prem.(ast.Atom)
	if !ok || strings.HasPrefix(a.Predicate.Symbol, ":") {
		return true
	}
	// The probe's arguments live in a buffer the prover reuses: the store
	// keeps nothing of a query.
	pv.probe = append(pv.probe[:0], a.Args...)
	g := ast.Atom{Predicate: a.Predicate, Args: pv.probe}
	for i, arg := range a.Args {
		switch t := arg.(type) {
		case ast.Constant:
			g.Args[i] = t
		case ast.Variable:
			if c, ok := bind.get(t); ok {
				g.Args[i] = c
			} else {
				g.Args[i] = t
			}
		default:
			// A function term is evaluated by solve, not matched.
			return true
		}
	}
	return pv.r.store.GetFacts(g, stopAtFirst) == errFound
}

// stopAtFirst ends a store scan at its first fact.
func stopAtFirst(ast.Atom) error { return errFound }

// nameWildcards gives each `_` in a positive atom its own variable, so the
// ground literal shown in a proof names the fact that matched instead of
// keeping the wildcard.
func nameWildcards(premises []ast.Term) []ast.Term {
	out := make([]ast.Term, len(premises))
	n := 0
	for i, p := range premises {
		a, ok := p.(ast.Atom)
		if !ok {
			out[i] = p
			continue
		}
		args := make([]ast.BaseTerm, len(a.Args))
		for j, arg := range a.Args {
			if v, isVar := arg.(ast.Variable); isVar && v.Symbol == "_" {
				arg = ast.Variable{Symbol: fmt.Sprintf("Wildcard%d", n)}
				n++
			}
			args[j] = arg
		}
		out[i] = ast.Atom{Predicate: a.Predicate, Args: args}
	}
	return out
}

// solve finds the first binding satisfying every premise in order,
// skipping solutions that would make the proof circular. Bindings are
// slices, not the engine's union-find: Mangle copies a whole union-find
// map for every fact a premise matches, which made proofs cost nearly as
// much as evaluating the program.
func (pv *prover) solve(premises []ast.Term, bind binding) (binding, bool, error) {
	if len(premises) == 0 {
		return bind, true, nil
	}
	if pv.budget--; pv.budget < 0 {
		return bind, false, fmt.Errorf("proof search gave up after %d steps", maxProofSteps)
	}
	if i := boundFirst(premises, bind); i > 0 {
		// Solve a premise the bindings so far narrow down first: a
		// clause written for bottom-up evaluation may start with a
		// relation it scans whole (cedge in fd_cimp), which top-down
		// would enumerate for every proof. Only a positive atom moves
		// earlier, so a negation or builtin still comes after the
		// atoms binding its variables.
		reordered := make([]ast.Term, 0, len(premises))
		reordered = append(reordered, premises[i])
		reordered = append(reordered, premises[:i]...)
		premises = append(reordered, premises[i+1:]...)
	}
	sols, keys, err := pv.solutions(premises[0], bind)
	if err != nil {
		return bind, false, err
	}
	a, derived := premises[0].(ast.Atom)
	derived = derived && len(pv.r.rules[a.Predicate]) > 0
	for i, s := range sols {
		if derived && pv.onPath[keys[i]] {
			pv.pathSkips++
			continue
		}
		if out, ok, err := pv.solve(premises[1:], s); err != nil || ok {
			return out, ok, err
		}
	}
	return bind, false, nil
}

// solutions returns the bindings under which prem holds, extending bind,
// in the order of the ground premises' texts, so that the same inputs
// always give the same proof. keys holds those texts when there is more
// than one solution or prem is a derived atom (whose text the caller
// checks against the proof's path), else nil.
func (pv *prover) solutions(prem ast.Term, bind binding) (sols []binding, keys []string, err error) {
	if n, ok := prem.(ast.NegAtom); ok && pv.stored(n.Atom) {
		// A negation binds nothing: it holds when its ground atom is
		// not in the store. Asking the store directly spares the
		// engine's substitution, a third of a proof's cost.
		if g, ground := groundArgs(n.Atom, bind); ground {
			if pv.r.store.Contains(g) {
				return nil, nil, nil
			}
			return []binding{bind}, nil, nil
		}
	}
	a, isAtom := prem.(ast.Atom)
	derived := isAtom && len(pv.r.rules[a.Predicate]) > 0
	if isAtom && pv.stored(a) {
		// A relation in the store: match its facts directly. A
		// fact's text is the ground premise it solves.
		probe := make([]ast.BaseTerm, len(a.Args))
		for i, arg := range a.Args {
			probe[i] = arg.ApplySubstBase(bind)
		}
		var facts []ast.Atom
		err := pv.r.store.GetFacts(ast.Atom{Predicate: a.Predicate, Args: probe}, func(f ast.Atom) error {
			if s, ok := matchFact(bind, probe, f); ok {
				sols = append(sols, s)
				facts = append(facts, f)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if len(sols) > 1 || derived {
			keys = make([]string, len(sols))
			for i, f := range facts {
				keys[i] = f.String()
			}
		}
	} else {
		uf, err := bind.toUnionFind()
		if err != nil {
			return nil, nil, err
		}
		ufs, err := pv.q.EvalPremise(prem, uf)
		if err != nil {
			return nil, nil, err
		}
		for _, uf := range ufs {
			sols = append(sols, fromUnionFind(bind, prem, uf))
		}
		if len(sols) > 1 || derived {
			keys = make([]string, len(sols))
			for i, s := range sols {
				keys[i] = prem.ApplySubst(s).String()
			}
		}
	}
	if len(sols) > 1 {
		idx := make([]int, len(sols))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(x, y int) bool { return keys[idx[x]] < keys[idx[y]] })
		sorted, sortedKeys := make([]binding, len(sols)), make([]string, len(sols))
		for i, j := range idx {
			sorted[i], sortedKeys[i] = sols[j], keys[j]
		}
		sols, keys = sorted, sortedKeys
	}
	return sols, keys, nil
}

// stored reports whether a is read from the store as it is: an atom of a
// relation that is not a built-in or deferred, whose arguments are
// variables and constants (no function applications to evaluate).
func (pv *prover) stored(a ast.Atom) bool {
	if a.Predicate.IsBuiltin() {
		return false
	}
	if decl := pv.q.PredToDecl[a.Predicate]; decl != nil && decl.DeferredPredicate() {
		return false
	}
	for _, arg := range a.Args {
		switch arg.(type) {
		case ast.Variable, ast.Constant:
		default:
			return false
		}
	}
	return true
}

// groundArgs applies bind to a's arguments; ground is false when one is
// left a variable (a wildcard, or a variable the body binds later) or is
// not a plain constant.
func groundArgs(a ast.Atom, bind binding) (g ast.Atom, ground bool) {
	args := make([]ast.BaseTerm, len(a.Args))
	for i, arg := range a.Args {
		switch t := arg.(type) {
		case ast.Constant:
			args[i] = t
		case ast.Variable:
			c, ok := bind.get(t)
			if !ok {
				return ast.Atom{}, false
			}
			args[i] = c
		default:
			return ast.Atom{}, false
		}
	}
	return ast.Atom{Predicate: a.Predicate, Args: args}, true
}

// matchFact binds the variables of probe (a premise with bind applied) to
// the fact's values. It fails when a variable the premise repeats would
// take two values, as unification would.
func matchFact(bind binding, probe []ast.BaseTerm, f ast.Atom) (binding, bool) {
	out := bind
	for i, arg := range probe {
		v, ok := arg.(ast.Variable)
		if !ok || v.Symbol == "_" {
			continue
		}
		c := f.Args[i]
		if !isConstant(c) {
			return nil, false
		}
		if prev, seen := out.get(v); seen {
			if !prev.Equals(c) {
				return nil, false
			}
			continue
		}
		out = out.with(v, c)
	}
	return out, true
}

// boundFirst returns the index of the premise solve should take first:
// 0, unless the first premise is a positive atom with no argument bound by
// subst and a later positive atom has one, whose index it returns.
func boundFirst(premises []ast.Term, subst binding) int {
	bound := func(t ast.Term) (positive, some bool) {
		a, ok := t.(ast.Atom)
		if !ok || strings.HasPrefix(a.Predicate.Symbol, ":") {
			return false, false
		}
		for _, arg := range a.Args {
			switch x := arg.(type) {
			case ast.Constant:
				return true, true
			case ast.Variable:
				if _, ok := subst.get(x); ok {
					return true, true
				}
			}
		}
		return true, false
	}
	if pos, some := bound(premises[0]); !pos || some {
		return 0
	}
	for i := 1; i < len(premises); i++ {
		if pos, some := bound(premises[i]); pos && some {
			return i
		}
	}
	return 0
}

func (pv *prover) literal(prem ast.Term, sol binding, depth int) (Literal, error) {
	ground := prem.ApplySubst(sol)
	lit := Literal{Text: ground.String()}
	switch g := ground.(type) {
	case ast.NegAtom:
		lit.Negated = true
	case ast.Atom:
		if strings.HasPrefix(g.Predicate.Symbol, ":") {
			lit.Builtin = true
			break
		}
		if len(pv.r.rules[g.Predicate]) > 0 {
			sub, err := pv.prove(g, depth+1)
			if err != nil {
				return lit, err
			}
			lit.Proof = sub
		}
	default:
		lit.Builtin = true
	}
	return lit, nil
}

// Format renders the proof as an indented tree, one literal per line.
func (p *Proof) Format(indent string) string {
	var b strings.Builder
	p.format(&b, indent, 0)
	return b.String()
}

func (p *Proof) format(b *strings.Builder, indent string, level int) {
	pad := indent + strings.Repeat("  ", level)
	if p.Clause == nil {
		fmt.Fprintf(b, "%s%s  [fact]\n", pad, p.Fact)
		return
	}
	if p.Clause.Transform != nil {
		// An aggregate is derived from all its body solutions; the proof
		// shows the first one, in sorted order.
		fmt.Fprintf(b, "%s%s  because (aggregated; first contributing fact shown)\n", pad, p.Fact)
	} else {
		fmt.Fprintf(b, "%s%s  because\n", pad, p.Fact)
	}
	for _, l := range p.Body {
		switch {
		case l.Proof != nil:
			l.Proof.format(b, indent, level+1)
		case l.Negated:
			fmt.Fprintf(b, "%s  %s  [no such fact]\n", pad, l.Text)
		case l.Builtin:
			fmt.Fprintf(b, "%s  %s  [holds]\n", pad, l.Text)
		default:
			fmt.Fprintf(b, "%s  %s  [fact]\n", pad, l.Text)
		}
	}
}
