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
	// sites lists the import sites behind each node-level dependency,
	// sorted; only pairs the engine asks for enter the program.
	sites map[pair][]Site
	// targets remembers the display target of each import site for
	// forbid_import findings.
	stats Stats
	// graphs maps a cycle graph id to its rule and what it is made of.
	graphs map[string]cycleGraph
	rules  map[string]*arch.Rule
}

type cycleGraph struct {
	rule    string
	imports bool
	kind    string
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
func prepare(m *arch.Model, scan *imports.Result, annot map[string][]string, today int64) *prepared {
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
	for _, e := range m.Edges {
		add(atom("edge", str(e.Src), str(e.Dst), str(e.Kind)))
	}

	// Node-level dependencies: internal imports between files of different
	// nodes. Files of one node never cross a boundary.
	pr.stats.Files = len(scan.Files)
	for _, r := range scan.Records {
		if r.Resolution.Kind != imports.Unresolved {
			pr.stats.ImportsResolved++
		}
		if r.Resolution.Kind != imports.Internal {
			continue
		}
		a, ok := own.owner(r.File)
		if !ok {
			continue
		}
		b, ok := own.owner(r.Resolution.Target)
		if !ok || a == b {
			continue
		}
		k := pair{a, b}
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

	add(atom("today", num(today)))
	var keys []string // distinct import keys, for forbid_import targets
	targetKeys := map[string]bool{}
	var keyRows []importKeys
	for i, r := range m.Rules {
		rule := &m.Rules[i]
		pr.rules[r.Name] = rule
		R := str(r.Name)
		add(atom("rule", R, nameConst(string(r.Type)), nameConst(r.Severity)))
		if r.EdgeKind != "" && r.Type != arch.ForbidCycles {
			add(atom("rule_edge_kind", R, str(r.EdgeKind)))
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
		case arch.ForbidImport:
			add(atom("fi", R))
			if keyRows == nil {
				keyRows, keys = collectKeys(scan.Records)
			}
			fg, _ := arch.CompileGlob(r.FromGlob)
			tg, _ := arch.CompileGlob(r.ToGlob)
			for _, f := range scan.Files {
				if fg.Match(f) {
					add(atom("fi_file", R, str(f)))
				}
			}
			for _, k := range keys {
				if tg.Match(k) {
					add(atom("fi_target", R, str(k)))
					targetKeys[k] = true
				}
			}
		case arch.ForbidCycles:
			gg := r.Name + "#graph"
			gi := r.Name + "#imports"
			pr.graphs[gg] = cycleGraph{rule: r.Name, kind: r.EdgeKind}
			pr.graphs[gi] = cycleGraph{rule: r.Name, imports: true}
			add(atom("cyc", R, str(gg)))
			add(atom("cyc", R, str(gi)))
			if r.EdgeKind != "" {
				add(atom("cyc_kind", str(gg), str(r.EdgeKind)))
			} else {
				add(atom("cyc_anykind", str(gg)))
			}
			add(atom("cyc_imports", str(gi)))
			var ge []pair
			for _, e := range m.Edges {
				if r.EdgeKind == "" || e.Kind == r.EdgeKind {
					ge = append(ge, pair{e.Src, e.Dst})
				}
			}
			for _, p := range pivots(ge) {
				add(atom("cyc_pivot", str(gg), str(p)))
			}
			for _, p := range pivots(deps) {
				add(atom("cyc_pivot", str(gi), str(p)))
			}
		case arch.Layers:
			add(atom("layers_rule", R))
			for j, l := range r.Layers {
				add(atom("layer", R, num(int64(j)), str(l.Tag)))
				if j > 0 {
					add(atom("layer_adjacent", R, num(int64(j-1)), num(int64(j))))
				}
			}
			if !r.AllowSkip {
				add(atom("layer_no_skip", R))
			}
		}
		if len(r.Exempt) > 0 {
			from, to := endpoints(r, nodeIDs, scan.Files, keyRows)
			for j, e := range r.Exempt {
				I := num(int64(j))
				add(atom("exempt", R, I))
				add(atom("exempt_until", R, I, num(e.UntilDay)))
				for _, x := range globFilter(e.From, from) {
					add(atom("exempt_from", R, I, str(x)))
				}
				for _, y := range globFilter(e.To, to) {
					add(atom("exempt_to", R, I, str(y)))
				}
			}
		}
	}
	// fi_key rows only for files some forbid_import from glob matches and
	// keys some to glob matches: a semijoin reduction that keeps the
	// relation proportional to what the rules can see. Which rule matches
	// which file and key is still joined by the engine (fi_hit).
	if keyRows != nil {
		var fromGlobs []arch.Glob
		for _, r := range m.Rules {
			if r.Type == arch.ForbidImport {
				g, _ := arch.CompileGlob(r.FromGlob)
				fromGlobs = append(fromGlobs, g)
			}
		}
		last, lastOK := "", false
		for _, kr := range keyRows {
			if kr.file != last {
				last, lastOK = kr.file, slices.ContainsFunc(fromGlobs, func(g arch.Glob) bool { return g.Match(kr.file) })
			}
			if !lastOK {
				continue
			}
			for _, k := range kr.keys {
				if targetKeys[k] {
					add(atom("fi_key", str(kr.file), num(int64(kr.line)), str(kr.target), str(k)))
				}
			}
		}
	}
	pr.stats.Nodes = len(m.Nodes)
	pr.stats.Edges = len(m.Edges)
	return pr
}

func addMatcher(add func(ast.Atom), rule ast.Constant, id string, mt arch.Matcher, nodes []string) {
	M := str(id)
	add(atom("matcher", M))
	add(atom("rule_matcher", rule, M))
	if mt.RefID != "" {
		add(atom("m_has_ref", M))
		g, err := arch.CompileGlob(mt.RefID)
		if err != nil || g.IsLiteral() {
			add(atom("m_ref", M, str(mt.RefID)))
		} else {
			for _, n := range nodes {
				if g.Match(n) {
					add(atom("m_ref", M, str(n)))
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
}

// importKeys are the names a forbid_import to-glob is tried against for one
// import: its resolved target, its spec as written, and the spec as a path
// (Python dots and Rust :: become '/'), so "pkg/**" catches `import pkg`,
// `from pkg.sub import x` and `use pkg::sub`.
type importKeys struct {
	file, target string
	line         int
	keys         []string
}

func collectKeys(recs []imports.Record) ([]importKeys, []string) {
	rows := make([]importKeys, 0, len(recs))
	seen := map[string]bool{}
	var all []string
	for _, r := range recs {
		target := r.Resolution.Target
		if target == "" {
			target = r.Spec
		}
		ks := []string{target, r.Spec}
		switch r.Lang {
		case imports.Python:
			ks = append(ks, strings.ReplaceAll(strings.TrimLeft(r.Spec, "."), ".", "/"))
		case imports.Rust:
			ks = append(ks, strings.ReplaceAll(r.Spec, "::", "/"))
		}
		if r.Resolution.Kind == imports.Internal {
			ks = append(ks, path.Clean(target))
		}
		slices.Sort(ks)
		ks = slices.Compact(ks)
		if ks[0] == "" {
			ks = ks[1:]
		}
		for _, k := range ks {
			if !seen[k] {
				seen[k] = true
				all = append(all, k)
			}
		}
		rows = append(rows, importKeys{file: r.File, target: target, line: r.Line, keys: ks})
	}
	sort.Strings(all)
	return rows, all
}

// endpoints lists the names a rule's findings can have at each end, so
// exemption globs become facts.
func endpoints(r arch.Rule, nodes, files []string, rows []importKeys) (from, to []string) {
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
	seen := map[string]bool{}
	for _, kr := range rows {
		if !seen[kr.target] {
			seen[kr.target] = true
			to = append(to, kr.target)
		}
	}
	sort.Strings(to)
	return from, to
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

// pivots proposes where the engine starts reachability: the smallest node
// of every strongly connected component that could hold a cycle (Tarjan,
// iterative). The engine decides membership and whether a cycle exists; a
// pivot is only a starting point, which keeps the derived relations at
// O(pivots x nodes) rather than all pairs.
func pivots(edges []pair) []string {
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
	var stack []int
	counter := 0
	var out []string
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
				if w == v {
					break
				}
			}
			if len(comp) > 1 || self[v] {
				out = append(out, slices.Min(comp))
			}
		}
	}
	sort.Strings(out)
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
