package imports

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Rust resolution.
//
// A file belongs to the package of the nearest Cargo.toml above it, and to
// one crate of that package: src/bin/X.rs and src/bin/X/main.rs are their
// own crates; files under the [lib] path's directory (src/ by default)
// belong to the library, or to src/main.rs when there is no library; each
// tests/, examples/ and benches/ file is a crate of its own. A file's module
// path follows from its place under the crate root's directory: a/b.rs and
// a/b/mod.rs are both module a::b.
//
// A use path resolves to the deepest module along it that has a file, so
// `crate::a::b::Item` gives src/a/b.rs (or src/a/b/mod.rs, else src/a.rs…).
// A first segment naming a crate of the repository (any package, with '-'
// read as '_', or its [lib] name) is internal and continues inside that
// crate; std, core, alloc, proc_macro and test are the standard library.
// A first segment that is neither `crate`, `self`, `super` nor a crate is a
// module of the current one when such a file exists (the 2018 edition's
// relative paths), else an external crate. #[path] on anything but a
// top-level `mod x;` is not followed.

var rustStdCrates = map[string]bool{"std": true, "core": true, "alloc": true, "proc_macro": true, "test": true}

type rustPkg struct {
	dir  string // repository-relative directory of Cargo.toml ("" for the root)
	name string // crate name as written in paths
	lib  string // library root file, "" if none exists
	bins map[string]bool
}

type rustResolver struct {
	files  map[string]bool
	pkgs   map[string]*rustPkg // by directory
	crates map[string]*rustPkg // by crate name, libraries only
}

func newRustResolver(repo *Repo) (resolver, []Warning) {
	r := &rustResolver{files: repo.Files, pkgs: map[string]*rustPkg{}, crates: map[string]*rustPkg{}}
	var warns []Warning
	var manifests []string
	for f := range repo.Files {
		if path.Base(f) == "Cargo.toml" && !strings.Contains("/"+f, "/target/") {
			manifests = append(manifests, f)
		}
	}
	sort.Strings(manifests)
	type workspace struct {
		dir              string
		members, exclude []string
		file             string
	}
	var workspaces []workspace
	for _, f := range manifests {
		data, err := readRepoFile(repo.Root, f)
		if err != nil {
			warns = append(warns, Warning{File: f, Message: "cannot read Cargo.toml: " + err.Error()})
			continue
		}
		m, errs := parseCargoTOML(data)
		for _, e := range errs {
			warns = append(warns, Warning{File: f, Line: e.Line, Message: e.Message})
		}
		dir := jsDir(f)
		if m.hasWorkspace {
			workspaces = append(workspaces, workspace{dir, m.members, m.exclude, f})
		}
		if !m.hasPackage {
			continue
		}
		p := &rustPkg{dir: dir, bins: map[string]bool{}}
		p.name = strings.ReplaceAll(m.name, "-", "_")
		if m.libName != "" {
			p.name = strings.ReplaceAll(m.libName, "-", "_")
		}
		lib := m.libPath
		if lib == "" {
			lib = "src/lib.rs"
		}
		if c := jsJoin(dir, lib); r.files[c] {
			p.lib = c
		}
		for _, b := range m.binPaths {
			p.bins[jsJoin(dir, b)] = true
		}
		r.pkgs[dir] = p
		if p.lib != "" && p.name != "" {
			if prev, dup := r.crates[p.name]; dup {
				warns = append(warns, Warning{File: f, Message: fmt.Sprintf("crate %s is also defined by %s/Cargo.toml; keeping the first", p.name, prev.dir)})
			} else {
				r.crates[p.name] = p
			}
		}
	}
	for _, w := range workspaces {
		for _, m := range w.members {
			pat := strings.TrimSuffix(strings.TrimPrefix(m, "./"), "/")
			found := false
			for dir := range r.pkgs {
				if rel, ok := relUnder(w.dir, dir); ok && globMatch(pat, rel) {
					found = true
					break
				}
			}
			if !found && !excluded(w.exclude, pat) {
				warns = append(warns, Warning{File: w.file, Message: fmt.Sprintf("workspace member %q matches no package", m)})
			}
		}
	}
	return r, warns
}

func excluded(exclude []string, member string) bool {
	for _, e := range exclude {
		if globMatch(strings.TrimSuffix(e, "/"), member) {
			return true
		}
	}
	return false
}

// cargoManifest holds the few Cargo.toml keys resolution needs.
type cargoManifest struct {
	hasPackage, hasWorkspace bool
	name, libName, libPath   string
	binPaths                 []string
	members, exclude         []string
}

// parseCargoTOML reads the subset of TOML that Cargo manifests use for the
// keys above: [table] and [[array-of-tables]] headers, `key = value` lines
// with dotted keys, basic "..." and literal '...' strings, and arrays of
// strings that may span lines, with # comments anywhere outside strings.
// Other values (numbers, inline tables, multi-line strings) are skipped.
func parseCargoTOML(data []byte) (cargoManifest, []SyntaxError) {
	var m cargoManifest
	var errs []SyntaxError
	table := ""
	lines := strings.Split(string(data), "\n")
	for n := 0; n < len(lines); n++ {
		line := strings.TrimSpace(tomlStripComment(lines[n]))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			h := strings.TrimSpace(strings.Trim(line, "[]"))
			table = strings.ReplaceAll(h, " ", "")
			switch {
			case table == "package":
				m.hasPackage = true
			case table == "workspace":
				m.hasWorkspace = true
			case table == "bin" && strings.HasPrefix(line, "[["):
				m.binPaths = append(m.binPaths, "")
			}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue // a continuation of a value this reader skips
		}
		key = strings.ReplaceAll(strings.TrimSpace(key), " ", "")
		val = strings.TrimSpace(val)
		if table != "" {
			key = table + "." + key
		}
		if strings.HasPrefix(val, "[") {
			// Gather a multi-line array up to its closing bracket.
			for !tomlArrayClosed(val) && n+1 < len(lines) {
				n++
				val += " " + strings.TrimSpace(tomlStripComment(lines[n]))
			}
		}
		switch key {
		case "package.name":
			m.hasPackage = true
			m.name = tomlString(val)
		case "lib.name":
			m.libName = tomlString(val)
		case "lib.path":
			m.libPath = tomlString(val)
		case "bin.path":
			if len(m.binPaths) > 0 {
				m.binPaths[len(m.binPaths)-1] = tomlString(val)
			}
		case "workspace.members", "workspace.exclude":
			arr, ok := tomlStringArray(val)
			if !ok {
				errs = append(errs, SyntaxError{Line: n + 1, Message: key + " is not an array of strings"})
			}
			if key == "workspace.members" {
				m.hasWorkspace, m.members = true, arr
			} else {
				m.exclude = arr
			}
		}
	}
	return m, errs
}

// tomlStripComment cuts a line at a '#' that is outside any string.
func tomlStripComment(line string) string {
	var q byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case q != 0 && c == '\\' && q == '"':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '#':
			return line[:i]
		}
	}
	return line
}

func tomlArrayClosed(val string) bool {
	depth := 0
	var q byte
	for i := 0; i < len(val); i++ {
		c := val[i]
		switch {
		case q != 0 && c == '\\' && q == '"':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '[':
			depth++
		case q == 0 && c == ']':
			depth--
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// tomlString returns the text of a basic or literal string value, or "".
func tomlString(val string) string {
	if len(val) < 2 {
		return ""
	}
	q := val[0]
	if q != '"' && q != '\'' {
		return ""
	}
	var b strings.Builder
	for i := 1; i < len(val); i++ {
		c := val[i]
		if c == q {
			return b.String()
		}
		if c == '\\' && q == '"' && i+1 < len(val) {
			i++
			c = val[i]
		}
		b.WriteByte(c)
	}
	return ""
}

// tomlStringArray parses ["a", 'b', ...] into its strings.
func tomlStringArray(val string) ([]string, bool) {
	inner, ok := strings.CutPrefix(strings.TrimSpace(val), "[")
	if !ok {
		return nil, false
	}
	var out []string
	for {
		inner = strings.TrimLeft(inner, " \t\r,")
		if inner == "" || inner[0] == ']' {
			return out, inner != ""
		}
		s := tomlString(inner)
		if s == "" && !strings.HasPrefix(inner, `""`) && !strings.HasPrefix(inner, `''`) {
			return out, false
		}
		out = append(out, s)
		// Skip past the closing quote of this element.
		q := inner[0]
		i := 1
		for i < len(inner) && inner[i] != q {
			if inner[i] == '\\' && q == '"' {
				i++
			}
			i++
		}
		inner = inner[min(i+1, len(inner)):]
	}
}

// crateOf describes the crate a file belongs to: its root file ("" when it
// cannot be told, as for tests/common/mod.rs), the directory module paths
// start from, and the file's module path.
type crateOf struct {
	rootFile string
	rootDir  string
	modPath  []string
}

func (r *rustResolver) pkgOf(file string) *rustPkg {
	for d := jsDir(file); ; d = jsDir(d) {
		if p, ok := r.pkgs[d]; ok {
			return p
		}
		if d == "" {
			return nil
		}
	}
}

func rustModPath(rel string) []string {
	segs := strings.Split(rel, "/")
	last := segs[len(segs)-1]
	segs = segs[:len(segs)-1]
	if last != "mod.rs" {
		segs = append(segs, strings.TrimSuffix(last, ".rs"))
	}
	return segs
}

func (r *rustResolver) crateOf(file string) crateOf {
	alone := crateOf{rootFile: file, rootDir: jsDir(file)}
	p := r.pkgOf(file)
	if p == nil || file == p.lib || p.bins[file] {
		return alone
	}
	rel, ok := relUnder(p.dir, file)
	if !ok {
		return alone
	}
	segs := strings.Split(rel, "/")
	top := segs[0]
	switch {
	case len(segs) == 1: // build.rs and friends
		return alone
	case top == "src" && len(segs) >= 3 && segs[1] == "bin":
		if len(segs) == 3 {
			return alone // src/bin/x.rs
		}
		dir := jsJoin(p.dir, "src/bin/"+segs[2])
		main := dir + "/main.rs"
		if file == main {
			return alone
		}
		return crateOf{rootFile: main, rootDir: dir, modPath: rustModPath(strings.Join(segs[3:], "/"))}
	case top == "tests" || top == "examples" || top == "benches":
		if len(segs) == 2 {
			return alone
		}
		return crateOf{rootDir: jsJoin(p.dir, top), modPath: rustModPath(strings.Join(segs[1:], "/"))}
	}
	if p.lib != "" {
		if under, ok := relUnder(jsDir(p.lib), file); ok {
			return crateOf{rootFile: p.lib, rootDir: jsDir(p.lib), modPath: rustModPath(under)}
		}
	}
	main := jsJoin(p.dir, "src/main.rs")
	if file == main {
		return alone
	}
	if under, ok := relUnder(jsJoin(p.dir, "src"), file); ok && r.files[main] {
		return crateOf{rootFile: main, rootDir: jsDir(main), modPath: rustModPath(under)}
	}
	return alone
}

// childDir is where the files of the modules that f declares live: next
// to f for mod.rs and crate roots, in a directory named after f otherwise.
func (r *rustResolver) childDir(f string) string {
	base := path.Base(f)
	if base == "mod.rs" || base == "lib.rs" || base == "main.rs" {
		return jsDir(f)
	}
	if c := r.crateOf(f); c.rootFile == f {
		return jsDir(f)
	}
	return jsJoin(jsDir(f), strings.TrimSuffix(base, ".rs"))
}

// childFile returns the file of module name declared by f, if one exists,
// with the candidates tried.
func (r *rustResolver) childFile(f string, names []string) (string, []string) {
	return r.fileUnder(r.childDir(f), names)
}

// deepest walks segs down from the module whose file is f and returns the
// file of the deepest module that exists.
func (r *rustResolver) deepest(f string, segs []string) string {
	for _, s := range segs {
		c, _ := r.childFile(f, []string{s})
		if c == "" {
			break
		}
		f = c
	}
	return f
}

func (r *rustResolver) resolve(file string, s Site) Resolution {
	switch s.Kind {
	case KindMod:
		return r.resolveMod(file, s)
	case KindExternCrate:
		if s.Spec == "self" {
			return r.inCrate(file, nil)
		}
		return r.crate(s.Spec, nil)
	}
	segs := strings.Split(s.Spec, "::")
	if segs[0] == "" && len(segs) > 1 { // ::name is always a crate
		return r.crate(segs[1], segs[2:])
	}
	switch segs[0] {
	case "crate", "$crate":
		return r.inCrate(file, segs[1:])
	case "self":
		return Resolution{Kind: Internal, Target: r.deepest(file, segs[1:])}
	case "super":
		k := 0
		for k < len(segs) && segs[k] == "super" {
			k++
		}
		c := r.crateOf(file)
		if k > len(c.modPath) {
			return Resolution{Kind: Unresolved, Reason: fmt.Sprintf("%s goes above the crate root", s.Spec)}
		}
		parent := c.rootFile
		if up := c.modPath[:len(c.modPath)-k]; len(up) > 0 {
			parent, _ = r.fileUnder(c.rootDir, up)
		}
		if parent == "" {
			return Resolution{Kind: Unresolved, Reason: fmt.Sprintf("no file for the parent module of %s", file)}
		}
		return Resolution{Kind: Internal, Target: r.deepest(parent, segs[k:])}
	}
	// A module of the current one (2018 relative path) shadows a crate.
	if f, _ := r.childFile(file, segs[:1]); f != "" {
		return Resolution{Kind: Internal, Target: r.deepest(f, segs[1:])}
	}
	return r.crate(segs[0], segs[1:])
}

// fileUnder returns the file of module path modPath under dir (x.rs or
// x/mod.rs), if one exists, with the candidates tried.
func (r *rustResolver) fileUnder(dir string, modPath []string) (string, []string) {
	base := jsJoin(dir, strings.Join(modPath, "/"))
	tried := []string{base + ".rs", base + "/mod.rs"}
	for _, c := range tried {
		if r.files[c] {
			return c, nil
		}
	}
	return "", tried
}

func (r *rustResolver) inCrate(file string, segs []string) Resolution {
	c := r.crateOf(file)
	if c.rootFile == "" {
		return Resolution{Kind: Unresolved, Reason: "cannot tell which crate root " + file + " belongs to"}
	}
	return Resolution{Kind: Internal, Target: r.deepest(c.rootFile, segs)}
}

// crate resolves a path starting with a crate name.
func (r *rustResolver) crate(name string, segs []string) Resolution {
	if rustStdCrates[name] {
		return Resolution{Kind: Stdlib, Target: name}
	}
	if p, ok := r.crates[name]; ok {
		return Resolution{Kind: Internal, Target: r.deepest(p.lib, segs)}
	}
	return Resolution{Kind: External, Target: name}
}

// rustPathAttr reports whether a mod record's Spec is the path of its
// #[path] attribute rather than a module name: a name never holds '/' or
// '.', while a path may name a file of any extension (#[path = "x.txt"]).
func rustPathAttr(spec string) bool {
	return strings.ContainsAny(spec, "/.")
}

func (r *rustResolver) resolveMod(file string, s Site) Resolution {
	if rustPathAttr(s.Spec) {
		p := jsJoin(jsDir(file), s.Spec)
		if r.files[p] {
			return Resolution{Kind: Internal, Target: p}
		}
		return Resolution{Kind: Unresolved, Reason: fmt.Sprintf("no file %s for #[path = %q]", p, s.Spec)}
	}
	f, tried := r.childFile(file, strings.Split(s.Spec, "::"))
	if f != "" {
		return Resolution{Kind: Internal, Target: f}
	}
	return Resolution{Kind: Unresolved, Reason: "no file for mod " + s.Spec, Tried: tried}
}
