package arch

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/yamldoc"
)

// Default locations, relative to the repository root.
const (
	// FileName is vouch's own architecture file.
	FileName = "architecture.yaml"
	// BeadloomDir holds the seed tool's graph: *.yml files of nodes and
	// edges, and rules.yml.
	BeadloomDir = ".beadloom/_graph"
	// BeadloomConfig is the seed tool's settings file, next to BeadloomDir.
	BeadloomConfig = "config.yml"
	// BeadloomRules is the rules file inside BeadloomDir.
	BeadloomRules = "rules.yml"
)

// MaxBytes caps one configuration file: graphs are hand-written YAML.
const MaxBytes = 8 << 20

var (
	vouchTopKeys    = []string{"edges", "granularity", "include_external_packages", "nodes", "python_roots", "root_packages", "rules", "scope", "tags", "version"}
	rulesTopKeys    = []string{"rules", "tags", "version"}
	nodeKeys        = []string{"kind", "lifecycle", "ref_id", "source", "tags"}
	edgeKeys        = []string{"dst", "kind", "lifecycle", "src"}
	ruleCommonKeys  = []string{"description", "exempt", "name", "reason", "severity"}
	layersExtraKeys = []string{"allow_skip", "dependency_types", "dependency_types_not", "edge_kind", "enforce", "exclude_type_checking_imports", "exhaustive", "ignore_imports", "include_imports", "indirect", "max_chains", "unmatched_ignore"}
	matcherKeys     = []string{"exclude", "exclude_module", "kind", "module", "ref_id", "tag"}
	exemptKeys      = []string{"from", "members", "reason", "to", "until"}
	severities      = []string{SeverityError, SeverityWarn, SeverityInfo}
)

// Load reads the architecture of the repository at root. config, when not
// empty, names the file to read (architecture.yaml style, a .beadloom
// rules.yml / _graph directory, or another tool's file ForeignFormats
// reads); otherwise root/architecture.yaml is read if present, else
// root/.beadloom/_graph, else the first of the ForeignFormats' files
// holding that tool's configuration, else the model is empty (Layout
// "none"). Every problem in every file is returned at once as an ErrorList.
func Load(root, config string) (*Model, error) {
	m, err := load(root, config)
	if m != nil {
		m.Root = root
	}
	var el ErrorList
	if m != nil && errors.As(err, &el) {
		// One problem must not hide the others: the cross-references
		// Finish checks (duplicate rule names, unknown ref_ids) are
		// reported with the parse errors.
		return m, m.crossCheck(el)
	}
	return m, err
}

func load(root, config string) (*Model, error) {
	if config != "" {
		st, err := os.Stat(config)
		if err != nil {
			return nil, ErrorList{{File: config, Msg: "cannot read: " + yamldoc.Reason(err)}}
		}
		if st.IsDir() {
			return LoadBeadloom(config)
		}
		if filepath.Base(config) == BeadloomRules {
			return LoadBeadloom(filepath.Dir(config))
		}
		if m, ok, err := loadForeign(ForeignFormats(), root, config, true); ok {
			return m, err
		}
		return loadVouch(config)
	}
	if f := filepath.Join(root, FileName); exists(f) {
		return loadVouch(f)
	}
	if d := filepath.Join(root, filepath.FromSlash(BeadloomDir)); exists(d) {
		return LoadBeadloom(d)
	}
	if m, err := findForeign(ForeignFormats(), root); m != nil || err != nil {
		return m, err
	}
	return &Model{Layout: "none"}, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func loadVouch(file string) (*Model, error) {
	data, err := readLimited(file)
	if err != nil {
		return nil, err
	}
	m := &Model{Layout: "vouch"}
	m.record(file, data)
	p := &parser{file: file}
	p.document(m, data, vouchTopKeys, false)
	return m, p.result()
}

// LoadBeadloom reads a .beadloom/_graph directory: every *.yml / *.yaml file
// but rules.yml contributes nodes and edges (other keys belong to the seed's
// tool and are ignored), and rules.yml (versions 1 to 3) the rules. Files
// are read in name order so positions and duplicates are reported the same
// way on every run.
func LoadBeadloom(dir string) (*Model, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, ErrorList{{File: dir, Msg: "cannot read: " + yamldoc.Reason(err)}}
	}
	m := &Model{Layout: "beadloom", Annotations: true}
	var errs ErrorList
	errs = append(errs, m.readBeadloomConfig(filepath.Join(filepath.Dir(filepath.Clean(dir)), BeadloomConfig))...)
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !(strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".yaml")) {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		file := filepath.Join(dir, n)
		data, err := readLimited(file)
		if err != nil {
			var el ErrorList
			if errors.As(err, &el) {
				errs = append(errs, el...)
			}
			continue
		}
		m.record(file, data)
		p := &parser{file: file, lenient: true}
		if n == BeadloomRules {
			p.document(m, data, rulesTopKeys, true)
		} else {
			p.document(m, data, nil, true)
		}
		errs = append(errs, p.errs...)
	}
	if len(errs) > 0 {
		return m, errs
	}
	return m, nil
}

// readBeadloomConfig reads scan_paths from the seed tool's config.yml (next
// to _graph), the directories it scans; other keys belong to that tool. A
// missing file is no problem.
func (m *Model) readBeadloomConfig(file string) ErrorList {
	if !exists(file) {
		return nil
	}
	data, err := readLimited(file)
	if err != nil {
		var el ErrorList
		errors.As(err, &el)
		return el
	}
	p := &parser{file: file, lenient: true}
	top, err := yamldoc.Decode(file, data, "file")
	if err != nil {
		var el ErrorList
		errors.As(err, &el)
		return el
	}
	if top == nil {
		return nil
	}
	m.record(file, data)
	for _, kv := range p.fields(top, "the file", nil) {
		if kv.key == "scan_paths" {
			for _, sp := range p.strList(kv.val, "scan_paths") {
				m.ScanPaths = append(m.ScanPaths, CleanSource(sp))
			}
		}
	}
	return p.errs
}

// InScanPaths reports whether file (repository-relative) lies under one
// of the model's scan paths; with none, every file does.
func (m *Model) InScanPaths(file string) bool {
	if len(m.ScanPaths) == 0 {
		return true
	}
	for _, sp := range m.ScanPaths {
		if sp == "" || file == sp || strings.HasPrefix(file, sp+"/") {
			return true
		}
	}
	return false
}

// Parse reads one architecture.yaml document. It is the entry point the
// fuzz test drives; Load adds file discovery.
func Parse(file string, data []byte) (*Model, error) {
	m := &Model{Layout: "vouch", Files: []string{file}}
	p := &parser{file: file}
	p.document(m, data, vouchTopKeys, false)
	return m, p.result()
}

// ParseBeadloom reads one file of the .beadloom/_graph layout; rules says
// whether it is rules.yml.
func ParseBeadloom(file string, data []byte, rules bool) (*Model, error) {
	m := &Model{Layout: "beadloom", Annotations: true, Files: []string{file}}
	p := &parser{file: file, lenient: true}
	if rules {
		p.document(m, data, rulesTopKeys, true)
	} else {
		p.document(m, data, nil, true)
	}
	return m, p.result()
}

// record notes a configuration file as read, with the hash of the bytes
// that were parsed.
func (m *Model) record(file string, data []byte) {
	if m.FileSHA256 == nil {
		m.FileSHA256 = map[string]string{}
	}
	m.Files = append(m.Files, file)
	sum := sha256.Sum256(data)
	m.FileSHA256[file] = hex.EncodeToString(sum[:])
}

// readLimited reads a configuration file through yamldoc, keeping this
// package's error type.
func readLimited(file string) ([]byte, error) {
	data, err := yamldoc.ReadFile(file, "architecture file", MaxBytes)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// parser walks yaml.Node trees, collecting every problem rather than
// stopping at the first.
type parser struct {
	file string
	// lenient ignores unknown keys in graph files and unknown rule types
	// (the seed's tool has more than vouch evaluates).
	lenient bool
	errs    ErrorList
	// tags from a top-level `tags: {tag: [ref_id...]}` map (rules.yml v3),
	// applied to nodes after loading.
	tags   map[string][]string
	tagPos map[string]Pos
}

func (p *parser) result() error {
	if len(p.errs) == 0 {
		return nil
	}
	return p.errs
}

func (p *parser) pos(n *yaml.Node) Pos { return Pos{File: p.file, Line: n.Line, Col: n.Column} }

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, errAt(p.pos(n), fmt.Sprintf(format, args...)))
}

// document parses one YAML file into m. topKeys nil accepts any top-level
// key (graph files of the seed's layout carry other tools' settings).
func (p *parser) document(m *Model, data []byte, topKeys []string, beadloom bool) {
	defer func() {
		// yaml.v3 has panicked on hostile input before; configuration must
		// never crash vouch.
		if r := recover(); r != nil {
			p.errs = append(p.errs, errAt(Pos{File: p.file}, fmt.Sprintf("not valid YAML: %v", r)))
		}
	}()
	top, err := yamldoc.Decode(p.file, data, "file")
	if err != nil {
		var el ErrorList
		if errors.As(err, &el) {
			p.errs = append(p.errs, el...)
		}
		return
	}
	if top == nil {
		return
	}
	for _, kv := range p.fields(top, "the file", topKeys) {
		k, v := kv.key, kv.val
		switch k {
		case "version":
			p.version(v, beadloom && topKeys != nil)
		case "nodes":
			for _, n := range p.seq(v, "nodes") {
				if node, ok := p.node(n); ok {
					m.Nodes = append(m.Nodes, node)
				}
			}
		case "edges":
			for _, n := range p.seq(v, "edges") {
				if e, ok := p.edge(n); ok {
					m.Edges = append(m.Edges, e)
				}
			}
		case "rules":
			for _, n := range p.seq(v, "rules") {
				p.rule(m, n)
			}
		case "tags":
			p.tagMap(v)
		case "python_roots":
			m.PythonRoots = p.strList(v, "python_roots")
		case "include_external_packages":
			m.ExternalPackages = p.boolean(v, k)
		case "root_packages":
			m.RootPackagesPos = p.pos(v)
			for _, e := range p.seq(v, "root_packages") {
				if s, ok := p.str(e, "root_packages entry"); ok {
					if _, err := CompileModule(s, false); err != nil || strings.Contains(s, "*") {
						p.errorf(e, "root_packages entry %q is not a dotted module name", s)
						continue
					}
					m.RootPackages = append(m.RootPackages, s)
				}
			}
		case "scope":
			m.Scope = p.scope(v)
		case "granularity":
			if g, ok := p.str(v, "granularity"); ok {
				if !slices.Contains(Granularities(), g) {
					p.errorf(v, "granularity %q%s; want one of %s", g, suggest.Hint(g, Granularities()), strings.Join(Granularities(), ", "))
				}
				m.Granularity, m.GranularityPos = g, p.pos(v)
			}
		}
	}
	if len(p.tags) > 0 {
		applyTags(m, p.tags, p.tagPos)
	}
}

// applyTags adds the tags of a `tags:` map to the nodes it names. Nodes
// loaded later (another graph file) are tagged by Finish.
func applyTags(m *Model, tags map[string][]string, pos map[string]Pos) {
	if m.pendingTags == nil {
		m.pendingTags = map[string][]string{}
		m.pendingPos = map[string]Pos{}
	}
	var names []string
	for tag := range tags {
		names = append(names, tag)
	}
	sort.Strings(names)
	for _, tag := range names {
		for _, id := range tags[tag] {
			m.pendingTags[id] = append(m.pendingTags[id], tag)
			if _, ok := m.pendingPos[id]; !ok {
				m.pendingPos[id] = pos[tag]
			}
		}
	}
}

func (p *parser) version(v *yaml.Node, seedRules bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
		p.errorf(v, "version must be a number, found %s", yamldoc.KindName(v))
		return
	}
	ok := v.Value == "1"
	want := "1"
	if seedRules {
		ok = v.Value == "1" || v.Value == "2" || v.Value == "3"
		want = "1, 2 or 3"
	}
	if !ok {
		p.errorf(v, "unsupported version %s; want %s", v.Value, want)
	}
}

type field struct {
	key      string
	keyNode  *yaml.Node
	val      *yaml.Node
	position Pos
}

// fields returns a mapping's entries in file order, reporting duplicate
// keys and, when known is not nil, unknown ones with a did-you-mean hint.
func (p *parser) fields(n *yaml.Node, what string, known []string) []field {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping, found %s", what, yamldoc.KindName(n))
		return nil
	}
	var out []field
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			p.errorf(k, "duplicate key %q in %s", k.Value, what)
			continue
		}
		seen[k.Value] = true
		if known != nil && !slices.Contains(known, k.Value) {
			p.errorf(k, "unknown key %q in %s%s; want one of %s", k.Value, what, suggest.Hint(k.Value, known), strings.Join(known, ", "))
			continue
		}
		out = append(out, field{key: k.Value, keyNode: k, val: v, position: p.pos(k)})
	}
	return out
}

func (p *parser) seq(n *yaml.Node, what string) []*yaml.Node {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list, found %s", what, yamldoc.KindName(n))
		return nil
	}
	return n.Content
}

func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%s must be a string, found %s", what, yamldoc.KindName(n))
		return "", false
	}
	if n.Value == "" {
		p.errorf(n, "%s must not be empty", what)
		return "", false
	}
	return n.Value, true
}

// strList accepts a list of strings or a single string.
func (p *parser) strList(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		if s, ok := p.str(n, what); ok {
			return []string{s}
		}
		return nil
	}
	var out []string
	for _, e := range p.seq(n, what) {
		if s, ok := p.str(e, what+" entry"); ok {
			out = append(out, s)
		}
	}
	return out
}

func (p *parser) boolean(n *yaml.Node, what string) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		p.errorf(n, "%s must be true or false, found %s", what, yamldoc.KindName(n))
		return false
	}
	return strings.EqualFold(n.Value, "true")
}

// filter reads a dependency-type option into r; it reports whether kv was
// one.
func (p *parser) filter(r *Rule, kv field) bool {
	switch kv.key {
	case "exclude_type_checking_imports":
		if p.boolean(kv.val, kv.key) && !slices.Contains(r.DependencyTypesNot, "type-checking") {
			r.DependencyTypesNot = append(r.DependencyTypesNot, "type-checking")
		}
	case "ignore_imports":
		for _, e := range p.seq(kv.val, "ignore_imports") {
			ig := IgnoredImport{Pos: p.pos(e)}
			for _, f := range p.fields(e, "an ignore_imports entry", []string{"from", "to"}) {
				s, ok := p.str(f.val, f.key)
				if !ok {
					continue
				}
				if _, err := CompileModule(s, false); err != nil {
					p.errorf(f.val, "%v", err)
					continue
				}
				if f.key == "from" {
					ig.From = s
				} else {
					ig.To = s
				}
			}
			if ig.From == "" || ig.To == "" {
				p.errorf(e, "an ignore_imports entry needs from and to (module names)")
				continue
			}
			r.IgnoreImports = append(r.IgnoreImports, ig)
		}
	case "unmatched_ignore":
		if s, ok := p.str(kv.val, kv.key); ok {
			want := []string{SeverityError, SeverityWarn, "none"}
			if !slices.Contains(want, s) {
				p.errorf(kv.val, "unmatched_ignore %q%s; want error, warn or none", s, suggest.Hint(s, want))
			}
			r.IgnoreUnmatched = s
		}
	case "dependency_types", "dependency_types_not":
		kinds := DependencyKinds()
		var list []string
		for _, e := range p.seq(kv.val, kv.key) {
			s, ok := p.str(e, kv.key+" entry")
			if !ok {
				continue
			}
			if !slices.Contains(kinds, s) {
				p.errorf(e, "unknown dependency type %q%s; want one of %s", s, suggest.Hint(s, kinds), strings.Join(kinds, ", "))
				continue
			}
			list = append(list, s)
		}
		if kv.val.Kind == yaml.SequenceNode && len(kv.val.Content) == 0 {
			p.errorf(kv.val, "%s needs at least one dependency type", kv.key)
		}
		if kv.key == "dependency_types" {
			r.DependencyTypes = append(r.DependencyTypes, list...)
		} else {
			r.DependencyTypesNot = append(r.DependencyTypesNot, list...)
		}
	default:
		return false
	}
	return true
}

// positive reads a whole number of at least 1.
func (p *parser) positive(n *yaml.Node, what string) int {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!int" {
		if v, err := strconv.Atoi(n.Value); err == nil && v >= 1 {
			return v
		}
	}
	found := yamldoc.KindName(n)
	if n.Kind == yaml.ScalarNode {
		found = n.Value
	}
	p.errorf(n, "%s must be a whole number of at least 1, found %s", what, found)
	return 0
}

func (p *parser) known(keys []string) []string {
	if p.lenient {
		return nil
	}
	return keys
}

func (p *parser) node(n *yaml.Node) (Node, bool) {
	node := Node{Pos: p.pos(n)}
	for _, kv := range p.fields(n, "a node", p.known(nodeKeys)) {
		switch kv.key {
		case "ref_id":
			node.ID, _ = p.str(kv.val, "ref_id")
		case "kind":
			node.Kind, _ = p.str(kv.val, "kind")
		case "tags":
			node.Tags = p.strList(kv.val, "tags")
		case "source":
			if s, ok := p.str(kv.val, "source"); ok {
				node.Source = CleanSource(s)
			}
		case "lifecycle":
			node.Lifecycle, _ = p.str(kv.val, "lifecycle")
		}
	}
	if node.ID == "" {
		p.errorf(n, "node has no ref_id")
		return node, false
	}
	return node, true
}

// CleanSource normalises a node source to a repository-relative path
// without "./" or a trailing "/"; the repository root is "".
func CleanSource(s string) string {
	s = filepath.ToSlash(s)
	for strings.HasPrefix(s, "./") {
		s = s[2:]
	}
	s = strings.TrimRight(s, "/")
	if s == "." {
		return ""
	}
	return s
}

func (p *parser) edge(n *yaml.Node) (Edge, bool) {
	e := Edge{Pos: p.pos(n)}
	for _, kv := range p.fields(n, "an edge", p.known(edgeKeys)) {
		switch kv.key {
		case "src":
			e.Src, _ = p.str(kv.val, "src")
		case "dst":
			e.Dst, _ = p.str(kv.val, "dst")
		case "kind":
			e.Kind, _ = p.str(kv.val, "kind")
		case "lifecycle":
			e.Lifecycle, _ = p.str(kv.val, "lifecycle")
		}
	}
	ok := true
	for _, f := range []struct{ name, v string }{{"src", e.Src}, {"dst", e.Dst}, {"kind", e.Kind}} {
		if f.v == "" {
			p.errorf(n, "edge has no %s", f.name)
			ok = false
		}
	}
	return e, ok
}

func (p *parser) tagMap(n *yaml.Node) {
	for _, kv := range p.fields(n, "tags", nil) {
		if p.tags == nil {
			p.tags = map[string][]string{}
			p.tagPos = map[string]Pos{}
		}
		p.tagPos[kv.key] = kv.position
		p.tags[kv.key] = append(p.tags[kv.key], p.strList(kv.val, "tag "+kv.key)...)
	}
}

func (p *parser) rule(m *Model, n *yaml.Node) {
	beadloom := p.lenient
	r := Rule{Pos: p.pos(n), Severity: SeverityError, MaxSymbols: -1, MaxFiles: -1}
	if hasKey(n, string(ModuleCoverage)) && !hasKey(n, "severity") {
		// Beadloom's default for this advisory rule.
		r.Severity = SeverityWarn
	}
	var typeFields []field
	var extra []field
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "a rule must be a mapping, found %s", yamldoc.KindName(n))
		return
	}
	for _, kv := range p.fields(n, "a rule", nil) {
		switch {
		case slices.Contains(ruleCommonKeys, kv.key):
			switch kv.key {
			case "name":
				r.Name, _ = p.str(kv.val, "name")
			case "description":
				r.Description, _ = p.str(kv.val, "description")
			case "reason":
				r.Reason, _ = p.str(kv.val, "reason")
			case "severity":
				if s, ok := p.str(kv.val, "severity"); ok {
					if s == "warning" {
						s = SeverityWarn
					}
					if !slices.Contains(severities, s) {
						p.errorf(kv.val, "severity %q%s; want error, warn or info", s, suggest.Hint(s, severities))
					}
					r.Severity = s
				}
			case "exempt":
				for _, e := range p.seq(kv.val, "exempt") {
					if ex, ok := p.exemption(e); ok {
						r.Exempt = append(r.Exempt, ex)
					}
				}
			}
		case slices.Contains(layersExtraKeys, kv.key):
			extra = append(extra, kv)
		default:
			typeFields = append(typeFields, kv)
		}
	}
	if r.Name == "" {
		p.errorf(n, "rule has no name")
	}
	var known []field
	for _, f := range typeFields {
		if slices.Contains(RuleTypes(), f.key) {
			known = append(known, f)
			continue
		}
		if p.lenient {
			// A rule type of the seed's tool that vouch does not evaluate
			// (check, module_coverage, ...): reported as skipped.
			m.Skipped = append(m.Skipped, Skipped{Name: r.Name, Type: f.key, Pos: f.position})
			return
		}
		keys := append(append([]string{}, ruleCommonKeys...), RuleTypes()...)
		p.errorf(f.keyNode, "unknown key %q in a rule%s; want one of %s", f.key, suggest.Hint(f.key, keys), strings.Join(keys, ", "))
	}
	switch {
	case len(known) == 0 && len(typeFields) == 0:
		p.errorf(n, "rule %q has no type; want exactly one of %s", r.Name, strings.Join(RuleTypes(), ", "))
		return
	case len(known) > 1:
		p.errorf(known[1].keyNode, "rule %q has more than one type (%s and %s); want exactly one", r.Name, known[0].key, known[1].key)
		return
	case len(known) == 0:
		return
	}
	t := known[0]
	r.Type = RuleType(t.key)
	for _, e := range r.Exempt {
		p.cycleExemption(r.Type, e)
	}
	if r.Type != Layers {
		for _, f := range extra {
			p.errorf(f.keyNode, "key %q belongs inside the rule's %s", f.key, r.Type)
		}
	}
	switch r.Type {
	case Deny:
		for _, kv := range p.fields(t.val, "deny", []string{"allow_within", "dependency_types", "dependency_types_not", "exclude_type_checking_imports", "from", "ignore_imports", "indirect", "max_chains", "to", "unless_edge", "unmatched_ignore"}) {
			if p.filter(&r, kv) {
				continue
			}
			switch kv.key {
			case "indirect":
				r.Indirect = p.boolean(kv.val, "indirect")
			case "max_chains":
				r.MaxChains = p.positive(kv.val, "max_chains")
			case "from":
				r.From = p.matcher(kv.val, "from")
			case "to":
				r.To = p.matcher(kv.val, "to")
			case "unless_edge":
				r.UnlessEdge = p.strList(kv.val, "unless_edge")
			case "allow_within":
				r.AllowWithin = p.boolean(kv.val, "allow_within")
			}
		}
		p.need(t, r.From.Pos.Line != 0, "deny needs from")
		if r.AllowWithin && (r.Indirect || len(r.To.Modules) == 0) {
			p.errorf(t.keyNode, "deny %q: allow_within needs module expressions in to and no indirect", r.Name)
		}
		p.need(t, r.To.Pos.Line != 0, "deny needs to")
		if r.Indirect && len(r.UnlessEdge) > 0 {
			// An edge exempts one import between two nodes; which edges
			// would exempt a chain through others has no clear answer.
			p.errorf(t.keyNode, "deny %q: indirect cannot be combined with unless_edge; exempt the chains with exempt: entries instead", r.Name)
		}
	case Require:
		for _, kv := range p.fields(t.val, "require", []string{"edge_kind", "for", "has_edge_to"}) {
			switch kv.key {
			case "for":
				r.From = p.matcher(kv.val, "for")
			case "has_edge_to":
				r.To = p.matcher(kv.val, "has_edge_to")
			case "edge_kind":
				r.EdgeKind, _ = p.str(kv.val, "edge_kind")
			}
		}
		p.need(t, r.From.Pos.Line != 0, "require needs for")
		p.need(t, r.To.Pos.Line != 0, "require needs has_edge_to")
	case Forbid:
		for _, kv := range p.fields(t.val, "forbid", []string{"edge_kind", "from", "indirect", "max_chains", "to"}) {
			switch kv.key {
			case "indirect":
				r.Indirect = p.boolean(kv.val, "indirect")
			case "max_chains":
				r.MaxChains = p.positive(kv.val, "max_chains")
			case "from":
				r.From = p.matcher(kv.val, "from")
			case "to":
				r.To = p.matcher(kv.val, "to")
			case "edge_kind":
				r.EdgeKind, _ = p.str(kv.val, "edge_kind")
			}
		}
		p.need(t, r.From.Pos.Line != 0, "forbid needs from")
		p.need(t, r.To.Pos.Line != 0, "forbid needs to")
	case ForbidImport:
		for _, kv := range p.fields(t.val, "forbid_import", []string{"from", "to"}) {
			s, ok := p.str(kv.val, kv.key)
			if !ok {
				continue
			}
			if _, err := CompileGlob(s); err != nil {
				p.errorf(kv.val, "%v", err)
				continue
			}
			if kv.key == "from" {
				r.FromGlob = s
			} else {
				r.ToGlob = s
			}
		}
		if t.val.Kind == yaml.MappingNode {
			p.need(t, hasKey(t.val, "from"), "forbid_import needs from")
			p.need(t, hasKey(t.val, "to"), "forbid_import needs to")
		}
	case ForbidCycles:
		includeImports, given := false, false
		if !(t.val.Kind == yaml.ScalarNode && t.val.Tag == "!!null") {
			for _, kv := range p.fields(t.val, "forbid_cycles", p.known([]string{"dependency_types", "dependency_types_not", "edge_kind", "exclude_type_checking_imports", "ignore_imports", "include_imports", "unmatched_ignore"})) {
				switch {
				case p.filter(&r, kv):
				case kv.key == "include_imports":
					includeImports, given = p.boolean(kv.val, "include_imports"), true
				case kv.key == "edge_kind":
					r.EdgeKind, _ = p.str(kv.val, "edge_kind")
				}
			}
		}
		// Beadloom checks the cycles of the declared edges of edge_kind
		// only; include_imports adds the import graph back.
		r.GraphOnly = r.EdgeKind != "" && !includeImports && (beadloom || given)
		if given && !includeImports && r.EdgeKind == "" {
			p.errorf(t.keyNode, "forbid_cycles %q: include_imports: false needs edge_kind (the declared edges to check instead)", r.Name)
		}
	case Check:
		if doc := p.check(&r, t); doc != nil {
			if r.MaxSymbols < 0 && r.MaxFiles < 0 {
				m.Skipped = append(m.Skipped, Skipped{Name: r.Name, Type: "check (min_doc_coverage)", Pos: p.pos(doc)})
				return
			}
			m.Notes = append(m.Notes, Note{Pos: p.pos(doc), Msg: fmt.Sprintf("rule %s: min_doc_coverage is not evaluated by vouch (documentation sync state lives in Beadloom's index); max_symbols and max_files are", r.Name)})
		}
	case ModuleCoverage:
		p.moduleCoverage(&r, t)
	case AcyclicSiblings:
		s := &Siblings{Depth: DefaultSiblingsDepth}
		for _, kv := range p.fields(t.val, "acyclic_siblings", []string{"ancestors", "dependency_types", "dependency_types_not", "depth", "exclude_type_checking_imports", "ignore_imports", "skip_descendants", "unmatched_ignore"}) {
			switch {
			case p.filter(&r, kv):
			case kv.key == "ancestors":
				s.Ancestors = p.modules(kv.val)
			case kv.key == "depth":
				var d int
				if err := kv.val.Decode(&d); err != nil || d < 0 {
					p.errorf(kv.val, "depth must be a whole number >= 0")
				}
				s.Depth = d
			case kv.key == "skip_descendants":
				s.SkipDescendants = p.modules(kv.val)
			}
		}
		p.need(t, len(s.Ancestors) > 0, "acyclic_siblings needs ancestors")
		r.Siblings = s
	case ForbidDependency:
		if d, ok := p.depRule(t.val, "forbid_dependency"); ok {
			r.Dep = &d
		}
	case AllowedDependencies:
		for _, e := range p.seq(t.val, "allowed_dependencies") {
			if d, ok := p.depRule(e, "an allowed_dependencies entry"); ok {
				r.Allowed = append(r.Allowed, d)
			}
		}
		if len(r.Allowed) == 0 && t.val.Kind == yaml.SequenceNode && len(t.val.Content) == 0 {
			p.errorf(t.keyNode, "allowed_dependencies needs at least one entry")
		}
	case Layers:
		r.AllowSkip = true
		var list *yaml.Node
		opts := extra
		if t.val.Kind == yaml.MappingNode {
			for _, kv := range p.fields(t.val, "layers", []string{"allow_skip", "dependency_types", "dependency_types_not", "edge_kind", "enforce", "exclude_type_checking_imports", "exhaustive", "ignore_imports", "include_imports", "indirect", "layers", "max_chains", "unmatched_ignore"}) {
				if kv.key == "layers" {
					list = kv.val
				} else {
					opts = append(opts, kv)
				}
			}
		} else {
			list = t.val
		}
		includeImports, given := false, false
		for _, kv := range opts {
			if p.filter(&r, kv) {
				continue
			}
			switch kv.key {
			case "include_imports":
				includeImports, given = p.boolean(kv.val, "include_imports"), true
			case "allow_skip":
				r.AllowSkip = p.boolean(kv.val, "allow_skip")
			case "indirect":
				r.Indirect = p.boolean(kv.val, "indirect")
			case "max_chains":
				r.MaxChains = p.positive(kv.val, "max_chains")
			case "edge_kind":
				r.EdgeKind, _ = p.str(kv.val, "edge_kind")
			case "exhaustive":
				r.Exhaustive = p.exhaustive(kv.val)
			case "enforce":
				if s, ok := p.str(kv.val, "enforce"); ok && s != "top-down" {
					p.errorf(kv.val, "enforce %q%s; only top-down is supported", s, suggest.Hint(s, []string{"top-down"}))
				}
			}
		}
		if list == nil {
			p.errorf(t.keyNode, "layers needs a list of {name, tag}")
			break
		}
		for _, ln := range p.seq(list, "layers") {
			var l Layer
			for _, kv := range p.fields(ln, "a layer", []string{"module", "name", "tag"}) {
				switch kv.key {
				case "name":
					l.Name, _ = p.str(kv.val, "name")
				case "tag":
					l.Tag, _ = p.str(kv.val, "tag")
				case "module":
					l.Modules = p.modules(kv.val)
				}
			}
			if l.Tag == "" && len(l.Modules) == 0 {
				p.errorf(ln, "layer %q has no tag or module", l.Name)
				continue
			}
			if l.Tag != "" && len(l.Modules) > 0 {
				p.errorf(ln, "layer %q has both tag and module; want one", l.Name)
				continue
			}
			if l.Name == "" {
				l.Name = l.Tag
				if l.Name == "" {
					l.Name = strings.Join(l.Modules, " | ")
				}
			}
			r.Layers = append(r.Layers, l)
		}
		if len(r.Layers) < 2 && len(r.Layers) > 0 {
			p.errorf(t.keyNode, "layers needs at least two layers")
		}
		if given && !includeImports && !beadloom {
			if r.EdgeKind == "" {
				p.errorf(t.keyNode, "layers %q: include_imports: false needs edge_kind (the declared edges to check instead)", r.Name)
			}
			r.GraphOnly = true
		}
		if beadloom && !includeImports {
			// Beadloom checks layers over declared edges only, of
			// edge_kind (default uses); include_imports adds imports.
			if r.EdgeKind == "" {
				r.EdgeKind = "uses"
			}
			r.GraphOnly = true
		}
	}
	m.Rules = append(m.Rules, r)
}

// depRule reads a forbid_dependency rule or allowed_dependencies entry:
// {from: {path, path_not, orphan}, to: {path, path_not, circular,
// via_only: {path, path_not}, dependency_types, dependency_types_not,
// could_not_resolve, more_than_one_type}}.
func (p *parser) depRule(n *yaml.Node, what string) (DepRule, bool) {
	var d DepRule
	ok := true
	for _, kv := range p.fields(n, what, []string{"from", "to"}) {
		if kv.val.Kind == yaml.ScalarNode && kv.val.Tag == "!!null" {
			continue
		}
		if kv.key == "from" {
			for _, f := range p.fields(kv.val, "from", []string{"orphan", "path", "path_not"}) {
				switch f.key {
				case "orphan":
					b := p.boolean(f.val, "orphan")
					d.From.Orphan = &b
				default:
					ok = p.depPaths(&d.From.DepPaths, f, false) && ok
				}
			}
			continue
		}
		for _, f := range p.fields(kv.val, "to", []string{"circular", "could_not_resolve", "dependency_types", "dependency_types_not", "more_than_one_type", "path", "path_not", "via_only"}) {
			switch f.key {
			case "circular":
				b := p.boolean(f.val, "circular")
				d.To.Circular = &b
			case "could_not_resolve":
				b := p.boolean(f.val, "could_not_resolve")
				d.To.CouldNotResolve = &b
			case "more_than_one_type":
				b := p.boolean(f.val, "more_than_one_type")
				d.To.MoreThanOneType = &b
			case "dependency_types", "dependency_types_not":
				kinds := DepTypes()
				var list []string
				for _, e := range p.seq(f.val, f.key) {
					if s, good := p.str(e, f.key+" entry"); good {
						if !slices.Contains(kinds, s) {
							p.errorf(e, "unknown dependency type %q%s; want one of %s", s, suggest.Hint(s, kinds), strings.Join(kinds, ", "))
							ok = false
							continue
						}
						list = append(list, s)
					}
				}
				if f.key == "dependency_types" {
					d.To.DependencyTypes = list
				} else {
					d.To.DependencyTypesNot = list
				}
			case "via_only":
				for _, v := range p.fields(f.val, "via_only", []string{"path", "path_not"}) {
					ok = p.depPaths(&d.To.ViaOnly, v, true) && ok
				}
			default:
				ok = p.depPaths(&d.To.DepPaths, f, true) && ok
			}
		}
	}
	if d.From.Orphan != nil && (len(d.To.Path) > 0 || len(d.To.PathNot) > 0 || d.To.Circular != nil || len(d.To.DependencyTypes) > 0 || len(d.To.DependencyTypesNot) > 0 || d.To.CouldNotResolve != nil || d.To.MoreThanOneType != nil) {
		p.errorf(n, "%s: a rule with from.orphan has no to conditions (an orphan has no dependencies)", what)
		ok = false
	}
	if (len(d.To.ViaOnly.Path) > 0 || len(d.To.ViaOnly.PathNot) > 0) && !d.Circ() {
		p.errorf(n, "%s: via_only applies to circular dependencies only; add circular: true to to", what)
		ok = false
	}
	return d, ok
}

// depPaths reads a path or path_not condition: one regular expression or
// a list of them (any matches). groups allows $1-style references to the
// from path's groups.
func (p *parser) depPaths(dp *DepPaths, f field, groups bool) bool {
	list := p.strList(f.val, f.key)
	good := true
	for i, re := range list {
		if _, err := CompileDepRegex(re, groups); err != nil {
			at := f.val
			if f.val.Kind == yaml.SequenceNode && i < len(f.val.Content) {
				at = f.val.Content[i]
			}
			p.errorf(at, "%s: %v", f.key, err)
			good = false
		}
	}
	if f.key == "path" {
		dp.Path = list
	} else {
		dp.PathNot = list
	}
	return good
}

// check reads Beadloom's check rule: {for, max_symbols, max_files,
// min_doc_coverage}. Documentation coverage lives in Beadloom's own index,
// so min_doc_coverage is reported as not evaluated.
func (p *parser) check(r *Rule, t field) (doc *yaml.Node) {
	for _, kv := range p.fields(t.val, "check", p.known([]string{"for", "max_files", "max_symbols", "min_doc_coverage"})) {
		switch kv.key {
		case "for":
			r.From = p.matcher(kv.val, "for")
		case "max_symbols":
			r.MaxSymbols = p.natural(kv.val, "max_symbols")
		case "max_files":
			r.MaxFiles = p.natural(kv.val, "max_files")
		case "min_doc_coverage":
			doc = kv.keyNode
		}
	}
	p.need(t, r.From.Pos.Line != 0, "check needs for")
	if r.MaxSymbols < 0 && r.MaxFiles < 0 && doc == nil {
		p.errorf(t.keyNode, "check needs max_symbols or max_files")
	}
	return doc
}

// moduleCoverage reads Beadloom's module_coverage rule: {source_root
// (default src/beadloom/, Beadloom's own), min_symbols (default 1),
// exempt: [fnmatch globs]}.
func (p *parser) moduleCoverage(r *Rule, t field) {
	r.SourceRoot, r.MinSymbols = "src/beadloom/", 1
	if t.val.Kind == yaml.ScalarNode && t.val.Tag == "!!null" {
		return
	}
	for _, kv := range p.fields(t.val, "module_coverage", p.known([]string{"exempt", "min_symbols", "source_root"})) {
		switch kv.key {
		case "source_root":
			r.SourceRoot, _ = p.str(kv.val, "source_root")
		case "min_symbols":
			r.MinSymbols = p.natural(kv.val, "min_symbols")
		case "exempt":
			r.ExemptGlobs = p.strList(kv.val, "exempt")
		}
	}
}

// scope reads the top-level scope: which modules and imports exist
// before any rule looks ({exclude, include_only, do_not_follow: regular
// expressions; drop_type_only, js_only}), what a dependency-cruiser
// configuration's options become.
func (p *parser) scope(n *yaml.Node) *Scope {
	sc := &Scope{Pos: p.pos(n)}
	for _, kv := range p.fields(n, "scope", []string{"do_not_follow", "drop_type_only", "exclude", "include_only", "js_only"}) {
		switch kv.key {
		case "drop_type_only":
			sc.NoTypeOnly = p.boolean(kv.val, kv.key)
		case "js_only":
			sc.JSOnly = p.boolean(kv.val, kv.key)
		default:
			var list []string
			for _, re := range p.strList(kv.val, kv.key) {
				if _, err := CompileDepRegex(re, false); err != nil {
					p.errorf(kv.val, "%s: %v", kv.key, err)
					continue
				}
				list = append(list, re)
			}
			switch kv.key {
			case "exclude":
				sc.Exclude = list
			case "include_only":
				sc.IncludeOnly = list
			default:
				sc.DoNotFollow = list
			}
		}
	}
	return sc
}

// natural reads a whole number of at least 0.
func (p *parser) natural(n *yaml.Node, what string) int {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!int" {
		if v, err := strconv.Atoi(n.Value); err == nil && v >= 0 {
			return v
		}
	}
	p.errorf(n, "%s must be a whole number of at least 0, found %s", what, yamldoc.KindName(n))
	return 0
}

// cycleExemption checks that a forbid_cycles exemption names its cycle by
// its whole member set, and that only those do: an exemption by one
// endpoint would keep silencing a cycle that grows.
func (p *parser) cycleExemption(t RuleType, e Exemption) {
	fail := func(msg string) { p.errs = append(p.errs, errAt(e.Pos, msg)) }
	switch {
	case (t == ForbidCycles || t == AcyclicSiblings) && (e.From != "" || e.To != ""):
		fail(fmt.Sprintf("a %s exemption names every member of the cycle (members: [a, b]), not from/to", t))
	case (t == ForbidCycles || t == AcyclicSiblings) && e.Members == nil:
		fail(fmt.Sprintf("a %s exemption needs members: the node ids of the whole cycle", t))
	case t != ForbidCycles && t != AcyclicSiblings && e.Members != nil:
		fail(fmt.Sprintf("members applies only to forbid_cycles exemptions; a %s exemption uses from/to", t))
	}
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

func (p *parser) need(f field, ok bool, msg string) {
	if !ok {
		p.errorf(f.keyNode, "%s", msg)
	}
}

func (p *parser) matcher(n *yaml.Node, what string) Matcher {
	m := Matcher{Pos: p.pos(n)}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return m
	}
	for _, kv := range p.fields(n, what, matcherKeys) {
		switch kv.key {
		case "ref_id":
			if s, ok := p.str(kv.val, "ref_id"); ok {
				if _, err := CompileGlob(s); err != nil {
					p.errorf(kv.val, "%v", err)
				}
				m.RefID = s
			}
		case "module":
			m.Modules = p.modules(kv.val)
		case "kind":
			m.Kind, _ = p.str(kv.val, "kind")
		case "tag":
			m.Tag, _ = p.str(kv.val, "tag")
		case "exclude":
			m.Exclude = p.strList(kv.val, "exclude")
		case "exclude_module":
			m.ExcludeModules = p.modules(kv.val)
		}
	}
	return m
}

// exhaustive reads a layers rule's {container, ignores}.
func (p *parser) exhaustive(n *yaml.Node) *Exhaustive {
	e := &Exhaustive{}
	for _, kv := range p.fields(n, "exhaustive", []string{"container", "ignores"}) {
		switch kv.key {
		case "container":
			e.Container, _ = p.str(kv.val, "container")
			if m, err := CompileModule(e.Container, false); err != nil || !m.IsLiteral() {
				p.errorf(kv.val, "exhaustive container %q is not a module name", e.Container)
			}
		case "ignores":
			e.Ignores = p.strList(kv.val, "ignores")
		}
	}
	if e.Container == "" {
		p.errorf(n, "exhaustive needs a container: the package whose every child module must be a layer")
	}
	return e
}

// modules reads a module expression or a list of them.
func (p *parser) modules(n *yaml.Node) []string {
	var out []string
	for _, s := range p.strList(n, "module") {
		if _, err := CompileModule(s, true); err != nil {
			p.errorf(n, "%v", err)
			continue
		}
		out = append(out, s)
	}
	if n.Kind == yaml.SequenceNode && len(n.Content) == 0 {
		p.errorf(n, "module needs at least one module name")
	}
	return out
}

func (p *parser) exemption(n *yaml.Node) (Exemption, bool) {
	e := Exemption{Pos: p.pos(n)}
	untilGiven := false
	for _, kv := range p.fields(n, "an exemption", exemptKeys) {
		switch kv.key {
		case "from", "to":
			s, ok := p.str(kv.val, kv.key)
			if !ok {
				continue
			}
			if _, err := CompileGlob(s); err != nil {
				p.errorf(kv.val, "%v", err)
			}
			if kv.key == "from" {
				e.From = s
			} else {
				e.To = s
			}
		case "members":
			e.Members = p.strList(kv.val, "members")
			if len(e.Members) == 0 {
				p.errorf(kv.val, "members needs at least one node id")
				e.Members = []string{}
			}
		case "reason":
			e.Reason, _ = p.str(kv.val, "reason")
		case "until":
			untilGiven = true
			s, ok := p.str(kv.val, "until")
			if !ok {
				continue
			}
			d, err := time.Parse("2006-01-02", s)
			if err != nil {
				p.errorf(kv.val, "until %q is not a date; want YYYY-MM-DD", s)
				continue
			}
			e.Until, e.UntilDay = s, Day(d)
		}
	}
	ok := true
	if e.Reason == "" {
		p.errorf(n, "exemption needs a reason")
		ok = false
	}
	if e.Until == "" {
		// An until that is not a date was reported where it stands.
		if !untilGiven {
			p.errorf(n, "exemption needs until (YYYY-MM-DD)")
		}
		ok = false
	}
	return e, ok
}

// Day is t's date as days since 1970-01-01 (UTC): datalog compares only
// integers.
func Day(t time.Time) int64 {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}
