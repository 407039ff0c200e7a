package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/compile"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/internal/parallel"
)

// Artifact file names, as the seed's tooling names them.
const (
	ProgramFile = "rulespec.compiled.dl"
	TraceFile   = "datalog_evaluation.txt"
)

// WriteArtifacts writes the compiled program and the evaluation trace into
// dir, each atomically (a temporary file renamed into place, not synced:
// a rerun writes them again; only the gate's receipt is synced), and records
// their paths in the report.
func (o *Outcome) WriteArtifacts(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	progPath := filepath.Join(dir, ProgramFile)
	tracePath := filepath.Join(dir, TraceFile)
	// The trace names the program's hash in its header, but its proofs,
	// most of its cost, do not need the program: render it on another
	// core meanwhile, unless Run already did while evaluating.
	prog := o.renderProgram()
	body := o.traceBody()
	dl, err := prog.wait()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteUnsynced(progPath, dl.Bytes(), 0o644); err != nil {
		return err
	}
	trace := o.traceHeader(dl.Bytes(), len(body))
	trace = append(trace, body...)
	if err := atomicfile.WriteUnsynced(tracePath, trace, 0o644); err != nil {
		return err
	}
	ps, ts := sha256.Sum256(dl.Bytes()), sha256.Sum256(trace)
	o.Report.Artifacts = Artifacts{Program: progPath, Trace: tracePath,
		ProgramSHA256: hex.EncodeToString(ps[:]), TraceSHA256: hex.EncodeToString(ts[:])}
	return nil
}

// rendering is the program's text, rendered on its own goroutine.
type rendering struct {
	done chan struct{}
	text bytes.Buffer
	err  error
}

// renderProgram starts rendering the program's text, once per Outcome.
func (o *Outcome) renderProgram() *rendering {
	if o.program != nil {
		return o.program
	}
	r := &rendering{done: make(chan struct{})}
	o.program = r
	// Grow once to about the final size (facts average some 40 bytes a
	// line) rather than through every doubling.
	n := len(compile.Semantics()) + 4096
	for _, s := range o.Program.Sections {
		n += len(s.Comment) + 40*len(s.Facts)
	}
	r.text.Grow(n)
	go func() {
		defer close(r.done)
		if err := o.Program.WriteDL(&r.text, o.header()); err != nil {
			r.err = fmt.Errorf("render program: %w", err)
		}
	}()
	return r
}

// wait returns the rendered text.
func (r *rendering) wait() (*bytes.Buffer, error) {
	<-r.done
	return &r.text, r.err
}

func (o *Outcome) header() []string {
	return []string{
		"vouch compiled program: replay with any Mangle v0.4.0 evaluator, e.g.",
		"  mg -load " + ProgramFile + " -exec 'verdict(I, S)'",
		"rulespec: " + o.Rulespec.File + " sha256:" + o.Rulespec.SHA256,
		"envelope: " + o.Envelope.File + " sha256:" + o.Envelope.SHA256,
		fmt.Sprintf("strict: %v", o.Strict),
		fmt.Sprintf("observe: %v", o.Observe),
	}
}

// Trace renders the evaluation trace. Every line is the same on every run
// for the same inputs, except lines beginning "timing:".
func (o *Outcome) Trace(program []byte) []byte {
	body := o.traceBody()
	return append(o.traceHeader(program, len(body)), body...)
}

// traceHeader is the trace up to its first line that depends on the
// evaluation: the inputs, the program's hash and the timings, with room
// for extra more bytes.
func (o *Outcome) traceHeader(program []byte, extra int) []byte {
	var b bytes.Buffer
	b.Grow(1024 + extra)
	sum := sha256.Sum256(program)
	b.WriteString("vouch datalog evaluation trace\n")
	fmt.Fprintf(&b, "engine: %s\n", datalog.EngineVersion)
	fmt.Fprintf(&b, "input rulespec: %s sha256:%s\n", o.Rulespec.File, o.Rulespec.SHA256)
	fmt.Fprintf(&b, "input envelope: %s sha256:%s\n", o.Envelope.File, o.Envelope.SHA256)
	fmt.Fprintf(&b, "program: %s sha256:%s\n", ProgramFile, hex.EncodeToString(sum[:]))
	fmt.Fprintf(&b, "options: strict=%v observe=%v\n", o.Strict, o.Observe)
	fmt.Fprintf(&b, "timing: load %s, compile %s, evaluate %s, collect %s\n", o.Elapsed.Load, o.Elapsed.Compile, o.Elapsed.Evaluate, o.Elapsed.Collect)
	return b.Bytes()
}

// traceBody is the trace after its header: the evaluation summary and a
// proof of every predicate's verdict. Proofs are most of a trace's cost
// and independent of one another, so they are found on every core, each
// predicate's text in its own slot, and joined in report order: the text
// is the same whatever the number of cores.
func (o *Outcome) traceBody() []byte {
	var b bytes.Buffer
	res := o.Result
	_ = res.WriteSummary(&b) // a bytes.Buffer never fails
	b.WriteString("\nstatistics:\n")
	fmt.Fprintf(&b, "  extensional facts loaded: %d\n", res.InputFacts)
	fmt.Fprintf(&b, "  predicates: %d, verdict: %s\n", len(o.Report.Predicates), o.Report.Verdict)

	b.WriteString("\nverdicts and why:\n")
	preds := o.Report.Predicates
	texts := make([]string, len(preds))
	parallel.For(len(preds), 0, func(i int) { texts[i] = o.tracePredicate(&preds[i]) })
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	b.Grow(n)
	for _, t := range texts {
		b.WriteString(t)
	}
	return b.Bytes()
}

// tracePredicate is one predicate's part of the trace: its verdict and
// why.
func (o *Outcome) tracePredicate(p *PredicateReport) string {
	var b strings.Builder
	res := o.Result
	fmt.Fprintf(&b, "\npredicate %d: %s -> %s", p.Index, compile.DescribeCheck(o.Rulespec.Predicates[indexOf(o, p.Index)].Check), p.Status)
	if p.Vacuous {
		b.WriteString(" (vacuous)")
	}
	if p.Observed {
		b.WriteString(" (observed)")
	}
	b.WriteString("\n")
	fact := ast.Atom{Predicate: ast.PredicateSym{Symbol: "verdict", Arity: 2},
		Args: []ast.BaseTerm{ast.Number(int64(p.Index)), mustName("/" + string(p.Status))}}
	proof, err := res.Prove(fact)
	if err != nil {
		fmt.Fprintf(&b, "  no derivation found: %v\n", err)
		return b.String()
	}
	b.WriteString(proof.Format("  "))
	if p.Observed {
		obs := ast.Atom{Predicate: ast.PredicateSym{Symbol: "observed", Arity: 1}, Args: []ast.BaseTerm{ast.Number(int64(p.Index))}}
		if proof, err := res.Prove(obs); err == nil {
			b.WriteString("  observe mode: reported, not enforced\n")
			b.WriteString(proof.Format("  "))
		}
	}
	if p.Status == Fail {
		for _, f := range o.failureFacts(p.Index) {
			fmt.Fprintf(&b, "  relevant: %s\n", f)
		}
	}
	if p.Message != "" {
		fmt.Fprintf(&b, "  message: %s\n", p.Message)
	}
	return b.String()
}

// failureFacts lists the derived diagnostics about a failed predicate's
// check: the facts that tell why pass(...) could not be derived.
func (o *Outcome) failureFacts(idx int) []string {
	ch := ast.String(compile.PredicateCheck(idx))
	v := ast.Variable{Symbol: "_"}
	var out []string
	for _, q := range []ast.Atom{
		{Predicate: ast.PredicateSym{Symbol: "absent", Arity: 1}, Args: []ast.BaseTerm{ch}},
		{Predicate: ast.PredicateSym{Symbol: "mismatch", Arity: 1}, Args: []ast.BaseTerm{ch}},
		{Predicate: ast.PredicateSym{Symbol: "stray", Arity: 3}, Args: []ast.BaseTerm{ch, v, v}},
		{Predicate: ast.PredicateSym{Symbol: "member_hit", Arity: 3}, Args: []ast.BaseTerm{ch, v, v}},
		{Predicate: ast.PredicateSym{Symbol: "regex_miss", Arity: 2}, Args: []ast.BaseTerm{ch, v}},
		{Predicate: ast.PredicateSym{Symbol: "not_found", Arity: 2}, Args: []ast.BaseTerm{ch, v}},
		{Predicate: ast.PredicateSym{Symbol: "invalid_ref", Arity: 2}, Args: []ast.BaseTerm{ch, v}},
		{Predicate: ast.PredicateSym{Symbol: "found_ref", Arity: 2}, Args: []ast.BaseTerm{ch, v}},
		{Predicate: ast.PredicateSym{Symbol: "strict_rejected", Arity: 1}, Args: []ast.BaseTerm{ast.Number(int64(idx))}},
	} {
		facts := o.Result.Query(q)
		for i, f := range facts {
			if i == 10 {
				out = append(out, fmt.Sprintf("... and %d more %s facts", len(facts)-10, q.Predicate.Symbol))
				break
			}
			out = append(out, datalog.FormatFact(f))
		}
	}
	return out
}

func indexOf(o *Outcome, idx int) int {
	for i, p := range o.Rulespec.Predicates {
		if p.Index == idx {
			return i
		}
	}
	return 0
}

func mustName(s string) ast.Constant {
	c, _ := ast.Name(s)
	return c
}
