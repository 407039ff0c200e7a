package imports

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// JavaScript/TypeScript resolution, in TypeScript's order: relative paths,
// then the nearest tsconfig.json's `paths` and `baseUrl`, then npm/yarn/pnpm
// workspace packages declared in a package.json `workspaces` field, then
// Node builtins, and whatever bare specifier is left is an external package.
//
// A '#' specifier goes through tsconfig `paths` only (TypeScript tries them
// first); one no pattern maps to a file is a package.json "imports" specifier.
//
// Not supported (documented limits): package.json "imports" (#specifiers),
// conditional "exports" beyond a first string entry, tsconfig `extends` of a
// package name (only relative paths are followed), pnpm-workspace.yaml.

// jsExtensions is the order in which an extension-less specifier is probed.
var jsExtensions = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json"}

// jsTSCounterparts maps a JS extension written in a specifier to the
// TypeScript sources it may stand for under the TS ESM convention.
var jsTSCounterparts = map[string][]string{
	".js":  {".ts", ".tsx", ".d.ts"},
	".jsx": {".tsx"},
	".mjs": {".mts", ".d.mts"},
	".cjs": {".cts", ".d.cts"},
}

// nodeBuiltins are the modules Node.js provides without a "node:" prefix.
var nodeBuiltins = map[string]bool{
	"assert": true, "async_hooks": true, "buffer": true, "child_process": true,
	"cluster": true, "console": true, "constants": true, "crypto": true,
	"dgram": true, "diagnostics_channel": true, "dns": true, "domain": true,
	"events": true, "fs": true, "http": true, "http2": true, "https": true,
	"inspector": true, "module": true, "net": true, "os": true, "path": true,
	"perf_hooks": true, "process": true, "punycode": true, "querystring": true,
	"readline": true, "repl": true, "stream": true, "string_decoder": true,
	"sys": true, "timers": true, "tls": true, "trace_events": true, "tty": true,
	"url": true, "util": true, "v8": true, "vm": true, "wasi": true,
	"worker_threads": true, "zlib": true,
}

type tsPathRule struct {
	pattern string // may hold one '*'
	targets []string
}

// tsConfig is the effective configuration of one tsconfig.json after its
// extends chain: directories are repository-relative ("" is the root).
type tsConfig struct {
	// allowJS says tsc compiles the JavaScript files too: only then do
	// its paths and baseUrl speak for them (node reads neither).
	allowJS    bool
	hasBaseURL bool
	baseURL    string
	paths      []tsPathRule
	pathsBase  string // the directory `paths` targets are relative to
}

type jsWorkspacePkg struct {
	dir   string // repository-relative directory holding package.json
	entry string // main/module/exports entry as written, "" if none
}

type jsResolver struct {
	repo       *Repo // for imports through symlinked directories
	files      map[string]bool
	tsconfigs  map[string]*tsConfig // keyed by the directory holding tsconfig.json
	workspaces map[string]jsWorkspacePkg
	// mains maps each directory holding a package.json with a "main"
	// ("." for the root) to that main as written: node loads it for a
	// require of the directory, before the directory's index.
	mains map[string]string
}

func newJSResolver(repo *Repo) (resolver, []Warning) {
	r := &jsResolver{repo: repo, files: repo.Files, tsconfigs: map[string]*tsConfig{}, workspaces: map[string]jsWorkspacePkg{}, mains: map[string]string{}}
	var warns []Warning
	names := make([]string, 0, len(repo.Files))
	for f := range repo.Files {
		names = append(names, f)
	}
	sort.Strings(names) // deterministic warnings
	ld := &tsLoader{root: repo.Root, files: repo.Files, raw: map[string]*tsRaw{}}
	var pkgs []string
	for _, f := range names {
		if strings.Contains("/"+f, "/node_modules/") {
			continue
		}
		switch path.Base(f) {
		case "tsconfig.json":
			cfg := &tsConfig{}
			ld.effective(f, cfg, map[string]bool{})
			r.tsconfigs[jsDir(f)] = cfg
		case "package.json":
			pkgs = append(pkgs, f)
		}
	}
	warns = append(warns, ld.warns...)
	warns = append(warns, r.loadWorkspaces(repo.Root, pkgs)...)
	return r, warns
}

func jsDir(f string) string {
	d := path.Dir(f)
	if d == "." {
		return ""
	}
	return d
}

func jsJoin(dir, rel string) string {
	if dir == "" {
		return path.Clean(rel)
	}
	return path.Clean(dir + "/" + rel)
}

// readRepoFile reads a repository-relative file, refusing paths that would
// leave the root.
func readRepoFile(root, rel string) ([]byte, error) {
	if rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return nil, fmt.Errorf("%s is outside the repository", rel)
	}
	return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
}

// jsoncToJSON turns JSON with comments and trailing commas (tsconfig's
// dialect) into plain JSON, leaving string contents untouched.
func jsoncToJSON(src []byte) []byte {
	out := make([]byte, 0, len(src))
	pendingComma := false // a comma kept back until we know no closer follows
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			out = append(out, c)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
				i++
			}
			i++
			continue
		}
		if pendingComma && c != '}' && c != ']' {
			out = append(out, ',')
		}
		pendingComma = false
		switch c {
		case ',':
			pendingComma = true
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(src)-1)
			out = append(out, src[i:j+1]...)
			i = j
		default:
			out = append(out, c)
		}
	}
	if pendingComma {
		out = append(out, ',')
	}
	return out
}

type tsRaw struct {
	Extends         json.RawMessage `json:"extends"`
	CompilerOptions struct {
		AllowJS *bool               `json:"allowJs"`
		BaseURL *string             `json:"baseUrl"`
		Paths   map[string][]string `json:"paths"`
	} `json:"compilerOptions"`
}

type tsLoader struct {
	root  string
	files map[string]bool
	raw   map[string]*tsRaw // nil entry: unreadable, already warned
	warns []Warning
}

func (ld *tsLoader) load(f string) *tsRaw {
	if c, ok := ld.raw[f]; ok {
		return c
	}
	ld.raw[f] = nil
	data, err := readRepoFile(ld.root, f)
	if err != nil {
		ld.warns = append(ld.warns, Warning{File: f, Message: "cannot read tsconfig: " + err.Error()})
		return nil
	}
	var c tsRaw
	if err := json.Unmarshal(jsoncToJSON(data), &c); err != nil {
		ld.warns = append(ld.warns, Warning{File: f, Message: "cannot parse tsconfig: " + err.Error()})
		return nil
	}
	ld.raw[f] = &c
	return &c
}

// effective applies the extends chain of tsconfig f onto cfg, bases first,
// so that the settings of f itself win.
func (ld *tsLoader) effective(f string, cfg *tsConfig, seen map[string]bool) {
	if seen[f] {
		ld.warns = append(ld.warns, Warning{File: f, Message: "tsconfig extends chain loops back to " + f})
		return
	}
	seen[f] = true
	c := ld.load(f)
	if c == nil {
		return
	}
	var bases []string
	if len(c.Extends) > 0 {
		var one string
		if json.Unmarshal(c.Extends, &one) == nil {
			bases = []string{one}
		} else if json.Unmarshal(c.Extends, &bases) != nil {
			ld.warns = append(ld.warns, Warning{File: f, Message: "tsconfig extends is neither a string nor an array"})
		}
	}
	dir := jsDir(f)
	for _, b := range bases {
		if !strings.HasPrefix(b, "./") && !strings.HasPrefix(b, "../") {
			ld.warns = append(ld.warns, Warning{File: f, Message: fmt.Sprintf("tsconfig extends %q: only relative paths are followed", b)})
			continue
		}
		p := jsJoin(dir, b)
		if !ld.files[p] && !strings.HasSuffix(p, ".json") {
			p += ".json"
		}
		if strings.HasPrefix(p, "../") {
			ld.warns = append(ld.warns, Warning{File: f, Message: fmt.Sprintf("tsconfig extends %q leaves the repository", b)})
			continue
		}
		ld.effective(p, cfg, seen)
	}
	if c.CompilerOptions.AllowJS != nil {
		cfg.allowJS = *c.CompilerOptions.AllowJS
	}
	if c.CompilerOptions.BaseURL != nil {
		cfg.hasBaseURL = true
		cfg.baseURL = jsJoin(dir, *c.CompilerOptions.BaseURL)
		if cfg.baseURL == "." {
			cfg.baseURL = ""
		}
	}
	if c.CompilerOptions.Paths != nil {
		cfg.paths = cfg.paths[:0]
		keys := make([]string, 0, len(c.CompilerOptions.Paths))
		for k := range c.CompilerOptions.Paths {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			cfg.paths = append(cfg.paths, tsPathRule{pattern: k, targets: c.CompilerOptions.Paths[k]})
		}
		cfg.pathsBase = dir
	}
	if cfg.hasBaseURL {
		// Paths are relative to baseUrl when there is one.
		cfg.pathsBase = cfg.baseURL
	}
}

func (r *jsResolver) loadWorkspaces(root string, pkgs []string) []Warning {
	type manifest struct {
		Name       string          `json:"name"`
		Main       string          `json:"main"`
		Module     string          `json:"module"`
		Exports    json.RawMessage `json:"exports"`
		Workspaces json.RawMessage `json:"workspaces"`
	}
	var warns []Warning
	parsed := map[string]*manifest{}
	type glob struct{ base, pattern string }
	var globs []glob
	for _, f := range pkgs {
		data, err := readRepoFile(root, f)
		if err != nil {
			warns = append(warns, Warning{File: f, Message: "cannot read package.json: " + err.Error()})
			continue
		}
		var m manifest
		if err := json.Unmarshal(data, &m); err != nil {
			warns = append(warns, Warning{File: f, Message: "cannot parse package.json: " + err.Error()})
			continue
		}
		parsed[f] = &m
		if m.Main != "" {
			r.mains[path.Dir(f)] = m.Main
		}
		if len(m.Workspaces) == 0 {
			continue
		}
		var list []string
		var obj struct {
			Packages []string `json:"packages"`
		}
		if json.Unmarshal(m.Workspaces, &list) != nil {
			if json.Unmarshal(m.Workspaces, &obj) != nil {
				warns = append(warns, Warning{File: f, Message: "package.json workspaces is neither an array nor {packages: [...]}"})
			}
			list = obj.Packages
		}
		for _, p := range list {
			globs = append(globs, glob{jsDir(f), strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")})
		}
	}
	for _, f := range pkgs {
		m := parsed[f]
		if m == nil || m.Name == "" {
			continue
		}
		dir := jsDir(f)
		in := false
		for _, g := range globs {
			rel, ok := relUnder(g.base, dir)
			if !ok {
				continue
			}
			if neg, ok := strings.CutPrefix(g.pattern, "!"); ok {
				if globMatch(neg, rel) {
					in = false
				}
			} else if globMatch(g.pattern, rel) {
				in = true
			}
		}
		if !in {
			continue
		}
		if prev, dup := r.workspaces[m.Name]; dup {
			warns = append(warns, Warning{File: f, Message: fmt.Sprintf("workspace package %q also declared in %s/package.json; keeping the first", m.Name, prev.dir)})
			continue
		}
		entry := jsExportsEntry(m.Exports)
		if entry == "" {
			entry = m.Module
		}
		if entry == "" {
			entry = m.Main
		}
		r.workspaces[m.Name] = jsWorkspacePkg{dir: dir, entry: entry}
	}
	return warns
}

// jsExportsEntry returns the "." entry of a package.json exports field when
// it is a plain string or an object of conditions with a string for one of
// the usual conditions.
func jsExportsEntry(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	if dot, ok := m["."]; ok {
		return jsExportsEntry(dot)
	}
	for _, cond := range []string{"source", "import", "require", "default", "node", "types"} {
		if v, ok := m[cond]; ok {
			if e := jsExportsEntry(v); e != "" {
				return e
			}
		}
	}
	return ""
}

// relUnder returns dir relative to base when dir is base or inside it.
func relUnder(base, dir string) (string, bool) {
	if base == "" {
		return dir, dir != ""
	}
	rest, ok := strings.CutPrefix(dir, base+"/")
	return rest, ok
}

// globMatch matches a '/'-separated path against a workspace glob where
// "**" stands for any number of directories and other segments follow
// path.Match.
func globMatch(pattern, name string) bool {
	return globSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func globSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if globSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// probe looks for the file a module path stands for and returns it, or ""
// with the candidates it tried (relative to base's directory): the path
// itself, with each extension, then as a directory (its package.json
// "main", then its index).
func (r *jsResolver) probe(base string) (string, []string) {
	if r.files[base] {
		return base, nil
	}
	var tried []string
	try := func(c string) bool {
		if r.files[c] {
			return true
		}
		tried = append(tried, c)
		return false
	}
	ext := path.Ext(base)
	for _, alt := range jsTSCounterparts[ext] {
		if c := strings.TrimSuffix(base, ext) + alt; try(c) {
			return c, nil
		}
	}
	for _, e := range jsExtensions {
		if c := base + e; try(c) {
			return c, nil
		}
	}
	// A directory's package.json "main" comes before its index, as node
	// loads it (main as a file, then as a directory's index); one that
	// leaves the repository is no file of it.
	if main, ok := r.mains[base]; ok {
		if m := jsJoin(base, main); m != ".." && !strings.HasPrefix(m, "../") {
			if try(m) {
				return m, nil
			}
			for _, e := range jsExtensions {
				if c := m + e; try(c) {
					return c, nil
				}
			}
			for _, e := range jsExtensions {
				if c := jsJoin(m, "index"+e); try(c) {
					return c, nil
				}
			}
		}
	}
	for _, e := range jsExtensions {
		if c := jsJoin(base, "index"+e); try(c) {
			return c, nil
		}
	}
	d := path.Dir(base)
	for i, t := range tried {
		if rest, ok := strings.CutPrefix(t, d+"/"); ok && d != "." {
			tried[i] = rest
		}
	}
	return "", tried
}

func (r *jsResolver) resolve(file string, s Site) Resolution {
	spec := s.Spec
	switch {
	case spec == "":
		return Resolution{Kind: Unresolved, Reason: "empty module specifier"}
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		return r.relative(file, spec)
	case strings.HasPrefix(spec, "/"):
		return Resolution{Kind: Unresolved, Reason: "absolute path " + spec + " is not portable"}
	case strings.HasPrefix(spec, "node:"):
		return Resolution{Kind: Stdlib, Target: jsPackageName(strings.TrimPrefix(spec, "node:"))}
	case strings.HasPrefix(spec, "#"):
		// TypeScript applies tsconfig `paths` before package.json "imports",
		// so a `#web/*` alias is an ordinary path mapping.
		if cfg := r.tsconfigFor(file); cfg != nil {
			if res, ok := r.viaPaths(cfg, spec); ok {
				return res
			}
		}
		return Resolution{Kind: Unresolved, Reason: "package.json \"imports\" specifier " + spec + " is not supported"}
	case strings.Contains(spec, ":"):
		// URLs and other schemes (https:, npm:, jsr:, data:) name no local file.
		return Resolution{Kind: External, Target: spec}
	}
	// A tsconfig's paths and baseUrl are what tsc (and bundlers that
	// read it) make of a bare specifier; node, running a JavaScript file
	// tsc does not compile, loads the package from node_modules, so a
	// decoy left-pad/ directory must not make require("left-pad")
	// internal there.
	if cfg := r.tsconfigFor(file); cfg != nil && (cfg.allowJS || isTSFile(file)) {
		if res, ok := r.viaPaths(cfg, spec); ok {
			return res
		}
		if cfg.hasBaseURL {
			if f, _ := r.probe(jsJoin(cfg.baseURL, stripQuery(spec))); f != "" {
				return Resolution{Kind: Internal, Target: f}
			}
		}
	}
	name := jsPackageName(spec)
	if ws, ok := r.workspaces[name]; ok {
		return r.workspaceTarget(ws, strings.TrimPrefix(strings.TrimPrefix(spec, name), "/"))
	}
	if nodeBuiltins[name] {
		return Resolution{Kind: Stdlib, Target: name}
	}
	return Resolution{Kind: External, Target: name}
}

// isTSFile reports whether file has a TypeScript extension.
func isTSFile(file string) bool {
	switch path.Ext(file) {
	case ".ts", ".tsx", ".mts", ".cts":
		return true
	}
	return false
}

func stripQuery(spec string) string {
	if i := strings.IndexAny(spec, "?#"); i > 0 {
		return spec[:i]
	}
	return spec
}

func (r *jsResolver) relative(file, spec string) Resolution {
	base := jsJoin(jsDir(file), stripQuery(spec))
	if base == ".." || strings.HasPrefix(base, "../") {
		return Resolution{Kind: Unresolved, Reason: spec + " points outside the repository"}
	}
	f, tried := r.probe(base)
	if f != "" {
		return Resolution{Kind: Internal, Target: f}
	}
	// Through a symlinked directory inside the repository (web/link ->
	// ../infra), node opens the file at its real path: resolve there, so
	// the rules see the dependency on infra.
	if real := r.linked(base); real != "" {
		if f, _ := r.probe(real); f != "" {
			return Resolution{Kind: Internal, Target: f}
		}
	}
	return Resolution{Kind: Unresolved, Reason: "no file matches " + spec, Tried: tried}
}

// linked is the real path of base through symlinked directories inside
// the root, or "".
func (r *jsResolver) linked(base string) string { return r.repo.realPath(base) }

// tsconfigFor returns the configuration of the nearest tsconfig.json at or
// above file.
func (r *jsResolver) tsconfigFor(file string) *tsConfig {
	d := jsDir(file)
	for {
		if c, ok := r.tsconfigs[d]; ok {
			return c
		}
		if d == "" {
			return nil
		}
		d = jsDir(d)
	}
}

// viaPaths applies tsconfig `paths`: an exact pattern wins, else the
// matching '*' pattern with the longest prefix; its targets are tried in
// order.
func (r *jsResolver) viaPaths(cfg *tsConfig, spec string) (Resolution, bool) {
	best, bestPrefix, star := -1, -1, ""
	for i, rule := range cfg.paths {
		pre, suf, hasStar := strings.Cut(rule.pattern, "*")
		if !hasStar {
			if rule.pattern == spec {
				best, star = i, ""
				break
			}
			continue
		}
		if len(spec) >= len(pre)+len(suf) && strings.HasPrefix(spec, pre) && strings.HasSuffix(spec, suf) && len(pre) > bestPrefix {
			best, bestPrefix, star = i, len(pre), spec[len(pre):len(spec)-len(suf)]
		}
	}
	if best < 0 {
		return Resolution{}, false
	}
	for _, t := range cfg.paths[best].targets {
		target := strings.Replace(t, "*", star, 1)
		p := jsJoin(cfg.pathsBase, stripQuery(target))
		if strings.HasPrefix(p, "../") {
			continue
		}
		if f, _ := r.probe(p); f != "" {
			return Resolution{Kind: Internal, Target: f}, true
		}
	}
	return Resolution{}, false
}

func (r *jsResolver) workspaceTarget(ws jsWorkspacePkg, sub string) Resolution {
	var candidates []string
	if sub != "" {
		candidates = []string{jsJoin(ws.dir, sub), jsJoin(ws.dir, "src/"+sub)}
	} else {
		if ws.entry != "" {
			candidates = append(candidates, jsJoin(ws.dir, ws.entry))
		}
		candidates = append(candidates, jsJoin(ws.dir, "index"), jsJoin(ws.dir, "src/index"))
	}
	for _, c := range candidates {
		if strings.HasPrefix(c, "../") {
			continue
		}
		if f, _ := r.probe(c); f != "" {
			return Resolution{Kind: Internal, Target: f}
		}
	}
	// The entry may be build output absent from the repository: the
	// package directory itself is the honest target.
	return Resolution{Kind: Internal, Target: ws.dir}
}

// jsPackageName returns the npm package a bare specifier names:
// '@scope/pkg/sub' -> '@scope/pkg', 'lodash/fp' -> 'lodash'.
func jsPackageName(spec string) string {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}
