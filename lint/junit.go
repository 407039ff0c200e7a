package lint

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/output"
)

// JUnit is the report as JUnit XML suites: one testsuite for the
// architecture configuration (the rule set) with one testcase per rule,
// or, for the rules read from another tool's contracts (import-linter),
// one per contract: kept passes, broken fails with every finding of the
// contract's rules, and a contract vouch does not run is skipped.
// A rule with a finding that fails the run (an error, or with strict any
// warning) is a failure whose message is the first such finding at its
// file:line and whose text lists every finding of the rule; a rule that
// can never fire (inert) is skipped, as it checked nothing; warnings and
// baseline findings of a passing rule go to its system-out. Configuration
// errors are one error testcase each in a "configuration" suite; notices
// (nothing was checked) and stale baseline entries are testcases of their
// own, failing under strict.
func (r *Report) JUnit(strict bool) *output.JUnitSuites {
	d := &output.JUnitSuites{Name: "vouch lint"}
	if len(r.Errors) > 0 {
		s := output.JUnitSuite{Name: "vouch lint: configuration"}
		for i, e := range r.Errors {
			msg := e.Error()
			s.Cases = append(s.Cases, output.JUnitCase{Name: fmt.Sprintf("configuration error %d", i+1), Classname: s.Name,
				Error: &output.JUnitProblem{Message: msg, Type: "configuration", Text: msg}})
		}
		d.Add(s)
		return d
	}
	blocking := func(i int) bool {
		f := r.Findings[i]
		return !f.Baseline && (f.Severity == arch.SeverityError || strict)
	}
	d.Add(r.JUnitSuite(blocking, func(int) bool { return false }, strict))
	return d
}

// JUnitSuite is the rule set's testsuite, with finding i failing its rule
// when blocking(i) and reported as skipped-not-enforced when observed(i)
// (the gate decides both; vouch lint fails errors, and warnings under
// strict). strict also fails the notices and stale baseline entries.
func (r *Report) JUnitSuite(blocking, observed func(i int) bool, strict bool) output.JUnitSuite {
	name := "vouch lint: " + r.Source
	s := output.JUnitSuite{Name: name}
	if len(r.Files) > 0 {
		s.File = r.Files[0]
	}
	byRule := map[string][]int{}
	rules := slices.Clone(r.Rules)
	known := map[string]bool{}
	for _, ri := range rules {
		known[ri.Name] = true
	}
	for i, f := range r.Findings {
		byRule[f.Rule] = append(byRule[f.Rule], i)
		if !known[f.Rule] {
			// A finding always has its case, even of a rule the report
			// does not describe: no finding may go unreported.
			known[f.Rule] = true
			rules = append(rules, RuleInfo{Name: f.Rule, Type: f.Type})
		}
	}
	// A unit is what one testcase reports: a rule, or a contract of
	// another tool's configuration with all the rules it became.
	type unit struct {
		name, typ string
		rules     []string
	}
	var units []*unit
	byGroup := map[string]*unit{}
	for _, ri := range rules {
		if ri.Group == "" {
			units = append(units, &unit{name: ri.Name, typ: ri.Type, rules: []string{ri.Name}})
			continue
		}
		u := byGroup[ri.Group]
		if u == nil {
			u = &unit{name: ri.Group, typ: "contract"}
			byGroup[ri.Group] = u
			units = append(units, u)
		}
		u.rules = append(u.rules, ri.Name)
	}
	for _, u := range units {
		c := output.JUnitCase{Name: u.name, Classname: name}
		var failing, seen, inert, other []Finding
		var idx []int
		inertRules := map[string]bool{}
		for _, rn := range u.rules {
			idx = append(idx, byRule[rn]...)
		}
		slices.Sort(idx)
		for _, i := range idx {
			f := r.Findings[i]
			switch {
			case blocking(i):
				failing = append(failing, f)
			case observed(i):
				seen = append(seen, f)
			case f.Type == TypeInert && !f.Baseline:
				inert = append(inert, f)
				inertRules[f.Rule] = true
			default:
				other = append(other, f)
			}
		}
		switch {
		case len(failing) > 0:
			msg := output.At(failing[0].File, failing[0].Line, findingText(failing[0]))
			if n := len(failing) - 1; n > 0 {
				msg += fmt.Sprintf(" (and %d more)", n)
			}
			if u.typ == "contract" {
				msg = fmt.Sprintf("contract %q BROKEN: %s", u.name, msg)
			}
			c.Failure = &output.JUnitProblem{Message: msg, Type: u.typ, Text: junitLines(failing)}
			other = append(seen, other...)
			other = append(other, inert...)
		case len(seen) > 0:
			c.Skipped = &output.JUnitProblem{Message: output.At(seen[0].File, seen[0].Line, "observed (mode: observe, not enforced): "+findingText(seen[0])), Type: "observed"}
			other = append(seen, other...)
			other = append(other, inert...)
		case len(inert) > 0 && len(inertRules) == len(u.rules):
			// Every rule of the unit can never fire: it checked nothing.
			c.Skipped = &output.JUnitProblem{Message: output.At(inert[0].File, inert[0].Line, inert[0].Message), Type: TypeInert}
		default:
			other = append(other, inert...)
		}
		if len(other) > 0 {
			c.SystemOut = junitLines(other)
		}
		s.Cases = append(s.Cases, c)
	}
	for _, sk := range r.Skipped {
		// A contract or rule vouch does not run checked nothing.
		s.Cases = append(s.Cases, output.JUnitCase{Name: sk.Rule, Classname: name,
			Skipped: &output.JUnitProblem{Message: output.At(sk.File, sk.Line, fmt.Sprintf("%s (%s) is not evaluated by vouch", sk.Rule, sk.Type)), Type: "not_evaluated"}})
	}
	if len(r.Notices) > 0 {
		var lines []string
		for _, n := range r.Notices {
			lines = append(lines, n.Error())
		}
		p := &output.JUnitProblem{Message: lines[0], Type: "notice", Text: strings.Join(lines, "\n")}
		c := output.JUnitCase{Name: "notices", Classname: name, Skipped: p}
		if strict {
			c.Skipped, c.Failure = nil, p
		}
		s.Cases = append(s.Cases, c)
	}
	if len(r.Stale) > 0 {
		var lines []string
		for _, e := range r.Stale {
			lines = append(lines, e.Describe())
		}
		c := output.JUnitCase{Name: "baseline", Classname: name, SystemOut: strings.Join(lines, "\n")}
		if strict {
			c.Failure = &output.JUnitProblem{Message: lines[0], Type: "stale_baseline", Text: strings.Join(lines, "\n")}
		}
		s.Cases = append(s.Cases, c)
	}
	return s
}

// junitLines lists findings one per line as file:line: message [type,
// severity], with a cycle's or chain's steps indented below.
func junitLines(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		tag := f.Severity
		if f.Baseline {
			tag = "baseline"
		}
		fmt.Fprintf(&b, "%s [%s, %s]\n", output.At(f.File, f.Line, findingText(f)), f.Type, tag)
		steps := f.Chain
		if f.Cycle != nil {
			steps = f.Cycle.Edges
		}
		for _, e := range steps {
			fmt.Fprintf(&b, "  %s -> %s", e.From, e.To)
			for i, st := range e.Sites {
				sep := ", "
				if i == 0 {
					sep = " via "
				}
				fmt.Fprintf(&b, "%s%s:%d", sep, st.File, st.Line)
			}
			b.WriteString("\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// WriteJUnit writes the report as JUnit XML (see JUnit).
func (r *Report) WriteJUnit(w io.Writer, strict bool) error {
	return output.WriteJUnit(w, r.JUnit(strict))
}
