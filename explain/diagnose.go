package explain

import (
	"fmt"
	"github.com/vouch-dev/vouch/output"
	"sort"
	"strconv"
	"strings"

	"github.com/google/mangle/ast"
	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/compile"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/selectors"
	"github.com/vouch-dev/vouch/suggest"
)

// maxPaths bounds how many envelope paths are considered for "did you
// mean": enough for any hand-written envelope, and a bound on the work for
// a generated one.
const maxPaths = 50_000

// pathIndex lists every path of an envelope's facts in selector syntax,
// built on first use: most explanations never need it.
type pathIndex struct {
	root  gjson.Result
	built bool
	paths []string
}

func newPathIndex(root gjson.Result) *pathIndex { return &pathIndex{root: root} }

func (p *pathIndex) all() []string {
	if p.built {
		return p.paths
	}
	p.built = true
	seen := make(map[string]bool)
	var walk func(v gjson.Result, steps []selectors.Step)
	walk = func(v gjson.Result, steps []selectors.Step) {
		if len(p.paths) >= maxPaths {
			return
		}
		if len(steps) > 0 {
			t := pathText(steps)
			if !seen[t] {
				seen[t] = true
				p.paths = append(p.paths, t)
			}
		}
		switch {
		case v.IsObject():
			v.ForEach(func(k, e gjson.Result) bool {
				walk(e, append(steps[:len(steps):len(steps)], selectors.Step{Kind: selectors.Key, Key: k.Str}))
				return len(p.paths) < maxPaths
			})
		case v.IsArray():
			v.ForEach(func(_, e gjson.Result) bool {
				walk(e, append(steps[:len(steps):len(steps)], selectors.Step{Kind: selectors.Wildcard}))
				return len(p.paths) < maxPaths
			})
		}
	}
	walk(p.root, nil)
	sort.Strings(p.paths)
	return p.paths
}

// nearest returns up to three existing paths closest to text.
func (p *pathIndex) nearest(text string) []string {
	type cand struct {
		path string
		d    int
	}
	var cs []cand
	for _, path := range p.all() {
		// x and x[*] differ by one edit; offer the wildcard only to a
		// selector that has one.
		if strings.HasSuffix(path, "[*]") && !strings.HasSuffix(text, "[*]") {
			continue
		}
		d := suggest.Distance(text, path)
		limit := max(len([]rune(text)), len([]rune(path)))/3 + 1
		if d > 0 && d <= limit {
			cs = append(cs, cand{path, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].path < cs[j].path
	})
	var out []string
	for i, c := range cs {
		if i == 3 {
			break
		}
		out = append(out, c.path)
	}
	return out
}

// resolve follows a selector step by step and reports how far it got: the
// deepest prefix that resolved to a non-null value, and why the next step
// found nothing. It only describes the envelope; presence itself was
// decided when the program was compiled.
func resolve(root gjson.Result, sel *selectors.Selector) (prefix []selectors.Step, why string) {
	// Steps has already dropped a "facts." prefix, as Select does.
	steps := sel.Steps()
	cur := root
	for i, st := range steps {
		at := "facts"
		if i > 0 {
			at = "`" + pathText(steps[:i]) + "`"
		}
		switch st.Kind {
		case selectors.Key:
			if !cur.IsObject() {
				return steps[:i], fmt.Sprintf("%s is %s, not a mapping, so it has no key %q", at, describeJSON(cur), st.Key)
			}
			var next gjson.Result
			found := false
			cur.ForEach(func(k, v gjson.Result) bool {
				if k.Str == st.Key {
					next, found = v, true
					return false
				}
				return true
			})
			if !found {
				return steps[:i], fmt.Sprintf("%s has no key %q%s", at, st.Key, keysHint(cur))
			}
			cur = next
		case selectors.Index:
			if !cur.IsArray() {
				return steps[:i], fmt.Sprintf("%s is %s, not an array, so it has no element %d", at, describeJSON(cur), st.Index)
			}
			n := len(cur.Array())
			if st.Index >= n {
				return steps[:i], fmt.Sprintf("%s has %s, so index %d is out of range", at, output.Count(n, "element"), st.Index)
			}
			cur = cur.Array()[st.Index]
		case selectors.Wildcard:
			if !cur.IsArray() {
				return steps[:i], fmt.Sprintf("%s is %s, not an array, so [*] matched nothing", at, describeJSON(cur))
			}
			return steps[:i], fmt.Sprintf("%s is an array whose elements hold nothing at the rest of the path", at)
		}
		if cur.Type == gjson.Null {
			return steps[:i], fmt.Sprintf("`%s` is null, and null counts as absent", pathText(steps[:i+1]))
		}
	}
	return steps, "the value is null, and null counts as absent"
}

// keysHint lists a mapping's keys, at most eight, sorted.
func keysHint(obj gjson.Result) string {
	var keys []string
	obj.ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, k.Str)
		return true
	})
	if len(keys) == 0 {
		return " (it is empty)"
	}
	sort.Strings(keys)
	more := ""
	if len(keys) > 8 {
		more = fmt.Sprintf(" and %d more", len(keys)-8)
		keys = keys[:8]
	}
	for i, k := range keys {
		keys[i] = strconv.Quote(k)
	}
	return " (its keys: " + strings.Join(keys, ", ") + more + ")"
}

// absentDiagnosis explains a selector that found nothing.
func absentDiagnosis(cv compile.ClaimValue, near *pathIndex) []string {
	sel := cv.Claim.Selector
	prefix, why := resolve(near.root, sel)
	deepest := "the facts mapping itself"
	if len(prefix) > 0 {
		deepest = "`" + pathText(prefix) + "`"
	}
	out := []string{fmt.Sprintf("selector `%s` (claim %s) found nothing: %s; the deepest prefix that resolved is %s", sel, cv.Claim.Name, why, deepest)}
	steps := sel.Steps()
	if len(steps) > 1 && steps[0].Kind == selectors.Key && steps[0].Key == "facts" {
		steps = steps[1:]
	}
	if ns := near.nearest(pathText(steps)); len(ns) > 0 {
		for i := range ns {
			ns[i] = "`" + ns[i] + "`"
		}
		out = append(out, "did you mean "+strings.Join(ns, " or ")+"?")
	}
	if cv.Warning != "" {
		out = append(out, cv.Warning)
	}
	return out
}

// diagnose adds hints to a check that did not pass. The verdict is already
// fixed; these only point at what to change.
func diagnose(c rulespec.Check, ch string, cv compile.ClaimValue, res *datalog.Result, near *pathIndex) []string {
	if !cv.Present {
		if t, _ := c.Rule.Type(); t.Absent != rulespec.AbsentFails {
			// Absence passes the rule: nothing to diagnose.
			return []string{}
		}
		return absentDiagnosis(cv, near)
	}
	out := []string{}
	found := cv.Value
	if c.ValueFrom != "" {
		// The value is another claim's: the explanation lists both
		// claims' values, and there is no literal to hint about.
		return out
	}
	t, _ := c.Rule.Type()
	switch t.Hint {
	case rulespec.HintType:
		if hint := typeHint(*c.Value, found); hint != "" {
			out = append(out, hint)
		}
	case rulespec.HintElementType:
		if !found.IsArray() {
			break
		}
		for _, e := range found.Array() {
			if hint := typeHint(*c.Value, e); hint != "" {
				out = append(out, "element: "+hint)
			}
		}
	case rulespec.HintMemberType:
		if found.IsArray() {
			for _, e := range found.Array() {
				for _, m := range c.Value.Array() {
					if hint := typeHint(m, e); hint != "" {
						out = append(out, "element: "+hint)
					}
				}
			}
			break
		}
		for _, m := range c.Value.Array() {
			if hint := typeHint(m, found); hint != "" {
				out = append(out, hint)
			}
		}
	case rulespec.HintQuotedNumber:
		if found.Type == gjson.String {
			if _, err := strconv.ParseFloat(found.Str, 64); err == nil {
				out = append(out, fmt.Sprintf("found string %s, a number in quotes; %s compares numbers, so write it unquoted in the envelope", found.Raw, c.Rule))
			}
		}
	case rulespec.HintRegexMisses:
		misses := query(res, "regex_miss", ast.String(ch), ast.Variable{Symbol: "_"})
		for i, m := range misses {
			if i == 5 {
				out = append(out, fmt.Sprintf("... and %d more strings did not match", len(misses)-5))
				break
			}
			s := ""
			if k, ok := m.Args[1].(ast.Constant); ok {
				s = k.Symbol
			}
			out = append(out, fmt.Sprintf("pattern %s was tried against %s and did not match", c.Value.Raw, strconv.Quote(s)))
		}
		if len(misses) == 0 && found.Type != gjson.String && !found.IsArray() {
			out = append(out, fmt.Sprintf("pattern %s was tried against nothing: the claim is %s, not a string", c.Value.Raw, describeJSON(found)))
		}
	}
	return sortedUnique(out)
}

// typeHint explains an equality that failed only because of types: the
// value and what was found have the same text but different types.
func typeHint(want, found gjson.Result) string {
	if want.Type == found.Type || want.IsArray() || want.IsObject() || found.IsArray() || found.IsObject() {
		return ""
	}
	text := func(v gjson.Result) string {
		if v.Type == gjson.String {
			return v.Str
		}
		return v.Raw
	}
	if text(want) != text(found) {
		return ""
	}
	return fmt.Sprintf("expected %s, found %s; write value: %s or fix the envelope", describeJSON(want), describeJSON(found), found.Raw)
}

// diagnoseVacuous says why a pass checked nothing.
func diagnoseVacuous(c rulespec.Check, cv compile.ClaimValue, near *pathIndex) []string {
	if !cv.Present {
		out := []string{fmt.Sprintf("%s passes when the claim is absent, so this pass checked nothing", c.Rule)}
		return append(out, absentDiagnosis(cv, near)...)
	}
	return []string{fmt.Sprintf("%s holds for every element of an empty array, so this pass checked nothing; add a min_length predicate on %s if it must not be empty", c.Rule, c.Claim)}
}

// sortedUnique sorts and deduplicates strings, so hints print the same on
// every run.
func sortedUnique(in []string) []string {
	sort.Strings(in)
	out := in[:0]
	for i, s := range in {
		if i == 0 || s != in[i-1] {
			out = append(out, s)
		}
	}
	return out
}
