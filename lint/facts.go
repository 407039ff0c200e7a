package lint

import (
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/imports"
)

// Site is one import statement behind a node-level dependency.
type Site struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

type pair struct{ a, b string }

// prepared is everything Go computes before evaluation: the extensional
// facts, plus the lookups rendering needs (import sites per node pair).
type prepared struct {
	facts []ast.Atom
	// sites lists the import sites behind each node-level dependency, in
	// scan order (dep_site facts); cycle witnesses render them.
	sites map[pair][]Site
	stats Stats
	// graphs maps a cycle graph id to its rule and what it is made of.
	graphs map[string]cycleGraph
	rules  map[string]*arch.Rule
	// froms are the names a violation can start from: node ids and the
	// files forbid_import rules look at.
	froms []string
	// edgePos locates the first declaration of each graph edge (of any
	// kind, then of each kind), so a cycle in the declared graph points at
	// the line that closes it.
	edgePos map[edgeKey]arch.Pos
}

// edgeKey is a declared edge; kind "" stands for any kind.
type edgeKey struct{ src, dst, kind string }

type cycleGraph struct {
	imports bool
	kind    string
	// rule names the filtered rule whose import graph (fdep) this is.
	rule string
	// siblings is the package whose children an acyclic_siblings graph
	// links (sibRule the rule), "" for other graphs.
	siblings, sibRule string
}

// siteKey identifies an import site by file and line.
type siteKey struct {
	file string
	line int
}

// adjacency is the node-level import graph as sorted successor lists.
func (pr *prepared) adjacency() map[string][]string {
	adj := map[string][]string{}
	for k := range pr.sites {
		adj[k.a] = append(adj[k.a], k.b)
	}
	for _, v := range adj {
		sort.Strings(v)
	}
	return adj
}

func str(s string) ast.Constant { return ast.String(s) }
func num(n int64) ast.Constant  { return ast.Number(n) }

func nameConst(n string) ast.Constant {
	c, err := ast.Name("/" + n)
	if err != nil {
		// Rule types and severities are vouch's own identifiers.
		return ast.String(n)
	}
	return c
}

func atom(pred string, args ...ast.BaseTerm) ast.Atom {
	return ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args}
}

// fileOwners assigns each file to its node: an annotation naming a node
// that may claim the file wins, else the longest source prefix.
type fileOwners struct {
	owners *arch.Owners
	annot  map[string][]string
}

func (o fileOwners) owner(p string) (string, bool) {
	for _, id := range o.annot[p] {
		if o.owners.Covers(id, p) {
			return id, true
		}
	}
	return o.owners.Owner(p)
}

// prepare turns the model and the scan into facts.
func prepare(m *arch.Model, scan *imports.Result, annot map[string][]string, today int64, npm NpmTypes) *prepared {
	pr := &prepared{sites: map[pair][]Site{}, graphs: map[string]cycleGraph{}, rules: map[string]*arch.Rule{}}
	add := func(a ast.Atom) { pr.facts = append(pr.facts, a) }
	own := fileOwners{owners: arch.NewOwners(m.Nodes), annot: annot}

	nodeIDs := make([]string, 0, len(m.Nodes))
	for _, n := range m.Nodes {
		nodeIDs = append(nodeIDs, n.ID)
		add(atom("node", str(n.ID), str(n.Kind)))
		for _, t := range n.Tags {
			add(atom("node_tag", str(n.ID), str(t)))
		}
	}
	pr.edgePos = map[edgeKey]arch.Pos{}
	for _, e := range m.Edges {
		add(atom("edge", str(e.Src), str(e.Dst), str(e.Kind)))
		for _, k := range []edgeKey{{e.Src, e.Dst, ""}, {e.Src, e.Dst, e.Kind}} {
			if _, ok := pr.edgePos[k]; !ok {
				pr.edgePos[k] = e.Pos
			}
		}
	}

	// Node-level dependencies: internal imports between files of different
	// nodes. Files of one node never cross a boundary.
	pr.stats.Files = len(scan.Files)
	filtered := slices.ContainsFunc(m.Rules, func(r arch.Rule) bool { return r.Filtered() })
	// kinds are the import kinds at each site behind a dependency, for
	// rules that filter by kind.
	kinds := map[siteKey][]string{}
	for _, r := range scan.Records {
		if r.Resolution.Kind != imports.Unresolved {
			pr.stats.ImportsResolved++
		}
		ext := m.ExternalPackages && r.Resolution.Kind == imports.External && r.Lang == imports.Python
		if r.Resolution.Kind != imports.Internal && !ext {
			continue
		}
		a, ok := own.owner(r.File)
		if !ok {
			continue
		}
		b, ok := own.owner(r.Resolution.Target)
		if ext {
			// The external package's node (Model.AddExternal).
			b, ok = r.Resolution.Target, true
		}
		if !ok || a == b {
			continue
		}
		k := pair{a, b}
		if filtered {
			sk := siteKey{r.File, r.Line}
			for _, kind := range recordKinds(&r) {
				if !slices.Contains(kinds[sk], kind) {
					kinds[sk] = append(kinds[sk], kind)
				}
			}
		}
		s := pr.sites[k]
		if n := len(s); n == 0 || s[n-1].File != r.File || s[n-1].Line != r.Line {
			pr.sites[k] = append(s, Site{r.File, r.Line})
		}
	}
	deps := make([]pair, 0, len(pr.sites))
	for k := range pr.sites {
		deps = append(deps, k)
	}
	sortPairs(deps)
	pr.stats.NodeDeps = len(deps)
	for _, k := range deps {
		add(atom("dep", str(k.a), str(k.b)))
	}
	// Every import site behind a dependency, up front: a finding about a
	// node pair reports each of its sites, and loading them all costs less
	// than asking the engine which pairs need them and evaluating again.
	for _, k := range deps {
		A, B := str(k.a), str(k.b)
		for _, s := range pr.sites[k] {
			add(atom("dep_site", A, B, str(s.File), num(int64(s.Line))))
		}
	}

	if filtered {
		keys := make([]siteKey, 0, len(kinds))
		for k := range kinds {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(x, y siteKey) int {
			if c := strings.Compare(x.file, y.file); c != 0 {
				return c
			}
			return x.line - y.line
		})
		for _, k := range keys {
			for _, kind := range kinds[k] {
				add(atom("site_kind", str(k.file), num(int64(k.line)), str(kind)))
			}
		}
	}

	add(atom("today", num(today)))
	var fis []fiRule // forbid_import rules, joined with the imports below
	var targets []string
	allTargets := func() []string { // import targets, for exemption globs
		if targets == nil {
			targets = importTargets(scan.Records)
		}
		return targets
	}
	for i, r := range m.Rules {
		rule := &m.Rules[i]
		pr.rules[r.Name] = rule
		R := str(r.Name)
		add(atom("rule", R, nameConst(string(r.Type)), nameConst(r.Severity)))
		if r.EdgeKind != "" && r.Type != arch.ForbidCycles {
			add(atom("rule_edge_kind", R, str(r.EdgeKind)))
		}
		var ignored map[pair]bool
		if len(r.IgnoreImports) > 0 {
			ignored = ignoreFacts(add, R, rule, deps)
		}
		if r.Filtered() {
			add(atom("dep_filtered", R))
			for _, k := range r.DependencyTypes {
				add(atom("rule_kind_only", R, str(k)))
			}
			for _, k := range r.DependencyTypesNot {
				add(atom("rule_kind_not", R, str(k)))
			}
		}
		switch r.Type {
		case arch.Deny, arch.Require, arch.Forbid:
			mf, mt := r.Name+"#from", r.Name+"#to"
			addMatcher(add, R, mf, r.From, nodeIDs)
			addMatcher(add, R, mt, r.To, nodeIDs)
			add(atom(string(r.Type), R, str(mf), str(mt)))
			for _, k := range r.UnlessEdge {
				add(atom("deny_unless", R, str(k)))
			}
			if r.AllowWithin {
				withinFacts(add, R, r.To.Modules, deps)
			}
			if r.Type == arch.Forbid && r.Indirect {
				add(atom("forbid_indirect", R))
			}
			if r.Type == arch.Deny && r.Indirect {
				// Search from the side with fewer candidates: an upper
				// bound from ref_id and kind (the engine still decides
				// which nodes match).
				if candidates(r.To, m.Nodes) < candidates(r.From, m.Nodes) {
					add(atom("deny_back", R))
				} else {
					add(atom("deny_fwd", R))
				}
			}
		case arch.ForbidImport:
			add(atom("fi", R))
			fg, _ := arch.CompileGlob(r.FromGlob)
			tg, _ := arch.CompileGlob(r.ToGlob)
			fis = append(fis, fiRule{name: R, from: fg, to: tg})
			if slices.ContainsFunc(scan.Files, fg.Match) {
				add(atom("fi_from_any", R))
			}
		case arch.ForbidCycles:
			// Rules checking the same graph share it (and its reachability).
			gg := "graph"
			if r.EdgeKind != "" {
				gg = "graph:" + r.EdgeKind
			}
			gi := "imports"
			if r.Filtered() {
				// A filtered rule has its own import graph; its pivots
				// come from the sites its filter keeps (a proposal: the
				// engine derives the components from fdep).
				gi = "imports:" + r.Name
				add(atom("cyc", R, str(gg)))
				add(atom("cyc", R, str(gi)))
				pr.graphs[gi] = cycleGraph{imports: true, rule: r.Name}
				add(atom("cyc_fimports", str(gi), R))
				addHints(add, gi, filteredDeps(&r, deps, pr.sites, kinds, ignored), nodeIDs)
				addEdgeGraph(add, pr, m, r.EdgeKind, gg)
				break
			}
			add(atom("cyc", R, str(gg)))
			addEdgeGraph(add, pr, m, r.EdgeKind, gg)
			if !r.GraphOnly {
				add(atom("cyc", R, str(gi)))
				addImportGraph(add, pr, deps, nodeIDs)
			}
		case arch.AcyclicSiblings:
			add(atom("sib_rule", R))
			graph := deps
			if r.Filtered() {
				graph = filteredDeps(rule, deps, pr.sites, kinds, ignored)
			}
			siblingFacts(add, pr, rule, nodeIDs, graph)
		case arch.Layers:
			add(atom("layers_rule", R))
			for j, l := range r.Layers {
				if len(l.Modules) > 0 {
					for _, n := range matchModules(l.Modules, nodeIDs) {
						add(atom("layer_node", str(n), R, num(int64(j))))
					}
				} else {
					add(atom("layer", R, num(int64(j)), str(l.Tag)))
				}
				if j > 0 {
					add(atom("layer_adjacent", R, num(int64(j-1)), num(int64(j))))
				}
			}
			if !r.AllowSkip {
				add(atom("layer_no_skip", R))
			}
			if r.Indirect {
				add(atom("layer_indirect", R))
			}
			if r.GraphOnly {
				add(atom("layer_graph_only", R))
			}
			if e := r.Exhaustive; e != nil {
				// The container's direct children, and those whose
				// name the rule ignores; the engine decides which are
				// not layers.
				for _, n := range nodeIDs {
					rest, ok := strings.CutPrefix(n, e.Container+".")
					if !ok || strings.Contains(rest, ".") {
						continue
					}
					add(atom("exh_child", str(n), R))
					if slices.Contains(e.Ignores, rest) {
						add(atom("exh_ignore", str(n), R))
					}
				}
			}
		}
		if len(r.Exempt) > 0 {
			from, to := endpoints(r, nodeIDs, scan.Files, allTargets)
			for j, e := range r.Exempt {
				I := num(int64(j))
				add(atom("exempt", R, I))
				add(atom("exempt_until", R, I, num(e.UntilDay)))
				if r.Type == arch.ForbidCycles || r.Type == arch.AcyclicSiblings {
					add(atom("exempt_cyc", R, I))
					for _, n := range e.Members {
						add(atom("exempt_member", str(n), R, I))
					}
					continue
				}
				for _, x := range globFilter(e.From, from) {
					add(atom("exempt_from", str(x), R, I))
				}
				for _, y := range globFilter(e.To, to) {
					add(atom("exempt_to", str(y), R, I))
				}
			}
		}
	}
	if slices.ContainsFunc(m.Rules, func(r arch.Rule) bool {
		return r.Type == arch.ForbidDependency && r.Dep.To.Circular != nil ||
			r.Type == arch.AllowedDependencies && slices.ContainsFunc(r.Allowed, func(d arch.DepRule) bool { return d.To.Circular != nil })
	}) {
		// Circular conditions read the components of the import graph.
		addImportGraph(add, pr, deps, nodeIDs)
	}
	depFacts(add, m, scan, own, deps, npm)
	pr.froms = nodeIDs
	if len(fis) > 0 {
		pr.froms = append(slices.Clone(nodeIDs), forbidImportFacts(add, fis, scan.Records)...)
	}
	if slices.ContainsFunc(m.Rules, func(r arch.Rule) bool { return r.Type == arch.Deny }) {
		// A deny rule reads imports, which only nodes owning files make
		// or receive (and external packages receive): listed so the
		// engine can call a rule selecting no such node inert.
		live := map[string]bool{}
		for _, f := range scan.Files {
			if n, ok := own.owner(f); ok {
				live[n] = true
			}
		}
		for _, n := range m.Nodes {
			if live[n.ID] || n.Kind == "external_package" {
				add(atom("node_owns", str(n.ID)))
			}
		}
	}
	if len(m.Rules) > 0 {
		// Without rules nothing is checked, so nothing is missed either.
		for _, w := range scan.Warnings {
			if w.Unread {
				add(atom("unreadable", str(w.File), num(int64(w.Line)), str(w.Message)))
			}
		}
	}
	pr.stats.Nodes = len(m.Nodes)
	pr.stats.Edges = len(m.Edges)
	return pr
}

// addImportGraph declares the node-level import graph "imports" and its
// pivots, once.
func addImportGraph(add func(ast.Atom), pr *prepared, deps []pair, nodes []string) {
	const gi = "imports"
	if _, ok := pr.graphs[gi]; ok {
		return
	}
	pr.graphs[gi] = cycleGraph{imports: true}
	add(atom("cyc_imports", str(gi)))
	addHints(add, gi, deps, nodes)
}

// addEdgeGraph declares the graph-edge graph gg (edges of kind, or every
// kind) and its pivots, once however many rules check it.
func addEdgeGraph(add func(ast.Atom), pr *prepared, m *arch.Model, kind, gg string) {
	if _, ok := pr.graphs[gg]; ok {
		return
	}
	pr.graphs[gg] = cycleGraph{kind: kind}
	if kind != "" {
		add(atom("cyc_kind", str(gg), str(kind)))
	} else {
		add(atom("cyc_anykind", str(gg)))
	}
	var ge []pair
	for _, e := range m.Edges {
		if kind == "" || e.Kind == kind {
			ge = append(ge, pair{e.Src, e.Dst})
		}
	}
	addHints(add, gg, ge, nil)
}

// recordKinds are the dependency kinds of one import: its syntactic form,
// and type-checking for a Python import under `if TYPE_CHECKING:`.
func recordKinds(r *imports.Record) []string {
	if r.TypeChecking {
		return []string{string(r.Kind), "type-checking"}
	}
	return []string{string(r.Kind)}
}

// filteredDeps is the node-level import graph a filtered rule keeps, for
// the cycle hints only: the same graph the engine derives as fdep, from
// the same dependencies, import sites and site kinds (a site is dropped
// when any kind recorded on its line is ignored; with dependency_types it
// is kept only when one of them is listed), less the ignored pairs.
func filteredDeps(r *arch.Rule, deps []pair, sites map[pair][]Site, kinds map[siteKey][]string, ignored map[pair]bool) []pair {
	var out []pair
	for _, d := range deps {
		if ignored[d] {
			continue
		}
		keep := slices.ContainsFunc(sites[d], func(s Site) bool {
			ks := kinds[siteKey{s.File, s.Line}]
			if slices.ContainsFunc(ks, func(k string) bool { return slices.Contains(r.DependencyTypesNot, k) }) {
				return false
			}
			return len(r.DependencyTypes) == 0 || slices.ContainsFunc(ks, func(k string) bool { return slices.Contains(r.DependencyTypes, k) })
		})
		if keep {
			out = append(out, d)
		}
	}
	return out
}

func addMatcher(add func(ast.Atom), rule ast.Constant, id string, mt arch.Matcher, nodes []string) {
	M := str(id)
	add(atom("matcher", M))
	add(atom("rule_matcher", rule, M))
	switch {
	case len(mt.Modules) > 0:
		// Module expressions, and ref_id when given too: the node ids
		// matching both, matched here as globs are (Mangle has none).
		add(atom("m_has_ref", M))
		var g arch.Glob
		if mt.RefID != "" {
			g, _ = arch.CompileGlob(mt.RefID)
		}
		for _, n := range matchModules(mt.Modules, nodes) {
			if mt.RefID == "" || g.Match(n) || n == mt.RefID {
				add(atom("m_ref", str(n), M))
			}
		}
	case mt.RefID != "":
		add(atom("m_has_ref", M))
		g, err := arch.CompileGlob(mt.RefID)
		if err != nil || g.IsLiteral() {
			add(atom("m_ref", str(mt.RefID), M))
		} else {
			for _, n := range nodes {
				if g.Match(n) {
					add(atom("m_ref", str(n), M))
				}
			}
		}
	}
	if mt.Kind != "" {
		add(atom("m_kind", M, str(mt.Kind)))
	}
	if mt.Tag != "" {
		add(atom("m_tag", M, str(mt.Tag)))
	}
	for _, x := range mt.Exclude {
		add(atom("m_excl", M, str(x)))
	}
	// Module expressions excluded: the nodes they match, as m_ref lists
	// the nodes module expressions match.
	for _, n := range matchModules(mt.ExcludeModules, nodes) {
		if !slices.Contains(mt.Exclude, n) {
			add(atom("m_excl", M, str(n)))
		}
	}
}

// matchModules returns the node ids (dotted module names) any of the
// module expressions matches, descendants included, in nodes' order.
func matchModules(exprs []string, nodes []string) []string {
	var pats []arch.ModulePattern
	for _, e := range exprs {
		if p, err := arch.CompileModule(e, true); err == nil {
			pats = append(pats, p)
		}
	}
	var out []string
	for _, n := range nodes {
		for _, p := range pats {
			if p.Match(n) {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// siblingFacts writes an acyclic_siblings rule's graphs: one per package
// it checks (its ancestors, then their children down Depth generations,
// not below a skipped package; a package with fewer than two children is
// not checked, as it cannot hold a cycle), named sib:RULE:PACKAGE, with
// sib_in(N, G, C) for every module N inside child C of the package. The
// engine derives the children's dependencies (gstep) from the imports
// between their modules and finds the cycles as forbid_cycles does; the
// hints come from the same dependencies, graph.
func siblingFacts(add func(ast.Atom), pr *prepared, r *arch.Rule, nodes []string, graph []pair) {
	s := r.Siblings
	R := str(r.Name)
	compile := func(exprs []string) []arch.ModulePattern {
		var out []arch.ModulePattern
		for _, e := range exprs {
			if p, err := arch.CompileModule(e, false); err == nil {
				out = append(out, p)
			}
		}
		return out
	}
	matchAny := func(ps []arch.ModulePattern, n string) bool {
		return slices.ContainsFunc(ps, func(p arch.ModulePattern) bool { return p.Match(n) })
	}
	anc, skip := compile(s.Ancestors), compile(s.SkipDescendants)
	children := map[string][]string{}
	for _, n := range nodes {
		if i := strings.LastIndexByte(n, '.'); i > 0 {
			children[n[:i]] = append(children[n[:i]], n)
		}
	}
	checked := map[string]bool{}
	var pkgs []string
	var visit func(p string, depth int)
	visit = func(p string, depth int) {
		kids := children[p]
		if len(kids) == 0 {
			return
		}
		if len(kids) >= 2 && !checked[p] {
			checked[p] = true
			pkgs = append(pkgs, p)
		}
		if depth == 0 {
			return
		}
		for _, k := range kids {
			if !matchAny(skip, k) {
				visit(k, depth-1)
			}
		}
	}
	for _, n := range nodes {
		if matchAny(anc, n) {
			visit(n, s.Depth)
		}
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		g := "sib:" + r.Name + ":" + p
		G := str(g)
		pr.graphs[g] = cycleGraph{imports: true, siblings: p, sibRule: r.Name}
		add(atom("cyc", R, G))
		add(atom("cyc_sib", G, R))
		child := func(n string) (string, bool) {
			rest, ok := strings.CutPrefix(n, p+".")
			if !ok {
				return "", false
			}
			first, _, _ := strings.Cut(rest, ".")
			return p + "." + first, true
		}
		for _, n := range nodes {
			if c, ok := child(n); ok {
				add(atom("sib_in", str(n), G, str(c)))
			}
		}
		var edges []pair
		seen := map[pair]bool{}
		for _, d := range graph {
			a, ok1 := child(d.a)
			b, ok2 := child(d.b)
			if ok1 && ok2 && a != b && !seen[pair{a, b}] {
				seen[pair{a, b}] = true
				edges = append(edges, pair{a, b})
			}
		}
		sortPairs(edges)
		addHints(add, g, edges, nil)
	}
}

// withinFacts writes deny_within(A, B, R) for each dependency whose two
// ends lie inside one module a to expression of R names: the innermost
// module matching the expression (without descendants) that contains B
// contains A too. The engine drops those pairs from R's findings
// (allow_within, import-linter's protected packages).
func withinFacts(add func(ast.Atom), R ast.Constant, exprs []string, deps []pair) {
	var pats []arch.ModulePattern
	for _, e := range exprs {
		if p, err := arch.CompileModule(e, false); err == nil {
			pats = append(pats, p)
		}
	}
	for _, d := range deps {
		for _, p := range pats {
			top := innermost(p, d.b)
			if top != "" && (d.a == top || strings.HasPrefix(d.a, top+".")) {
				add(atom("deny_within", str(d.a), str(d.b), R))
				break
			}
		}
	}
}

// innermost is the longest dotted prefix of n (n included) that p
// matches, or "".
func innermost(p arch.ModulePattern, n string) string {
	for cur := n; cur != ""; {
		if p.Match(cur) {
			return cur
		}
		i := strings.LastIndexByte(cur, '.')
		if i < 0 {
			break
		}
		cur = cur[:i]
	}
	return ""
}

// ignoreFacts writes rule r's ignore_imports: an ignore_entry per entry
// (unless unmatched entries are not reported) and an ignore_pair for each
// node-level dependency an entry's modules match. The engine drops those
// pairs from the import graph the rule sees and reports entries that
// matched nothing. It returns the ignored pairs, for proposing cycle
// pivots over the same graph.
func ignoreFacts(add func(ast.Atom), R ast.Constant, r *arch.Rule, deps []pair) map[pair]bool {
	ignored := map[pair]bool{}
	for i, ig := range r.IgnoreImports {
		I := num(int64(i))
		if r.IgnoreUnmatched != "none" {
			add(atom("ignore_entry", R, I))
		}
		from, err1 := arch.CompileModule(ig.From, false)
		to, err2 := arch.CompileModule(ig.To, false)
		if err1 != nil || err2 != nil {
			continue
		}
		for _, d := range deps {
			if from.Match(d.a) && to.Match(d.b) {
				add(atom("ignore_pair", str(d.a), str(d.b), R, I))
				ignored[d] = true
			}
		}
	}
	return ignored
}

// candidates counts the nodes a matcher can select judging by its ref_id
// and kind alone: an upper bound used to pick where a reachability search
// starts, never to decide a finding.
func candidates(mt arch.Matcher, nodes []arch.Node) int {
	var g arch.Glob
	glob := false
	if mt.RefID != "" {
		if c, err := arch.CompileGlob(mt.RefID); err == nil && !c.IsLiteral() {
			g, glob = c, true
		}
	}
	n := 0
	for _, node := range nodes {
		switch {
		case mt.Kind != "" && node.Kind != mt.Kind:
		case mt.RefID != "" && glob && !g.Match(node.ID):
		case mt.RefID != "" && !glob && node.ID != mt.RefID:
		default:
			n++
		}
	}
	return n
}

type fiRule struct {
	name     ast.Constant
	from, to arch.Glob
}

// importKeys appends the names a forbid_import to-glob is tried against for
// one import: its resolved target, its spec as written, and the spec as a
// path (Python dots and Rust :: become '/'), so "pkg/**" catches `import
// pkg`, `from pkg.sub import x` and `use pkg::sub`. It also returns the
// target forbid_import findings display.
func importKeys(r *imports.Record, ks []string) ([]string, string) {
	target := r.Resolution.Target
	if target == "" {
		target = r.Spec
	}
	add := func(k string) {
		if k != "" && !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	add(target)
	add(r.Spec)
	switch r.Lang {
	case imports.Python:
		add(strings.ReplaceAll(strings.TrimLeft(r.Spec, "."), ".", "/"))
	case imports.Rust:
		add(strings.ReplaceAll(r.Spec, "::", "/"))
	}
	if r.Resolution.Kind == imports.Internal {
		add(path.Clean(target))
	}
	return ks, target
}

// forbidImportFacts writes the glob facts forbid_import rules are joined
// with: fi_key rows only for imports in files some from glob matches, by
// keys the same rule's to glob matches, one key per import unless another
// key matches another such rule (a semijoin reduction that keeps the
// relations proportional to what the rules can see), fi_file for those files and
// fi_target for those keys. Which rule matches which file and key is still
// joined by the engine (fi_hit). fi_to_any says a to glob matches some
// import anywhere, for inert rules.
//
// It returns the files listed in fi_file.
func forbidImportFacts(add func(ast.Atom), fis []fiRule, recs []imports.Record) []string {
	toAny := make([]bool, len(fis))
	keyHit := map[string][]bool{} // key -> which rules' to glob matches it
	match := func(k string) []bool {
		h, ok := keyHit[k]
		if !ok {
			for i, f := range fis {
				if f.to.Match(k) {
					if h == nil {
						h = make([]bool, len(fis))
					}
					h[i] = true
					toAny[i] = true
				}
			}
			keyHit[k] = h
		}
		return h
	}
	var (
		ks       []string
		last     string
		fileHit  []bool // which rules' from glob matches the current file
		fileUsed bool   // the current file has an fi_key row
		targetOf = map[string]bool{}
		listed   = map[string]bool{} // files with fi_file facts
		files    []string
		covered  = make([]bool, len(fis))
		prefixes []string // the to globs' literal prefixes
	)
	for _, f := range fis {
		if p := f.to.Prefix(); !slices.Contains(prefixes, p) {
			prefixes = append(prefixes, p)
		}
	}
	flush := func() {
		if fileUsed && !listed[last] {
			listed[last] = true
			files = append(files, last)
			for i, f := range fis {
				if fileHit[i] {
					add(atom("fi_file", str(last), f.name))
				}
			}
		}
	}
	for i := range recs {
		r := &recs[i]
		if r.File != last || i == 0 {
			flush()
			last, fileUsed, fileHit = r.File, false, nil
			for j, f := range fis {
				if f.from.Match(r.File) {
					if fileHit == nil {
						fileHit = make([]bool, len(fis))
					}
					fileHit[j] = true
				}
			}
		}
		if fileHit == nil {
			continue
		}
		var target string
		ks, target = importKeys(r, ks[:0])
		clear(covered)
		for _, k := range ks {
			if !hasPrefix(k, prefixes) {
				continue // no to glob can match: skip the lookup
			}
			h := match(k)
			if h == nil {
				continue
			}
			// A key is listed when it brings a rule match the import's
			// earlier keys did not: more keys would only repeat findings.
			for j := range fis {
				if h[j] && fileHit[j] && !covered[j] {
					for j2 := range fis {
						covered[j2] = covered[j2] || (h[j2] && fileHit[j2])
					}
					add(atom("fi_key", str(r.File), num(int64(r.Line)), str(target), str(k)))
					targetOf[k] = true
					fileUsed = true
					break
				}
			}
		}
	}
	flush()
	keys := make([]string, 0, len(targetOf))
	for k := range targetOf {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for j, f := range fis {
			if keyHit[k][j] {
				add(atom("fi_target", str(k), f.name))
			}
		}
	}
	// A to glob no key above matched may still match an import elsewhere.
	for i := range recs {
		if !slices.Contains(toAny, false) {
			break
		}
		ks, _ = importKeys(&recs[i], ks[:0])
		for _, k := range ks {
			if hasPrefix(k, prefixes) {
				match(k)
			}
		}
	}
	for j, f := range fis {
		if toAny[j] {
			add(atom("fi_to_any", f.name))
		}
	}
	return files
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// importTargets lists the distinct display targets of every import, sorted.
func importTargets(recs []imports.Record) []string {
	seen := map[string]bool{}
	out := []string{}
	for i := range recs {
		_, t := importKeys(&recs[i], nil)
		if k := depKey(&recs[i]); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// endpoints lists the names a rule's findings can have at each end, so
// exemption globs become facts.
func endpoints(r arch.Rule, nodes, files []string, targets func() []string) (from, to []string) {
	switch r.Type {
	case arch.ForbidDependency, arch.AllowedDependencies:
		return files, append(targets(), "")
	case arch.ModuleCoverage:
		return files, []string{""}
	case arch.Check:
		return nodes, []string{"max_files", "max_symbols"}
	}
	if r.Type != arch.ForbidImport {
		to = nodes
		if r.Type == arch.Require {
			to = append(slices.Clone(nodes), "")
		}
		return nodes, to
	}
	fg, _ := arch.CompileGlob(r.FromGlob)
	for _, f := range files {
		if fg.Match(f) {
			from = append(from, f)
		}
	}
	return from, targets()
}

// globFilter returns the names pattern matches; an empty pattern matches
// every name.
func globFilter(pattern string, names []string) []string {
	if pattern == "" {
		return names
	}
	g, err := arch.CompileGlob(pattern)
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range names {
		if g.Match(n) || n == pattern {
			out = append(out, n)
		}
	}
	return out
}

func sortPairs(ps []pair) {
	slices.SortFunc(ps, func(x, y pair) int {
		if c := strings.Compare(x.a, y.a); c != 0 {
			return c
		}
		return strings.Compare(x.b, y.b)
	})
}

// addHints writes the hints the engine finds graph g's strongly connected
// components with (sccHints): cyc_class for every node of an edge and
// cyc_pivot for every component that may hold a cycle. With all (the
// model's nodes, for an import graph) every other node gets a component
// of its own too, and cyc_full says so.
func addHints(add func(ast.Atom), g string, edges []pair, all []string) {
	class, piv := sccHints(edges)
	G := str(g)
	if all != nil {
		next := len(class)
		for _, n := range all {
			if _, ok := class[n]; !ok {
				class[n] = next
				next++
			}
		}
		add(atom("cyc_full", G))
	}
	names := make([]string, 0, len(class))
	for n := range class {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		add(atom("cyc_class", str(n), G, num(int64(class[n]))))
	}
	for _, p := range piv {
		add(atom("cyc_pivot", G, str(p)))
	}
}

// sccHints proposes how the engine finds a graph's strongly connected
// components in linear time (Tarjan, iterative). class numbers every
// node's component in the order Tarjan completes them, so an edge between
// two components always goes from a higher number to a lower one; pivots
// are the smallest node of every component that could hold a cycle
// (several nodes, or a self-loop).
//
// These are hints, not verdicts: the engine searches from each pivot
// within its component only (so the relations it derives stay
// O(nodes), where searching the whole graph from every pivot grew with
// pivots x nodes), and checks them (cyc_hint_bad): an edge from a lower
// number to a higher one, a node without one, an inner edge of a
// component without a pivot, or a member the pivot's search does not
// reach both ways fails the run.
func sccHints(edges []pair) (class map[string]int, pivots []string) {
	idx := map[string]int{}
	var names []string
	id := func(s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		idx[s] = len(names)
		names = append(names, s)
		return len(names) - 1
	}
	var adj [][]int
	self := map[int]bool{}
	for _, e := range edges {
		a, b := id(e.a), id(e.b)
		for len(adj) < len(names) {
			adj = append(adj, nil)
		}
		adj[a] = append(adj[a], b)
		if a == b {
			self[a] = true
		}
	}
	for len(adj) < len(names) {
		adj = append(adj, nil)
	}
	n := len(names)
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	class = make(map[string]int, n)
	var stack []int
	counter, comps := 0, 0
	type frame struct{ v, i int }
	for s := 0; s < n; s++ {
		if index[s] >= 0 {
			continue
		}
		call := []frame{{s, 0}}
		index[s], low[s] = counter, counter
		counter++
		stack = append(stack, s)
		on[s] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(adj[f.v]) {
				w := adj[f.v][f.i]
				f.i++
				if index[w] < 0 {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					on[w] = true
					call = append(call, frame{w, 0})
				} else if on[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, names[w])
				class[names[w]] = comps
				if w == v {
					break
				}
			}
			comps++
			if len(comp) > 1 || self[v] {
				pivots = append(pivots, slices.Min(comp))
			}
		}
	}
	sort.Strings(pivots)
	return class, pivots
}

func itoa(n int) string { return strconv.Itoa(n) }
