package arch

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/internal/jslit"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/yamldoc"
)

// DepcruiseFiles are dependency-cruiser's configuration file names, in the
// order vouch looks for them at the repository root.
var DepcruiseFiles = []string{".dependency-cruiser.json", ".dependency-cruiser.js", ".dependency-cruiser.cjs"}

// IsDepcruise reports whether file (holding data) is a dependency-cruiser
// configuration: named like one, a JavaScript module (vouch's own files
// are YAML), or a .json file whose top level has dependency-cruiser's
// keys.
func IsDepcruise(file string, data []byte) bool {
	b := filepath.Base(file)
	switch {
	case strings.HasPrefix(b, ".dependency-cruiser") || strings.HasPrefix(b, "dependency-cruiser"):
		return true
	case slices.Contains([]string{".js", ".cjs", ".mjs"}, filepath.Ext(b)):
		return true
	case filepath.Ext(b) != ".json":
		return false
	}
	v, err := jslit.ParseJSON(data)
	if err != nil || v.Kind != jslit.Object {
		return false
	}
	return slices.ContainsFunc(v.Keys, func(k string) bool {
		return slices.Contains([]string{"allowed", "extends", "forbidden", "options", "required"}, k)
	})
}

// DepcruiseFormat is dependency-cruiser's entry in ForeignFormats.
func DepcruiseFormat() ForeignFormat {
	return ForeignFormat{Tool: "dependency-cruiser", Files: DepcruiseFiles, Claims: IsDepcruise, Parse: ParseDepcruiseIn}
}

// ParseDepcruise reads a dependency-cruiser configuration unchanged: the
// JSON form (read as JSON5, as dependency-cruiser does) or a .js/.cjs/.mjs
// module whose only statement exports a plain object literal; file names
// it in errors and decides between the two forms. Its forbidden rules
// become forbid_dependency rules, its allowed list one
// allowed_dependencies rule named not-in-allowed, and the options that
// decide which modules exist (exclude, includeOnly, doNotFollow,
// tsPreCompilationDeps) the model's Scope. Nodes are one per file
// (granularity file), the unit dependency-cruiser reasons about.
func ParseDepcruise(file string, data []byte) (*Model, error) {
	return ParseDepcruiseIn("", file, data)
}

// ParseDepcruiseIn is ParseDepcruise for a configuration of the
// repository at root: a file it extends must lie under root (or, for a
// configuration outside root, under the configuration's own directory),
// through links too, so a configuration cannot make vouch read files from
// elsewhere on the machine.
func ParseDepcruiseIn(root, file string, data []byte) (*Model, error) {
	m := &Model{Layout: "dependency-cruiser", Granularity: GranularityFile}
	v, err := parseDepcruiseFile(file, data)
	if err != nil {
		return m, err
	}
	d := &dcReader{file: file, m: m, from: map[*jslit.Value]string{}, within: extendsBoundary(root, file)}
	v = d.extend(v, file, map[string]bool{filepath.Clean(file): true})
	if len(d.errs) > 0 {
		return m, d.errs
	}
	d.config(v)
	if len(d.errs) > 0 {
		return m, d.errs
	}
	return m, nil
}

// parseDepcruiseFile reads a configuration's literal: a .js/.cjs/.mjs
// module or JSON5, by file's extension; a syntax error is an ErrorList
// positioned in file.
func parseDepcruiseFile(file string, data []byte) (*jslit.Value, error) {
	var v *jslit.Value
	var err error
	switch filepath.Ext(file) {
	case ".js", ".cjs", ".mjs":
		v, err = jslit.ParseModule(data)
	default:
		v, err = jslit.ParseJSON(data)
	}
	if err == nil {
		return v, nil
	}
	var je *jslit.Error
	if errors.As(err, &je) {
		msg := je.Msg
		if filepath.Ext(file) != ".json" {
			msg += "; vouch reads a configuration module only when it exports a plain object literal: export the configuration as JSON (.dependency-cruiser.json, with regular expressions as strings) and point --config at it"
		}
		return nil, ErrorList{{File: file, Pos: yamldoc.Pos{Line: je.Line, Col: je.Col}, Msg: msg}}
	}
	return nil, ErrorList{{File: file, Msg: err.Error()}}
}

type dcReader struct {
	file string
	m    *Model
	errs ErrorList
	// from names the file each value of an extended configuration came
	// from (values of the file itself are not listed).
	from map[*jslit.Value]string
	// within is the directory extended files must lie under; "" allows
	// any.
	within string
}

func (d *dcReader) pos(v *jslit.Value) Pos {
	file := d.file
	if f, ok := d.from[v]; ok {
		file = f
	}
	return Pos{File: file, Line: v.Line, Col: v.Col}
}

func (d *dcReader) errorf(v *jslit.Value, format string, args ...any) {
	d.errs = append(d.errs, errAt(d.pos(v), fmt.Sprintf(format, args...)))
}

func (d *dcReader) note(v *jslit.Value, format string, args ...any) {
	d.m.Notes = append(d.m.Notes, Note{Pos: d.pos(v), Msg: fmt.Sprintf(format, args...)})
}

// entry is one key of an object with its value and the key's position.
type entry struct {
	key string
	val *jslit.Value
	at  *jslit.Value // the key's position
}

// fields lists an object's entries, reporting keys not in known.
func (d *dcReader) fields(v *jslit.Value, what string, known []string) []entry {
	if v.Kind != jslit.Object {
		d.errorf(v, "%s must be an object, found %s", what, v.Kind)
		return nil
	}
	var out []entry
	for i, k := range v.Keys {
		at := &jslit.Value{Line: v.KeyPos[i].Line, Col: v.KeyPos[i].Col}
		if f, ok := d.from[v]; ok {
			d.from[at] = f
		}
		if known != nil && !slices.Contains(known, k) {
			d.errorf(at, "unknown key %q in %s%s; want one of %s", k, what, suggest.Hint(k, known), strings.Join(known, ", "))
			continue
		}
		out = append(out, entry{k, v.Fields[i], at})
	}
	return out
}

var (
	dcTopKeys   = []string{"$schema", "allowed", "allowedSeverity", "extends", "forbidden", "options", "required"}
	dcRuleKeys  = []string{"comment", "from", "name", "scope", "severity", "to"}
	dcFromKeys  = []string{"orphan", "path", "pathNot"}
	dcToKeys    = []string{"circular", "couldNotResolve", "dependencyTypes", "dependencyTypesNot", "moreThanOneDependencyType", "path", "pathNot", "viaNot", "viaOnly"}
	dcFromOther = []string{"reachable"}
	dcToOther   = []string{"ancestor", "dynamic", "exoticRequire", "exoticRequireNot", "exoticallyRequired", "license", "licenseNot", "moreUnstable", "preCompilationOnly", "reachable", "via", "viaSomeNot"}
	dcSeverity  = []string{"error", "warn", "info", "ignore"}
)

// dcTypes maps dependency-cruiser's dependency types to vouch's. A type
// with no equivalent is refused (see dcTypeHelp) rather than dropped.
var dcTypes = map[string][]string{
	"local":          {"local"},
	"npm":            {"npm"},
	"core":           {"core"},
	"unknown":        {"unknown"},
	"import":         {"import", "type-only"},
	"export":         {"reexport"},
	"require":        {"require"},
	"dynamic-import": {"dynamic"},
	"type-only":      {"type-only"},
	"npm-dev":        {"npm-dev"},
	"npm-optional":   {"npm-optional"},
	"npm-peer":       {"npm-peer"},
	"npm-bundled":    {"npm-bundled"},
	"npm-no-pkg":     {"npm-no-pkg"},
	"npm-unknown":    {"npm-unknown"},
	"deprecated":     {"deprecated"},
}

// dcOptionsApplied are options vouch applies; dcOptionsOutput change only
// how dependency-cruiser reports or caches, so they change no finding.
var (
	dcOptionsApplied = []string{"doNotFollow", "exclude", "includeOnly", "tsConfig", "tsPreCompilationDeps"}
	dcOptionsOutput  = []string{"cache", "metrics", "outputTo", "outputType", "prefix", "preserveSymlinks", "progress", "reporterOptions", "skipAnalysisNotInRules", "experimentalStats", "babelConfig", "baseDir", "parser", "mono-repo"}
)

func (d *dcReader) config(v *jslit.Value) {
	allowedSeverity := "warn"
	var allowedSevAt *jslit.Value
	var allowed []DepRule
	var allowedAt *jslit.Value
	names := map[string]int{}
	for _, e := range d.fields(v, "the configuration", dcTopKeys) {
		switch e.key {
		case "required":
			d.errorf(e.at, "required rules are not evaluated by vouch; remove them or check them with dependency-cruiser")
		case "allowedSeverity":
			if s, ok := d.str(e.val, "allowedSeverity"); ok {
				if !slices.Contains(dcSeverity, s) {
					d.errorf(e.val, "severity %q%s; want one of %s", s, suggest.Hint(s, dcSeverity), strings.Join(dcSeverity, ", "))
				}
				allowedSeverity, allowedSevAt = s, e.val
			}
		case "forbidden":
			for _, rv := range d.list(e.val, "forbidden") {
				d.rule(rv, names)
			}
		case "allowed":
			allowedAt = e.at
			for _, rv := range d.list(e.val, "allowed") {
				if r, ok := d.depRule(rv, true); ok {
					allowed = append(allowed, r)
				}
			}
		case "options":
			d.options(e.val)
		}
	}
	if d.m.Scope == nil {
		// dependency-cruiser leaves type-only imports out unless
		// tsPreCompilationDeps says otherwise.
		d.m.Scope = &Scope{Pos: d.pos(v), NoTypeOnly: true, JSOnly: true}
	}
	if allowedAt != nil && len(allowed) > 0 {
		r := Rule{Name: "not-in-allowed", Type: AllowedDependencies, Severity: allowedSeverity, Allowed: allowed,
			Description: "dependencies matching none of the allowed rules", Pos: d.pos(allowedAt)}
		r.Origin = &Origin{Tool: "dependency-cruiser", Group: "allowed", Pos: r.Pos,
			Note: []string{"every dependency that no allowed entry matches is a finding, as dependency-cruiser's not-in-allowed"}}
		switch {
		case allowedSeverity == "ignore":
			d.m.Skipped = append(d.m.Skipped, Skipped{Name: r.Name, Type: "allowed (severity ignore)", Pos: d.pos(allowedSevAt)})
		case names[r.Name] > 0:
			d.errorf(allowedAt, "a forbidden rule is named not-in-allowed, the name vouch gives the allowed list; rename it")
		default:
			d.m.Rules = append(d.m.Rules, r)
		}
	}
}

func (d *dcReader) str(v *jslit.Value, what string) (string, bool) {
	if v.Kind != jslit.String {
		d.errorf(v, "%s must be a string, found %s", what, v.Kind)
		return "", false
	}
	return v.Str, true
}

func (d *dcReader) boolean(v *jslit.Value, what string) (bool, bool) {
	if v.Kind != jslit.Bool {
		d.errorf(v, "%s must be true or false, found %s", what, v.Kind)
		return false, false
	}
	return v.Bool, true
}

func (d *dcReader) list(v *jslit.Value, what string) []*jslit.Value {
	if v.Kind != jslit.Array {
		d.errorf(v, "%s must be an array, found %s", what, v.Kind)
		return nil
	}
	return v.Items
}

// regexes reads a path-like condition: one regular expression or an array
// of them (dependency-cruiser joins an array with |).
func (d *dcReader) regexes(v *jslit.Value, what string, groups bool) []string {
	var items []*jslit.Value
	switch v.Kind {
	case jslit.String:
		items = []*jslit.Value{v}
	case jslit.Array:
		items = v.Items
		if len(items) == 0 {
			d.errorf(v, "%s is an empty array; leave it out to match everything", what)
		}
	default:
		d.errorf(v, "%s must be a regular expression (a string) or an array of them, found %s", what, v.Kind)
		return nil
	}
	var out []string
	for _, it := range items {
		s, ok := d.str(it, what+" entry")
		if !ok {
			continue
		}
		if _, err := CompileDepRegex(s, groups); err != nil {
			d.errorf(it, "%s: %v", what, err)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (d *dcReader) rule(v *jslit.Value, names map[string]int) {
	r := Rule{Name: "unnamed", Severity: "warn", Type: ForbidDependency, Pos: d.pos(v)}
	named := false
	for _, e := range d.fields(v, "a forbidden rule", nil) {
		switch e.key {
		case "name":
			if s, ok := d.str(e.val, "name"); ok {
				r.Name, named = s, true
			}
		case "comment":
			r.Description, _ = d.str(e.val, "comment")
		case "severity":
			if s, ok := d.str(e.val, "severity"); ok {
				if !slices.Contains(dcSeverity, s) {
					d.errorf(e.val, "severity %q%s; want one of %s", s, suggest.Hint(s, dcSeverity), strings.Join(dcSeverity, ", "))
				}
				r.Severity = s
			}
		case "scope":
			if s, ok := d.str(e.val, "scope"); ok && s != "module" {
				d.errorf(e.val, "scope %q is not evaluated by vouch (only module); remove the rule or check it with dependency-cruiser", s)
			}
		case "from", "to":
		default:
			d.errorf(e.at, "unknown key %q in a forbidden rule%s; want one of %s", e.key, suggest.Hint(e.key, dcRuleKeys), strings.Join(dcRuleKeys, ", "))
		}
	}
	dep, ok := d.depRule(v, false)
	if !ok {
		return
	}
	r.Dep = &dep
	r.Origin = &Origin{Tool: "dependency-cruiser", Group: r.Name, Pos: r.Pos, Note: dcNotes(v, r.Severity)}
	// dependency-cruiser lets rules share a name (every unnamed rule is
	// "unnamed"); vouch keys findings, baselines and exemptions by rule
	// name, so later ones get a numeric suffix.
	names[r.Name]++
	if n := names[r.Name]; n > 1 {
		if named {
			d.note(v, "rule name %q is used more than once; vouch calls this one %s-%d", r.Name, r.Name, n)
		}
		r.Name = fmt.Sprintf("%s-%d", r.Name, n)
	}
	if r.Severity == "ignore" {
		d.m.Skipped = append(d.m.Skipped, Skipped{Name: r.Name, Type: "forbidden (severity ignore)", Pos: r.Pos})
		return
	}
	d.m.Rules = append(d.m.Rules, r)
}

// depRule reads a rule's from and to. allowed says it is an entry of the
// allowed list (which has no name or severity).
func (d *dcReader) depRule(v *jslit.Value, allowed bool) (DepRule, bool) {
	var r DepRule
	n := len(d.errs)
	if v.Kind != jslit.Object {
		d.errorf(v, "a rule must be an object, found %s", v.Kind)
		return r, false
	}
	if allowed {
		d.fields(v, "an allowed rule", []string{"comment", "from", "to"})
	}
	from, to := v.Get("from"), v.Get("to")
	if from == nil || to == nil {
		d.errorf(v, "a rule needs from and to (write {} for any module)")
		return r, false
	}
	for _, e := range d.fields(from, "from", nil) {
		switch e.key {
		case "path":
			r.From.Path = d.regexes(e.val, "from.path", false)
		case "pathNot":
			r.From.PathNot = d.regexes(e.val, "from.pathNot", false)
		case "orphan":
			if b, ok := d.boolean(e.val, "orphan"); ok {
				r.From.Orphan = &b
			}
		default:
			d.unsupported(e, "from", dcFromKeys, dcFromOther)
		}
	}
	for _, e := range d.fields(to, "to", nil) {
		switch e.key {
		case "path":
			r.To.Path = d.regexes(e.val, "to.path", true)
		case "pathNot":
			r.To.PathNot = d.regexes(e.val, "to.pathNot", true)
		case "circular":
			if b, ok := d.boolean(e.val, "circular"); ok {
				r.To.Circular = &b
			}
		case "couldNotResolve":
			if b, ok := d.boolean(e.val, "couldNotResolve"); ok {
				r.To.CouldNotResolve = &b
			}
		case "moreThanOneDependencyType":
			if b, ok := d.boolean(e.val, "moreThanOneDependencyType"); ok {
				r.To.MoreThanOneType = &b
			}
		case "dependencyTypes", "dependencyTypesNot":
			var list []string
			for _, it := range d.list(e.val, e.key) {
				s, ok := d.str(it, e.key+" entry")
				if !ok {
					continue
				}
				mapped, ok := dcTypes[s]
				if !ok {
					d.errorf(it, "dependency type %q has no vouch equivalent: %s", s, dcTypeHelp(s))
					continue
				}
				for _, k := range mapped {
					if !slices.Contains(list, k) {
						list = append(list, k)
					}
				}
			}
			if e.key == "dependencyTypes" {
				r.To.DependencyTypes = list
			} else {
				r.To.DependencyTypesNot = list
			}
		case "viaOnly":
			switch e.val.Kind {
			case jslit.String, jslit.Array:
				r.To.ViaOnly.Path = d.regexes(e.val, "viaOnly", true)
			default:
				for _, f := range d.fields(e.val, "viaOnly", nil) {
					switch f.key {
					case "path":
						r.To.ViaOnly.Path = d.regexes(f.val, "viaOnly.path", true)
					case "pathNot":
						r.To.ViaOnly.PathNot = d.regexes(f.val, "viaOnly.pathNot", true)
					default:
						d.errorf(f.at, "viaOnly.%s is not evaluated by vouch (only path and pathNot)", f.key)
					}
				}
			}
		case "viaNot":
			// dependency-cruiser turns viaNot into viaOnly.pathNot unless
			// viaOnly has its own pathNot.
			if vo := to.Get("viaOnly"); vo != nil && vo.Kind == jslit.Object && vo.Get("pathNot") != nil {
				break
			}
			r.To.ViaOnly.PathNot = d.regexes(e.val, "viaNot", true)
		default:
			d.unsupported(e, "to", dcToKeys, dcToOther)
		}
	}
	if r.From.Orphan != nil {
		if len(to.Keys) > 0 {
			d.note(to, "dependency-cruiser ignores the to part of an orphan rule; so does vouch")
		}
		r.To = DepTo{}
	}
	if (len(r.To.ViaOnly.Path) > 0 || len(r.To.ViaOnly.PathNot) > 0) && !r.Circ() {
		// dependency-cruiser only looks at via for circular dependencies.
		r.To.ViaOnly = DepPaths{}
	}
	return r, len(d.errs) == n
}

// unsupported reports a condition vouch does not evaluate, or an unknown
// key with a hint.
func (d *dcReader) unsupported(e entry, side string, known, other []string) {
	if slices.Contains(other, e.key) {
		d.errorf(e.at, "%s.%s is not evaluated by vouch; remove the condition (or the rule) or check it with dependency-cruiser", side, e.key)
		return
	}
	all := append(append([]string{}, known...), other...)
	d.errorf(e.at, "unknown key %q in %s%s; want one of %s", e.key, side, suggest.Hint(e.key, all), strings.Join(known, ", "))
}

// dcNotes says how a forbidden rule's parts were understood where vouch's
// meaning differs from dependency-cruiser's (docs/lint.md lists them all).
func dcNotes(v *jslit.Value, severity string) []string {
	var out []string
	if severity == "info" {
		out = append(out, "severity info: reported, never fails a run")
	}
	to := v.Get("to")
	if to == nil || to.Kind != jslit.Object {
		return out
	}
	if to.Get("viaOnly") != nil || to.Get("viaNot") != nil {
		out = append(out, "viaOnly/viaNot: some cycle through the dependency must pass only through matching modules (dependency-cruiser tests the first cycle it finds)")
	}
	for _, k := range []string{"dependencyTypes", "dependencyTypesNot"} {
		if l := to.Get(k); l != nil && l.Kind == jslit.Array {
			for _, it := range l.Items {
				switch it.Str {
				case "import":
					out = append(out, k+": import covers import and type-only (a type-only import is also an import)")
				}
			}
		}
	}
	if p := to.Get("path"); p != nil && strings.Contains(fmt.Sprint(dcStrings(p)), "node_modules") {
		out = append(out, "to.path: an npm dependency is named node_modules/PACKAGE, not its main file")
	}
	return out
}

func dcStrings(v *jslit.Value) []string {
	if v.Kind == jslit.String {
		return []string{v.Str}
	}
	var out []string
	for _, it := range v.Items {
		out = append(out, it.Str)
	}
	return out
}

func dcTypeHelp(s string) string {
	switch {
	case strings.HasPrefix(s, "aliased"):
		return "vouch resolves aliases (tsconfig paths, package imports) but does not mark them"
	}
	return "vouch records local, npm (and npm-dev, npm-optional, npm-peer, npm-bundled, npm-no-pkg, npm-unknown), deprecated, core, unknown, import, export, require, dynamic-import and type-only"
}

func (d *dcReader) options(v *jslit.Value) {
	for _, e := range d.fields(v, "options", nil) {
		switch e.key {
		case "exclude", "includeOnly", "doNotFollow":
			list := d.scopeOption(e)
			if d.m.Scope == nil {
				d.m.Scope = &Scope{Pos: d.pos(v), NoTypeOnly: true, JSOnly: true}
			}
			switch e.key {
			case "exclude":
				d.m.Scope.Exclude = list
			case "includeOnly":
				d.m.Scope.IncludeOnly = list
			default:
				d.m.Scope.DoNotFollow = list
			}
		case "tsPreCompilationDeps":
			if d.m.Scope == nil {
				d.m.Scope = &Scope{Pos: d.pos(v), NoTypeOnly: true, JSOnly: true}
			}
			switch {
			case e.val.Kind == jslit.Bool:
				d.m.Scope.NoTypeOnly = !e.val.Bool
			case e.val.Kind == jslit.String && e.val.Str == "specify":
				d.m.Scope.NoTypeOnly = false
			default:
				d.errorf(e.val, "tsPreCompilationDeps must be true, false or \"specify\"")
			}
		case "tsConfig":
			for _, f := range d.fields(e.val, "tsConfig", []string{"fileName"}) {
				if s, ok := d.str(f.val, "tsConfig.fileName"); ok && CleanSource(s) != "tsconfig.json" {
					d.note(f.val, "vouch resolves TypeScript paths with the tsconfig.json nearest each file, not with %s", s)
				}
			}
		default:
			if !slices.Contains(dcOptionsOutput, e.key) {
				d.note(e.at, "option %s is not applied by vouch; findings may differ from dependency-cruiser's", e.key)
			}
		}
	}
}

// scopeOption reads exclude, includeOnly or doNotFollow: a regular
// expression, an array of them, or {path} (doNotFollow's dependencyTypes
// and exclude's dynamic are not applied and say so).
func (d *dcReader) scopeOption(e entry) []string {
	what := "options." + e.key
	if e.val.Kind != jslit.Object {
		return d.regexes(e.val, what, false)
	}
	var out []string
	for _, f := range d.fields(e.val, what, nil) {
		switch f.key {
		case "path":
			out = d.regexes(f.val, what+".path", false)
		case "dependencyTypes":
			// vouch never follows an import into an npm package (it scans
			// the repository's own files), so not following npm types is
			// what it does anyway.
			if e.key == "doNotFollow" && f.val.Kind == jslit.Array && !slices.ContainsFunc(f.val.Items, func(t *jslit.Value) bool {
				return !strings.HasPrefix(t.Str, "npm")
			}) {
				continue
			}
			d.note(f.at, "%s.%s is not applied by vouch; only %s.path is", what, f.key, what)
		default:
			d.note(f.at, "%s.%s is not applied by vouch; only %s.path is", what, f.key, what)
		}
	}
	return out
}
