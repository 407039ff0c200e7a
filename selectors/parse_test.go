package selectors

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func key(k string, col int) Step { return Step{Kind: Key, Key: k, Col: col} }
func idx(i, col int) Step        { return Step{Kind: Index, Index: i, Col: col} }
func wild(col int) Step          { return Step{Kind: Wildcard, Col: col} }

func TestParseValid(t *testing.T) {
	tests := []struct {
		in        string
		want      []Step
		canonical string
		wildcard  bool
	}{
		{"a", []Step{key("a", 1)}, "a", false},
		{"a.b", []Step{key("a", 1), key("b", 3)}, "a.b", false},
		{"a[0]", []Step{key("a", 1), idx(0, 2)}, "a[0]", false},
		{"a[*]", []Step{key("a", 1), wild(2)}, "a[*]", true},
		{"items[*].tags[0]", []Step{key("items", 1), wild(6), key("tags", 10), idx(0, 14)}, "items[*].tags[0]", true},
		{"a.b[2][*].c", []Step{key("a", 1), key("b", 3), idx(2, 4), wild(7), key("c", 11)}, "a.b[2][*].c", true},
		{`a["odd.key"]`, []Step{key("a", 1), key("odd.key", 2)}, `a["odd.key"]`, false},
		{`["first key"].b`, []Step{key("first key", 1), key("b", 15)}, `["first key"].b`, false},
		{`[""]`, []Step{key("", 1)}, `[""]`, false},
		{`a[""].b`, []Step{key("a", 1), key("", 2), key("b", 7)}, `a[""].b`, false},
		// Quoting a key that needs none is allowed; Canonical drops it.
		{`["a"]["b"]`, []Step{key("a", 1), key("b", 6)}, "a.b", false},
		{`a["x\"y\\z"]`, []Step{key("a", 1), key(`x"y\z`, 2)}, `a["x\"y\\z"]`, false},
		{`a["\/\b\f\n\r\t"]`, []Step{key("a", 1), key("/\b\f\n\r\t", 2)}, `a["/\b\f\n\r\t"]`, false},
		{`a["\u00e9\ud83d\ude00"]`, []Step{key("a", 1), key("é😀", 2)}, "a.é😀", false},
		{`a["\u0000"]`, []Step{key("a", 1), key("\x00", 2)}, `a["\u0000"]`, false},
		{"é.ü[1]", []Step{key("é", 1), key("ü", 3), idx(1, 4)}, "é.ü[1]", false},
		// Columns count runes, not bytes.
		{"日本.語[*]", []Step{key("日本", 1), key("語", 4), wild(5)}, "日本.語[*]", true},
		{"a.0", []Step{key("a", 1), key("0", 3)}, "a.0", false},
		{"a[0][1][2]", []Step{key("a", 1), idx(0, 2), idx(1, 5), idx(2, 8)}, "a[0][1][2]", false},
		{"[0]", []Step{idx(0, 1)}, "[0]", false},
		{"[*]", []Step{wild(1)}, "[*]", true},
		{"a[2147483647]", []Step{key("a", 1), idx(2147483647, 2)}, "a[2147483647]", false},
		{"a[10]", []Step{key("a", 1), idx(10, 2)}, "a[10]", false},
		{"*.?#@|\\", []Step{key("*", 1), key("?#@|\\", 3)}, "*.?#@|\\", false},
		// A bare leading facts key before other steps is the prefix, dropped
		// whatever the envelope holds; quoted, it is a key named facts.
		{"facts.a", []Step{key("a", 7)}, "a", false},
		{"facts[0]", []Step{idx(0, 6)}, "[0]", false},
		{"facts.facts.a", []Step{key("facts", 7), key("a", 13)}, `["facts"].a`, false},
		{`["facts"].a`, []Step{key("facts", 1), key("a", 11)}, `["facts"].a`, false},
		{`["facts"]`, []Step{key("facts", 1)}, "facts", false},
		{"facts", []Step{key("facts", 1)}, "facts", false},
		{"a-b_c:d/e", []Step{key("a-b_c:d/e", 1)}, "a-b_c:d/e", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sel, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, sel.Steps()); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
			if got := sel.String(); got != tt.in {
				t.Errorf("String() = %q, want %q", got, tt.in)
			}
			if got := sel.Canonical(); got != tt.canonical {
				t.Errorf("Canonical() = %q, want %q", got, tt.canonical)
			}
			if got := sel.HasWildcard(); got != tt.wildcard {
				t.Errorf("HasWildcard() = %v, want %v", got, tt.wildcard)
			}
			again, err := Parse(sel.Canonical())
			if err != nil {
				t.Fatalf("Parse(Canonical() = %q): %v", sel.Canonical(), err)
			}
			if !sel.Equal(again) {
				t.Errorf("Parse(Canonical()) steps = %+v, want %+v", again.Steps(), sel.Steps())
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in  string
		col int
		msg string // a substring the message must contain
	}{
		{"", 1, "empty selector"},
		{"a..b", 3, `empty key between dots; remove one '.', or write [""]`},
		{"a.", 2, "selector ends with '.'"},
		{".a", 1, "selector starts with '.'; remove it, selectors are relative to the facts mapping (write a)"},
		{"..a", 1, "(write a)"},
		{".", 1, "selector starts with '.'"},
		{"a[", 2, "unclosed '['"},
		{"a[0", 2, "unclosed '['"},
		{"a[*", 2, "unclosed '['"},
		{`a["b"`, 2, "unclosed '['"},
		{`a["b`, 3, "unclosed quote"},
		{`a["b\"]`, 3, "unclosed quote"},
		{`a["b\`, 3, "unclosed quote"},
		{"a[01]", 3, "index 01 has a leading zero; write [1]"},
		{"a[00]", 3, "write [0]"},
		{"a[-1]", 3, "negative indexes are not supported"},
		{"a[+1]", 3, "an index takes no sign; write [1]"},
		{"a[2147483648]", 3, "index 2147483648 is too large"},
		{"a[99999999999999999999999]", 3, "too large"},
		{"a[1x]", 4, "expected ']' but found 'x'; write [1]"},
		{"a[*x]", 4, "expected ']' but found 'x'"},
		{`a["x" ]`, 6, "expected ']' but found ' '"},
		{"a[]", 2, "empty brackets; write [n], [*] or [\"key\"]"},
		{"a[b]", 3, `a key inside brackets must be quoted; write ["b"]`},
		{"a[ 0]", 3, "whitespace is not allowed inside brackets"},
		{"a[.]", 3, "unexpected '.' after '['"},
		{`a"b"`, 2, `'"' cannot appear in a bare key; write ["a\"b\""]`},
		{`"a".b`, 1, `a quoted key must be in brackets; write ["a"].b`},
		{`a."b"`, 3, `a quoted key must be in brackets; write a["b"]`},
		{`a."b`, 3, `'"' cannot appear in a bare key`},
		{"a b", 2, `whitespace cannot appear in a bare key; write ["a b"]`},
		{"first key.b", 6, `write ["first key"].b`},
		{"a.first key", 8, `write a["first key"]`},
		{"a\tb", 2, `write ["a\tb"]`},
		{" a", 1, "unexpected whitespace; remove it"},
		{"a ", 2, "trailing whitespace; remove it"},
		{"a. b", 3, "unexpected whitespace"},
		{"a[0]b", 5, `expected '.' or '[' after "a[0]"; write a[0].b`},
		{"a[0] ", 5, "trailing whitespace"},
		{"a]", 2, "unmatched ']'"},
		{"]", 1, "unmatched ']'"},
		{"a.]", 3, "unmatched ']'"},
		{"a.[0]", 2, "'.' cannot come before '['; write a[0]"},
		{"a\x01", 2, "control character U+0001 is not allowed here"},
		{`a["\q"]`, 4, `unknown escape \q`},
		{`a["\u00g0"]`, 4, `\u must be followed by four hex digits`},
		{`a["\u00"]`, 4, `\u must be followed by four hex digits`},
		{`a["\ud800"]`, 4, "half of a surrogate pair"},
		{`a["\ud800\u0041"]`, 4, "half of a surrogate pair"},
		{`a["\udc00"]`, 4, "second half of a surrogate pair"},
		{"a[\"\t\"]", 4, "control character U+0009 inside quotes; write it as \\u0009"},
		{"日本 語", 3, "whitespace cannot appear"},
		{"a\xffb", 2, "not valid UTF-8"},
		{"é\xff", 2, "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sel, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %q, want an error", tt.in, sel.Canonical())
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T %v, want *SyntaxError", tt.in, err, err)
			}
			if se.Col != tt.col {
				t.Errorf("Parse(%q) column = %d, want %d (%v)", tt.in, se.Col, tt.col, err)
			}
			if !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("Parse(%q) message %q does not contain %q", tt.in, se.Msg, tt.msg)
			}
			if want := fmt.Sprintf("column %d: ", tt.col); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Error() = %q, want prefix %q", err.Error(), want)
			}
		})
	}
}

func TestStepsIsACopy(t *testing.T) {
	sel := MustParse("a.b")
	steps := sel.Steps()
	steps[0].Key = "changed"
	if got := sel.Steps()[0].Key; got != "a" {
		t.Errorf("mutating Steps() changed the selector: first key = %q", got)
	}
	if got := sel.Canonical(); got != "a.b" {
		t.Errorf("Canonical() = %q after mutating a copy", got)
	}
}

func TestMustParsePanicsOnBadSelector(t *testing.T) {
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "column 3") {
			t.Errorf("recover() = %v, want a panic mentioning column 3", r)
		}
	}()
	MustParse("a..")
}

func TestCanonicalQuotesWhatBareKeysCannotHold(t *testing.T) {
	tests := []struct {
		steps []Step
		want  string
	}{
		{[]Step{key("a b", 0)}, `["a b"]`},
		{[]Step{key("a", 0), key("x.y", 0)}, `a["x.y"]`},
		{[]Step{key("a", 0), key("[0]", 0)}, `a["[0]"]`},
		{[]Step{key("\u0085", 0)}, `["\u0085"]`},
		{[]Step{key("\u00a0", 0)}, "[\"\u00a0\"]"},
		{[]Step{key("\x7f", 0)}, `["\u007f"]`},
		{[]Step{key("0", 0), idx(3, 0), wild(0), key("b", 0)}, `0[3][*].b`},
	}
	for _, tt := range tests {
		sel := &Selector{steps: tt.steps}
		got := sel.Canonical()
		if got != tt.want {
			t.Errorf("Canonical(%+v) = %q, want %q", tt.steps, got, tt.want)
			continue
		}
		back, err := Parse(got)
		if err != nil {
			t.Errorf("Parse(%q): %v", got, err)
			continue
		}
		if !sel.Equal(back) {
			t.Errorf("Parse(%q) = %+v, want %+v", got, back.Steps(), tt.steps)
		}
	}
}
