package guard

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/internal/lazyre"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/yamldoc"
)

// Policy API versions. edictum/v1 is read exactly as Edictum's own loaders
// read it; vouch/v1 is the same format with vouch's extensions allowed.
const (
	EdictumAPI = "edictum/v1"
	VouchAPI   = "vouch/v1"
	PolicyKind = "Ruleset"
)

// UnparsedShellRule is the rule vouch/v1 policies get for shell commands
// that do not parse (deny when strict: true, ask otherwise).
const UnparsedShellRule = "vouch-unparsed-shell"

// TruncatedShellRule is the rule vouch/v1 policies get for shell commands
// too long to analyse whole (ask, deny when strict: true): the part past
// the bound was not looked at, so no rule could have matched it.
const TruncatedShellRule = "vouch-truncated-shell"

// implicitShellRule reports the rules every vouch/v1 policy gets rather
// than writes: UnparsedShellRule and TruncatedShellRule.
func implicitShellRule(id string) bool {
	return id == UnparsedShellRule || id == TruncatedShellRule
}

// MaxPolicyBytes caps a policy file.
const MaxPolicyBytes = 4 << 20

// MaxMessageLen is Edictum's cap on a rule message.
const MaxMessageLen = 500

// Rule kinds.
const (
	KindPre     = "pre"
	KindPost    = "post"
	KindSession = "session"
	KindSandbox = "sandbox"
)

// Actions a rule can take when it fires.
const (
	ActDeny   = "deny"
	ActAsk    = "ask"
	ActWarn   = "warn"
	ActRedact = "redact"
)

// Modes.
const (
	ModeEnforce = "enforce"
	ModeObserve = "observe"
)

// Policy is a loaded, validated guard policy. It is plain data so it can
// be cached as JSON keyed by the policy file's hash.
type Policy struct {
	// File is where the policy came from; SHA256 is the hash of its bytes
	// (the audit log records it, and the cache is keyed by it).
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	API    string `json:"api"`
	Name   string `json:"name"`
	// Mode is defaults.mode: observe makes every rule observe-only.
	Mode  string          `json:"mode"`
	Tools map[string]Tool `json:"tools,omitempty"`
	// Warnings name, with file:line:col, keys vouch reads but whose
	// meaning in Edictum it does not apply (side-effect classes, approval
	// timeouts, observe_alongside), so none is silently accepted.
	Warnings []string `json:"warnings,omitempty"`
	// Builtins names the built-in rule sets switched on (vouch/v1).
	Builtins []string `json:"builtins,omitempty"`
	// Strict denies shell commands that do not parse (vouch/v1).
	Strict bool   `json:"strict,omitempty"`
	Rules  []Rule `json:"rules"`

	// regexps holds every pattern of the rules' matches/matches_any
	// conditions, compiled once by Prepare so that no decision compiles
	// one (compiling a dozen patterns cost more than evaluating the
	// program). It is not serialised: a cached policy is prepared again.
	regexps map[string]*regexp.Regexp
	// prepared holds, by rule, the facts and normal-form condition that
	// do not depend on the call (Prepare).
	prepared []preparedRule
}

// Prepare compiles the policy's regular expressions, and makes the facts
// of its rules that do not depend on the call, once for every decision
// made with it. LoadPolicy and LoadPolicyCached call it; a Policy built by
// hand works without it (each decision then does that work itself). Call
// it again after changing the rules. An invalid pattern is left out: the
// leaf using it evaluates to an error, as it would without Prepare.
func (p *Policy) Prepare() {
	re := map[string]*regexp.Regexp{}
	var walk func(c *Cond)
	walk = func(c *Cond) {
		if c == nil {
			return
		}
		for _, k := range c.All {
			walk(k)
		}
		for _, k := range c.Any {
			walk(k)
		}
		walk(c.Not)
		if c.Op != "matches" && c.Op != "matches_any" {
			return
		}
		for _, pat := range patterns(c) {
			if _, done := re[pat]; done {
				continue
			}
			if r, err := regexp.Compile(pat); err == nil {
				re[pat] = r
			}
		}
	}
	for i := range p.Rules {
		walk(p.Rules[i].When)
	}
	p.regexps = re
	p.prepared = prepareRules(p)
}

// Tool is an entry of tools: (Edictum's side-effect classes).
type Tool struct {
	SideEffect string `json:"side_effect"`
	Idempotent bool   `json:"idempotent,omitempty"`
}

// Rule is one rule of a policy.
type Rule struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Enabled bool   `json:"enabled"`
	// Mode is the rule's own mode, "" when it follows the policy.
	Mode string `json:"mode,omitempty"`
	// Tools are tool selectors: exact names, "*", or globs.
	Tools    []string       `json:"tools,omitempty"`
	When     *Cond          `json:"when,omitempty"`
	Action   string         `json:"action"`
	Message  string         `json:"message"`
	Tags     []string       `json:"tags,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	Limits   *Limits        `json:"limits,omitempty"`
	Sandbox  *Sandbox       `json:"sandbox,omitempty"`
	// Builtin names the built-in rule set the rule comes from.
	Builtin string `json:"builtin,omitempty"`
	Line    int    `json:"line,omitempty"`
}

// Observe reports whether the rule only records what it would do.
func (r *Rule) Observe(p *Policy) bool {
	if r.Mode != "" {
		return r.Mode == ModeObserve
	}
	return p.Mode == ModeObserve
}

// Limits are a session rule's limits; zero means no limit.
type Limits struct {
	MaxToolCalls    int            `json:"max_tool_calls,omitempty"`
	MaxAttempts     int            `json:"max_attempts,omitempty"`
	MaxCallsPerTool map[string]int `json:"max_calls_per_tool,omitempty"`
	// MaxConsecutiveFailures is a vouch/v1 extension.
	MaxConsecutiveFailures int `json:"max_consecutive_failures,omitempty"`
}

// Sandbox is a sandbox rule's boundary.
type Sandbox struct {
	Within     []string `json:"within,omitempty"`
	NotWithin  []string `json:"not_within,omitempty"`
	Commands   []string `json:"commands,omitempty"`
	Domains    []string `json:"domains,omitempty"`
	NotDomains []string `json:"not_domains,omitempty"`
}

// Cond is a when: condition: exactly one of All, Any, Not or a leaf
// (Selector, Op, Value).
type Cond struct {
	All      []*Cond `json:"all,omitempty"`
	Any      []*Cond `json:"any,omitempty"`
	Not      *Cond   `json:"not,omitempty"`
	Selector string  `json:"selector,omitempty"`
	Op       string  `json:"op,omitempty"`
	Value    any     `json:"value,omitempty"`
}

// Operators, as Edictum's schema lists them.
var operators = []string{"contains", "contains_any", "ends_with", "equals", "exists", "gt", "gte", "in", "lt", "lte", "matches", "matches_any", "not_equals", "not_in", "starts_with"}

// selectorRoots are the selector forms a leaf may use.
var selectorRoots = []string{"args.", "derived.", "env.", "environment", "metadata.", "output.text", "principal.", "result", "result.", "tool.name"}

// LoadPolicy parses and validates a policy file's bytes. Every problem is
// reported at once as a yamldoc.ErrorList with file:line:col positions.
func LoadPolicy(file string, data []byte) (pol *Policy, err error) {
	defer func() {
		if r := recover(); r != nil {
			pol, err = nil, yamldoc.ErrorList{{File: file, Msg: fmt.Sprintf("not valid YAML: %v", r)}}
		}
	}()
	sum := sha256.Sum256(data)
	pol = &Policy{File: file, SHA256: hex.EncodeToString(sum[:]), Mode: ModeEnforce}
	root, err := yamldoc.Decode(file, data, "guard policy")
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, yamldoc.ErrorList{{File: file, Msg: "the guard policy is empty; start from `vouch init --guard` or see docs/guard.md"}}
	}
	p := &loader{Parser: yamldoc.Parser{File: file}, pol: pol}
	p.top(root)
	if err := p.Err(); err != nil {
		return nil, err
	}
	pol.Prepare()
	return pol, nil
}

// LoadInlinePolicy parses and validates the policy written under
// guard.policy in a vouch.yaml file (data is the whole file), with every
// position in that file.
func LoadInlinePolicy(file string, data []byte) (pol *Policy, err error) {
	defer func() {
		if r := recover(); r != nil {
			pol, err = nil, yamldoc.ErrorList{{File: file, Msg: fmt.Sprintf("not valid YAML: %v", r)}}
		}
	}()
	sum := sha256.Sum256(data)
	pol = &Policy{File: file + config.InlinePolicy, SHA256: hex.EncodeToString(sum[:]), Mode: ModeEnforce}
	root, err := yamldoc.Decode(file, data, "vouch.yaml")
	if err != nil {
		return nil, err
	}
	n := mappingValue(mappingValue(root, "guard"), "policy")
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, yamldoc.ErrorList{{File: file, Msg: "guard.policy holds no policy; write the ruleset under it, or a path to a policy file"}}
	}
	p := &loader{Parser: yamldoc.Parser{File: file}, pol: pol}
	p.top(n)
	if err := p.Err(); err != nil {
		return nil, err
	}
	pol.Prepare()
	return pol, nil
}

// mappingValue is the value of key in mapping n, or nil.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	n = yamldoc.Deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return yamldoc.Deref(n.Content[i+1])
		}
	}
	return nil
}

type loader struct {
	yamldoc.Parser
	pol *Policy
	ext bool // vouch/v1: extensions allowed
}

var (
	edictumTop = []string{"apiVersion", "defaults", "kind", "metadata", "observability", "observe_alongside", "rules", "tools"}
	vouchTop   = []string{"apiVersion", "builtins", "defaults", "kind", "metadata", "observability", "observe_alongside", "rules", "strict", "tools"}
	idPattern  = lazyre.New(`^[a-z0-9][a-z0-9_-]*$`)
	namePat    = lazyre.New(`^[a-z0-9][a-z0-9._-]*$`)
)

func (p *loader) top(root *yaml.Node) {
	root = yamldoc.Deref(root)
	if root.Kind != yaml.MappingNode {
		p.Errorf(root, "a guard policy must be a mapping with apiVersion, kind and rules, found %s", yamldoc.KindName(root))
		return
	}
	// apiVersion decides which keys are known, so read it first.
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "apiVersion" {
			v := root.Content[i+1]
			s, ok := p.Str(v, "apiVersion")
			if !ok {
				return
			}
			switch s {
			case EdictumAPI:
			case VouchAPI:
				p.ext = true
			default:
				p.Errorf(v, "apiVersion must be %q or %q, found %q%s", VouchAPI, EdictumAPI, s, suggest.Hint(s, []string{VouchAPI, EdictumAPI}))
				return
			}
			p.pol.API = s
		}
	}
	if p.pol.API == "" {
		p.Errorf(root, "the guard policy has no apiVersion; add `apiVersion: %s` (or %s for an Edictum ruleset)", VouchAPI, EdictumAPI)
		return
	}
	known := edictumTop
	if p.ext {
		known = vouchTop
	}
	f := p.Fields(root, "the guard policy", known)
	if f == nil {
		return
	}
	if k, ok := f["kind"]; ok {
		if s, ok := p.Str(k, "kind"); ok && s != PolicyKind {
			p.Errorf(k, "kind must be %q, found %q", PolicyKind, s)
		}
	} else {
		p.Errorf(root, "the guard policy has no kind; add `kind: %s`", PolicyKind)
	}
	if m, ok := f["metadata"]; ok {
		mf := p.Fields(m, "metadata", []string{"description", "name"})
		if n, ok := mf["name"]; ok {
			if s, ok := p.Str(n, "metadata.name"); ok {
				if !namePat().MatchString(s) {
					p.Errorf(n, "metadata.name %q must be lowercase letters, digits, '.', '_' or '-', starting with a letter or digit", s)
				}
				p.pol.Name = s
			}
		} else if mf != nil {
			p.Errorf(m, "metadata has no name; add `name: my-policy`")
		}
		if d, ok := mf["description"]; ok {
			p.Str(d, "metadata.description")
		}
	} else if !p.ext {
		p.Errorf(root, "an %s ruleset needs metadata with a name", EdictumAPI)
	}
	if d, ok := f["defaults"]; ok {
		df := p.Fields(d, "defaults", []string{"mode"})
		if m, ok := df["mode"]; ok {
			p.pol.Mode = p.mode(m)
		} else if df != nil {
			p.Errorf(d, "defaults has no mode; add `mode: enforce` or `mode: observe`")
		}
	} else if !p.ext {
		p.Errorf(root, "an %s ruleset needs `defaults: {mode: enforce}` (or observe)", EdictumAPI)
	}
	if t, ok := f["tools"]; ok {
		p.tools(t)
	}
	if o, ok := f["observability"]; ok {
		// Accepted for compatibility; vouch writes its own audit log.
		if yamldoc.Deref(o).Kind != yaml.MappingNode {
			p.Errorf(o, "observability must be a mapping, found %s", yamldoc.KindName(o))
		}
	}
	if o, ok := f["observe_alongside"]; ok {
		if p.boolean(o, "observe_alongside") {
			p.warnf(o, "observe_alongside has no effect here: Edictum uses it when it composes several rulesets (the rules of such a layer run in observe mode next to the enforced ones), and vouch reads one policy file, whose rules it enforces as written; to observe rules, give them mode: observe")
		}
	}
	if b, ok := f["builtins"]; ok {
		// A set named twice is one mistake, said once where it repeats,
		// not one clash per rule of the set.
		seen := map[string]*yaml.Node{}
		for _, n := range p.strings(b, "builtins") {
			if !isBuiltin(n.Value) {
				p.Errorf(n, "unknown built-in rule set %q%s; choose from %s", n.Value, suggest.Hint(n.Value, BuiltinNames()), strings.Join(BuiltinNames(), ", "))
				continue
			}
			if first := seen[n.Value]; first != nil {
				p.Errorf(n, "built-in rule set %q is listed twice (first at line %d); list it once", n.Value, first.Line)
				continue
			}
			seen[n.Value] = n
			p.pol.Builtins = append(p.pol.Builtins, n.Value)
		}
	}
	if s, ok := f["strict"]; ok {
		p.pol.Strict = p.boolean(s, "strict")
	}
	rules, ok := f["rules"]
	if !ok {
		if !p.ext || len(p.pol.Builtins) == 0 {
			p.Errorf(root, "the guard policy has no rules; add a rules: list")
		}
	} else {
		p.rules(rules)
	}
	for _, r := range p.pol.Rules {
		if r.Kind == KindPost && (r.Action == ActRedact || r.Action == ActDeny) {
			// Edictum weakens these by the tool's side-effect class;
			// vouch does not (yet), so say where the answers differ.
			se := "not listed in tools:"
			for _, t := range r.Tools {
				if tool, ok := p.pol.Tools[t]; ok {
					se = tool.SideEffect
				}
			}
			if se != "pure" && se != "read" {
				p.pol.Warnings = append(p.pol.Warnings, fmt.Sprintf("%s:%d:1: post rule %q: tools: side-effect classes are not applied: Edictum turns a post %s into a warning for a tool whose side_effect is not pure or read (here %s), vouch applies it to every matching tool", p.File, r.Line, r.ID, map[string]string{ActRedact: "redact", ActDeny: "block"}[r.Action], se))
			}
		}
	}
	for _, name := range p.pol.Builtins {
		rules, err := builtinRules(name)
		if err != nil {
			p.Errorf(root, "built-in rule set %s: %v", name, err)
			continue
		}
		for _, r := range rules {
			if p.pol.Strict && r.Action == ActAsk {
				// strict: what a built-in set would ask about
				// (a command only known at run time) is refused.
				r.Action = ActDeny
			}
			for _, own := range p.pol.Rules {
				if own.ID == r.ID {
					p.Errorf(root, "rule id %q (line %d) is also a rule of the built-in set %s; rename it", r.ID, own.Line, name)
				}
			}
			p.pol.Rules = append(p.pol.Rules, r)
		}
	}
	if p.ext {
		// A command too long to analyse whole is not malformed, but its
		// unanalysed part could hold anything: a person decides.
		long := ActAsk
		if p.pol.Strict {
			long = ActDeny
		}
		p.pol.Rules = append(p.pol.Rules, Rule{ID: TruncatedShellRule, Kind: KindPre, Enabled: true, Tools: []string{"*"}, Action: long,
			When:    &Cond{Selector: "derived.shell_truncated", Op: "exists", Value: true},
			Message: "the shell command or tool input is too large for vouch to analyse whole, so it cannot tell what the rest does: {derived.shell_truncated}"})
		// A shell command that does not parse cannot be checked: bash
		// may still run it (its grammar is wider than the parser's), so
		// strict policies deny it and others ask.
		act := ActAsk
		if p.pol.Strict {
			act = ActDeny
		}
		p.pol.Rules = append(p.pol.Rules, Rule{ID: UnparsedShellRule, Kind: KindPre, Enabled: true, Tools: []string{"*"}, Action: act,
			When:    &Cond{Selector: "derived.shell_error", Op: "exists", Value: true},
			Message: "the shell command (or patch) does not parse, so vouch cannot tell what it does: {derived.shell_error}"})
	}
}

func (p *loader) mode(n *yaml.Node) string {
	s, ok := p.Str(n, "mode")
	if !ok {
		return ""
	}
	if s != ModeEnforce && s != ModeObserve {
		p.Errorf(n, "mode must be enforce or observe, found %q%s", s, suggest.Hint(s, []string{ModeEnforce, ModeObserve}))
		return ""
	}
	return s
}

func (p *loader) boolean(n *yaml.Node, what string) bool {
	n = yamldoc.Deref(n)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		p.Errorf(n, "%s must be true or false, found %s", what, yamldoc.KindName(n))
		return false
	}
	return n.Value == "true"
}

// strings reads a list of non-empty strings.
func (p *loader) strings(n *yaml.Node, what string) []*yaml.Node {
	n = yamldoc.Deref(n)
	if n.Kind != yaml.SequenceNode {
		p.Errorf(n, "%s must be a list, found %s", what, yamldoc.KindName(n))
		return nil
	}
	if len(n.Content) == 0 {
		p.Errorf(n, "%s is empty; list at least one entry or remove it", what)
	}
	var out []*yaml.Node
	for _, item := range n.Content {
		item = yamldoc.Deref(item)
		if s, ok := p.Str(item, what+" entries"); ok {
			if s == "" {
				p.Errorf(item, "%s entries must not be empty", what)
				continue
			}
			out = append(out, item)
		}
	}
	return out
}

func values(nodes []*yaml.Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Value
	}
	return out
}

func (p *loader) tools(n *yaml.Node) {
	n = yamldoc.Deref(n)
	if n.Kind != yaml.MappingNode {
		p.Errorf(n, "tools must be a mapping of tool names to {side_effect: ...}, found %s", yamldoc.KindName(n))
		return
	}
	p.pol.Tools = map[string]Tool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name := n.Content[i].Value
		f := p.Fields(n.Content[i+1], "tools."+name, []string{"idempotent", "side_effect"})
		if f == nil {
			continue
		}
		var t Tool
		if se, ok := f["side_effect"]; ok {
			if s, ok := p.Str(se, "side_effect"); ok {
				classes := []string{"irreversible", "pure", "read", "write"}
				if !yamldoc.Contains(classes, s) {
					p.Errorf(se, "side_effect must be one of %s, found %q%s", strings.Join(classes, ", "), s, suggest.Hint(s, classes))
				}
				t.SideEffect = s
			}
		} else {
			p.Errorf(n.Content[i+1], "tools.%s has no side_effect", name)
		}
		if id, ok := f["idempotent"]; ok {
			t.Idempotent = p.boolean(id, "idempotent")
		}
		p.pol.Tools[name] = t
	}
}

var ruleKeys = map[string][]string{
	KindPre:     {"enabled", "id", "mode", "then", "tool", "type", "when"},
	KindPost:    {"enabled", "id", "mode", "then", "tool", "type", "when"},
	KindSession: {"enabled", "id", "limits", "mode", "then", "type"},
	KindSandbox: {"allows", "enabled", "id", "message", "mode", "not_allows", "not_within", "outside", "timeout", "timeout_action", "timeout_effect", "tool", "tools", "type", "within"},
}

// vouch/v1 lets pre and post rules name several tools.
var extRuleKeys = map[string][]string{
	KindPre:  {"enabled", "id", "mode", "then", "tool", "tools", "type", "when"},
	KindPost: {"enabled", "id", "mode", "then", "tool", "tools", "type", "when"},
}

var kinds = []string{KindPost, KindPre, KindSandbox, KindSession}

func (p *loader) rules(n *yaml.Node) {
	n = yamldoc.Deref(n)
	if n.Kind != yaml.SequenceNode {
		p.Errorf(n, "rules must be a list, found %s", yamldoc.KindName(n))
		return
	}
	if len(n.Content) == 0 && (!p.ext || len(p.pol.Builtins) == 0) {
		p.Errorf(n, "rules is empty; add at least one rule")
	}
	seen := map[string]int{}
	for _, rn := range n.Content {
		rn = yamldoc.Deref(rn)
		if rn.Kind != yaml.MappingNode {
			p.Errorf(rn, "each rule must be a mapping, found %s", yamldoc.KindName(rn))
			continue
		}
		var kind string
		var kindNode *yaml.Node
		for i := 0; i+1 < len(rn.Content); i += 2 {
			if rn.Content[i].Value == "type" {
				kindNode = rn.Content[i+1]
			}
		}
		if kindNode == nil {
			p.Errorf(rn, "rule has no type; add `type: pre` (or post, session, sandbox)")
			continue
		}
		if s, ok := p.Str(kindNode, "type"); ok {
			if !yamldoc.Contains(kinds, s) {
				p.Errorf(kindNode, "rule type must be one of %s, found %q%s", strings.Join(kinds, ", "), s, suggest.Hint(s, kinds))
				continue
			}
			kind = s
		} else {
			continue
		}
		known := ruleKeys[kind]
		if p.ext && extRuleKeys[kind] != nil {
			known = extRuleKeys[kind]
		}
		f := p.Fields(rn, kind+" rule", known)
		if f == nil {
			continue
		}
		r := Rule{Kind: kind, Enabled: true, Line: rn.Line}
		if idn, ok := f["id"]; ok {
			if s, ok := p.Str(idn, "id"); ok {
				if !idPattern().MatchString(s) {
					p.Errorf(idn, "rule id %q must be lowercase letters, digits, '_' or '-', starting with a letter or digit", s)
				}
				if first, dup := seen[s]; dup {
					p.Errorf(idn, "duplicate rule id %q (first at line %d); rule ids must be unique", s, first)
				}
				seen[s] = idn.Line
				r.ID = s
			}
		} else {
			p.Errorf(rn, "rule has no id; add `id: my-rule`")
		}
		if e, ok := f["enabled"]; ok {
			r.Enabled = p.boolean(e, "enabled")
		}
		if m, ok := f["mode"]; ok {
			r.Mode = p.mode(m)
		}
		switch kind {
		case KindPre, KindPost:
			p.callRule(&r, rn, f)
		case KindSession:
			p.sessionRule(&r, rn, f)
		case KindSandbox:
			p.sandboxRule(&r, rn, f)
		}
		p.pol.Rules = append(p.pol.Rules, r)
	}
}

func (p *loader) toolSelectors(r *Rule, rn *yaml.Node, f map[string]*yaml.Node, required bool) {
	t, hasTool := f["tool"]
	ts, hasTools := f["tools"]
	switch {
	case hasTool && hasTools:
		p.Errorf(ts, "a rule takes tool or tools, not both")
	case hasTool:
		if s, ok := p.Str(t, "tool"); ok {
			if s == "" {
				p.Errorf(t, "tool must not be empty; use \"*\" for every tool")
			}
			r.Tools = []string{s}
		}
	case hasTools:
		r.Tools = values(p.strings(ts, "tools"))
	case required:
		p.Errorf(rn, "%s rule %q has no tool; add `tool: Bash` (or \"*\" for every tool)", r.Kind, r.ID)
	default:
		r.Tools = []string{"*"}
	}
}

func (p *loader) callRule(r *Rule, rn *yaml.Node, f map[string]*yaml.Node) {
	p.toolSelectors(r, rn, f, true)
	if w, ok := f["when"]; ok {
		r.When = p.cond(w, 0)
	} else {
		p.Errorf(rn, "%s rule %q has no when; add a condition such as `when: {args.command: {contains: \"rm -rf\"}}`", r.Kind, r.ID)
	}
	actions := map[string]map[string]string{
		KindPre:  {"block": ActDeny, "ask": ActAsk},
		KindPost: {"warn": ActWarn, "redact": ActRedact, "block": ActDeny},
	}[r.Kind]
	if p.ext {
		actions = copyMap(actions)
		actions["deny"] = ActDeny
		if r.Kind == KindPre {
			actions["warn"] = ActWarn
		}
	}
	p.then(r, rn, f, actions)
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m)+2)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (p *loader) then(r *Rule, rn *yaml.Node, f map[string]*yaml.Node, actions map[string]string) {
	t, ok := f["then"]
	if !ok {
		p.Errorf(rn, "rule %q has no then; add `then: {action: block, message: \"...\"}`", r.ID)
		return
	}
	keys := []string{"action", "message", "metadata", "tags"}
	if r.Kind == KindPre {
		keys = []string{"action", "message", "metadata", "tags", "timeout", "timeout_action", "timeout_effect"}
	}
	tf := p.Fields(t, "then", keys)
	if tf == nil {
		return
	}
	names := make([]string, 0, len(actions))
	for k := range actions {
		names = append(names, k)
	}
	sort.Strings(names)
	if a, ok := tf["action"]; ok {
		if s, ok := p.Str(a, "action"); ok {
			act, known := actions[s]
			if !known {
				p.Errorf(a, "a %s rule's action must be one of %s, found %q%s", r.Kind, strings.Join(names, ", "), s, suggest.Hint(s, names))
			}
			r.Action = act
		}
	} else {
		p.Errorf(t, "then has no action; add `action: %s`", names[0])
	}
	if m, ok := tf["message"]; ok {
		r.Message = p.message(m)
	} else {
		p.Errorf(t, "then has no message; say why the rule fires")
	}
	if tg, ok := tf["tags"]; ok {
		if len(yamldoc.Deref(tg).Content) > 0 {
			r.Tags = values(p.strings(tg, "tags"))
		}
	}
	if md, ok := tf["metadata"]; ok {
		r.Metadata = p.anyMap(md, "metadata")
	}
	if to, ok := tf["timeout"]; ok {
		p.positive(to, "timeout")
		p.warnf(to, "rule %q: the approval timeout is not applied: vouch answers ask and the harness's own prompt waits for the user (no hook protocol carries a timeout)", r.ID)
	}
	p.timeoutAction(tf, "rule", r.ID)
}

// timeoutAction reads what happens when nobody answers an approval:
// timeout_action, or timeout_effect, the name Edictum's schema and
// shared fixtures use for it.
func (p *loader) timeoutAction(f map[string]*yaml.Node, what, id string) {
	for _, key := range []string{"timeout_action", "timeout_effect"} {
		ta, ok := f[key]
		if !ok {
			continue
		}
		if s, ok := p.Str(ta, key); ok && s != "block" && s != "allow" {
			p.Errorf(ta, "%s must be block or allow, found %q", key, s)
		} else if ok {
			p.warnf(ta, "%s %q: %s %s is not applied: the harness's prompt decides when nobody answers", what, id, key, s)
		}
	}
}

// warnf records a key vouch reads but does not apply as Edictum does.
func (p *loader) warnf(n *yaml.Node, format string, args ...any) {
	n = yamldoc.Deref(n)
	p.pol.Warnings = append(p.pol.Warnings, fmt.Sprintf("%s:%d:%d: %s", p.File, n.Line, n.Column, fmt.Sprintf(format, args...)))
}

func (p *loader) message(n *yaml.Node) string {
	s, ok := p.Str(n, "message")
	if !ok {
		return ""
	}
	if s == "" || len(s) > MaxMessageLen {
		p.Errorf(n, "message must be 1 to %d characters, found %d", MaxMessageLen, len(s))
	}
	return s
}

func (p *loader) anyMap(n *yaml.Node, what string) map[string]any {
	n = yamldoc.Deref(n)
	if n.Kind != yaml.MappingNode {
		p.Errorf(n, "%s must be a mapping, found %s", what, yamldoc.KindName(n))
		return nil
	}
	var m map[string]any
	if err := n.Decode(&m); err != nil {
		p.Errorf(n, "%s: %v", what, err)
		return nil
	}
	return normalize(m).(map[string]any)
}

// normalize turns YAML-decoded values into the JSON shapes events use, so
// an operand and a call's value compare alike.
func normalize(v any) any {
	switch t := v.(type) {
	case int:
		return float64(t)
	case int64:
		return float64(t)
	case uint64:
		return float64(t)
	case map[string]any:
		for k, x := range t {
			t[k] = normalize(x)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = normalize(x)
		}
		return t
	}
	return v
}

func (p *loader) positive(n *yaml.Node, what string) int {
	n = yamldoc.Deref(n)
	var v int64
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil || v < 1 || v > math.MaxInt32 {
		p.Errorf(n, "%s must be a whole number of at least 1, found %s", what, yamldoc.KindName(n))
		return 0
	}
	return int(v)
}

func (p *loader) sessionRule(r *Rule, rn *yaml.Node, f map[string]*yaml.Node) {
	r.Tools = []string{"*"}
	keys := []string{"max_attempts", "max_calls_per_tool", "max_tool_calls"}
	if p.ext {
		keys = []string{"max_attempts", "max_calls_per_tool", "max_consecutive_failures", "max_tool_calls"}
	}
	l, ok := f["limits"]
	if !ok {
		p.Errorf(rn, "session rule %q has no limits; add `limits: {max_tool_calls: 100}`", r.ID)
	} else if lf := p.Fields(l, "limits", keys); lf != nil {
		r.Limits = &Limits{}
		for k, v := range lf {
			switch k {
			case "max_attempts":
				r.Limits.MaxAttempts = p.positive(v, k)
			case "max_tool_calls":
				r.Limits.MaxToolCalls = p.positive(v, k)
			case "max_consecutive_failures":
				r.Limits.MaxConsecutiveFailures = p.positive(v, k)
			case "max_calls_per_tool":
				v = yamldoc.Deref(v)
				if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
					p.Errorf(v, "max_calls_per_tool must be a non-empty mapping of tool names to limits, found %s", yamldoc.KindName(v))
					continue
				}
				r.Limits.MaxCallsPerTool = map[string]int{}
				for i := 0; i+1 < len(v.Content); i += 2 {
					r.Limits.MaxCallsPerTool[v.Content[i].Value] = p.positive(v.Content[i+1], "max_calls_per_tool."+v.Content[i].Value)
				}
			}
		}
		if len(lf) == 0 {
			p.Errorf(l, "limits is empty; set max_tool_calls, max_attempts or max_calls_per_tool")
		}
	}
	p.then(r, rn, f, map[string]string{"block": ActDeny})
}

func (p *loader) sandboxRule(r *Rule, rn *yaml.Node, f map[string]*yaml.Node) {
	p.toolSelectors(r, rn, f, false)
	if _, t := f["tool"]; !t {
		if _, ts := f["tools"]; !ts {
			p.Errorf(rn, "sandbox rule %q needs tool or tools", r.ID)
		}
	}
	sb := &Sandbox{}
	r.Sandbox = sb
	if w, ok := f["within"]; ok {
		sb.Within = values(p.strings(w, "within"))
	}
	if w, ok := f["not_within"]; ok {
		sb.NotWithin = values(p.strings(w, "not_within"))
	}
	if a, ok := f["allows"]; ok {
		af := p.Fields(a, "allows", []string{"commands", "domains"})
		if c, ok := af["commands"]; ok {
			sb.Commands = values(p.strings(c, "allows.commands"))
		}
		if d, ok := af["domains"]; ok {
			sb.Domains = values(p.strings(d, "allows.domains"))
		}
	}
	if a, ok := f["not_allows"]; ok {
		af := p.Fields(a, "not_allows", []string{"domains"})
		if d, ok := af["domains"]; ok {
			sb.NotDomains = values(p.strings(d, "not_allows.domains"))
		}
	}
	_, hasWithin := f["within"]
	_, hasAllows := f["allows"]
	if !hasWithin && !hasAllows {
		p.Errorf(rn, "sandbox rule %q needs within or allows", r.ID)
	}
	r.Action = ActDeny
	if o, ok := f["outside"]; ok {
		if s, ok := p.Str(o, "outside"); ok {
			switch s {
			case "block":
			case "ask", "approve":
				// approve is Edictum's earlier name for ask, still used
				// by its shared fixtures.
				r.Action = ActAsk
			default:
				p.Errorf(o, "outside must be block or ask, found %q%s", s, suggest.Hint(s, []string{"block", "ask"}))
			}
		}
	}
	if m, ok := f["message"]; ok {
		r.Message = p.message(m)
	} else {
		p.Errorf(rn, "sandbox rule %q has no message", r.ID)
	}
	if to, ok := f["timeout"]; ok {
		p.positive(to, "timeout")
		p.warnf(to, "sandbox rule %q: the approval timeout is not applied: vouch answers ask and the harness's own prompt waits for the user", r.ID)
	}
	p.timeoutAction(f, "sandbox rule", r.ID)
}

// maxCondDepth bounds nesting of all/any/not.
const maxCondDepth = 32

func (p *loader) cond(n *yaml.Node, depth int) *Cond {
	n = yamldoc.Deref(n)
	if depth > maxCondDepth {
		p.Errorf(n, "condition nests deeper than %d levels", maxCondDepth)
		return nil
	}
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		p.Errorf(n, "a condition must be a mapping with exactly one key (all, any, not, or a selector such as args.command), found %s", describeMap(n))
		return nil
	}
	k, v := n.Content[0], yamldoc.Deref(n.Content[1])
	switch k.Value {
	case "all", "any":
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			p.Errorf(v, "%s must be a non-empty list of conditions, found %s", k.Value, yamldoc.KindName(v))
			return nil
		}
		c := &Cond{}
		for _, item := range v.Content {
			sub := p.cond(item, depth+1)
			if k.Value == "all" {
				c.All = append(c.All, sub)
			} else {
				c.Any = append(c.Any, sub)
			}
		}
		return c
	case "not":
		return &Cond{Not: p.cond(v, depth+1)}
	}
	sel := k.Value
	if strings.HasPrefix(sel, "derived.") {
		if !p.ext {
			p.Errorf(k, "selector %s is a vouch extension; set apiVersion: %s to use derived facts", sel, VouchAPI)
			return nil
		}
		if name := sel[len("derived."):]; !yamldoc.Contains(derivedNames, name) {
			p.Errorf(k, "unknown derived selector %q%s; derived selectors are %s", sel, suggest.Hint(name, derivedNames), strings.Join(derivedNames, ", "))
			return nil
		}
	} else if !validSelector(sel) {
		p.Errorf(k, "unknown selector %q%s; selectors are tool.name, args.<field>, output.text, result.<field>, principal.<field>, env.<NAME>, metadata.<field>", sel, selectorHint(sel))
		return nil
	}
	if v.Kind != yaml.MappingNode || len(v.Content) != 2 {
		p.Errorf(v, "selector %s needs exactly one operator such as {equals: ...}, found %s", sel, describeMap(v))
		return nil
	}
	opn, val := v.Content[0], yamldoc.Deref(v.Content[1])
	op := opn.Value
	if !yamldoc.Contains(operators, op) {
		p.Errorf(opn, "unknown operator %q%s; operators are %s", op, suggest.Hint(op, operators), strings.Join(operators, ", "))
		return nil
	}
	c := &Cond{Selector: sel, Op: op}
	var raw any
	if err := val.Decode(&raw); err != nil {
		p.Errorf(val, "operand of %s: %v", op, err)
		return nil
	}
	raw = normalize(raw)
	c.Value = raw
	bad := func(want string) *Cond {
		p.Errorf(val, "%s needs %s, found %s", op, want, yamldoc.KindName(val))
		return nil
	}
	switch op {
	case "exists":
		if _, ok := raw.(bool); !ok {
			return bad("true or false")
		}
	case "equals", "not_equals":
		if val.Kind != yaml.ScalarNode {
			return bad("a single value")
		}
	case "in", "not_in":
		if l, ok := raw.([]any); !ok || len(l) == 0 {
			return bad("a non-empty list")
		}
	case "contains", "starts_with", "ends_with":
		if _, ok := raw.(string); !ok || val.Tag != "!!str" {
			return bad("a string")
		}
	case "contains_any":
		l, ok := raw.([]any)
		if !ok || len(l) == 0 {
			return bad("a non-empty list of strings")
		}
		for _, x := range l {
			if _, ok := x.(string); !ok {
				return bad("a non-empty list of strings")
			}
		}
	case "matches":
		s, ok := raw.(string)
		if !ok || s == "" {
			return bad("a regular expression")
		}
		if _, err := regexp.Compile(s); err != nil {
			p.Errorf(val, "matches: invalid regular expression: %v", err)
			return nil
		}
	case "matches_any":
		l, ok := raw.([]any)
		if !ok || len(l) == 0 {
			return bad("a non-empty list of regular expressions")
		}
		for i, x := range l {
			s, ok := x.(string)
			if !ok || s == "" {
				return bad("a non-empty list of regular expressions")
			}
			if _, err := regexp.Compile(s); err != nil {
				p.Errorf(val.Content[i], "matches_any: invalid regular expression: %v", err)
				return nil
			}
		}
	case "gt", "gte", "lt", "lte":
		if _, ok := raw.(float64); !ok {
			if _, isF := raw.(float64); !isF {
				return bad("a number")
			}
		}
	}
	return c
}

func describeMap(n *yaml.Node) string {
	if n.Kind == yaml.MappingNode {
		return fmt.Sprintf("a mapping with %d keys", len(n.Content)/2)
	}
	return yamldoc.KindName(n)
}

func validSelector(s string) bool {
	if strings.HasPrefix(s, "derived.") {
		return yamldoc.Contains(derivedNames, s[len("derived."):])
	}
	switch s {
	case "tool.name", "output.text", "environment", "result":
		return true
	}
	for _, pre := range []string{"args.", "env.", "metadata.", "principal.", "result."} {
		if strings.HasPrefix(s, pre) && len(s) > len(pre) {
			return true
		}
	}
	return false
}

func selectorHint(s string) string {
	root := s
	if i := strings.IndexByte(s, '.'); i >= 0 {
		root = s[:i+1]
	}
	return suggest.Hint(root, selectorRoots)
}
