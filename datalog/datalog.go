// Package datalog runs vouch's compiled programs on Google's Mangle engine
// (v0.4.0) and reads results back out of the evaluated store in a stable
// order.
//
// Rules come in as Mangle source text (Eval) or, for vouch's fixed programs,
// as an Analysis built by code that internal/dlgen generates from the .dl
// file (EvalAnalysis), so a run neither parses nor analyses them; extensional
// facts come in as atoms added straight to the store, which is far cheaper
// than parsing them. The compile package writes both into one .dl file, and
// tests prove that parsing that file and evaluating it gives the same
// answers.
package datalog

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/mangle/analysis"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/engine"
	"github.com/google/mangle/factstore"
	"github.com/google/mangle/parse"
)

// EngineVersion names the Mangle release vouch evaluates with; it is written
// into traces so a verdict can be replayed on the same engine.
const EngineVersion = "github.com/google/mangle v0.4.0"

// DefaultFactLimit bounds how many facts one evaluation may derive. Mangle
// applies it per round and to the store's total growth; without a bound a
// runaway program would never stop.
const DefaultFactLimit = 10_000_000

// Options tune an evaluation.
type Options struct {
	// FactLimit caps derived facts; zero means DefaultFactLimit.
	FactLimit int
}

// Result is an evaluated program.
type Result struct {
	store   factstore.FactStore
	info    *analysis.ProgramInfo
	rules   map[ast.PredicateSym][]ast.Clause
	edb     map[ast.PredicateSym]bool
	strata  [][]string
	timings []time.Duration
	proofs  proofCache
	// InputFacts is how many extensional facts were loaded.
	InputFacts int
}

// ParseRules parses Mangle source holding declarations and rules (and
// possibly facts).
func ParseRules(src string) (parse.SourceUnit, error) {
	unit, err := parse.Unit(strings.NewReader(src))
	if err != nil {
		return parse.SourceUnit{}, fmt.Errorf("parse datalog: %w", err)
	}
	return unit, nil
}

// Eval analyses and stratifies src, loads facts into a fresh store and runs
// the program to a fixed point.
//
// Any error, including hitting the fact limit, means the run did not finish:
// the store may hold partial results and callers must not read verdicts from
// it.
func Eval(src string, facts []ast.Atom, opts Options) (*Result, error) {
	unit, err := ParseRules(src)
	if err != nil {
		return nil, err
	}
	return EvalUnit(unit, facts, opts)
}

// Analysis is a program analysed and stratified: everything evaluation
// needs besides the facts. Fixed programs get theirs from generated Go code
// (see internal/dlgen), so a run parses and analyses nothing.
type Analysis struct {
	// Info is what analysis.AnalyzeOneUnit returns for the program.
	Info *analysis.ProgramInfo
	// Strata are the program's strata in an order in which each comes
	// after every stratum it reads.
	Strata []analysis.Nodeset
	// PredToStratum maps each predicate to its index in Strata.
	PredToStratum map[ast.PredicateSym]int

	plannerOnce sync.Once
	planner     *Planner
}

// Planner plans the program's runs; it is built on first use and shared
// by every run of this Analysis.
func (a *Analysis) Planner() *Planner {
	a.plannerOnce.Do(func() { a.planner = NewPlanner(a.Info, a.Strata, a.PredToStratum) })
	return a.planner
}

// Analyze analyses and stratifies a parsed unit. Strata come in a
// canonical order (by depth in the dependency graph, then by predicate
// names), so the same unit always gives the same Analysis.
func Analyze(unit parse.SourceUnit) (*Analysis, error) {
	info, err := analysis.AnalyzeOneUnit(unit, nil)
	if err != nil {
		return nil, fmt.Errorf("analyse datalog: %w", err)
	}
	strata, predToStratum, err := analysis.Stratify(analysis.Program{
		EdbPredicates: info.EdbPredicates,
		IdbPredicates: info.IdbPredicates,
		Rules:         info.Rules,
	})
	if err != nil {
		return nil, fmt.Errorf("stratify datalog: %w", err)
	}
	syms := make([][]ast.PredicateSym, len(strata))
	for i, s := range strata {
		for p := range s {
			syms[i] = append(syms[i], p)
		}
	}
	_, order := canonicalStrata(syms, predToStratum, info.Rules)
	a := &Analysis{Info: info, PredToStratum: make(map[ast.PredicateSym]int, len(predToStratum))}
	for i, j := range order {
		a.Strata = append(a.Strata, strata[j])
		for p := range strata[j] {
			a.PredToStratum[p] = i
		}
	}
	return a, nil
}

// EvalUnit is Eval for an already parsed unit.
func EvalUnit(unit parse.SourceUnit, facts []ast.Atom, opts Options) (*Result, error) {
	a, err := Analyze(unit)
	if err != nil {
		return nil, err
	}
	return EvalAnalysis(a, facts, opts)
}

// EvalAnalysis loads facts into a fresh store and runs an analysed program
// to a fixed point. The engine does not modify a; it may be evaluated
// again.
func EvalAnalysis(a *Analysis, facts []ast.Atom, opts Options) (res *Result, err error) {
	// The engine reports some failures by panicking (for example a type
	// error deep in a builtin); an evaluation that panicked is a failed
	// evaluation, never a pass.
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("evaluate datalog: engine failure: %v", r)
		}
	}()
	info, strata, predToStratum := a.Info, a.Strata, a.PredToStratum
	store := newStore()
	present := make(map[ast.PredicateSym]bool)
	for _, f := range facts {
		if _, ok := info.Decls[f.Predicate]; !ok {
			return nil, fmt.Errorf("load facts: predicate %s/%d is not declared", f.Predicate.Symbol, f.Predicate.Arity)
		}
		store.Add(f)
		present[f.Predicate] = true
	}
	limit := opts.FactLimit
	if limit <= 0 {
		limit = DefaultFactLimit
	}
	// Only the rules these facts can feed are evaluated (see Plan); the
	// result still lists every stratum of the program.
	plan := a.Planner().Plan(present)
	stats, err := engine.EvalStratifiedProgramWithStats(plan.Info, plan.Strata, plan.PredToStratum, store, engine.WithCreatedFactLimit(limit))
	if err != nil {
		if strings.Contains(err.Error(), "limit") {
			return nil, fmt.Errorf("evaluate datalog: stopped after deriving more than %d facts: %w", limit, err)
		}
		return nil, fmt.Errorf("evaluate datalog: %w", err)
	}
	res = &Result{
		store:      store,
		info:       info,
		rules:      make(map[ast.PredicateSym][]ast.Clause),
		edb:        make(map[ast.PredicateSym]bool),
		InputFacts: len(facts),
	}
	for _, c := range info.Rules {
		res.rules[c.Head.Predicate] = append(res.rules[c.Head.Predicate], c)
	}
	for p := range info.EdbPredicates {
		res.edb[p] = true
	}
	// A stratum the plan left out took no time.
	durations := make([]time.Duration, len(strata))
	for i, from := range plan.From {
		durations[from] = stats.Duration[i]
	}
	syms := make([][]ast.PredicateSym, len(strata))
	for i, set := range strata {
		for p := range set {
			syms[i] = append(syms[i], p)
		}
	}
	var order []int
	res.strata, order = canonicalStrata(syms, predToStratum, info.Rules)
	for _, i := range order {
		res.timings = append(res.timings, durations[i])
	}
	return res, nil
}

// canonicalStrata orders strata deterministically: the engine's own order
// varies between runs, so strata are sorted by their depth in the
// dependency graph (a stratum comes after every stratum it reads), then by
// their predicate names. Any such order is a valid evaluation order.
//
// It also returns, for each stratum in that order, the engine's index of it,
// so per-stratum timings can be listed in the same order.
func canonicalStrata(strata [][]ast.PredicateSym, predToStratum map[ast.PredicateSym]int, rules []ast.Clause) ([][]string, []int) {
	levels := StratumLevels(rules, predToStratum, len(strata))
	type entry struct {
		depth, index int
		names        []string
	}
	var entries []entry
	for i, syms := range strata {
		names := make([]string, 0, len(syms))
		for _, s := range syms {
			names = append(names, s.Symbol)
		}
		sort.Strings(names)
		entries = append(entries, entry{levels[i], i, names})
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].depth != entries[j].depth {
			return entries[i].depth < entries[j].depth
		}
		return strings.Join(entries[i].names, ",") < strings.Join(entries[j].names, ",")
	})
	out := make([][]string, len(entries))
	order := make([]int, len(entries))
	for i, e := range entries {
		out[i], order[i] = e.names, e.index
	}
	return out, order
}

// Strata lists the predicates of each stratum, in evaluation order, each
// sorted by name.
func (r *Result) Strata() [][]string { return r.strata }

// Timings is the wall time spent in each stratum, in the order of Strata.
func (r *Result) Timings() []time.Duration { return r.timings }

// Predicates lists every predicate the program declares or defines, sorted,
// with whether it is extensional.
func (r *Result) Predicates() []Predicate {
	var out []Predicate
	for sym := range r.info.Decls {
		if strings.HasPrefix(sym.Symbol, ":") {
			continue
		}
		out = append(out, Predicate{Name: sym.Symbol, Arity: sym.Arity, Extensional: r.edb[sym] && len(r.rules[sym]) == 0})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Arity < out[j].Arity
	})
	return out
}

// Predicate describes one relation of an evaluated program.
type Predicate struct {
	Name        string
	Arity       int
	Extensional bool
}

// Facts returns every fact of the predicate, sorted by their printed form so
// output never depends on the engine's map order.
func (r *Result) Facts(name string, arity int) []ast.Atom {
	return r.Query(queryAtom(name, arity))
}

// Query returns the facts matching q (constants in q must match; variables
// match anything), sorted.
func (r *Result) Query(q ast.Atom) []ast.Atom {
	var out []ast.Atom
	_ = r.store.GetFacts(q, func(a ast.Atom) error {
		out = append(out, a)
		return nil
	})
	SortAtoms(out)
	return out
}

// Has reports whether the store holds the ground atom a.
func (r *Result) Has(a ast.Atom) bool { return r.store.Contains(a) }

// Count returns how many facts the predicate holds.
func (r *Result) Count(name string, arity int) int {
	n := 0
	_ = r.store.GetFacts(queryAtom(name, arity), func(ast.Atom) error {
		n++
		return nil
	})
	return n
}

func queryAtom(name string, arity int) ast.Atom {
	return ast.NewQuery(ast.PredicateSym{Symbol: name, Arity: arity})
}

// SortAtoms orders atoms by predicate, then argument by argument: numbers
// numerically, everything else by printed form. Printed forms are computed
// once per atom, not once per comparison.
func SortAtoms(atoms []ast.Atom) {
	keys := make([][]string, len(atoms))
	for i, a := range atoms {
		k := make([]string, len(a.Args))
		for j, arg := range a.Args {
			if c, ok := arg.(ast.Constant); !ok || c.Type != ast.NumberType {
				k[j] = arg.String()
			}
		}
		keys[i] = k
	}
	idx := make([]int, len(atoms))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool {
		a, b := atoms[idx[x]], atoms[idx[y]]
		if a.Predicate.Symbol != b.Predicate.Symbol {
			return a.Predicate.Symbol < b.Predicate.Symbol
		}
		ka, kb := keys[idx[x]], keys[idx[y]]
		for k := 0; k < len(a.Args) && k < len(b.Args); k++ {
			if c := compareTerms(a.Args[k], b.Args[k], ka[k], kb[k]); c != 0 {
				return c < 0
			}
		}
		return len(a.Args) < len(b.Args)
	})
	sorted := make([]ast.Atom, len(atoms))
	for i, j := range idx {
		sorted[i] = atoms[j]
	}
	copy(atoms, sorted)
}

// compareTerms compares two arguments: numbers numerically, everything else
// by the printed forms sx and sy.
func compareTerms(x, y ast.BaseTerm, sx, sy string) int {
	cx, okx := x.(ast.Constant)
	cy, oky := y.(ast.Constant)
	if okx && oky && cx.Type == ast.NumberType && cy.Type == ast.NumberType {
		switch {
		case cx.NumValue < cy.NumValue:
			return -1
		case cx.NumValue > cy.NumValue:
			return 1
		}
		return 0
	}
	if sx == "" {
		sx = x.String()
	}
	if sy == "" {
		sy = y.String()
	}
	return strings.Compare(sx, sy)
}

// ErrNoFact is returned by Prove for a fact the store does not hold.
var ErrNoFact = errors.New("fact not in the evaluated store")

// WriteSummary writes the parts of an evaluation trace every vouch program
// shares: the strata in evaluation order, one "timing:" line per stratum
// (the only lines that differ between runs), and the number of facts in
// each relation with the extensional and derived totals.
func (r *Result) WriteSummary(w io.Writer) error {
	var b strings.Builder
	b.WriteString("\nstrata (evaluated in this order):\n")
	for i, s := range r.Strata() {
		fmt.Fprintf(&b, "  %d: %s\n", i, strings.Join(s, ", "))
	}
	for i, d := range r.Timings() {
		fmt.Fprintf(&b, "timing: stratum %d %s\n", i, d)
	}
	b.WriteString("\nfacts per relation:\n")
	edb, idb := 0, 0
	for _, p := range r.Predicates() {
		n := r.Count(p.Name, p.Arity)
		kind := "derived"
		if p.Extensional {
			kind = "extensional"
			edb += n
		} else {
			idb += n
		}
		fmt.Fprintf(&b, "  %-22s %-11s %d\n", fmt.Sprintf("%s/%d", p.Name, p.Arity), kind, n)
	}
	fmt.Fprintf(&b, "  total: %d extensional (loaded or written in the program), %d derived\n", edb, idb)
	_, err := io.WriteString(w, b.String())
	return err
}
