// Package lint checks a repository against its architecture rules. The
// graph, the file-to-node mapping and the imports become extensional facts,
// every rule becomes facts read by fixed clauses (semantics.dl), and the
// findings are relations the Mangle engine derives. Go prepares facts and
// renders; it never decides a finding.
package lint

import (
	"cmp"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/imports"
)

//go:generate go run github.com/vouch-dev/vouch/internal/dlgen -pkg lint -func semantics -o semantics_gen.go semantics.dl

// Semantics are the fixed clauses that define every rule type. Runs
// evaluate semanticsAnalysis(), generated from this text, so nothing is
// parsed at run time.
//
//go:embed semantics.dl
var semantics string

// Semantics returns the fixed clauses, for documentation and replay tests.
func Semantics() string { return semantics }

// Finding types besides the rule types themselves.
const (
	TypeExemptionUnused  = "exemption_unused"
	TypeExemptionExpired = "exemption_expired"
	TypeInert            = "inert"
	// TypeIgnoreUnmatched is an ignore_imports entry that matched no
	// import (import-linter fails a contract on one by default).
	TypeIgnoreUnmatched = "ignore_unmatched"
	// TypeUnreadable is a source file vouch could not read fully (too
	// large, binary, not decodable, or extraction stopped partway): its
	// imports are unknown, so it fails the run until it is fixed or
	// scoped out. Its findings belong to no configured rule; they are
	// named RuleUnreadable.
	TypeUnreadable = "unreadable_source"
	// RuleUnreadable is the rule name TypeUnreadable findings carry; the
	// loader rejects a configured rule of that name.
	RuleUnreadable = arch.ReservedRuleUnreadable
)

// Finding is one result of a lint run.
type Finding struct {
	Rule     string `json:"rule"`
	Type     string `json:"type"`
	Severity string `json:"severity"`
	// File and Line locate the finding: the import site for import rules,
	// the configuration entry for exemption and inert findings; empty for
	// graph-only findings.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// From and To are the endpoints: node ids, or importing file and
	// import target for forbid_import.
	From    string `json:"from,omitempty"`
	To      string `json:"to,omitempty"`
	Message string `json:"message"`
	Reason  string `json:"reason,omitempty"`
	Cycle   *Cycle `json:"cycle,omitempty"`
	// Chain is an indirect finding's witness: one shortest chain of
	// imports from From to To, each hop with its first import site. It is
	// omitted past the rule's max_chains findings.
	Chain []CycleEdge `json:"chain,omitempty"`
	// Baseline marks a finding recorded in the baseline file: reported,
	// never failing the run.
	Baseline bool `json:"baseline,omitempty"`
}

// Cycle describes a strongly connected component found by forbid_cycles.
type Cycle struct {
	// Graph is "imports" or "graph" (declared edges).
	Graph   string   `json:"graph"`
	Members []string `json:"members"`
	// Witness is one shortest cycle through the component's first member,
	// starting and ending there.
	Witness []string    `json:"witness"`
	Edges   []CycleEdge `json:"edges"`
	// id is the graph's id in the program ("imports", "graph",
	// "graph:KIND"), the violation's second endpoint.
	id string
}

// CycleEdge is one step of a witness cycle with the imports behind it.
type CycleEdge struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Sites []Site `json:"sites,omitempty"`
}

// Stats counts what a run looked at.
type Stats struct {
	Files           int `json:"files_scanned"`
	ImportsResolved int `json:"imports_resolved"`
	Nodes           int `json:"nodes"`
	Edges           int `json:"edges"`
	NodeDeps        int `json:"node_dependencies"`
	Rules           int `json:"rules_evaluated"`
	Facts           int `json:"facts"`
}

// Timing is where the time went.
type Timing struct {
	Prepare, Evaluate, Collect time.Duration
}

// Options tune a run.
type Options struct {
	// Today is the run's date in days since 1970-01-01 (arch.Day); an
	// exemption expires after its until day.
	Today int64
	// FactLimit bounds derived facts; zero means datalog.DefaultFactLimit.
	FactLimit int
	// Source holds the symbol counts and annotations Beadloom's check and
	// module_coverage rules read; nil when no such rule is configured.
	Source *SourceFacts
	// beforeEval, when set, is told how many facts the evaluation starts
	// from (Check uses it to make room in the memory limit).
	beforeEval func(facts int)
	// Npm holds the package.json types of npm imports; nil when no rule
	// tells npm packages apart (then each is simply npm).
	Npm NpmTypes
}

// Outcome is an evaluated lint run.
type Outcome struct {
	Model    *arch.Model
	Facts    []ast.Atom
	Result   *datalog.Result
	Findings []Finding
	Stats    Stats
	Timing   Timing
	Today    int64
}

// Run prepares facts, evaluates them and collects the findings. annot maps
// files to the node ids their annotations name (nil when the layout has
// none). Any evaluation error is returned: a run that did not finish has
// no findings to trust.
func Run(m *arch.Model, scan *imports.Result, annot map[string][]string, opts Options) (*Outcome, error) {
	t0 := time.Now()
	pr := prepare(m, scan, annot, opts.Today, opts.Npm)
	beadFacts(func(a ast.Atom) { pr.facts = append(pr.facts, a) }, m, scan.Files, opts.Source,
		fileOwners{owners: arch.NewOwners(m.Nodes), annot: annot})
	t1 := time.Now()
	if opts.beforeEval != nil {
		opts.beforeEval(len(pr.facts))
	}
	dopts := datalog.Options{FactLimit: opts.FactLimit}
	res, err := datalog.EvalAnalysis(sharedAnalysis(), pr.facts, dopts)
	if err != nil {
		return nil, err
	}
	if bad := res.Facts("cyc_hint_bad", 1); len(bad) > 0 {
		// The component hints Go proposed disagree with the graph the
		// engine derived: the cycles found cannot be trusted.
		return nil, fmt.Errorf("lint: internal error: the strongly connected component hints for graph %s do not match the graph (cyc_hint_bad)", constStr(bad[0].Args[0]))
	}
	t2 := time.Now()
	o := &Outcome{Model: m, Facts: pr.facts, Result: res, Stats: pr.stats, Today: opts.Today}
	o.Stats.Rules = len(m.Rules)
	o.Stats.Facts = len(pr.facts)
	o.Findings = collect(res, pr)
	o.Timing = Timing{Prepare: t1.Sub(t0), Evaluate: t2.Sub(t1), Collect: time.Since(t2)}
	return o, nil
}

// constStr is a finding's argument as text: a string or name as it is, a
// number in decimal.
func constStr(t ast.BaseTerm) string {
	if n, ok := datalog.Number(t); ok {
		return itoa(int(n))
	}
	if c, ok := t.(ast.Constant); ok {
		return c.Symbol
	}
	return t.String()
}

// constInt is a number argument, 0 when it is not one.
func constInt(t ast.BaseTerm) int {
	n, _ := datalog.Number(t)
	return int(n)
}

// collect reads the derived findings back, in a stable order.
func collect(res *datalog.Result, pr *prepared) []Finding {
	var out []Finding
	for _, v := range violations(res, pr) {
		name := constStr(v.Args[0])
		r := pr.rules[name]
		if r == nil {
			continue
		}
		f := Finding{Rule: name, Type: string(r.Type), Severity: r.Severity, Reason: r.Reason,
			From: constStr(v.Args[1]), To: constStr(v.Args[2]), File: constStr(v.Args[3]), Line: constInt(v.Args[4])}
		f.Message = message(r, f)
		if r.Type == arch.Layers && f.To == "exhaustive" && r.Exhaustive != nil {
			// violation(R, Child, "exhaustive", "", 0)
			f.Message = fmt.Sprintf("%s is a child of container %s but no layer lists it (exhaustive): add it to the layers or to exhaustive_ignores", f.From, r.Exhaustive.Container)
		} else if r.Type == arch.Layers {
			f.Message = fmt.Sprintf("%s (layer %s) depends on %s (layer %s)", f.From, layerName(res, r, f.From), f.To, layerName(res, r, f.To))
			if f.File == "" {
				f.Message += " through a " + r.EdgeKind + " edge"
			}
		}
		if r.Indirect && f.File == "" && len(res.Query(atom("chain", str(name), str(f.From), str(f.To)))) > 0 {
			// Witnesses are rendered below for the first max_chains
			// findings of the rule in output order.
			f.Message = fmt.Sprintf("%s imports %s indirectly", f.From, f.To)
			switch r.Type {
			case arch.Layers:
				f.Message = fmt.Sprintf("%s (layer %s) depends on %s (layer %s) through a chain of imports", f.From, layerName(res, r, f.From), f.To, layerName(res, r, f.To))
			case arch.Forbid:
				f.Message = fmt.Sprintf("%s reaches %s through a chain of graph edges", f.From, f.To)
			}
			f.Chain = []CycleEdge{}
		}
		if r.Type == arch.Check {
			// violation(R, Node, "max_symbols"|"max_files", "", 0)
			what, limit, rel := "symbols", r.MaxSymbols, "check_symbols"
			if f.To == "max_files" {
				what, limit, rel = "files", r.MaxFiles, "check_files"
			}
			n := 0
			for _, c := range res.Query(atom(rel, str(name), str(f.From), ast.Variable{Symbol: "T"})) {
				n = constInt(c.Args[2])
			}
			f.Message = fmt.Sprintf("node %s has %d %s (max %d)", f.From, n, what, limit)
		}
		if r.Type == arch.ModuleCoverage {
			for _, c := range res.Query(atom("file_symbols", str(f.From), ast.Variable{Symbol: "N"})) {
				f.Message = fmt.Sprintf("module with %d symbols is not covered by any node and not exempt; classify it as a feature or component (annotation or node source) or add it to exempt", constInt(c.Args[1]))
			}
		}
		if r.Type == arch.ForbidCycles || r.Type == arch.AcyclicSiblings {
			// violation(R, Pivot, Graph, "", 0)
			f.Cycle = witness(res, pr, f.To, f.From)
			f.To = ""
			f.File, f.Line = closingSite(pr, r, f.Cycle)
			f.Message = fmt.Sprintf("dependency cycle in the %s through %d nodes: %s", f.Cycle.Graph, len(f.Cycle.Members), strings.Join(f.Cycle.Witness, " -> "))
			if cg := pr.graphs[f.Cycle.id]; cg.siblings != "" {
				f.Message = fmt.Sprintf("dependency cycle between %d children of %s: %s", len(f.Cycle.Members), cg.siblings, strings.Join(f.Cycle.Witness, " -> "))
			}
		}
		out = append(out, f)
	}
	for _, kind := range []string{"exempt_unused", "exempt_expired"} {
		for _, e := range res.Facts(kind, 2) {
			name := constStr(e.Args[0])
			r := pr.rules[name]
			i := constInt(e.Args[1])
			if r == nil || i >= len(r.Exempt) {
				continue
			}
			ex := r.Exempt[i]
			f := Finding{Rule: name, Severity: arch.SeverityWarn, File: ex.Pos.File, Line: ex.Pos.Line, From: ex.From, To: ex.To, Reason: ex.Reason}
			what := fmt.Sprintf("exemption %s -> %s", orAny(ex.From), orAny(ex.To))
			if ex.Members != nil {
				what = fmt.Sprintf("exemption of the cycle {%s}", strings.Join(ex.Members, ", "))
			}
			if kind == "exempt_unused" {
				f.Type = TypeExemptionUnused
				f.Message = fmt.Sprintf("%s matches no finding of rule %s: remove it", what, name)
				if ex.Members != nil {
					f.Message = fmt.Sprintf("%s matches no cycle of rule %s (a cycle must have exactly these members): remove it, or list the cycle's current members", what, name)
				}
			} else {
				f.Type = TypeExemptionExpired
				f.Message = fmt.Sprintf("%s expired on %s: fix the code or renew it", what, ex.Until)
			}
			out = append(out, f)
		}
	}
	for _, e := range res.Facts("ignore_unmatched", 2) {
		name := constStr(e.Args[0])
		r := pr.rules[name]
		i := constInt(e.Args[1])
		if r == nil || i >= len(r.IgnoreImports) {
			continue
		}
		ig := r.IgnoreImports[i]
		sev := r.IgnoreUnmatched
		if sev == "" {
			sev = arch.SeverityError
		}
		out = append(out, Finding{Rule: name, Type: TypeIgnoreUnmatched, Severity: sev, File: ig.Pos.File, Line: ig.Pos.Line,
			From: ig.From, To: ig.To, Message: fmt.Sprintf("ignored import %s -> %s matches no import: remove it", ig.From, ig.To)})
	}
	for _, e := range res.Facts("inert", 1) {
		name := constStr(e.Args[0])
		r := pr.rules[name]
		if r == nil {
			continue
		}
		msg := inertMessage(r)
		if r.Type == arch.Deny && len(res.Query(atom("matcher_hit", str(name+"#from")))) > 0 && len(res.Query(atom("matcher_hit", str(name+"#to")))) > 0 {
			// Both sides select nodes, but one selects only nodes
			// that own no file: no import can come from or reach them.
			msg = fmt.Sprintf("rule can never fire: a matcher (%s or %s) selects only nodes that own no source file", r.From, r.To)
		}
		out = append(out, Finding{Rule: name, Type: TypeInert, Severity: arch.SeverityWarn, File: r.Pos.File, Line: r.Pos.Line,
			Message: msg})
	}
	for _, e := range res.Facts("unread_source", 3) {
		file, line, why := constStr(e.Args[0]), constInt(e.Args[1]), constStr(e.Args[2])
		out = append(out, Finding{Rule: RuleUnreadable, Type: TypeUnreadable, Severity: arch.SeverityError, File: file, Line: line,
			Message: unreadMessage(line, why), Reason: unreadAdvice})
	}
	SortFindings(out)
	chains(res, pr, out)
	return out
}

// unreadAdvice is what to do about an unreadable source file.
const unreadAdvice = "fix the file (UTF-8 or a declared ASCII-compatible encoding, under the size limit, no NUL bytes, nesting within bounds), or, if it is not code the rules should check, exclude it with scope: {exclude: [...]} in the architecture configuration"

// unreadMessage says that a file was not read fully and why; every
// format shows the file beside it.
func unreadMessage(line int, why string) string {
	if line > 0 {
		return fmt.Sprintf("source file read only up to line %d (%s): imports after it are not checked", line, why)
	}
	return fmt.Sprintf("source file not read (%s): its imports are not checked", why)
}

// chains renders the witness of each indirect finding (marked by a
// non-nil empty Chain) up to its rule's max_chains, and notes the rest.
func chains(res *datalog.Result, pr *prepared, fs []Finding) {
	shown := map[string]int{}
	var adj map[string][]string
	fadj := map[string]map[string][]string{}
	for i := range fs {
		f := &fs[i]
		if f.Chain == nil {
			continue
		}
		r := pr.rules[f.Rule]
		limit := r.MaxChains
		if limit == 0 {
			limit = arch.DefaultMaxChains
		}
		if shown[f.Rule] >= limit {
			f.Chain = nil
			f.Message += fmt.Sprintf(" (chain not shown: max_chains %d)", limit)
			continue
		}
		shown[f.Rule]++
		if adj == nil {
			adj = pr.adjacency()
		}
		g := adj
		if r.Type == arch.Forbid {
			// A forbid chain runs over the declared edges of its kind,
			// each hop located at its declaration.
			g = edgeAdjacency(res, r)
		}
		if r.Filtered() {
			// The chain runs over the imports the rule keeps.
			if fadj[r.Name] == nil {
				fadj[r.Name] = map[string][]string{}
				for _, d := range res.Query(atom("fdep", ast.Variable{Symbol: "A"}, ast.Variable{Symbol: "B"}, str(r.Name))) {
					a := constStr(d.Args[0])
					fadj[r.Name][a] = append(fadj[r.Name][a], constStr(d.Args[1]))
				}
			}
			g = fadj[r.Name]
		}
		// A chain walks only the nodes the engine's search entered.
		var blocked func(string) bool
		switch r.Type {
		case arch.Layers:
			blocked = func(n string) bool {
				return len(res.Query(atom("in_layer", str(n), str(r.Name)))) > 0
			}
		case arch.Deny:
			// A deny chain's inner nodes match neither end of the rule.
			blocked = func(n string) bool {
				return len(res.Query(atom("chain_end", str(n), str(r.Name)))) > 0
			}
		}
		path := shortestPath(g, f.From, f.To, blocked)
		for j := 0; j+1 < len(path); j++ {
			e := CycleEdge{From: path[j], To: path[j+1]}
			s := pr.sites[pair{path[j], path[j+1]}]
			if r.Type == arch.Forbid {
				s = nil
				if p, ok := pr.edgePos[edgeKey{path[j], path[j+1], r.EdgeKind}]; ok && p.File != "" {
					s = []Site{{File: p.File, Line: p.Line}}
				}
			}
			if r.Filtered() {
				s = ruleSites(res, r.Name, path[j], path[j+1])
			}
			if len(s) > 0 {
				e.Sites = s[:1]
			}
			f.Chain = append(f.Chain, e)
		}
		if len(path) > 0 {
			f.Message += ": " + strings.Join(path, " -> ")
		}
	}
}

// edgeAdjacency is the declared graph a forbid rule walks: edges of its
// kind (any kind without one), as sorted successor lists.
func edgeAdjacency(res *datalog.Result, r *arch.Rule) map[string][]string {
	k := ast.BaseTerm(ast.Variable{Symbol: "K"})
	if r.EdgeKind != "" {
		k = str(r.EdgeKind)
	}
	adj := map[string][]string{}
	for _, e := range res.Query(atom("edge", ast.Variable{Symbol: "A"}, ast.Variable{Symbol: "B"}, k)) {
		a, b := constStr(e.Args[0]), constStr(e.Args[1])
		if !slices.Contains(adj[a], b) {
			adj[a] = append(adj[a], b)
		}
	}
	for _, v := range adj {
		slices.Sort(v)
	}
	return adj
}

// ruleSites are the import sites behind a->b that filtered rule r sees
// (fsite), sorted.
// siblingSites are the import sites behind child a's dependency on child
// b in an acyclic_siblings graph: the imports from a module inside a to
// one inside b the rule sees, in file order.
func siblingSites(res *datalog.Result, pr *prepared, cg cycleGraph, a, b string) []Site {
	inside := func(n, c string) bool { return n == c || strings.HasPrefix(n, c+".") }
	filtered := pr.rules[cg.sibRule] != nil && pr.rules[cg.sibRule].Filtered()
	var out []Site
	for d, sites := range pr.sites {
		if !inside(d.a, a) || !inside(d.b, b) {
			continue
		}
		if filtered {
			sites = ruleSites(res, cg.sibRule, d.a, d.b)
		}
		out = append(out, sites...)
	}
	slices.SortFunc(out, func(x, y Site) int {
		if c := strings.Compare(x.File, y.File); c != 0 {
			return c
		}
		return x.Line - y.Line
	})
	return slices.Compact(out)
}

func ruleSites(res *datalog.Result, r, a, b string) []Site {
	var out []Site
	for _, f := range res.Query(atom("fsite", str(a), str(b), str(r), ast.Variable{Symbol: "F"}, ast.Variable{Symbol: "L"})) {
		out = append(out, Site{File: constStr(f.Args[3]), Line: constInt(f.Args[4])})
	}
	return out
}

// shortestPath is a BFS from a to b over adj (sorted adjacency, so the
// path is the same on every run); intermediate nodes for which blocked
// holds are not entered. It renders a chain the engine already derived.
func shortestPath(adj map[string][]string, a, b string, blocked func(string) bool) []string {
	prev := map[string]string{a: ""}
	queue := []string{a}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range adj[u] {
			if _, seen := prev[v]; seen {
				continue
			}
			prev[v] = u
			if v == b {
				var path []string
				for cur := b; cur != a; cur = prev[cur] {
					path = append(path, cur)
				}
				path = append(path, a)
				slices.Reverse(path)
				return path
			}
			if blocked == nil || !blocked(v) {
				queue = append(queue, v)
			}
		}
	}
	return nil
}

// violations reads every violation fact. Sorting thousands of facts in one
// Query costs more than asking for the few facts of each possible from
// endpoint (the store indexes every argument); if the facts found that way
// are not all of them, it reads them all.
func violations(res *datalog.Result, pr *prepared) []ast.Atom {
	v := func(s string) ast.Variable { return ast.Variable{Symbol: s} }
	seen := make(map[string]bool, len(pr.froms))
	var out []ast.Atom
	for _, a := range pr.froms {
		if !seen[a] {
			seen[a] = true
			out = append(out, res.Query(atom("violation", v("R"), str(a), v("B"), v("F"), v("L")))...)
		}
	}
	if len(out) != res.Count("violation", 5) {
		return res.Facts("violation", 5)
	}
	return out
}

func orAny(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

// SortFindings orders findings by rule, type, file, line, from, to.
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(strings.Compare(a.Rule, b.Rule), strings.Compare(a.Type, b.Type),
			strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	})
}

func message(r *arch.Rule, f Finding) string {
	switch r.Type {
	case arch.Deny:
		return fmt.Sprintf("%s imports %s", f.From, f.To)
	case arch.Require:
		kind := "edge"
		if r.EdgeKind != "" {
			kind = r.EdgeKind + " edge"
		}
		return fmt.Sprintf("node %s has no %s to a node matching %s", f.From, kind, r.To)
	case arch.Forbid:
		return fmt.Sprintf("graph edge %s -> %s is forbidden", f.From, f.To)
	case arch.ForbidImport:
		return fmt.Sprintf("%s imports %s (matches %s)", f.From, f.To, r.ToGlob)
	case arch.ForbidDependency:
		switch {
		case f.To == "" && r.Dep.From.Orphan != nil:
			return fmt.Sprintf("%s is an orphan: nothing imports it and it imports nothing", f.From)
		case r.Dep.Circ():
			return fmt.Sprintf("%s imports %s, part of a dependency cycle", f.From, f.To)
		}
		return fmt.Sprintf("%s imports %s", f.From, f.To)
	case arch.AllowedDependencies:
		return fmt.Sprintf("%s imports %s, which no allowed rule permits", f.From, f.To)
	case arch.ModuleCoverage:
		return fmt.Sprintf("%s: not covered by any node and not exempt; classify it as a feature or component (annotation or node source) or add it to exempt", f.From)
	}
	return f.From + " -> " + f.To
}

// layerName names the layers the engine placed node n in (layer_of).
func layerName(res *datalog.Result, r *arch.Rule, n string) string {
	var names []string
	for _, f := range res.Query(atom("layer_of", str(n), str(r.Name), ast.Variable{Symbol: "I"})) {
		if i := constInt(f.Args[2]); i >= 0 && i < len(r.Layers) {
			names = append(names, r.Layers[i].Name)
		}
	}
	return strings.Join(names, "/")
}

func inertMessage(r *arch.Rule) string {
	switch r.Type {
	case arch.ForbidImport:
		return fmt.Sprintf("rule can never fire: from %q matches no file or to %q matches no import", r.FromGlob, r.ToGlob)
	case arch.Layers:
		return "rule can never fire: no node carries any of its layer tags"
	case arch.ForbidDependency:
		return fmt.Sprintf("rule can never fire: from path %s matches no file that imports anything", strings.Join(r.Dep.From.Path, " | "))
	case arch.ModuleCoverage:
		return fmt.Sprintf("rule can never fire: no source file lies under source_root %q", r.SourceRoot)
	case arch.Check:
		return fmt.Sprintf("rule can never fire: for (%s) selects no node with a source", r.From)
	}
	return fmt.Sprintf("rule can never fire: a matcher (%s or %s) selects no node", r.From, r.To)
}

// closingSite is where a cycle finding is shown: the first import site of
// the witness's last edge (the import that closes the cycle back to its
// first member), else the declaration of that edge in the architecture
// file for a cycle of declared edges, else the rule itself. Every format
// then has a file and line to point at.
func closingSite(pr *prepared, r *arch.Rule, c *Cycle) (string, int) {
	if n := len(c.Edges); n > 0 {
		last := c.Edges[n-1]
		if len(last.Sites) > 0 {
			return last.Sites[0].File, last.Sites[0].Line
		}
		if cg := pr.graphs[c.id]; !cg.imports {
			if p, ok := pr.edgePos[edgeKey{last.From, last.To, cg.kind}]; ok && p.File != "" {
				return p.File, p.Line
			}
		}
	}
	return r.Pos.File, r.Pos.Line
}

// witness finds one shortest cycle through p inside the component the
// engine derived (scc(G, p, N)), by BFS over the component's edges. It is
// rendering only: the engine already decided the cycle exists.
func witness(res *datalog.Result, pr *prepared, g, p string) *Cycle {
	cg := pr.graphs[g]
	c := &Cycle{Graph: "imports", id: g}
	if !cg.imports {
		c.Graph = "graph"
		if cg.kind != "" {
			c.Graph = "graph (" + cg.kind + " edges)"
		}
	}
	members := map[string]bool{}
	for _, f := range res.Query(atom("scc", str(g), str(p), ast.Variable{Symbol: "N"})) {
		n := constStr(f.Args[2])
		members[n] = true
		c.Members = append(c.Members, n)
	}
	// The component's edges, from the relation the graph is made of.
	adj := map[string][]string{}
	for _, a := range c.Members {
		var out []ast.Atom
		switch {
		case cg.siblings != "":
			out = res.Query(atom("gstep", str(a), ast.Variable{Symbol: "B"}, str(g)))
		case cg.rule != "":
			out = res.Query(atom("fdep", str(a), ast.Variable{Symbol: "B"}, str(cg.rule)))
		case cg.imports:
			out = res.Query(atom("dep", str(a), ast.Variable{Symbol: "B"}))
		default:
			k := ast.BaseTerm(ast.Variable{Symbol: "K"})
			if cg.kind != "" {
				k = str(cg.kind)
			}
			out = res.Query(atom("edge", str(a), ast.Variable{Symbol: "B"}, k))
		}
		for _, f := range out {
			// Sorted by target; edges of several kinds repeat a target.
			if b := constStr(f.Args[1]); members[b] && !slices.Contains(adj[a], b) {
				adj[a] = append(adj[a], b)
			}
		}
	}
	prev := map[string]string{}
	queue := []string{p}
	seen := map[string]bool{p: true}
	found := false
	for len(queue) > 0 && !found {
		u := queue[0]
		queue = queue[1:]
		for _, v := range adj[u] { // adjacency is sorted: Query sorts facts
			if v == p {
				prev[p] = u
				found = true
				break
			}
			if !seen[v] {
				seen[v] = true
				prev[v] = u
				queue = append(queue, v)
			}
		}
	}
	path := []string{p}
	for cur := prev[p]; found && cur != p; cur = prev[cur] {
		path = append(path, cur)
	}
	slices.Reverse(path[1:])
	path = append(path, p)
	if !found {
		path = []string{p}
	}
	c.Witness = path
	for i := 0; i+1 < len(path); i++ {
		e := CycleEdge{From: path[i], To: path[i+1]}
		if cg.siblings != "" {
			e.Sites = siblingSites(res, pr, cg, path[i], path[i+1])
		} else if cg.imports {
			e.Sites = pr.sites[pair{path[i], path[i+1]}]
			if cg.rule != "" {
				e.Sites = ruleSites(res, cg.rule, path[i], path[i+1])
			}
			if len(e.Sites) > 5 {
				e.Sites = e.Sites[:5]
			}
		}
		c.Edges = append(c.Edges, e)
	}
	return c
}

// sharedAnalysis builds the program's analysis once per process; every
// evaluation shares it (evaluation does not modify it) and the plans its
// Planner keeps.
var sharedAnalysis = sync.OnceValue(semanticsAnalysis)
