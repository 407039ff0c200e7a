// Package verify runs the whole verification pipeline: load the rulespec and
// the envelope, compile them into one datalog program, evaluate it to a fixed
// point, and read the verdicts back out of the evaluated store.
package verify

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/google/mangle/ast"
	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/compile"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/evidence"
	"github.com/vouch-dev/vouch/guard"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/selectors"
)

// Input names what to verify and how.
type Input struct {
	RulespecPath string
	EnvelopePath string
	// RulespecExplicit and EnvelopeExplicit say the user named the file
	// on the command line, so it is opened as given. Otherwise the path
	// (from vouch.yaml or a default) must lie under Root, when Root is
	// set, and is opened through an os.Root: a symlink cannot swap in
	// another repository's passing envelope, nor make vouch read a file
	// outside the root.
	RulespecExplicit, EnvelopeExplicit bool
	Limits                             envelope.Limits
	Strict                             bool
	// Observe reports every failure without failing the run.
	Observe bool
	// Root is the repository root that evidence rules (file_exists,
	// no_file_exists) resolve citations under; empty means ".".
	Root string
	// OutDir is vouch's output directory (relative to Root unless
	// absolute); nothing in it, nor in .vouch, is evidence.
	OutDir string
	// FactLimit caps facts derived during evaluation; zero means the
	// datalog package's default.
	FactLimit int
	// MaxElements caps the array a claim may select; zero means
	// DefaultMaxElements.
	MaxElements int
	// Base is the base revision repository facts compare with, and
	// BaseFrom where it was given (--base, vouch.yaml base:); empty means
	// repofacts' default.
	Base, BaseFrom string
	// Outputs are files vouch writes (artifacts, the receipt), left out
	// of repository facts with the envelope and OutDir.
	Outputs []string
	// Hashes shares working-tree blob ids with the caller's other reads
	// of the repository in the same run (repofacts.Hashes); nil for none.
	Hashes *repofacts.Hashes
	// AuditSession is the session whose records claims with from: audit
	// read (--session, or the Stop event's session_id); "" reads every
	// session in the log (guard.AuditDocOptions).
	AuditSession string
	// HashEvidence records the sha256 of every cited regular file as it
	// is checked, for a receipt.
	HashEvidence bool
	// Evidence bounds the citations' cost; zero fields mean the
	// defaults.
	Evidence evidence.Limits
	// RenderProgram says the caller will write the artifacts: the
	// program's text is then rendered on another core while the program
	// is evaluated, instead of afterwards.
	RenderProgram bool
}

// DefaultMaxElements bounds the elements one claim may select. Evaluation
// costs roughly a kilobyte per element, so an agent that writes a
// 300,000-element array could otherwise exhaust memory inside the default
// envelope size; a claim over the bound is bad input (exit 2), never a
// pass. --max-elements raises it.
const DefaultMaxElements = 250_000

// Options tune a verification of files already loaded.
type Options struct {
	Strict, Observe bool
	// Root is the repository root for evidence rules; empty means ".".
	Root string
	// OutDir is vouch's output directory, never evidence (.vouch always is not).
	OutDir      string
	FactLimit   int
	MaxElements int
	// Base and BaseFrom choose the base of repository facts (see Input).
	Base, BaseFrom string
	// Outputs are vouch's own files, never repository facts (see Input).
	Outputs []string
	// Hashes is Input.Hashes.
	Hashes *repofacts.Hashes
	// Repo, when set, is the repository document to use instead of
	// deriving one with git: rule tests give it inline.
	Repo *repofacts.Doc
	// AuditJSON, when set, is the guard audit document as JSON; otherwise
	// rules with from: audit read .vouch/guard/audit.jsonl under Root.
	AuditJSON []byte
	// AuditSession picks the session from the audit log; "" means every
	// session in it (guard.AuditDocOptions).
	AuditSession string
	// RepoJSON, when set, is the repository document as JSON, used as
	// it is (rule tests write partial documents).
	RepoJSON []byte
	// HashEvidence, Evidence and RenderProgram are Input's.
	HashEvidence  bool
	Evidence      evidence.Limits
	RenderProgram bool
}

// InputError is a problem with the user's files (as opposed to an
// evaluation failure). Its message lists every problem found.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Outcome is a finished verification.
type Outcome struct {
	Rulespec *rulespec.Rulespec
	Envelope *envelope.Envelope
	Program  *compile.Program
	Result   *datalog.Result
	Report   *Report
	Strict   bool
	Observe  bool
	// Root is the directory evidence was checked under.
	Root string
	// Repo is the repository document the rulespec read, nil when no
	// claim selects from the repository.
	Repo *repofacts.Doc
	// Elapsed is the wall time of each stage.
	Elapsed Timings
	// program is the program's text, rendered once for WriteArtifacts.
	program *rendering
}

// Timings records where the time went.
type Timings struct {
	Load, Compile, Evaluate, Collect time.Duration
}

// Run verifies one envelope against one rulespec. An *InputError means the
// files are bad; any other error means the evaluation itself failed. Either
// way there is no verdict: callers must fail closed.
func Run(in Input) (*Outcome, error) {
	t0 := time.Now()
	// Without a root there is nothing to confine to: library callers
	// that pass none open the paths as given.
	confine := func(explicit bool) string {
		if explicit {
			return ""
		}
		return in.Root
	}
	// The two files are independent, and decoding YAML is a large share
	// of a run over a big rulespec or envelope: read them on two cores.
	// The rulespec's error is reported first, as when they were read in
	// turn.
	var (
		env    *envelope.Envelope
		envErr error
		done   = make(chan struct{})
	)
	go func() {
		defer close(done)
		env, envErr = envelope.LoadIn(in.EnvelopePath, confine(in.EnvelopeExplicit), in.Limits)
	}()
	rs, err := rulespec.LoadIn(in.RulespecPath, confine(in.RulespecExplicit))
	<-done
	if err != nil {
		return nil, &InputError{err}
	}
	if envErr != nil {
		return nil, &InputError{envErr}
	}
	return RunLoadedWith(rs, env, Options{Strict: in.Strict, Observe: in.Observe, Root: in.Root, OutDir: in.OutDir, FactLimit: in.FactLimit, MaxElements: in.MaxElements, Base: in.Base, BaseFrom: in.BaseFrom, Outputs: in.Outputs, Hashes: in.Hashes,
		AuditSession: in.AuditSession, HashEvidence: in.HashEvidence, Evidence: in.Evidence, RenderProgram: in.RenderProgram}, time.Since(t0))
}

// RunLoaded is Run for files already loaded, with evidence resolved under
// the working directory.
func RunLoaded(rs *rulespec.Rulespec, env *envelope.Envelope, strict bool, factLimit int, loadTime time.Duration) (*Outcome, error) {
	return RunLoadedWith(rs, env, Options{Strict: strict, FactLimit: factLimit}, loadTime)
}

// RunLoadedWith is RunLoaded with every option.
func RunLoadedWith(rs *rulespec.Rulespec, env *envelope.Envelope, opts Options, loadTime time.Duration) (*Outcome, error) {
	if opts.Root == "" {
		opts.Root = "."
	}
	out := &Outcome{Rulespec: rs, Envelope: env, Strict: opts.Strict, Observe: opts.Observe, Root: opts.Root}
	out.Elapsed.Load = loadTime
	copts := compile.Options{Strict: opts.Strict, Observe: opts.Observe, Root: opts.Root, OutDir: opts.OutDir, OwnFiles: []string{env.File},
		HashEvidence: opts.HashEvidence, EvidenceLimits: opts.Evidence, MaxElements: opts.MaxElements}
	if copts.MaxElements <= 0 {
		copts.MaxElements = DefaultMaxElements
	}
	if rs.UsesFrom(rulespec.FromRepo) {
		// Repository facts cost a few git processes: derive them only
		// when a rule reads them, and only then is a missing git or an
		// unknown base an error.
		if err := repoFacts(&copts, &opts, env.File); err != nil {
			return nil, err
		}
		out.Repo = opts.Repo
	}
	if rs.UsesFrom(rulespec.FromAudit) {
		copts.Audit = opts.AuditJSON
		if copts.Audit == nil {
			doc, err := guard.ReadAuditDocument(opts.Root, guard.AuditDocOptions{Session: opts.AuditSession, MaxElements: copts.MaxElements})
			if err != nil {
				return nil, &InputError{Err: err}
			}
			copts.Audit = doc
		}
	}
	t1 := time.Now()
	out.Program = compile.Compile(rs, gjson.ParseBytes(env.Facts), copts)
	if err := out.Program.EvidenceErr; err != nil {
		return nil, &InputError{fmt.Errorf("%s: %w", env.File, err)}
	}
	if err := out.Program.ElementsErr; err != nil {
		return nil, &InputError{fmt.Errorf("%s: %w", env.File, err)}
	}
	t2 := time.Now()
	if opts.RenderProgram {
		out.renderProgram()
	}
	res, err := datalog.EvalAnalysis(compile.SemanticsAnalysis(), out.Program.Facts(), datalog.Options{FactLimit: opts.FactLimit})
	if err != nil {
		return nil, fmt.Errorf("verification did not complete: %w", err)
	}
	out.Result = res
	t3 := time.Now()
	rep, err := collect(rs, out.Program, res)
	if err != nil {
		return nil, fmt.Errorf("verification did not complete: %w", err)
	}
	locateFailures(rs, env, rep)
	out.Report = rep
	out.Elapsed.Compile, out.Elapsed.Evaluate, out.Elapsed.Collect = t2.Sub(t1), t3.Sub(t2), time.Since(t3)
	return out, nil
}

// locateFailures finds, in the envelope, the value each failed predicate's
// claim selects (its selector's keys and indexes up to any wildcard), so
// an annotation can point at the line the agent wrote.
func locateFailures(rs *rulespec.Rulespec, env *envelope.Envelope, rep *Report) {
	claims := map[string]*rulespec.Claim{}
	for i := range rs.Claims {
		claims[rs.Claims[i].Name] = &rs.Claims[i]
	}
	var paths [][]string
	var which []int
	for i, p := range rep.Predicates {
		c := claims[p.Claim]
		if p.Status != Fail || c == nil || c.Selector == nil || (c.From != "" && c.From != rulespec.FromEnvelope) {
			continue
		}
		var path []string
		for _, st := range c.Selector.Steps() {
			if st.Kind == selectors.Wildcard {
				break
			}
			if st.Kind == selectors.Index {
				path = append(path, strconv.Itoa(st.Index))
				continue
			}
			path = append(path, st.Key)
		}
		paths, which = append(paths, path), append(which, i)
	}
	if len(paths) == 0 {
		return
	}
	for k, pos := range env.Locate(paths) {
		rep.Predicates[which[k]].EnvelopeLine, rep.Predicates[which[k]].EnvelopeCol = pos.Line, pos.Col
	}
}

// repoFacts fills the compile options' repository document: the one
// given, or one derived with git under the root, leaving out vouch's own
// files (the envelope and the output directory).
func repoFacts(copts *compile.Options, opts *Options, envFile string) error {
	if opts.RepoJSON != nil {
		copts.Repo = opts.RepoJSON
		base := gjson.GetBytes(opts.RepoJSON, "base")
		commit := gjson.GetBytes(opts.RepoJSON, "base_commit")
		copts.RepoBase, copts.RepoCommit = base.String(), commit.String()
		return nil
	}
	if opts.Repo == nil {
		exclude := append([]string{envFile}, opts.Outputs...)
		if opts.OutDir != "" {
			exclude = append(exclude, opts.OutDir)
		}
		doc, err := repofacts.Collect(context.Background(), repofacts.Options{Root: opts.Root, Base: opts.Base, BaseFrom: opts.BaseFrom, Envelope: envFile, Exclude: exclude, Hashes: opts.Hashes})
		if err != nil {
			var re *repofacts.Error
			if errors.As(err, &re) {
				return &InputError{err}
			}
			return fmt.Errorf("repository facts: %w", err)
		}
		opts.Repo = doc
	}
	copts.Repo = opts.Repo.JSON()
	copts.RepoBase, copts.RepoCommit = opts.Repo.Base, opts.Repo.BaseCommit
	return nil
}

// Status is a predicate's verdict. An observed failure is still Fail; its
// report carries Observed.
type Status string

// The three verdicts a predicate can get.
const (
	Pass    Status = "pass"
	Fail    Status = "fail"
	Skipped Status = "skipped"
)

var errVerdicts = errors.New("the program did not give exactly one verdict per predicate")

// collect reads the verdicts from the store. It checks that every predicate
// got exactly one verdict and that the run verdict agrees; anything else is
// an evaluation failure, not a pass.
func collect(rs *rulespec.Rulespec, prog *compile.Program, res *datalog.Result) (*Report, error) {
	statuses := make(map[int64][]Status)
	for _, f := range res.Facts("verdict", 2) {
		idx, ok1 := intArg(f, 0)
		st, ok2 := nameArg(f, 1)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%w: malformed fact %s", errVerdicts, f)
		}
		statuses[idx] = append(statuses[idx], Status(st[1:]))
	}
	vacuous := indexSet(res.Facts("vacuous", 1))
	observed := indexSet(res.Facts("observed", 1))
	claims := make(map[string]compile.ClaimValue)
	for _, cv := range prog.Claims {
		claims[cv.Claim.Name] = cv
	}
	rep := &Report{Warnings: append([]string{}, prog.Warnings...)}
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	for _, p := range rs.Predicates {
		st := statuses[int64(p.Index)]
		if len(st) != 1 {
			return nil, fmt.Errorf("%w: predicate %d has %d", errVerdicts, p.Index, len(st))
		}
		cv := claims[p.Claim]
		value := rawValue(p.Value)
		if p.ValueFrom != "" {
			value = actual(claims[p.ValueFrom])
		}
		pr := PredicateReport{
			Index:     p.Index,
			ID:        p.ID,
			Claim:     p.Claim,
			Selector:  cv.Claim.Selector.String(),
			Rule:      string(p.Rule),
			Value:     value,
			ValueFrom: p.ValueFrom,
			Source:    string(p.Source),
			Notes:     p.Notes,
			Status:    st[0],
			Vacuous:   vacuous[int64(p.Index)],
			Observed:  observed[int64(p.Index)],
			Actual:    actual(cv),
			Line:      p.Pos.Line,
			Col:       p.Pos.Col,
		}
		if pr.Observed && pr.Status != Fail {
			return nil, fmt.Errorf("%w: predicate %d is observed but did not fail", errVerdicts, p.Index)
		}
		if p.When != nil {
			wc := claims[p.When.Claim]
			pr.When = &ConditionReport{Claim: p.When.Claim, Rule: string(p.When.Rule), Value: rawValue(p.When.Value), ValueFrom: p.When.ValueFrom, Actual: actual(wc)}
			if p.When.ValueFrom != "" {
				pr.When.Value = actual(claims[p.When.ValueFrom])
			}
		}
		pr.Message = message(p, pr, claims, res)
		rep.Predicates = append(rep.Predicates, pr)
		rep.Summary.Total++
		switch pr.Status {
		case Pass:
			rep.Summary.Passed++
		case Fail:
			rep.Summary.Failed++
		case Skipped:
			rep.Summary.Skipped++
		}
		if pr.Vacuous {
			rep.Summary.Vacuous++
		}
		if pr.Observed {
			rep.Summary.Observed++
		}
	}
	runs := res.Facts("run_verdict", 1)
	if len(runs) != 1 {
		return nil, fmt.Errorf("%w: %d run verdicts", errVerdicts, len(runs))
	}
	v, _ := nameArg(runs[0], 0)
	rep.Verdict = v[1:]
	rep.CheckedNothing = len(res.Facts("checked_nothing", 1)) > 0
	strictUnchecked := len(res.Facts("strict_unchecked", 1)) > 0
	enforced := rep.Summary.Failed - rep.Summary.Observed
	if (rep.Verdict == "pass") != (enforced == 0 && !strictUnchecked) {
		return nil, fmt.Errorf("%w: run verdict %s disagrees with %d enforced failures", errVerdicts, rep.Verdict, enforced)
	}
	return rep, nil
}

// indexSet collects the predicate indexes of unary facts.
func indexSet(facts []ast.Atom) map[int64]bool {
	out := make(map[int64]bool, len(facts))
	for _, f := range facts {
		if idx, ok := intArg(f, 0); ok {
			out[idx] = true
		}
	}
	return out
}

func intArg(a ast.Atom, i int) (int64, bool) { return datalog.Number(a.Args[i]) }

func nameArg(a ast.Atom, i int) (string, bool) { return datalog.Name(a.Args[i]) }

func strArg(a ast.Atom, i int) string {
	c, ok := a.Args[i].(ast.Constant)
	if !ok {
		return a.Args[i].String()
	}
	if c.Type == ast.StringType {
		return c.Symbol
	}
	if c.Type == ast.NumberType {
		return strconv.FormatInt(c.NumValue, 10)
	}
	return c.Symbol
}

func rawValue(v *gjson.Result) RawJSON {
	if v == nil {
		return nil
	}
	return RawJSON(v.Raw)
}

func actual(cv compile.ClaimValue) RawJSON {
	if !cv.Present {
		return nil
	}
	return RawJSON(cv.Value.Raw)
}

// sortedStrings returns the string arguments at position i of the facts.
func sortedStrings(facts []ast.Atom, i int) []string {
	out := make([]string, 0, len(facts))
	for _, f := range facts {
		out = append(out, strArg(f, i))
	}
	sort.Strings(out)
	return out
}
