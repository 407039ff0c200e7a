// Package rulecheck analyses a loaded rulespec without an envelope and warns
// about rules that cannot mean what their author intended: claims nothing
// reads, duplicates, contradictions, predicates that can never fail or
// never pass, and selectors or patterns written in a misleading way.
//
// Every warning is advice: the rulespec is valid (rulespec.Load rejects
// invalid ones), and verify would run it as written.
package rulecheck

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/rulespec"
)

// The warning codes, stable so tools and tests can match them.
const (
	UnusedClaim   = "unused-claim"
	Duplicate     = "duplicate"
	Contradiction = "contradiction"
	NeverFails    = "never-fails"
	NeverPasses   = "never-passes"
	AlwaysSkipped = "always-skipped"
	VacuousAbsent = "vacuous-when-absent"
	FactsPrefix   = "facts-prefix"
	Unanchored    = "unanchored-pattern"
	// EvidenceConflict is file_exists and no_file_exists on one claim.
	EvidenceConflict = "evidence-conflict"
	// DisjointAnyOf is two any_of lists on one claim with no common member.
	DisjointAnyOf = "disjoint-any-of"
	// UncheckedCondition is a when over a claim that no unconditional
	// predicate requires to exist: an envelope that leaves the claim out
	// skips the predicate (and --strict fails it as undecided).
	UncheckedCondition = "unchecked-condition"
)

// Warning is one finding, positioned in the rulespec file.
type Warning struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Code string `json:"code"`
	// Predicate is the index of the predicate the warning is about, or -1
	// for a claim.
	Predicate int `json:"predicate"`
	// ID is that predicate's id, if it has one.
	ID      string `json:"id,omitempty"`
	Message string `json:"message"`
}

// String formats the warning as file:line:col: warning: message [code].
func (w Warning) String() string {
	return fmt.Sprintf("%s:%d:%d: warning: %s [%s]", w.File, w.Line, w.Col, w.Message, w.Code)
}

// Check analyses rs and returns its warnings sorted by position, then code.
func Check(rs *rulespec.Rulespec) []Warning {
	c := &checker{rs: rs}
	c.unusedClaims()
	c.factsPrefix()
	c.unknownRepoFields()
	c.perPredicate()
	c.pairs()
	sort.SliceStable(c.out, func(i, j int) bool {
		a, b := c.out[i], c.out[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
	return c.out
}

type checker struct {
	rs  *rulespec.Rulespec
	out []Warning
}

func (c *checker) claimWarn(cl rulespec.Claim, code, format string, args ...any) {
	c.out = append(c.out, Warning{File: c.rs.File, Line: cl.Pos.Line, Col: cl.Pos.Col, Code: code, Predicate: -1, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) predWarn(p rulespec.Predicate, at rulespec.Pos, code, format string, args ...any) {
	c.out = append(c.out, Warning{File: c.rs.File, Line: at.Line, Col: at.Col, Code: code, Predicate: p.Index, ID: p.ID, Message: name(p) + ": " + fmt.Sprintf(format, args...)})
}

// name is how warnings refer to a predicate: "predicate 3 (id x)".
func name(p rulespec.Predicate) string {
	if p.ID != "" {
		return fmt.Sprintf("predicate %d (id %s)", p.Index, p.ID)
	}
	return fmt.Sprintf("predicate %d", p.Index)
}

func (c *checker) unusedClaims() {
	used := make(map[string]bool)
	for _, p := range c.rs.Predicates {
		used[p.Claim] = true
		used[p.ValueFrom] = true
		if p.When != nil {
			used[p.When.Claim] = true
			used[p.When.ValueFrom] = true
		}
	}
	for _, cl := range c.rs.Claims {
		if !used[cl.Name] {
			c.claimWarn(cl, UnusedClaim, "claim %q is not used by any predicate or when; remove it or add a predicate", cl.Name)
		}
	}
}

func (c *checker) factsPrefix() {
	for _, cl := range c.rs.Claims {
		switch {
		case cl.Selector.FactsPrefix():
			c.claimWarn(cl, FactsPrefix, "claim %q: selector %q starts with \"facts\"; selectors are relative to the facts mapping, so it is read as %q; drop the prefix", cl.Name, cl.Selector.String(), cl.Selector.Canonical())
		case cl.Selector.LoneFacts():
			c.claimWarn(cl, FactsPrefix, "claim %q: selector \"facts\" reads a key named facts inside the facts mapping, not the mapping itself; name a key inside it, or write [\"facts\"] if you mean that key", cl.Name)
		}
	}
}

// absence is what an absent claim does to r, from the rule type table: a
// predicate whose rule fails on absence, applying whenever another does,
// guarantees the claim is present on any passing run; one that is
// vacuous on absence passes there checking nothing.
// Evidence rules count as neither: their outcome on an absent claim is
// decided with the citation facts, and check has never reasoned about it.
func absence(r rulespec.Rule) rulespec.Absence {
	t, _ := r.Type()
	if t.Evidence {
		return 0
	}
	return t.Absent
}

func (c *checker) perPredicate() {
	for _, p := range c.rs.Predicates {
		c.single(p, p.Check, p.Pos, "")
		if p.When != nil {
			w := *p.When
			c.single(p, w, w.Pos, "its when condition ")
			if w.Claim == p.Claim {
				c.ownClaimCondition(p)
			}
			if c.undecidedWhenAbsent(w) {
				c.predWarn(p, w.Pos, UncheckedCondition, "its when condition reads %s, which no predicate requires to exist, so an envelope that leaves %s out skips the predicate and checks nothing (--strict fails it); add a predicate {claim: %s, rule: exists}", w.Claim, w.Claim, w.Claim)
			}
		}
		if p.Rule == rulespec.MaxLength && !c.guaranteedPresent(p) && !c.alwaysPresent(p.Claim) {
			c.predWarn(p, p.Pos, VacuousAbsent, "max_length passes without checking anything when %s is absent, and no predicate requires %s to be present; add min_length or exists on it", p.Claim, p.Claim)
		}
	}
}

// single warns about one check on its own.
func (c *checker) single(p rulespec.Predicate, ch rulespec.Check, at rulespec.Pos, what string) {
	if ch.ValueFrom != "" {
		c.valueFrom(p, ch, at, what)
		return
	}
	c.repoTypes(p, ch, at, what)
	t, _ := ch.Rule.Type()
	empty := ch.Value != nil && ch.Value.IsArray() && len(ch.Value.Array()) == 0
	switch {
	case t.Warn == rulespec.WarnEmptyNeverFails && empty:
		code, msg := NeverFails, fmt.Sprintf("%s [] forbids nothing, so it can never fail", ch.Rule)
		if what != "" {
			msg = fmt.Sprintf("its when condition is %s [], which always holds; remove the condition", ch.Rule)
		}
		c.predWarn(p, at, code, "%s", msg)
	case t.Warn == rulespec.WarnEmptyNeverPasses && empty && what == "":
		c.predWarn(p, at, NeverPasses, "%s [] allows nothing, so it can never pass (except, vacuously, on an empty array)", ch.Rule)
	case t.Warn == rulespec.WarnEmptyNeverPasses && empty:
		c.predWarn(p, at, AlwaysSkipped, "its when condition is %s [], which holds only for an empty array, so the predicate is almost always skipped", ch.Rule)
	case t.Warn == rulespec.WarnUnanchored:
		pat := ch.Value.Str
		if !strings.HasPrefix(pat, "^") && !strings.HasPrefix(pat, `\A`) && !strings.HasSuffix(pat, "$") && !strings.HasSuffix(pat, `\z`) {
			c.predWarn(p, at, Unanchored, "%spattern %s is unanchored, so it matches anywhere in the string; if the whole value must match, anchor it as in %q", what, ch.Value.Raw, "^"+pat+"$")
		}
	}
}

// ownClaimCondition warns about a when on the predicate's own claim that
// decides the outcome by itself.
func (c *checker) ownClaimCondition(p rulespec.Predicate) {
	w := *p.When
	switch {
	case checkKey(w) == checkKey(p.Check):
		c.predWarn(p, w.Pos, NeverFails, "its when condition is the rule itself, so it is skipped whenever it would fail; remove the condition")
	case w.Rule == rulespec.NotExists && absence(p.Rule) == rulespec.AbsentVacuous:
		c.predWarn(p, w.Pos, NeverFails, "its when condition requires %s to be absent, where %s passes without checking anything", p.Claim, p.Rule)
	case w.Rule == rulespec.NotExists && p.Rule == rulespec.NotExists:
		c.predWarn(p, w.Pos, NeverFails, "its when condition requires %s to be absent, which is the rule itself", p.Claim)
	default:
		if why := contradiction(w, p.Check); why != "" {
			c.predWarn(p, w.Pos, NeverPasses, "whenever its when condition holds the rule fails (%s), so it is skipped or fails and never passes", why)
		}
	}
}

// undecidedWhenAbsent reports whether condition w, which fails when its
// claim is absent, reads a claim that no unconditional predicate requires
// to be present. exists and not_exists are about presence itself, and a
// condition that passes on absence applies its predicate, so neither is
// left undecided.
func (c *checker) undecidedWhenAbsent(w rulespec.Check) bool {
	if w.Rule == rulespec.Exists || w.Rule == rulespec.NotExists {
		return false
	}
	if t, _ := w.Rule.Type(); t.Absent != rulespec.AbsentFails || c.alwaysPresent(w.Claim) {
		return false
	}
	for _, q := range c.rs.Predicates {
		if q.Claim == w.Claim && q.When == nil && absence(q.Rule) == rulespec.AbsentFails {
			return false
		}
	}
	return true
}

// guaranteedPresent reports whether another predicate that applies
// whenever p does fails on an absent claim.
func (c *checker) guaranteedPresent(p rulespec.Predicate) bool {
	for _, q := range c.rs.Predicates {
		if q.Index == p.Index || q.Claim != p.Claim || absence(q.Rule) != rulespec.AbsentFails {
			continue
		}
		if q.When == nil || (p.When != nil && checkKey(*q.When) == checkKey(*p.When)) {
			return true
		}
	}
	return false
}

// pairs compares predicates that apply under the same condition.
func (c *checker) pairs() {
	seen := make(map[string]rulespec.Predicate)
	groups := make(map[string][]rulespec.Predicate)
	var order []string
	for _, p := range c.rs.Predicates {
		k := checkKey(p.Check) + "|" + whenKey(p.When)
		if first, dup := seen[k]; dup {
			c.predWarn(p, p.Pos, Duplicate, "identical to %s (same claim, rule, value and condition); remove one", name(first))
			continue
		}
		seen[k] = p
		g := p.Claim + "|" + whenKey(p.When)
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], p)
	}
	for _, g := range order {
		ps := groups[g]
		for j := 1; j < len(ps); j++ {
			for i := 0; i < j; i++ {
				cond := "with no condition"
				if ps[j].When != nil {
					cond = "under the same condition"
				}
				if why := contradiction(ps[i].Check, ps[j].Check); why != "" {
					c.predWarn(ps[j], ps[j].Pos, Contradiction, "contradicts %s on claim %s %s: %s, so one of them always fails", name(ps[i]), ps[j].Claim, cond, why)
				}
				if code, why := onlyEmptyArray(ps[i].Check, ps[j].Check); code != "" {
					c.predWarn(ps[j], ps[j].Pos, code, "contradicts %s on claim %s %s: %s; only an empty array, which checks nothing, satisfies both, so on any other value one of them fails", name(ps[i]), ps[j].Claim, cond, why)
				}
			}
		}
	}
}

// contradiction says why no value satisfies both checks on one claim, or
// returns "".
func contradiction(a, b rulespec.Check) string {
	if a.ValueFrom != "" || b.ValueFrom != "" {
		return "" // the values are known only at run time
	}
	if a.Rule > b.Rule {
		a, b = b, a
	}
	switch {
	case a.Rule == rulespec.Equals && b.Rule == rulespec.Equals:
		if canon(*a.Value) != canon(*b.Value) {
			return fmt.Sprintf("it cannot equal both %s and %s", a.Value.Raw, b.Value.Raw)
		}
	case a.Rule == rulespec.Exists && b.Rule == rulespec.NotExists:
		return "it cannot both exist and not exist"
	case a.Rule == rulespec.AnyOf && b.Rule == rulespec.NoneOf:
		forbidden := make(map[string]bool)
		for _, m := range b.Value.Array() {
			forbidden[canon(m)] = true
		}
		for _, m := range a.Value.Array() {
			if !forbidden[canon(m)] {
				return ""
			}
		}
		if len(a.Value.Array()) > 0 {
			return fmt.Sprintf("none_of %s forbids every value any_of %s allows", b.Value.Raw, a.Value.Raw)
		}
	case a.Rule == rulespec.MaxLength && b.Rule == rulespec.MinLength:
		if b.Value.Int() > a.Value.Int() {
			return fmt.Sprintf("min_length %d is greater than max_length %d", b.Value.Int(), a.Value.Int())
		}
	case a.Rule == rulespec.GreaterThan && b.Rule == rulespec.LessThan:
		lo, ok1 := new(big.Rat).SetString(a.Value.Raw)
		hi, ok2 := new(big.Rat).SetString(b.Value.Raw)
		if ok1 && ok2 && lo.Cmp(hi) >= 0 {
			return fmt.Sprintf("no number is greater than %s and less than %s", a.Value.Raw, b.Value.Raw)
		}
	case a.Rule == rulespec.Equals && b.Rule == rulespec.NotExists, a.Rule == rulespec.NotExists && b.Rule == rulespec.Equals:
		return "it cannot equal a value and not exist"
	}
	return ""
}

// onlyEmptyArray says why no value but an empty array (on which both pass
// vacuously) satisfies both checks on one claim, with the warning code, or
// returns "", "".
func onlyEmptyArray(a, b rulespec.Check) (code, why string) {
	if a.ValueFrom != "" || b.ValueFrom != "" {
		return "", ""
	}
	if a.Rule > b.Rule {
		a, b = b, a
	}
	switch {
	case a.Rule == rulespec.FileExists && b.Rule == rulespec.NoFileExists:
		return EvidenceConflict, "file_exists requires every cited file to exist and no_file_exists requires none to"
	case a.Rule == rulespec.AnyOf && b.Rule == rulespec.AnyOf:
		as, bs := a.Value.Array(), b.Value.Array()
		if len(as) == 0 || len(bs) == 0 {
			return "", "" // any_of [] is already never-passes
		}
		allowed := make(map[string]bool, len(as))
		for _, m := range as {
			allowed[canon(m)] = true
		}
		for _, m := range bs {
			if allowed[canon(m)] {
				return "", ""
			}
		}
		return DisjointAnyOf, fmt.Sprintf("any_of %s and any_of %s share no member", a.Value.Raw, b.Value.Raw)
	}
	return "", ""
}

func checkKey(c rulespec.Check) string {
	k := c.Claim + "\x00" + string(c.Rule)
	if c.Value != nil {
		k += "\x00" + canon(*c.Value)
	}
	if c.ValueFrom != "" {
		k += "\x00from\x00" + c.ValueFrom
	}
	return k
}

func whenKey(w *rulespec.Check) string {
	if w == nil {
		return ""
	}
	return checkKey(*w)
}

// canon spells a value so that values verify treats as equal (numbers by
// value, mappings regardless of key order) share a spelling.
func canon(v gjson.Result) string {
	switch {
	case v.IsArray():
		parts := []string{}
		for _, e := range v.Array() {
			parts = append(parts, canon(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case v.IsObject():
		var parts []string
		v.ForEach(func(k, e gjson.Result) bool {
			parts = append(parts, strconv.Quote(k.Str)+":"+canon(e))
			return true
		})
		sort.Strings(parts)
		return "{" + strings.Join(parts, ",") + "}"
	}
	if v.Type == gjson.Number {
		if r, ok := new(big.Rat).SetString(v.Raw); ok {
			return "n" + r.RatString()
		}
	}
	if v.Type == gjson.String {
		return strconv.Quote(v.Str)
	}
	return v.Raw
}
