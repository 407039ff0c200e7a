package rulespec

import (
	"sort"
	"strings"
)

// Absence says what a rule type does with a claim whose selector found
// nothing (a missing key or null).
type Absence int

// What an absent claim does to a rule.
const (
	// AbsentFails: the rule needs a value, so absence fails it.
	AbsentFails Absence = iota + 1
	// AbsentPasses: absence is what the rule asks for (not_exists).
	AbsentPasses
	// AbsentVacuous: the rule passes without checking anything; --strict
	// fails it.
	AbsentVacuous
)

// RuleType describes one rule type: everything the packages that load,
// compile, explain, report and check predicates need to know about it
// beyond its clauses in compile/semantics.dl. Adding a rule type is an
// entry here, its clauses, its schema entry and its docs (docs/internals.md).
type RuleType struct {
	Name Rule
	// Value is what the rule expects in `value:`; it also says which
	// value facts compile emits (check_value, check_member, check_length).
	Value ValueKind
	// Absent is what an absent claim does to the rule.
	Absent Absence
	// Evidence rules check files in the working tree: their claim's
	// values are citations resolved under the repository root.
	Evidence bool
	// ValueFrom: the rule may compare with another claim's value
	// (value_from:) instead of a literal. The negative rules are left
	// out: an absent value claim would give them nothing to find, and
	// they would pass; every rule allowing it fails without a value.
	ValueFrom bool
	// Set: the rule compares the claim's elements as a set with the
	// value's members.
	Set bool
	// Reads is what the rule's clauses read of its claim, so that
	// compile emits only those facts; ReadsFrom replaces it when the
	// value comes from another claim, and ValueClaimReads is what they
	// read of that claim.
	Reads, ReadsFrom, ValueClaimReads Reads
	// Negative: the rule forbids what a positive rule requires
	// (not_contains of contains).
	Negative bool
	// Bound is which way a comparison or length rule bounds the claim.
	Bound Bound
	// Must is explain's sentence of the requirement, Cond its phrase when
	// the rule is a when condition: "{claim}" is the claim in backticks,
	// "{value}" the value as written.
	Must, Cond string
	// Hint is what explain suggests when the rule fails.
	Hint Hint
	// Warn is what `vouch check` warns about in a literal value.
	Warn Warn
	// Report is how verify words a failure.
	Report Report
}

// Reads is a set of facts about a claim's value that a rule's clauses
// read (compile/semantics.dl).
type Reads uint8

// What a rule reads of a claim.
const (
	// ReadsKey: the whole value, as one comparable key.
	ReadsKey Reads = 1 << iota
	// ReadsElems: every element of an array.
	ReadsElems
	// ReadsStrings: its strings (an array's string elements).
	ReadsStrings
	// ReadsValue: whether the check's value is among the elements or a
	// substring.
	ReadsValue
	// ReadsMembers: whether each member of the check's list value is
	// among the elements.
	ReadsMembers
)

// Bound is which way a rule bounds a number or a length.
type Bound int

// The ways a rule bounds its claim.
const (
	// Unbounded: the rule is not a comparison.
	Unbounded Bound = iota
	// Lower: the claim must be above the value (greater_than,
	// min_length).
	Lower
	// Upper: the claim must be below the value (less_than, max_length).
	Upper
)

// Hint names the diagnosis explain adds to a failed rule.
type Hint int

// The diagnoses explain knows.
const (
	// NoHint: the verdict's explanation says all there is.
	NoHint Hint = iota + 1
	// HintType: the value and the claim differ only in type.
	HintType
	// HintElementType: an array element differs from the value only in
	// type.
	HintElementType
	// HintMemberType: the claim (or an element) differs from a member of
	// the list value only in type.
	HintMemberType
	// HintQuotedNumber: a number was written in quotes.
	HintQuotedNumber
	// HintRegexMisses: the strings the pattern was tried against.
	HintRegexMisses
)

// Warn names the check `vouch check` makes of a rule's literal value.
type Warn int

// The value checks `vouch check` knows.
const (
	// NoWarn: no value makes the rule suspicious by itself.
	NoWarn Warn = iota + 1
	// WarnEmptyNeverFails: an empty list forbids nothing.
	WarnEmptyNeverFails
	// WarnEmptyNeverPasses: an empty list allows nothing (as a when
	// condition, it almost always skips its predicate).
	WarnEmptyNeverPasses
	// WarnUnanchored: a pattern without ^ or $ matches anywhere.
	WarnUnanchored
)

// Report names how verify words a rule's failure.
type Report int

// The failure messages verify knows.
const (
	// ReportPresence: only absence fails the rule, and absence has a
	// message of its own.
	ReportPresence Report = iota + 1
	// ReportAbsence: a value was found where none may be.
	ReportAbsence
	// ReportEquality: the value found and the one expected.
	ReportEquality
	// ReportContainment: the element or substring found or missing.
	ReportContainment
	// ReportMembership: the elements outside the allowed list.
	ReportMembership
	// ReportExclusion: the forbidden elements present.
	ReportExclusion
	// ReportOrder: the number, or element, on the wrong side of Bound.
	ReportOrder
	// ReportLength: the length on the wrong side of Bound.
	ReportLength
	// ReportEvidence: the cited files that do or do not exist.
	ReportEvidence
	// ReportPattern: the strings that do not match.
	ReportPattern
	// ReportSet: the elements and members the two sets do not share.
	ReportSet
)

// Phrase fills a Must or Cond template.
func Phrase(template, claim, value string) string {
	return strings.NewReplacer("{claim}", "`"+claim+"`", "{value}", value).Replace(template)
}

// ruleTypes is the descriptor table, one entry per rule type.
var ruleTypes = []RuleType{
	{Name: Exists, Value: NoValue, Absent: AbsentFails, Hint: NoHint, Warn: NoWarn, Report: ReportPresence,
		Must: "{claim} must be present (a missing key or null fails)", Cond: "{claim} is present"},
	{Name: NotExists, Value: NoValue, Absent: AbsentPasses, Negative: true, Hint: NoHint, Warn: NoWarn, Report: ReportAbsence,
		Must: "{claim} must be absent (a missing key or null)", Cond: "{claim} is absent"},
	{Name: Equals, Value: AnyValue, Absent: AbsentFails, ValueFrom: true,
		Reads: ReadsKey, ReadsFrom: ReadsKey, ValueClaimReads: ReadsKey,
		Hint: HintType, Warn: NoWarn, Report: ReportEquality,
		Must: "{claim} must equal {value}", Cond: "{claim} equals {value}"},
	{Name: Contains, Value: AnyValue, Absent: AbsentFails, ValueFrom: true,
		// With another claim's value, any element may be the one.
		Reads: ReadsValue, ReadsFrom: ReadsElems, ValueClaimReads: ReadsKey,
		Hint: HintElementType, Warn: NoWarn, Report: ReportContainment,
		Must: "{claim} must contain {value} (an element of an array, or a substring of a string)", Cond: "{claim} contains {value}"},
	{Name: NotContains, Value: AnyValue, Absent: AbsentVacuous, Negative: true,
		Reads: ReadsValue, Hint: HintElementType, Warn: NoWarn, Report: ReportContainment,
		Must: "{claim} must not contain {value} (as an array element or a substring)", Cond: "{claim} does not contain {value}"},
	{Name: AnyOf, Value: ListValue, Absent: AbsentFails, ValueFrom: true,
		Reads: ReadsElems | ReadsKey, ReadsFrom: ReadsElems | ReadsKey, ValueClaimReads: ReadsElems,
		Hint: HintMemberType, Warn: WarnEmptyNeverPasses, Report: ReportMembership,
		Must: "{claim} must be one of {value} (for an array: every element)", Cond: "{claim} is one of {value}"},
	{Name: NoneOf, Value: ListValue, Absent: AbsentVacuous, Negative: true,
		Reads: ReadsKey | ReadsMembers, Hint: NoHint, Warn: WarnEmptyNeverFails, Report: ReportExclusion,
		Must: "{claim} must be none of {value} (for an array: no element)", Cond: "{claim} is none of {value}"},
	{Name: GreaterThan, Value: NumberValue, Absent: AbsentFails, ValueFrom: true, Bound: Lower,
		Hint: HintQuotedNumber, Warn: NoWarn, Report: ReportOrder,
		Must: "{claim} must be a number greater than {value} (for an array: every element)", Cond: "{claim} is greater than {value}"},
	{Name: LessThan, Value: NumberValue, Absent: AbsentFails, ValueFrom: true, Bound: Upper,
		Hint: HintQuotedNumber, Warn: NoWarn, Report: ReportOrder,
		Must: "{claim} must be a number less than {value} (for an array: every element)", Cond: "{claim} is less than {value}"},
	{Name: MinLength, Value: LengthValue, Absent: AbsentFails, Bound: Lower, Hint: NoHint, Warn: NoWarn, Report: ReportLength,
		Must: "{claim} must have at least {value} characters, elements or keys", Cond: "{claim} has at least {value} characters, elements or keys"},
	{Name: MaxLength, Value: LengthValue, Absent: AbsentVacuous, Bound: Upper, Hint: NoHint, Warn: NoWarn, Report: ReportLength,
		Must: "{claim} must have at most {value} characters, elements or keys (absent passes)", Cond: "{claim} has at most {value} characters, elements or keys"},
	{Name: Matches, Value: RegexValue, Absent: AbsentFails, Reads: ReadsStrings,
		Hint: HintRegexMisses, Warn: WarnUnanchored, Report: ReportPattern,
		Must: "{claim} must match the regular expression {value} (searched anywhere unless anchored; for an array: every element)", Cond: "{claim} matches {value}"},
	{Name: FileExists, Value: NoValue, Absent: AbsentFails, Evidence: true, Reads: ReadsStrings,
		Hint: NoHint, Warn: NoWarn, Report: ReportEvidence,
		Must: "{claim} must cite files that exist in the repository (a path, path:line or path:from-to; for an array: every element)", Cond: "{claim} cites files that exist"},
	{Name: NoFileExists, Value: NoValue, Absent: AbsentVacuous, Evidence: true, Negative: true, Reads: ReadsStrings,
		Hint: NoHint, Warn: NoWarn, Report: ReportEvidence,
		Must: "{claim} must cite no file that exists in the repository", Cond: "{claim} cites no file that exists"},
	{Name: SubsetOf, Value: ListValue, Absent: AbsentFails, ValueFrom: true, Set: true,
		Reads: ReadsElems, ReadsFrom: ReadsElems, ValueClaimReads: ReadsElems,
		Hint: NoHint, Warn: NoWarn, Report: ReportSet,
		Must: "{claim} must be an array whose every element is in {value} (an empty array passes vacuously)", Cond: "{claim} is a subset of {value}"},
	{Name: SupersetOf, Value: ListValue, Absent: AbsentFails, ValueFrom: true, Set: true,
		Reads: ReadsElems, ReadsFrom: ReadsElems, ValueClaimReads: ReadsElems,
		Hint: NoHint, Warn: NoWarn, Report: ReportSet,
		Must: "{claim} must be an array holding every member of {value}", Cond: "{claim} is a superset of {value}"},
	{Name: SameSet, Value: ListValue, Absent: AbsentFails, ValueFrom: true, Set: true,
		Reads: ReadsElems, ReadsFrom: ReadsElems, ValueClaimReads: ReadsElems,
		Hint: NoHint, Warn: NoWarn, Report: ReportSet,
		Must: "{claim} must be an array with exactly the members of {value} (order and repeats do not matter)", Cond: "{claim} has the same members as {value}"},
}

// ruleIndex finds a descriptor by name.
var ruleIndex = func() map[Rule]*RuleType {
	m := make(map[Rule]*RuleType, len(ruleTypes))
	for i := range ruleTypes {
		m[ruleTypes[i].Name] = &ruleTypes[i]
	}
	return m
}()

// Types lists every rule type's descriptor, sorted by name.
func Types() []RuleType {
	out := append([]RuleType(nil), ruleTypes...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Type is r's descriptor; false for a name that is not a rule type.
func (r Rule) Type() (RuleType, bool) {
	t, ok := ruleIndex[r]
	if !ok {
		return RuleType{}, false
	}
	return *t, true
}

// typeOf is r's descriptor, or the zero descriptor for a name that is
// not a rule type (the loader refuses those before anything asks).
func typeOf(r Rule) RuleType {
	t, _ := r.Type()
	return t
}
