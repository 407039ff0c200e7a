package datalog

import (
	"fmt"
	"strconv"
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
	return string(appendQuoted(make([]byte, 0, len(s)+2), s))
}

func appendQuoted(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\t':
			b = append(b, '\\', 't')
		case r >= 0x20 && r < 0x7f:
			b = append(b, byte(r))
		case r < 0x80:
			b = append(b, '\\', 'x', hex[r>>4], hex[r&0xf])
		default:
			// An invalid byte decodes as U+FFFD; the loaders only hand
			// over valid UTF-8, so this loses nothing in practice.
			b = append(b, '\\', 'u', '{')
			b = fmt.Appendf(b, "%04x", r)
			b = append(b, '}')
		}
	}
	return append(b, '"')
}

// appendTerm spells a constant as Mangle source.
func appendTerm(b []byte, t ast.BaseTerm) []byte {
	c, ok := t.(ast.Constant)
	if !ok {
		return append(b, t.String()...)
	}
	switch c.Type {
	case ast.StringType:
		return appendQuoted(b, c.Symbol)
	case ast.NumberType:
		return strconv.AppendInt(b, c.NumValue, 10)
	}
	return append(b, c.String()...)
}

// FormatFact spells a ground atom as a Mangle fact, with its final period.
func FormatFact(a ast.Atom) string {
	return string(AppendFact(nil, a))
}

// AppendFact appends FormatFact(a) to b, for writers of large programs.
func AppendFact(b []byte, a ast.Atom) []byte {
	b = append(b, a.Predicate.Symbol...)
	b = append(b, '(')
	for i, arg := range a.Args {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendTerm(b, arg)
	}
	return append(b, ")."...)
}
