package repofacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// Ecosystems of dependencies.
const (
	EcoGo     = "go"
	EcoNPM    = "npm"
	EcoPython = "python"
	EcoCargo  = "cargo"
)

// isManifest reports whether p is a dependency manifest vouch reads.
func isManifest(p string) bool {
	switch path.Base(p) {
	case "go.mod", "go.work", "package.json", "pyproject.toml", "Cargo.toml", "setup.cfg":
		return true
	}
	return isRequirements(p)
}

func isRequirements(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt")
}

// includes reports whether a manifest can name other files whose
// dependencies it declares: a requirements file's -r, setup.cfg's file:.
func includes(p string) bool {
	return isRequirements(p) || path.Base(p) == "setup.cfg"
}

// declared is one dependency a manifest declares.
type declared struct {
	Dependency
	// origin is where the code comes from when that is not the
	// ecosystem's registry under Name: a git repository, URL or path, a
	// go.mod replacement, a package index. It is part of the
	// dependency's identity: the same name from another origin is another
	// dependency.
	origin string
	// importAs is the name code imports it by when that is not Name (a
	// Cargo dependency renamed with package =).
	importAs string
}

// key identifies a declared dependency across the two sides of a diff:
// its version is not part of it (a bump is no new dependency), its
// origin is.
func (d declared) key() string { return d.Ecosystem + "\x00" + d.Name + "\x00" + d.origin }

// nameKey is the key the import check uses: ecosystem and name.
func nameKey(eco, name string) string { return eco + "\x00" + name }

// manifestError is a manifest vouch cannot read, with where (line and
// column from 1; 0 when unknown).
type manifestError struct {
	file      string
	line, col int
	msg       string
}

func (e *manifestError) Error() string {
	switch {
	case e.line > 0 && e.col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", ShownPath(e.file), e.line, e.col, e.msg)
	case e.line > 0:
		return fmt.Sprintf("%s:%d: %s", ShownPath(e.file), e.line, e.msg)
	}
	return ShownPath(e.file) + ": " + e.msg
}

// includeReader returns the content of a file a manifest includes, by
// its path relative to the root; an error says why it cannot be read (it
// does not exist, is not in the work, is a symbolic link, is too large).
// A nil includeReader leaves includes unread.
type includeReader func(p string) ([]byte, error)

// maxIncludeDepth bounds nested includes (pip has no bound; vouch stops
// with an error instead of following a chain or a cycle forever).
const maxIncludeDepth = 16

// manifestDeps reads the dependencies a manifest declares, sorted, one
// entry per declaration (the same crate in [dependencies] and
// [dev-dependencies] with different versions is two entries). Files the
// manifest includes are read through include. A manifest that its
// ecosystem's tool would not read, or that vouch cannot read, is an
// error (a *manifestError): it never declares "nothing".
func manifestDeps(file string, data []byte, include includeReader) ([]declared, error) {
	c := &collector{}
	var err error
	switch base := path.Base(file); {
	case base == "go.mod":
		err = c.goMod(file, data)
	case base == "go.work":
		err = c.goWork(file, data)
	case base == "package.json":
		err = c.packageJSON(file, data)
	case base == "pyproject.toml":
		err = c.pyproject(file, data)
	case base == "Cargo.toml":
		err = c.cargo(file, data)
	case base == "setup.cfg":
		err = c.setupCfg(file, data, include)
	case isRequirements(file):
		err = c.requirements(file, data, include, 0, map[string]bool{})
	}
	if err != nil {
		return nil, err
	}
	return c.sorted(), nil
}

// collector gathers a manifest's declarations.
type collector struct{ out []declared }

// add records a declaration. Python names that are distribution names
// are spelled as PEP 503 does; anything else (a URL, a path, a line
// vouch could not take a name from) is kept as written, so it is still
// seen. It reports whether it recorded one (a blank name records none).
func (c *collector) add(file, eco, name, version, origin string) bool {
	name = strings.TrimSpace(name)
	if name == "" {
		return false
	}
	if eco == EcoPython && isDistName(name) && normalizePython(name) != "" {
		name = normalizePython(name)
	}
	c.out = append(c.out, declared{Dependency: Dependency{Ecosystem: eco, Name: name,
		Version: strings.TrimSpace(version), Source: file}, origin: origin})
	return true
}

// sorted returns the declarations in a fixed order without repeats.
func (c *collector) sorted() []declared {
	slices.SortFunc(c.out, compareDeclared)
	return slices.CompactFunc(c.out, func(a, b declared) bool { return compareDeclared(a, b) == 0 })
}

func compareDeclared(a, b declared) int {
	if c := strings.Compare(a.key(), b.key()); c != 0 {
		return c
	}
	if c := strings.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	if c := strings.Compare(a.Version, b.Version); c != 0 {
		return c
	}
	return strings.Compare(a.importAs, b.importAs)
}

var utf8BOM = []byte("\xef\xbb\xbf")

// --- Go ---

func (c *collector) goMod(file string, data []byte) error {
	// Parse, not ParseLax: the lax parser drops replace directives. A
	// version that is not canonical is an error, as it is to the go
	// command in its default -mod=readonly mode.
	mf, err := modfile.Parse(file, bytes.TrimPrefix(data, utf8BOM), nil)
	if err != nil {
		return modError(file, err)
	}
	for _, r := range mf.Require {
		c.add(file, EcoGo, r.Mod.Path, r.Mod.Version, "")
	}
	c.goReplace(file, mf.Replace)
	return nil
}

func (c *collector) goWork(file string, data []byte) error {
	wf, err := modfile.ParseWork(file, bytes.TrimPrefix(data, utf8BOM), nil)
	if err != nil {
		return modError(file, err)
	}
	c.goReplace(file, wf.Replace)
	return nil
}

// goReplace records each replace directive as a dependency on its
// replacement (the module whose code is now built, or the directory),
// with the directive as written for its version; the directive is its
// origin, so a changed replacement is another dependency.
func (c *collector) goReplace(file string, rs []*modfile.Replace) {
	for _, r := range rs {
		old := strings.TrimSpace(r.Old.Path + " " + r.Old.Version)
		repl := strings.TrimSpace(r.New.Path + " " + r.New.Version)
		c.add(file, EcoGo, r.New.Path, old+" => "+repl, "replace "+old+" => "+repl)
	}
}

// modError turns modfile's error list into the first error's position.
func modError(file string, err error) error {
	var list modfile.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		e := list[0]
		msg := e.Err.Error()
		if e.Verb != "" {
			msg = e.Verb + ": " + msg
		}
		return &manifestError{file: file, line: e.Pos.Line, col: e.Pos.LineRune, msg: msg}
	}
	return &manifestError{file: file, msg: err.Error()}
}

// --- npm ---

// npmTables are package.json's dependency fields.
var npmTables = []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"}

func (c *collector) packageJSON(file string, data []byte) error {
	// npm strips a byte order mark before it parses package.json.
	body := bytes.TrimPrefix(data, utf8BOM)
	var pj map[string]json.RawMessage
	if err := json.Unmarshal(body, &pj); err != nil {
		return jsonError(file, data, len(data)-len(body), err)
	}
	for _, t := range npmTables {
		var m map[string]json.RawMessage
		if raw, has := pj[t]; !has || json.Unmarshal(raw, &m) != nil {
			continue // npm drops a dependency field that is not an object
		}
		for _, n := range sortedKeys(m) {
			var spec string
			_ = json.Unmarshal(m[n], &spec)
			c.npm(file, n, spec)
		}
	}
	// Overrides replace what a dependency anywhere in the tree resolves
	// to: npm's overrides, yarn's resolutions, pnpm's pnpm.overrides.
	c.npmOverrides(file, pj["overrides"], "")
	c.npmOverrides(file, pj["resolutions"], "")
	var pnpm map[string]json.RawMessage
	if raw, has := pj["pnpm"]; has && json.Unmarshal(raw, &pnpm) == nil {
		c.npmOverrides(file, pnpm["overrides"], "")
	}
	return nil
}

// npm records one dependency: an alias (npm:other@1) is a dependency on
// the package it names; a specifier with ':' or '/' (a git or http URL,
// GitHub shorthand, file:, link: or workspace: path) is the dependency's
// origin.
func (c *collector) npm(file, name, spec string) {
	if rest, ok := strings.CutPrefix(spec, "npm:"); ok {
		c.add(file, EcoNPM, npmPackage(rest), spec, "")
		return
	}
	origin := ""
	if strings.ContainsAny(spec, ":/") {
		origin = spec
	}
	c.add(file, EcoNPM, name, spec, origin)
}

// npmOverrides records each override: a nested npm override is named by
// the innermost package it selects ("." is its parent's), a yarn
// resolution (a/b, **/b) or pnpm override (a>b) by the last package.
func (c *collector) npmOverrides(file string, raw json.RawMessage, parent string) {
	var m map[string]json.RawMessage
	if raw == nil || json.Unmarshal(raw, &m) != nil {
		return
	}
	for _, k := range sortedKeys(m) {
		name := npmPackage(k)
		if k == "." {
			name = parent
		}
		var spec string
		if json.Unmarshal(m[k], &spec) == nil {
			if name != "" {
				c.npm(file, name, spec)
			}
			continue
		}
		c.npmOverrides(file, m[k], name)
	}
}

// npmPackage is the package a specifier or override selector names:
// the last of a>b or a/b (a scope stays with its name), without @version.
func npmPackage(sel string) string {
	if i := strings.LastIndex(sel, ">"); i >= 0 {
		sel = sel[i+1:]
	}
	parts := strings.Split(sel, "/")
	n := parts[len(parts)-1]
	if len(parts) >= 2 && strings.HasPrefix(parts[len(parts)-2], "@") {
		n = parts[len(parts)-2] + "/" + n
	}
	if i := strings.LastIndex(n, "@"); i > 0 {
		n = n[:i]
	}
	return n
}

// jsonError places a JSON error; skip is the byte order mark's length.
func jsonError(file string, data []byte, skip int, err error) error {
	off := int64(-1)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return &manifestError{file: file, msg: err.Error()}
	}
	line, col := lineCol(data, int(off)+skip)
	return &manifestError{file: file, line: line, col: col, msg: err.Error()}
}

// lineCol is the line and column (from 1, in bytes) of offset off.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	return line, off - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// --- Python names ---

// isDistName reports whether s is spelled as a distribution name can be.
func isDistName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

func isNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '.' || b == '-' || b == '_'
}

// pep508 splits a PEP 508 requirement into its name, the rest (extras,
// version specifiers, markers) and, for a direct reference (name @ URL),
// the URL as origin. Text that does not start with a name is kept whole
// as the name, so it is still seen.
func pep508(s string) (name, version, origin string) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	if i == 0 {
		return s, "", s
	}
	name, version = s[:i], strings.TrimSpace(s[i:])
	rest := version
	if strings.HasPrefix(rest, "[") {
		if j := strings.IndexByte(rest, ']'); j >= 0 {
			rest = strings.TrimSpace(rest[j+1:])
		}
	}
	if u, ok := strings.CutPrefix(rest, "@"); ok {
		u = strings.TrimSpace(u)
		if j := strings.Index(u, " ;"); j >= 0 {
			u = u[:j]
		}
		origin = strings.TrimSpace(u)
	}
	return name, version, origin
}

// normalizePython spells a distribution name as PEP 503 does: lower case,
// runs of -, _ and . as one -.
func normalizePython(n string) string {
	n = strings.ToLower(n)
	var b strings.Builder
	dash := false
	for _, r := range n {
		if r == '-' || r == '_' || r == '.' {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	return b.String()
}
