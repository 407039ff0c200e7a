package arch

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/vouch-dev/vouch/suggest"
)

// AutoKind is the kind of a node derived from a source directory, by the
// language of the first file that created it.
func AutoKind(file string) string {
	switch path.Ext(file) {
	case ".go":
		return "go_package"
	case ".py", ".pyi":
		return "python_package"
	case ".rs":
		return "rust_module"
	}
	return "js_directory"
}

// Finish completes a loaded model against the repository's source files:
// with no declared nodes it derives one node per directory holding source
// files (named by its path, "." for the root), applies `tags:` maps, and
// checks every cross-reference (edge endpoints, matcher ref_ids and
// excludes, unique names). Every problem is returned at once, sorted by
// position.
func (m *Model) Finish(files []string) error {
	if len(m.Nodes) == 0 {
		m.Auto = true
		if m.Granularity == GranularityModule {
			m.Nodes = moduleNodes(files, m.RootPackages)
		} else {
			m.Nodes = autoNodes(files, m.Granularity, m.Root)
		}
	} else if m.Granularity != "" && m.Granularity != GranularityDirectory {
		return ErrorList{errAt(m.GranularityPos, fmt.Sprintf("granularity %s applies to derived nodes only; this file declares nodes (remove granularity or the nodes)", m.Granularity))}
	}
	errs := m.check(true)
	errs = append(errs, m.missingLayers()...)
	if m.Granularity == GranularityModule {
		errs = append(errs, m.missingRootPackages(files)...)
	}
	if len(errs) > 0 {
		sortErrors(errs)
		return errs
	}
	return nil
}

// missingRootPackages reports each root package that is no package of
// the repository: absent, or a single module file, which import-linter
// refuses as a root package.
func (m *Model) missingRootPackages(files []string) ErrorList {
	var errs ErrorList
	dirs := PackageDirs(m.RootPackages, files)
	for _, pkg := range m.RootPackages {
		d, ok := dirs[pkg]
		switch {
		case !ok:
			errs = append(errs, errAt(m.RootPackagesPos, fmt.Sprintf("root package %s was not found: no directory %s holds Python files (set python_roots, or --python-root, to where it lies)", pkg, strings.ReplaceAll(pkg, ".", "/"))))
		case !slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, d+"/") }):
			errs = append(errs, errAt(m.RootPackagesPos, fmt.Sprintf("root package %s is a module (%s), not a package: name the package that holds it", pkg, d+".py")))
		}
	}
	return errs
}

// missingLayers reports each required layer module (an import-linter layer
// not marked optional) that no module node is or lies under, as
// import-linter refuses to check such a contract.
func (m *Model) missingLayers() ErrorList {
	var errs ErrorList
	ids := make([]string, 0, len(m.Nodes))
	for _, n := range m.Nodes {
		ids = append(ids, n.ID)
	}
	for _, r := range m.Rules {
		contract := r.Name
		if r.Origin != nil && r.Origin.Group != "" {
			contract = r.Origin.Group
		}
		for _, l := range r.Layers {
			for _, mod := range l.Required {
				if !slices.ContainsFunc(ids, func(id string) bool { return id == mod || strings.HasPrefix(id, mod+".") }) {
					errs = append(errs, errAt(l.RequiredPos, fmt.Sprintf("layer module %s of contract %q does not exist: create it, fix the name, or mark the layer optional with parentheses", mod, contract)))
				}
			}
		}
	}
	return errs
}

// autoNodes derives one node per source directory, file or package:
//   - directory: the file's directory, named by its path ("." for the root);
//   - file: the file itself, named by its path (Go files excepted: a Go
//     import names a package, so they keep one node per directory);
//   - package: the unit the language's own tooling builds, named by its
//     directory: a Go or Python package is its directory; a JS/TS package
//     is the nearest directory up from the file holding package.json, a
//     Rust crate the nearest holding Cargo.toml (else the file's
//     directory, as for directory granularity).
func autoNodes(files []string, granularity, root string) []Node {
	var nodes []Node
	seen := map[string]bool{}
	manifest := map[string]bool{} // directory -> has the manifest probed
	has := func(dir, name string) bool {
		k := dir + "/" + name
		if v, ok := manifest[k]; ok {
			return v
		}
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), name))
		manifest[k] = err == nil
		return manifest[k]
	}
	for _, f := range files {
		id, kind, src := path.Dir(f), AutoKind(f), ""
		switch granularity {
		case GranularityFile:
			// A Go import names a package, never a file: Go files stay
			// one node per directory.
			if kind != "go_package" {
				id, kind = f, autoFileKind(f)
			}
		case GranularityPackage:
			var name, pkgKind string
			switch kind {
			case "js_directory":
				name, pkgKind = "package.json", "js_package"
			case "rust_module":
				name, pkgKind = "Cargo.toml", "rust_crate"
			}
			if name != "" {
				for d := path.Dir(f); ; d = path.Dir(d) {
					if has(d, name) {
						id, kind = d, pkgKind
						break
					}
					if d == "." || d == "/" {
						break
					}
				}
			}
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		src = CleanSource(id)
		nodes = append(nodes, Node{ID: id, Kind: kind, Source: src})
	}
	slices.SortFunc(nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	return nodes
}

// AddExternal adds a node of kind external_package for each name (an
// external Python package's top-level name) not already a node, when the
// model includes external packages. Call it after Finish.
func (m *Model) AddExternal(names []string) {
	if !m.ExternalPackages {
		return
	}
	have := map[string]bool{}
	for _, n := range m.Nodes {
		have[n.ID] = true
	}
	for _, name := range names {
		if !have[name] {
			have[name] = true
			m.Nodes = append(m.Nodes, Node{ID: name, Kind: "external_package"})
		}
	}
	slices.SortFunc(m.Nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
}

// moduleNodes derives one node per Python module of the root packages,
// named by its dotted name, with the module's file as its source (a .py
// file before its .pyi stub). Other files join no node.
func moduleNodes(files, rootPackages []string) []Node {
	dirs := PackageDirs(rootPackages, files)
	seen := map[string]bool{}
	var nodes []Node
	for _, f := range files {
		mod := ModuleName(f, dirs)
		if mod == "" || seen[mod] {
			continue
		}
		seen[mod] = true
		kind := "python_module"
		if strings.HasPrefix(path.Base(f), "__init__.") {
			kind = "python_package"
		}
		nodes = append(nodes, Node{ID: mod, Kind: kind, Source: f})
	}
	slices.SortFunc(nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	return nodes
}

// autoFileKind is the kind of a node derived from one source file.
func autoFileKind(file string) string {
	switch path.Ext(file) {
	case ".py", ".pyi":
		return "python_module"
	case ".rs":
		return "rust_file"
	}
	return "js_module"
}

// ReservedRuleUnreadable is the name of vouch lint's built-in finding
// that a source file could not be read (lint.RuleUnreadable); no
// configured rule may take it.
const ReservedRuleUnreadable = "unreadable-source"

// crossCheck adds to a loaded model's parse errors the cross-reference
// problems that can be decided without the source files: all of them when
// the model declares nodes, else only duplicate rule names (derived nodes
// need the scan). The result is sorted by position.
func (m *Model) crossCheck(parse ErrorList) ErrorList {
	errs := append(slices.Clone(parse), m.check(len(m.Nodes) > 0)...)
	sortErrors(errs)
	return errs
}

func sortErrors(errs ErrorList) {
	slices.SortStableFunc(errs, func(a, b *Error) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// check applies tags and checks the model's cross-references; with
// nodesKnown false only rule names are checked.
func (m *Model) check(nodesKnown bool) ErrorList {
	var errs ErrorList
	ids := make(map[string]int, len(m.Nodes))
	var names []string
	for i, n := range m.Nodes {
		if j, dup := ids[n.ID]; dup {
			errs = append(errs, errAt(n.Pos, fmt.Sprintf("node %q is declared twice (first at %s)", n.ID, m.Nodes[j].Pos)))
			continue
		}
		ids[n.ID] = i
		names = append(names, n.ID)
	}
	sort.Strings(names)
	unknown := func(pos Pos, what, id string) {
		if !nodesKnown {
			return
		}
		errs = append(errs, errAt(pos, fmt.Sprintf("%s %q is not a node of the graph%s", what, id, suggest.Hint(id, names))))
	}
	var tagged []string
	for id := range m.pendingTags {
		tagged = append(tagged, id)
	}
	sort.Strings(tagged)
	for _, id := range tagged {
		i, ok := ids[id]
		if !ok {
			unknown(m.pendingPos[id], "tags entry", id)
			continue
		}
		for _, t := range m.pendingTags[id] {
			if !slices.Contains(m.Nodes[i].Tags, t) {
				m.Nodes[i].Tags = append(m.Nodes[i].Tags, t)
			}
		}
	}
	m.pendingTags = nil
	for _, e := range m.Edges {
		if _, ok := ids[e.Src]; !ok {
			unknown(e.Pos, "edge src", e.Src)
		}
		if _, ok := ids[e.Dst]; !ok {
			unknown(e.Pos, "edge dst", e.Dst)
		}
	}
	rules := map[string]Pos{}
	for _, r := range m.Rules {
		if r.Name == ReservedRuleUnreadable {
			// The built-in finding's name: a user rule under it would make
			// its findings, exemptions and baseline entries
			// indistinguishable from vouch's own.
			errs = append(errs, errAt(r.Pos, fmt.Sprintf("rule name %q is reserved for vouch's finding that a source file could not be read; choose another name", r.Name)))
		}
		if r.Name != "" {
			if p, dup := rules[r.Name]; dup {
				errs = append(errs, errAt(r.Pos, fmt.Sprintf("rule name %q is used twice (first at %s)", r.Name, p)))
			}
			rules[r.Name] = r.Pos
		}
		for _, mt := range []Matcher{r.From, r.To} {
			if mt.RefID != "" {
				if g, err := CompileGlob(mt.RefID); err == nil && g.IsLiteral() {
					if _, ok := ids[mt.RefID]; !ok {
						unknown(mt.Pos, "ref_id", mt.RefID)
					}
				}
			}
			for _, x := range mt.Exclude {
				if _, ok := ids[x]; !ok {
					unknown(mt.Pos, "exclude", x)
				}
			}
		}
	}
	sortErrors(errs)
	return errs
}

// Owners maps repository paths to the node that owns them: the node whose
// source is the longest prefix of the path (whole path segments only).
type Owners struct {
	bySource map[string]string
	sourceOf map[string]string
}

// NewOwners indexes the nodes' sources. Two nodes with the same source: the
// first in id order owns, so the choice is stable.
func NewOwners(nodes []Node) *Owners {
	o := &Owners{bySource: map[string]string{}, sourceOf: map[string]string{}}
	sorted := slices.Clone(nodes)
	slices.SortFunc(sorted, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	for _, n := range sorted {
		o.sourceOf[n.ID] = n.Source
		if n.Source == "" && n.ID != "." {
			continue
		}
		if _, taken := o.bySource[n.Source]; !taken {
			o.bySource[n.Source] = n.ID
		}
	}
	return o
}

// Owner returns the node owning p (a file or directory), if any.
func (o *Owners) Owner(p string) (string, bool) {
	for {
		if id, ok := o.bySource[p]; ok {
			return id, true
		}
		if p == "" {
			return "", false
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			p = ""
		} else {
			p = p[:i]
		}
	}
}

// Covers reports whether node id may claim file through an annotation:
// its source covers the file, or it has no source.
func (o *Owners) Covers(id, file string) bool {
	src, ok := o.sourceOf[id]
	if !ok {
		return false
	}
	return src == "" || file == src || strings.HasPrefix(file, src+"/")
}

// Annotations returns the node ids a file names in `beadloom:key=value`
// comments (`# beadloom:domain=billing`, `// beadloom:service=auth`), in
// file order. Values may be comma-separated.
func Annotations(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		i := bytes.Index(line, []byte("beadloom:"))
		if i < 0 {
			continue
		}
		for _, f := range strings.Fields(string(line[i+len("beadloom:"):])) {
			k, v, ok := strings.Cut(f, "=")
			if !ok || k == "" {
				continue
			}
			for _, id := range strings.Split(v, ",") {
				if id = strings.TrimSpace(id); id != "" {
					out = append(out, id)
				}
			}
		}
	}
	return out
}
