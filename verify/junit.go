package verify

import (
	"fmt"
	"io"

	"github.com/vouch-dev/vouch/output"
)

// JUnitSuite is the report as one JUnit testsuite named after the
// rulespec (the rule set) with one testcase per predicate:
//   - a failing predicate is a failure whose message is the predicate's
//     file:line in the rulespec and the reason it failed;
//   - an observed failure (mode: observe) is skipped, not failed: it is
//     reported and not enforced, as in every other format;
//   - a predicate that checked nothing is skipped: its when: was not met,
//     or it passed only vacuously (the claim is absent or empty);
//   - a run that fails because it checked nothing (--strict) adds a
//     failing "checked_nothing" testcase, so the document never reads as
//     a pass when the verdict is a fail.
func (r *Report) JUnitSuite(rulespecPath string) output.JUnitSuite {
	name := "vouch verify: " + rulespecPath
	s := output.JUnitSuite{Name: name, File: rulespecPath}
	failed := false
	for _, p := range r.Predicates {
		c := output.JUnitCase{Name: p.label(), Classname: name}
		msg := printable(p.Message)
		switch {
		case p.Status == Fail && p.Observed:
			c.Skipped = &output.JUnitProblem{Message: output.At(rulespecPath, p.Line, "observed failure (mode: observe, not enforced): "+msg), Type: "observed"}
		case p.Status == Fail:
			failed = true
			c.Failure = &output.JUnitProblem{Message: output.At(rulespecPath, p.Line, msg), Type: p.Rule, Text: p.details(rulespecPath)}
		case p.Status == Skipped:
			c.Skipped = &output.JUnitProblem{Message: output.At(rulespecPath, p.Line, nonEmpty(msg, "not checked: its when: condition does not hold")), Type: "skipped"}
		case p.Vacuous:
			c.Skipped = &output.JUnitProblem{Message: output.At(rulespecPath, p.Line, nonEmpty(msg, "not checked: passed vacuously (the claim is absent or empty)")), Type: "vacuous"}
		}
		s.Cases = append(s.Cases, c)
	}
	if r.Verdict != "pass" && !failed {
		msg := CheckedNothingFailure
		if !r.CheckedNothing {
			msg = "the run failed without a failing predicate"
		}
		s.Cases = append(s.Cases, output.JUnitCase{Name: "checked_nothing", Classname: name,
			Failure: &output.JUnitProblem{Message: output.At(rulespecPath, 0, msg), Type: "checked_nothing"}})
	}
	return s
}

// label names a predicate as the text format does: [index id] claim rule.
func (p *PredicateReport) label() string {
	name := fmt.Sprintf("[%d]", p.Index)
	if p.ID != "" {
		name = fmt.Sprintf("[%d %s]", p.Index, p.ID)
	}
	return fmt.Sprintf("%s %s %s", name, printable(p.Claim), p.Rule)
}

// details is a failure's text: where, what was expected and found.
func (p *PredicateReport) details(rulespecPath string) string {
	s := output.At(rulespecPath, p.Line, printable(p.Message))
	s += fmt.Sprintf("\nclaim %s (selector %s), rule %s", printable(p.Claim), printable(p.Selector), p.Rule)
	if p.Value != nil {
		s += ", expected " + short(string(p.Value))
	}
	if p.Actual == nil {
		s += "; found nothing"
	} else {
		s += "; found " + short(string(p.Actual))
	}
	if p.Notes != "" {
		s += "\nnote: " + printable(p.Notes)
	}
	return s
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// WriteJUnit writes the report as a JUnit XML document of one suite (see
// JUnitSuite).
func (r *Report) WriteJUnit(w io.Writer, rulespecPath string) error {
	d := &output.JUnitSuites{Name: "vouch verify"}
	d.Add(r.JUnitSuite(rulespecPath))
	return output.WriteJUnit(w, d)
}
