package datalog

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/mangle/ast"
	"github.com/google/mangle/parse"
)

// parseFactString parses `p(<literal>).` with Mangle's own parser and returns
// the string constant it holds.
func parseFactString(t testing.TB, literal string) (string, bool) {
	unit, err := parse.Unit(strings.NewReader("p(" + literal + ")."))
	if err != nil || len(unit.Clauses) != 1 {
		return "", false
	}
	c, ok := unit.Clauses[0].Head.Args[0].(ast.Constant)
	if !ok || c.Type != ast.StringType {
		return "", false
	}
	return c.Symbol, true
}

func TestQuoteStringRoundTrip(t *testing.T) {
	tests := []string{
		"", "plain", `quote " inside`, `back\slash`, "new\nline", "tab\t", "cr\r", "nul\x00byte",
		"del\x7f", "héllo wörld", "emoji 😀", "ends with backslash \\", `"). evil(1). p("`,
		"# not a comment", "\u2028 line separator", "\U0010ffff",
	}
	for _, s := range tests {
		q := QuoteString(s)
		got, ok := parseFactString(t, q)
		if !ok {
			t.Errorf("QuoteString(%q) = %s does not parse as one string fact", s, q)
			continue
		}
		if got != s {
			t.Errorf("round trip of %q through %s gave %q", s, q, got)
		}
	}
}

// FuzzQuoteString proves that no string an envelope can carry changes the
// meaning of the written program: it always parses back as one fact holding
// exactly that string.
func FuzzQuoteString(f *testing.F) {
	for _, s := range []string{"", "a", `"`, `\`, "\n", "\r\n", "\x00", "é", `"). q(1). p("`, "\\u{41}", "\\x41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			// The loaders only produce valid UTF-8 (JSON text).
			return
		}
		q := QuoteString(s)
		got, ok := parseFactString(t, q)
		if !ok {
			t.Fatalf("QuoteString(%q) = %s does not parse as one string fact", s, q)
		}
		if got != s {
			t.Fatalf("round trip of %q through %s gave %q", s, q, got)
		}
	})
}

func TestFormatFact(t *testing.T) {
	slash, err := ast.Name("/string")
	if err != nil {
		t.Fatal(err)
	}
	got := FormatFact(ast.NewAtom("elem", ast.String("caps"), slash, ast.String("a\"b"), ast.Number(-3)))
	want := `elem("caps", /string, "a\"b", -3).`
	if got != want {
		t.Errorf("FormatFact = %s, want %s", got, want)
	}
}
