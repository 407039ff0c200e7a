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
	// Must is explain's sentence of the requirement, Cond its phrase when
	// the rule is a when condition: "{claim}" is the claim in backticks,
	// "{value}" the value as written.
	Must, Cond string
}

// Phrase fills a Must or Cond template.
func Phrase(template, claim, value string) string {
	return strings.NewReplacer("{claim}", "`"+claim+"`", "{value}", value).Replace(template)
}

// ruleTypes is the descriptor table, one entry per rule type.
var ruleTypes = []RuleType{
	{Name: Exists, Value: NoValue, Absent: AbsentFails,
		Must: "{claim} must be present (a missing key or null fails)", Cond: "{claim} is present"},
	{Name: NotExists, Value: NoValue, Absent: AbsentPasses,
		Must: "{claim} must be absent (a missing key or null)", Cond: "{claim} is absent"},
	{Name: Equals, Value: AnyValue, Absent: AbsentFails,
		Must: "{claim} must equal {value}", Cond: "{claim} equals {value}"},
	{Name: Contains, Value: AnyValue, Absent: AbsentFails,
		Must: "{claim} must contain {value} (an element of an array, or a substring of a string)", Cond: "{claim} contains {value}"},
	{Name: NotContains, Value: AnyValue, Absent: AbsentVacuous,
		Must: "{claim} must not contain {value} (as an array element or a substring)", Cond: "{claim} does not contain {value}"},
	{Name: AnyOf, Value: ListValue, Absent: AbsentFails,
		Must: "{claim} must be one of {value} (for an array: every element)", Cond: "{claim} is one of {value}"},
	{Name: NoneOf, Value: ListValue, Absent: AbsentVacuous,
		Must: "{claim} must be none of {value} (for an array: no element)", Cond: "{claim} is none of {value}"},
	{Name: GreaterThan, Value: NumberValue, Absent: AbsentFails,
		Must: "{claim} must be a number greater than {value} (for an array: every element)", Cond: "{claim} is greater than {value}"},
	{Name: LessThan, Value: NumberValue, Absent: AbsentFails,
		Must: "{claim} must be a number less than {value} (for an array: every element)", Cond: "{claim} is less than {value}"},
	{Name: MinLength, Value: LengthValue, Absent: AbsentFails,
		Must: "{claim} must have at least {value} characters, elements or keys", Cond: "{claim} has at least {value} characters, elements or keys"},
	{Name: MaxLength, Value: LengthValue, Absent: AbsentVacuous,
		Must: "{claim} must have at most {value} characters, elements or keys (absent passes)", Cond: "{claim} has at most {value} characters, elements or keys"},
	{Name: Matches, Value: RegexValue, Absent: AbsentFails,
		Must: "{claim} must match the regular expression {value} (searched anywhere unless anchored; for an array: every element)", Cond: "{claim} matches {value}"},
	{Name: FileExists, Value: NoValue, Absent: AbsentFails, Evidence: true,
		Must: "{claim} must cite files that exist in the repository (a path, path:line or path:from-to; for an array: every element)", Cond: "{claim} cites files that exist"},
	{Name: NoFileExists, Value: NoValue, Absent: AbsentVacuous, Evidence: true,
		Must: "{claim} must cite no file that exists in the repository", Cond: "{claim} cites no file that exists"},
	{Name: SubsetOf, Value: ListValue, Absent: AbsentFails,
		Must: "{claim} must be an array whose every element is in {value} (an empty array passes vacuously)", Cond: "{claim} is a subset of {value}"},
	{Name: SupersetOf, Value: ListValue, Absent: AbsentFails,
		Must: "{claim} must be an array holding every member of {value}", Cond: "{claim} is a superset of {value}"},
	{Name: SameSet, Value: ListValue, Absent: AbsentFails,
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
