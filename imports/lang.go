package imports

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/vouch-dev/vouch/suggest"
)

// Langs lists every language vouch extracts, in the order used for flags
// and documentation. It returns a fresh slice so callers may modify it.
func Langs() []Lang { return []Lang{Go, Python, JavaScript, TypeScript, Rust} }

// ParseLang maps a --lang value to a Lang; ok is false for unknown names.
func ParseLang(s string) (Lang, bool) {
	for _, l := range Langs() {
		if string(l) == s {
			return l, true
		}
	}
	return "", false
}

// ParseLangs reads --lang values, each a comma-separated list of names;
// blanks are skipped. An unknown name is an error with a did-you-mean and
// the names to choose from. None given returns nil: every language.
func ParseLangs(values []string) ([]Lang, error) {
	var known []string
	for _, l := range Langs() {
		known = append(known, string(l))
	}
	var out []Lang
	for _, v := range values {
		for _, name := range strings.Split(v, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			l, ok := ParseLang(name)
			if !ok {
				return nil, fmt.Errorf("unknown --lang %q%s; want one of %s", name, suggest.Hint(name, known), strings.Join(known, ", "))
			}
			out = append(out, l)
		}
	}
	return out, nil
}

// LangOf returns the language a file is written in, judged by its
// extension, and false for files vouch does not extract from.
func LangOf(file string) (Lang, bool) {
	switch strings.ToLower(path.Ext(file)) {
	case ".go":
		return Go, true
	case ".py", ".pyi":
		return Python, true
	case ".js", ".jsx", ".mjs", ".cjs":
		return JavaScript, true
	case ".ts", ".tsx", ".mts", ".cts":
		return TypeScript, true
	case ".rs":
		return Rust, true
	}
	return "", false
}

// fileResult is everything extraction learns from one file's content; it
// depends only on the bytes and the language, which is what makes it safe
// to cache by content hash.
type fileResult struct {
	Sites      []Site
	Constraint string
	Errors     []SyntaxError
}

// encodingProblem says why src, written in lang, cannot be read ("" when
// it can): Python follows its coding declaration (pyEncodingProblem);
// every other language is read as UTF-8.
func encodingProblem(lang Lang, src []byte) string {
	if lang == Python {
		return pyEncodingProblem(src)
	}
	if !utf8.Valid(src) {
		return "not valid UTF-8"
	}
	return ""
}

// extractFile runs the extractor for lang over src.
func extractFile(lang Lang, src []byte) fileResult {
	switch lang {
	case Go:
		sites, c, errs := extractGoFile(src)
		return fileResult{Sites: sites, Constraint: c, Errors: errs}
	case Python:
		sites, errs := extractPython(src)
		if pyBytesEncoded(src) {
			// Names are records' text: UTF-8, whatever the file's bytes.
			for i := range sites {
				s := &sites[i]
				s.Spec, s.Alias = latin1String(s.Spec), latin1String(s.Alias)
				for j := range s.Names {
					s.Names[j] = latin1String(s.Names[j])
				}
			}
		}
		return fileResult{Sites: sites, Errors: errs}
	}
	return extractOther(lang, src)
}
