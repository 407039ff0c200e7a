package ruletest

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/verify"
)

// Result is a test file's run.
type Result struct {
	File     string `json:"file"`
	Rulespec string `json:"rulespec"`
	OK       bool   `json:"ok"`
	// Cases lists the cases that ran, in file order.
	Cases    []CaseResult `json:"cases"`
	Coverage []Coverage   `json:"coverage"`
}

// CaseResult is one case's outcome.
type CaseResult struct {
	Name string `json:"name"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	OK   bool   `json:"ok"`
	// Diff lists each mismatch, wanted then got.
	Diff []Mismatch `json:"diff"`
}

// Mismatch is an expectation the run did not meet.
type Mismatch struct {
	// What is "verdict" or a predicate label like "[5 tests-nonempty]".
	What string `json:"what"`
	Want string `json:"want"`
	Got  string `json:"got"`
	// Why is verify's message for the predicate, when it has one.
	Why string `json:"why,omitempty"`
}

// Coverage is which outcomes one predicate took across the cases that ran.
type Coverage struct {
	Index   int    `json:"index"`
	ID      string `json:"id,omitempty"`
	Label   string `json:"label"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Pass    bool   `json:"pass"`
	Fail    bool   `json:"fail"`
	Skipped bool   `json:"skipped"`
	// Conditional marks a predicate with a when, the only kind that can be
	// skipped.
	Conditional bool `json:"conditional"`
}

// Options select and tune a run.
type Options struct {
	// Run, when set, runs only cases whose name it matches.
	Run *regexp.Regexp
	// Root is the repository root that file_exists evidence is checked
	// under, as verify resolves it; "" means the working directory.
	Root string
}

// SetupError is a problem that stops a file from running at all: a bad
// rulespec, envelope or predicate reference. Its message lists every
// problem, each file:line:col when known.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// Run loads the rulespec and runs every selected case of f.
func Run(f *File, opts Options) (*Result, error) {
	rsPath := f.Rulespec
	if !filepath.IsAbs(rsPath) {
		rsPath = filepath.Join(filepath.Dir(f.Path), rsPath)
	}
	rs, err := rulespec.Load(rsPath)
	if err != nil {
		return nil, &SetupError{err}
	}
	if err := resolve(f, rs); err != nil {
		return nil, &SetupError{err}
	}
	res := &Result{File: f.Path, Rulespec: rsPath, OK: true, Cases: []CaseResult{}}
	seen := make([]map[verify.Status]bool, len(rs.Predicates))
	for i := range seen {
		seen[i] = make(map[verify.Status]bool)
	}
	var envErrs []string
	for _, c := range f.Cases {
		if opts.Run != nil && !opts.Run.MatchString(c.Name) {
			continue
		}
		env, err := caseEnvelope(f, c)
		if err != nil {
			envErrs = append(envErrs, err.Error())
			continue
		}
		vopts := verify.Options{Strict: f.Strict, Root: opts.Root}
		if rs.UsesFrom(rulespec.FromRepo) {
			if vopts.RepoJSON, err = repofacts.Inline(c.Repo); err != nil {
				return nil, fmt.Errorf("case %q: repo: %w", c.Name, err)
			}
		}
		out, err := verify.RunLoadedWith(rs, env, vopts, 0)
		if err != nil {
			return nil, fmt.Errorf("case %q: %w", c.Name, err)
		}
		cr := CaseResult{Name: c.Name, Line: c.Pos.Line, Col: c.Pos.Col, OK: true, Diff: []Mismatch{}}
		if c.Verdict != "" && c.Verdict != out.Report.Verdict {
			cr.Diff = append(cr.Diff, Mismatch{What: "verdict", Want: c.Verdict, Got: out.Report.Verdict})
		}
		byIndex := make(map[int]verify.PredicateReport)
		for _, pr := range out.Report.Predicates {
			byIndex[pr.Index] = pr
			seen[pr.Index][pr.Status] = true
		}
		for _, e := range c.Predicates {
			pr := byIndex[e.Index]
			if string(pr.Status) != e.Status {
				cr.Diff = append(cr.Diff, Mismatch{What: label(rs.Predicates[e.Index]), Want: e.Status, Got: string(pr.Status), Why: pr.Message})
			}
		}
		if len(cr.Diff) > 0 {
			cr.OK, res.OK = false, false
		}
		res.Cases = append(res.Cases, cr)
	}
	if len(envErrs) > 0 {
		return nil, &SetupError{errors.New(strings.Join(envErrs, "\n"))}
	}
	for i, p := range rs.Predicates {
		res.Coverage = append(res.Coverage, Coverage{
			Index: p.Index, ID: p.ID, Label: label(p), Line: p.Pos.Line, Col: p.Pos.Col,
			Pass: seen[i][verify.Pass], Fail: seen[i][verify.Fail], Skipped: seen[i][verify.Skipped],
			Conditional: p.When != nil,
		})
	}
	return res, nil
}

// label names a predicate as verify's text output does: "[5 id]".
func label(p rulespec.Predicate) string {
	if p.ID != "" {
		return fmt.Sprintf("[%d %s]", p.Index, p.ID)
	}
	return fmt.Sprintf("[%d]", p.Index)
}

// resolve turns predicate ids into indexes and checks that every index
// exists, reporting each problem at its position in the test file.
func resolve(f *File, rs *rulespec.Rulespec) error {
	ids := make(map[string]int)
	var known []string
	for _, p := range rs.Predicates {
		if p.ID != "" {
			ids[p.ID] = p.Index
			known = append(known, p.ID)
		}
	}
	var errs ErrorList
	for ci := range f.Cases {
		for ei := range f.Cases[ci].Predicates {
			e := &f.Cases[ci].Predicates[ei]
			switch {
			case e.ID != "":
				idx, ok := ids[e.ID]
				if !ok {
					errs = append(errs, &Error{File: f.Path, Pos: e.Pos, Msg: fmt.Sprintf("no predicate of %s has id %q%s", rs.File, e.ID, suggest.Hint(e.ID, known))})
					continue
				}
				e.Index = idx
			case e.Index >= len(rs.Predicates):
				errs = append(errs, &Error{File: f.Path, Pos: e.Pos, Msg: fmt.Sprintf("%s has no predicate %d; indexes run from 0 to %d", rs.File, e.Index, len(rs.Predicates)-1)})
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func caseEnvelope(f *File, c Case) (*envelope.Envelope, error) {
	if c.EnvelopePath == "" {
		return &envelope.Envelope{File: fmt.Sprintf("%s:%d:%d", f.Path, c.Pos.Line, c.Pos.Col), Facts: c.Facts}, nil
	}
	p := c.EnvelopePath
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(f.Path), p)
	}
	env, err := envelope.Load(p, envelope.DefaultLimits())
	if err != nil {
		return nil, fmt.Errorf("%s:%d:%d: case %q: %w", f.Path, c.Pos.Line, c.Pos.Col, c.Name, err)
	}
	return env, nil
}

// Missing lists the predicates whose failing path no case took.
func (r *Result) Missing() []Coverage {
	var out []Coverage
	for _, c := range r.Coverage {
		if !c.Fail {
			out = append(out, c)
		}
	}
	return out
}

// coverageLine summarises coverage: "pass 8/8, fail 8/8, skipped 1/1".
func (r *Result) coverageLine() string {
	var pass, fail, skipped, cond int
	for _, c := range r.Coverage {
		if c.Pass {
			pass++
		}
		if c.Fail {
			fail++
		}
		if c.Conditional {
			cond++
			if c.Skipped {
				skipped++
			}
		}
	}
	n := len(r.Coverage)
	return fmt.Sprintf("pass %d/%d, fail %d/%d, skipped %d/%d conditional", pass, n, fail, n, skipped, cond)
}

// WriteText prints results the way `go test` does: a block per failing
// case with a -want +got diff, then ok or FAIL per file.
// p colours FAIL and ok.
func WriteText(w io.Writer, results []*Result, coverage bool, p output.Painter) error {
	var b strings.Builder
	for _, r := range results {
		for _, c := range r.Cases {
			if c.OK {
				continue
			}
			fmt.Fprintf(&b, "--- %s: %s (%s:%d:%d)\n", p.Fail("FAIL"), c.Name, r.File, c.Line, c.Col)
			b.WriteString("    (-want +got)\n")
			for _, m := range c.Diff {
				fmt.Fprintf(&b, "    - %s: %s\n", m.What, m.Want)
				fmt.Fprintf(&b, "    + %s: %s\n", m.What, m.Got)
				if m.Why != "" {
					fmt.Fprintf(&b, "      %s\n", m.Why)
				}
			}
		}
		failed := 0
		for _, c := range r.Cases {
			if !c.OK {
				failed++
			}
		}
		if r.OK {
			fmt.Fprintf(&b, "%s  \t%s\t%s\tcoverage: %s\n", p.Pass("ok"), r.File, output.Count(len(r.Cases), "case"), r.coverageLine())
		} else {
			fmt.Fprintf(&b, "%s\t%s\t%d of %s failed\tcoverage: %s\n", p.Fail("FAIL"), r.File, failed, output.Count(len(r.Cases), "case"), r.coverageLine())
		}
		if coverage {
			missing := r.Missing()
			if len(missing) == 0 {
				b.WriteString("    every predicate's failing path is taken by some case\n")
			} else {
				b.WriteString("    no case takes the failing path of:\n")
				for _, m := range missing {
					fmt.Fprintf(&b, "      %s (%s:%d:%d)\n", m.Label, r.Rulespec, m.Line, m.Col)
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes every result as one JSON document.
func WriteJSON(w io.Writer, results []*Result) error {
	ok := true
	for _, r := range results {
		ok = ok && r.OK
	}
	doc := struct {
		OK    bool      `json:"ok"`
		Files []*Result `json:"files"`
	}{ok, results}
	if err := output.WriteJSON(w, doc); err != nil {
		return fmt.Errorf("test results: %w", err)
	}
	return nil
}
