// Package explain says what a rulespec's predicates mean and, given an
// envelope, why each one passed, failed or was skipped.
//
// Nothing here decides a verdict. Meanings are sentences about the rulespec
// plus the clauses the predicate compiled to, read from the compiled program
// and the parsed semantics so they cannot drift from what the engine runs.
// Verdicts, and the derivations behind them, are read from the evaluated
// datalog store (datalog.Result.Prove and Result.Query).
package explain

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/google/mangle/ast"
	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/compile"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/verify"
)

// Explanation is the whole answer: the selected predicates, and with an
// envelope the run's verdict.
type Explanation struct {
	Rulespec string `json:"rulespec"`
	// Envelope is the envelope's path, empty without one.
	Envelope string `json:"envelope,omitempty"`
	// Verdict is the run's verdict (pass or fail) with an envelope.
	Verdict    string      `json:"verdict,omitempty"`
	Predicates []Predicate `json:"predicates"`
	// Warnings are the compiler's notes for the rule author, sorted.
	Warnings []string `json:"warnings"`
}

// Predicate explains one predicate.
type Predicate struct {
	Index    int            `json:"index"`
	ID       string         `json:"id,omitempty"`
	Claim    string         `json:"claim"`
	Rule     string         `json:"rule"`
	Value    verify.RawJSON `json:"value"`
	Sentence string         `json:"sentence"`
	Source   string         `json:"source"`
	Notes    string         `json:"notes"`
	// Selectors are the predicate's claim and, if different, its
	// condition's claim.
	Selectors []Selector `json:"selectors"`
	When      *Condition `json:"when,omitempty"`
	// Facts are the extensional facts the predicate compiled to.
	Facts []string `json:"facts"`
	// Clauses are the semantics clauses that can decide it.
	Clauses []string `json:"clauses"`
	// Outcome is set only with an envelope.
	Outcome *Outcome `json:"outcome,omitempty"`
}

// Selector is a claim's selector in our syntax and in words.
type Selector struct {
	Claim string `json:"claim"`
	Text  string `json:"selector"`
	Reads string `json:"reads"`
	// Found is what it selected; null when absent. Set only with an
	// envelope.
	Found   verify.RawJSON `json:"found,omitempty"`
	Present *bool          `json:"present,omitempty"`
}

// Condition is a predicate's `when`.
type Condition struct {
	Claim string         `json:"claim"`
	Rule  string         `json:"rule"`
	Value verify.RawJSON `json:"value"`
}

// Outcome is what happened to a predicate on one envelope.
type Outcome struct {
	Status  string `json:"status"`
	Vacuous bool   `json:"vacuous"`
	// Observed marks a failure in observe mode (the predicate's or the
	// rulespec's mode: observe, or --observe): reported, not enforced.
	Observed bool `json:"observed"`
	// Message is verify's one-line reason, as in its report.
	Message string `json:"message"`
	// Derivation is the proof of the verdict fact from the evaluated store.
	Derivation *Proof `json:"derivation"`
	// VacuousBecause proves vacuous(Index) for a pass that checked nothing.
	VacuousBecause *Proof `json:"vacuous_because,omitempty"`
	// Evidence lists the derived facts that say why a check did not pass
	// (absent, mismatch, stray, member_hit, regex_miss, strict_rejected).
	Evidence []string `json:"evidence"`
	// Diagnosis holds hints for the author: nearest paths, type
	// mismatches, the strings a pattern was tried against.
	Diagnosis []string `json:"diagnosis"`
	// Citations is what the program held about each path a file_exists
	// or no_file_exists check (the predicate's or its condition's) cites,
	// read from the evaluated store.
	Citations []Citation `json:"citations,omitempty"`
	// CitationsOmitted counts citations beyond the listed ones.
	CitationsOmitted int `json:"citations_omitted,omitempty"`
}

// Proof is a derivation in data form.
type Proof struct {
	Fact   string    `json:"fact"`
	Clause string    `json:"clause,omitempty"`
	Body   []Literal `json:"body,omitempty"`
}

// Literal is one ground body literal of a Proof.
type Literal struct {
	Text string `json:"literal"`
	// Kind is fact, derived, absent (a negated literal that held because
	// the fact is missing) or builtin.
	Kind  string `json:"kind"`
	Proof *Proof `json:"proof,omitempty"`
}

// Options say what to explain.
type Options struct {
	// Select picks predicates by index, id or claim name; empty means all.
	Select []string
	// Strict evaluates as `vouch verify --strict` does.
	Strict bool
	// Root is the repository root that file_exists evidence is checked
	// under, as verify resolves it; "" means the working directory.
	Root string
	// Base and BaseFrom choose the base of repository facts, as verify's.
	Base, BaseFrom string
}

// SelectionError is a selector argument that names no predicate.
type SelectionError struct{ Msg string }

func (e *SelectionError) Error() string { return e.Msg }

// Explain explains rs's predicates; env may be nil. An error from the
// evaluation means there is no verdict to explain.
func Explain(rs *rulespec.Rulespec, env *envelope.Envelope, opts Options) (*Explanation, error) {
	chosen, err := selectPredicates(rs, opts.Select)
	if err != nil {
		return nil, err
	}
	sem, err := newSemanticsIndex()
	if err != nil {
		return nil, err
	}
	out := &Explanation{Rulespec: rs.File, Warnings: []string{}}
	var prog *compile.Program
	var outcome *verify.Outcome
	if env != nil {
		outcome, err = verify.RunLoadedWith(rs, env, verify.Options{Strict: opts.Strict, Root: opts.Root, Base: opts.Base, BaseFrom: opts.BaseFrom}, 0)
		if err != nil {
			return nil, fmt.Errorf("explain: %w", err)
		}
		prog = outcome.Program
		out.Envelope = env.File
		out.Verdict = outcome.Report.Verdict
	} else {
		prog = compile.Compile(rs, gjson.Parse("{}"), compile.Options{Strict: opts.Strict})
	}
	out.Warnings = append(out.Warnings, prog.Warnings...)
	facts := factsByPredicate(prog)
	claims := make(map[string]compile.ClaimValue, len(prog.Claims))
	for _, cv := range prog.Claims {
		claims[cv.Claim.Name] = cv
	}
	var facts0 gjson.Result
	if env != nil {
		facts0 = gjson.ParseBytes(env.Facts)
	}
	near := newPathIndex(facts0)
	for _, i := range chosen {
		p := rs.Predicates[i]
		sentence, err := Sentence(p)
		if err != nil {
			return nil, fmt.Errorf("predicate %d: %w", p.Index, err)
		}
		ep := Predicate{
			Index:    p.Index,
			ID:       p.ID,
			Claim:    p.Claim,
			Rule:     string(p.Rule),
			Value:    raw(p.Value),
			Sentence: sentence,
			Source:   string(p.Source),
			Notes:    p.Notes,
			Facts:    facts[p.Index],
		}
		if ep.Facts == nil {
			ep.Facts = []string{}
		}
		var whenRule rulespec.Rule
		ep.Selectors = append(ep.Selectors, selectorOf(claims[p.Claim], env != nil))
		if p.When != nil {
			whenRule = p.When.Rule
			ep.When = &Condition{Claim: p.When.Claim, Rule: string(p.When.Rule), Value: raw(p.When.Value)}
			if p.When.Claim != p.Claim {
				ep.Selectors = append(ep.Selectors, selectorOf(claims[p.When.Claim], env != nil))
			}
		}
		ep.Clauses = sem.clausesFor(p.Rule, whenRule, opts.Strict)
		if outcome != nil {
			o, err := explainOutcome(p, outcome, claims, near, sem)
			if err != nil {
				return nil, err
			}
			ep.Outcome = o
		}
		out.Predicates = append(out.Predicates, ep)
	}
	return out, nil
}

func raw(v *gjson.Result) verify.RawJSON {
	if v == nil {
		return nil
	}
	return verify.RawJSON(v.Raw)
}

func selectorOf(cv compile.ClaimValue, withEnvelope bool) Selector {
	s := Selector{Claim: cv.Claim.Name, Text: cv.Claim.Selector.String(), Reads: Reads(cv.Claim.Selector)}
	if cv.Claim.From == rulespec.FromRepo {
		s.Reads = "repository document (what changed since the base; docs/repository-facts.md) → " + strings.TrimPrefix(s.Reads, "facts → ")
	}
	if withEnvelope {
		present := cv.Present
		s.Present = &present
		if cv.Present {
			s.Found = verify.RawJSON(cv.Value.Raw)
		} else {
			s.Found = verify.RawJSON("null")
		}
	}
	return s
}

// factsByPredicate maps each predicate index to the facts of its section of
// the compiled program, the section holding its predicate(Index, _) fact.
func factsByPredicate(prog *compile.Program) map[int][]string {
	out := make(map[int][]string)
	for _, sec := range prog.Sections {
		idx := -1
		for _, f := range sec.Facts {
			if f.Predicate.Symbol == "predicate" && len(f.Args) == 2 {
				if n, ok := datalog.Number(f.Args[0]); ok {
					idx = int(n)
				}
			}
		}
		if idx < 0 {
			continue
		}
		for _, f := range sec.Facts {
			out[idx] = append(out[idx], datalog.FormatFact(f))
		}
	}
	return out
}

// selectPredicates resolves the user's selection to predicate positions,
// in rulespec order, each once.
func selectPredicates(rs *rulespec.Rulespec, sel []string) ([]int, error) {
	if len(sel) == 0 {
		out := make([]int, len(rs.Predicates))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	picked := make(map[int]bool)
	var known []string
	for _, p := range rs.Predicates {
		if p.ID != "" {
			known = append(known, p.ID)
		}
	}
	for _, c := range rs.Claims {
		known = append(known, c.Name)
	}
	for _, s := range sel {
		found := false
		if n, err := strconv.Atoi(s); err == nil {
			for i, p := range rs.Predicates {
				if p.Index == n {
					picked[i], found = true, true
				}
			}
			if !found {
				return nil, &SelectionError{fmt.Sprintf("no predicate with index %d; indexes run from 0 to %d", n, len(rs.Predicates)-1)}
			}
			continue
		}
		for i, p := range rs.Predicates {
			if p.ID == s || p.Claim == s {
				picked[i], found = true, true
			}
		}
		if !found {
			return nil, &SelectionError{fmt.Sprintf("%q is not a predicate index, id or claim name of %s%s", s, rs.File, suggest.Hint(s, known))}
		}
	}
	out := make([]int, 0, len(picked))
	for i := range picked {
		out = append(out, i)
	}
	sort.Ints(out)
	return out, nil
}

// proofOf converts a datalog proof to data.
func proofOf(p *datalog.Proof, sem *semanticsIndex) *Proof {
	if p == nil {
		return nil
	}
	out := &Proof{Fact: datalog.FormatFact(p.Fact)}
	if p.Clause == nil {
		return out
	}
	out.Clause = sem.display(p.Clause.String())
	for _, l := range p.Body {
		lit := Literal{Text: l.Text}
		switch {
		case l.Proof != nil:
			lit.Kind = "derived"
			lit.Proof = proofOf(l.Proof, sem)
		case l.Negated:
			lit.Kind = "absent"
		case l.Builtin:
			lit.Kind = "builtin"
		default:
			lit.Kind = "fact"
		}
		out.Body = append(out.Body, lit)
	}
	return out
}

func nameConstant(s string) ast.Constant {
	c, err := ast.Name(s)
	if err != nil {
		// Only called with this package's own constants ("/pass" ...).
		return ast.String(s)
	}
	return c
}

func query(res *datalog.Result, pred string, args ...ast.BaseTerm) []ast.Atom {
	return res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args})
}

// evidenceQueries are the diagnostic relations of the semantics: derived
// facts that say why a check did not pass.
var evidenceQueries = []struct {
	pred  string
	arity int
}{{"absent", 1}, {"mismatch", 1}, {"stray", 3}, {"member_hit", 3}, {"regex_miss", 2}}

// evidence lists diagnostic facts about check ch from the store, at most
// ten per relation.
func evidence(res *datalog.Result, ch string) []string {
	var out []string
	v := ast.Variable{Symbol: "_"}
	for _, q := range evidenceQueries {
		args := []ast.BaseTerm{ast.String(ch)}
		for len(args) < q.arity {
			args = append(args, v)
		}
		facts := query(res, q.pred, args...)
		for i, f := range facts {
			if i == 10 {
				out = append(out, fmt.Sprintf("... and %d more %s facts", len(facts)-10, q.pred))
				break
			}
			out = append(out, datalog.FormatFact(f))
		}
	}
	return out
}

func explainOutcome(p rulespec.Predicate, o *verify.Outcome, claims map[string]compile.ClaimValue, near *pathIndex, sem *semanticsIndex) (*Outcome, error) {
	var pr *verify.PredicateReport
	for i := range o.Report.Predicates {
		if o.Report.Predicates[i].Index == p.Index {
			pr = &o.Report.Predicates[i]
		}
	}
	if pr == nil {
		return nil, fmt.Errorf("explain: the report has no verdict for predicate %d", p.Index)
	}
	out := &Outcome{Status: string(pr.Status), Vacuous: pr.Vacuous, Observed: pr.Observed, Message: pr.Message, Evidence: []string{}, Diagnosis: []string{}}
	res := o.Result
	verdict := ast.Atom{Predicate: ast.PredicateSym{Symbol: "verdict", Arity: 2},
		Args: []ast.BaseTerm{ast.Number(int64(p.Index)), nameConstant("/" + string(pr.Status))}}
	proof, err := res.Prove(verdict)
	if err != nil {
		return nil, fmt.Errorf("explain predicate %d: %w", p.Index, err)
	}
	out.Derivation = proofOf(proof, sem)
	if pr.Vacuous {
		vp, err := res.Prove(ast.Atom{Predicate: ast.PredicateSym{Symbol: "vacuous", Arity: 1}, Args: []ast.BaseTerm{ast.Number(int64(p.Index))}})
		if err != nil {
			return nil, fmt.Errorf("explain predicate %d: %w", p.Index, err)
		}
		out.VacuousBecause = proofOf(vp, sem)
	}
	out.Citations, out.CitationsOmitted = citations(p, res)
	switch pr.Status {
	case verify.Fail:
		out.Evidence = append(out.Evidence, evidence(res, compile.PredicateCheck(p.Index))...)
		for _, f := range query(res, "strict_rejected", ast.Number(int64(p.Index))) {
			out.Evidence = append(out.Evidence, datalog.FormatFact(f))
		}
		out.Diagnosis = diagnose(p.Check, compile.PredicateCheck(p.Index), claims[p.Claim], res, near)
	case verify.Skipped:
		out.Evidence = append(out.Evidence, evidence(res, compile.ConditionCheck(p.Index))...)
		out.Diagnosis = diagnose(*p.When, compile.ConditionCheck(p.Index), claims[p.When.Claim], res, near)
	case verify.Pass:
		if pr.Vacuous {
			out.Diagnosis = diagnoseVacuous(p.Check, claims[p.Claim], near)
		}
	}
	return out, nil
}

// describeJSON names a JSON value with its type: `string "false"`.
func describeJSON(v gjson.Result) string {
	switch {
	case v.IsArray():
		return "array " + short(v.Raw)
	case v.IsObject():
		return "mapping " + short(v.Raw)
	}
	switch v.Type {
	case gjson.String:
		return "string " + short(v.Raw)
	case gjson.Number:
		return "number " + v.Raw
	case gjson.True, gjson.False:
		return "boolean " + v.Raw
	}
	return "null"
}

func short(s string) string {
	const max = 80
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-3]) + "..."
	}
	return s
}
