package lint

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/yamldoc"
)

// Formats lists the output formats of vouch lint.
func Formats() []string { return []string{"text", "json", "porcelain", "github", "sarif", "junit"} }

// ReportVersion is the version of the JSON report schema (docs/lint.md).
const ReportVersion = 1

// Report is what every format renders: the findings of a run after the
// baseline is applied, or the configuration errors that stopped it.
type Report struct {
	Version  int       `json:"version"`
	Findings []Finding `json:"findings"`
	// Stale are baseline entries that occur fewer times than recorded.
	// With strict they fail the run: the baseline must shrink.
	Stale   []StaleEntry   `json:"stale_baseline"`
	Skipped []SkippedRule  `json:"skipped_rules"`
	Errors  []*ConfigError `json:"errors"`
	// Notices are warnings about the run itself, not findings: no
	// architecture rules were found, so nothing was checked. With strict
	// they fail the run.
	Notices []*ConfigError `json:"notices,omitempty"`
	Summary Summary        `json:"summary"`
	// Preexisting counts the findings left out because they were already
	// found at the --new-from-rev revision.
	Preexisting int `json:"preexisting,omitempty"`
	// Artifacts are the written program and trace.
	Artifacts *Artifacts `json:"artifacts,omitempty"`
	// Rules describes every rule, for SARIF's reportingDescriptors.
	Rules []RuleInfo `json:"-"`
	// Root is the absolute directory scanned, which every file is
	// relative to (SARIF's %SRCROOT%); "" when unknown.
	Root string `json:"-"`
	// Source names the configuration read, for the text header.
	Source string `json:"-"`
	// Files are the configuration files read, then the baseline.
	Files []string `json:"-"`
	// FileSHA256 is the sha256 of the bytes parsed from each of Files
	// (and Artifacts' of the bytes written), for receipts.
	FileSHA256 map[string]string `json:"-"`
	Time       time.Duration     `json:"-"`
}

// Artifacts names the files a run wrote.
type Artifacts struct {
	Program string `json:"program"`
	Trace   string `json:"trace"`
	// ProgramSHA256 and TraceSHA256 hash the bytes written, so a receipt
	// never re-reads them from disk.
	ProgramSHA256 string `json:"-"`
	TraceSHA256   string `json:"-"`
}

// SkippedRule is a rule of the seed's layout that vouch does not evaluate.
type SkippedRule struct {
	Rule string `json:"rule"`
	Type string `json:"type"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// ConfigError is a configuration or input problem (exit 2): the
// positioned error every loader returns.
type ConfigError = yamldoc.Error

// Summary counts the findings that decide the exit code.
type Summary struct {
	Errors          int   `json:"errors"`
	Warnings        int   `json:"warnings"`
	Baselined       int   `json:"baselined"`
	Stale           int   `json:"stale_baseline"`
	FilesScanned    int   `json:"files_scanned"`
	ImportsResolved int   `json:"imports_resolved"`
	RulesEvaluated  int   `json:"rules_evaluated"`
	ElapsedMS       int64 `json:"elapsed_ms"`
}

// RuleInfo describes a rule for SARIF.
type RuleInfo struct {
	Name, Type, Description, Severity string
	// File and Line are where the rule is defined, the location of its
	// findings that have none of their own.
	File string
	Line int
}

// NewReport builds the report of a finished run. strict turns inert rules
// into errors.
func NewReport(o *Outcome, strict bool) *Report {
	r := &Report{Version: ReportVersion, Findings: slices.Clone(o.Findings), Stale: []StaleEntry{}, Errors: []*ConfigError{}, Skipped: []SkippedRule{}}
	for i := range r.Findings {
		if strict && r.Findings[i].Type == TypeInert {
			r.Findings[i].Severity = arch.SeverityError
		}
	}
	for _, s := range o.Model.Skipped {
		r.Skipped = append(r.Skipped, SkippedRule{Rule: s.Name, Type: s.Type, File: s.Pos.File, Line: s.Pos.Line})
	}
	for _, rule := range o.Model.Rules {
		r.Rules = append(r.Rules, RuleInfo{Name: rule.Name, Type: string(rule.Type), Description: rule.Description, Severity: rule.Severity,
			File: rule.Pos.File, Line: rule.Pos.Line})
	}
	r.Summary.FilesScanned = o.Stats.Files
	r.Summary.ImportsResolved = o.Stats.ImportsResolved
	r.Summary.RulesEvaluated = o.Stats.Rules
	r.Source = strings.Join(o.Model.Files, ", ")
	if r.Source == "" {
		r.Source = "no configuration"
	}
	return r
}

// Count fills in the summary's error and warning counts; baseline findings
// count for neither.
func (r *Report) Count() {
	r.Summary.Errors, r.Summary.Warnings, r.Summary.Baselined = 0, 0, 0
	r.Summary.Stale = len(r.Stale)
	for _, f := range r.Findings {
		switch {
		case f.Baseline:
			r.Summary.Baselined++
		case f.Severity == arch.SeverityError:
			r.Summary.Errors++
		default:
			r.Summary.Warnings++
		}
	}
	if r.Time > 0 {
		r.Summary.ElapsedMS = r.Time.Milliseconds()
	}
}

// Fails reports whether the run must exit 1: an error-severity finding, or
// with strict any warning, notice or stale baseline entry.
func (r *Report) Fails(strict bool) bool {
	return r.Summary.Errors > 0 || strict && (r.Summary.Warnings > 0 || len(r.Notices) > 0 || len(r.Stale) > 0)
}

// WriteJSON writes the report as indented JSON (schema in docs/lint.md).
func (r *Report) WriteJSON(w io.Writer) error {
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	return output.WriteJSON(w, r)
}

// WritePorcelain writes rule:type:severity:file:line:from:to per finding,
// baseline findings excluded, then
// stale:rule:type:file:from:to:members:recorded:found per stale baseline
// entry (members comma-separated); nothing at all when clean.
func (r *Report) WritePorcelain(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, f := range r.Findings {
		if f.Baseline {
			continue
		}
		line := ""
		if f.Line > 0 {
			line = itoa(f.Line)
		}
		fmt.Fprintf(bw, "%s:%s:%s:%s:%s:%s:%s\n", f.Rule, f.Type, f.Severity, f.File, line, f.From, f.To)
	}
	for _, e := range r.Stale {
		fmt.Fprintf(bw, "stale:%s:%s:%s:%s:%s:%s:%d:%d\n", e.Rule, e.Type, e.File, e.From, e.To, strings.Join(e.Members, ","), e.Count, e.Found)
	}
	return bw.Flush()
}

// WriteGitHub writes GitHub Actions workflow commands, one per finding.
func (r *Report) WriteGitHub(w io.Writer) error {
	return output.WriteAnnotations(w, r.Annotations())
}

// Annotations are the report as GitHub annotations: configuration errors,
// notices, findings (baseline findings left out: they are accepted) and
// stale baseline entries.
func (r *Report) Annotations() []output.Annotation {
	var as []output.Annotation
	for _, e := range r.Errors {
		as = append(as, output.Annotation{Level: "error", File: e.File, Line: e.Line, Title: "vouch lint", Message: e.Msg})
	}
	for _, e := range r.Notices {
		as = append(as, output.Annotation{Level: "warning", File: e.File, Line: e.Line, Title: "vouch lint", Message: e.Msg})
	}
	for _, f := range r.Findings {
		if f.Baseline {
			continue
		}
		level := "warning"
		if f.Severity == arch.SeverityError {
			level = "error"
		}
		as = append(as, output.Annotation{Level: level, File: f.File, Line: f.Line, Title: f.Rule, Message: findingText(f)})
	}
	for _, e := range r.Stale {
		as = append(as, output.Annotation{Level: "warning", Title: e.Rule, Message: e.Describe()})
	}
	return as
}

func findingText(f Finding) string {
	s := f.Message
	if f.Reason != "" {
		s += " (" + f.Reason + ")"
	}
	return s
}

// TextOptions tune the human format.
type TextOptions struct {
	Color bool
}

// WriteText writes the human report: a header, findings grouped by rule,
// and a summary.
func (r *Report) WriteText(w io.Writer, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !opts.Color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	for _, e := range r.Errors {
		fmt.Fprintf(bw, "%s\n", e.Error())
	}
	if len(r.Errors) > 0 {
		return bw.Flush()
	}
	s := r.Summary
	fmt.Fprintf(bw, "vouch lint: %d files scanned, %d imports resolved, %s evaluated (%s)\n", s.FilesScanned, s.ImportsResolved, Plural(s.RulesEvaluated, "rule"), r.Source)
	for _, sk := range r.Skipped {
		fmt.Fprintf(bw, "%s:%d: note: rule %s (%s) is not evaluated by vouch\n", sk.File, sk.Line, sk.Rule, sk.Type)
	}
	descr := map[string]string{}
	for _, ri := range r.Rules {
		descr[ri.Name] = ri.Description
	}
	// A group's marker is its worst finding's: ✗ when any finding of the
	// rule fails as an error (baseline findings do not), else !.
	failing := map[string]bool{}
	for _, f := range r.Findings {
		if f.Severity == arch.SeverityError && !f.Baseline {
			failing[f.Rule] = true
		}
	}
	last := ""
	for _, f := range r.Findings {
		if f.Rule != last {
			last = f.Rule
			mark := paint("31", "✗")
			if !failing[f.Rule] {
				mark = paint("33", "!")
			}
			fmt.Fprintf(bw, "\n%s %s\n", mark, paint("1", f.Rule))
			if d := descr[f.Rule]; d != "" {
				fmt.Fprintf(bw, "  %s\n", d)
			}
		}
		loc := ""
		if f.File != "" {
			loc = f.File
			if f.Line > 0 {
				loc += ":" + itoa(f.Line)
			}
			loc += ": "
		}
		tag := f.Severity
		if f.Baseline {
			tag = "baseline"
		}
		fmt.Fprintf(bw, "  %s%s [%s, %s]\n", loc, f.Message, f.Type, tag)
		if f.Reason != "" {
			fmt.Fprintf(bw, "    reason: %s\n", f.Reason)
		}
		steps := f.Chain
		if c := f.Cycle; c != nil {
			steps = c.Edges
		}
		if len(steps) > 0 {
			for _, e := range steps {
				fmt.Fprintf(bw, "    %s -> %s", e.From, e.To)
				for i, st := range e.Sites {
					sep := ", "
					if i == 0 {
						sep = "  via "
					}
					fmt.Fprintf(bw, "%s%s:%d", sep, st.File, st.Line)
				}
				bw.WriteString("\n")
			}
		}
	}
	if len(r.Stale) > 0 {
		bw.WriteString("\n")
	}
	for _, st := range r.Stale {
		fmt.Fprintf(bw, "%s\n", st.Describe())
	}
	fmt.Fprintf(bw, "\n%s, %s", Plural(s.Errors, "error"), Plural(s.Warnings, "warning"))
	if s.Baselined > 0 {
		fmt.Fprintf(bw, ", %d in the baseline", s.Baselined)
	}
	if s.Stale > 0 {
		noun := "entries"
		if s.Stale == 1 {
			noun = "entry"
		}
		fmt.Fprintf(bw, ", %d stale baseline %s", s.Stale, noun)
	}
	fmt.Fprintf(bw, " (%s)\n", r.Time.Round(time.Millisecond))
	return bw.Flush()
}

// Plural formats n and noun, adding "s" unless n is 1: "1 rule", "2 rules".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
