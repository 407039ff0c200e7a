package rulecheck

import (
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/selectors"
	"github.com/vouch-dev/vouch/suggest"
)

// Warning codes about types and the repository document.
const (
	// TypeMismatch is a comparison whose two sides can never hold values
	// of the same type, so it can never pass (or, negated, never fail).
	TypeMismatch = "type-mismatch"
	// UnknownRepoField is a from: repo selector naming a field the
	// repository document does not have.
	UnknownRepoField = "unknown-repo-field"
)

// shape is what is known, before any run, about a claim's value: its JSON
// type ("" when unknown) and, for arrays, its elements' type.
type shape struct{ typ, elem string }

// repoFields are the repository document's fields and what they hold.
var repoFields = map[string]shape{
	"base": {"string", ""}, "base_commit": {"string", ""},
	"files": {"array", "object"}, "changed": {"array", "string"}, "added": {"array", "string"},
	"modified": {"array", "string"}, "deleted": {"array", "string"}, "renamed": {"array", "string"},
	"tests_changed": {"array", "string"}, "imports_added": {"array", "object"}, "imports_removed": {"array", "object"},
	"dependencies_added": {"array", "object"}, "dependencies_removed": {"array", "object"},
	"go_exports_removed": {"array", "string"},
}

// repoElemFields are the fields of the objects in the document's lists.
var repoElemFields = map[string]map[string]string{
	"files": {"path": "string", "status": "string", "old_path": "string", "lines_added": "number",
		"lines_deleted": "number", "lang": "string", "test": "bool", "binary": "bool"},
	"dependencies_added":   {"ecosystem": "string", "name": "string", "version": "string", "source": "string"},
	"dependencies_removed": {"ecosystem": "string", "name": "string", "version": "string", "source": "string"},
	"imports_added": {"file": "string", "line": "number", "column": "number", "lang": "string", "kind": "string",
		"spec": "string", "names": "array", "alias": "string", "constraint": "string", "resolution": "object"},
	"imports_removed": {"file": "string", "line": "number", "column": "number", "lang": "string", "kind": "string",
		"spec": "string", "names": "array", "alias": "string", "constraint": "string", "resolution": "object"},
}

// claimShape is what the rulespec alone says about a claim's value: only
// repository claims have a known shape.
func (c *checker) claimShape(name string) shape {
	for _, cl := range c.rs.Claims {
		if cl.Name == name && cl.From == rulespec.FromRepo {
			return repoShape(cl.Selector.Steps())
		}
	}
	return shape{}
}

func repoShape(steps []selectors.Step) shape {
	if len(steps) == 0 || steps[0].Kind != selectors.Key {
		return shape{}
	}
	top, ok := repoFields[steps[0].Key]
	if !ok {
		return shape{}
	}
	switch {
	case len(steps) == 1:
		return top
	case len(steps) == 2 && steps[1].Kind == selectors.Index:
		return shape{top.elem, ""}
	case len(steps) == 3 && steps[1].Kind == selectors.Wildcard && steps[2].Kind == selectors.Key:
		if t, ok := repoElemFields[steps[0].Key][steps[2].Key]; ok {
			return shape{"array", t}
		}
	case len(steps) == 3 && steps[1].Kind == selectors.Index && steps[2].Kind == selectors.Key:
		if t, ok := repoElemFields[steps[0].Key][steps[2].Key]; ok {
			return shape{t, ""}
		}
	}
	return shape{}
}

// unknownRepoFields warns about from: repo selectors that name no field
// of the repository document: such a claim is always absent.
func (c *checker) unknownRepoFields() {
	fields := repofacts.Fields()
	for _, cl := range c.rs.Claims {
		if cl.From != rulespec.FromRepo {
			continue
		}
		steps := cl.Selector.Steps()
		if len(steps) == 0 || steps[0].Kind != selectors.Key {
			continue
		}
		if _, ok := repoFields[steps[0].Key]; !ok {
			c.claimWarn(cl, UnknownRepoField, "claim %q: the repository document has no field %q%s, so the claim is always absent; fields are %s",
				cl.Name, steps[0].Key, suggest.Hint(steps[0].Key, fields), strings.Join(fields, ", "))
			continue
		}
		// files[*].lines_add: a field the list's entries do not have
		// selects nothing from every entry, an empty list that a
		// length or membership rule may pass on.
		elem, ok := repoElemFields[steps[0].Key]
		if !ok || len(steps) < 3 || (steps[1].Kind != selectors.Wildcard && steps[1].Kind != selectors.Index) || steps[2].Kind != selectors.Key {
			continue
		}
		if _, ok := elem[steps[2].Key]; !ok {
			names := make([]string, 0, len(elem))
			for n := range elem {
				names = append(names, n)
			}
			slices.Sort(names)
			c.claimWarn(cl, UnknownRepoField, "claim %q: the entries of the repository document's %q have no field %q%s, so the claim selects nothing; their fields are %s",
				cl.Name, steps[0].Key, steps[2].Key, suggest.Hint(steps[2].Key, names), strings.Join(names, ", "))
		}
	}
}

func jsonType(v gjson.Result) string {
	switch v.Type {
	case gjson.String:
		return "string"
	case gjson.Number:
		return "number"
	case gjson.True, gjson.False:
		return "bool"
	case gjson.JSON:
		if v.IsArray() {
			return "array"
		}
		return "object"
	}
	return "null"
}

func plural(t string) string {
	switch t {
	case "bool":
		return "booleans"
	case "object":
		return "mappings"
	case "array":
		return "arrays"
	}
	return t + "s"
}

// repoTypes warns when a literal value can never match a repository
// claim of known shape.
func (c *checker) repoTypes(p rulespec.Predicate, ch rulespec.Check, at rulespec.Pos, what string) {
	sh := c.claimShape(ch.Claim)
	if sh.typ == "" || ch.Value == nil {
		return
	}
	switch {
	case ch.Rule.SetRule():
		if sh.typ != "array" {
			c.predWarn(p, at, TypeMismatch, "%s%s compares arrays, but %s is a %s, so it never passes", what, ch.Rule, ch.Claim, sh.typ)
			return
		}
		c.members(p, ch, at, what, sh, ch.Value.Array(), "the value")
	case ch.Rule == rulespec.AnyOf && sh.typ == "array":
		c.members(p, ch, at, what, sh, ch.Value.Array(), "the value")
	case ch.Rule == rulespec.Equals:
		if t := jsonType(*ch.Value); t != sh.typ {
			c.predWarn(p, at, TypeMismatch, "%s%s is a %s and the value %s is a %s, so equals never passes", what, ch.Claim, sh.typ, ch.Value.Raw, t)
		}
	}
}

// members warns when no member of a list has the type of the claim's
// elements.
func (c *checker) members(p rulespec.Predicate, ch rulespec.Check, at rulespec.Pos, what string, sh shape, list []gjson.Result, desc string) {
	if sh.elem == "" || len(list) == 0 {
		return
	}
	for _, m := range list {
		if jsonType(m) == sh.elem {
			return
		}
	}
	c.predWarn(p, at, TypeMismatch, "%s%s holds %s, but no member of %s is one, so %s passes only while %s is empty", what, ch.Claim, plural(sh.elem), desc, ch.Rule, ch.Claim)
}

// valueFrom warns about a check comparing two claims whose known shapes
// can never match.
func (c *checker) valueFrom(p rulespec.Predicate, ch rulespec.Check, at rulespec.Pos, what string) {
	a, b := c.claimShape(ch.Claim), c.claimShape(ch.ValueFrom)
	if ch.ValueFrom == ch.Claim {
		c.predWarn(p, at, NeverFails, "%scompares %s with itself", what, ch.Claim)
		return
	}
	needsList := ch.Rule.SetRule() || ch.Rule == rulespec.AnyOf
	switch {
	case needsList && b.typ != "" && b.typ != "array":
		c.predWarn(p, at, TypeMismatch, "%s%s needs a list to compare with, but value_from claim %s is a %s, so it never passes", what, ch.Rule, ch.ValueFrom, b.typ)
	case ch.Rule.SetRule() && a.typ != "" && a.typ != "array":
		c.predWarn(p, at, TypeMismatch, "%s%s compares arrays, but %s is a %s, so it never passes", what, ch.Rule, ch.Claim, a.typ)
	case needsList && a.elem != "" && b.elem != "" && a.elem != b.elem:
		c.predWarn(p, at, TypeMismatch, "%s%s holds %s and value_from claim %s holds %s, so no element can match", what, ch.Claim, plural(a.elem), ch.ValueFrom, plural(b.elem))
	case ch.Rule == rulespec.Equals && a.typ != "" && b.typ != "" && a.typ != b.typ:
		c.predWarn(p, at, TypeMismatch, "%s%s is a %s and value_from claim %s is a %s, so equals never passes", what, ch.Claim, a.typ, ch.ValueFrom, b.typ)
	}
}

// alwaysPresent reports whether a claim selects a whole field of the
// repository document, which every document has.
func (c *checker) alwaysPresent(name string) bool {
	for _, cl := range c.rs.Claims {
		if cl.Name == name && cl.From == rulespec.FromRepo {
			steps := cl.Selector.Steps()
			if len(steps) != 1 || steps[0].Kind != selectors.Key {
				return false
			}
			_, known := repoFields[steps[0].Key]
			return known
		}
	}
	return false
}
