package arch

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// ModulePattern matches dotted Python module names the way import-linter's
// module expressions do: each dot-separated part is a name, `*` for any
// one name, or `**` for one or more names. With Descendants, a module the
// pattern names also stands for every module below it (import-linter's
// contract modules); without, only the modules named (its ignore_imports).
type ModulePattern struct {
	parts       []string
	Descendants bool
	text        string
}

// CompileModule checks a module expression.
func CompileModule(expr string, descendants bool) (ModulePattern, error) {
	if expr == "" {
		return ModulePattern{}, fmt.Errorf("empty module name")
	}
	parts := strings.Split(expr, ".")
	for _, p := range parts {
		switch {
		case p == "":
			return ModulePattern{}, fmt.Errorf("module %q has an empty part", expr)
		case p == "*" || p == "**":
		case strings.ContainsAny(p, "*?[]/ \t"):
			return ModulePattern{}, fmt.Errorf("module %q: %q is neither a name nor * or ** (a wildcard stands for whole names only)", expr, p)
		}
	}
	return ModulePattern{parts: parts, Descendants: descendants, text: expr}, nil
}

// String is the expression as written.
func (p ModulePattern) String() string { return p.text }

// IsLiteral reports whether the expression has no wildcard.
func (p ModulePattern) IsLiteral() bool {
	return !slices.Contains(p.parts, "*") && !slices.Contains(p.parts, "**")
}

// Match reports whether the dotted module name matches.
func (p ModulePattern) Match(module string) bool {
	if len(p.parts) == 0 || module == "" {
		return false
	}
	return matchModule(p.parts, strings.Split(module, "."), p.Descendants)
}

func matchModule(pat, name []string, desc bool) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 1; i <= len(name); i++ {
				if matchModule(pat[1:], name[i:], desc) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if pat[0] != "*" && pat[0] != name[0] {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0 || desc
}

// ModuleName is the dotted name of the Python module in file (a
// repository-relative path) when file lies under one of the package
// directories pkgDirs maps from package name to directory ("mypkg" ->
// "src/mypkg"); a package's __init__.py is the package itself. The empty
// string means the file belongs to none of them.
func ModuleName(file string, pkgDirs map[string]string) string {
	ext := path.Ext(file)
	if ext != ".py" && ext != ".pyi" {
		return ""
	}
	best, bestDir := "", ""
	for name, dir := range pkgDirs {
		rel := ""
		switch {
		case dir != "" && strings.HasPrefix(file, dir+"/"):
			rel = strings.TrimSuffix(file[len(dir)+1:], ext)
		case file == dir+ext:
			// A root "package" that is a single module file.
		default:
			continue
		}
		// The deepest package directory holding the file names it.
		if len(dir) < len(bestDir) {
			continue
		}
		mod := name
		if rel != "" {
			rel = strings.TrimSuffix(rel, "/__init__")
			if rel == "__init__" {
				rel = ""
			}
			if rel != "" {
				if strings.ContainsAny(rel, ". ") {
					continue // not an importable name
				}
				mod += "." + strings.ReplaceAll(rel, "/", ".")
			}
		}
		best, bestDir = mod, dir
	}
	return best
}

// PackageDirs finds each root package's directory among the files: the
// shallowest directory (or module file, without its extension) whose path
// ends with the package's name as path segments, the first in path order
// among equals. With no root packages, every top-level regular package is
// one: the outermost directory of an unbroken chain of __init__.py
// directories. Packages not found are left out.
func PackageDirs(rootPackages, files []string) map[string]string {
	out := map[string]string{}
	isPy := func(f string) bool { return strings.HasSuffix(f, ".py") || strings.HasSuffix(f, ".pyi") }
	if len(rootPackages) == 0 {
		inits := map[string]bool{}
		for _, f := range files {
			if b := path.Base(f); b == "__init__.py" || b == "__init__.pyi" {
				inits[path.Dir(f)] = true
			}
		}
		for d := range inits {
			top := d
			for parent := path.Dir(top); parent != "." && inits[parent]; parent = path.Dir(top) {
				top = parent
			}
			if top == "." {
				continue
			}
			name := path.Base(top)
			if old, ok := out[name]; !ok || len(top) < len(old) || len(top) == len(old) && top < old {
				out[name] = top
			}
		}
		return out
	}
	for _, pkg := range rootPackages {
		rel := strings.ReplaceAll(pkg, ".", "/")
		best := ""
		consider := func(c string) {
			if c == rel || strings.HasSuffix(c, "/"+rel) {
				if best == "" || len(c) < len(best) || len(c) == len(best) && c < best {
					best = c
				}
			}
		}
		for _, f := range files {
			if !isPy(f) {
				continue
			}
			consider(strings.TrimSuffix(f, path.Ext(f)))
			for d := path.Dir(f); d != "."; d = path.Dir(d) {
				consider(d)
			}
		}
		if best != "" {
			out[pkg] = best
		}
	}
	return out
}
