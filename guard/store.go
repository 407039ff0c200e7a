package guard

import (
	"github.com/google/mangle/ast"
	"github.com/google/mangle/factstore"
)

// smallStore is the fact store one decision evaluates in. A decision
// holds about a hundred facts, a handful per predicate; Mangle's
// MultiIndexedArrayInMemoryStore builds four levels of maps for every
// fact, which made adding facts and looking them up most of a decision's
// cost. Here each predicate keeps its facts in a slice, scanned in full by
// a lookup (cheaper than hashing at this size) and deduplicated by a
// linear scan until it grows past indexFrom facts, when a hash index takes
// over so that a pathological call (thousands of paths) stays linear.
//
// It implements factstore.FactStore with the same semantics as Mangle's
// stores: Add reports whether the fact is new, GetFacts streams the facts
// matching a query's constants. Facts come back in insertion order, so a
// lookup is deterministic.
type smallStore struct {
	preds map[ast.PredicateSym]*predFacts
	// order lists predicates in first-insertion order for ListPredicates.
	order []ast.PredicateSym
	count int
}

// indexFrom is the size at which a predicate's facts get a hash index.
const indexFrom = 32

type predFacts struct {
	atoms []ast.Atom
	// index maps an atom's hash to its positions in atoms; nil while the
	// predicate has fewer than indexFrom facts.
	index map[uint64][]int
}

var _ factstore.FactStore = (*smallStore)(nil)

func newSmallStore() *smallStore {
	return &smallStore{preds: make(map[ast.PredicateSym]*predFacts, 48)}
}

// find returns the position of a in pf, or -1.
func (pf *predFacts) find(a ast.Atom) int {
	if pf.index != nil {
		for _, i := range pf.index[a.Hash()] {
			if pf.atoms[i].Equals(a) {
				return i
			}
		}
		return -1
	}
	for i := range pf.atoms {
		if pf.atoms[i].Equals(a) {
			return i
		}
	}
	return -1
}

// Add adds a fact and reports whether it was new.
func (s *smallStore) Add(a ast.Atom) bool {
	pf := s.preds[a.Predicate]
	if pf == nil {
		pf = &predFacts{}
		s.preds[a.Predicate] = pf
		s.order = append(s.order, a.Predicate)
	} else if pf.find(a) >= 0 {
		return false
	}
	pf.atoms = append(pf.atoms, a)
	switch n := len(pf.atoms); {
	case n == indexFrom:
		pf.index = make(map[uint64][]int, 2*indexFrom)
		for i := range pf.atoms {
			h := pf.atoms[i].Hash()
			pf.index[h] = append(pf.index[h], i)
		}
	case n > indexFrom:
		h := a.Hash()
		pf.index[h] = append(pf.index[h], n-1)
	}
	s.count++
	return true
}

// Contains reports whether the store holds a.
func (s *smallStore) Contains(a ast.Atom) bool {
	pf := s.preds[a.Predicate]
	return pf != nil && pf.find(a) >= 0
}

// GetFacts calls fn for every fact matching the query's constants, in
// insertion order, stopping at the first error fn returns.
func (s *smallStore) GetFacts(q ast.Atom, fn func(ast.Atom) error) error {
	pf := s.preds[q.Predicate]
	if pf == nil {
		return nil
	}
	// A fact added by fn (no caller does) is not visited: the slice
	// header is fixed here.
	atoms := pf.atoms
	for i := range atoms {
		if factstore.Matches(q.Args, atoms[i].Args) {
			if err := fn(atoms[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// ListPredicates lists the predicates that have facts, in the order they
// were first added.
func (s *smallStore) ListPredicates() []ast.PredicateSym {
	return append([]ast.PredicateSym(nil), s.order...)
}

// EstimateFactCount is the exact number of facts.
func (s *smallStore) EstimateFactCount() int { return s.count }

// Merge adds every fact of other.
func (s *smallStore) Merge(other factstore.ReadOnlyFactStore) {
	for _, p := range other.ListPredicates() {
		_ = other.GetFacts(ast.NewQuery(p), func(a ast.Atom) error {
			s.Add(a)
			return nil
		})
	}
}
