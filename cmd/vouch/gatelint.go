package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/google/mangle/ast"
	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/compile"
	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/lint"
	"github.com/vouch-dev/vouch/output"
)

// GateProgramFile is the program that combines the rulespec's verdict with
// the architecture findings, written beside rulespec.compiled.dl.
const GateProgramFile = "gate.compiled.dl"

// gateSemantics decides the gate when architecture rules run. Its facts are
// what the two other programs derived: the rulespec program's gate_verdict
// and the architecture program's findings. Go only copies them in; which
// finding blocks, and the final verdict, are derived here.
const gateSemantics = `# ---------------------------------------------------------------------------
# The gate: the rulespec's verdict and the architecture findings, combined.
# rulespec_verdict is the gate_verdict of rulespec.compiled.dl; each finding
# is a violation, inert rule or exemption finding derived by
# architecture.compiled.dl (lint/semantics.dl), with its rule's severity.
# ---------------------------------------------------------------------------

Decl option(Name) descr [extensional(), doc("Architecture options: /strict makes warnings block; /observe reports architecture findings without blocking.")].
Decl lint_ran(Yes) descr [extensional(), doc("The architecture rules were evaluated.")].
Decl rulespec_verdict(V) descr [extensional(), doc("The gate_verdict derived by rulespec.compiled.dl: /pass or /fail.")].
Decl finding(Id, Rule, Type, Severity) descr [extensional(), doc("Finding Id (its index in the report) of Rule, derived by architecture.compiled.dl; Severity is /error or /warn.")].
Decl baselined(Id) descr [extensional(), doc("Finding Id is recorded in the baseline file: reported, never blocking.")].

lint_blocking(Id) :- finding(Id, _, _, /error), !baselined(Id).
lint_blocking(Id) :- finding(Id, _, _, /warn), option(/strict), !baselined(Id).
lint_observed(Id) :- lint_blocking(Id), option(/observe).
lint_enforced(Id) :- lint_blocking(Id), !option(/observe).
lint_failing(/yes) :- lint_enforced(_).
lint_verdict(/fail) :- lint_failing(/yes).
lint_verdict(/pass) :- lint_ran(/yes), !lint_failing(/yes).

gate_blocker(/rulespec) :- rulespec_verdict(/fail).
gate_blocker(/architecture) :- lint_verdict(/fail).
gate_blocked(/yes) :- gate_blocker(_).
gate_verdict(/fail) :- gate_blocked(/yes).
gate_verdict(/pass) :- rulespec_verdict(/pass), lint_verdict(/pass), !gate_blocked(/yes).
`

// gateLint is the architecture half of a gate run.
type gateLint struct {
	// Source names the configuration files read, as vouch lint's header
	// does (architecture.yaml, or the .beadloom/_graph files).
	Source  string
	Strict  bool
	Observe bool
	// Files are the configuration files read, then the baseline.
	Files []string
	// Report is the lint report with the baseline applied; its Errors
	// hold configuration problems when the rules could not be read.
	Report *lint.Report
	// Verdict is the gate program's lint_verdict; Blocking and Observed
	// mark findings (by index) that lint_enforced / lint_observed derived.
	Verdict  string
	Blocking map[int]bool
	Observed map[int]bool
	// GateProgram is the written gate.compiled.dl.
	GateProgram string
}

// archConfigError is an architecture configuration problem: exit 2, with
// every problem positioned.
type archConfigError struct{ errs []lint.ConfigError }

func (e *archConfigError) Error() string {
	msgs := make([]string, len(e.errs))
	for i, ce := range e.errs {
		msgs[i] = ce.String()
	}
	return "invalid architecture configuration:\n" + strings.Join(msgs, "\n")
}

// lintWanted says whether the gate evaluates the architecture rules.
func lintWanted(c *cli.Context, cfg *config.Config) (bool, error) {
	if c.Bool("lint") && c.Bool("no-lint") {
		return false, errors.New("--lint and --no-lint contradict each other; give one")
	}
	if c.Bool("no-lint") {
		return false, nil
	}
	return c.Bool("lint") || cfg.Architecture != nil, nil
}

// runGateLint evaluates the architecture rules of the repository at root
// and writes their program and trace into dir/lint. It decides nothing:
// the findings are the architecture program's, and combineGate decides.
func runGateLint(c *cli.Context, cfg *config.Config, observe, strict bool, dir string) (*gateLint, error) {
	a := cfg.Architecture
	if a == nil {
		a = &config.Architecture{}
	}
	gl := &gateLint{Strict: strict || a.Strict, Observe: observe || a.Observe, Blocking: map[int]bool{}, Observed: map[int]bool{}}
	model, err := arch.Load(cfg.Root, a.Config)
	if err != nil {
		return gl, gl.configError(configErrors(err))
	}
	gl.Source = strings.Join(model.Files, ", ")
	if len(model.Rules) == 0 {
		// Rules were asked for; a gate that checked none must not pass.
		askedBy, remedy := "vouch.yaml's architecture: section", "remove the section to turn the check off"
		if cfg.Architecture == nil {
			askedBy, remedy = "--lint", "drop --lint"
		}
		return gl, gl.configError([]lint.ConfigError{noRulesError(model, cfg.Root, a.Config, askedBy, remedy)})
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(256 << 20)
	}
	scan, err := imports.Scan(c.Context, cfg.Root, imports.Options{})
	if err != nil {
		return gl, err
	}
	var annot map[string][]string
	if model.Annotations {
		annot = readAnnotations(cfg.Root, scan.Files)
	}
	if err := model.Finish(scan.Files); err != nil {
		return gl, gl.configError(configErrors(err))
	}
	gl.Files = append(gl.Files, model.Files...)
	var baseline []lint.BaselineEntry
	if a.Baseline != "" {
		if baseline, err = lint.ReadBaseline(a.Baseline); err != nil {
			return gl, gl.configError([]lint.ConfigError{{File: a.Baseline, Message: err.Error()}})
		}
		gl.Files = append(gl.Files, a.Baseline)
	}
	o, err := lint.Run(model, scan, annot, lint.Options{Today: arch.Day(time.Now())})
	if err != nil {
		return gl, fmt.Errorf("architecture rules: %w", err)
	}
	arts, err := writeLintArtifacts(o, filepath.Join(dir, "lint"))
	if err != nil {
		return gl, err
	}
	rep := lint.NewReport(o, gl.Strict)
	rep.Artifacts = arts
	if baseline != nil {
		rep.Stale = lint.ApplyBaseline(rep.Findings, baseline)
	}
	rep.Count()
	gl.Report = rep
	return gl, nil
}

// noRulesError is the configuration error of architecture rules asked for
// (by askedBy) when none were found: no architecture file at all, or one
// defining no rule vouch evaluates. It names where vouch looked and how to
// fix it; remedy says how to stop asking.
func noRulesError(model *arch.Model, root, config, askedBy, remedy string) lint.ConfigError {
	if model.Layout == "none" {
		want := filepath.Join(root, arch.FileName)
		return lint.ConfigError{File: want, Message: fmt.Sprintf(
			"not found, nor is %s: %s asks for architecture rules but none are configured; create %s with rules, set architecture.config in vouch.yaml to your architecture file, or %s",
			filepath.Join(root, filepath.FromSlash(arch.BeadloomDir)), askedBy, want, remedy)}
	}
	file := config
	switch {
	case file != "":
	case model.Layout == "vouch" && len(model.Files) > 0:
		file = model.Files[0]
	default:
		file = filepath.Join(root, filepath.FromSlash(arch.BeadloomDir))
	}
	return lint.ConfigError{File: file, Message: fmt.Sprintf(
		"defines no rules vouch evaluates, but %s asks for architecture rules; add rules to it, or %s", askedBy, remedy)}
}

func (gl *gateLint) configError(errs []lint.ConfigError) error {
	gl.Report = &lint.Report{Version: lint.ReportVersion, Findings: []lint.Finding{}, Stale: []lint.StaleEntry{}, Skipped: []lint.SkippedRule{}, Errors: errs}
	return &archConfigError{errs}
}

// gateFacts are the gate program's extensional facts.
func (gl *gateLint) gateFacts(rulespecVerdict string) ([]ast.Atom, error) {
	name := func(s string) (ast.Constant, error) {
		n, err := ast.Name("/" + s)
		if err != nil {
			return ast.Constant{}, fmt.Errorf("gate program: %q is not a name: %w", s, err)
		}
		return n, nil
	}
	yes, _ := ast.Name("/yes")
	facts := []ast.Atom{ast.NewAtom("lint_ran", yes)}
	rv, err := name(rulespecVerdict)
	if err != nil {
		return nil, err
	}
	facts = append(facts, ast.NewAtom("rulespec_verdict", rv))
	for opt, on := range map[string]bool{"strict": gl.Strict, "observe": gl.Observe} {
		if on {
			n, _ := name(opt)
			facts = append(facts, ast.NewAtom("option", n))
		}
	}
	for i, f := range gl.Report.Findings {
		sev, err := name(f.Severity)
		if err != nil {
			return nil, err
		}
		facts = append(facts, ast.NewAtom("finding", ast.Number(int64(i)), ast.String(f.Rule), ast.String(f.Type), sev))
		if f.Baseline {
			facts = append(facts, ast.NewAtom("baselined", ast.Number(int64(i))))
		}
	}
	datalog.SortAtoms(facts)
	return facts, nil
}

// combineGate evaluates the gate program over the rulespec's verdict and
// the architecture findings, writes it to dir, and returns its
// gate_verdict. Exactly one gate_verdict and one lint_verdict, or it is an
// evaluation error.
func (gl *gateLint) combineGate(rulespecVerdict, dir string) (string, error) {
	facts, err := gl.gateFacts(rulespecVerdict)
	if err != nil {
		return "", err
	}
	res, err := datalog.Eval(gateSemantics, facts, datalog.Options{})
	if err != nil {
		return "", fmt.Errorf("the gate program did not complete: %w", err)
	}
	one := func(rel string) (string, error) {
		fs := res.Facts(rel, 1)
		if len(fs) != 1 {
			return "", fmt.Errorf("the gate program derived %d %s facts, want exactly one", len(fs), rel)
		}
		c, ok := fs[0].Args[0].(ast.Constant)
		if !ok || c.Type != ast.NameType {
			return "", fmt.Errorf("the gate program derived a malformed %s", fs[0])
		}
		return strings.TrimPrefix(c.Symbol, "/"), nil
	}
	if gl.Verdict, err = one("lint_verdict"); err != nil {
		return "", err
	}
	verdict, err := one("gate_verdict")
	if err != nil {
		return "", err
	}
	for rel, set := range map[string]map[int]bool{"lint_enforced": gl.Blocking, "lint_observed": gl.Observed} {
		for _, f := range res.Facts(rel, 1) {
			if c, ok := f.Args[0].(ast.Constant); ok && c.Type == ast.NumberType {
				set[int(c.NumValue)] = true
			}
		}
	}
	var b bytes.Buffer
	b.WriteString("# vouch gate program: replay with any Mangle v0.4.0 evaluator, e.g.\n")
	b.WriteString("#   mg -load " + GateProgramFile + " -exec 'gate_verdict(V)'\n")
	b.WriteString("# rulespec_verdict comes from rulespec.compiled.dl, finding from lint/" + lint.ProgramFile + ".\n\n")
	b.WriteString(gateSemantics)
	b.WriteString("\n# facts\n")
	for _, f := range facts {
		b.WriteString(compile.FormatFact(f))
		b.WriteByte('\n')
	}
	gl.GateProgram = filepath.Join(dir, GateProgramFile)
	if err := atomicfile.Write(gl.GateProgram, b.Bytes(), 0o644); err != nil {
		return "", err
	}
	return verdict, nil
}

// findingLine renders one finding for the text, hook and fix outputs.
func findingLine(f lint.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] ", f.Rule)
	if f.File != "" {
		b.WriteString(f.File)
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
		}
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s (%s, %s)", f.Message, f.Type, f.Severity)
	if f.Reason != "" {
		b.WriteString("; reason: " + f.Reason)
	}
	return b.String()
}

// lintMark says how a finding counts in the gate.
func (gl *gateLint) lintMark(i int) string {
	f := gl.Report.Findings[i]
	switch {
	case gl.Blocking[i]:
		return "BLOCK"
	case gl.Observed[i]:
		return "OBSERVED"
	case f.Baseline:
		return "BASELINE"
	}
	return "WARN"
}

// writeLintFixes lists the blocking findings, numbered, for an agent.
func (gl *gateLint) writeLintFixes(b *strings.Builder) {
	n := 0
	for i, f := range gl.Report.Findings {
		if !gl.Blocking[i] {
			continue
		}
		if n == 0 {
			b.WriteString("Fix these architecture violations (or, if accepted, record them in the baseline) and finish again:\n")
		}
		n++
		fmt.Fprintf(b, "%d. %s\n", n, findingLine(f))
	}
}

// gateLintJSON is the "lint" field of the gate's JSON output: the lint
// report plus how the gate counted each finding.
type gateLintJSON struct {
	Verdict string `json:"verdict"`
	Strict  bool   `json:"strict"`
	Observe bool   `json:"observe"`
	Config  string `json:"config"`
	// Blocking and Observed are indexes into findings.
	Blocking    []int  `json:"blocking"`
	Observed    []int  `json:"observed"`
	GateProgram string `json:"gate_program,omitempty"`
	*lint.Report
}

func (gl *gateLint) json() *gateLintJSON {
	j := &gateLintJSON{Verdict: gl.Verdict, Strict: gl.Strict, Observe: gl.Observe, Config: gl.Source,
		Blocking: []int{}, Observed: []int{}, GateProgram: filepath.ToSlash(gl.GateProgram), Report: gl.Report}
	if j.Verdict == "" {
		j.Verdict = "fail" // the rules did not finish: never a pass
	}
	for i := range gl.Report.Findings {
		if gl.Blocking[i] {
			j.Blocking = append(j.Blocking, i)
		}
		if gl.Observed[i] {
			j.Observed = append(j.Observed, i)
		}
	}
	return j
}

// summary counts the findings as the gate program counted them.
func (gl *gateLint) summary() string {
	s := gl.Report.Summary
	return fmt.Sprintf("%s: %d errors, %d warnings, %d blocking, %d observed, %d in the baseline",
		strings.ToUpper(gl.Verdict), s.Errors, s.Warnings, len(gl.Blocking), len(gl.Observed), s.Baselined)
}

// writeText lists every architecture finding with how the gate counted it.
func (gl *gateLint) writeText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "architecture (%s, %s):\n", gl.Source, lint.Plural(gl.Report.Summary.RulesEvaluated, "rule"))
	for i, f := range gl.Report.Findings {
		line := fmt.Sprintf("  %s %s", gl.lintMark(i), findingLine(f))
		if gl.Observed[i] {
			line += " (observed: reported, not enforced)"
		}
		b.WriteString(line + "\n")
	}
	for _, e := range gl.Report.Stale {
		fmt.Fprintf(&b, "  STALE %s\n", e.Describe())
	}
	fmt.Fprintf(&b, "architecture: %s\n", gl.summary())
	_, err := io.WriteString(w, b.String())
	return err
}

// annotations are a GitHub annotation per architecture finding: ::error
// for a blocking one, ::warning for the rest (baseline findings are left
// out, as vouch lint leaves them out).
func (gl *gateLint) annotations() []output.Annotation {
	var as []output.Annotation
	for i, f := range gl.Report.Findings {
		if f.Baseline {
			continue
		}
		level := "warning"
		if gl.Blocking[i] {
			level = "error"
		}
		msg := findingLine(f)
		if gl.Observed[i] {
			msg += " [observed: not blocking]"
		}
		as = append(as, output.Annotation{Level: level, File: f.File, Line: f.Line, Title: "vouch lint " + f.Rule, Message: msg})
	}
	return as
}
