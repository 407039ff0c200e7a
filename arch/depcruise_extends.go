package arch

import (
	_ "embed"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/vouch-dev/vouch/internal/jslit"
	"github.com/vouch-dev/vouch/yamldoc"
)

// dcRecommended holds the rules of dependency-cruiser's own
// "recommended" configuration (dependency-cruiser/configs/recommended, MIT
// licensed), which a configuration may extend by that name; the -strict
// and -warn-only variants change only the severities.
//
//go:embed depcruise_recommended.json
var dcRecommended []byte

// dcPresets maps the names extends gives dependency-cruiser's shipped
// configurations to the severity every rule gets ("" keeps each rule's).
var dcPresets = map[string]string{
	"dependency-cruiser/configs/recommended":           "",
	"dependency-cruiser/configs/recommended-strict":    "error",
	"dependency-cruiser/configs/recommended-warn-only": "warn",
}

// dcExtensions are tried, in order, after an extends path as written.
var dcExtensions = []string{".js", ".json", ".cjs", ".mjs"}

// extend applies v's extends (a name or a list of names) as
// dependency-cruiser does: each extended configuration, itself extended
// first, is merged under v, so v's rules, options and severities win.
// file is where v was read; visited guards against a circle of extends.
func (d *dcReader) extend(v *jslit.Value, file string, visited map[string]bool) *jslit.Value {
	ext := v.Get("extends")
	if ext == nil || v.Kind != jslit.Object {
		return v
	}
	var names []*jslit.Value
	switch ext.Kind {
	case jslit.String:
		names = []*jslit.Value{ext}
	case jslit.Array:
		names = ext.Items
	default:
		d.errorf(ext, "extends must be a string or an array of strings, found %s", ext.Kind)
		return v
	}
	out := without(v, "extends")
	for _, n := range names {
		if n.Kind != jslit.String {
			d.errorf(n, "extends entry must be a string, found %s", n.Kind)
			continue
		}
		base, baseFile, ok := d.readExtended(n, file, visited)
		if !ok {
			continue
		}
		base = d.extend(base, baseFile, visited)
		out = dcMerge(out, base)
	}
	return out
}

// readExtended reads the configuration name (an extends entry of the
// configuration in file) names: one of dependency-cruiser's shipped
// configurations, or a file relative to file's directory.
func (d *dcReader) readExtended(n *jslit.Value, file string, visited map[string]bool) (*jslit.Value, string, bool) {
	name := n.Str
	preset := strings.TrimSuffix(strings.TrimSuffix(name, ".cjs"), ".js")
	if sev, ok := dcPresets[preset]; ok {
		v, err := jslit.ParseJSON(dcRecommended)
		if err != nil {
			// The embedded file is checked by a test; this cannot happen.
			d.errorf(n, "built-in %s: %v", preset, err)
			return nil, "", false
		}
		if sev != "" {
			for _, r := range v.Get("forbidden").Items {
				r.Get("severity").Str = sev
			}
		}
		src := preset + " (built into vouch)"
		d.mark(v, src)
		return v, src, true
	}
	if !strings.HasPrefix(name, "./") && !strings.HasPrefix(name, "../") {
		d.errorf(n, "extends %q: vouch reads dependency-cruiser's own configurations (%s) and files named by a relative path (./base.json); copy the rules of a package's configuration into this file", name, strings.Join([]string{"dependency-cruiser/configs/recommended", "-strict", "-warn-only"}, ", "))
		return nil, "", false
	}
	base := filepath.Join(filepath.Dir(file), filepath.FromSlash(name))
	found := ""
	for _, cand := range append([]string{base}, withExts(base)...) {
		if st, err := os.Stat(cand); err == nil && !st.IsDir() {
			found = cand
			break
		}
	}
	if found == "" {
		d.errorf(n, "extends %q: no such file (tried %s, and with %s)", name, base, strings.Join(dcExtensions, ", "))
		return nil, "", false
	}
	if d.within != "" && !insideDir(found, d.within) {
		d.errorf(n, "extends %q leaves %s; vouch reads extended configurations inside it only: copy the file in", name, d.within)
		return nil, "", false
	}
	data, err := readLimited(found)
	if err != nil {
		d.errorf(n, "extends %q: %s", name, yamldoc.Reason(err))
		return nil, "", false
	}
	if visited[filepath.Clean(found)] {
		d.errorf(n, "extends %q: the configurations extend each other in a circle", name)
		return nil, "", false
	}
	visited[filepath.Clean(found)] = true
	v, err := parseDepcruiseFile(found, data)
	if err != nil {
		var el ErrorList
		if errors.As(err, &el) {
			d.errs = append(d.errs, el...)
		}
		return nil, "", false
	}
	d.m.record(found, data)
	d.mark(v, found)
	return v, found, true
}

func withExts(p string) []string {
	out := make([]string, len(dcExtensions))
	for i, e := range dcExtensions {
		out[i] = p + e
	}
	return out
}

// mark records that every value of v came from file, for positions.
func (d *dcReader) mark(v *jslit.Value, file string) {
	d.from[v] = file
	for _, it := range v.Items {
		d.mark(it, file)
	}
	for _, f := range v.Fields {
		d.mark(f, file)
	}
}

// without is object v without key.
func without(v *jslit.Value, key string) *jslit.Value {
	out := &jslit.Value{Kind: jslit.Object, Line: v.Line, Col: v.Col}
	for i, k := range v.Keys {
		if k != key {
			putField(out, k, v.KeyPos[i], v.Fields[i])
		}
	}
	return out
}

func putField(o *jslit.Value, key string, at jslit.Pos, val *jslit.Value) {
	for i, k := range o.Keys {
		if k == key {
			o.Fields[i] = val
			return
		}
	}
	o.Keys = append(o.Keys, key)
	o.KeyPos = append(o.KeyPos, at)
	o.Fields = append(o.Fields, val)
}

// shallow is {...base, ...own}: base's keys, each replaced by own's where
// own has it, then own's other keys.
func shallow(own, base *jslit.Value) *jslit.Value {
	out := &jslit.Value{Kind: jslit.Object, Line: own.Line, Col: own.Col}
	for i, k := range base.Keys {
		putField(out, k, base.KeyPos[i], base.Fields[i])
	}
	for i, k := range own.Keys {
		putField(out, k, own.KeyPos[i], own.Fields[i])
	}
	return out
}

// dcMerge merges base (an extended configuration) under own as
// dependency-cruiser's extends does: a named rule of own takes the keys
// of base's rule of that name that it does not set, and hides it; base's
// other named rules follow; anonymous rules and allowed entries are
// joined without exact repeats; allowedSeverity and each option are
// own's when own sets them.
func dcMerge(own, base *jslit.Value) *jslit.Value {
	if base.Kind != jslit.Object {
		return own
	}
	out := shallow(own, base)
	list := func(v *jslit.Value, key string) []*jslit.Value {
		if f := v.Get(key); f != nil && f.Kind == jslit.Array {
			return f.Items
		}
		return nil
	}
	at := func(key string) (jslit.Pos, *jslit.Value) {
		for _, v := range []*jslit.Value{own, base} {
			for i, k := range v.Keys {
				if k == key {
					return v.KeyPos[i], v.Fields[i]
				}
			}
		}
		return jslit.Pos{}, nil
	}
	for _, key := range []string{"forbidden", "required"} {
		if pos, f := at(key); f != nil {
			putField(out, key, pos, &jslit.Value{Kind: jslit.Array, Line: f.Line, Col: f.Col, Items: mergeRules(list(own, key), list(base, key))})
		}
	}
	if pos, f := at("allowed"); f != nil {
		putField(out, "allowed", pos, &jslit.Value{Kind: jslit.Array, Line: f.Line, Col: f.Col, Items: uniqValues(append(append([]*jslit.Value{}, list(own, "allowed")...), list(base, "allowed")...))})
	}
	if o, b := own.Get("options"), base.Get("options"); o != nil && b != nil && o.Kind == jslit.Object && b.Kind == jslit.Object {
		pos, _ := at("options")
		putField(out, "options", pos, shallow(o, b))
	}
	return out
}

func ruleName(r *jslit.Value) string {
	if n := r.Get("name"); n != nil && n.Kind == jslit.String {
		return n.Str
	}
	return ""
}

func mergeRules(own, base []*jslit.Value) []*jslit.Value {
	var named, anonymous []*jslit.Value
	seen := map[string]bool{}
	for _, r := range own {
		name := ruleName(r)
		if name == "" || r.Kind != jslit.Object {
			anonymous = append(anonymous, r)
			continue
		}
		merged := r
		for _, b := range base {
			if ruleName(b) == name && b.Kind == jslit.Object {
				merged = shallow(merged, b)
			}
		}
		if !seen[name] {
			seen[name] = true
			named = append(named, merged)
		}
	}
	for _, b := range base {
		name := ruleName(b)
		if name == "" || b.Kind != jslit.Object {
			anonymous = append(anonymous, b)
			continue
		}
		if !seen[name] {
			seen[name] = true
			named = append(named, b)
		}
	}
	return append(named, uniqValues(anonymous)...)
}

// uniqValues drops values equal (positions aside) to an earlier one.
func uniqValues(vs []*jslit.Value) []*jslit.Value {
	var out []*jslit.Value
	for _, v := range vs {
		dup := false
		for _, o := range out {
			if sameValue(o, v) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, v)
		}
	}
	return out
}

// sameValue compares two values as JavaScript's deep strict equality
// would, ignoring where they were written.
func sameValue(a, b *jslit.Value) bool {
	if a.Kind != b.Kind || a.Str != b.Str || a.Num != b.Num || a.Bool != b.Bool ||
		len(a.Items) != len(b.Items) || !reflect.DeepEqual(a.Keys, b.Keys) {
		return false
	}
	for i := range a.Items {
		if !sameValue(a.Items[i], b.Items[i]) {
			return false
		}
	}
	for i := range a.Fields {
		if !sameValue(a.Fields[i], b.Fields[i]) {
			return false
		}
	}
	return true
}

// extendsBoundary is the directory a configuration's extends must stay
// under: root, or the configuration's own directory when it lies outside
// root (a --config named on the command line); "" when root is "".
func extendsBoundary(root, file string) string {
	if root == "" {
		return ""
	}
	r, err := realPath(root)
	if err != nil {
		return root
	}
	if insideDir(file, r) {
		return r
	}
	if d, err := realPath(filepath.Dir(file)); err == nil {
		return d
	}
	return filepath.Dir(file)
}

// insideDir reports whether path, with its links resolved, lies under dir
// (itself resolved).
func insideDir(path, dir string) bool {
	p, err := realPath(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
