package imports

import (
	"bytes"
	"strings"
)

// typingModules are the modules whose TYPE_CHECKING constant is false at
// run time and true only for a type checker.
var typingModules = map[string]bool{"typing": true, "typing_extensions": true}

// trustTypeChecking clears TypeChecking on the sites of every
// `if TYPE_CHECKING:` / `if X.TYPE_CHECKING:` block whose name the file
// does not provably take from typing. import-linter's
// exclude_type_checking_imports drops those imports from the rules, and
// a file that says `TYPE_CHECKING = True` (or imports the name from
// anywhere else, or rebinds `typing`) runs them, so trusting the
// spelling alone would let the agent hide a forbidden import.
//
// quals maps a marked site's index to its block's qualifier ("" for the
// bare name). The check is deliberately conservative, since a wrongly
// kept import only costs a finding while a wrongly dropped one hides
// code that runs:
//   - the bare name is trusted only when every import binding it is
//     `from typing|typing_extensions import TYPE_CHECKING`, there is at
//     least one, and every other occurrence reads it in a condition:
//     after `if elif not and or while assert return`, before `:` (not
//     `:=`), `)`, `;`, `else`, `and`, `or` or the end of the line;
//   - X is trusted only when every import binding X is `import typing`
//     or `import typing[_extensions] as X`, X is otherwise only ever
//     followed by `.`, and every `X.TYPE_CHECKING` is such a read;
//   - no star import may exist (it can bind either name), and no string
//     may contain TYPE_CHECKING (`globals()["TYPE_CHECKING"] = True`).
//
// It re-reads the file only when a block was found, so the common file
// costs nothing more.
func trustTypeChecking(src []byte, sites []Site, quals map[int]string) {
	const tc = "TYPE_CHECKING"
	names := map[string]bool{tc: true}
	for _, q := range quals {
		if q != "" {
			names[q] = true
		}
	}
	good := make(map[string]bool) // bound by a typing import
	bad := make(map[string]bool)  // bound otherwise, or used otherwise
	for _, s := range sites {
		var name string
		var typingBinding bool
		switch s.Kind {
		case KindImport:
			top, _, _ := strings.Cut(s.Spec, ".")
			name = top
			if s.Alias != "" {
				name = s.Alias
				top = s.Spec
			}
			typingBinding = typingModules[top] && name != tc
		case KindFrom:
			if len(s.Names) == 1 && s.Names[0] == "*" {
				bad[tc] = true
				for n := range names {
					bad[n] = true
				}
				continue
			}
			name = s.Names[0]
			if s.Alias != "" {
				name = s.Alias
			}
			typingBinding = name == tc && s.Names[0] == tc && typingModules[s.Spec]
		default:
			continue
		}
		if names[name] {
			if typingBinding {
				good[name] = true
			} else {
				bad[name] = true
			}
		}
	}

	// vtok is a token and, for an op, whether '=' directly follows it
	// (so ':' is really ':=').
	type vtok struct {
		pyTok
		eq bool
	}
	isName := func(t vtok, s string) bool { return t.kind == pyName && string(t.text) == s }
	isOp := func(t vtok, c byte) bool { return t.kind == pyOp && t.text[0] == c }
	readBefore := func(t vtok) bool {
		if t.kind != pyName {
			return false
		}
		switch string(t.text) {
		case "if", "elif", "not", "and", "or", "while", "assert", "return":
			return true
		}
		return false
	}
	readAfter := func(t vtok) bool {
		switch {
		case t.kind == pyNewline || t.kind == pyEOF:
			return true
		case t.kind == pyOp:
			return t.text[0] == ':' && !t.eq || t.text[0] == ')' || t.text[0] == ';'
		}
		return isName(t, "else") || isName(t, "and") || isName(t, "or")
	}

	lx := newPyLexer(src)
	// win holds the last five tokens: win[3] is the one judged, win[4]
	// the one after it, and for `A.TYPE_CHECKING` win[1] is A and win[0]
	// what precedes it.
	var win [5]vtok
	inImport, strTC := false, false
	for {
		t := lx.next()
		v := vtok{pyTok: t}
		if t.kind == pyOp && lx.i < len(src) && src[lx.i] == '=' {
			v.eq = true
		}
		// A string may hold the name (globals()["TYPE_CHECKING"]), or an
		// f-string field a walrus binding it, spelled in any NFKC form.
		if t.kind == pyString && bytes.Contains(pyFoldName(t.text), []byte(tc)) {
			strTC = true
		}
		copy(win[:4], win[1:])
		win[4] = v
		cur, prev, next := win[3], win[2], win[4]
		// An import statement's bindings are judged from its sites;
		// `from` starts one only at the start of a statement (elsewhere
		// it is `yield from` or `raise ... from`).
		switch {
		case isName(cur, "import"):
			inImport = true
		case isName(cur, "from") && (prev.kind == pyNewline || prev.text == nil || isOp(prev, ';') || isOp(prev, ':')):
			inImport = true
		case inImport && (cur.kind == pyNewline || isOp(cur, ';') && lx.depth == 0):
			inImport = false
		case inImport || cur.kind != pyName:
		case string(cur.text) == tc && isOp(prev, '.'):
			if owner := win[1]; owner.kind == pyName && names[string(owner.text)] {
				if !readBefore(win[0]) || !readAfter(next) {
					bad[string(owner.text)] = true
				}
			}
		case string(cur.text) == tc:
			if !readBefore(prev) || !readAfter(next) {
				bad[tc] = true
			}
		case names[string(cur.text)]:
			if !isOp(next, '.') {
				bad[string(cur.text)] = true
			}
		}
		if t.kind == pyEOF {
			break
		}
	}
	for i, q := range quals {
		name := q
		if q == "" {
			name = tc
		}
		if !good[name] || bad[name] || strTC {
			sites[i].TypeChecking = false
		}
	}
}
