package imports

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vouch-dev/vouch/output"
)

// Formats lists the output formats Render writes.
func Formats() []string { return []string{"text", "json", "dl"} }

// Render writes res in format: text (WriteText), json (WriteJSON) or dl
// (WriteDatalog).
func Render(w io.Writer, format string, res *Result, p output.Painter) error {
	switch format {
	case "json":
		return WriteJSON(w, res)
	case "dl":
		return WriteDatalog(w, res)
	case "text":
		return WriteText(w, res, p)
	}
	return fmt.Errorf("unknown format %q", format)
}

// WriteText writes one line per import:
//
//	file:line:col lang kind spec -> resolution target
//
// where target is the reason for unresolved imports. Warnings are not
// part of text output; callers print them to stderr.
// p colours an unresolved import.
func WriteText(w io.Writer, res *Result, p output.Painter) error {
	bw := bufio.NewWriter(w)
	for _, r := range res.Records {
		target := r.Resolution.Target
		kind := string(r.Resolution.Kind)
		if r.Resolution.Kind == Unresolved {
			target = "(" + r.Resolution.Reason + ")"
			kind = p.Fail(kind)
		}
		fmt.Fprintf(bw, "%s:%d:%d %s %s %s -> %s %s\n", r.File, r.Line, r.Column, r.Lang, r.Kind, r.Spec, kind, target)
	}
	return bw.Flush()
}

// WriteJSON writes {"records": [...], "warnings": [...]}, indented, with
// the field names of Record and Warning; both arrays are always present.
// Records are encoded one at a time so output of any size streams in
// constant memory.
func WriteJSON(w io.Writer, res *Result) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n  \"records\": ")
	if err := writeJSONArray(bw, res.Records); err != nil {
		return err
	}
	bw.WriteString(",\n  \"warnings\": ")
	if err := writeJSONArray(bw, res.Warnings); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

func writeJSONArray[T any](bw *bufio.Writer, items []T) error {
	if len(items) == 0 {
		bw.WriteString("[]")
		return nil
	}
	bw.WriteString("[")
	for i := range items {
		data, err := json.MarshalIndent(items[i], "    ", "  ")
		if err != nil {
			return fmt.Errorf("writing JSON: %w", err)
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		bw.Write(data)
	}
	bw.WriteString("\n  ]")
	return nil
}

// datalogDecls declares the relations WriteDatalog emits; docs/imports.md
// describes them for rule authors. (File, Line, Col) identifies an import
// site across relations.
const datalogDecls = `Decl import_site(File, Line, Col, Lang, Kind, Spec)
  descr [doc("An import written at File:Line:Col (1-based, bytes). Lang is /go, /python, /js, /ts or /rust; Kind is the syntactic form; Spec the path or module as written.")]
  bound [/string, /number, /number, /name, /name, /string].
Decl import_resolves(File, Line, Col, Resolution, Target)
  descr [doc("Where the import at File:Line:Col points. Resolution is /internal (Target: repository-relative file or directory), /external (package or module), /stdlib (module or package) or /unresolved (Target empty; see import_unresolved).")]
  bound [/string, /number, /number, /name, /string].
Decl import_unresolved(File, Line, Col, Reason)
  descr [doc("Why the import at File:Line:Col could not be resolved.")]
  bound [/string, /number, /number, /string].
Decl import_name(File, Line, Col, Name)
  descr [doc("A name the import at File:Line:Col brings in (Python from-imports, JS named imports, Rust use leaves).")]
  bound [/string, /number, /number, /string].
Decl import_alias(File, Line, Col, Alias)
  descr [doc("The local name the import at File:Line:Col is bound to, when renamed (Go alias, _ or .; Python as).")]
  bound [/string, /number, /number, /string].
Decl file_constraint(File, Constraint)
  descr [doc("The Go build constraint (//go:build expression) of File.")]
  bound [/string, /string].
Decl import_warning(File, Line, Message)
  descr [doc("A problem met while extracting File (Line 0 when not tied to a line): syntax errors, skipped files.")]
  bound [/string, /number, /string].
`

// WriteDatalog writes the records and warnings as Mangle facts preceded by
// their declarations.
func WriteDatalog(w io.Writer, res *Result) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(datalogDecls)
	constraints := map[string]bool{}
	for _, r := range res.Records {
		pos := dlString(r.File) + ", " + strconv.Itoa(r.Line) + ", " + strconv.Itoa(r.Column)
		fmt.Fprintf(bw, "import_site(%s, %s, %s, %s).\n", pos, dlName(string(r.Lang)), dlName(string(r.Kind)), dlString(r.Spec))
		fmt.Fprintf(bw, "import_resolves(%s, %s, %s).\n", pos, dlName(string(r.Resolution.Kind)), dlString(r.Resolution.Target))
		if r.Resolution.Kind == Unresolved {
			fmt.Fprintf(bw, "import_unresolved(%s, %s).\n", pos, dlString(r.Resolution.Reason))
		}
		for _, n := range r.Names {
			fmt.Fprintf(bw, "import_name(%s, %s).\n", pos, dlString(n))
		}
		if r.Alias != "" {
			fmt.Fprintf(bw, "import_alias(%s, %s).\n", pos, dlString(r.Alias))
		}
		if r.Constraint != "" && !constraints[r.File] {
			constraints[r.File] = true
			fmt.Fprintf(bw, "file_constraint(%s, %s).\n", dlString(r.File), dlString(r.Constraint))
		}
	}
	for _, wn := range res.Warnings {
		fmt.Fprintf(bw, "import_warning(%s, %d, %s).\n", dlString(wn.File), wn.Line, dlString(wn.Message))
	}
	return bw.Flush()
}

// dlName renders an enum value as a Mangle name constant. Values are
// vouch's own identifiers, but anything outside Mangle's name alphabet is
// percent-encoded so the output always parses.
func dlName(s string) string {
	var b strings.Builder
	b.WriteByte('/')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	return b.String()
}

// dlString quotes s as a Mangle string. Mangle's escapes are \n \t \" \'
// \\ \xhh (ASCII only) and \u{hhhh}, with lowercase hex; every byte that is
// not printable ASCII is escaped, and invalid UTF-8 becomes U+FFFD because
// a Mangle string cannot hold it.
func dlString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
			i++
		case c == '\n':
			b.WriteString(`\n`)
			i++
		case c == '\t':
			b.WriteString(`\t`)
			i++
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
			i++
		case c < utf8.RuneSelf:
			fmt.Fprintf(&b, `\x%02x`, c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			fmt.Fprintf(&b, `\u{%04x}`, r)
			i += size
		}
	}
	b.WriteByte('"')
	return b.String()
}

// WriteWarnings prints each warning as file:line: warning: message (the
// form editors link), or file: warning: message when no line is known.
func WriteWarnings(w io.Writer, warns []Warning) error {
	var b strings.Builder
	for _, wn := range warns {
		if wn.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: warning: %s\n", wn.File, wn.Line, wn.Message)
		} else {
			fmt.Fprintf(&b, "%s: warning: %s\n", wn.File, wn.Message)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
