package imports

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
)

// pyResolver resolves Python module names against the repository's package
// roots, the standard library list and, failing both, third-party names.
type pyResolver struct {
	repo   *Repo // for imports through symlinked directories
	files  map[string]bool
	pyDirs map[string]bool // directories with a .py/.pyi file at or below them
	roots  []string        // repository-relative; "" is the repository root
	// configured says the roots were given (--python-root, python_roots)
	// rather than guessed: each is a sys.path entry, so a module's name
	// is its path below its root.
	configured bool
	stdlib     map[string]bool
	// memo caches resolutions by (directory, kind, spec, name): resolution
	// depends on nothing else, and files in one directory repeat imports.
	memo sync.Map
}

// newPythonResolver builds a resolver. With no configured roots it uses the
// repository root and every directory holding pyproject.toml, setup.py or
// setup.cfg, each with the package directories its packaging declares
// (projectRoots) and its src/ and lib/ when they are not packages
// themselves, which covers single projects and monorepos of several Python
// projects.
func newPythonResolver(repo *Repo, roots []string) (resolver, []Warning) {
	r := &pyResolver{repo: repo, files: repo.Files, pyDirs: map[string]bool{}, stdlib: pyStdlibModules()}
	var projects []string
	for f := range repo.Files {
		if strings.HasSuffix(f, ".py") || strings.HasSuffix(f, ".pyi") {
			for d := dirOf(f); d != "" && !r.pyDirs[d]; d = dirOf(d) {
				r.pyDirs[d] = true
			}
		}
		switch path.Base(f) {
		case "pyproject.toml", "setup.py", "setup.cfg":
			projects = append(projects, dirOf(f))
		}
	}
	var warns []Warning
	seen := map[string]bool{}
	add := func(d string) {
		if !seen[d] {
			seen[d] = true
			r.roots = append(r.roots, d)
		}
	}
	if len(roots) > 0 {
		r.configured = true
		for _, d := range roots {
			d = strings.Trim(path.Clean("/"+strings.ReplaceAll(d, "\\", "/")), "/")
			if d != "" && !r.pyDirs[d] {
				warns = append(warns, Warning{File: d, Message: "configured Python root has no Python files"})
			}
			add(d)
		}
		return r, warns
	}
	add("")
	projects = append(projects, "")
	sort.Strings(projects)
	for _, p := range projects {
		add(p)
		// What the project's packaging declares (package_dir, where,
		// poetry's from, hatch's packages), then the src/ and lib/
		// conventions: a directory of packages that is not a package.
		for _, d := range projectRoots(repo.Root, p, repo.Files) {
			if r.pyDirs[d] {
				add(d)
			}
		}
		for _, conv := range []string{"src", "lib"} {
			if d := joinRel(p, conv); r.pyDirs[d] && !r.isPackageDir(d) {
				add(d)
			}
		}
	}
	return r, warns
}

// isPackageDir reports whether dir has an __init__.py(i), i.e. is a
// regular package and therefore cannot be a root.
func (r *pyResolver) isPackageDir(dir string) bool {
	return r.files[joinRel(dir, "__init__.py")] || r.files[joinRel(dir, "__init__.pyi")]
}

// pyFind looks for module name in directory dir: a module file, a regular
// package's __init__, or a namespace package directory.
func (r *pyResolver) find(dir, name string) (target string, namespace, ok bool) {
	p := joinRel(dir, name)
	for _, cand := range [...]string{p + ".py", p + ".pyi", p + "/__init__.py", p + "/__init__.pyi"} {
		if r.files[cand] {
			return cand, false, true
		}
	}
	if r.pyDirs[p] {
		return p, true, true
	}
	// A module reached through a symlinked directory inside the
	// repository (app/link -> ../infra) is imported from its real path.
	if real := r.repo.realPath(p); real != "" {
		if target, namespace, ok := r.find(dirOf(real), path.Base(real)); ok {
			return target, namespace, true
		}
	}
	return "", false, false
}

// pkgDir returns the directory holding submodules of a resolved target:
// the directory of an __init__ file or a namespace directory; ok is false
// for plain module files, which have no submodules.
func pkgDir(target string, namespace bool) (string, bool) {
	if namespace {
		return target, true
	}
	switch path.Base(target) {
	case "__init__.py", "__init__.pyi":
		return dirOf(target), true
	}
	return "", false
}

// descend resolves the remaining dotted parts below a resolved package.
func (r *pyResolver) descend(target string, namespace bool, parts []string) (string, bool, error) {
	for _, part := range parts {
		dir, ok := pkgDir(target, namespace)
		if !ok {
			return "", false, fmt.Errorf("%s is a module, not a package, so it has no submodule %s", target, part)
		}
		target, namespace, ok = r.find(dir, part)
		if !ok {
			return "", false, fmt.Errorf("no module %s in %s", part, dir)
		}
	}
	return target, namespace, nil
}

// rootsFor orders roots for file: the roots containing it, deepest first,
// then the others, so a project's own packages win over a sibling's.
func (r *pyResolver) rootsFor(file string) []string {
	out := make([]string, 0, len(r.roots))
	for _, root := range r.roots {
		if root != "" && strings.HasPrefix(file, root+"/") {
			out = append(out, root)
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	for _, root := range r.roots {
		if root == "" || !strings.HasPrefix(file, root+"/") {
			out = append(out, root)
		}
	}
	return out
}

func (r *pyResolver) resolve(file string, s Site) Resolution {
	name := ""
	if s.Kind == KindFrom && len(s.Names) == 1 {
		name = s.Names[0]
	}
	key := dirOf(file) + "\x00" + string(s.Kind) + "\x00" + s.Spec + "\x00" + name
	if v, ok := r.memo.Load(key); ok {
		return v.(Resolution)
	}
	res := r.resolveUncached(file, s)
	r.memo.Store(key, res)
	return res
}

func (r *pyResolver) resolveUncached(file string, s Site) Resolution {
	spec := s.Spec
	level := len(spec) - len(strings.TrimLeft(spec, "."))
	mod := spec[level:]
	var target string
	var namespace bool
	if level > 0 {
		base := dirOf(file)
		for i := 1; i < level; i++ {
			if base == "" {
				return Resolution{Kind: Unresolved, Reason: "relative import goes beyond the repository root"}
			}
			base = dirOf(base)
		}
		if reason := r.beyondTopLevel(file, base, level); reason != "" {
			return Resolution{Kind: Unresolved, Reason: fmt.Sprintf("relative import %s: %s", spec, reason)}
		}
		target, namespace = base, true
		if r.isPackageDir(base) {
			target, namespace = joinRel(base, "__init__.py"), false
			if !r.files[target] {
				target += "i"
			}
		}
		if mod != "" {
			var err error
			target, namespace, err = r.descend(base, true, strings.Split(mod, "."))
			if err != nil {
				return Resolution{Kind: Unresolved, Reason: fmt.Sprintf("relative import %s: %v", spec, err)}
			}
		}
	} else {
		if mod == "" {
			return Resolution{Kind: Unresolved, Reason: "empty module name"}
		}
		parts := strings.Split(mod, ".")
		res, ok := r.resolveAbsolute(file, parts, mod)
		if !ok {
			return res
		}
		target, namespace = res.Target, res.Reason == "namespace"
	}
	// `from pkg import name` imports the submodule pkg/name when there is
	// one; rules about module dependencies need that file, not __init__.
	if s.Kind == KindFrom && len(s.Names) == 1 && s.Names[0] != "*" {
		if dir, ok := pkgDir(target, namespace); ok {
			if sub, _, ok := r.find(dir, s.Names[0]); ok {
				target = sub
			}
		}
	}
	if target == "" {
		target = "." // the repository root as a namespace package
	}
	return Resolution{Kind: Internal, Target: target}
}

// beyondTopLevel returns CPython's ImportError message when a relative
// import of level from file, whose package directory is base, climbs above
// the file's top-level package, and "" when it stays inside it.
//
// Below a configured root (not a guessed one) the top-level package is the
// root's child the file lies in, as CPython names the module by its path
// below that sys.path entry. Otherwise, in a regular package (the file's
// directory has an __init__.py) the top-level package is the outermost
// directory of the unbroken chain of __init__.py directories above the
// file, as pytest and most runners place that chain's parent on sys.path. Otherwise (namespace packages, or a
// file directly in a root) the package is the file's path below its
// deepest Python root, so base must lie strictly below that root.
func (r *pyResolver) beyondTopLevel(file, base string, level int) string {
	dir := dirOf(file)
	root := ""
	for _, rt := range r.rootsFor(file) {
		if rt != "" && strings.HasPrefix(file, rt+"/") {
			root = rt
			break
		}
	}
	if r.configured && root != "" && r.isPackageDir(dir) {
		// Below a configured root (a sys.path entry) the module's name is
		// its path below the root, whatever directories on the way lack
		// an __init__.py (namespace packages): the top-level package is
		// the root's child.
		if strings.HasPrefix(base, root+"/") {
			return ""
		}
		return "attempted relative import beyond top-level package"
	}
	if r.isPackageDir(dir) {
		top := dir
		for top != "" && r.isPackageDir(dirOf(top)) {
			top = dirOf(top)
		}
		if base == top || top == "" || strings.HasPrefix(base, top+"/") {
			return ""
		}
		return "attempted relative import beyond top-level package"
	}
	if dir == root {
		return "attempted relative import with no known parent package"
	}
	if base == root || (root != "" && !strings.HasPrefix(base, root+"/")) {
		return "attempted relative import beyond top-level package"
	}
	return ""
}

// resolveAbsolute resolves an absolute module. It returns ok with an
// Internal-in-progress resolution (Reason "namespace" marks a namespace
// package) when the module is in the repository, and a final resolution
// otherwise. The order follows Python's import system: a regular module or
// package on the path wins, the standard library comes next, and namespace
// packages only count when nothing regular was found.
func (r *pyResolver) resolveAbsolute(file string, parts []string, mod string) (Resolution, bool) {
	roots := r.rootsFor(file)
	for _, root := range roots {
		top, ns, ok := r.find(root, parts[0])
		if !ok || ns {
			continue
		}
		target, namespace, err := r.descend(top, ns, parts[1:])
		if err != nil {
			return Resolution{Kind: Unresolved, Reason: fmt.Sprintf("module %s: %v", mod, err)}, false
		}
		return pyInProgress(target, namespace), true
	}
	if r.stdlib[parts[0]] {
		return Resolution{Kind: Stdlib, Target: mod}, false
	}
	var firstErr error
	for _, root := range roots {
		top, ns, ok := r.find(root, parts[0])
		if !ok || !ns {
			continue
		}
		target, namespace, err := r.descend(top, ns, parts[1:])
		if err == nil {
			return pyInProgress(target, namespace), true
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		return Resolution{Kind: Unresolved, Reason: fmt.Sprintf("module %s: %v", mod, firstErr)}, false
	}
	return Resolution{Kind: External, Target: parts[0]}, false
}

func pyInProgress(target string, namespace bool) Resolution {
	res := Resolution{Kind: Internal, Target: target}
	if namespace {
		res.Reason = "namespace"
	}
	return res
}
