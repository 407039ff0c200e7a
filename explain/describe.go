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
// "migration_guide"." The words come from the rule type's descriptor; a
// rule type without one is an error, never a vaguer sentence.
func Sentence(p rulespec.Predicate) (string, error) {
	s, err := phrase(p.Check, false)
	if err != nil {
		return "", err
	}
	if p.When != nil {
		cond, err := phrase(*p.When, true)
		if err != nil {
			return "", err
		}
		return "When " + cond + ", " + s + ".", nil
	}
	return strings.ToUpper(s[:1]) + s[1:] + ".", nil
}

// phrase is the requirement ("`caps` must contain "x"") or, for a
// condition, its phrase ("`breaking` equals true").
func phrase(c rulespec.Check, cond bool) (string, error) {
	t, ok := c.Rule.Type()
	if !ok {
		return "", fmt.Errorf("rule type %q has no descriptor in rulespec's table; vouch cannot explain it", c.Rule)
	}
	tmpl := t.Must
	if cond {
		tmpl = t.Cond
	}
	return rulespec.Phrase(tmpl, c.Claim, value(c)), nil
}

// value spells a rule's value as JSON, the way it is compared, or names
// the claim it is taken from.
func value(c rulespec.Check) string {
	if c.ValueFrom != "" {
		return "the value of `" + c.ValueFrom + "`"
	}
	if c.Value == nil {
		return ""
	}
	return c.Value.Raw
}

// Reads describes what a selector reads, step by step, in words: `facts →
// key "a" → every element [*] → key "b"`.
func Reads(sel *selectors.Selector) string {
	parts := []string{"facts"}
	if sel.FactsPrefix() {
		parts = append(parts, `(the "facts" prefix is dropped)`)
	}
	steps := sel.Steps()
	wild := false
	for _, st := range steps {
		switch st.Kind {
		case selectors.Key:
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
			// A first key named facts is quoted: bare, it would be read
			// as the prefix selectors drop.
			if bareKey(st.Key) && !(i == 0 && st.Key == "facts" && len(steps) > 1) {
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
