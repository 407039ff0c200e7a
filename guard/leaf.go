package guard

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/vouch-dev/vouch/internal/lazyre"
)

// MaxRegexInput caps the text a regular expression sees, as Edictum does.
const MaxRegexInput = 10_000

// missing marks a selector that names nothing in the call.
type missingT struct{}

var missing any = missingT{}

// Env is what selectors read besides the call: the principal and the hook
// process's environment.
type Env struct {
	// Principal is the decoded VOUCH_PRINCIPAL object (or guard.principal
	// from vouch.yaml); nil when there is none.
	Principal map[string]any
	// Getenv looks up an environment variable; nil means none are set.
	Getenv func(string) (string, bool)
}

// leafResult is a leaf operator's outcome: true, false, or an error (a
// type mismatch), which makes the rule fire (fail closed).
type leafResult int

const (
	leafFalse leafResult = iota
	leafTrue
	leafError
)

func (r leafResult) name() string {
	switch r {
	case leafTrue:
		return "/true"
	case leafError:
		return "/error"
	}
	return "/false"
}

// resolve reads a selector's value from the call.
func resolve(sel string, c *Call, env Env, d *CallFacts) any {
	switch {
	case strings.HasPrefix(sel, "derived."):
		return d.derivedSelector(sel[len("derived."):])
	case sel == "tool.name":
		return c.Tool
	case sel == "environment":
		return nested("environment", c.Metadata)
	case sel == "output.text":
		if c.Phase != Post || c.Result == nil {
			return missing
		}
		return resultText(c.Result)
	case sel == "result":
		if c.Phase != Post || c.Result == nil {
			return missing
		}
		return c.Result
	case strings.HasPrefix(sel, "result."):
		if c.Phase != Post {
			return missing
		}
		return nested(sel[len("result."):], c.Result)
	case strings.HasPrefix(sel, "args."):
		return nested(sel[len("args."):], c.Args)
	case strings.HasPrefix(sel, "metadata."):
		return nested(sel[len("metadata."):], c.Metadata)
	case strings.HasPrefix(sel, "principal."):
		if env.Principal == nil {
			return missing
		}
		return nested(sel[len("principal."):], env.Principal)
	case strings.HasPrefix(sel, "env."):
		if env.Getenv == nil {
			return missing
		}
		v, ok := env.Getenv(sel[len("env."):])
		if !ok {
			return missing
		}
		return coerceEnv(v)
	}
	return missing
}

// resultText is a tool response as text: itself when it is a string, its
// JSON otherwise.
func resultText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func nested(path string, data any) any {
	cur := data
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return missing
		}
		v, ok := m[part]
		if !ok {
			return missing
		}
		cur = v
	}
	return cur
}

// coerceEnv reads an environment value as Edictum does: booleans and
// numbers become typed values, anything else stays a string.
func coerceEnv(raw string) any {
	switch strings.ToLower(raw) {
	case "true":
		return true
	case "false":
		return false
	}
	if f, err := strconv.ParseFloat(raw, 64); err == nil {
		return f
	}
	return raw
}

// regexCache hands out compiled patterns: first the policy's own,
// compiled once when it was loaded (shared is only read, so goroutines may
// decide calls against one policy at once), then any compiled during this
// decision.
type regexCache struct {
	shared map[string]*regexp.Regexp
	local  map[string]*regexp.Regexp
}

func (rc *regexCache) get(p string) (*regexp.Regexp, error) {
	if re, ok := rc.shared[p]; ok {
		return re, nil
	}
	if re, ok := rc.local[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	if rc.local == nil {
		rc.local = map[string]*regexp.Regexp{}
	}
	rc.local[p] = re
	return re, nil
}

// evalLeaf applies a leaf's operator. A missing value makes every operator
// but exists false; a value of the wrong type is an error.
func evalLeaf(c *Cond, call *Call, env Env, d *CallFacts, rc *regexCache) leafResult {
	v := resolve(c.Selector, call, env, d)
	if list, ok := v.([]any); ok && strings.HasPrefix(c.Selector, "derived.") && c.Op != "exists" {
		// A derived list matches when some element does; the negative
		// operators hold when every element does.
		all := c.Op == "not_equals" || c.Op == "not_in"
		for _, x := range list {
			r := applyOp(c, x, rc)
			if r == leafError {
				return leafError
			}
			if all && r == leafFalse {
				return leafFalse
			}
			if !all && r == leafTrue {
				return leafTrue
			}
		}
		return truth(all)
	}
	return applyOp(c, v, rc)
}

// applyOp applies a leaf's operator to one value.
func applyOp(c *Cond, v any, rc *regexCache) leafResult {
	if c.Op == "exists" {
		want, _ := c.Value.(bool)
		present := v != missing && v != nil
		return truth(present == want)
	}
	if v == missing || v == nil {
		return leafFalse
	}
	switch c.Op {
	case "equals":
		return truth(equal(v, c.Value))
	case "not_equals":
		return truth(!equal(v, c.Value))
	case "in", "not_in":
		list, _ := c.Value.([]any)
		found := false
		for _, x := range list {
			if equal(v, x) {
				found = true
				break
			}
		}
		return truth(found == (c.Op == "in"))
	case "contains", "starts_with", "ends_with":
		s, ok := v.(string)
		if !ok {
			return leafError
		}
		arg, _ := c.Value.(string)
		switch c.Op {
		case "contains":
			return truth(strings.Contains(s, arg))
		case "starts_with":
			return truth(strings.HasPrefix(s, arg))
		}
		return truth(strings.HasSuffix(s, arg))
	case "contains_any":
		s, ok := v.(string)
		if !ok {
			return leafError
		}
		list, _ := c.Value.([]any)
		for _, x := range list {
			if sub, _ := x.(string); strings.Contains(s, sub) {
				return leafTrue
			}
		}
		return leafFalse
	case "matches", "matches_any":
		s, ok := v.(string)
		if !ok {
			return leafError
		}
		if len(s) > MaxRegexInput {
			s = s[:MaxRegexInput]
		}
		for _, p := range patterns(c) {
			re, err := rc.get(p)
			if err != nil {
				return leafError
			}
			if re.MatchString(s) {
				return leafTrue
			}
		}
		return leafFalse
	case "gt", "gte", "lt", "lte":
		a, ok := v.(float64)
		if !ok {
			return leafError
		}
		b, _ := c.Value.(float64)
		switch c.Op {
		case "gt":
			return truth(a > b)
		case "gte":
			return truth(a >= b)
		case "lt":
			return truth(a < b)
		}
		return truth(a <= b)
	}
	return leafError
}

func patterns(c *Cond) []string {
	if s, ok := c.Value.(string); ok {
		return []string{s}
	}
	var out []string
	list, _ := c.Value.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func truth(b bool) leafResult {
	if b {
		return leafTrue
	}
	return leafFalse
}

// equal compares scalars; numbers compare by value. Objects and lists are
// never equal to an operand (YAML operands of equals are scalars).
func equal(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	}
	return false
}

var placeholder = lazyre.New(`\{([^{}]+)\}`)

// placeholderCap caps one interpolated value in a message.
const placeholderCap = 200

// Interpolate fills {selector} placeholders in a rule message from the
// call. Secret-looking values are redacted and long ones cut; a selector
// that names nothing is left as written.
func Interpolate(msg string, c *Call, env Env, d *CallFacts) string {
	return placeholder().ReplaceAllStringFunc(msg, func(m string) string {
		sel := m[1 : len(m)-1]
		if !validSelector(sel) {
			return m
		}
		v := resolve(sel, c, env, d)
		if v == missing || v == nil {
			return m
		}
		var text string
		switch t := v.(type) {
		case string:
			text = t
		case float64:
			text = strconv.FormatFloat(t, 'f', -1, 64)
		default:
			text = resultText(t)
		}
		text = RedactText(text)
		if len(text) > placeholderCap {
			text = text[:placeholderCap-3] + "..."
		}
		return text
	})
}
