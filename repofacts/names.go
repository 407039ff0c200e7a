package repofacts

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// badNames refuses changed paths whose names are not valid UTF-8. git
// and vouch keep a name as its bytes, but the document reaches rules as
// JSON, where every invalid byte becomes U+FFFD: src/\377.js and
// src/\376.js would both read as "src/\uFFFD.js", so one declared name
// would cover any number of undeclared files, and a file really named
// with U+FFFD would stand in for them in file_exists. No encoding of such
// a name survives into the strings rules compare, so vouch stops (exit 2)
// rather than let rules see a collapsed name. The paths are printed
// quoted (%q), the only form that tells them apart.
func badNames(cs []change) error {
	var bad []string
	for _, c := range cs {
		for _, p := range []string{c.Path, c.OldPath} {
			if !utf8.ValidString(p) {
				bad = append(bad, fmt.Sprintf("%q", p))
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return &Error{Msg: "repository facts: these changed paths are not valid UTF-8, so rules, which read paths as JSON text, could not tell them apart; rename them:\n  " + strings.Join(slices.Compact(bad), "\n  ")}
}

// badStrings is the check badNames makes, over every string of the
// finished document: an import's file or resolved target, a dependency's
// source or name, a removed export. These come from changed files'
// contents and the names of unchanged files, so one can still carry
// bytes that JSON would turn into U+FFFD. Each is named by where it is
// in the document.
func badStrings(d *Doc) error {
	var bad []string
	var walk func(where string, v reflect.Value)
	walk = func(where string, v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			if s := v.String(); !utf8.ValidString(s) {
				bad = append(bad, fmt.Sprintf("%s %q", where, s))
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(fmt.Sprintf("%s[%d]", where, i), v.Index(i))
			}
		case reflect.Struct:
			t := v.Type()
			for i := range t.NumField() {
				f := t.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if !f.IsExported() || name == "-" {
					continue // not in the JSON rules read
				}
				if f.Anonymous || name == "" {
					name = where
				} else if where != "" {
					name = where + "." + name
				}
				walk(name, v.Field(i))
			}
		}
	}
	walk("", reflect.ValueOf(d).Elem())
	if len(bad) == 0 {
		return nil
	}
	return &Error{Msg: "repository facts: these values are not valid UTF-8, so rules, which read them as JSON text, would see them changed; rename the files or fix the text they come from:\n  " + strings.Join(bad, "\n  ")}
}

// ShownPath is p as a message of vouch prints it (a refusal, the gate's
// stale-envelope notice): as it is when every
// rune is printable, else quoted as Go quotes it (strconv.Quote). A name
// may hold a newline or a terminal escape, and printed raw it would
// forge lines of vouch's output (a "PASS" line, a refusal that names
// another file); a name that begins with a double quote is quoted too,
// so no raw name reads as a quoted one.
func ShownPath(p string) string {
	if strings.HasPrefix(p, `"`) || !utf8.ValidString(p) {
		return strconv.Quote(p)
	}
	for _, r := range p {
		if !strconv.IsPrint(r) {
			return strconv.Quote(p)
		}
	}
	return p
}

// ShownText is s, a message that may embed names (a finding's text, a
// module name), as text output prints it: as it is when every rune is
// printable, else quoted as Go quotes it, for the reason ShownPath
// quotes names; unlike ShownPath it leaves a leading double quote alone,
// since messages are not read as names.
func ShownText(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
