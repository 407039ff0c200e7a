package lint

import (
	"encoding/json"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/safeopen"
)

// maxManifest caps the bytes read from one package.json.
const maxManifest = 4 << 20

// NpmTypes maps an npm dependency (the importing file's directory and the
// package) to the dependency types dependency-cruiser gives it from the
// package.json closest to the importing file: npm, npm-dev, npm-optional
// or npm-peer for each section that lists the package (its @types/
// package when the package itself is not listed), npm-no-pkg when none
// does, npm-unknown when there is no package.json; plus npm-bundled and,
// when asked, deprecated. Lint reads it before evaluation (like the import
// scan) so the engine sees the types as facts.
type NpmTypes map[npmKey][]string

type npmKey struct{ dir, pkg string }

// types are the types of an import of pkg from file; nil when t holds
// none (no rule asked for manifests).
func (t NpmTypes) types(file, pkg string) []string {
	if t == nil {
		return nil
	}
	return t[npmKey{path.Dir(file), npmPackageRoot(pkg)}]
}

// manifest is what dependency-cruiser reads from a package.json: the
// names in each section whose key contains "ependencies" and the bundled
// ones.
type manifest struct {
	sections map[string]map[string]bool
	bundled  []string
}

// npmSection names the type of each package.json section; another
// section that lists the package makes it npm-no-pkg.
var npmSection = map[string]string{
	"dependencies":         "npm",
	"devDependencies":      "npm-dev",
	"optionalDependencies": "npm-optional",
	"peerDependencies":     "npm-peer",
}

// readNpmTypes computes the types of every npm import of scan, reading the
// manifests under root only (never above it, and never through a link
// that leaves it); deprecated says whether to read the installed
// packages' own package.json for their deprecated field.
func readNpmTypes(root string, scan *imports.Result, deprecated bool) NpmTypes {
	out := NpmTypes{}
	r, err := os.OpenRoot(root)
	if err != nil {
		return out
	}
	defer r.Close()
	// own is each directory's own package.json (found: the file
	// exists; m is nil when it is not valid JSON, which ends the search
	// with no manifest, as dependency-cruiser's reading does); closest
	// is the one an import from the directory uses.
	type ownManifest struct {
		m     *manifest
		found bool
	}
	own := map[string]ownManifest{}
	closest := map[string]*manifest{}
	var find func(dir string) *manifest
	find = func(dir string) *manifest {
		if m, ok := closest[dir]; ok {
			return m
		}
		o, ok := own[dir]
		if !ok {
			if f, err := safeopen.ReadIn(r, path.Join(dir, "package.json"), maxManifest); err == nil {
				o = ownManifest{parseManifest(f.Data), true}
			}
			own[dir] = o
		}
		m := o.m
		if !o.found && dir != "." {
			m = find(path.Dir(dir))
		}
		closest[dir] = m
		return m
	}
	for i := range scan.Records {
		rec := &scan.Records[i]
		if rec.Resolution.Kind != imports.External || (rec.Lang != imports.JavaScript && rec.Lang != imports.TypeScript) {
			continue
		}
		k := npmKey{path.Dir(rec.File), npmPackageRoot(rec.Resolution.Target)}
		if _, done := out[k]; done {
			continue
		}
		types := manifestTypes(find(k.dir), k.pkg)
		if deprecated && npmDeprecated(r, k.dir, k.pkg) {
			types = append(types, "deprecated")
		}
		out[k] = types
	}
	return out
}

func parseManifest(data []byte) *manifest {
	var raw map[string]json.RawMessage
	if json.Unmarshal(data, &raw) != nil {
		return nil
	}
	m := &manifest{sections: map[string]map[string]bool{}}
	for key, val := range raw {
		if !strings.Contains(key, "ependencies") {
			continue
		}
		var names map[string]json.RawMessage
		if json.Unmarshal(val, &names) == nil {
			set := map[string]bool{}
			for n := range names {
				set[n] = true
			}
			m.sections[key] = set
		}
	}
	for _, key := range []string{"bundledDependencies", "bundleDependencies"} {
		var list []string
		if v, ok := raw[key]; ok && json.Unmarshal(v, &list) == nil && m.bundled == nil {
			m.bundled = list
		}
	}
	return m
}

// manifestTypes are the types m gives pkg (sorted).
func manifestTypes(m *manifest, pkg string) []string {
	if m == nil {
		return []string{"npm-unknown"}
	}
	listed := func(name string) []string {
		var out []string
		for key, set := range m.sections {
			if set[name] {
				t, ok := npmSection[key]
				if !ok {
					t = "npm-no-pkg"
				}
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
		}
		return out
	}
	out := listed(pkg)
	if len(out) == 0 {
		out = listed(path.Join("@types", pkg))
	}
	if len(out) == 0 {
		out = []string{"npm-no-pkg"}
	}
	if slices.Contains(m.bundled, pkg) {
		out = append(out, "npm-bundled")
	}
	slices.Sort(out)
	return out
}

// npmDeprecated reports whether the package node would load for an import
// from dir (the nearest node_modules/pkg at or above dir, inside the root)
// says in its package.json that it is deprecated.
func npmDeprecated(r *os.Root, dir, pkg string) bool {
	for {
		f, err := safeopen.ReadIn(r, path.Join(dir, "node_modules", pkg, "package.json"), maxManifest)
		if err == nil {
			var m struct {
				Deprecated any `json:"deprecated"`
			}
			if json.Unmarshal(f.Data, &m) != nil {
				return false
			}
			// JavaScript's truthiness, as dependency-cruiser tests it.
			switch d := m.Deprecated.(type) {
			case string:
				return d != ""
			case bool:
				return d
			case float64:
				return d != 0
			}
			return m.Deprecated != nil
		}
		if dir == "." {
			return false
		}
		dir = path.Dir(dir)
	}
}

// npmPackageRoot is the package a specifier's name belongs to: @scope/name
// or name.
func npmPackageRoot(name string) string {
	parts := strings.SplitN(name, "/", 3)
	if strings.HasPrefix(name, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}
