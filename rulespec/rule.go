package rulespec

// Rule is the name of a predicate rule type (ruletypes.go describes each).
type Rule string

// The rule types a predicate or a when condition may use.
const (
	Exists      Rule = "exists"
	NotExists   Rule = "not_exists"
	Equals      Rule = "equals"
	Contains    Rule = "contains"
	NotContains Rule = "not_contains"
	AnyOf       Rule = "any_of"
	NoneOf      Rule = "none_of"
	GreaterThan Rule = "greater_than"
	LessThan    Rule = "less_than"
	MinLength   Rule = "min_length"
	MaxLength   Rule = "max_length"
	Matches     Rule = "matches"
	// FileExists and NoFileExists check evidence: every value of the claim
	// (a string, or an array of strings) cites a path under the repository
	// root, optionally with a line (path:42) or a line range (path:10-20).
	FileExists   Rule = "file_exists"
	NoFileExists Rule = "no_file_exists"
	// SubsetOf, SupersetOf and SameSet compare an array claim with a set:
	// every element of the claim is in the value, every member of the
	// value is in the claim, or both.
	SubsetOf   Rule = "subset_of"
	SupersetOf Rule = "superset_of"
	SameSet    Rule = "same_set"
)

// ValueFromOK reports whether r may compare with another claim's value
// (value_from:) instead of a literal.
func (r Rule) ValueFromOK() bool { return typeOf(r).ValueFrom }

// ValueFromRules lists the rules that accept value_from, in a stable
// order.
func ValueFromRules() []Rule {
	var out []Rule
	for _, t := range Types() {
		if t.ValueFrom {
			out = append(out, t.Name)
		}
	}
	return out
}

// SetRule reports whether r compares the claim's elements as a set with
// the value's (subset_of, superset_of, same_set).
func (r Rule) SetRule() bool { return typeOf(r).Set }

// ValueKind says what a rule expects in its `value:` field.
type ValueKind int

// What a rule's value must be.
const (
	NoValue     ValueKind = iota // the rule takes no value
	AnyValue                     // any non-null value
	ListValue                    // a sequence of non-null values
	NumberValue                  // an integer or a float
	LengthValue                  // a non-negative integer
	RegexValue                   // a string holding a valid RE2 pattern
)

// Rules lists every rule type in a stable order.
func Rules() []Rule {
	out := make([]Rule, 0, len(ruleTypes))
	for _, t := range Types() {
		out = append(out, t.Name)
	}
	return out
}

// Valid reports whether r is a rule type.
func (r Rule) Valid() bool {
	_, ok := ruleIndex[r]
	return ok
}

// Value says what r expects in `value:`.
func (r Rule) Value() ValueKind {
	if t, ok := ruleIndex[r]; ok {
		return t.Value
	}
	return NoValue
}

func (k ValueKind) describe() string {
	switch k {
	case AnyValue:
		return "a value"
	case ListValue:
		return "a list of values"
	case NumberValue:
		return "a number"
	case LengthValue:
		return "a non-negative integer"
	case RegexValue:
		return "a regular expression string"
	}
	return "no value"
}

// Source records where a predicate's invariant came from.
type Source string

// The sources a predicate may cite.
const (
	TaskPrompt Source = "task_prompt"
	Memory     Source = "memory"
)

var sources = []string{string(Memory), string(TaskPrompt)}

// Evidence reports whether r checks files in the working tree, so its
// claim's values must be resolved against the repository root.
func (r Rule) Evidence() bool {
	t, ok := ruleIndex[r]
	return ok && t.Evidence
}

// From names the document a claim selects from.
type From string

// The documents a claim may select from. New sources extend this list.
const (
	// FromEnvelope is the default: the envelope's facts, what the agent
	// says it did.
	FromEnvelope From = "envelope"
	// FromRepo is the repository document (package repofacts): what the
	// working tree shows was done since the base.
	FromRepo From = "repo"
	// FromAudit is the guard audit document (package guard): the tool
	// calls of the agent's session as vouch guard recorded them, and the
	// files they wrote with their hashes.
	FromAudit From = "audit"
)

var froms = []string{string(FromAudit), string(FromEnvelope), string(FromRepo)}

// Froms lists the claim sources, sorted.
func Froms() []From {
	out := make([]From, len(froms))
	for i, f := range froms {
		out[i] = From(f)
	}
	return out
}

// Mode says whether a predicate's failure fails the run.
type Mode string

// The modes a rulespec or a predicate may declare.
const (
	// Enforce is the default: a failure fails the run.
	Enforce Mode = "enforce"
	// Observe reports a failure without failing the run, so a team can roll
	// out a new rule and watch what it would reject before enforcing it.
	Observe Mode = "observe"
)

var modes = []string{string(Enforce), string(Observe)}
