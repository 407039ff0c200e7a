package arch

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Explain writes the model as vouch's own architecture.yaml: how every
// rule was understood, each preceded by a comment naming the file:line it
// was read from and, for a rule read from another tool's configuration,
// that tool's rule and the notes on its meaning. The output loads back as
// an architecture.yaml with the same rules, so a team can switch to it.
func (m *Model) Explain(w io.Writer) error {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	files := strings.Join(m.Files, ", ")
	if files == "" {
		files = "no configuration file"
	}
	doc.HeadComment = fmt.Sprintf("vouch rules as understood from %s (layout %s).", files, m.Layout)
	if m.Granularity != "" {
		put(doc, "granularity", scalar(m.Granularity))
	}
	if len(m.PythonRoots) > 0 {
		put(doc, "python_roots", strSeq(m.PythonRoots))
	}
	if len(m.RootPackages) > 0 {
		put(doc, "root_packages", strSeq(m.RootPackages))
	}
	if m.ExternalPackages {
		put(doc, "include_external_packages", boolean(true))
	}
	if sc := m.Scope; sc != nil {
		sm := &yaml.Node{Kind: yaml.MappingNode}
		for _, kv := range []struct {
			key  string
			list []string
		}{{"exclude", sc.Exclude}, {"include_only", sc.IncludeOnly}, {"do_not_follow", sc.DoNotFollow}} {
			if len(kv.list) > 0 {
				put(sm, kv.key, strSeq(kv.list))
			}
		}
		put(sm, "drop_type_only", boolean(sc.NoTypeOnly))
		put(sm, "js_only", boolean(sc.JSOnly))
		put(doc, "scope", sm)
	}
	if len(m.Nodes) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, n := range m.Nodes {
			nm := flow()
			put(nm, "ref_id", scalar(n.ID))
			putStr(nm, "kind", n.Kind)
			putStr(nm, "source", n.Source)
			if len(n.Tags) > 0 {
				put(nm, "tags", strSeq(n.Tags))
			}
			putStr(nm, "lifecycle", n.Lifecycle)
			seq.Content = append(seq.Content, nm)
		}
		put(doc, "nodes", seq)
	}
	if len(m.Edges) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range m.Edges {
			em := flow()
			put(em, "src", scalar(e.Src))
			put(em, "dst", scalar(e.Dst))
			put(em, "kind", scalar(e.Kind))
			putStr(em, "lifecycle", e.Lifecycle)
			seq.Content = append(seq.Content, em)
		}
		put(doc, "edges", seq)
	}
	if len(m.pendingTags) > 0 {
		// Tags a rules.yml `tags:` map gives, not yet applied to nodes.
		byTag := map[string][]string{}
		for id, tags := range m.pendingTags {
			for _, t := range tags {
				byTag[t] = append(byTag[t], id)
			}
		}
		var names []string
		for t := range byTag {
			names = append(names, t)
			sort.Strings(byTag[t])
		}
		sort.Strings(names)
		tm := &yaml.Node{Kind: yaml.MappingNode}
		for _, t := range names {
			put(tm, t, strSeq(byTag[t]))
		}
		put(doc, "tags", tm)
	}
	rules := &yaml.Node{Kind: yaml.SequenceNode}
	for i := range m.Rules {
		rules.Content = append(rules.Content, ruleNode(&m.Rules[i]))
	}
	put(doc, "rules", rules)
	if len(m.Skipped) > 0 {
		var lines []string
		for _, s := range m.Skipped {
			lines = append(lines, fmt.Sprintf("%s: rule %s (%s) is not evaluated by vouch", s.Pos, s.Name, s.Type))
		}
		rules.FootComment = strings.Join(lines, "\n")
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{doc}}); err != nil {
		return fmt.Errorf("render rules: %w", err)
	}
	return enc.Close()
}

// ruleNode renders one rule, with its provenance as a head comment.
func ruleNode(r *Rule) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	var head []string
	if o := r.Origin; o != nil {
		head = append(head, fmt.Sprintf("%s: %s %q", o.Pos, o.Tool, o.Group))
		head = append(head, o.Note...)
	} else {
		head = append(head, r.Pos.String())
	}
	n.HeadComment = strings.Join(head, "\n")
	put(n, "name", scalar(r.Name))
	putStr(n, "description", r.Description)
	if r.Severity != "" && r.Severity != SeverityError {
		put(n, "severity", scalar(r.Severity))
	}
	putStr(n, "reason", r.Reason)
	body := &yaml.Node{Kind: yaml.MappingNode}
	filters := func() {
		if len(r.IgnoreImports) > 0 {
			seq := &yaml.Node{Kind: yaml.SequenceNode}
			for _, ig := range r.IgnoreImports {
				im := flow()
				put(im, "from", scalar(ig.From))
				put(im, "to", scalar(ig.To))
				seq.Content = append(seq.Content, im)
			}
			put(body, "ignore_imports", seq)
		}
		putStr(body, "unmatched_ignore", r.IgnoreUnmatched)
		if len(r.DependencyTypes) > 0 {
			put(body, "dependency_types", strSeq(r.DependencyTypes))
		}
		if len(r.DependencyTypesNot) > 0 {
			put(body, "dependency_types_not", strSeq(r.DependencyTypesNot))
		}
	}
	chains := func() {
		if r.Indirect {
			put(body, "indirect", boolean(true))
			if r.MaxChains > 0 {
				put(body, "max_chains", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(r.MaxChains)})
			}
		}
	}
	switch r.Type {
	case Deny:
		put(body, "from", matcherNode(r.From))
		put(body, "to", matcherNode(r.To))
		if len(r.UnlessEdge) > 0 {
			put(body, "unless_edge", strSeq(r.UnlessEdge))
		}
		if r.AllowWithin {
			put(body, "allow_within", boolean(true))
		}
		chains()
		filters()
	case Require:
		put(body, "for", matcherNode(r.From))
		put(body, "has_edge_to", matcherNode(r.To))
		putStr(body, "edge_kind", r.EdgeKind)
	case Forbid:
		put(body, "from", matcherNode(r.From))
		put(body, "to", matcherNode(r.To))
		putStr(body, "edge_kind", r.EdgeKind)
		chains()
	case ForbidImport:
		put(body, "from", scalar(r.FromGlob))
		put(body, "to", scalar(r.ToGlob))
	case AcyclicSiblings:
		put(body, "ancestors", strSeq(r.Siblings.Ancestors))
		put(body, "depth", intNode(r.Siblings.Depth))
		if len(r.Siblings.SkipDescendants) > 0 {
			put(body, "skip_descendants", strSeq(r.Siblings.SkipDescendants))
		}
		filters()
	case ForbidCycles:
		putStr(body, "edge_kind", r.EdgeKind)
		if r.GraphOnly {
			put(body, "include_imports", boolean(false))
		}
		filters()
	case ForbidDependency:
		depNode(body, r.Dep)
	case AllowedDependencies:
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for i := range r.Allowed {
			e := &yaml.Node{Kind: yaml.MappingNode}
			depNode(e, &r.Allowed[i])
			seq.Content = append(seq.Content, e)
		}
		put(n, string(r.Type), seq)
		return withExempt(n, r)
	case Check:
		put(body, "for", matcherNode(r.From))
		if r.MaxSymbols >= 0 {
			put(body, "max_symbols", intNode(r.MaxSymbols))
		}
		if r.MaxFiles >= 0 {
			put(body, "max_files", intNode(r.MaxFiles))
		}
	case ModuleCoverage:
		put(body, "source_root", scalar(r.SourceRoot))
		put(body, "min_symbols", intNode(r.MinSymbols))
		if len(r.ExemptGlobs) > 0 {
			put(body, "exempt", strSeq(r.ExemptGlobs))
		}
	case Layers:
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, l := range r.Layers {
			lm := flow()
			put(lm, "name", scalar(l.Name))
			putStr(lm, "tag", l.Tag)
			if len(l.Modules) > 0 {
				put(lm, "module", strSeq(l.Modules))
			}
			seq.Content = append(seq.Content, lm)
		}
		put(body, "layers", seq)
		if e := r.Exhaustive; e != nil {
			em := flow()
			put(em, "container", scalar(e.Container))
			if len(e.Ignores) > 0 {
				put(em, "ignores", strSeq(e.Ignores))
			}
			put(body, "exhaustive", em)
		}
		if !r.AllowSkip {
			put(body, "allow_skip", boolean(false))
		}
		putStr(body, "edge_kind", r.EdgeKind)
		if r.GraphOnly {
			put(body, "include_imports", boolean(false))
		}
		chains()
		filters()
	}
	if len(body.Content) == 0 {
		body.Style = yaml.FlowStyle
	}
	put(n, string(r.Type), body)
	return withExempt(n, r)
}

// withExempt adds the rule's exemptions to its node.
func withExempt(n *yaml.Node, r *Rule) *yaml.Node {
	if len(r.Exempt) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range r.Exempt {
			em := flow()
			putStr(em, "from", e.From)
			putStr(em, "to", e.To)
			if e.Members != nil {
				put(em, "members", strSeq(e.Members))
			}
			put(em, "reason", scalar(e.Reason))
			put(em, "until", scalar(e.Until))
			seq.Content = append(seq.Content, em)
		}
		put(n, "exempt", seq)
	}
	return n
}

// depNode renders a forbid_dependency rule's or allowed entry's from and
// to into m.
func depNode(m *yaml.Node, d *DepRule) {
	from, to := flow(), flow()
	paths := func(n *yaml.Node, p DepPaths) {
		if len(p.Path) > 0 {
			put(n, "path", strSeq(p.Path))
		}
		if len(p.PathNot) > 0 {
			put(n, "path_not", strSeq(p.PathNot))
		}
	}
	paths(from, d.From.DepPaths)
	if d.From.Orphan != nil {
		put(from, "orphan", boolean(*d.From.Orphan))
	}
	paths(to, d.To.DepPaths)
	if d.To.Circular != nil {
		put(to, "circular", boolean(*d.To.Circular))
	}
	if len(d.To.ViaOnly.Path) > 0 || len(d.To.ViaOnly.PathNot) > 0 {
		v := flow()
		paths(v, d.To.ViaOnly)
		put(to, "via_only", v)
	}
	if len(d.To.DependencyTypes) > 0 {
		put(to, "dependency_types", strSeq(d.To.DependencyTypes))
	}
	if len(d.To.DependencyTypesNot) > 0 {
		put(to, "dependency_types_not", strSeq(d.To.DependencyTypesNot))
	}
	if d.To.CouldNotResolve != nil {
		put(to, "could_not_resolve", boolean(*d.To.CouldNotResolve))
	}
	if d.To.MoreThanOneType != nil {
		put(to, "more_than_one_type", boolean(*d.To.MoreThanOneType))
	}
	put(m, "from", from)
	put(m, "to", to)
}

func intNode(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

// matcherNode renders a node matcher in flow style, `{}` for any node.
func matcherNode(mt Matcher) *yaml.Node {
	n := flow()
	putStr(n, "ref_id", mt.RefID)
	if len(mt.Modules) > 0 {
		put(n, "module", strSeq(mt.Modules))
	}
	putStr(n, "kind", mt.Kind)
	putStr(n, "tag", mt.Tag)
	if len(mt.Exclude) > 0 {
		put(n, "exclude", strSeq(mt.Exclude))
	}
	if len(mt.ExcludeModules) > 0 {
		put(n, "exclude_module", strSeq(mt.ExcludeModules))
	}
	return n
}

func flow() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle} }

// scalar is a string: tagged so the encoder quotes a value that would
// read back as another type ("true", "1").
func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func boolean(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func strSeq(list []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range list {
		n.Content = append(n.Content, scalar(s))
	}
	return n
}

func put(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, scalar(key), v)
}

// putStr puts a string value unless it is empty.
func putStr(m *yaml.Node, key, v string) {
	if v != "" {
		put(m, key, scalar(v))
	}
}
