package imports

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/vouch-dev/vouch/internal/ini"
	"github.com/vouch-dev/vouch/internal/lazyre"
	"github.com/vouch-dev/vouch/internal/toml"
)

// maxProjectFile caps a project file read for its package directory.
const maxProjectFile = 1 << 20

// projectRoots returns the package roots a Python project at dir declares,
// repository-relative, in the places Python packaging tools read them:
//   - setup.cfg: [options] package_dir (the "" entry, written "=lib"),
//     [options.packages.find] where;
//   - pyproject.toml: [tool.setuptools] package-dir "",
//     [tool.setuptools.packages.find] where, [[tool.poetry.packages]]
//     from, [tool.hatch.build.targets.wheel] packages (their parents);
//   - setup.py: package_dir={"": "lib"} and find_packages(where="src") or
//     find_packages("src") written as literals.
//
// Unreadable or malformed files add nothing: root detection is a default
// that python_roots overrides, never a reason to stop.
func projectRoots(root, dir string, files map[string]bool) []string {
	var out []string
	add := func(d string) {
		d = strings.Trim(path.Clean("/"+strings.ReplaceAll(d, "\\", "/")), "/")
		if d != "" && d != "." {
			out = append(out, joinRel(dir, d))
		}
	}
	read := func(name string) []byte {
		rel := joinRel(dir, name)
		if !files[rel] {
			return nil
		}
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil
		}
		defer f.Close()
		buf := make([]byte, maxProjectFile)
		n, _ := f.Read(buf)
		return buf[:n]
	}
	if data := read("setup.cfg"); data != nil {
		if f, err := ini.Parse(data); err == nil {
			if s := f.Section("options"); s != nil {
				if e, ok := s.Get("package_dir"); ok {
					for _, l := range strings.Split(e.Value, "\n") {
						if k, v, ok := strings.Cut(l, "="); ok && strings.TrimSpace(k) == "" {
							add(strings.TrimSpace(v))
						}
					}
				}
			}
			if s := f.Section("options.packages.find"); s != nil {
				if e, ok := s.Get("where"); ok {
					for _, l := range strings.Split(e.Value, "\n") {
						add(strings.TrimSpace(l))
					}
				}
			}
		}
	}
	if data := read("pyproject.toml"); data != nil {
		if t, err := toml.Parse(data); err == nil {
			if v, ok := t.Lookup("tool", "setuptools", "package-dir"); ok {
				if pd, ok := v.(toml.Table); ok {
					if s, ok := pd[""].(string); ok {
						add(s)
					}
				}
			}
			if v, ok := t.Lookup("tool", "setuptools", "packages", "find", "where"); ok {
				for _, s := range strs(v) {
					add(s)
				}
			}
			if v, ok := t.Lookup("tool", "poetry", "packages"); ok {
				if arr, ok := v.([]any); ok {
					for _, e := range arr {
						if pt, ok := e.(toml.Table); ok {
							if s, ok := pt["from"].(string); ok {
								add(s)
							}
						}
					}
				}
			}
			if v, ok := t.Lookup("tool", "hatch", "build", "targets", "wheel", "packages"); ok {
				for _, s := range strs(v) {
					if p := path.Dir(strings.TrimSuffix(s, "/")); p != "." {
						add(p)
					}
				}
			}
		}
	}
	if data := read("setup.py"); data != nil {
		for _, re := range setupPyRoots {
			for _, m := range re().FindAllSubmatch(data, -1) {
				add(string(m[1]))
			}
		}
	}
	sort.Strings(out)
	return out
}

// setupPyRoots match the literal forms of setup.py's package directory.
var setupPyRoots = []func() *regexp.Regexp{
	lazyre.New(`package_dir\s*=\s*\{\s*(?:""|'')\s*:\s*["']([^"']+)["']`),
	lazyre.New(`find(?:_namespace)?_packages\(\s*(?:where\s*=\s*)?["']([^"']+)["']`),
}

func strs(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// rootHintMin is how many external-looking imports of one local package
// name make a hint: one could be a real third-party namesake, many mean a
// package root was missed.
const rootHintMin = 5

// pythonRootHints warns when absolute imports resolve outside the
// repository although their first name is a top-level regular package of
// the repository (a directory with __init__.py whose parent has none):
// the usual sign of an undetected package root (sqlalchemy's lib/), which
// silently hides every rule about those imports.
func pythonRootHints(recs []Record, files map[string]bool) []Warning {
	local := map[string][]string{} // package name -> directories
	for f := range files {
		if path.Base(f) != "__init__.py" && path.Base(f) != "__init__.pyi" {
			continue
		}
		dir := dirOf(f)
		if dir == "" {
			continue
		}
		parent := dirOf(dir)
		if files[joinRel(parent, "__init__.py")] || files[joinRel(parent, "__init__.pyi")] {
			continue
		}
		name := path.Base(dir)
		if !containsStr(local[name], dir) {
			local[name] = append(local[name], dir)
		}
	}
	if len(local) == 0 {
		return nil
	}
	count := map[string]int{}
	first := map[string]Record{}
	for _, r := range recs {
		if r.Lang != Python || r.Resolution.Kind != External || strings.HasPrefix(r.Spec, ".") {
			continue
		}
		name, _, _ := strings.Cut(r.Spec, ".")
		if _, ok := local[name]; ok {
			if count[name] == 0 {
				first[name] = r
			}
			count[name]++
		}
	}
	var names []string
	for n, c := range count {
		if c >= rootHintMin {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []Warning
	for _, n := range names {
		dirs := local[n]
		sort.Strings(dirs)
		parent := dirOf(dirs[0])
		if parent == "" {
			parent = "."
		}
		r := first[n]
		out = append(out, Warning{File: r.File, Line: r.Line, Message: fmt.Sprintf(
			"%d absolute imports of %s resolve outside the repository, but %s is a local package: its parent %s is not a Python root, so rules do not see these imports; add %s to python_roots in architecture.yaml or pass --python-root %s",
			count[n], n, dirs[0], parent, parent, parent)})
	}
	return out
}

func containsStr(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
