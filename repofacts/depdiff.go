package repofacts

import (
	"context"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/imports"
)

// dependencyDiff fills DependenciesAdded and DependenciesRemoved from the
// changed manifests, then adds new imports that resolve outside the
// repository to packages no manifest at base declares and no base version
// of a changed file imported. An error is one reading the base (an
// object that does not hash to its id).
func (d *Doc) dependencyDiff(ctx context.Context, g *git, s *sources) error {
	added, removed := map[string]Dependency{}, map[string]Dependency{}
	for _, c := range s.cs {
		var before, after map[string]Dependency
		if isManifest(c.oldPath()) && c.Status != Added {
			if data, ok := s.old[c.oldPath()]; ok && data != nil {
				before, _ = manifestDeps(c.oldPath(), data)
			}
		}
		if isManifest(c.Path) && c.Status != Deleted {
			if data, ok := s.cur[c.Path]; ok && data != nil {
				var parsed bool
				after, parsed = manifestDeps(c.Path, data)
				if !parsed {
					d.Warnings = append(d.Warnings, c.Path+": could not be parsed; its dependencies are not compared")
					continue
				}
			}
		}
		for k, dep := range after {
			if _, ok := before[k]; !ok {
				added[k] = dep
			}
		}
		for k, dep := range before {
			if _, ok := after[k]; !ok {
				removed[k] = dep
			}
		}
	}
	// New imports of external packages.
	var external []imports.Record
	for _, r := range d.ImportsAdded {
		if r.Resolution.Kind == imports.External && r.Resolution.Target != "" {
			external = append(external, r)
		}
	}
	if len(external) > 0 {
		known, err := d.baseDeclared(ctx, g, s)
		if err != nil {
			return err
		}
		for _, r := range d.ImportsRemoved {
			if r.Resolution.Kind == imports.External {
				known[ecosystemOf(r.Lang)+"\x00"+importName(r)] = true
			}
		}
		for _, r := range external {
			eco, name := ecosystemOf(r.Lang), importName(r)
			k := eco + "\x00" + name
			if known[k] || declaredGo(eco, name, known) {
				continue
			}
			if _, ok := added[k]; !ok {
				added[k] = Dependency{Ecosystem: eco, Name: name, Source: r.File}
			}
		}
	}
	d.DependenciesAdded = sortedDeps(added)
	d.DependenciesRemoved = sortedDeps(removed)
	return nil
}

// baseDeclared reads every manifest at base and returns the keys of the
// dependencies they declare; it also counts the working tree's unchanged
// manifests, which equal their base versions.
func (d *Doc) baseDeclared(ctx context.Context, g *git, s *sources) (map[string]bool, error) {
	known := map[string]bool{}
	out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", "--name-only", "--full-tree", s.commit)
	if err != nil {
		if s.commit != emptyTree {
			d.Warnings = append(d.Warnings, "dependencies: list the base's files: "+err.Error())
		}
		return known, nil
	}
	for _, p := range splitZ(out) {
		if !isManifest(p) {
			continue
		}
		data, ok, err := s.blobs.read(s.commit+":"+p, MaxFileBytes)
		if err != nil {
			return nil, err
		}
		if !ok || data == nil {
			continue
		}
		deps, _ := manifestDeps(p, data)
		for k := range deps {
			known[k] = true
		}
	}
	return known, nil
}

// declaredGo reports whether a Go module path is inside a required
// module: the resolver guesses a module from an import path, and go.mod
// may require a shorter one.
func declaredGo(eco, name string, known map[string]bool) bool {
	if eco != EcoGo {
		return false
	}
	for p := name; ; {
		i := strings.LastIndex(p, "/")
		if i < 0 {
			return false
		}
		p = p[:i]
		if known[EcoGo+"\x00"+p] {
			return true
		}
	}
}

func ecosystemOf(l imports.Lang) string {
	switch l {
	case imports.Go:
		return EcoGo
	case imports.Python:
		return EcoPython
	case imports.Rust:
		return EcoCargo
	}
	return EcoNPM
}

// importName is the package an external import names, spelled as its
// ecosystem's manifests spell it.
func importName(r imports.Record) string {
	if r.Lang == imports.Python {
		return normalizePython(r.Resolution.Target)
	}
	return r.Resolution.Target
}

func sortedDeps(m map[string]Dependency) []Dependency {
	out := make([]Dependency, 0, len(m))
	for _, d := range m {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b Dependency) int {
		if c := strings.Compare(a.Ecosystem, b.Ecosystem); c != 0 {
			return c
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Source, b.Source)
	})
	return out
}
