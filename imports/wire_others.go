package imports

// extractOther dispatches the languages whose extractors live in js*.go and
// rust*.go. Rust is wired once its extractor lands.
func extractOther(lang Lang, src []byte) fileResult {
	switch lang {
	case JavaScript, TypeScript:
		sites, errs := extractJS(src, lang == TypeScript)
		return fileResult{Sites: sites, Errors: errs}
	}
	return fileResult{Errors: []SyntaxError{{Message: "no extractor for " + string(lang) + " in this build"}}}
}

// otherResolvers builds the resolvers for languages whose code lives in
// js*.go and rust*.go.
func otherResolvers(repo *Repo) (map[Lang]resolver, []Warning) {
	js, warns := newJSResolver(repo)
	return map[Lang]resolver{JavaScript: js, TypeScript: js}, warns
}
