package lint

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/imports"
)

// depKey is the name a forbid_dependency to path is matched against, as
// dependency-cruiser names a dependency's resolved module: a repository
// file's path, node_modules/<package> for an npm package (vouch does not
// resolve the package's main file), a core module's name, or the
// specifier as written when it could not be resolved.
func depKey(r *imports.Record) string {
	switch r.Resolution.Kind {
	case imports.Internal:
		return r.Resolution.Target
	case imports.External:
		if r.Lang == imports.JavaScript || r.Lang == imports.TypeScript {
			return "node_modules/" + r.Resolution.Target
		}
		return r.Resolution.Target
	case imports.Stdlib:
		return r.Resolution.Target
	}
	return r.Spec
}

// depTypes are one import's dependency types for forbid_dependency: its
// form and where it resolved. An unresolved import is only "unknown", as
// dependency-cruiser records it. An npm package is "npm", or, when some
// rule tells packages apart by their package.json (npm non-nil), the
// types npm gives it.
func depTypes(r *imports.Record, npm NpmTypes) []string {
	switch r.Resolution.Kind {
	case imports.Unresolved:
		return []string{"unknown"}
	case imports.Internal:
		return append(recordKinds(r), "local")
	case imports.External:
		if t := npm.types(r.File, r.Resolution.Target); t != nil {
			return append(recordKinds(r), t...)
		}
		return append(recordKinds(r), "npm")
	}
	return append(recordKinds(r), "core")
}

// anyMatch reports whether any of the compiled patterns matches s.
func anyMatch(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

func compileAll(list []string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, 0, len(list))
	for _, s := range list {
		if re, err := arch.CompileDepRegex(s, true); err == nil {
			out = append(out, re)
		}
	}
	return out
}

// applyScope applies dependency-cruiser's options that decide which
// modules and dependencies exist (exclude, includeOnly, doNotFollow, and
// leaving out type-only imports): the input every rule then sees, as the
// seed tool cruises only those.
func applyScope(scan *imports.Result, sc *arch.Scope) *imports.Result {
	if sc == nil {
		return scan
	}
	excl, only, nofollow := compileAll(sc.Exclude), compileAll(sc.IncludeOnly), compileAll(sc.DoNotFollow)
	in := func(p string) bool {
		return !anyMatch(excl, p) && (len(only) == 0 || anyMatch(only, p))
	}
	module := func(p string) bool { return in(p) && (!sc.JSOnly || isJSFile(p)) }
	out := *scan
	out.Files = nil
	for _, f := range scan.Files {
		if module(f) {
			out.Files = append(out.Files, f)
		}
	}
	out.Records = nil
	for i := range scan.Records {
		r := &scan.Records[i]
		if sc.NoTypeOnly && r.Kind == imports.KindTypeOnly {
			continue
		}
		if !module(r.File) || anyMatch(nofollow, r.File) || !in(depKey(r)) {
			continue
		}
		out.Records = append(out.Records, *r)
	}
	out.Warnings = keepUnread(scan.Warnings, module)
	return &out
}

// keepUnread drops the unread-file warnings of files the rules do not
// lint (keep false), so a file scoped out is not reported as unread.
func keepUnread(ws []imports.Warning, keep func(string) bool) []imports.Warning {
	out := make([]imports.Warning, 0, len(ws))
	for _, w := range ws {
		if !w.Unread || keep(w.File) {
			out = append(out, w)
		}
	}
	return out
}

// depSub is one set of dependency-cruiser conditions with its id in the
// program: a forbid_dependency rule's own name, or name#i for entry i of
// an allowed_dependencies rule.
type depSub struct {
	id  string
	dep *arch.DepRule
	// compiled patterns
	from, fromNot, via, viaNot []*regexp.Regexp
}

// depFacts writes the facts forbid_dependency and allowed_dependencies
// rules are decided from. Go matches regular expressions (the engine has
// none) and lists what each pattern matches; the engine combines the
// conditions (path and not pathNot, dependency types, circularity, the
// modules a cycle passes through, orphans) and decides every finding.
func depFacts(add func(ast.Atom), m *arch.Model, scan *imports.Result, own fileOwners, deps []pair, npm NpmTypes) {
	var subs []*depSub
	for i := range m.Rules {
		r := &m.Rules[i]
		switch r.Type {
		case arch.ForbidDependency:
			add(atom("fd_rule", str(r.Name)))
			subs = append(subs, &depSub{id: r.Name, dep: r.Dep})
		case arch.AllowedDependencies:
			add(atom("fd_allowed_rule", str(r.Name)))
			for j := range r.Allowed {
				id := r.Name + "#" + itoa(j)
				add(atom("fd_allow", str(r.Name), str(id)))
				subs = append(subs, &depSub{id: id, dep: &r.Allowed[j]})
			}
		}
	}
	if len(subs) == 0 {
		return
	}
	if slices.ContainsFunc(subs, func(s *depSub) bool { return s.dep.To.MoreThanOneType != nil }) {
		for _, k := range arch.DuplicateTypes() {
			add(atom("fd_dup_type", str(k)))
		}
	}
	allFiles := false // some rule looks at every importing file
	circular, orphans := false, false
	// The dependency types some conditions name: fd_kind lists only
	// those, as no clause asks about another.
	kindsUsed := map[string]bool{}
	for _, s := range subs {
		d := s.dep
		S := str(s.id)
		s.from, s.fromNot = compileAll(d.From.Path), compileAll(d.From.PathNot)
		s.via, s.viaNot = compileAll(d.To.ViaOnly.Path), compileAll(d.To.ViaOnly.PathNot)
		orphan := d.From.Orphan != nil && *d.From.Orphan
		if len(d.From.Path) == 0 {
			add(atom("fd_from_all", S))
			// An orphan rule looks at modules, not at their imports.
			allFiles = allFiles || !orphan
		}
		if len(d.To.Path) == 0 {
			add(atom("fd_to_all", S))
		}
		for _, k := range d.To.DependencyTypes {
			add(atom("fd_only", S, str(k)))
			kindsUsed[k] = true
		}
		for _, k := range d.To.DependencyTypesNot {
			add(atom("fd_not", S, str(k)))
			kindsUsed[k] = true
		}
		if c := d.To.MoreThanOneType; c != nil {
			for _, k := range arch.DuplicateTypes() {
				kindsUsed[k] = true
			}
			if *c {
				add(atom("fd_multi", S))
			} else {
				add(atom("fd_single", S))
			}
		}
		if c := d.To.CouldNotResolve; c != nil {
			kindsUsed["unknown"] = true
			if *c {
				add(atom("fd_need", S, str("unknown")))
			} else {
				add(atom("fd_not", S, str("unknown")))
			}
		}
		if d.To.Circular == nil {
			add(atom("fd_plain", S))
		}
		if c := d.To.Circular; c != nil {
			circular = true
			if *c {
				add(atom("fd_circular", S))
			} else {
				add(atom("fd_noncircular", S))
			}
			if len(d.To.ViaOnly.Path) > 0 || len(d.To.ViaOnly.PathNot) > 0 {
				add(atom("fd_viarule", S))
			}
		}
		if d.From.Orphan != nil && *d.From.Orphan {
			add(atom("fd_orphan_rule", S))
			orphans = true
		}
	}
	if slices.ContainsFunc(m.Rules, func(r arch.Rule) bool { return r.Type == arch.AllowedDependencies }) {
		allFiles = true
	}

	// The importing files: fd_from per rule whose from path matches (with
	// the groups a to path may refer to), fd_from_not where from pathNot
	// matches.
	type fileHit struct {
		sub    *depSub
		groups string
		g      []string
	}
	hits := map[string][]fileHit{}
	importing := map[string]bool{}
	var files []string
	for i := range scan.Records {
		if f := scan.Records[i].File; !importing[f] {
			importing[f] = true
			files = append(files, f)
		}
	}
	if orphans {
		for _, f := range scan.Files {
			if !importing[f] && isJSFile(f) {
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	for _, f := range files {
		F := str(f)
		for _, s := range subs {
			if anyMatch(s.fromNot, f) {
				add(atom("fd_from_not", F, str(s.id)))
			}
			for _, re := range s.from {
				if idx := re.FindStringSubmatchIndex(f); idx != nil {
					g := groupsOf(f, idx)
					key := strings.Join(g, "\x00")
					add(atom("fd_from", F, str(s.id), str(key)))
					if s.dep.From.Orphan == nil || !*s.dep.From.Orphan {
						// An orphan rule needs no imports of the file.
						hits[f] = append(hits[f], fileHit{s, key, g})
					}
					break
				}
			}
		}
	}
	// Imports of the files some rule may look at, their types, and the
	// to paths they match (per from groups).
	type toKey struct{ sub, groups, target string }
	seenTo := map[toKey]bool{}
	var nodesSeen map[string]bool
	if circular {
		nodesSeen = map[string]bool{}
	}
	for i := range scan.Records {
		r := &scan.Records[i]
		if !allFiles && len(hits[r.File]) == 0 {
			continue
		}
		t := depKey(r)
		F, L, T := str(r.File), num(int64(r.Line)), str(t)
		add(atom("fd_imp", F, L, T))
		for _, k := range depTypes(r, npm) {
			if kindsUsed[k] {
				add(atom("fd_kind", F, L, str(k)))
			}
		}
		check := func(s *depSub, gkey string, g []string) {
			k := toKey{s.id, gkey, t}
			if seenTo[k] {
				return
			}
			seenTo[k] = true
			if len(s.dep.To.Path) > 0 && matchExpanded(s.dep.To.Path, g, t) {
				add(atom("fd_to", T, str(s.id), str(gkey)))
			}
			if len(s.dep.To.PathNot) > 0 && matchExpanded(s.dep.To.PathNot, g, t) {
				add(atom("fd_to_not", T, str(s.id), str(gkey)))
			}
		}
		for _, h := range hits[r.File] {
			check(h.sub, h.groups, h.g)
		}
		for _, s := range subs {
			if len(s.dep.From.Path) == 0 {
				check(s, "", nil)
			}
		}
		if circular && r.Resolution.Kind == imports.Internal {
			for _, p := range []string{r.File, t} {
				if nodesSeen[p] {
					continue
				}
				nodesSeen[p] = true
				if n, ok := own.owner(p); ok {
					add(atom("fd_node", str(p), str(n)))
				}
			}
		}
	}
	if circular {
		// The modules a cycle may pass through (via_only), by node.
		var nodes []string
		for _, n := range m.Nodes {
			nodes = append(nodes, n.ID)
		}
		for _, s := range subs {
			if len(s.dep.To.ViaOnly.Path) == 0 && len(s.dep.To.ViaOnly.PathNot) == 0 {
				continue
			}
			ok := map[string]bool{}
			for _, n := range nodes {
				via := len(s.via) == 0 || anyMatch(s.via, n)
				if via {
					add(atom("fd_via", str(n), str(s.id)))
				}
				viaNot := anyMatch(s.viaNot, n)
				if viaNot {
					add(atom("fd_via_not", str(n), str(s.id)))
				}
				ok[n] = via && !viaNot
			}
			// The graph of the modules the cycle may pass through is a
			// cycle graph of its own ("via:" and the conditions' id),
			// whose components the engine finds as forbid_cycles' are:
			// one search per component from its pivot, within it
			// (sccHints), rather than one from every cycle edge
			// (quadratic in a large component).
			var sub []pair
			for _, d := range deps {
				if ok[d.a] && ok[d.b] {
					sub = append(sub, d)
				}
			}
			g := "via:" + s.id
			add(atom("cyc_via", str(g), str(s.id)))
			addHints(add, g, sub, nodes)
		}
	}
	if orphans {
		targets := map[string]bool{}
		for i := range scan.Records {
			r := &scan.Records[i]
			if r.Resolution.Kind == imports.Internal {
				targets[r.Resolution.Target] = true
			}
		}
		for _, f := range scan.Files {
			if !isJSFile(f) {
				continue
			}
			F := str(f)
			add(atom("fd_module", F))
			if importing[f] {
				add(atom("fd_out", F))
			}
			if targets[f] {
				add(atom("fd_in", F))
			}
		}
	}
}

// groupsOf is a from match's text and groups as dependency-cruiser passes
// them to a to path: none when the pattern has no group, and groups that
// did not take part in the match left out.
func groupsOf(s string, idx []int) []string {
	if len(idx) <= 2 {
		return nil
	}
	var g []string
	for i := 0; i+1 < len(idx); i += 2 {
		if idx[i] >= 0 {
			g = append(g, s[idx[i]:idx[i+1]])
		}
	}
	return g
}

// matchExpanded matches target against to-side patterns after putting the
// from groups in. A pattern the substitution makes invalid matches
// nothing (in dependency-cruiser it throws).
func matchExpanded(patterns, groups []string, target string) bool {
	for _, p := range patterns {
		re, err := regexp.Compile(arch.ExpandGroups(p, groups))
		if err == nil && re.MatchString(target) {
			return true
		}
	}
	return false
}

func isJSFile(f string) bool {
	l, ok := imports.LangOf(f)
	return ok && (l == imports.JavaScript || l == imports.TypeScript)
}
