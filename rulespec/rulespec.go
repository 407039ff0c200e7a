// Package rulespec loads and validates a rulespec: the claims (named
// selectors into an envelope's facts) and predicates (rules over those
// claims) that a repository keeps in analysis/rulespec.yaml.
//
// Loading reports every problem in the file at once, each with its
// file:line:col, so an author fixes them in one pass.
package rulespec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/internal/lazyre"
	"github.com/vouch-dev/vouch/selectors"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/yamldoc"
)

// MaxBytes caps the size of a rulespec file. Rulespecs are written by the
// repository's maintainers, but a runaway generated file should still get a
// clear error rather than exhaust memory.
const MaxBytes = 16 << 20

// Pos is a 1-based position in the rulespec file.
type Pos = yamldoc.Pos

// Rulespec is a validated rulespec.
type Rulespec struct {
	// File is the path the rulespec was read from, as given.
	File string
	// SHA256 is the hex digest of the file's bytes.
	SHA256     string
	Claims     []Claim
	Predicates []Predicate
	// Mode is the rulespec-wide mode (`mode:`); Enforce when not set.
	Mode Mode
}

// Claim names a selector into the envelope's facts, or into another
// document (From).
type Claim struct {
	Name     string
	Selector *selectors.Selector
	// From is the document the selector reads: FromEnvelope unless the
	// claim says `from:`.
	From From
	Pos  Pos
}

// Check is a rule applied to a claim: the body of a predicate, and of a
// predicate's when condition.
type Check struct {
	Claim string
	Rule  Rule
	// Value is the rule's value as JSON, or nil for rules without one and
	// for checks that take their value from a claim.
	Value *gjson.Result
	// ValueFrom names the claim whose value the rule compares with
	// (`value_from:`), in place of Value.
	ValueFrom string
	// Regexp is the compiled pattern of a matches rule.
	Regexp *regexp.Regexp
	Pos    Pos
}

// Predicate is one rule of the rulespec.
type Predicate struct {
	// Index is the 0-based position in the predicates list.
	Index int
	// ID is the optional stable identifier (`id:`).
	ID string
	Check
	Source Source
	Notes  string
	// When, if set, is the condition under which the predicate applies.
	When *Check
	// Mode is the predicate's own `mode:`, or "" to follow the rulespec.
	Mode Mode
}

// UsesFrom reports whether any claim that a predicate or a when
// condition reads (directly or through value_from) selects from src.
func (rs *Rulespec) UsesFrom(src From) bool {
	from := make(map[string]From, len(rs.Claims))
	for _, c := range rs.Claims {
		from[c.Name] = c.From
	}
	reads := func(c *Check) bool {
		return c != nil && (from[c.Claim] == src || (c.ValueFrom != "" && from[c.ValueFrom] == src))
	}
	for i := range rs.Predicates {
		if reads(&rs.Predicates[i].Check) || reads(rs.Predicates[i].When) {
			return true
		}
	}
	return false
}

// Observed reports whether a failure of p is only reported: p or its
// rulespec is in observe mode.
func (rs *Rulespec) Observed(p Predicate) bool {
	return p.Mode == Observe || (p.Mode == "" && rs.Mode == Observe)
}

// Error is one problem found in a rulespec, at file:line:col.
type Error = yamldoc.Error

// ErrorList is every problem found in one rulespec, in file order.
type ErrorList = yamldoc.ErrorList

// Load reads and validates the rulespec at path. A returned error is an
// ErrorList.
func Load(path string) (*Rulespec, error) {
	return LoadIn(path, "")
}

// LoadIn is Load for a path that must lie under root: it is opened
// through an os.Root, so a symlink cannot substitute a file from outside
// the repository. root "" opens the path as given (one the user named on
// the command line).
func LoadIn(path, root string) (*Rulespec, error) {
	f, err := yamldoc.ReadFileIn(path, "rulespec", MaxBytes, root)
	if err != nil {
		return nil, err
	}
	return Parse(path, f.Data)
}

// Parse validates rulespec text. file names it in errors. A returned error
// is an ErrorList holding every problem found.
func Parse(file string, data []byte) (*Rulespec, error) {
	sum := sha256.Sum256(data)
	l := &loader{Parser: yamldoc.Parser{File: file}, data: data}
	doc, err := yamldoc.Decode(file, data, "rulespec")
	if err != nil {
		return nil, err
	}
	if doc == nil {
		return nil, ErrorList{{File: file, Msg: "rulespec is empty; it needs claims: and predicates:"}}
	}
	rs := &Rulespec{File: file, SHA256: hex.EncodeToString(sum[:])}
	l.top(doc, rs)
	if err := l.Err(); err != nil {
		return nil, err
	}
	return rs, nil
}

type loader struct {
	yamldoc.Parser
	data []byte // the file, for positions inside scalars
	// regexps holds each pattern compiled once: a regexp is immutable
	// and safe to share, and rulespecs repeat patterns across predicates.
	regexps map[string]*regexp.Regexp
}

// compile compiles pattern, once per loader.
func (l *loader) compile(pattern string) (*regexp.Regexp, error) {
	if re, ok := l.regexps[pattern]; ok {
		return re, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	if l.regexps == nil {
		l.regexps = map[string]*regexp.Regexp{}
	}
	l.regexps[pattern] = re
	return re, nil
}

// line returns line n (1-based) of the file, without its newline. Only
// error messages need it, so the file is not split up front.
func (l *loader) line(n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	rest := l.data
	for ; n > 1; n-- {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return "", false
		}
		rest = rest[i+1:]
	}
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return string(rest), true
}

// quoted is " \"name\"", or "" for an empty name.
func quoted(name string) string {
	if name == "" {
		return ""
	}
	return " " + strconv.Quote(name)
}

var topKeys = []string{"claims", "mode", "predicates"}

func (l *loader) top(doc *yaml.Node, rs *Rulespec) {
	f := l.Fields(doc, "the rulespec", topKeys)
	if f == nil {
		return
	}
	rs.Mode = Enforce
	if v, ok := f["mode"]; ok {
		if m, ok := l.mode(v); ok {
			rs.Mode = m
		}
	}
	claims := l.claims(f["claims"], doc, rs)
	l.predicates(f["predicates"], doc, rs, claims)
}

// mode reads a `mode:` value: enforce or observe.
func (l *loader) mode(v *yaml.Node) (Mode, bool) {
	if yamldoc.IsNull(v) {
		l.Errorf(v, "mode is empty; use enforce or observe, or remove mode:")
		return "", false
	}
	s, ok := l.Str(v, "mode")
	if !ok {
		return "", false
	}
	if !yamldoc.Contains(modes, s) {
		l.Errorf(v, "unknown mode %q%s; use enforce or observe", s, suggest.Hint(s, modes))
		return "", false
	}
	return Mode(s), true
}

func (l *loader) claims(n, parent *yaml.Node, rs *Rulespec) map[string]bool {
	names := make(map[string]bool)
	if n == nil || yamldoc.IsNull(n) {
		l.Errorf(parent, "the rulespec has no claims; add claims: with a name and a selector for each claim")
		return names
	}
	n = yamldoc.Deref(n)
	if n.Kind != yaml.SequenceNode {
		l.Errorf(n, "claims must be a list, found %s", yamldoc.KindName(n))
		return names
	}
	first := make(map[string]int)
	for _, item := range n.Content {
		f := l.Fields(item, "a claim", []string{"from", "name", "selector"})
		if f == nil {
			continue
		}
		c := Claim{Pos: Pos{Line: item.Line, Col: item.Column}, From: FromEnvelope}
		nameOK := false
		if v, ok := f["from"]; ok {
			if yamldoc.IsNull(v) {
				l.Errorf(v, "from is empty; use %s, or remove from: to select from the envelope", strings.Join(froms, " or "))
			} else if s, sok := l.Str(v, "from"); sok {
				if yamldoc.Contains(froms, s) {
					c.From = From(s)
				} else {
					l.Errorf(v, "unknown from %q%s; use %s", s, suggest.Hint(s, froms), strings.Join(froms, " or "))
				}
			}
		}
		if v, ok := f["name"]; !ok {
			l.Errorf(item, "claim has no name; add name: with a unique name that predicates refer to")
		} else if c.Name, nameOK = l.Str(v, "claim name"); nameOK {
			if c.Name == "" {
				l.Errorf(v, "claim name is empty; write a unique name that predicates refer to")
				nameOK = false
			} else if line, dup := first[c.Name]; dup {
				l.Errorf(v, "duplicate claim name %q (first at line %d); claim names must be unique", c.Name, line)
				nameOK = false
			} else {
				first[c.Name] = v.Line
			}
		}
		if v, ok := f["selector"]; !ok {
			l.Errorf(item, "claim%s has no selector; add selector: with a path into the envelope's facts such as feature.capabilities", quoted(c.Name))
			nameOK = false
		} else if text, ok := l.Str(v, "selector"); ok {
			sel, err := selectors.Parse(text)
			if err != nil {
				var se *selectors.SyntaxError
				if errors.As(err, &se) {
					pos, exact := l.scalarPos(v, se.Col)
					msg := "invalid selector " + strconv.Quote(text) + ": " + se.Msg
					if !exact {
						msg = fmt.Sprintf("invalid selector %q at column %d of the selector: %s", text, se.Col, se.Msg)
					}
					l.Errs = append(l.Errs, &Error{File: l.File, Pos: pos, Msg: msg})
				} else {
					l.Errorf(v, "invalid selector %q: %v", text, err)
				}
				nameOK = false
			}
			c.Selector = sel
		} else {
			nameOK = false
		}
		if nameOK {
			names[c.Name] = true
			rs.Claims = append(rs.Claims, c)
		} else if c.Name != "" {
			// Keep the name known so predicates naming it do not pile up
			// a second, misleading error.
			names[c.Name] = true
		}
	}
	return names
}

// scalarPos maps col, a 1-based rune column within the value of the scalar
// v, to its position in the file. When the value's characters cannot be
// traced back to the source (an alias, a block or multi-line scalar, an
// escape it does not follow), it returns v's own position and false.
func (l *loader) scalarPos(v *yaml.Node, col int) (Pos, bool) {
	at := Pos{Line: v.Line, Col: v.Column}
	text, ok := l.line(v.Line)
	if v.Kind != yaml.ScalarNode || !ok || v.Column < 1 {
		return at, false
	}
	line := []rune(text)
	i := v.Column - 1 // rune index of the scalar's first character
	// An anchor (&a) or a tag (!!str) may come before the value.
	for i < len(line) && (line[i] == '!' || line[i] == '&') {
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	style := v.Style &^ yaml.TaggedStyle
	switch style {
	case 0:
		if strings.ContainsRune(v.Value, '\n') {
			return at, false
		}
		if i+col-1 >= len(line) {
			return at, false
		}
		return Pos{Line: v.Line, Col: i + col}, true
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		if i >= len(line) || (line[i] != '\'' && line[i] != '"') {
			return at, false
		}
		i++
		for k := 1; k < col; k++ {
			if i >= len(line) {
				return at, false
			}
			switch {
			case style == yaml.SingleQuotedStyle && line[i] == '\'':
				i += 2 // '' stands for '
			case style == yaml.DoubleQuotedStyle && line[i] == '\\':
				if i+1 >= len(line) {
					return at, false
				}
				switch line[i+1] {
				case 'x':
					i += 4
				case 'u':
					i += 6
				case 'U':
					i += 10
				default:
					i += 2
				}
			default:
				i++
			}
		}
		if i >= len(line) {
			return at, false
		}
		return Pos{Line: v.Line, Col: i + 1}, true
	}
	return at, false
}

var predicateKeys = []string{"claim", "id", "mode", "notes", "rule", "source", "value", "value_from", "when"}
var whenKeys = []string{"claim", "rule", "value", "value_from"}
var wholeNumber = lazyre.New(`^\+?[0-9_]+$`)
var idPattern = lazyre.New(`^[a-z0-9_-]+$`)

func (l *loader) predicates(n, parent *yaml.Node, rs *Rulespec, claims map[string]bool) {
	if n == nil || yamldoc.IsNull(n) {
		l.Errorf(parent, "the rulespec has no predicates; add predicates: with at least one predicate (a rulespec that checks nothing cannot pass)")
		return
	}
	n = yamldoc.Deref(n)
	if n.Kind != yaml.SequenceNode {
		l.Errorf(n, "predicates must be a list, found %s", yamldoc.KindName(n))
		return
	}
	if len(n.Content) == 0 {
		l.Errorf(n, "predicates is empty; add at least one predicate (a rulespec that checks nothing cannot pass)")
		return
	}
	ids := make(map[string]int)
	for i, item := range n.Content {
		f := l.Fields(item, "a predicate", predicateKeys)
		if f == nil {
			continue
		}
		p := Predicate{Index: i}
		ok := l.check(item, f, &p.Check, claims, "predicate")
		if v, has := f["id"]; has {
			if id, sok := l.Str(v, "id"); sok {
				switch {
				case !idPattern().MatchString(id):
					l.Errorf(v, "id %q may use only lower-case letters, digits, '_' and '-'", id)
					ok = false
				case ids[id] != 0:
					l.Errorf(v, "duplicate id %q (first at line %d); ids must be unique", id, ids[id])
					ok = false
				default:
					ids[id] = v.Line
					p.ID = id
				}
			} else {
				ok = false
			}
		}
		if v, has := f["source"]; has && yamldoc.IsNull(v) {
			l.Errorf(v, "source is empty; use task_prompt or memory, or remove source:")
			ok = false
		} else if has {
			if s, sok := l.Str(v, "source"); sok {
				if !yamldoc.Contains(sources, s) {
					l.Errorf(v, "unknown source %q%s; use task_prompt or memory", s, suggest.Hint(s, sources))
					ok = false
				}
				p.Source = Source(s)
			} else {
				ok = false
			}
		}
		if v, has := f["notes"]; has && !yamldoc.IsNull(v) {
			if s, sok := l.Str(v, "notes"); sok {
				p.Notes = s
			} else {
				ok = false
			}
		}
		if v, has := f["mode"]; has {
			if m, mok := l.mode(v); mok {
				p.Mode = m
			} else {
				ok = false
			}
		}
		if v, has := f["when"]; has {
			wf := l.Fields(v, "a when condition", whenKeys)
			if wf == nil {
				ok = false
			} else {
				w := &Check{}
				if l.check(yamldoc.Deref(v), wf, w, claims, "when condition") {
					p.When = w
				} else {
					ok = false
				}
			}
		}
		if ok {
			rs.Predicates = append(rs.Predicates, p)
		}
	}
}

// check validates the claim/rule/value trio shared by predicates and when
// conditions.
func (l *loader) check(n *yaml.Node, f map[string]*yaml.Node, c *Check, claims map[string]bool, what string) bool {
	n = yamldoc.Deref(n)
	c.Pos = Pos{Line: n.Line, Col: n.Column}
	ok := true
	if v, has := f["claim"]; !has {
		l.Errorf(n, "%s has no claim; add claim: naming one of the claims", what)
		ok = false
	} else if name, sok := l.Str(v, "claim"); sok {
		if !claims[name] {
			known := make([]string, 0, len(claims))
			for k := range claims {
				known = append(known, k)
			}
			sort.Strings(known)
			l.Errorf(v, "%s names undefined claim %q%s; define it under claims:", what, name, suggest.Hint(name, known))
			ok = false
		}
		c.Claim = name
	} else {
		ok = false
	}
	rv, has := f["rule"]
	if !has {
		l.Errorf(n, "%s has no rule; add rule: with one of %s", what, ruleList())
		return false
	}
	name, sok := l.Str(rv, "rule")
	if !sok {
		return false
	}
	c.Rule = Rule(name)
	if !c.Rule.Valid() {
		names := make([]string, 0, len(ruleTypes))
		for _, r := range Rules() {
			names = append(names, string(r))
		}
		l.Errorf(rv, "unknown rule %q%s; use one of %s", name, suggest.Hint(name, names), ruleList())
		return false
	}
	if vf, has := f["value_from"]; has {
		return l.valueFrom(f["value"], vf, c, claims, what) && ok
	}
	return l.value(n, f["value"], c) && ok
}

// valueFrom checks a `value_from:` naming the claim to compare with.
func (l *loader) valueFrom(v, vf *yaml.Node, c *Check, claims map[string]bool, what string) bool {
	if v != nil {
		l.Errorf(vf, "%s has both value: and value_from:; keep one", what)
		return false
	}
	if !c.Rule.ValueFromOK() {
		var names []string
		for _, r := range ValueFromRules() {
			names = append(names, string(r))
		}
		l.Errorf(vf, "rule %s cannot take value_from:; it works with %s", c.Rule, strings.Join(names, ", "))
		return false
	}
	name, ok := l.Str(vf, "value_from")
	if !ok {
		return false
	}
	if !claims[name] {
		known := make([]string, 0, len(claims))
		for k := range claims {
			known = append(known, k)
		}
		sort.Strings(known)
		l.Errorf(vf, "value_from names undefined claim %q%s; define it under claims:", name, suggest.Hint(name, known))
		return false
	}
	c.ValueFrom = name
	return true
}

func ruleList() string {
	names := make([]string, 0, len(ruleTypes))
	for _, r := range Rules() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}

// value checks a rule's value against what the rule expects and converts it
// to JSON with the same converter as envelope facts, so both sides of a
// comparison are spelled the same way.
func (l *loader) value(parent, v *yaml.Node, c *Check) bool {
	kind := c.Rule.Value()
	if kind == NoValue {
		if v != nil {
			l.Errorf(v, "rule %s takes no value; remove value:", c.Rule)
			return false
		}
		return true
	}
	if v == nil {
		l.Errorf(parent, "rule %s needs %s; add value:", c.Rule, kind.describe())
		return false
	}
	if yamldoc.IsNull(v) {
		hint := ""
		if c.Rule == Equals {
			hint = "; to require that a claim is absent use rule: not_exists"
		}
		l.Errorf(v, "rule %s needs %s, found null%s", c.Rule, kind.describe(), hint)
		return false
	}
	d := yamldoc.Deref(v)
	switch kind {
	case ListValue:
		if d.Kind != yaml.SequenceNode {
			l.Errorf(v, "rule %s needs a list such as [a, b], found %s", c.Rule, yamldoc.KindName(d))
			return false
		}
		ok := true
		for _, item := range d.Content {
			if yamldoc.IsNull(item) {
				l.Errorf(item, "rule %s: list members must not be null (null is never a value); remove it, or quote it if you mean the string", c.Rule)
				ok = false
			}
		}
		if !ok {
			return false
		}
	case NumberValue:
		if d.Kind != yaml.ScalarNode || (d.Tag != "!!int" && d.Tag != "!!float") {
			l.Errorf(v, "rule %s needs a number, found %s", c.Rule, yamldoc.KindName(d))
			return false
		}
	case LengthValue:
		if d.Kind == yaml.ScalarNode && d.Tag == "!!float" && wholeNumber().MatchString(d.Value) {
			// yaml.v3 reads integers beyond 64 bits as floats.
			l.Errorf(v, "rule %s needs a non-negative integer, found %s, which is too large", c.Rule, d.Value)
			return false
		}
		if d.Kind != yaml.ScalarNode || d.Tag != "!!int" {
			l.Errorf(v, "rule %s needs a non-negative integer, found %s", c.Rule, yamldoc.KindName(d))
			return false
		}
		var n int64
		if err := d.Decode(&n); err != nil {
			l.Errorf(v, "rule %s needs a non-negative integer, found %s, which is too large", c.Rule, d.Value)
			return false
		}
		if n < 0 {
			l.Errorf(v, "rule %s needs a non-negative integer, found %s", c.Rule, d.Value)
			return false
		}
	case RegexValue:
		if d.Kind != yaml.ScalarNode || d.Tag != "!!str" {
			l.Errorf(v, "rule %s needs a regular expression string, found %s; quote it", c.Rule, yamldoc.KindName(d))
			return false
		}
		re, err := l.compile(d.Value)
		if err != nil {
			msg := err.Error()
			msg = strings.TrimPrefix(msg, "error parsing regexp: ")
			l.Errorf(v, "invalid regular expression %q: %s (RE2 syntax: https://github.com/google/re2/wiki/Syntax)", d.Value, msg)
			return false
		}
		c.Regexp = re
	}
	js, err := envelope.ToJSON(l.File, v, envelope.DefaultLimits())
	if err != nil {
		var ee *envelope.Error
		if errors.As(err, &ee) {
			l.Errs = append(l.Errs, &Error{File: l.File, Pos: Pos{Line: ee.Line, Col: ee.Col}, Msg: ee.Msg})
		} else {
			l.Errorf(v, "%v", err)
		}
		return false
	}
	r := gjson.ParseBytes(js)
	c.Value = &r
	return true
}
