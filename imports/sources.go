package imports

import (
	"bytes"
)

// Resolvers resolve imports against one repository's layout without
// walking it: callers that already know the file list (repofacts reads it
// from git) and the contents they care about use it to extract the imports
// of a few files, including old versions of files that are no longer on
// disk.
type Resolvers struct {
	byLang map[Lang]resolver
	// Warnings are the problems met reading the repository's manifests
	// (go.mod, package.json, tsconfig.json, Cargo.toml, ...).
	Warnings []Warning
}

// NewResolvers builds the resolvers of langs (every language when empty)
// for repo. Manifests are read from disk under repo.Root.
func NewResolvers(repo *Repo, langs []Lang) *Resolvers {
	want := map[Lang]bool{}
	for _, l := range langs {
		want[l] = true
	}
	if len(want) == 0 {
		for _, l := range Langs() {
			want[l] = true
		}
	}
	rs := &Resolvers{byLang: map[Lang]resolver{}}
	if want[Go] {
		r, w := newGoResolver(repo)
		rs.byLang[Go] = r
		rs.Warnings = append(rs.Warnings, w...)
	}
	if want[Python] {
		r, w := newPythonResolver(repo, nil)
		rs.byLang[Python] = r
		rs.Warnings = append(rs.Warnings, w...)
	}
	if want[JavaScript] || want[TypeScript] || want[Rust] {
		others, w := otherResolvers(repo, want)
		for l, r := range others {
			rs.byLang[l] = r
		}
		rs.Warnings = append(rs.Warnings, w...)
	}
	return rs
}

// Extract returns the resolved imports of src, taken to be the content of
// the repository-relative file rel written in lang, in source order. Binary
// and non-UTF-8 content yields no records and a warning, as Scan does.
func (rs *Resolvers) Extract(rel string, lang Lang, src []byte) ([]Record, []Warning) {
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil, []Warning{{File: rel, Message: "skipped: binary file", Unread: true}}
	}
	if why := encodingProblem(lang, src); why != "" {
		return nil, []Warning{{File: rel, Message: "skipped: " + why, Unread: true}}
	}
	fr := extractFile(lang, src)
	var warns []Warning
	for _, se := range fr.Errors {
		warns = append(warns, Warning{File: rel, Line: se.Line, Message: "syntax error: " + se.Message, Unread: se.Stop})
	}
	r := rs.byLang[lang]
	out := make([]Record, 0, len(fr.Sites))
	for _, s := range fr.Sites {
		rec := Record{
			File: rel, Line: s.Line, Column: s.Column, Lang: lang, Kind: s.Kind, Spec: s.Spec,
			Names: s.Names, Alias: s.Alias, Constraint: fr.Constraint, TypeChecking: s.TypeChecking,
		}
		if r != nil {
			rec.Resolution = r.resolve(rel, s)
		} else {
			rec.Resolution = Resolution{Kind: Unresolved, Reason: "no resolver for " + string(lang)}
		}
		out = append(out, rec)
	}
	return out, warns
}
