package lint

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/datalog"
)

// Artifact file names written into --out.
const (
	ProgramFile = "architecture.compiled.dl"
	TraceFile   = "lint_evaluation.txt"
)

// maxProofs bounds the derivations written to the trace: a run with
// thousands of findings keeps a readable trace; the .dl replays them all.
const maxProofs = 50

// WriteDL writes the self-contained program: header comments, the fixed
// semantics, then every extensional fact, one commented section per
// relation, in a stable order. Replaying it with any Mangle v0.4.0
// evaluator derives exactly the findings of the run.
func (o *Outcome) WriteDL(w io.Writer) error {
	var b strings.Builder
	for _, h := range o.header() {
		b.WriteString("# " + h + "\n")
	}
	b.WriteString("\n")
	b.WriteString(semantics)
	last := ""
	for _, f := range sortedFacts(o.Facts) {
		if f.Predicate.Symbol != last {
			last = f.Predicate.Symbol
			fmt.Fprintf(&b, "\n# %s\n", last)
		}
		b.WriteString(datalog.FormatFact(f))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sortedFacts orders facts as datalog.SortAtoms does (predicate, then
// argument by argument: numbers numerically, everything else by printed
// form), printing each argument once rather than at every comparison.
func sortedFacts(facts []ast.Atom) []ast.Atom {
	type keyed struct {
		a    ast.Atom
		args []string // printed form; "" for numbers
	}
	ks := make([]keyed, len(facts))
	for i, f := range facts {
		ks[i] = keyed{a: f, args: make([]string, len(f.Args))}
		for j, t := range f.Args {
			if c, ok := t.(ast.Constant); !ok || c.Type != ast.NumberType {
				ks[i].args[j] = t.String()
			}
		}
	}
	slices.SortStableFunc(ks, func(x, y keyed) int {
		if c := strings.Compare(x.a.Predicate.Symbol, y.a.Predicate.Symbol); c != 0 {
			return c
		}
		for j := 0; j < len(x.args) && j < len(y.args); j++ {
			cx, okx := x.a.Args[j].(ast.Constant)
			cy, oky := y.a.Args[j].(ast.Constant)
			if okx && oky && cx.Type == ast.NumberType && cy.Type == ast.NumberType {
				if c := cmp.Compare(cx.NumValue, cy.NumValue); c != 0 {
					return c
				}
				continue
			}
			if c := strings.Compare(argString(x.a.Args[j], x.args[j]), argString(y.a.Args[j], y.args[j])); c != 0 {
				return c
			}
		}
		return len(x.args) - len(y.args)
	})
	out := make([]ast.Atom, len(ks))
	for i, k := range ks {
		out[i] = k.a
	}
	return out
}

// argString is an argument's printed form, computed only for a number
// compared with a non-number.
func argString(t ast.BaseTerm, printed string) string {
	if c, ok := t.(ast.Constant); ok && c.Type == ast.NumberType {
		return c.String()
	}
	return printed
}

func (o *Outcome) header() []string {
	h := []string{
		"vouch lint program: replay with any Mangle v0.4.0 evaluator, e.g.",
		"  mg -load " + ProgramFile + " -exec 'violation(R, From, To, File, Line)'",
		"layout: " + o.Model.Layout,
	}
	for _, f := range o.Model.Files {
		h = append(h, "input: "+f+" sha256:"+fileSum(f))
	}
	h = append(h, fmt.Sprintf("today: %d", o.Today))
	return h
}

func fileSum(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "unreadable"
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Trace renders the evaluation trace. Every line is identical across runs
// with the same inputs, except lines beginning "timing:".
func (o *Outcome) Trace(program []byte) []byte {
	var b strings.Builder
	sum := sha256.Sum256(program)
	res := o.Result
	b.WriteString("vouch lint evaluation trace\n")
	fmt.Fprintf(&b, "engine: %s\n", datalog.EngineVersion)
	for _, h := range o.header()[2:] {
		b.WriteString(h + "\n")
	}
	fmt.Fprintf(&b, "program: %s sha256:%s\n", ProgramFile, hex.EncodeToString(sum[:]))
	fmt.Fprintf(&b, "timing: prepare %s, evaluate %s, collect %s\n", o.Timing.Prepare, o.Timing.Evaluate, o.Timing.Collect)
	_ = res.WriteSummary(&b) // a strings.Builder never fails
	s := o.Stats
	b.WriteString("\nstatistics:\n")
	fmt.Fprintf(&b, "  files scanned: %d, imports resolved: %d\n", s.Files, s.ImportsResolved)
	fmt.Fprintf(&b, "  nodes: %d, edges: %d, node-level dependencies: %d, rules: %d\n", s.Nodes, s.Edges, s.NodeDeps, s.Rules)
	fmt.Fprintf(&b, "  extensional facts loaded: %d, findings: %d\n", res.InputFacts, len(o.Findings))

	b.WriteString("\nfindings and why:\n")
	proved := 0
	for _, f := range o.Findings {
		fmt.Fprintf(&b, "\n%s %s %s: %s\n", f.Rule, f.Type, f.Severity, f.Message)
		if proved == maxProofs {
			continue
		}
		fact, ok := o.findingFact(f)
		if !ok {
			continue
		}
		proved++
		proof, err := res.Prove(fact)
		if err != nil {
			fmt.Fprintf(&b, "  no derivation found: %v\n", err)
			continue
		}
		b.WriteString(proof.Format("  "))
	}
	if proved == maxProofs {
		fmt.Fprintf(&b, "\n(derivations shown for the first %d findings; replay the program for the rest)\n", maxProofs)
	}
	return []byte(b.String())
}

// findingFact is the derived fact behind a finding, for its proof.
func (o *Outcome) findingFact(f Finding) (ast.Atom, bool) {
	R := str(f.Rule)
	switch f.Type {
	case TypeInert:
		return atom("inert", R), true
	case TypeUnreadable:
		for _, a := range o.Result.Query(atom("unread_source", str(f.File), num(int64(f.Line)), ast.Variable{Symbol: "W"})) {
			return a, true
		}
		return ast.Atom{}, false
	case TypeExemptionUnused, TypeExemptionExpired, TypeIgnoreUnmatched:
		return ast.Atom{}, false
	}
	to := f.To
	if f.Cycle != nil {
		to = f.Cycle.id
	}
	return atom("violation", R, str(f.From), str(to), str(f.File), num(int64(f.Line))), true
}
