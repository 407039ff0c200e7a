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
	"github.com/vouch-dev/vouch/repofacts"
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
	// Contracts are the rules of another tool's configuration (an
	// import-linter contract each), with the outcome of the vouch rules
	// each became, in file order; absent for vouch's own rules.
	Contracts []Contract `json:"contracts,omitempty"`
	Summary   Summary    `json:"summary"`
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
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Infos count info-severity findings, which never fail a run.
	Infos           int   `json:"infos,omitempty"`
	Baselined       int   `json:"baselined"`
	Stale           int   `json:"stale_baseline"`
	FilesScanned    int   `json:"files_scanned"`
	ImportsResolved int   `json:"imports_resolved"`
	RulesEvaluated  int   `json:"rules_evaluated"`
	ElapsedMS       int64 `json:"elapsed_ms"`
}

// Contract statuses, as import-linter's summary words them.
const (
	ContractKept         = "kept"
	ContractBroken       = "broken"
	ContractNotEvaluated = "not_evaluated"
)

// Contract is one rule of another tool's configuration and the outcome of
// the vouch rules it became.
type Contract struct {
	Name string `json:"name"`
	Tool string `json:"tool"`
	File string `json:"file"`
	Line int    `json:"line"`
	// Status is ContractBroken when a finding of one of its rules fails
	// the run (an error outside the baseline), ContractKept otherwise, or
	// ContractNotEvaluated for a contract vouch does not run.
	Status   string   `json:"status"`
	Rules    []string `json:"rules"`
	Errors   int      `json:"errors"`
	Warnings int      `json:"warnings"`
}

// RuleInfo describes a rule for SARIF.
type RuleInfo struct {
	Name, Type, Description, Severity string
	// Group is the foreign rule (contract) the rule came from, "" for
	// vouch's own rules.
	Group string
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
	index := map[string]int{}
	for _, rule := range o.Model.Rules {
		ri := RuleInfo{Name: rule.Name, Type: string(rule.Type), Description: rule.Description, Severity: rule.Severity,
			File: rule.Pos.File, Line: rule.Pos.Line}
		// Contracts are import-linter's unit of report (kept or broken);
		// dependency-cruiser reports rule by rule, as vouch does.
		if og := rule.Origin; og != nil && og.Tool != "dependency-cruiser" {
			ri.Group = og.Group
			i, ok := index[og.Group]
			if !ok {
				i = len(r.Contracts)
				index[og.Group] = i
				r.Contracts = append(r.Contracts, Contract{Name: og.Group, Tool: og.Tool, File: og.Pos.File, Line: og.Pos.Line})
			}
			r.Contracts[i].Rules = append(r.Contracts[i].Rules, rule.Name)
		}
		r.Rules = append(r.Rules, ri)
	}
	if slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Type == TypeUnreadable }) {
		// Unreadable files are findings of no configured rule; SARIF and
		// JUnit still describe what reported them.
		r.Rules = append(r.Rules, RuleInfo{Name: RuleUnreadable, Type: TypeUnreadable, Severity: arch.SeverityError,
			Description: "Every source file the rules lint must be read in full."})
	}
	if len(r.Contracts) > 0 {
		// A contract vouch does not run is listed as such, never as kept.
		for _, s := range o.Model.Skipped {
			if _, ok := index[s.Name]; !ok {
				index[s.Name] = len(r.Contracts)
				r.Contracts = append(r.Contracts, Contract{Name: s.Name, Tool: o.Model.Layout, File: s.Pos.File, Line: s.Pos.Line, Status: ContractNotEvaluated, Rules: []string{}})
			}
		}
		slices.SortStableFunc(r.Contracts, func(a, b Contract) int { return a.Line - b.Line })
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
	r.Summary.Errors, r.Summary.Warnings, r.Summary.Infos, r.Summary.Baselined = 0, 0, 0, 0
	r.Summary.Stale = len(r.Stale)
	for _, f := range r.Findings {
		switch {
		case f.Baseline:
			r.Summary.Baselined++
		case f.Severity == arch.SeverityError:
			r.Summary.Errors++
		case f.Severity == arch.SeverityInfo:
			r.Summary.Infos++
		default:
			r.Summary.Warnings++
		}
	}
	if r.Time > 0 {
		r.Summary.ElapsedMS = r.Time.Milliseconds()
	}
	group := r.groups()
	for i := range r.Contracts {
		c := &r.Contracts[i]
		if c.Status == ContractNotEvaluated {
			continue
		}
		c.Errors, c.Warnings = 0, 0
		for _, f := range r.Findings {
			if f.Baseline || group[f.Rule] != c.Name {
				continue
			}
			if f.Severity == arch.SeverityError {
				c.Errors++
			} else {
				c.Warnings++
			}
		}
		c.Status = ContractKept
		if c.Errors > 0 {
			c.Status = ContractBroken
		}
	}
}

// groups maps each rule read from another tool's configuration to its
// contract.
func (r *Report) groups() map[string]string {
	out := map[string]string{}
	for _, ri := range r.Rules {
		if ri.Group != "" {
			out[ri.Name] = ri.Group
		}
	}
	return out
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
		fmt.Fprintf(bw, "%s:%s:%s:%s:%s:%s:%s\n", f.Rule, f.Type, f.Severity, repofacts.ShownPath(f.File), line, repofacts.ShownText(f.From), repofacts.ShownText(f.To))
	}
	for _, e := range r.Stale {
		fmt.Fprintf(bw, "stale:%s:%s:%s:%s:%s:%s:%d:%d\n", e.Rule, e.Type, repofacts.ShownPath(e.File), repofacts.ShownText(e.From), repofacts.ShownText(e.To), repofacts.ShownText(strings.Join(e.Members, ",")), e.Count, e.Found)
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
		fmt.Fprintf(bw, "%s:%d: note: rule %s (%s) is not evaluated by vouch\n", repofacts.ShownPath(sk.File), sk.Line, sk.Rule, sk.Type)
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
	// Another tool's rules are grouped by its contracts, in file order,
	// each headed KEPT or BROKEN as that tool's summary says; their
	// findings come first, then any of vouch's own rules.
	// An item is a finding to print, or (kept set) a contract kept
	// without any finding, printed where the contract stands.
	type item struct {
		kept string
		f    Finding
	}
	items := make([]item, 0, len(r.Findings))
	group := r.groups()
	for _, c := range r.Contracts {
		if c.Status == ContractKept && c.Errors+c.Warnings == 0 {
			items = append(items, item{kept: c.Name})
			continue
		}
		for _, f := range r.Findings {
			if group[f.Rule] == c.Name {
				items = append(items, item{f: f})
			}
		}
	}
	for _, f := range r.Findings {
		if group[f.Rule] == "" {
			items = append(items, item{f: f})
		}
	}
	last, lastGroup := "", ""
	for _, it := range items {
		if it.kept != "" {
			fmt.Fprintf(bw, "\n%s %s KEPT\n", paint("32", "✓"), paint("1", it.kept))
			continue
		}
		f := it.f
		if g := group[f.Rule]; g != "" && g != lastGroup {
			lastGroup = g
			mark, status := paint("31", "✗"), "BROKEN"
			for _, c := range r.Contracts {
				if c.Name == g && c.Status == ContractKept {
					mark, status = paint("33", "!"), "KEPT"
				}
			}
			fmt.Fprintf(bw, "\n%s %s %s\n", mark, paint("1", g), status)
		}
		if f.Rule != last {
			last = f.Rule
			switch g := group[f.Rule]; {
			case g == f.Rule:
			case g != "":
				fmt.Fprintf(bw, "  rule %s:\n", f.Rule)
			default:
				mark := paint("31", "✗")
				if !failing[f.Rule] {
					mark = paint("33", "!")
				}
				fmt.Fprintf(bw, "\n%s %s\n", mark, paint("1", f.Rule))
				if d := descr[f.Rule]; d != "" {
					fmt.Fprintf(bw, "  %s\n", d)
				}
			}
		}
		loc := ""
		if f.File != "" {
			loc = repofacts.ShownPath(f.File)
			if f.Line > 0 {
				loc += ":" + itoa(f.Line)
			}
			loc += ": "
		}
		tag := f.Severity
		if f.Baseline {
			tag = "baseline"
		}
		fmt.Fprintf(bw, "  %s%s [%s, %s]\n", loc, repofacts.ShownText(f.Message), f.Type, tag)
		if f.Reason != "" {
			fmt.Fprintf(bw, "    reason: %s\n", repofacts.ShownText(f.Reason))
		}
		steps := f.Chain
		if c := f.Cycle; c != nil {
			steps = c.Edges
		}
		if len(steps) > 0 {
			for _, e := range steps {
				fmt.Fprintf(bw, "    %s -> %s", repofacts.ShownText(e.From), repofacts.ShownText(e.To))
				for i, st := range e.Sites {
					sep := ", "
					if i == 0 {
						sep = "  via "
					}
					fmt.Fprintf(bw, "%s%s:%d", sep, repofacts.ShownPath(st.File), st.Line)
				}
				bw.WriteString("\n")
			}
		}
	}
	if len(r.Stale) > 0 {
		bw.WriteString("\n")
	}
	for _, st := range r.Stale {
		fmt.Fprintf(bw, "%s\n", repofacts.ShownText(st.Describe()))
	}
	if len(r.Contracts) > 0 {
		n := map[string]int{}
		for _, c := range r.Contracts {
			n[c.Status]++
		}
		fmt.Fprintf(bw, "\nContracts: %d kept, %d broken", n[ContractKept], n[ContractBroken])
		if n[ContractNotEvaluated] > 0 {
			fmt.Fprintf(bw, ", %d not evaluated", n[ContractNotEvaluated])
		}
		bw.WriteString(".\n")
	}
	fmt.Fprintf(bw, "\n%s, %s", Plural(s.Errors, "error"), Plural(s.Warnings, "warning"))
	if s.Infos > 0 {
		fmt.Fprintf(bw, ", %s", Plural(s.Infos, "info"))
	}
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
