// Package compile turns a rulespec and an envelope's facts into one Mangle
// datalog program: fixed clauses that define what each of the fourteen rule
// types means, plus extensional facts describing the predicates to check and
// the values the claims' selectors found.
//
// Go only prepares facts here: it selects values, spells them canonically,
// ranks numbers and runs regular expressions (Mangle has none). Whether a
// predicate passes, fails or is skipped is decided by the datalog clauses.
package compile

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/google/mangle/ast"
	"github.com/google/mangle/parse"
	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/evidence"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/selectors"
)

//go:generate go run github.com/vouch-dev/vouch/internal/dlgen -pkg compile -func semantics -o semantics_gen.go semantics.dl

//go:embed semantics.dl
var semantics string

// Semantics returns the fixed clauses shared by every compiled program, as
// written into every .dl file.
func Semantics() string { return semantics }

// SemanticsUnit returns Semantics() as parse.Unit reads it. It is built by
// generated code, without running the parser; each call returns a fresh
// value.
func SemanticsUnit() parse.SourceUnit { return semanticsUnit() }

// SemanticsAnalysis returns Semantics() analysed and stratified, ready for
// datalog.EvalAnalysis, built by generated code without parsing or
// analysing, once per process: every call returns the same value, which
// callers must not modify (evaluation does not).
func SemanticsAnalysis() *datalog.Analysis { return sharedAnalysis() }

// sharedAnalysis builds the analysis on first use; evaluations share it and
// the plans its Planner keeps.
var sharedAnalysis = sync.OnceValue(semanticsAnalysis)

// Options change how a program is compiled.
type Options struct {
	// Strict turns vacuous passes into failures.
	Strict bool
	// Observe reports every failure without failing the run (the gate's
	// --observe), whatever the rulespec's modes say.
	Observe bool
	// Root is the repository root that file_exists and no_file_exists
	// citations are resolved under. Empty makes every citation invalid, so
	// evidence rules fail closed rather than look in an arbitrary place.
	Root string
	// OutDir is vouch's output directory, relative to Root unless
	// absolute; nothing in it is evidence. evidence.DefaultOutDir (.vouch)
	// is never evidence either way.
	OutDir string
	// OwnFiles are vouch's own input files besides the rulespec (which is
	// always included, from its File), such as the envelope, relative to
	// the working directory unless absolute; they are never evidence.
	OwnFiles []string
	// Repo is the repository document (package repofacts) that claims
	// with `from: repo` select from, as JSON. When it is nil such claims
	// are absent; callers derive it whenever Rulespec.UsesFrom(FromRepo).
	Repo []byte
	// Audit is the guard audit document (guard.AuditDocument) that claims
	// with `from: audit` select from, as JSON; nil makes them absent.
	Audit []byte
	// RepoBase and RepoCommit describe the base the document compares
	// with; they are written into the program as a fact.
	RepoBase, RepoCommit string
	// HashEvidence records the sha256 of every cited regular file, read
	// while it is checked (for the gate's receipt).
	HashEvidence bool
	// EvidenceLimits bound the citations' cost; zero fields mean
	// evidence's defaults.
	EvidenceLimits evidence.Limits
	// MaxElements refuses a claim that selects more array elements
	// (ElementsErr); zero means no limit.
	MaxElements int
}

// ElementsError is a claim that selects more array elements than
// Options.MaxElements allows.
type ElementsError struct {
	Claim rulespec.Claim
	Max   int
}

func (e *ElementsError) Error() string {
	return fmt.Sprintf("claim %q (selector %s) selects more than %d array elements; vouch refuses it rather than exhaust memory; raise the limit with --max-elements if the envelope is meant to be this large",
		e.Claim.Name, e.Claim.Selector, e.Max)
}

// ClaimValue is what a claim's selector found in the facts.
type ClaimValue struct {
	Claim rulespec.Claim
	selectors.Result
}

// Section is a commented group of facts in the written program.
type Section struct {
	Comment string
	Facts   []ast.Atom
}

// Program is a compiled rulespec and envelope.
type Program struct {
	// Claims holds each claim's selection, in rulespec order.
	Claims []ClaimValue
	// Sections are the extensional facts, grouped as they are written.
	Sections []Section
	// Warnings are notes for the rule author, sorted.
	Warnings []string
	// Evidence is what the working tree held for each cited path, as the
	// evidence facts state it.
	Evidence map[string]evidence.Info
	// EvidenceErr is set when the citations exceed the evidence limits
	// (an *evidence.LimitError): the program then lacks its evidence
	// facts and must not be evaluated.
	EvidenceErr error
	// ElementsErr is set (an *ElementsError) when a claim selects more
	// elements than Options.MaxElements: compiling stops at that claim,
	// before building anything per element, and the program must not be
	// evaluated.
	ElementsErr error
}

// PredicateCheck is the check id of predicate i's body.
func PredicateCheck(i int) string { return fmt.Sprintf("p%d", i) }

// ConditionCheck is the check id of predicate i's when condition.
func ConditionCheck(i int) string { return fmt.Sprintf("w%d", i) }

// Compile selects every claim from facts and builds the program.
func Compile(rs *rulespec.Rulespec, facts gjson.Result, opts Options) *Program {
	// Sized once: on large rulespecs, growing these slices of large
	// structs was most of compiling's time.
	prog := &Program{
		Claims:   make([]ClaimValue, 0, len(rs.Claims)),
		Sections: make([]Section, 0, len(rs.Predicates)+len(rs.Claims)+3),
	}
	c := &compiler{prog: prog, claims: make(map[string]*claimInfo, len(rs.Claims)), ranks: make(map[string]int64), cited: make(map[string]bool)}
	var warnings []string
	uses := usesOf(rs)
	docs := map[rulespec.From]*selectors.Doc{rulespec.FromEnvelope: selectors.NewDoc(facts)}
	if opts.Repo != nil {
		docs[rulespec.FromRepo] = selectors.NewDoc(gjson.ParseBytes(opts.Repo))
	}
	if opts.Audit != nil {
		docs[rulespec.FromAudit] = selectors.NewDoc(gjson.ParseBytes(opts.Audit))
	}
	for _, cl := range rs.Claims {
		from := cl.From
		if from == "" {
			from = rulespec.FromEnvelope
		}
		var res selectors.Result
		if doc := docs[from]; doc != nil {
			res = cl.Selector.SelectDoc(doc)
		}
		if res.Warning != "" {
			warnings = append(warnings, fmt.Sprintf("claim %q: %s", cl.Name, res.Warning))
		}
		c.prog.Claims = append(c.prog.Claims, ClaimValue{Claim: cl, Result: res})
		if opts.MaxElements > 0 && res.Present && res.Value.IsArray() && tooMany(res.Value, opts.MaxElements) {
			c.prog.ElementsErr = &ElementsError{Claim: cl, Max: opts.MaxElements}
			return c.prog
		}
		u, read := uses[cl.Name]
		ci := newClaimInfo(res, u)
		ci.read = read
		c.claims[cl.Name] = ci
	}
	c.rankNumbers(rs)

	var options []ast.Atom
	if opts.Strict {
		options = append(options, atom("option", name("/strict")))
	}
	if opts.Observe {
		options = append(options, atom("option", name("/observe")))
	}
	if len(options) > 0 {
		c.prog.Sections = append(c.prog.Sections, Section{Comment: "Options", Facts: options})
	}
	if opts.Repo != nil {
		c.prog.Sections = append(c.prog.Sections, Section{
			Comment: "repository: claims with from: repo select from what changed between this base and the working tree",
			Facts:   []ast.Atom{atom("repo_base", str(opts.RepoBase), str(opts.RepoCommit))},
		})
	}
	for _, p := range rs.Predicates {
		sec := Section{Comment: describePredicate(p), Facts: make([]ast.Atom, 0, 6)}
		ch := PredicateCheck(p.Index)
		sec.Facts = append(sec.Facts, atom("predicate", num(int64(p.Index)), str(ch)))
		if rs.Observed(p) {
			sec.Facts = append(sec.Facts, atom("observe_mode", num(int64(p.Index))))
		}
		sec.Facts = append(sec.Facts, c.checkFacts(ch, p.Check)...)
		if p.When != nil {
			w := ConditionCheck(p.Index)
			sec.Facts = append(sec.Facts, atom("condition", num(int64(p.Index)), str(w)))
			sec.Facts = append(sec.Facts, c.checkFacts(w, *p.When)...)
		}
		c.prog.Sections = append(c.prog.Sections, sec)
	}
	if len(c.cited) > 0 {
		c.prog.Sections = append(c.prog.Sections, c.evidenceSection(opts.Root, evidence.Options{OutDir: opts.OutDir, Files: append([]string{rs.File}, opts.OwnFiles...),
			Hash: opts.HashEvidence, Limits: opts.EvidenceLimits}))
	}
	for _, cv := range c.prog.Claims {
		c.prog.Sections = append(c.prog.Sections, c.claimSection(cv))
	}
	sort.Strings(warnings)
	c.prog.Warnings = warnings
	return c.prog
}

// Facts returns every extensional fact in written order.
func (p *Program) Facts() []ast.Atom {
	n := 0
	for _, s := range p.Sections {
		n += len(s.Facts)
	}
	out := make([]ast.Atom, 0, n)
	for _, s := range p.Sections {
		out = append(out, s.Facts...)
	}
	return out
}

// WriteDL writes the whole program as self-contained Mangle source: header
// comments, the fixed semantics, then every fact with comments tying it to
// its predicate or claim.
func (p *Program) WriteDL(w io.Writer, header []string) error {
	// Programs over large arrays run to many megabytes: stream them
	// rather than build one string.
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, h := range header {
		bw.WriteString("# " + strings.ReplaceAll(h, "\n", " ") + "\n")
	}
	bw.WriteString("\n")
	bw.WriteString(semantics)
	var line []byte
	for _, s := range p.Sections {
		bw.WriteString("\n# " + strings.ReplaceAll(s.Comment, "\n", " ") + "\n")
		for _, f := range s.Facts {
			line = append(datalog.AppendFact(line[:0], f), '\n')
			bw.Write(line)
		}
	}
	return bw.Flush()
}

// claimInfo is a claim's selected value, broken down the way the facts
// need it, in one pass over an array's elements.
type claimInfo struct {
	present bool
	// read: some check reads the claim, as its claim or its value_from.
	// Every rule joins a claim's facts with a check on it, so the facts
	// of a claim no check reads can never be used, and are not emitted
	// (its numbers are still ranked, so other claims' ranks stay the
	// same).
	read bool
	use  use
	// count is the number of elements, duplicates included.
	count int
	types []Type   // element types, first occurrence order
	strs  []string // distinct string elements, when a matches check reads them
	typ   Type
	key   string
	value gjson.Result
	// elems lists distinct elements in first occurrence order: all of
	// them when an any_of reads them, else only those equal to a value
	// some check compares them with.
	elems []elemInfo
	// lo and hi are the smallest and largest numeric element (or the
	// scalar number) when hasNum.
	hasNum bool
	lo, hi number
}

type elemInfo struct {
	typ Type
	key string
}

func newClaimInfo(res selectors.Result, u use) *claimInfo {
	ci := &claimInfo{present: res.Present, use: u}
	if !res.Present {
		return ci
	}
	ci.value = res.Value
	ci.typ = typeOf(res.Value)
	switch ci.typ {
	case TArray, TObject:
		if u.key {
			ci.key = canonicalKey(res.Value)
		}
	default:
		ci.key = canonicalKey(res.Value)
	}
	switch ci.typ {
	case TNumber:
		ci.addNumber(parseNumber(res.Value.Raw))
	case TArray:
		var seenType [numTypes]bool
		seen := make(map[elemInfo]bool)
		var seenStr map[string]bool
		if u.strs {
			seenStr = make(map[string]bool)
		}
		res.Value.ForEach(func(_, e gjson.Result) bool {
			t := typeOf(e)
			if !seenType[t.index()] {
				seenType[t.index()] = true
				ci.types = append(ci.types, t)
			}
			if t == TNumber {
				ci.addNumber(parseNumber(e.Raw))
			}
			if u.strs && t == TString && !seenStr[e.Str] {
				seenStr[e.Str] = true
				ci.strs = append(ci.strs, e.Str)
			}
			if u.allElems || len(u.wanted) > 0 && u.wantedTypes[t.index()] {
				ei := elemInfo{typ: t, key: canonicalKey(e)}
				if (u.allElems || u.wanted[ei]) && !seen[ei] {
					seen[ei] = true
					ci.elems = append(ci.elems, ei)
				}
			}
			ci.count++
			return true
		})
	}
	return ci
}

// addNumber folds n into the running minimum and maximum.
func (ci *claimInfo) addNumber(n number) {
	if !ci.hasNum {
		ci.hasNum, ci.lo, ci.hi = true, n, n
		return
	}
	if cmpNumbers(n, ci.lo) < 0 {
		ci.lo = n
	}
	if cmpNumbers(n, ci.hi) > 0 {
		ci.hi = n
	}
}

type compiler struct {
	prog   *Program
	claims map[string]*claimInfo
	// ranks maps a number's canonical key to its position in the sorted
	// list of every number that a comparison can meet. Mangle compares only
	// int64 values, so comparing ranks is how floats compare exactly.
	ranks map[string]int64
	// cited collects every citation an evidence check reads, to resolve
	// them all under the root in one pass.
	cited map[string]bool
}

// use records which facts a claim's checks read.
type use struct {
	// allElems: an any_of check reads every distinct element. wanted: the elements contains, not_contains and none_of
	// look up, by the values they compare with; no rule reads any other
	// elem fact, so no other is emitted. key: a check compares a
	// composite value whole (equals, any_of, none_of). A 100,000-element
	// array read only by greater_than needs none of these, and building
	// and loading facts nobody reads is most of the cost of evaluating
	// large arrays.
	allElems, key bool
	wanted        map[elemInfo]bool
	// wantedTypes marks the types in wanted, so elements of other types
	// are skipped without computing their keys.
	wantedTypes [numTypes]bool
	// strs: a matches check runs its pattern on each distinct string
	// element.
	strs bool
}

func (u *use) want(v gjson.Result) {
	if u.wanted == nil {
		u.wanted = make(map[elemInfo]bool)
	}
	ei := elemInfo{typeOf(v), canonicalKey(v)}
	u.wanted[ei] = true
	u.wantedTypes[ei.typ.index()] = true
}

// add marks what a rule reads of a claim, per its descriptor; ch holds
// the value a ReadsValue or ReadsMembers rule wants.
func (u use) add(r rulespec.Reads, ch *rulespec.Check) use {
	if r&rulespec.ReadsKey != 0 {
		u.key = true
	}
	if r&rulespec.ReadsElems != 0 {
		u.allElems = true
	}
	if r&rulespec.ReadsStrings != 0 {
		u.strs = true
	}
	if r&rulespec.ReadsValue != 0 && ch.Value != nil {
		u.want(*ch.Value)
	}
	if r&rulespec.ReadsMembers != 0 && ch.Value != nil {
		ch.Value.ForEach(func(_, m gjson.Result) bool {
			u.want(m)
			return true
		})
	}
	return u
}

func usesOf(rs *rulespec.Rulespec) map[string]use {
	uses := make(map[string]use)
	mark := func(ch *rulespec.Check) {
		if ch == nil {
			return
		}
		t, _ := ch.Rule.Type()
		reads := t.Reads
		if ch.ValueFrom != "" {
			reads = t.ReadsFrom
		}
		uses[ch.Claim] = uses[ch.Claim].add(reads, ch)
		if ch.ValueFrom == "" {
			return
		}
		// The value claim is read the way a literal value would be: whole
		// (equals, contains) or element by element (lists and sets).
		uses[ch.ValueFrom] = uses[ch.ValueFrom].add(t.ValueClaimReads, ch)
	}
	for i := range rs.Predicates {
		mark(&rs.Predicates[i].Check)
		mark(rs.Predicates[i].When)
	}
	return uses
}

// rankNumbers ranks the numbers comparisons can see: scalar numeric claims,
// the smallest and largest number of each array claim, and the bounds of
// greater_than / less_than checks.
func (c *compiler) rankNumbers(rs *rulespec.Rulespec) {
	var all []number
	for _, ci := range c.claims {
		if ci.hasNum {
			all = append(all, ci.lo, ci.hi)
		}
	}
	add := func(ch *rulespec.Check) {
		if ch != nil && ch.Value != nil && ch.Rule.Value() == rulespec.NumberValue {
			all = append(all, parseNumber(ch.Value.Raw))
		}
	}
	for i := range rs.Predicates {
		add(&rs.Predicates[i].Check)
		add(rs.Predicates[i].When)
	}
	sort.Slice(all, func(i, j int) bool { return cmpNumbers(all[i], all[j]) < 0 })
	var rank int64 = -1
	for i, n := range all {
		if i == 0 || cmpNumbers(all[i-1], n) != 0 {
			rank++
		}
		c.ranks[n.key()] = rank
	}
}

// checkFacts describes one check: which rule on which claim, with what
// value, plus the regular-expression results a matches check needs.
func (c *compiler) checkFacts(ch string, chk rulespec.Check) []ast.Atom {
	id := str(ch)
	out := []ast.Atom{atom("check", id, str(chk.Claim), name("/"+string(chk.Rule)))}
	if chk.ValueFrom != "" {
		// The semantics derive the value facts from the claim's.
		return append(out, atom("check_value_from", id, str(chk.ValueFrom)))
	}
	switch chk.Rule.Value() {
	case rulespec.AnyValue:
		out = append(out, atom("check_value", id, name(string(typeOf(*chk.Value))), str(canonicalKey(*chk.Value))))
	case rulespec.ListValue:
		seen := make(map[elemInfo]bool)
		chk.Value.ForEach(func(_, m gjson.Result) bool {
			ei := elemInfo{typeOf(m), canonicalKey(m)}
			if !seen[ei] {
				seen[ei] = true
				out = append(out, atom("check_member", id, name(string(ei.typ)), str(ei.key)))
			}
			return true
		})
	case rulespec.NumberValue:
		k := parseNumber(chk.Value.Raw).key()
		out = append(out, atom("check_value", id, name(string(TNumber)), str(k)), atom("check_rank", id, num(c.ranks[k])))
	case rulespec.LengthValue:
		out = append(out, atom("check_length", id, num(chk.Value.Int())))
	case rulespec.RegexValue:
		out = append(out, atom("check_value", id, name(string(TString)), str(chk.Value.Str)))
		out = append(out, c.regexFacts(id, chk)...)
	}
	if chk.Rule.Evidence() {
		out = append(out, c.citeFacts(id, chk)...)
	}
	return out
}

// citeFacts records which citations an evidence check reads: the claim's
// string, or each distinct string element of an array.
func (c *compiler) citeFacts(id ast.Constant, chk rulespec.Check) []ast.Atom {
	ci := c.claims[chk.Claim]
	if ci == nil || !ci.present {
		return nil
	}
	var refs []string
	switch ci.typ {
	case TString:
		refs = []string{ci.key}
	case TArray:
		refs = ci.strs
	}
	out := make([]ast.Atom, 0, len(refs))
	for _, r := range refs {
		c.cited[r] = true
		out = append(out, atom("cites", id, str(r)))
	}
	return out
}

// evidenceSection resolves every citation under root and states what the
// working tree holds, as facts, so the written program replays without the
// tree.
func (c *compiler) evidenceSection(root string, own evidence.Options) Section {
	refs := make([]string, 0, len(c.cited))
	for r := range c.cited {
		refs = append(refs, r)
	}
	sort.Strings(refs)
	sec := Section{Comment: "evidence: the cited paths, checked under the repository root"}
	infos, err := evidence.Resolve(root, refs, own)
	if err != nil {
		c.prog.EvidenceErr = err
		return sec
	}
	c.prog.Evidence = infos
	for _, r := range refs {
		info := infos[r]
		id := str(r)
		if info.Ref.Ranged() {
			sec.Facts = append(sec.Facts, atom("ref_range", id, num(info.Ref.First), num(info.Ref.Last)))
		}
		if info.Invalid != "" {
			sec.Facts = append(sec.Facts, atom("ref_invalid", id, str(info.Invalid)))
			continue
		}
		if info.IsRoot {
			sec.Facts = append(sec.Facts, atom("ref_root", id))
		}
		if info.InGit {
			sec.Facts = append(sec.Facts, atom("ref_git", id))
		}
		if info.Own {
			sec.Facts = append(sec.Facts, atom("ref_vouch", id))
		}
		if info.DirSyntax {
			sec.Facts = append(sec.Facts, atom("ref_dir_syntax", id))
		}
		if info.Literal {
			sec.Facts = append(sec.Facts, atom("ref_literal", id))
		}
		if info.Exists {
			sec.Facts = append(sec.Facts, atom("ref_exists", id, name("/"+string(info.Kind))))
		}
		if info.LinesKnown {
			sec.Facts = append(sec.Facts, atom("ref_lines", id, num(info.Lines)))
		}
	}
	return sec
}

func (c *compiler) regexFacts(id ast.Constant, chk rulespec.Check) []ast.Atom {
	ci := c.claims[chk.Claim]
	if ci == nil || !ci.present {
		return nil
	}
	var out []ast.Atom
	switch ci.typ {
	case TString:
		if chk.Regexp.MatchString(ci.key) {
			out = append(out, atom("regex_match", id, str(ci.key)))
		} else {
			out = append(out, atom("regex_miss", id, str(ci.key)))
		}
	case TArray:
		// An array passes when no element misses: no rule reads
		// regex_match for arrays, so only the misses are facts.
		for _, e := range ci.strs {
			if !chk.Regexp.MatchString(e) {
				out = append(out, atom("regex_miss", id, str(e)))
			}
		}
	}
	return out
}

func (c *compiler) claimSection(cv ClaimValue) Section {
	name0 := cv.Claim.Name
	ci := c.claims[name0]
	sec := Section{Comment: fmt.Sprintf("claim %q, selector %s", name0, cv.Claim.Selector.String())}
	if cv.Claim.From != "" && cv.Claim.From != rulespec.FromEnvelope {
		sec.Comment = fmt.Sprintf("claim %q, from %s, selector %s", name0, cv.Claim.From, cv.Claim.Selector.String())
	}
	if !ci.present {
		sec.Comment += ": absent (no facts)"
		return sec
	}
	if !ci.read {
		return sec
	}
	cn := str(name0)
	sec.Facts = append(sec.Facts, atom("claim", cn, name(string(ci.typ))))
	if cv.Claim.From != "" && cv.Claim.From != rulespec.FromEnvelope {
		sec.Facts = append(sec.Facts, atom("claim_from", cn, name("/"+string(cv.Claim.From))))
	}
	if (ci.typ != TArray && ci.typ != TObject) || ci.use.key {
		sec.Facts = append(sec.Facts, atom("claim_key", cn, str(ci.key)))
	}
	if ci.typ == TArray {
		sec.Facts = append(sec.Facts, atom("claim_length", cn, num(int64(ci.count))))
	} else if n, ok := length(ci.value); ok {
		sec.Facts = append(sec.Facts, atom("claim_length", cn, num(n)))
	}
	switch ci.typ {
	case TNumber:
		sec.Facts = append(sec.Facts, atom("claim_rank", cn, num(c.ranks[ci.key])))
	case TArray:
		for _, t := range ci.types {
			sec.Facts = append(sec.Facts, atom("elem_type", cn, name(string(t))))
		}
		if ci.hasNum {
			lo, hi := ci.lo, ci.hi
			sec.Facts = append(sec.Facts,
				atom("elem_min", cn, str(lo.key()), num(c.ranks[lo.key()])),
				atom("elem_max", cn, str(hi.key()), num(c.ranks[hi.key()])))
		}
		for _, e := range ci.elems {
			sec.Facts = append(sec.Facts, atom("elem", cn, name(string(e.typ)), str(e.key)))
		}
	}
	return sec
}

// describePredicate is the comment above a predicate's facts.
func describePredicate(p rulespec.Predicate) string {
	var b strings.Builder
	fmt.Fprintf(&b, "predicate %d", p.Index)
	if p.ID != "" {
		fmt.Fprintf(&b, " (id %s)", p.ID)
	}
	fmt.Fprintf(&b, ": %s", DescribeCheck(p.Check))
	if p.When != nil {
		fmt.Fprintf(&b, ", when %s", DescribeCheck(*p.When))
	}
	if p.Source != "" {
		fmt.Fprintf(&b, " [source: %s]", p.Source)
	}
	return b.String()
}

// DescribeCheck spells a check compactly: `caps contains "handle_csv"`.
func DescribeCheck(c rulespec.Check) string {
	s := c.Claim + " " + string(c.Rule)
	if c.Value != nil {
		s += " " + c.Value.Raw
	}
	if c.ValueFrom != "" {
		s += " value_from " + c.ValueFrom
	}
	return s
}

// tooMany reports whether arr has more than max elements, counting no
// further than max+1.
func tooMany(arr gjson.Result, max int) bool {
	n := 0
	arr.ForEach(func(_, _ gjson.Result) bool {
		n++
		return n <= max
	})
	return n > max
}
