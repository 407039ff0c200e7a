package gate

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/lint"
)

// ProgramFile is the gate program, written beside rulespec.compiled.dl on
// every gate run.
const ProgramFile = "gate.compiled.dl"

// semantics decides the gate. Its facts are what the two other programs
// derived: the rulespec program's run_verdict and, when the architecture
// rules ran, the architecture program's findings. Go only copies them in;
// which finding blocks, and the final verdict, are derived here. Runs
// evaluate semanticsAnalysis(), generated from this text, so nothing is
// parsed at run time; the text is what gate.compiled.dl replays.
//
//go:generate go run github.com/vouch-dev/vouch/internal/dlgen -pkg gate -func semantics -o semantics_gen.go semantics.dl
//go:embed semantics.dl
var semantics string

// Semantics is the gate program's fixed clauses.
func Semantics() string { return semantics }

// decision is what the gate program derived.
type decision struct {
	// Verdict is gate_verdict: "pass" or "fail".
	Verdict string
	// LintVerdict is lint_verdict, "" when the rules did not run.
	LintVerdict string
	// Blocking and Observed are the findings (by index) lint_enforced and
	// lint_observed derived.
	Blocking, Observed map[int]bool
	// BlockingNotices and BlockingStale are the notices and stale baseline
	// entries (by index) lint_notice_enforced and lint_stale_enforced
	// derived.
	BlockingNotices, BlockingStale map[int]bool
	// Facts are the program's extensional facts, sorted.
	Facts []ast.Atom
	// Stale is set when the program derived stale_envelope.
	Stale bool
}

// facts are the gate program's extensional facts: the rulespec's verdict
// and, when l is not nil, the architecture options and findings.
func facts(rulespecVerdict string, l *Lint, st *staleness) ([]ast.Atom, error) {
	name := func(s string) (ast.Constant, error) {
		n, err := ast.Name("/" + s)
		if err != nil {
			return ast.Constant{}, fmt.Errorf("gate program: %q is not a name: %w", s, err)
		}
		return n, nil
	}
	rv, err := name(rulespecVerdict)
	if err != nil {
		return nil, err
	}
	out := []ast.Atom{ast.NewAtom("rulespec_verdict", rv)}
	if l != nil {
		yes, _ := name("yes")
		out = append(out, ast.NewAtom("lint_ran", yes))
		for opt, on := range map[string]bool{"strict": l.Strict, "observe": l.Observe} {
			if on {
				n, _ := name(opt)
				out = append(out, ast.NewAtom("option", n))
			}
		}
		for i, f := range l.Report.Findings {
			sev, err := name(f.Severity)
			if err != nil {
				return nil, err
			}
			out = append(out, ast.NewAtom("finding", ast.Number(int64(i)), ast.String(f.Rule), ast.String(f.Type), sev))
			if f.Baseline {
				out = append(out, ast.NewAtom("baselined", ast.Number(int64(i))))
			}
		}
		for i, n := range l.Report.Notices {
			out = append(out, ast.NewAtom("lint_notice", ast.Number(int64(i)), ast.String(n.Error())))
		}
		for i := range l.Report.Stale {
			out = append(out, ast.NewAtom("stale_baseline", ast.Number(int64(i))))
		}
	}
	out = append(out, st.facts()...)
	datalog.SortAtoms(out)
	return out, nil
}

// decide evaluates the gate program. Exactly one gate_verdict, and exactly
// one lint_verdict when the rules ran (none otherwise), or it is an
// evaluation error: never a pass.
func decide(rulespecVerdict string, l *Lint, st *staleness) (*decision, error) {
	fs, err := facts(rulespecVerdict, l, st)
	if err != nil {
		return nil, err
	}
	res, err := datalog.EvalAnalysis(sharedAnalysis(), fs, datalog.Options{})
	if err != nil {
		return nil, fmt.Errorf("the gate program did not complete: %w", err)
	}
	d := &decision{Facts: fs, Blocking: map[int]bool{}, Observed: map[int]bool{}, BlockingNotices: map[int]bool{}, BlockingStale: map[int]bool{}}
	one := func(rel string, want int) (string, error) {
		got := res.Facts(rel, 1)
		if len(got) != want {
			return "", fmt.Errorf("the gate program derived %d %s facts, want %d", len(got), rel, want)
		}
		if want == 0 {
			return "", nil
		}
		n, ok := datalog.Name(got[0].Args[0])
		if !ok {
			return "", fmt.Errorf("the gate program derived a malformed %s", got[0])
		}
		return strings.TrimPrefix(n, "/"), nil
	}
	if d.Verdict, err = one("gate_verdict", 1); err != nil {
		return nil, err
	}
	d.Stale = len(res.Facts("stale_envelope", 1)) > 0
	lintWant := 0
	if l != nil {
		lintWant = 1
	}
	if d.LintVerdict, err = one("lint_verdict", lintWant); err != nil {
		return nil, err
	}
	for rel, set := range map[string]map[int]bool{"lint_enforced": d.Blocking, "lint_observed": d.Observed,
		"lint_notice_enforced": d.BlockingNotices, "lint_stale_enforced": d.BlockingStale} {
		for _, f := range res.Facts(rel, 1) {
			if n, ok := datalog.Number(f.Args[0]); ok {
				set[int(n)] = true
			}
		}
	}
	return d, nil
}

// writeProgram writes the replayable gate program into dir and returns
// its path.
func writeProgram(dir string, fs []ast.Atom) (path, sum string, err error) {
	var b strings.Builder
	b.WriteString("# vouch gate program: replay with any Mangle v0.4.0 evaluator, e.g.\n")
	b.WriteString("#   mg -load " + ProgramFile + " -exec 'gate_verdict(V)'\n")
	b.WriteString("# rulespec_verdict comes from rulespec.compiled.dl, finding from lint/" + lint.ProgramFile + ".\n\n")
	b.WriteString(semantics)
	b.WriteString("\n# facts\n")
	for _, f := range fs {
		b.WriteString(datalog.FormatFact(f))
		b.WriteByte('\n')
	}
	path = filepath.Join(dir, ProgramFile)
	if err := atomicfile.WriteUnsynced(path, []byte(b.String()), 0o644); err != nil {
		return "", "", err
	}
	// The receipt records the hash of what was written, not of what is
	// on disk later.
	h := sha256.Sum256([]byte(b.String()))
	return path, hex.EncodeToString(h[:]), nil
}

// sharedAnalysis builds the program's analysis once per process; every
// evaluation shares it (evaluation does not modify it) and the plans its
// Planner keeps.
var sharedAnalysis = sync.OnceValue(semanticsAnalysis)
