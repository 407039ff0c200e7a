package compile

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/mangle/ast"
)

// QuoteString spells s as a Mangle string literal that parses back to
// exactly s. Mangle accepts only a few escapes (\n \t \" \' \\ \xhh for
// ASCII, \u{hhhh} with lower-case hex), turns a raw CR into LF and rejects
// \x above 0x7f, so everything outside printable ASCII is escaped
// explicitly. Envelope strings are attacker-controlled: nothing in them may
// end the literal early.
func QuoteString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			// An invalid byte decodes as U+FFFD; the loaders only hand
			// over valid UTF-8, so this loses nothing in practice.
			fmt.Fprintf(&b, `\u{%04x}`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FormatTerm spells a constant as Mangle source.
func FormatTerm(t ast.BaseTerm) string {
	c, ok := t.(ast.Constant)
	if !ok {
		return t.String()
	}
	switch c.Type {
	case ast.StringType:
		return QuoteString(c.Symbol)
	case ast.NumberType:
		return strconv.FormatInt(c.NumValue, 10)
	}
	return c.String()
}

// FormatFact spells a ground atom as a Mangle fact, with its final period.
func FormatFact(a ast.Atom) string {
	var b strings.Builder
	b.WriteString(a.Predicate.Symbol)
	b.WriteByte('(')
	for i, arg := range a.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(FormatTerm(arg))
	}
	b.WriteString(").")
	return b.String()
}

func str(s string) ast.Constant { return ast.String(s) }
func num(n int64) ast.Constant  { return ast.Number(n) }

func name(n string) ast.Constant {
	c, err := ast.Name(n)
	if err != nil {
		// Names come only from this package's own constants.
		panic(fmt.Sprintf("compile: bad Mangle name %q: %v", n, err))
	}
	return c
}

func atom(pred string, args ...ast.BaseTerm) ast.Atom {
	return ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args}
}
