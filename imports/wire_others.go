package imports

// extractOther dispatches the languages whose extractors live in js*.go and
// rust*.go, keeping this package's orchestration in one place while their
// owners evolve the parsers independently.
func extractOther(lang Lang, src []byte) fileResult {
	var sites []Site
	var errs []SyntaxError
	switch lang {
	case JavaScript, TypeScript:
		sites, errs = extractJS(src, lang == TypeScript)
	case Rust:
		sites, errs = extractRust(src)
	default:
		// LangOf never yields another language; this guards future
		// additions that forget to wire an extractor.
		errs = []SyntaxError{{Message: "no extractor for language " + string(lang)}}
	}
	return fileResult{Sites: sites, Errors: errs}
}

// otherResolvers builds the resolvers for languages whose code lives in
// js*.go and rust*.go. JavaScript and TypeScript share one resolver because
// they import each other's files.
func otherResolvers(repo *Repo, want map[Lang]bool) (map[Lang]resolver, []Warning) {
	out := map[Lang]resolver{}
	var warns []Warning
	if want[JavaScript] || want[TypeScript] {
		js, w := newJSResolver(repo)
		out[JavaScript], out[TypeScript] = js, js
		warns = append(warns, w...)
	}
	if want[Rust] {
		rs, w := newRustResolver(repo)
		out[Rust] = rs
		warns = append(warns, w...)
	}
	return out, warns
}
