package verify

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/compile"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/rulespec"
)

// Report is the result of a verification, in the shape of the documented
// JSON contract (docs/json.md).
type Report struct {
	Verdict    string            `json:"verdict"`
	Summary    Summary           `json:"summary"`
	Predicates []PredicateReport `json:"predicates"`
	Warnings   []string          `json:"warnings"`
	Artifacts  Artifacts         `json:"artifacts"`
	// CheckedNothing is set when the engine derived checked_nothing: no
	// predicate was decided (every one skipped or passed vacuously).
	// Under --strict the run fails for it; otherwise it passes with a
	// warning.
	CheckedNothing bool `json:"checked_nothing,omitempty"`
}

// CheckedNothingWarning is the warning printed for a run that decided no
// predicate.
const CheckedNothingWarning = "NOTHING WAS CHECKED: no predicate was decided (every one was skipped or passed vacuously); the pass proves nothing. Use --strict to fail such a run."

// CheckedNothingFailure explains a --strict failure that no predicate caused.
const CheckedNothingFailure = "failed under --strict: nothing was checked (every predicate was skipped or passed vacuously)"

// Summary counts predicates by status.
type Summary struct {
	Total   int `json:"total"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Vacuous int `json:"vacuous"`
	// Observed counts failures in observe mode: reported, not enforced.
	Observed int `json:"observed"`
}

// Artifacts are the files a verification wrote.
type Artifacts struct {
	Program string `json:"program"`
	Trace   string `json:"trace"`
	// ProgramSHA256 and TraceSHA256 are the hex sha256 of the bytes
	// written, so a receipt records them without reading the files back
	// (another process may have replaced them since).
	ProgramSHA256 string `json:"-"`
	TraceSHA256   string `json:"-"`
}

// RawJSON is a JSON value carried through verbatim; nil encodes as null.
type RawJSON []byte

// MarshalJSON writes the raw value, or null.
func (r RawJSON) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("null"), nil
	}
	return r, nil
}

// PredicateReport is one predicate's verdict.
type PredicateReport struct {
	Index    int     `json:"index"`
	ID       string  `json:"id,omitempty"`
	Claim    string  `json:"claim"`
	Selector string  `json:"selector"`
	Rule     string  `json:"rule"`
	Value    RawJSON `json:"value"`
	// ValueFrom names the claim compared with (value_from:); Value is
	// that claim's value then.
	ValueFrom string           `json:"value_from,omitempty"`
	Source    string           `json:"source"`
	Notes     string           `json:"notes"`
	When      *ConditionReport `json:"when,omitempty"`
	Status    Status           `json:"status"`
	Vacuous   bool             `json:"vacuous"`
	// Observed marks a failure in observe mode: it does not fail the run.
	Observed bool    `json:"observed"`
	Actual   RawJSON `json:"actual"`
	Message  string  `json:"message"`
	// Line and Col locate the predicate in the rulespec, for annotations.
	Line int `json:"-"`
	Col  int `json:"-"`
	// EnvelopeLine and EnvelopeCol locate, for a failed predicate on an
	// envelope claim, the value the claim selects in a YAML envelope (or
	// the nearest enclosing value written); zero when unknown.
	EnvelopeLine int `json:"-"`
	EnvelopeCol  int `json:"-"`
}

// ConditionReport describes a predicate's when condition.
type ConditionReport struct {
	Claim     string  `json:"claim"`
	Rule      string  `json:"rule"`
	Value     RawJSON `json:"value"`
	ValueFrom string  `json:"value_from,omitempty"`
	Actual    RawJSON `json:"actual"`
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	if err := output.WriteJSON(w, r); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// TextOptions control the text rendering.
type TextOptions struct {
	Color bool
}

// WriteText writes one line per predicate and a summary line.
func (r *Report) WriteText(w io.Writer, opts TextOptions) error {
	var b strings.Builder
	paint := func(code, s string) string {
		if !opts.Color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	for _, warn := range r.Warnings {
		b.WriteString(paint("33", "warning: ") + printable(warn) + "\n")
	}
	for _, p := range r.Predicates {
		label := strings.ToUpper(string(p.Status))
		switch {
		case p.Status == Fail:
			label = paint("31;1", "FAIL")
		case p.Status == Pass && p.Vacuous:
			label = paint("33", "PASS")
		case p.Status == Pass:
			label = paint("32", "PASS")
		default:
			label = paint("36", "SKIP")
		}
		name := fmt.Sprintf("[%d]", p.Index)
		if p.ID != "" {
			name = fmt.Sprintf("[%d %s]", p.Index, p.ID)
		}
		expected := p.Rule
		if p.ValueFrom != "" {
			expected += " " + printable(p.ValueFrom)
			if p.Value != nil {
				expected += " (" + short(string(p.Value)) + ")"
			}
		} else if p.Value != nil {
			expected += " " + short(string(p.Value))
		}
		fmt.Fprintf(&b, "%s %s %s %s", label, name, printable(p.Claim), expected)
		if p.Vacuous {
			b.WriteString(" (vacuous)")
		}
		if p.Observed {
			b.WriteString(paint("33", " (observed: reported, not enforced)"))
		}
		if p.Actual == nil {
			b.WriteString(" | found: nothing")
		} else {
			b.WriteString(" | found: " + short(string(p.Actual)))
		}
		b.WriteString("\n")
		if p.Message != "" && (p.Status != Pass || p.Vacuous) {
			b.WriteString("     " + printable(p.Message) + "\n")
		}
		if p.Notes != "" && p.Status == Fail {
			b.WriteString("     note: " + printable(p.Notes) + "\n")
		}
	}
	s := r.Summary
	summary := fmt.Sprintf("%d/%d passed, %d failed, %d skipped", s.Passed, s.Total, s.Failed, s.Skipped)
	if s.Observed > 0 {
		summary = fmt.Sprintf("%d/%d passed, %d failed (%d observed), %d skipped", s.Passed, s.Total, s.Failed, s.Observed, s.Skipped)
	}
	if s.Vacuous > 0 {
		summary += fmt.Sprintf(" (%d vacuous)", s.Vacuous)
	}
	if r.CheckedNothing {
		if r.Verdict == "pass" {
			b.WriteString(paint("33;1", "warning: "+CheckedNothingWarning) + "\n")
		} else {
			b.WriteString(paint("31;1", CheckedNothingFailure) + "\n")
		}
	}
	if r.Verdict == "pass" {
		summary = paint("32;1", "PASS") + " " + summary
	} else {
		summary = paint("31;1", "FAIL") + " " + summary
	}
	b.WriteString(summary + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// printable escapes control characters, so text from a rulespec or an
// envelope cannot move the cursor or rewrite earlier lines of a terminal.
func printable(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// short shows a JSON value on one line, cut to a readable length.
func short(s string) string {
	const max = 80
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-3]) + "..."
	}
	return s
}

func describeValue(v RawJSON) string {
	if v == nil {
		return "nothing (absent)"
	}
	s := string(v)
	switch {
	case s == "true" || s == "false":
		return "boolean " + s
	case strings.HasPrefix(s, `"`):
		return "string " + short(s)
	case strings.HasPrefix(s, "["):
		return "array " + short(s)
	case strings.HasPrefix(s, "{"):
		return "mapping " + short(s)
	}
	return "number " + s
}

// message explains a verdict in a sentence, from the facts the evaluation
// derived. It does not decide anything: the status is already fixed.
func message(p rulespec.Predicate, pr PredicateReport, claims map[string]compile.ClaimValue, res *datalog.Result) string {
	ch := ast.String(compile.PredicateCheck(p.Index))
	has := func(pred string, args ...ast.BaseTerm) bool {
		return len(res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args})) > 0
	}
	v := ast.Variable{Symbol: "_"}
	cv := claims[p.Claim]
	switch pr.Status {
	case Skipped:
		w := *p.When
		return fmt.Sprintf("skipped: condition %s did not hold (%s is %s)", compile.DescribeCheck(w), w.Claim, describeValue(pr.When.Actual))
	case Pass:
		if !pr.Vacuous {
			return ""
		}
		if !cv.Present {
			return fmt.Sprintf("passed without checking anything: %s is absent (selector %s found nothing)", p.Claim, cv.Claim.Selector)
		}
		return fmt.Sprintf("passed without checking anything: %s is an empty array", p.Claim)
	}
	if has("undecided_condition", ast.Number(int64(p.Index))) {
		w := *p.When
		return fmt.Sprintf("failed under --strict: condition %s could not be decided, %s is absent (selector %s found nothing)", compile.DescribeCheck(w), w.Claim, claims[w.Claim].Claim.Selector)
	}
	if has("strict_rejected", ast.Number(int64(p.Index))) {
		return "failed under --strict: the rule passed only vacuously and checked nothing"
	}
	if !cv.Present && p.Rule != rulespec.NotExists {
		msg := fmt.Sprintf("%s is absent: selector %s found nothing (a missing key or null)", p.Claim, cv.Claim.Selector)
		if cv.Warning != "" {
			msg += "; " + cv.Warning
		}
		return msg
	}
	found := describeValue(pr.Actual)
	want := short(string(pr.Value))
	if p.ValueFrom != "" {
		if pr.Value == nil {
			return fmt.Sprintf("nothing to compare with: value_from claim %s is absent (selector %s found nothing)", p.ValueFrom, claims[p.ValueFrom].Claim.Selector)
		}
		want = p.ValueFrom + " " + want
	}
	t, _ := p.Rule.Type()
	switch t.Report {
	case rulespec.ReportSet:
		if typeWord(found) != "array" {
			return fmt.Sprintf("%s compares arrays as sets, found %s", p.Rule, found)
		}
		if p.ValueFrom != "" && typeWord(describeValue(pr.Value)) != "array" {
			return fmt.Sprintf("%s compares arrays as sets, but value_from claim %s is %s", p.Rule, p.ValueFrom, describeValue(pr.Value))
		}
		var parts []string
		if extra := res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: "set_extra", Arity: 3}, Args: []ast.BaseTerm{ch, v, v}}); len(extra) > 0 {
			parts = append(parts, fmt.Sprintf("elements of %s not in %s: %s", p.Claim, want, listOf(elements(extra))))
		}
		if missing := res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: "set_missing", Arity: 3}, Args: []ast.BaseTerm{ch, v, v}}); len(missing) > 0 {
			parts = append(parts, fmt.Sprintf("members of %s missing from %s: %s", want, p.Claim, listOf(elements(missing))))
		}
		return strings.Join(parts, "; ")
	case rulespec.ReportAbsence:
		return "expected no value, found " + found
	case rulespec.ReportEquality:
		exp := describeValue(pr.Value)
		if typeWord(exp) != typeWord(found) {
			return fmt.Sprintf("expected %s, found %s; types must match exactly", exp, found)
		}
		return fmt.Sprintf("expected %s, found %s", exp, found)
	case rulespec.ReportContainment:
		if has("mismatch", ch) {
			return fmt.Sprintf("%s compares an array with an element or a string with a substring; found %s and value %s", p.Rule, found, describeValue(pr.Value))
		}
		if t.Negative {
			return fmt.Sprintf("%s found in %s", want, found)
		}
		return fmt.Sprintf("%s not found in %s", want, found)
	case rulespec.ReportMembership:
		if strays := res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: "stray", Arity: 3}, Args: []ast.BaseTerm{ch, v, v}}); len(strays) > 0 {
			return fmt.Sprintf("elements not in %s: %s", want, listOf(elements(strays)))
		}
		return fmt.Sprintf("%s is not one of %s", found, want)
	case rulespec.ReportExclusion:
		if hits := res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: "member_hit", Arity: 3}, Args: []ast.BaseTerm{ch, v, v}}); len(hits) > 0 {
			return fmt.Sprintf("forbidden elements present: %s", listOf(elements(hits)))
		}
		return fmt.Sprintf("%s is one of the forbidden values %s", found, want)
	case rulespec.ReportOrder:
		word, extreme := "greater", "elem_min"
		if t.Bound == rulespec.Upper {
			word, extreme = "less", "elem_max"
		}
		if typeWord(found) == "array" {
			if has("non_number_elem", ast.String(p.Claim)) {
				return fmt.Sprintf("%s needs every element to be a number; found %s", p.Rule, found)
			}
			ext := res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: extreme, Arity: 3}, Args: []ast.BaseTerm{ast.String(p.Claim), v, v}})
			if len(ext) == 1 {
				return fmt.Sprintf("element %s is not %s than %s", strArg(ext[0], 1), word, want)
			}
		}
		if typeWord(found) != "number" {
			return fmt.Sprintf("%s needs a number or an array of numbers, found %s", p.Rule, found)
		}
		return fmt.Sprintf("%s is not %s than %s", strings.TrimPrefix(found, "number "), word, want)
	case rulespec.ReportLength:
		switch typeWord(found) {
		case "string", "array", "mapping":
			n := int64(0)
			if ls := res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: "claim_length", Arity: 2}, Args: []ast.BaseTerm{ast.String(p.Claim), v}}); len(ls) == 1 {
				n, _ = intArg(ls[0], 1)
			}
			if t.Bound == rulespec.Lower {
				return fmt.Sprintf("length %d is less than %s (%s)", n, want, found)
			}
			return fmt.Sprintf("length %d is more than %s (%s)", n, want, found)
		}
		return fmt.Sprintf("%s measures strings, arrays and mappings, found %s", p.Rule, found)
	case rulespec.ReportEvidence:
		return evidenceMessage(p, found, ch, res)
	case rulespec.ReportPattern:
		if typeWord(found) == "array" {
			if has("non_string_elem", ast.String(p.Claim)) {
				return fmt.Sprintf("matches needs every element to be a string; found %s", found)
			}
			misses := res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: "regex_miss", Arity: 2}, Args: []ast.BaseTerm{ch, v}})
			return fmt.Sprintf("elements not matching %s: %s", want, listOf(quoted(sortedStrings(misses, 1))))
		}
		if typeWord(found) != "string" {
			return fmt.Sprintf("matches needs a string or an array of strings, found %s", found)
		}
		return fmt.Sprintf("%s does not match %s", found, want)
	}
	return ""
}

func typeWord(desc string) string {
	if i := strings.IndexByte(desc, ' '); i > 0 {
		return desc[:i]
	}
	return desc
}

// listOf joins items, already rendered, keeping at most five.
func listOf(items []string) string {
	const max = 5
	out := make([]string, 0, max)
	for i, s := range items {
		if i == max {
			out = append(out, fmt.Sprintf("and %d more", len(items)-max))
			break
		}
		out = append(out, short(s))
	}
	return strings.Join(out, ", ")
}

// quoted renders strings as quoted strings.
func quoted(items []string) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// elements renders array elements from facts of the form p(Ch, Type, Key):
// a string quoted, any other element (a number, boolean or null) as its
// JSON text, so 9.3e+18 is not shown as the string "9.3e+18". The order
// is by key, then by rendering, so it is deterministic.
func elements(facts []ast.Atom) []string {
	type elem struct{ key, text string }
	es := make([]elem, 0, len(facts))
	for _, f := range facts {
		key := strArg(f, 2)
		text := key
		if strArg(f, 1) == "/string" {
			text = fmt.Sprintf("%q", key)
		}
		es = append(es, elem{key, text})
	}
	sort.Slice(es, func(i, j int) bool {
		if es[i].key != es[j].key {
			return es[i].key < es[j].key
		}
		return es[i].text < es[j].text
	})
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.text
	}
	return out
}

// evidenceMessage explains a failed file_exists or no_file_exists from the
// citations the program found missing, present or invalid.
func evidenceMessage(p rulespec.Predicate, found string, ch ast.Constant, res *datalog.Result) string {
	v := ast.Variable{Symbol: "_"}
	query := func(pred string, args ...ast.BaseTerm) []ast.Atom {
		return res.Query(ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args})
	}
	w := typeWord(found)
	if (w != "string" && w != "array") || (w == "array" && len(query("non_string_elem", ast.String(p.Claim))) > 0) {
		return fmt.Sprintf("%s needs a path string or an array of path strings, found %s", p.Rule, found)
	}
	// A negative evidence rule (no_file_exists) fails on the files that
	// exist; a positive one on those that do not.
	t, _ := p.Rule.Type()
	negative := t.Negative
	why := func(ref string) string {
		r := ast.String(ref)
		if inv := query("ref_invalid", r, v); len(inv) == 1 {
			return strArg(inv[0], 1)
		}
		// For absence the lines cited do not matter: the file is there.
		if negative && len(query("ref_exists", r, v)) == 1 {
			return "exists"
		}
		rng := query("ref_range", r, v, v)
		if len(rng) == 1 {
			first, _ := intArg(rng[0], 1)
			last, _ := intArg(rng[0], 2)
			if ls := query("ref_lines", r, v); len(ls) == 1 {
				n, _ := intArg(ls[0], 1)
				return fmt.Sprintf("the file has %s, so lines %d-%d are not all in it", output.Count(int(n), "line"), first, last)
			}
			if len(query("ref_exists", r, v)) == 1 {
				return "not a regular file, so it has no lines"
			}
		}
		if len(query("ref_exists", r, v)) == 1 {
			return "exists"
		}
		return "does not exist under the repository root"
	}
	var refs []string
	var head string
	if !negative {
		head = "cited paths not found"
		refs = sortedStrings(query("not_found", ch, v), 1)
	} else {
		head = "cited paths that exist or cannot be checked"
		refs = append(sortedStrings(query("found_ref", ch, v), 1), sortedStrings(query("invalid_ref", ch, v), 1)...)
		sort.Strings(refs)
	}
	const max = 5
	parts := make([]string, 0, max+1)
	for i, r := range refs {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(refs)-max))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", short(fmt.Sprintf("%q", r)), why(r)))
	}
	return head + ": " + strings.Join(parts, "; ")
}
