package imports

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// goModule is one go.mod found in the repository.
type goModule struct {
	dir  string // repository-relative directory; "" for the root
	path string // module path
	// requires are the module paths go.mod requires, longest first, so
	// the first prefix match names the module providing a package.
	requires []string
	// replaces maps a module path to a repository-relative directory for
	// `replace m => ../local` directives that stay inside the repository.
	replaces map[string]string
	// vendored maps package paths to their module when vendor/modules.txt
	// exists next to go.mod.
	vendored map[string]string
}

// goResolver resolves Go import paths against the repository's modules.
type goResolver struct {
	modules []*goModule // sorted by dir length, longest first
	// local maps module paths defined in the repository (go.mod files and
	// go.work use directories) to their directory.
	local map[string]string
	// pkgDirs holds every directory containing a .go file.
	pkgDirs map[string]bool
}

// newGoResolver reads every go.mod and go.work the walk found.
func newGoResolver(repo *Repo) (resolver, []Warning) {
	r := &goResolver{local: map[string]string{}, pkgDirs: map[string]bool{}}
	var warns []Warning
	var workFiles []string
	// Sorted so that duplicate module paths resolve the same way every run.
	files := make([]string, 0, len(repo.Files))
	for f := range repo.Files {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		switch path.Base(f) {
		case "go.mod":
			m, err := readGoMod(repo.Root, f)
			if err != nil {
				warns = append(warns, Warning{File: f, Message: err.Error()})
				continue
			}
			r.modules = append(r.modules, m)
			if _, dup := r.local[m.path]; !dup {
				r.local[m.path] = m.dir
			}
		case "go.work":
			workFiles = append(workFiles, f)
		}
		if strings.HasSuffix(f, ".go") {
			r.pkgDirs[dirOf(f)] = true
		}
	}
	sort.Strings(workFiles)
	for _, wf := range workFiles {
		warns = append(warns, r.readGoWork(repo, wf)...)
	}
	sort.Slice(r.modules, func(i, j int) bool {
		if len(r.modules[i].dir) != len(r.modules[j].dir) {
			return len(r.modules[i].dir) > len(r.modules[j].dir)
		}
		return r.modules[i].dir < r.modules[j].dir
	})
	return r, warns
}

// dirOf is path.Dir with "" for the root, matching goModule.dir.
func dirOf(f string) string {
	d := path.Dir(f)
	if d == "." {
		return ""
	}
	return d
}

func joinRel(dir, rest string) string {
	if dir == "" {
		return rest
	}
	if rest == "" {
		return dir
	}
	return dir + "/" + rest
}

func readGoMod(root, rel string) (*goModule, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("reading go.mod: %w", err)
	}
	// ParseLax: vouch must not refuse a repository because go.mod uses a
	// directive newer than the x/mod it was built with.
	mf, err := modfile.ParseLax(rel, data, nil)
	if err != nil {
		return nil, fmt.Errorf("parsing go.mod: %w", err)
	}
	if mf.Module == nil || mf.Module.Mod.Path == "" {
		return nil, fmt.Errorf("go.mod has no module directive")
	}
	m := &goModule{dir: dirOf(rel), path: mf.Module.Mod.Path, replaces: map[string]string{}}
	for _, req := range mf.Require {
		m.requires = append(m.requires, req.Mod.Path)
	}
	for _, rep := range mf.Replace {
		if modfile.IsDirectoryPath(rep.New.Path) && !filepath.IsAbs(rep.New.Path) {
			target := path.Clean(path.Join(m.dir, filepath.ToSlash(rep.New.Path)))
			if target != ".." && !strings.HasPrefix(target, "../") {
				if target == "." {
					target = ""
				}
				m.replaces[rep.Old.Path] = target
			}
		}
	}
	sort.Slice(m.requires, func(i, j int) bool { return len(m.requires[i]) > len(m.requires[j]) })
	m.vendored = readVendorModules(filepath.Join(root, filepath.FromSlash(m.dir), "vendor", "modules.txt"))
	return m, nil
}

// readVendorModules parses vendor/modules.txt ("# module version" lines
// followed by the module's package paths). vendor/ is excluded from the
// walk, so this reads the disk directly; a missing file yields nil.
func readVendorModules(file string) map[string]string {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	out := map[string]string{}
	cur := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# "):
			fields := strings.Fields(line[2:])
			cur = ""
			if len(fields) > 0 {
				cur = fields[0]
			}
		case strings.HasPrefix(line, "#"):
		case cur != "" && line != "":
			out[strings.TrimSpace(line)] = cur
		}
	}
	return out
}

func (r *goResolver) readGoWork(repo *Repo, rel string) []Warning {
	data, err := os.ReadFile(filepath.Join(repo.Root, filepath.FromSlash(rel)))
	if err != nil {
		return []Warning{{File: rel, Message: fmt.Sprintf("reading go.work: %v", err)}}
	}
	wf, err := modfile.ParseWork(rel, data, nil)
	if err != nil {
		return []Warning{{File: rel, Message: fmt.Sprintf("parsing go.work: %v", err)}}
	}
	var warns []Warning
	for _, u := range wf.Use {
		dir := path.Clean(path.Join(dirOf(rel), filepath.ToSlash(u.Path)))
		if dir == "." {
			dir = ""
		}
		if dir == ".." || strings.HasPrefix(dir, "../") || filepath.IsAbs(u.Path) {
			continue // a module outside the repository stays external
		}
		if !repo.Files[joinRel(dir, "go.mod")] {
			warns = append(warns, Warning{File: rel, Line: u.Syntax.Start.Line, Message: fmt.Sprintf("go.work uses %s, which has no go.mod", u.Path)})
		}
	}
	return warns
}

// moduleFor returns the module owning file: the nearest go.mod above it.
func (r *goResolver) moduleFor(file string) *goModule {
	for _, m := range r.modules {
		if m.dir == "" || file == m.dir || strings.HasPrefix(file, m.dir+"/") {
			return m
		}
	}
	return nil
}

// pathHasPrefix reports whether mod is importPath or a path-element prefix
// of it.
func pathHasPrefix(importPath, mod string) bool {
	return importPath == mod || (strings.HasPrefix(importPath, mod) && importPath[len(mod)] == '/')
}

// localDir is the repository directory of the import path p when a local
// module holds it: the longest module path defined in the repository (or
// replaced, in m, the importing file's module, to a directory in it) that
// prefixes p, and p's directory below that module's.
func (r *goResolver) localDir(m *goModule, p string) (mod, dir string, found bool) {
	bestMod, bestDir := "", ""
	consider := func(mod, dir string) {
		if pathHasPrefix(p, mod) && len(mod) > len(bestMod) {
			bestMod, bestDir, found = mod, dir, true
		}
	}
	for mod, dir := range r.local {
		consider(mod, dir)
	}
	if m != nil {
		for mod, dir := range m.replaces {
			consider(mod, dir)
		}
	}
	if !found {
		return "", "", false
	}
	return bestMod, joinRel(bestDir, strings.TrimPrefix(strings.TrimPrefix(p, bestMod), "/")), true
}

// loadPaths is the package directory the go command compiles for an
// import of a local module, whether or not vouch lists a Go file there:
// a directory reached through a symbolic link (hooks leading into
// sub/.git/hooks) holds no listed file, yet go build compiles what is
// in it.
func (r *goResolver) loadPaths(rec Record) []string {
	p := rec.Spec
	if p == "" || strings.HasPrefix(p, ".") || module.CheckImportPath(p) != nil {
		return nil
	}
	if _, dir, found := r.localDir(r.moduleFor(rec.File), p); found {
		return []string{dir}
	}
	return nil
}

func (r *goResolver) resolve(file string, s Site) Resolution {
	p := s.Spec
	if p == "" {
		return Resolution{Kind: Unresolved, Reason: "empty import path"}
	}
	if p == "C" {
		return Resolution{Kind: Stdlib, Target: "C"}
	}
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." || p == ".." {
		return Resolution{Kind: Unresolved, Reason: "relative import paths are not supported in module mode"}
	}
	if err := module.CheckImportPath(p); err != nil {
		return Resolution{Kind: Unresolved, Reason: fmt.Sprintf("invalid import path: %v", err)}
	}
	m := r.moduleFor(file)
	if bestMod, target, found := r.localDir(m, p); found {
		if !r.pkgDirs[target] {
			return Resolution{Kind: Unresolved, Reason: fmt.Sprintf("module %s has no package directory %s", bestMod, target)}
		}
		return Resolution{Kind: Internal, Target: target}
	}
	first, _, _ := strings.Cut(p, "/")
	if !strings.Contains(first, ".") {
		return Resolution{Kind: Stdlib, Target: p}
	}
	if m == nil {
		return Resolution{Kind: External, Target: guessModulePath(p)}
	}
	if mod, ok := m.vendored[p]; ok {
		return Resolution{Kind: External, Target: mod}
	}
	for _, req := range m.requires {
		if pathHasPrefix(p, req) {
			return Resolution{Kind: External, Target: req}
		}
	}
	return Resolution{Kind: External, Target: guessModulePath(p)}
}

// guessModulePath names the likely module of an import path that no go.mod
// requires: on the big code hosts, whose layout is host/owner/repo, the
// first three elements plus a following major-version element (/v2, /v3,
// ...), since github.com/o/r/v2 is a different module from github.com/o/r;
// else the whole path (gopkg.in paths keep their .vN inside the element).
func guessModulePath(p string) string {
	parts := strings.Split(p, "/")
	switch parts[0] {
	case "github.com", "gitlab.com", "bitbucket.org", "codeberg.org":
		if len(parts) > 3 {
			n := 3
			if isMajorVersionElem(parts[3]) {
				n = 4
			}
			return strings.Join(parts[:n], "/")
		}
	}
	return p
}

// isMajorVersionElem reports whether elem is a semantic import versioning
// suffix: "v" and a number of at least 2 without leading zeros (Go modules
// have no /v0 or /v1 suffix).
func isMajorVersionElem(elem string) bool {
	if len(elem) < 2 || elem[0] != 'v' || elem[1] == '0' {
		return false
	}
	for _, c := range elem[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return elem != "v1"
}
