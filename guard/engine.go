package guard

import (
	_ "embed"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/google/mangle/ast"
	"github.com/google/mangle/factstore"
)

//go:generate go run github.com/vouch-dev/vouch/internal/dlgen -pkg guard -func guard -o guard_gen.go guard.dl
//go:generate go run github.com/vouch-dev/vouch/internal/dlgen -pkg guard -func conditions -o conditions_gen.go conditions.dl

// Program is the fixed guard program: the semantics every policy shares.
// A policy's rules and the call are facts for it.
//
//go:embed guard.dl
var Program string

// Engine evaluates calls against policies. It parses the fixed program
// once, so a process that decides many calls (tests, replay) pays for
// parsing once.
type Engine struct {
	terms terms
	guard *fixedProgram
	// conds is built on first use: only all/any/not trees need it, and
	// building it was a sixth of a hook process's start-up.
	conds func() *fixedProgram
}

// NewEngine prepares the fixed guard programs. Their parsed units and
// analyses are generated Go code (guard_gen.go, conditions_gen.go, from
// internal/dlgen; a test proves them current), so no call parses or
// analyses datalog text.
func NewEngine() (*Engine, error) {
	return &Engine{
		terms: newTerms(),
		guard: fromAnalysis(guardAnalysis()),
		conds: sync.OnceValue(func() *fixedProgram { return fromAnalysis(conditionsAnalysis()) }),
	}, nil
}

// Counters are a session's counts before the call being decided.
type Counters struct {
	// Attempts counts every pre-call decision, denied ones included.
	Attempts int `json:"attempts"`
	// Execs counts calls that ran (post events).
	Execs int `json:"execs"`
	// ToolCalls counts runs of the called tool.
	ToolCalls int `json:"tool_calls"`
	// ConsecutiveFailures counts failed runs since the last success.
	ConsecutiveFailures int `json:"consecutive_failures"`
}

// Finding is one rule that fired.
type Finding struct {
	Rule     string         `json:"rule"`
	Action   string         `json:"action"`
	Message  string         `json:"message"`
	Tags     []string       `json:"tags"`
	Metadata map[string]any `json:"metadata"`
	Observed bool           `json:"observed"`
}

// Decision is vouch's answer for one call: the document `vouch guard
// check` prints.
type Decision struct {
	Decision       string    `json:"decision"`
	Findings       []Finding `json:"findings"`
	RedactedOutput any       `json:"redacted_output,omitempty"`
}

// Rule is the id of the finding that decided a deny or ask, or "".
func (d *Decision) Rule() string {
	if f := d.decider(); f != nil {
		return f.Rule
	}
	return ""
}

func (d *Decision) decider() *Finding {
	if d.Decision == Allow {
		return nil
	}
	// The first finding whose action is the decision: a deny's reason is
	// a deny's message, also when an ask fired before it. Failing that
	// (strict turns asks into a deny), the first deny or ask.
	var first *Finding
	for i := range d.Findings {
		f := &d.Findings[i]
		if f.Observed || (f.Action != ActDeny && f.Action != ActAsk) {
			continue
		}
		if f.Action == d.Decision {
			return f
		}
		if first == nil {
			first = f
		}
	}
	return first
}

// Reason is the text a harness shows for a deny or ask.
func (d *Decision) Reason() string {
	f := d.decider()
	if f == nil {
		return ""
	}
	return "vouch guard: " + f.Message + " (rule " + f.Rule + ")"
}

// warnings joins the messages of enforced warn findings.
func (d *Decision) warnings() string {
	var w []string
	for _, f := range d.Findings {
		if !f.Observed && (f.Action == ActWarn || f.Action == ActRedact) {
			w = append(w, "vouch guard warning: "+f.Message+" (rule "+f.Rule+")")
		}
	}
	return strings.Join(w, "\n")
}

// ErrorDecision is the deny given when no evaluation could happen: a
// policy that does not load, an event that does not parse, an engine
// failure or a deadline. Failing closed is the only safe answer.
func ErrorDecision(err error) *Decision {
	return &Decision{Decision: Deny, Findings: []Finding{{
		Rule: "vouch-guard-error", Action: ActDeny, Message: firstLine(err.Error()),
		Tags: []string{}, Metadata: map[string]any{"policy_error": true},
	}}}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		more := strings.Count(s, "\n")
		return fmt.Sprintf("%s (and %d more problems)", s[:i], more)
	}
	return s
}

// Evaluation is one decision's input facts, for --trace.
type Evaluation struct {
	// TreeFacts are the conditions program's input facts; Facts the
	// guard program's (val facts from the conditions program included).
	TreeFacts []ast.Atom
	Facts     []ast.Atom
}

// Evaluation order bands: attempt limits first (a stuck agent is stopped
// before anything else), then pre rules, sandboxes, and the other session
// limits, as Edictum's pipeline orders them.
const (
	bandAttempts = 0
	bandRules    = 100_000
	bandSandbox  = 200_000
	bandSession  = 300_000
)

// Decide evaluates one call against a policy.
func (e *Engine) Decide(p *Policy, call *Call, counters Counters, env Env, derived *CallFacts) (*Decision, *Evaluation, error) {
	b := e.builder(p, derived)
	b.build(p, call, counters, env, derived)
	facts := b.facts
	if b.composite > 0 {
		// Only all/any/not trees need the conditions program; a policy
		// of single-operator conditions skips it.
		vals, err := e.conds().values(b.tree, b.composite)
		if err != nil {
			return nil, nil, err
		}
		facts = append(facts, vals...)
	}
	store, err := e.guard.run(facts, false)
	if err != nil {
		return nil, nil, err
	}
	ev := &Evaluation{TreeFacts: b.tree, Facts: facts}
	d, err := read(store, p, call, env, derived, b.rc)
	if err != nil {
		return nil, ev, err
	}
	return d, ev, nil
}

type factBuilder struct {
	terms   *terms
	derived *CallFacts
	facts   []ast.Atom
	tree    []ast.Atom
	// composite counts all/any/not nodes.
	composite int
	next      int64
	rc        *regexCache
}

// builder starts the facts of one decision with policy p.
func (e *Engine) builder(p *Policy, derived *CallFacts) *factBuilder {
	// Room for the facts a decision usually has (about eight per
	// applying rule, one per path, command and host) in one allocation
	// instead of a slice grown eight times; a large policy, most of
	// whose rules are for other tools, grows it as needed.
	n := 2 + 8*min(len(p.Rules), 24)
	if derived != nil {
		n += len(derived.Paths) + len(derived.Commands) + len(derived.Domains)
	}
	return &factBuilder{rc: &regexCache{shared: p.regexps}, derived: derived, terms: &e.terms, facts: make([]ast.Atom, 0, n)}
}

func (b *factBuilder) add(pred string, args ...ast.BaseTerm) {
	b.facts = append(b.facts, ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args})
}

// addTree records a fact for the conditions program.
func (b *factBuilder) addTree(pred string, args ...ast.BaseTerm) {
	b.tree = append(b.tree, ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args})
}

func mname(n string) ast.Constant {
	c, err := ast.Name(n)
	if err != nil {
		panic(fmt.Sprintf("guard: bad Mangle name %q", n))
	}
	return c
}

func (b *factBuilder) build(p *Policy, call *Call, cnt Counters, env Env, derived *CallFacts) {
	b.add("phase", b.terms.phase(call.Phase))
	b.add("call_tool", ast.String(call.Tool))
	if derived != nil {
		for _, pth := range derived.Paths {
			b.add("call_path", ast.String(pth))
		}
		for _, c := range derived.Commands {
			b.add("call_command", ast.String(c))
		}
		for _, h := range derived.Domains {
			b.add("call_domain", ast.String(h))
		}
	}
	prepared := p.prepared
	if len(prepared) != len(p.Rules) {
		// A policy built by hand, or changed after Prepare.
		prepared = prepareRules(p)
	}
	for i, r := range p.Rules {
		if !selects(r.Tools, call.Tool) {
			// A rule none of whose selectors matches the tool cannot
			// apply (applies/1 needs rule_selects_tool), so its
			// condition is neither evaluated nor sent: a Bash call
			// skips every Write rule's regexes and facts.
			continue
		}
		pr := &prepared[i]
		id := pr.id
		// rule_disabled, rule_mode, rule_action, rule_selects_tool and
		// rule, which do not depend on the call.
		b.facts = append(b.facts, pr.facts...)
		switch r.Kind {
		case KindPre, KindPost:
			if pr.when != nil {
				b.add("rule_when", id, b.terms.number(b.node(pr.when, call, env)))
			}
		case KindSandbox:
			b.sandbox(id, r.Sandbox, derived)
		case KindSession:
			// Each limit carries the count it caps, so the program
			// compares them without joining a counter relation (a
			// premise less per limit; the engine pays per binding).
			// A per-tool limit is sent for the called tool only, the
			// one whose runs ToolCalls counts.
			if l := r.Limits; l != nil {
				limit := func(n, max, order int) {
					b.add("limit", id, b.terms.number(int64(n)), b.terms.number(int64(max)), ast.Number(int64(order)))
				}
				if l.MaxAttempts > 0 {
					limit(cnt.Attempts, l.MaxAttempts, bandAttempts+i)
				}
				if l.MaxToolCalls > 0 {
					limit(cnt.Execs, l.MaxToolCalls, bandSession+i)
				}
				if l.MaxConsecutiveFailures > 0 {
					limit(cnt.ConsecutiveFailures, l.MaxConsecutiveFailures, bandSession+i)
				}
				if max, ok := l.MaxCallsPerTool[call.Tool]; ok {
					limit(cnt.ToolCalls, max, bandSession+i)
				}
			}
		}
	}
}

func (b *factBuilder) sandbox(id ast.BaseTerm, sb *Sandbox, derived *CallFacts) {
	if sb == nil {
		return
	}
	var paths, hosts []string
	if derived != nil {
		paths, hosts = derived.Paths, derived.Domains
	}
	dirs := func(pred string, list []string) {
		for _, d := range list {
			cd := canonicalDir(d, derived)
			b.add(pred, id, ast.String(cd))
			for _, pth := range paths {
				if within(pth, cd) {
					b.add("path_under", ast.String(pth), ast.String(cd))
				}
			}
		}
	}
	dirs("sandbox_within", sb.Within)
	dirs("sandbox_not_within", sb.NotWithin)
	if len(sb.Commands) > 0 {
		b.add("sandbox_commands", id)
		for _, c := range sb.Commands {
			b.add("sandbox_command", id, ast.String(c))
		}
	}
	if len(sb.Domains) > 0 {
		b.add("sandbox_domains", id)
	}
	for _, h := range hosts {
		if globAny(sb.Domains, h) {
			b.add("domain_allowed", id, ast.String(h))
		}
		if globAny(sb.NotDomains, h) {
			b.add("domain_blocked", id, ast.String(h))
		}
	}
}

func globAny(patterns []string, s string) bool {
	for _, p := range patterns {
		if ok, err := path.Match(p, s); err == nil && ok {
			return true
		}
	}
	return false
}

// selects reports whether any tool selector matches the tool: "*", an
// exact name, or a glob such as mcp__github__* or Bash* (toolGlob: a star
// crosses slashes, as in Edictum).
func selects(selectors []string, tool string) bool {
	for _, s := range selectors {
		if s == "*" || s == tool {
			return true
		}
		// A selector without a wildcard matches its own name only.
		if strings.ContainsAny(s, "*?[") && toolGlob(s, tool) {
			return true
		}
	}
	return false
}

// ncond is a condition with not rewritten away: an all, an any, or a
// leaf whose result is negated when neg is set.
type ncond struct {
	op   string // "all", "any" or "leaf"
	kids []*ncond
	leaf *Cond
	neg  bool
}

// normal rewrites c without not (De Morgan: not all = any of nots, and the
// reverse; a not on a leaf negates its result, an error staying an error)
// and splices an all into an enclosing all (any into any). Both keep
// Edictum's left-to-right short-circuit and error propagation exactly.
func normal(c *Cond, neg bool) *ncond {
	switch {
	case c.Not != nil:
		return normal(c.Not, !neg)
	case c.All != nil || c.Any != nil:
		op, kids := "all", c.All
		if c.Any != nil {
			op, kids = "any", c.Any
		}
		if neg {
			op = map[string]string{"all": "any", "any": "all"}[op]
		}
		n := &ncond{op: op}
		for _, k := range kids {
			nk := normal(k, neg)
			if nk.op == op {
				n.kids = append(n.kids, nk.kids...)
			} else {
				n.kids = append(n.kids, nk)
			}
		}
		return n
	}
	return &ncond{op: "leaf", leaf: c, neg: neg}
}

func (n *ncond) flat() bool {
	for _, k := range n.kids {
		if k.op != "leaf" {
			return false
		}
	}
	return true
}

// node records a rule's condition, in normal form, and returns its root
// node's number. A leaf or a flat all/any is decided by guard.dl alone;
// deeper trees go to the conditions program.
func (b *factBuilder) node(n *ncond, call *Call, env Env) int64 {
	if n.op == "leaf" || n.flat() {
		return b.flatNode(n, call, env)
	}
	return b.treeNode(n, call, env)
}

func (b *factBuilder) leafValue(n *ncond, call *Call, env Env) ast.BaseTerm {
	r := evalLeaf(n.leaf, call, env, b.derived, b.rc)
	if n.neg && r != leafError {
		r = truth(r == leafFalse)
	}
	return b.terms.leaf[r]
}

func (b *factBuilder) flatNode(n *ncond, call *Call, env Env) int64 {
	b.next++
	id := b.terms.number(b.next)
	if n.op == "leaf" {
		b.add("leaf_value", id, b.leafValue(n, call, env))
		return b.next
	}
	op := b.terms.name("/" + n.op)
	b.add("flat", id, op)
	for i, k := range n.kids {
		b.add("flat_operand", id, op, b.terms.number(int64(i)), b.leafValue(k, call, env))
	}
	return b.next
}

// treeNode numbers a tree's nodes for the conditions program.
func (b *factBuilder) treeNode(n *ncond, call *Call, env Env) int64 {
	b.next++
	id := b.terms.number(b.next)
	num := b.next
	if n.op == "leaf" {
		v := b.leafValue(n, call, env)
		b.addTree("node", id, b.terms.name("/leaf"))
		b.addTree("leaf_value", id, v)
		return num
	}
	b.composite++
	b.addTree("node", id, b.terms.name("/"+n.op))
	b.addTree("node_children", id, b.terms.number(int64(len(n.kids))))
	for i, k := range n.kids {
		b.addTree("node_child", id, b.terms.number(int64(i)), b.terms.number(b.treeNode(k, call, env)))
	}
	return num
}

// read turns the evaluated program's decision and finding facts into a
// Decision. Exactly one decision must have been derived; anything else is
// an evaluation error (and so a deny).
func read(store factstore.FactStore, p *Policy, call *Call, env Env, derived *CallFacts, rc *regexCache) (*Decision, error) {
	ds := query(store, "decision", 1)
	if len(ds) != 1 {
		return nil, fmt.Errorf("guard program derived %d decisions, want exactly one", len(ds))
	}
	word := strings.TrimPrefix(ds[0].Args[0].(ast.Constant).Symbol, "/")
	d := &Decision{Findings: []Finding{}}
	switch word {
	case ActDeny:
		d.Decision = Deny
	case ActAsk:
		d.Decision = Ask
	case Allow:
		d.Decision = Allow
	default:
		return nil, fmt.Errorf("guard program derived decision %q", word)
	}
	byID := make(map[string]*Rule, len(p.Rules))
	for i := range p.Rules {
		byID[p.Rules[i].ID] = &p.Rules[i]
	}
	type ordered struct {
		order int64
		f     Finding
	}
	var fs []ordered
	for _, a := range query(store, "finding", 4) {
		id := a.Args[0].(ast.Constant).Symbol
		r := byID[id]
		if r == nil {
			return nil, fmt.Errorf("guard program found unknown rule %q", id)
		}
		f := Finding{
			Rule:     id,
			Action:   strings.TrimPrefix(a.Args[1].(ast.Constant).Symbol, "/"),
			Message:  Interpolate(r.Message, call, env, derived),
			Tags:     r.Tags,
			Metadata: r.Metadata,
			Observed: a.Args[2].(ast.Constant).Symbol == "/observed",
		}
		if f.Tags == nil {
			f.Tags = []string{}
		}
		if f.Metadata == nil {
			f.Metadata = map[string]any{}
		}
		if store.Contains(ast.Atom{Predicate: ast.PredicateSym{Symbol: "policy_error", Arity: 1}, Args: []ast.BaseTerm{ast.String(id)}}) {
			f.Metadata = withPolicyError(f.Metadata)
		}
		fs = append(fs, ordered{a.Args[3].(ast.Constant).NumValue, f})
		if f.Action == ActRedact && !f.Observed && call.Phase == Post {
			d.RedactedOutput = redactOutput(call, r, rc)
		}
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].order != fs[j].order {
			return fs[i].order < fs[j].order
		}
		return fs[i].f.Rule < fs[j].f.Rule
	})
	// A rule that fired at two places in the order has a finding for
	// each (guard.dl says why); it is reported once, at its first.
	seen := make(map[string]bool, len(fs))
	for _, o := range fs {
		if !seen[o.f.Rule] {
			seen[o.f.Rule] = true
			d.Findings = append(d.Findings, o.f)
		}
	}
	return d, nil
}

func withPolicyError(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	out["policy_error"] = true
	return out
}

// redactOutput is the tool's output with what a redact rule matched
// replaced: the rule's own output.text patterns, then every secret-looking
// value.
func redactOutput(call *Call, r *Rule, rc *regexCache) string {
	text := resultText(call.Result)
	var walk func(c *Cond)
	walk = func(c *Cond) {
		if c == nil {
			return
		}
		for _, k := range append(append([]*Cond{}, c.All...), c.Any...) {
			walk(k)
		}
		walk(c.Not)
		if c.Selector == "output.text" && (c.Op == "matches" || c.Op == "matches_any") {
			for _, p := range patterns(c) {
				if re, err := rc.get(p); err == nil {
					text = re.ReplaceAllString(text, Redacted)
				}
			}
		}
		if c.Selector == "output.text" && (c.Op == "contains" || c.Op == "contains_any") {
			for _, p := range patterns(&Cond{Value: c.Value}) {
				if p != "" {
					text = strings.ReplaceAll(text, p, Redacted)
				}
			}
		}
	}
	walk(r.When)
	return RedactText(text)
}
