package guard

import (
	"sort"

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
	// index numbers the predicates a program declares; their facts are
	// kept in preds at that number, so that a decision builds no map of
	// predicates. It is shared and never written. Facts of a predicate
	// not in it (none of vouch's programs gives one) go to others.
	index  map[ast.PredicateSym]int
	preds  []predFacts
	others map[ast.PredicateSym]*predFacts
	// order lists predicates in first-insertion order for ListPredicates.
	order []ast.PredicateSym
	count int
}

// indexFrom is the size at which a predicate's facts get a hash index.
const indexFrom = 32

type predFacts struct {
	// used says the predicate has facts (atoms may be room reserved).
	used  bool
	atoms []ast.Atom
	// index maps an atom's hash to its positions in atoms; nil while the
	// predicate has fewer than indexFrom facts.
	index map[uint64][]int
}

var _ factstore.FactStore = (*smallStore)(nil)

// newSmallStore returns an empty store for the predicates of index (nil
// for none).
func newSmallStore(index map[ast.PredicateSym]int) *smallStore {
	return &smallStore{index: index, preds: make([]predFacts, len(index))}
}

// reserve makes room for facts in one array rather than one per
// predicate; facts beyond what was reserved get room as Add needs it. It
// returns false, with the predicate, when a fact's predicate is not
// numbered (not declared by the program).
func (s *smallStore) reserve(facts []ast.Atom) (ast.PredicateSym, bool) {
	counts := make([]int32, len(s.preds))
	for _, f := range facts {
		i, ok := s.index[f.Predicate]
		if !ok {
			return f.Predicate, false
		}
		counts[i]++
	}
	arena := make([]ast.Atom, len(facts))
	off := 0
	for i, n := range counts {
		if n > 0 && s.preds[i].atoms == nil {
			s.preds[i].atoms = arena[off : off : off+int(n)]
			off += int(n)
		}
	}
	return ast.PredicateSym{}, true
}

// predIndex numbers the predicates of decls, in sorted order.
func predIndex(decls map[ast.PredicateSym]*ast.Decl) map[ast.PredicateSym]int {
	syms := make([]ast.PredicateSym, 0, len(decls))
	for s := range decls {
		syms = append(syms, s)
	}
	sort.Slice(syms, func(i, j int) bool {
		if syms[i].Symbol != syms[j].Symbol {
			return syms[i].Symbol < syms[j].Symbol
		}
		return syms[i].Arity < syms[j].Arity
	})
	index := make(map[ast.PredicateSym]int, len(syms))
	for i, s := range syms {
		index[s] = i
	}
	return index
}

// facts returns the facts of predicate p, nil if it has none; with add,
// it makes room for them.
func (s *smallStore) facts(p ast.PredicateSym, add bool) *predFacts {
	if i, ok := s.index[p]; ok {
		pf := &s.preds[i]
		if add && !pf.used {
			pf.used = true
			s.order = append(s.order, p)
			if pf.atoms == nil {
				pf.atoms = make([]ast.Atom, 0, 4)
			}
		}
		if !pf.used {
			return nil
		}
		return pf
	}
	pf := s.others[p]
	if pf == nil && add {
		if s.others == nil {
			s.others = map[ast.PredicateSym]*predFacts{}
		}
		pf = &predFacts{}
		s.others[p] = pf
		s.order = append(s.order, p)
	}
	return pf
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
	pf := s.facts(a.Predicate, true)
	if pf.find(a) >= 0 {
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
	pf := s.facts(a.Predicate, false)
	return pf != nil && pf.find(a) >= 0
}

// GetFacts calls fn for every fact matching the query's constants, in
// insertion order, stopping at the first error fn returns.
func (s *smallStore) GetFacts(q ast.Atom, fn func(ast.Atom) error) error {
	pf := s.facts(q.Predicate, false)
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
