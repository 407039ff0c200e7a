package gate

import (
	"io"

	"github.com/vouch-dev/vouch/output"
)

// JUnit is the gate's outcome as JUnit XML: the rulespec's suite (one
// testcase per predicate, as vouch verify writes it), the architecture
// rules' suite when they were evaluated (one testcase per rule, failing
// when the gate counted a finding as blocking, skipped when it only
// observed it), and a "vouch gate" suite for what stops the gate before or
// beside the rules: a missing envelope (failure), an input or evaluation
// error (error), a stale envelope (failure).
func JUnit(g *Result) *output.JUnitSuites {
	d := &output.JUnitSuites{Name: "vouch gate"}
	gs := output.JUnitSuite{Name: "vouch gate"}
	switch {
	case g.Missing:
		gs.Cases = append(gs.Cases, output.JUnitCase{Name: "envelope", Classname: gs.Name,
			Failure: &output.JUnitProblem{Message: output.At(g.Envelope, 0, "missing envelope"), Type: "missing_envelope", Text: g.MissingMessage()}})
	case g.Err != nil:
		var lines []string
		for _, a := range ErrorAnnotations(g.Err) {
			lines = append(lines, output.At(a.File, a.Line, a.Message))
		}
		gs.Cases = append(gs.Cases, output.JUnitCase{Name: "run", Classname: gs.Name,
			Error: &output.JUnitProblem{Message: lines[0], Type: "error", Text: g.Err.Error()}})
	}
	if g.Report != nil {
		d.Add(g.Report.JUnitSuite(g.Rulespec))
	}
	if l := g.Lint; l != nil && l.Report != nil {
		if len(l.Report.Errors) > 0 {
			for _, s := range l.Report.JUnit(l.Strict).Suites {
				d.Add(s)
			}
		} else {
			rep := *l.Report
			if rep.Source == "" {
				rep.Source = l.Source
			}
			d.Add(rep.JUnitSuite(func(i int) bool { return l.Blocking[i] }, func(i int) bool { return l.Observed[i] }, l.Strict))
		}
	}
	if g.Stale {
		gs.Cases = append(gs.Cases, output.JUnitCase{Name: "envelope freshness", Classname: gs.Name,
			Failure: &output.JUnitProblem{Message: output.At(g.Envelope, 0, "stale envelope"), Type: "stale_envelope", Text: StaleMessage(g.Envelope, g.Changed)}})
	}
	if g.Verdict != "pass" && d.Failures+d.Errors == 0 && !hasFailure(gs) {
		// Fail closed: whatever stopped the gate, the document must not
		// read as a pass.
		gs.Cases = append(gs.Cases, output.JUnitCase{Name: "verdict", Classname: gs.Name,
			Failure: &output.JUnitProblem{Message: "the gate did not pass", Type: "gate", Text: Reason(g)}})
	}
	if len(gs.Cases) > 0 {
		d.Add(gs)
	}
	return d
}

// WriteJUnit writes g as JUnit XML (see JUnit).
func WriteJUnit(w io.Writer, g *Result) error { return output.WriteJUnit(w, JUnit(g)) }

func hasFailure(s output.JUnitSuite) bool {
	for _, c := range s.Cases {
		if c.Failure != nil || c.Error != nil {
			return true
		}
	}
	return false
}
