package arch

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vouch-dev/vouch/internal/ini"
	"github.com/vouch-dev/vouch/internal/toml"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/yamldoc"
)

// ImportLinter is the Tool name of import-linter configurations.
const ImportLinter = "import-linter"

// importLinterFormat reads import-linter's configuration unchanged: an
// [importlinter] section and [importlinter:contract:ID] sections in
// .importlinter or setup.cfg (INI), or [tool.importlinter] with
// [[tool.importlinter.contracts]] in pyproject.toml. Files are looked for
// in import-linter's own order.
func importLinterFormat() ForeignFormat {
	return ForeignFormat{
		Tool:  ImportLinter,
		Files: []string{"setup.cfg", ".importlinter", "pyproject.toml"},
		Claims: func(file string, data []byte) bool {
			if strings.HasSuffix(file, ".toml") {
				return bytes.Contains(data, []byte("tool.importlinter"))
			}
			return bytes.Contains(data, []byte("[importlinter"))
		},
		Parse: func(_, file string, data []byte) (*Model, error) { return ParseImportLinter(file, data) },
	}
}

// ilValue is one setting of an import-linter section: its text, as list
// items with their lines, and where it stands.
type ilValue struct {
	key   string
	items []string
	lines []int
	line  int
	// text is the raw value of a scalar setting.
	text string
}

// ilSection is the top-level section or one contract.
type ilSection struct {
	id     string
	line   int
	values []ilValue
}

func (s *ilSection) get(key string) (ilValue, bool) {
	for _, v := range s.values {
		if v.key == key {
			return v, true
		}
	}
	return ilValue{}, false
}

// ilReader collects every problem of one file.
type ilReader struct {
	file string
	errs ErrorList
}

func (r *ilReader) errorf(line int, format string, args ...any) {
	line = max(line, 1) // a table the line scan did not place is at the top
	r.errs = append(r.errs, errAt(Pos{File: r.file, Line: line, Col: 1}, fmt.Sprintf(format, args...)))
}

// ParseImportLinter reads an import-linter configuration (INI, or TOML
// when file ends in .toml) into a model of granularity module whose rules
// carry their contract as Origin. Every problem is returned at once.
func ParseImportLinter(file string, data []byte) (*Model, error) {
	r := &ilReader{file: file}
	var top *ilSection
	var contracts []*ilSection
	if strings.HasSuffix(file, ".toml") {
		top, contracts = r.readTOML(data)
	} else {
		top, contracts = r.readINI(data)
	}
	m := &Model{Layout: ImportLinter, Granularity: GranularityModule}
	if top == nil {
		if len(r.errs) == 0 {
			r.errorf(1, "no [importlinter] section: import-linter's settings (root_package) are missing")
		}
		return m, r.errs
	}
	r.translate(m, top, contracts)
	if len(r.errs) > 0 {
		return m, r.errs
	}
	return m, nil
}

// syntaxError records a parse error of the INI or TOML text: the parsers
// return the package's positioned error (yamldoc.Error), given this
// file's name here.
func (r *ilReader) syntaxError(err error) {
	var e *yamldoc.Error
	if errors.As(err, &e) {
		pe := *e
		pe.File = r.file
		r.errs = append(r.errs, &pe)
		return
	}
	r.errorf(1, "%v", err)
}

func (r *ilReader) readINI(data []byte) (*ilSection, []*ilSection) {
	f, err := ini.Parse(data)
	if err != nil {
		r.syntaxError(err)
		return nil, nil
	}
	conv := func(s *ini.Section, id string) *ilSection {
		out := &ilSection{id: id, line: s.Line}
		for _, e := range s.Entries {
			items, lines := e.List()
			out.values = append(out.values, ilValue{key: e.Key, items: items, lines: lines, line: e.Line, text: strings.TrimSpace(e.Value)})
		}
		return out
	}
	var top *ilSection
	var contracts []*ilSection
	for _, s := range f.Sections {
		switch {
		case s.Name == "importlinter":
			top = conv(s, "")
		case strings.HasPrefix(s.Name, "importlinter:contract:"):
			contracts = append(contracts, conv(s, strings.TrimPrefix(s.Name, "importlinter:contract:")))
		case strings.HasPrefix(s.Name, "importlinter:"):
			r.errorf(s.Line, "unknown section [%s]; import-linter contracts are [importlinter:contract:ID]", s.Name)
		}
	}
	return top, contracts
}

func (r *ilReader) readTOML(data []byte) (*ilSection, []*ilSection) {
	t, err := toml.Parse(data)
	if err != nil {
		r.syntaxError(err)
		return nil, nil
	}
	v, ok := t.Lookup("tool", "importlinter")
	if !ok {
		return nil, nil
	}
	pos := tomlLines(data)
	tbl, ok := v.(toml.Table)
	if !ok {
		r.errorf(pos.top.line, "tool.importlinter must be a table")
		return nil, nil
	}
	conv := func(t toml.Table, at tomlTable, id string) *ilSection {
		out := &ilSection{id: id, line: at.line}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		// File order, so errors and rules come out as written.
		slices.SortFunc(keys, func(a, b string) int { return at.keys[a].line - at.keys[b].line })
		for _, k := range keys {
			if k == "contracts" && id == "" {
				continue
			}
			kp := at.keys[k]
			val := ilValue{key: k, line: kp.line}
			switch x := t[k].(type) {
			case []any:
				for i, e := range x {
					s, ok := e.(string)
					if !ok {
						r.errorf(kp.line, "%s must be a list of strings", k)
						continue
					}
					line := kp.line
					if i < len(kp.items) {
						line = kp.items[i]
					}
					val.items = append(val.items, strings.TrimSpace(s))
					val.lines = append(val.lines, line)
				}
			case string:
				val.text = strings.TrimSpace(x)
				for i, l := range strings.Split(x, "\n") {
					if l = strings.TrimSpace(l); l != "" {
						val.items = append(val.items, l)
						val.lines = append(val.lines, kp.line+i)
					}
				}
			case bool:
				val.text = fmt.Sprint(x)
			default:
				val.text = fmt.Sprint(x)
			}
			out.values = append(out.values, val)
		}
		return out
	}
	top := conv(tbl, pos.top, "")
	var contracts []*ilSection
	if cs, ok := tbl["contracts"]; ok {
		list, ok := cs.([]any)
		if !ok {
			r.errorf(pos.top.keys["contracts"].line, "tool.importlinter.contracts must be an array of tables ([[tool.importlinter.contracts]])")
		}
		for i, c := range list {
			ct, ok := c.(toml.Table)
			at := tomlTable{line: pos.top.line, keys: map[string]tomlKey{}}
			if i < len(pos.contracts) {
				at = pos.contracts[i]
			}
			if !ok {
				r.errorf(at.line, "contract %d must be a table", i+1)
				continue
			}
			id := fmt.Sprint(i + 1)
			if s, ok := ct["id"].(string); ok && s != "" {
				id = s
			}
			contracts = append(contracts, conv(ct, at, id))
		}
	}
	return top, contracts
}

// tomlKey is where a key of a table and each string of its array value
// stand.
type tomlKey struct {
	line  int
	items []int
}

type tomlTable struct {
	line int
	keys map[string]tomlKey
}

type tomlPositions struct {
	top       tomlTable
	contracts []tomlTable
}

// tomlLines finds the lines of [tool.importlinter]'s keys and of each
// [[tool.importlinter.contracts]] table's keys and array strings: the
// TOML reader keeps values, not positions, and errors must name a line.
func tomlLines(data []byte) tomlPositions {
	var p tomlPositions
	p.top.keys = map[string]tomlKey{}
	var cur *tomlTable
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		n := i + 1
		switch {
		case strings.HasPrefix(t, "[["):
			name := strings.TrimSpace(strings.Trim(strings.SplitN(t, "#", 2)[0], "[] "))
			cur = nil
			if name == "tool.importlinter.contracts" {
				p.contracts = append(p.contracts, tomlTable{line: n, keys: map[string]tomlKey{}})
				cur = &p.contracts[len(p.contracts)-1]
			}
			continue
		case strings.HasPrefix(t, "["):
			name := strings.TrimSpace(strings.Trim(strings.SplitN(t, "#", 2)[0], "[] "))
			cur = nil
			if name == "tool.importlinter" {
				p.top.line = n
				cur = &p.top
			}
			continue
		}
		if cur == nil || t == "" || t[0] == '#' {
			continue
		}
		eq := strings.IndexByte(t, '=')
		if eq <= 0 {
			continue
		}
		key := strings.Trim(strings.TrimSpace(t[:eq]), `"'`)
		k := tomlKey{line: n}
		// The strings of the value, line by line, until its brackets close.
		depth := 0
		rest := t[eq+1:]
		for j := i; j < len(lines); j++ {
			seg := rest
			if j > i {
				seg = lines[j]
			}
			inStr := byte(0)
			for x := 0; x < len(seg); x++ {
				c := seg[x]
				switch {
				case inStr != 0:
					if c == '\\' && inStr == '"' {
						x++
					} else if c == inStr {
						inStr = 0
					}
				case c == '"' || c == '\'':
					inStr = c
					k.items = append(k.items, j+1)
				case c == '[':
					depth++
				case c == ']':
					depth--
				case c == '#':
					x = len(seg)
				}
			}
			if depth <= 0 {
				i = j
				break
			}
		}
		cur.keys[key] = k
	}
	return p
}

// Known settings.
var (
	ilTopKeys       = []string{"cache_dir", "contract_types", "exclude_type_checking_imports", "include_external_packages", "root_package", "root_packages"}
	ilCommonKeys    = []string{"id", "ignore_imports", "name", "type", "unmatched_ignore_imports_alerting"}
	ilContractTypes = []string{"acyclic_siblings", "forbidden", "independence", "layers", "protected"}
	ilTypeKeys      = map[string][]string{
		"forbidden":        {"allow_indirect_imports", "as_packages", "forbidden_modules", "source_modules"},
		"layers":           {"containers", "exhaustive", "exhaustive_ignores", "layers"},
		"independence":     {"allow_indirect_imports", "modules"},
		"acyclic_siblings": {"ancestors", "depth", "skip_descendants"},
		"protected":        {"allowed_importers", "as_packages", "protected_modules"},
	}
)

func (r *ilReader) boolean(v ilValue) bool {
	switch strings.ToLower(v.text) {
	case "true", "yes", "1", "on":
		return true
	case "false", "no", "0", "off", "":
		return false
	}
	r.errorf(v.line, "%s = %q must be True or False", v.key, v.text)
	return false
}

// modules checks a list of module expressions.
func (r *ilReader) modules(v ilValue) []string {
	var out []string
	for i, s := range v.items {
		if _, err := CompileModule(s, true); err != nil {
			r.errorf(v.lines[i], "%s: %v", v.key, err)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (r *ilReader) translate(m *Model, top *ilSection, contracts []*ilSection) {
	custom := map[string]bool{}
	for _, v := range top.values {
		if !slices.Contains(ilTopKeys, v.key) {
			r.errorf(v.line, "unknown key %q in [importlinter]%s; want one of %s", v.key, suggest.Hint(v.key, ilTopKeys), strings.Join(ilTopKeys, ", "))
		}
	}
	var roots []string
	if v, ok := top.get("root_package"); ok {
		roots = append(roots, v.items...)
	}
	if v, ok := top.get("root_packages"); ok {
		roots = append(roots, v.items...)
	}
	for _, rp := range roots {
		if p, err := CompileModule(rp, false); err != nil || !p.IsLiteral() {
			r.errorf(top.line, "root package %q is not a module name", rp)
		}
	}
	if len(roots) == 0 {
		r.errorf(top.line, "[importlinter] needs root_package or root_packages")
	}
	m.RootPackages = roots
	m.RootPackagesPos = Pos{File: r.file, Line: top.line, Col: 1}
	external := false
	if v, ok := top.get("include_external_packages"); ok {
		external = r.boolean(v)
	}
	typeChecking := false
	if v, ok := top.get("exclude_type_checking_imports"); ok {
		typeChecking = r.boolean(v)
	}
	if v, ok := top.get("contract_types"); ok {
		for _, item := range v.items {
			name, _, _ := strings.Cut(item, ":")
			custom[strings.TrimSpace(name)] = true
		}
	}
	names := map[string]int{}
	for _, c := range contracts {
		if n, ok := c.get("name"); ok {
			names[n.text]++
		}
	}
	for _, c := range contracts {
		r.contract(m, c, roots, custom, external, typeChecking, names)
	}
	if len(contracts) == 0 {
		r.errorf(top.line, "no contracts: add [importlinter:contract:ID] sections (or [[tool.importlinter.contracts]])")
	}
}

func (r *ilReader) contract(m *Model, c *ilSection, roots []string, custom map[string]bool, external, typeChecking bool, names map[string]int) {
	nameV, hasName := c.get("name")
	typeV, hasType := c.get("type")
	if !hasName || nameV.text == "" {
		r.errorf(c.line, "contract %s has no name", c.id)
		return
	}
	if !hasType || typeV.text == "" {
		r.errorf(c.line, "contract %q has no type; want one of %s", nameV.text, strings.Join(ilContractTypes, ", "))
		return
	}
	name, typ := nameV.text, typeV.text
	if names[name] > 1 {
		name += " (" + c.id + ")"
	}
	pos := Pos{File: r.file, Line: c.line, Col: 1}
	skip := func() {
		m.Skipped = append(m.Skipped, Skipped{Name: name, Type: typ, Pos: pos})
	}
	if custom[typ] {
		// A custom contract type (contract_types) is Python code vouch
		// cannot run.
		skip()
		return
	}
	known, ok := ilTypeKeys[typ]
	if !ok {
		r.errorf(typeV.line, "unknown contract type %q%s; want one of %s", typ, suggest.Hint(typ, ilContractTypes), strings.Join(ilContractTypes, ", "))
		return
	}
	keys := append(slices.Clone(ilCommonKeys), known...)
	slices.Sort(keys)
	bad := false
	for _, v := range c.values {
		if !slices.Contains(keys, v.key) {
			r.errorf(v.line, "unknown key %q in %s contract %q%s; want one of %s", v.key, typ, nameV.text, suggest.Hint(v.key, keys), strings.Join(keys, ", "))
			bad = true
		}
	}
	if bad {
		return
	}
	origin := func(notes ...string) *Origin {
		return &Origin{Tool: ImportLinter, Group: name, Pos: pos, Note: notes}
	}
	// Settings every contract type shares.
	var ignores []IgnoredImport
	if v, ok := c.get("ignore_imports"); ok {
		for i, item := range v.items {
			from, to, ok := strings.Cut(item, "->")
			from, to = strings.TrimSpace(from), strings.TrimSpace(to)
			_, e1 := CompileModule(from, false)
			_, e2 := CompileModule(to, false)
			if !ok || e1 != nil || e2 != nil {
				r.errorf(v.lines[i], "ignore_imports entry %q: want importer -> imported (module names, * and ** allowed)", item)
				continue
			}
			ignores = append(ignores, IgnoredImport{From: from, To: to, Pos: Pos{File: r.file, Line: v.lines[i], Col: 1}})
		}
	}
	unmatched := ""
	if v, ok := c.get("unmatched_ignore_imports_alerting"); ok {
		switch strings.ToLower(v.text) {
		case "error":
		case "warn":
			unmatched = SeverityWarn
		case "none":
			unmatched = "none"
		default:
			r.errorf(v.line, "unmatched_ignore_imports_alerting %q%s; want error, warn or none", v.text, suggest.Hint(v.text, []string{"error", "warn", "none"}))
		}
	}
	indirect := true
	if v, ok := c.get("allow_indirect_imports"); ok {
		indirect = !r.boolean(v)
	}
	made := 0
	base := func(ruleName string, t RuleType, o *Origin) Rule {
		rl := Rule{Name: ruleName, Severity: SeverityError, Type: t, Pos: pos, Origin: o,
			IgnoreImports: ignores, IgnoreUnmatched: unmatched, Indirect: indirect}
		if ruleName != name {
			rl.Description = nameV.text
		}
		// Every rule of a contract sees the same ignored imports; an entry
		// matching no import is reported once, by the contract's first.
		if made > 0 && len(ignores) > 0 {
			rl.IgnoreUnmatched = "none"
		}
		made++
		if typeChecking {
			rl.DependencyTypesNot = []string{"type-checking"}
		}
		return rl
	}
	chainNote := "chains of imports are checked (import-linter's default); one shortest chain per module pair is shown"
	if !indirect {
		chainNote = "allow_indirect_imports: only direct imports are checked"
	}
	isRoot := func(mod string) bool {
		for _, rp := range roots {
			if mod == rp || strings.HasPrefix(mod, rp+".") {
				return true
			}
		}
		return false
	}
	switch typ {
	case "forbidden":
		src, _ := c.get("source_modules")
		fb, _ := c.get("forbidden_modules")
		if len(src.items) == 0 || len(fb.items) == 0 {
			r.errorf(c.line, "forbidden contract %q needs source_modules and forbidden_modules", nameV.text)
			return
		}
		if v, ok := c.get("as_packages"); ok && !r.boolean(v) {
			r.errorf(v.line, "as_packages = False (modules without their descendants) is not supported by vouch; remove it to check the modules with their descendants")
			return
		}
		var internal, ext []string
		for _, f := range r.modules(fb) {
			if isRoot(f) {
				internal = append(internal, f)
			} else {
				ext = append(ext, f)
			}
		}
		notes := []string{chainNote}
		if len(ext) > 0 {
			if !external {
				r.errorf(fb.line, "forbidden_modules %s are not in the root packages; import-linter needs include_external_packages = True for them", strings.Join(ext, ", "))
				return
			}
			m.ExternalPackages = true
			internal = append(internal, ext...)
			notes = append(notes, "external packages "+strings.Join(ext, ", ")+" are nodes of the graph (include_external_packages)")
		}
		sources := r.modules(src)
		if !indirect || len(sources)*len(internal) == 1 {
			rl := base(name, Deny, origin(notes...))
			rl.From = Matcher{Modules: sources, Pos: pos}
			rl.To = Matcher{Modules: internal, Pos: pos}
			m.Rules = append(m.Rules, rl)
			return
		}
		// import-linter looks for chains from each source module to each
		// forbidden module on its own, through modules outside those two
		// only; a vouch rule's chains avoid its own from and to nodes, so
		// one rule per pair finds the same chains.
		for _, s := range sources {
			for _, f := range internal {
				rl := base(name+" ["+s+" -> "+f+"]", Deny, origin(append(slices.Clone(notes), "one vouch rule per pair of source and forbidden module: "+s+" must not depend on "+f)...))
				rl.From = Matcher{Modules: []string{s}, Pos: pos}
				rl.To = Matcher{Modules: []string{f}, Pos: pos}
				m.Rules = append(m.Rules, rl)
			}
		}
	case "independence":
		mv, _ := c.get("modules")
		mods := r.modules(mv)
		if len(mods) < 2 {
			r.errorf(c.line, "independence contract %q needs at least two modules", nameV.text)
			return
		}
		for i, mod := range mods {
			others := slices.Delete(slices.Clone(mods), i, i+1)
			rl := base(name+" ["+mod+"]", Deny, origin(chainNote, "one vouch rule per module: "+mod+" must not depend on the others"))
			rl.From = Matcher{Modules: []string{mod}, Pos: pos}
			rl.To = Matcher{Modules: others, Pos: pos}
			m.Rules = append(m.Rules, rl)
		}
	case "layers":
		r.layers(m, c, name, base, origin, chainNote)
	case "protected":
		pv, _ := c.get("protected_modules")
		av, _ := c.get("allowed_importers")
		if len(pv.items) == 0 {
			r.errorf(c.line, "protected contract %q needs protected_modules", nameV.text)
			return
		}
		if v, ok := c.get("as_packages"); ok && !r.boolean(v) {
			r.errorf(v.line, "as_packages = False (modules without their descendants) is not supported by vouch; remove it to check the modules with their descendants")
			return
		}
		allowed := r.modules(av)
		// import-linter checks each protected module expression on its
		// own, direct imports only: one deny rule each, from every module
		// but the allowed importers, to the protected modules, where a
		// module inside the protected package may import it.
		for _, p := range r.modules(pv) {
			ruleName := name
			if len(pv.items) > 1 {
				ruleName = name + " [" + p + "]"
			}
			note := "only " + strings.Join(allowed, ", ") + " (and their descendants) may import " + p + " directly; its own modules may import each other"
			if len(allowed) == 0 {
				note = "no module outside " + p + " may import it directly"
			}
			rl := base(ruleName, Deny, origin("direct imports only, as import-linter's protected contracts check", note))
			rl.Indirect = false
			rl.From = Matcher{ExcludeModules: allowed, Pos: pos}
			rl.To = Matcher{Modules: []string{p}, Pos: pos}
			rl.AllowWithin = true
			m.Rules = append(m.Rules, rl)
		}
	case "acyclic_siblings":
		av, _ := c.get("ancestors")
		ancestors := r.modules(av)
		if len(av.items) == 0 {
			r.errorf(c.line, "acyclic_siblings contract %q needs ancestors", nameV.text)
			return
		}
		s := &Siblings{Ancestors: ancestors, Depth: DefaultSiblingsDepth}
		if v, ok := c.get("depth"); ok {
			d, err := strconv.Atoi(strings.TrimSpace(v.text))
			if err != nil || d < 0 {
				r.errorf(v.line, "depth = %q must be a whole number >= 0", v.text)
				return
			}
			s.Depth = d
		}
		if v, ok := c.get("skip_descendants"); ok {
			s.SkipDescendants = r.modules(v)
			for _, sk := range s.SkipDescendants {
				if slices.Contains(ancestors, sk) {
					r.errorf(v.line, "cannot skip %q: it is also an ancestor", sk)
					return
				}
			}
		}
		rl := base(name, AcyclicSiblings, origin("direct imports between the children's modules (descendants included) are dependencies between the children; each package's children are checked for a cycle, down depth generations",
			"vouch reports each cycle (a strongly connected component of the children) with one shortest witness; import-linter lists the dependencies it would remove to break them"))
		rl.Indirect = false
		rl.Siblings = s
		m.Rules = append(m.Rules, rl)
	default:
		skip()
	}
}

// ilLayer is one line of a layers contract: sibling modules, whether they
// are independent of each other, and which are optional.
type ilLayer struct {
	mods        []string
	optional    []bool
	independent bool
	text        string
	line        int
}

func (r *ilReader) parseLayer(text string, line int) (ilLayer, bool) {
	l := ilLayer{text: text, line: line}
	sep := ""
	switch {
	case strings.Contains(text, "|") && strings.Contains(text, ":"):
		r.errorf(line, "layer %q mixes | and :; a layer's siblings are either independent (|) or not (:)", text)
		return l, false
	case strings.Contains(text, "|"):
		sep, l.independent = "|", true
	case strings.Contains(text, ":"):
		sep = ":"
	}
	parts := []string{text}
	if sep != "" {
		parts = strings.Split(text, sep)
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		opt := strings.HasPrefix(p, "(") && strings.HasSuffix(p, ")")
		if opt {
			p = strings.TrimSpace(p[1 : len(p)-1])
		}
		if _, err := CompileModule(p, true); err != nil || strings.Contains(p, "*") {
			r.errorf(line, "layer %q: %q is not a module name", text, p)
			return l, false
		}
		l.mods = append(l.mods, p)
		l.optional = append(l.optional, opt)
	}
	return l, true
}

func (r *ilReader) layers(m *Model, c *ilSection, name string, base func(string, RuleType, *Origin) Rule, origin func(...string) *Origin, chainNote string) {
	lv, _ := c.get("layers")
	if len(lv.items) < 2 {
		r.errorf(c.line, "layers contract %q needs at least two layers", name)
		return
	}
	var layers []ilLayer
	for i, text := range lv.items {
		if l, ok := r.parseLayer(text, lv.lines[i]); ok {
			layers = append(layers, l)
		}
	}
	containers := []string{""}
	if cv, ok := c.get("containers"); ok && len(cv.items) > 0 {
		containers = r.modules(cv)
		for i, ct := range containers {
			// import-linter refuses a container outside the root packages.
			if !slices.ContainsFunc(m.RootPackages, func(rp string) bool { return ct == rp || strings.HasPrefix(ct, rp+".") }) {
				r.errorf(cv.lines[min(i, len(cv.lines)-1)], "invalid container %q: a container must be one of the root packages (%s) or a subpackage of one", ct, strings.Join(m.RootPackages, ", "))
			}
		}
	}
	exhaustive := false
	if v, ok := c.get("exhaustive"); ok {
		exhaustive = r.boolean(v)
	}
	var ignores []string
	if v, ok := c.get("exhaustive_ignores"); ok {
		ignores = v.items
	}
	if exhaustive {
		if len(containers) == 1 && containers[0] == "" {
			r.errorf(c.line, "layers contract %q: exhaustive needs containers", name)
			return
		}
	}
	full := func(container, mod string) string {
		if container == "" {
			return mod
		}
		return container + "." + mod
	}
	notes := []string{chainNote,
		"layers are listed top first; a lower layer must not depend on a higher one; a chain through another layer is reported as its upward part",
		"a layer module that does not exist is an error unless the layer is optional: (name)"}
	for _, container := range containers {
		ruleName := name
		if container != "" && len(containers) > 1 {
			ruleName = name + " [" + container + "]"
		}
		var ls []Layer
		for _, l := range layers {
			var mods, required []string
			for i, mod := range l.mods {
				mods = append(mods, full(container, mod))
				if !l.optional[i] {
					required = append(required, full(container, mod))
				}
			}
			ls = append(ls, Layer{Name: strings.Join(mods, " | "), Modules: mods, Required: required, RequiredPos: Pos{File: r.file, Line: l.line, Col: 1}})
		}
		cn := slices.Clone(notes)
		if container != "" {
			cn = append(cn, "container "+container+": its layers are checked on their own")
		}
		if exhaustive {
			cn = append(cn, "exhaustive: every child module of "+container+" must be one of the layers' modules"+ignoredNote(ignores))
		}
		rl := base(ruleName, Layers, origin(cn...))
		rl.Layers = ls
		rl.AllowSkip = true
		if exhaustive {
			rl.Exhaustive = &Exhaustive{Container: container, Ignores: ignores}
		}
		m.Rules = append(m.Rules, rl)
		// Independent siblings (a | b) must not depend on each other.
		for _, l := range layers {
			if !l.independent || len(l.mods) < 2 {
				continue
			}
			for i, mod := range l.mods {
				var others []string
				for j, o := range l.mods {
					if j != i {
						others = append(others, full(container, o))
					}
				}
				sib := base(ruleName+" ["+full(container, mod)+" independent]", Deny,
					origin(chainNote, fmt.Sprintf("layer %q (line %d) lists independent siblings: %s must not depend on %s", l.text, l.line, full(container, mod), strings.Join(others, ", "))))
				sib.From = Matcher{Modules: []string{full(container, mod)}, Pos: sib.Pos}
				sib.To = Matcher{Modules: others, Pos: sib.Pos}
				m.Rules = append(m.Rules, sib)
			}
		}
	}
}

// ignoredNote names exhaustive_ignores in an explanation.
func ignoredNote(ignores []string) string {
	if len(ignores) == 0 {
		return ""
	}
	return " or listed in exhaustive_ignores (" + strings.Join(ignores, ", ") + ")"
}
