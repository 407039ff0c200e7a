package explain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/selectors"
)

// Sentence says in one plain-English sentence what a predicate requires,
// condition first: "When `breaking` equals true, `caps` must contain
// "migration_guide"."
func Sentence(p rulespec.Predicate) string {
	s := mustPhrase(p.Check)
	if p.When != nil {
		return "When " + condPhrase(*p.When) + ", " + s + "."
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// value spells a rule's value as JSON, the way it is compared.
func value(c rulespec.Check) string {
	if c.Value == nil {
		return ""
	}
	return c.Value.Raw
}

// mustPhrase is the requirement: "`caps` must contain "x"".
func mustPhrase(c rulespec.Check) string {
	n := "`" + c.Claim + "`"
	v := value(c)
	switch c.Rule {
	case rulespec.Exists:
		return n + " must be present (a missing key or null fails)"
	case rulespec.NotExists:
		return n + " must be absent (a missing key or null)"
	case rulespec.Equals:
		return n + " must equal " + v
	case rulespec.Contains:
		return n + " must contain " + v + " (an element of an array, or a substring of a string)"
	case rulespec.NotContains:
		return n + " must not contain " + v + " (as an array element or a substring)"
	case rulespec.AnyOf:
		return n + " must be one of " + v + " (for an array: every element)"
	case rulespec.NoneOf:
		return n + " must be none of " + v + " (for an array: no element)"
	case rulespec.GreaterThan:
		return n + " must be a number greater than " + v + " (for an array: every element)"
	case rulespec.LessThan:
		return n + " must be a number less than " + v + " (for an array: every element)"
	case rulespec.MinLength:
		return n + " must have at least " + v + " characters, elements or keys"
	case rulespec.MaxLength:
		return n + " must have at most " + v + " characters, elements or keys (absent passes)"
	case rulespec.Matches:
		return n + " must match the regular expression " + v + " (searched anywhere unless anchored; for an array: every element)"
	case rulespec.FileExists:
		return n + " must cite files that exist in the repository (a path, path:line or path:from-to; for an array: every element)"
	case rulespec.NoFileExists:
		return n + " must cite no file that exists in the repository"
	}
	// A rule type added after this package was written: say what we know.
	if v != "" {
		return n + " must satisfy " + string(c.Rule) + " " + v
	}
	return n + " must satisfy " + string(c.Rule)
}

// condPhrase is a condition: "`breaking` equals true".
func condPhrase(c rulespec.Check) string {
	n := "`" + c.Claim + "`"
	v := value(c)
	switch c.Rule {
	case rulespec.Exists:
		return n + " is present"
	case rulespec.NotExists:
		return n + " is absent"
	case rulespec.Equals:
		return n + " equals " + v
	case rulespec.Contains:
		return n + " contains " + v
	case rulespec.NotContains:
		return n + " does not contain " + v
	case rulespec.AnyOf:
		return n + " is one of " + v
	case rulespec.NoneOf:
		return n + " is none of " + v
	case rulespec.GreaterThan:
		return n + " is greater than " + v
	case rulespec.LessThan:
		return n + " is less than " + v
	case rulespec.MinLength:
		return n + " has at least " + v + " characters, elements or keys"
	case rulespec.MaxLength:
		return n + " has at most " + v + " characters, elements or keys"
	case rulespec.Matches:
		return n + " matches " + v
	case rulespec.FileExists:
		return n + " cites files that exist"
	case rulespec.NoFileExists:
		return n + " cites no file that exists"
	}
	if v != "" {
		return n + " satisfies " + string(c.Rule) + " " + v
	}
	return n + " satisfies " + string(c.Rule)
}

// Reads describes what a selector reads, step by step, in words: `facts →
// key "a" → every element [*] → key "b"`.
func Reads(sel *selectors.Selector) string {
	parts := []string{"facts"}
	steps := sel.Steps()
	wild := false
	for i, st := range steps {
		switch st.Kind {
		case selectors.Key:
			if i == 0 && st.Key == "facts" && len(steps) > 1 {
				parts = append(parts, `(key "facts" is dropped unless facts has it)`)
				continue
			}
			parts = append(parts, "key "+strconv.Quote(st.Key))
		case selectors.Index:
			parts = append(parts, fmt.Sprintf("element %d", st.Index))
		case selectors.Wildcard:
			parts = append(parts, "every element [*]")
			wild = true
		}
	}
	s := strings.Join(parts, " → ")
	if wild {
		return s + "; the non-null matches form one flat array, absent only if the path before the first [*] is"
	}
	return s + "; absent if a key is missing, an index is out of range, a step meets the wrong type, or the value is null"
}

// pathText spells a path in selector syntax.
func pathText(steps []selectors.Step) string {
	var b strings.Builder
	for i, st := range steps {
		switch st.Kind {
		case selectors.Key:
			if bareKey(st.Key) {
				if i > 0 {
					b.WriteByte('.')
				}
				b.WriteString(st.Key)
			} else {
				b.WriteString("[" + strconv.Quote(st.Key) + "]")
			}
		case selectors.Index:
			fmt.Fprintf(&b, "[%d]", st.Index)
		case selectors.Wildcard:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

// bareKey reports whether a key can be written without quotes, matching the
// selector grammar (docs/rulespec.md).
func bareKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		switch r {
		case '.', '[', ']', '"', ' ', '\t', '\n', '\r':
			return false
		}
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
