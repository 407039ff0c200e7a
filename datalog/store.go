package datalog

import (
	"github.com/google/mangle/ast"
	"github.com/google/mangle/factstore"
)

// store is the fact store vouch's programs evaluate in. Mangle's
// MultiIndexedArrayInMemoryStore builds three levels of maps keyed by
// interface hashes for every argument of every fact, which made adding
// facts and looking them up a large share of a run; its
// IndexedInMemoryStore is cheaper but keys facts by a 64-bit hash with no
// equality check, so two facts an envelope crafts to collide would become
// one (a lost regex_miss would turn a failure into a pass).
//
// Here each predicate keeps its facts in a slice, in insertion order. A
// hash of the whole fact finds duplicates, always confirmed with Equals;
// per argument, an index maps each value to the facts holding it there,
// chained through the slice so that indexing allocates nothing per fact.
// A lookup walks the shortest chain among its bound arguments and checks
// every candidate against the query with factstore.Matches, so an index
// is only ever a filter: a hash collision costs time, never an answer.
//
// It implements factstore.FactStore with the semantics of Mangle's
// stores: Add reports whether the fact is new, GetFacts streams the facts
// matching a query's constants (variables match anything). Facts come
// back in a fixed order for the same sequence of additions.
type store struct {
	preds map[ast.PredicateSym]*relation
	// order lists predicates in first-insertion order, so ListPredicates
	// (and so GetAllFacts) is deterministic.
	order []ast.PredicateSym
	// constants holds the facts of arity 0.
	constants map[ast.PredicateSym]ast.Atom
	count     int
}

var _ factstore.FactStore = (*store)(nil)

// relation holds the facts of one predicate.
type relation struct {
	atoms []ast.Atom
	// byHash maps a fact's hash to the newest fact with that hash;
	// sameHash[i] is the previous fact with the hash of fact i, or -1.
	byHash   map[uint64]int32
	sameHash []int32
	// args has one index per argument position.
	args []argIndex
}

// argIndex indexes one argument position: heads maps a value to the
// newest fact holding it and how many do; prev[i] is the previous fact
// holding fact i's value, or -1.
type argIndex struct {
	heads map[termKey]chain
	prev  []int32
}

type chain struct {
	last, n int32
}

// termKey identifies an argument value for indexing: its type and the
// number a Mangle constant carries (the value of a number, a hash of the
// text of a name or string, a hash of a compound value). Equal constants
// have equal keys, since Constant.Equals compares both first; different
// ones may share a key, and GetFacts filters those with Equals.
type termKey struct {
	typ ast.ConstantType
	num int64
	// other marks a term that is not a constant.
	other bool
}

func keyOf(t ast.BaseTerm) termKey {
	c, ok := t.(ast.Constant)
	if !ok {
		return termKey{other: true, num: int64(t.Hash())}
	}
	return termKey{typ: c.Type, num: c.NumValue}
}

// hashArgs mixes the arguments' own hashes (a constant carries one) into
// one; it need not be collision free, only spread well.
func hashArgs(args []ast.BaseTerm) uint64 {
	h := uint64(14695981039346656037)
	for _, a := range args {
		var x uint64
		if c, ok := a.(ast.Constant); ok {
			x = uint64(c.NumValue) ^ uint64(c.Type)<<56
		} else {
			x = a.Hash()
		}
		h ^= x
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

func newStore() *store {
	return &store{preds: make(map[ast.PredicateSym]*relation), constants: make(map[ast.PredicateSym]ast.Atom)}
}

// find returns the position of the fact equal to a in r, or -1.
func (r *relation) find(a ast.Atom, h uint64) int32 {
	i, ok := r.byHash[h]
	if !ok {
		return -1
	}
	for ; i >= 0; i = r.sameHash[i] {
		if equalArgs(r.atoms[i].Args, a.Args) {
			return i
		}
	}
	return -1
}

func equalArgs(x, y []ast.BaseTerm) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !x[i].Equals(y[i]) {
			return false
		}
	}
	return true
}

// Add adds a fact and reports whether it was new.
func (s *store) Add(a ast.Atom) bool {
	if a.Predicate.Arity == 0 {
		if _, ok := s.constants[a.Predicate]; ok {
			return false
		}
		s.constants[a.Predicate] = a
		s.order = append(s.order, a.Predicate)
		s.count++
		return true
	}
	r := s.preds[a.Predicate]
	if r == nil {
		r = &relation{byHash: make(map[uint64]int32), args: make([]argIndex, a.Predicate.Arity)}
		for i := range r.args {
			r.args[i].heads = make(map[termKey]chain)
		}
		s.preds[a.Predicate] = r
		s.order = append(s.order, a.Predicate)
	}
	h := hashArgs(a.Args)
	if r.find(a, h) >= 0 {
		return false
	}
	pos := int32(len(r.atoms))
	r.atoms = append(r.atoms, a)
	if prev, ok := r.byHash[h]; ok {
		r.sameHash = append(r.sameHash, prev)
	} else {
		r.sameHash = append(r.sameHash, -1)
	}
	r.byHash[h] = pos
	for i := range r.args {
		idx := &r.args[i]
		k := keyOf(a.Args[i])
		c, ok := idx.heads[k]
		if ok {
			idx.prev = append(idx.prev, c.last)
		} else {
			idx.prev = append(idx.prev, -1)
		}
		idx.heads[k] = chain{last: pos, n: c.n + 1}
	}
	s.count++
	return true
}

// Contains reports whether the store holds the ground fact a.
func (s *store) Contains(a ast.Atom) bool {
	if a.Predicate.Arity == 0 {
		_, ok := s.constants[a.Predicate]
		return ok
	}
	r := s.preds[a.Predicate]
	if r == nil {
		return false
	}
	return r.find(a, hashArgs(a.Args)) >= 0
}

// GetFacts streams the facts matching a: every constant argument of a must
// equal the fact's. It walks the shortest index chain among a's constant
// arguments, or every fact of the predicate when a has none. An error from
// fn stops the scan and is returned.
func (s *store) GetFacts(a ast.Atom, fn func(ast.Atom) error) error {
	if a.Predicate.Arity == 0 {
		if c, ok := s.constants[a.Predicate]; ok {
			return fn(c)
		}
		return nil
	}
	r := s.preds[a.Predicate]
	if r == nil || len(a.Args) != len(r.args) {
		return nil
	}
	best, bestArg := chain{n: -1}, -1
	for i, arg := range a.Args {
		if _, ok := arg.(ast.Constant); !ok {
			continue
		}
		c, ok := r.args[i].heads[keyOf(arg)]
		if !ok {
			return nil
		}
		if bestArg < 0 || c.n < best.n {
			best, bestArg = c, i
		}
	}
	if bestArg < 0 {
		// Callbacks may add facts (a transform does, after its scan):
		// only the facts present when the scan began are visited.
		atoms := r.atoms
		for i := range atoms {
			if err := fn(atoms[i]); err != nil {
				return err
			}
		}
		return nil
	}
	prev := r.args[bestArg].prev
	atoms := r.atoms
	for i := best.last; i >= 0; i = prev[i] {
		if !factstore.Matches(a.Args, atoms[i].Args) {
			continue
		}
		if err := fn(atoms[i]); err != nil {
			return err
		}
	}
	return nil
}

// ListPredicates lists the predicates with facts, in the order their
// first fact was added.
func (s *store) ListPredicates() []ast.PredicateSym {
	return append([]ast.PredicateSym(nil), s.order...)
}

// EstimateFactCount returns the number of facts (exact here).
func (s *store) EstimateFactCount() int { return s.count }

// Merge adds every fact of other.
func (s *store) Merge(other factstore.ReadOnlyFactStore) {
	for _, p := range other.ListPredicates() {
		_ = other.GetFacts(ast.NewQuery(p), func(a ast.Atom) error {
			s.Add(a)
			return nil
		})
	}
}
