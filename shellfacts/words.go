package shellfacts

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/vouch-dev/vouch/canonpath"
	"github.com/vouch-dev/vouch/internal/lazyre"
)

// field is one argument after the shell's expansions, as far as they can
// be done statically.
type field struct {
	s      string // the value, when static
	static bool   // s is exactly what the program receives
	glob   bool   // an unquoted *, ? or [ makes this a pattern; pat holds it
	pat    string // the pattern in filepath.Match syntax (quoted metacharacters escaped)
	raw    string // the word's source text
	// from names the last command of the substitution that makes up the
	// whole word ("curl" for "$(curl x)" or <(curl x)), if it is one.
	from string
	// alt, for a word that is not static, is its value when every
	// ${NAME:-DEFAULT} in it takes its default (a variable Parse does not
	// know may well be unset: ${XDG_CONFIG_HOME:-~/.config}/git/credentials),
	// "" when that is not static either. A path recorded from the word
	// records alt too: one place the command may act on.
	alt string
	// tail, for a word that is not static, is the static text after its
	// last part only known at run time ("/.env" of "$D/.env" and of
	// $(pwd)/.env), "" when there is none or it holds a wildcard: the
	// name the word ends in whatever that part turns out to be.
	tail string
	// whole, for a word that is not static, reports that it stays one
	// word whatever its value: every part only known at run time is in
	// double quotes, none of them can make several ("$@", "${a[@]}"),
	// and nothing outside quotes is a pattern or a brace expansion.
	whole bool
	// inputs are the files the word's command and process
	// substitutions read ("$(cat f)", "$(base64 f)"): their contents
	// may be what the word's value carries (see sendsArgs).
	inputs []string
}

// arg is the field as Command.Args shows it.
func (f field) arg() string {
	if f.static && !f.glob {
		return f.s
	}
	return ""
}

// known reports whether the value is exactly known.
func (f field) known() bool { return f.static && !f.glob }

// piece is one alternative of a word being expanded (brace expansion can
// make several).
type piece struct {
	s, pat []byte // built by appending, so a word of many parts costs linear time
	glob   bool
}

// fields walks the substitutions in word (their commands are recorded one
// level deeper) and expands it into fields.
func (w *walker) fields(word *syntax.Word) []field {
	return w.walkFields(word, false)
}

// walkFields is fields, and with assign assignFields: the substitutions
// are walked (and the files they read kept with the fields), then the
// word is expanded.
func (w *walker) walkFields(word *syntax.Word, assign bool) []field {
	if word == nil {
		return nil
	}
	first := len(w.facts.Commands)
	inputs := w.substsReading(word)
	fs := w.fieldsMode(word, assign)
	if len(fs) == 1 && soleSubst(word) {
		fs[0].from = w.lastNameSince(first, w.depth+1)
	}
	withInputs(fs, w.wordInputs(word, inputs))
	return fs
}

// noteVarInputs records the files whose contents a variable's new value
// may carry; a value that carries none clears them. Bounded as the
// variables are: past 256 names the rest are not followed, which the
// unknown code says.
func (w *walker) noteVarInputs(name string, inputs []string) {
	if name == "" {
		return
	}
	if w.cond > 0 {
		// An assignment that may not run adds what it may carry and
		// takes nothing away.
		if len(inputs) == 0 {
			return
		}
		inputs = slices.Compact(slices.Sorted(slices.Values(slices.Concat(w.varInputs[name], inputs))))
	}
	if len(inputs) == 0 {
		delete(w.varInputs, name)
		return
	}
	if w.varInputs == nil {
		w.varInputs = map[string][]string{}
	}
	if _, ok := w.varInputs[name]; !ok && len(w.varInputs) >= 256 {
		w.unknownCode("more than 256 variables: the rest are not followed")
		return
	}
	w.varInputs[name] = inputs
}

// wordInputs adds to inputs (the files the word's own substitutions read)
// those carried by the variables the word expands.
func (w *walker) wordInputs(word *syntax.Word, inputs []string) []string {
	if len(w.varInputs) == 0 {
		return inputs
	}
	var out []string
	syntax.Walk(word, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil {
			out = append(out, w.varInputs[pe.Param.Value]...)
		}
		return true
	})
	if len(out) == 0 {
		return inputs
	}
	out = append(out, inputs...)
	slices.Sort(out)
	return slices.Compact(out)
}

// substsReading walks the substitutions in word (see substs) and returns
// the files their commands read, sorted: what the word's value may
// carry. The reads are also the command line's, as always; they are
// gathered apart so that one read earlier in the line counts here too.
func (w *walker) substsReading(word *syntax.Word) []string {
	if !hasSubst(word) {
		return nil
	}
	outer := w.reads
	w.reads = map[string]bool{}
	first := len(w.facts.Commands)
	w.substs(word)
	got := w.reads
	w.reads = outer
	for p := range got {
		outer[p] = true
	}
	if summaries(w.facts.Commands[first:]) {
		// $(jq -r .version package.json), $(wc -l < f): a value
		// taken from the files, not their text.
		return nil
	}
	return sortedKeys(got)
}

// summaries reports whether every command is one that prints a value
// computed from its input rather than the input: a count, a checksum, a
// field jq or yq picks (a filter other than "." alone, which prints the
// whole document).
func summaries(cmds []Command) bool {
	if len(cmds) == 0 {
		return false
	}
	for _, c := range cmds {
		switch c.Name {
		case "wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "stat", "du", "file", "basename", "dirname", "realpath", "date":
		case "jq", "yq", "gojq":
			if !pickedField(c.Args) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// pickedField reports whether jq's or yq's arguments hold a filter that
// picks a path (.version, .dependencies.x), not "." or an expression
// that may print more.
func pickedField(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--arg" || a == "--argjson" || a == "--slurpfile" || a == "--rawfile":
			return false // values from elsewhere: not worth following
		case strings.HasPrefix(a, "-"):
			continue
		}
		// The first operand is the filter.
		return pathFilter().MatchString(a)
	}
	return false
}

// pathFilter is a jq path of plain keys: .a, .a.b, .a["b"].
var pathFilter = lazyre.New(`^\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*|\["[^"]*"\])*$`)

// hasSubst reports whether a command or process substitution is anywhere
// in word. Most words are literal text, answered without a walk (whose
// callback would cost an allocation per word on every command line).
func hasSubst(word *syntax.Word) bool {
	literal := true
	for _, p := range word.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			literal = false
		}
	}
	if literal {
		return false
	}
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// withInputs records inputs on every field a word expanded to.
func withInputs(fs []field, inputs []string) {
	if len(inputs) == 0 {
		return
	}
	for i := range fs {
		fs[i].inputs = inputs
	}
}

// soleSubst reports whether the word is nothing but one command or process
// substitution, possibly in double quotes.
func soleSubst(word *syntax.Word) bool {
	parts := word.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	switch parts[0].(type) {
	case *syntax.CmdSubst, *syntax.ProcSubst:
		return true
	}
	return false
}

// fieldsQuiet expands word without walking its substitutions.
func (w *walker) fieldsQuiet(word *syntax.Word) []field {
	return w.fieldsMode(word, false)
}

// assignFields expands the value of an assignment (X=value, export
// X=value): as fields, except that a tilde also expands after each ':'.
func (w *walker) assignFields(word *syntax.Word) []field {
	return w.walkFields(word, true)
}

func (w *walker) fieldsMode(word *syntax.Word, assign bool) []field {
	if word == nil {
		return nil
	}
	raw := w.rawOf(word)
	syntax.SplitBraces(word)
	acc := []piece{{}}
	parts, static := w.tildes(word.Parts, assign)
	if static {
		acc, static = w.expand(parts, false, acc)
	}
	if !static {
		f := field{raw: raw}
		if t, all, glob := staticTail(word.Parts, false); !all && !glob {
			f.tail = t
		}
		f.whole = wholeWord(word.Parts, raw)
		if alt, ok := w.defaultsWord(word); ok {
			if fs := w.fieldsMode(alt, assign); len(fs) == 1 && fs[0].known() {
				f.alt = fs[0].s
			}
		}
		return []field{f}
	}
	out := make([]field, 0, len(acc))
	for _, p := range acc {
		out = append(out, field{s: string(p.s), static: true, glob: p.glob, pat: string(p.pat), raw: raw})
	}
	return out
}

// wholeWord reports whether a word (parts, source raw) expands to
// exactly one field (see field.whole). "$@" and the other expansions
// that make several fields in quotes all hold an @.
func wholeWord(parts []syntax.WordPart, raw string) bool {
	if strings.ContainsRune(raw, '@') {
		return false
	}
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if _, _, g := unescapeLit(p.Value, false); g {
				return false
			}
		case *syntax.SglQuoted, *syntax.DblQuoted:
		default:
			return false
		}
	}
	return true
}

// staticTail returns the static text that ends parts, after the last
// part whose value is only known at run time (a substitution, a
// variable): all reports that there is no such part, glob that the text
// holds an unquoted wildcard, so it is no fixed name.
func staticTail(parts []syntax.WordPart, quoted bool) (tail string, all, glob bool) {
	for i := len(parts) - 1; i >= 0; i-- {
		switch p := parts[i].(type) {
		case *syntax.Lit:
			s, _, g := unescapeLit(p.Value, quoted)
			if g {
				return "", false, true
			}
			tail = s + tail
		case *syntax.SglQuoted:
			s := p.Value
			if p.Dollar {
				s = ansiC(s)
			}
			tail = s + tail
		case *syntax.DblQuoted:
			t, innerAll, g := staticTail(p.Parts, true)
			if g {
				return "", false, true
			}
			tail = t + tail
			if !innerAll {
				return tail, false, false
			}
		default:
			return tail, false, false
		}
	}
	return tail, true, false
}

// tildes does bash's tilde expansion on a word's parts: each tilde-prefix
// (an unquoted ~ up to the next unquoted /, with nothing quoted or
// expanded in it) is replaced by its value as a quoted part. A prefix
// starts a word; in the value of an assignment (assign), or in a word that
// looks like one after its first = (bash, outside POSIX mode, treats `dd
// of=~/x` and `make DIR=~/x` so), it also starts after each unquoted ':'
// and ends at one. It returns false when a value is only known at run
// time (see tildeValue).
func (w *walker) tildes(parts []syntax.WordPart, assign bool) ([]syntax.WordPart, bool) {
	if len(parts) == 0 {
		return parts, true
	}
	if b, ok := parts[0].(*syntax.BraceExp); ok && !assign && !b.Sequence && braceTilde(b) {
		// Bash expands braces first: {~/.ssh,x} is ~/.ssh and x.
		nb := *b
		nb.Elems = make([]*syntax.Word, len(b.Elems))
		for i, e := range b.Elems {
			ep, ok := w.tildes(e.Parts, false)
			if !ok {
				return nil, false
			}
			nb.Elems[i] = &syntax.Word{Parts: ep}
		}
		return append([]syntax.WordPart{&nb}, parts[1:]...), true
	}
	first, ok := parts[0].(*syntax.Lit)
	if !ok || !anyTilde(parts) {
		return parts, true
	}
	var out []syntax.WordPart
	if n := assignPrefix(first.Value); !assign && n > 0 {
		out = append(out, &syntax.Lit{ValuePos: first.ValuePos, ValueEnd: first.ValueEnd, Value: first.Value[:n]})
		rest := &syntax.Lit{ValuePos: first.ValuePos, ValueEnd: first.ValueEnd, Value: first.Value[n:]}
		parts = append([]syntax.WordPart{rest}, parts[1:]...)
		assign = true
	} else if !strings.HasPrefix(first.Value, "~") && (!assign || !anyColonTilde(parts)) {
		return parts, true
	}
	start := true // a tilde-prefix may begin here
	for i, part := range parts {
		l, ok := part.(*syntax.Lit)
		if !ok {
			out = append(out, part)
			start = false
			continue
		}
		v, last := l.Value, 0
		for j := 0; j < len(v); j++ {
			c := v[j]
			if c == '\\' {
				j++
				start = false
				continue
			}
			if start && c == '~' {
				end := j + 1
				for end < len(v) && v[end] != '/' && v[end] != '\\' && !(assign && v[end] == ':') {
					end++
				}
				// A prefix that runs into a quoted character or the
				// next part (~"x", ~$USER) is not expanded.
				whole := !(end < len(v) && v[end] == '\\') && !(end == len(v) && i+1 < len(parts))
				if whole {
					val, expand, known := w.tildeValue(v[j+1 : end])
					if !known {
						return nil, false
					}
					if expand {
						out = append(out, &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: l.ValueEnd, Value: v[last:j]}, &syntax.SglQuoted{Left: l.ValuePos, Right: l.ValueEnd, Value: val})
						last, j = end, end-1
						start = false
						continue
					}
				}
			}
			start = assign && c == ':'
		}
		out = append(out, &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: l.ValueEnd, Value: v[last:]})
	}
	return out, true
}

// assignPrefix returns the length of NAME= (or NAME+=, NAME[...]=) at the
// start of s when s looks like an assignment, else 0.
func assignPrefix(s string) int {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i == 0 {
		return 0
	}
	if i < len(s) && s[i] == '[' {
		j := strings.IndexByte(s[i:], ']')
		if j < 0 || strings.ContainsAny(s[i:i+j], "\\=") {
			return 0
		}
		i += j + 1
	}
	if strings.HasPrefix(s[i:], "+=") {
		return i + 2
	}
	if strings.HasPrefix(s[i:], "=") {
		return i + 1
	}
	return 0
}

// braceTilde reports whether an alternative of b starts with a ~ (or
// with a brace expansion that may).
func braceTilde(b *syntax.BraceExp) bool {
	for _, e := range b.Elems {
		if len(e.Parts) == 0 {
			continue
		}
		switch p := e.Parts[0].(type) {
		case *syntax.Lit:
			if strings.HasPrefix(p.Value, "~") || assignPrefix(p.Value) > 0 && anyTilde(e.Parts) {
				return true
			}
		case *syntax.BraceExp:
			if braceTilde(p) {
				return true
			}
		}
	}
	return false
}

// anyTilde reports whether an unquoted literal part of parts holds a ~.
func anyTilde(parts []syntax.WordPart) bool {
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '~') >= 0 {
			return true
		}
	}
	return false
}

// anyColonTilde reports whether an unquoted ":~" appears in parts.
func anyColonTilde(parts []syntax.WordPart) bool {
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, ":~") {
			return true
		}
	}
	return false
}

// tildeValue returns what bash puts in place of the tilde-prefix
// ~prefix: the home directory (HOME, as assigned in the command line if
// it is), ~+ the current directory (PWD), ~- the previous one (OLDPWD,
// known only after a cd in the command line), ~user that user's home.
// expand is false when bash leaves the prefix as written (no such user);
// known is false when the value is only known at run time (a directory
// stack entry ~N, an OLDPWD from before the command, a HOME assigned a
// value that is not static), and the word is then not static.
func (w *walker) tildeValue(prefix string) (value string, expand, known bool) {
	unknown := func(why string) (string, bool, bool) {
		w.incomplete(why)
		return "", true, false
	}
	if n := strings.TrimLeft(prefix, "+-"); len(prefix)-len(n) <= 1 && isDigits(n) {
		// ~N, ~+N, ~-N: the directory stack, which starts before
		// the command line; ~0 and ~+0 are the current directory.
		if n != strings.Repeat("0", len(n)) || strings.HasPrefix(prefix, "-") {
			return unknown("~" + prefix + " names the directory stack")
		}
		prefix = "+"
	}
	switch prefix {
	case "":
		if v, ok := w.varValue("HOME"); ok {
			return v, true, true
		}
		if w.varForgotten("HOME") || w.opts.Home == "" {
			return unknown("~ with no home directory known")
		}
		return w.opts.Home, true, true
	case "+":
		if v, ok := w.varValue("PWD"); ok {
			return v, true, true
		}
		if w.varForgotten("PWD") || !w.dirKnown {
			return unknown("~+ in a directory only known at run time")
		}
		return w.cwd(), true, true
	case "-":
		if v, ok := w.varValue("OLDPWD"); ok {
			return v, true, true
		}
		return unknown("~- names the previous directory, only known at run time")
	}
	dir, err := canonpath.UserHome(prefix)
	if err != nil {
		// Bash leaves an unknown ~user as it is.
		return "", false, true
	}
	return dir, true, true
}

// varValue returns a variable's value when it was assigned a static one
// earlier in the command line.
func (w *walker) varValue(name string) (string, bool) {
	if w.noVars {
		return "", false
	}
	v, ok := w.vars[name]
	return v, ok
}

// forget records that name was given a value that is not known.
func (w *walker) forget(name string) {
	switch name {
	case "HOME", "PWD", "OLDPWD":
		if w.forgotten == nil {
			w.forgotten = map[string]bool{}
		}
		w.forgotten[name] = true
	}
}

// varForgotten reports whether the command line assigned name a value
// that is not known (or may have), so that its value from before the
// command line no longer holds.
func (w *walker) varForgotten(name string) bool {
	return w.noVars || w.forgotten[name]
}

// expand appends parts to every alternative in acc. It returns false when
// some part cannot be known statically.
func (w *walker) expand(parts []syntax.WordPart, quoted bool, acc []piece) ([]piece, bool) {
	for _, part := range parts {
		var ok bool
		switch p := part.(type) {
		case *syntax.Lit:
			s, pat, glob := unescapeLit(p.Value, quoted)
			acc = appendAll(acc, s, pat, glob)
			ok = true
		case *syntax.SglQuoted:
			s := p.Value
			if p.Dollar {
				s = ansiC(s)
			}
			acc = appendAll(acc, s, escapePattern(s), false)
			ok = true
		case *syntax.DblQuoted:
			acc, ok = w.expand(p.Parts, true, acc)
		case *syntax.ParamExp:
			var s string
			if s, ok = w.param(p); ok && !quoted && w.splits(s) {
				// Unquoted, bash splits the value into words and globs
				// them (`X="rm -rf /"; $X` runs rm): not one static word.
				w.incomplete("unquoted $" + p.Param.Value + " splits into words")
				ok = false
			}
			if ok {
				acc = appendAll(acc, s, escapePattern(s), false)
			}
		case *syntax.BraceExp:
			acc, ok = w.brace(p, acc)
		case *syntax.CmdSubst:
			var s string
			if s, ok = w.knownSubst(p); ok && !quoted && w.splits(s) {
				ok = false // split and globbed, as an unquoted variable
			}
			if ok {
				acc = appendAll(acc, s, escapePattern(s), false)
			}
		default:
			// Command and process substitutions, arithmetic, extended
			// globs: their value is not known without running things.
			ok = false
		}
		if !ok {
			return nil, false
		}
	}
	return acc, true
}

// knownSubst is the output of a command substitution whose value Parse
// knows where the directory is known: $(git rev-parse --show-toplevel),
// the nearest directory above with a .git, as git finds it (cd "$(git
// rev-parse --show-toplevel)" && rm -rf dist). Outside a repository git
// prints nothing, so that stays unknown.
func (w *walker) knownSubst(p *syntax.CmdSubst) (string, bool) {
	if len(p.Stmts) != 1 || !w.dirKnown || w.varForgotten("PWD") {
		return "", false
	}
	st := p.Stmts[0]
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(ce.Assigns) > 0 {
		return "", false
	}
	for _, r := range st.Redirs {
		// 2>/dev/null hides git's complaint outside a repository; the
		// output is the same.
		if r.Op != syntax.RdrOut || r.N == nil || r.N.Value != "2" || r.Word.Lit() != "/dev/null" {
			return "", false
		}
	}
	var words []string
	for _, a := range ce.Args {
		lit := a.Lit()
		if lit == "" {
			return "", false
		}
		words = append(words, lit)
	}
	if strings.Join(words, " ") == "git rev-parse --show-toplevel" {
		return w.gitTop()
	}
	return "", false
}

// param resolves the few parameters whose value Parse knows: $HOME (when
// Options.Home is set) and $PWD (while cd has been followed).
func (w *walker) param(p *syntax.ParamExp) (string, bool) {
	if p.Param != nil && p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) {
		// ${x:=v} assigns x when it is unset or empty.
		delete(w.vars, p.Param.Value)
	}
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Exp != nil || p.NestedParam != nil || len(p.Modifiers) > 0 || p.Names != 0 || p.Flags != nil {
		if v, ok := w.removal(p); ok {
			return v, true
		}
		if v, ok := w.lengthOrCase(p); ok {
			return v, true
		}
		w.incomplete("parameter expansion")
		if p.Param != nil && !defaultOp(p) {
			if _, known := w.knownValue(p.Param.Value); known {
				// ${HOME/*/}, ${PWD:0:0}, ${!X}: an operator this
				// analysis does not evaluate, on a value it knows,
				// makes a word (cat ${HOME/*/}.env) that is only known
				// at run time, as the code that computes it.
				w.unknownCode(w.rawOf(p) + " (an expansion of a known value that is not evaluated)")
			}
		}
		return "", false
	}
	if v, ok := w.knownValue(p.Param.Value); ok {
		return v, true
	}
	w.incomplete("variable $" + p.Param.Value)
	return "", false
}

// knownValue is a variable's value when Parse knows it: assigned a static
// value earlier in the command line, $HOME (when Options.Home is set) and
// $PWD (while cd has been followed).
func (w *walker) knownValue(name string) (string, bool) {
	if v, ok := w.vars[name]; ok {
		return v, true
	}
	switch name {
	case "HOME":
		if w.opts.Home != "" && !w.varForgotten("HOME") {
			return w.opts.Home, true
		}
	case "PWD":
		if w.dirKnown && !w.varForgotten("PWD") {
			return w.cwd(), true
		}
	}
	return "", false
}

// defaultOp reports whether p is ${NAME}, or ${NAME} with a default,
// assignment, alternative or error word (-, :-, =, :=, +, :+, ?, :?),
// whose value is NAME's or the word's (see defaultsWord).
func defaultOp(p *syntax.ParamExp) bool {
	if p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil || p.Slice != nil || p.Repl != nil ||
		p.NestedParam != nil || len(p.Modifiers) > 0 || p.Names != 0 || p.Flags != nil {
		return false
	}
	if p.Exp == nil {
		return true
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
		syntax.AlternateUnset, syntax.AlternateUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return true
	}
	return false
}

// removal evaluates ${NAME#PAT}, ${NAME##PAT}, ${NAME%PAT} and
// ${NAME%%PAT} when NAME's value and the pattern are known: the value
// without the shortest or longest prefix or suffix the pattern matches
// (${PWD##*/} is the directory's name, ${HOME%%*} is empty).
// lengthOrCase evaluates ${#NAME} and the case changes ${NAME^^},
// ${NAME,,}, ${NAME^} and ${NAME,} (without a pattern) of a known value,
// as bash does in a UTF-8 locale: a length counts characters.
func (w *walker) lengthOrCase(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Width || p.IsSet || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.NestedParam != nil || len(p.Modifiers) > 0 || p.Names != 0 || p.Flags != nil {
		return "", false
	}
	v, ok := w.knownValue(p.Param.Value)
	if !ok {
		return "", false
	}
	if p.Length {
		if p.Exp != nil {
			return "", false
		}
		return strconv.Itoa(utf8.RuneCountInString(v)), true
	}
	if p.Exp == nil || (p.Exp.Word != nil && len(p.Exp.Word.Parts) > 0) {
		return "", false
	}
	first := func(f func(string) string) string {
		_, n := utf8.DecodeRuneInString(v)
		return f(v[:n]) + v[n:]
	}
	switch p.Exp.Op {
	case syntax.UpperAll:
		return strings.ToUpper(v), true
	case syntax.LowerAll:
		return strings.ToLower(v), true
	case syntax.UpperFirst:
		return first(strings.ToUpper), true
	case syntax.LowerFirst:
		return first(strings.ToLower), true
	}
	return "", false
}

func (w *walker) removal(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Exp == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.NestedParam != nil || len(p.Modifiers) > 0 || p.Names != 0 || p.Flags != nil {
		return "", false
	}
	op := p.Exp.Op
	switch op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
	default:
		return "", false
	}
	v, ok := w.knownValue(p.Param.Value)
	if !ok {
		// ${X##*} and ${X%%*} are empty whatever X holds: the longest
		// match of * is all of it (cat ${X%%*}.env reads .env).
		if (op == syntax.RemLargePrefix || op == syntax.RemLargeSuffix) && p.Exp.Word != nil && len(p.Exp.Word.Parts) == 1 {
			if lit, isLit := p.Exp.Word.Parts[0].(*syntax.Lit); isLit && lit.Value != "" && strings.Trim(lit.Value, "*") == "" {
				return "", true
			}
		}
		return "", false
	}
	pat := ""
	if p.Exp.Word != nil {
		if len(p.Exp.Word.Parts) == 0 {
			return "", false
		}
		if lit, ok := p.Exp.Word.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(lit.Value, "~") {
			return "", false // a tilde the pattern would expand first
		}
		acc, ok := w.expand(p.Exp.Word.Parts, false, []piece{{}})
		if !ok || len(acc) != 1 {
			return "", false
		}
		pat = string(acc[0].pat)
	}
	expr, err := pattern.Regexp(pat, pattern.EntireString)
	if err != nil {
		return "", false
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return "", false
	}
	n := len(v)
	for k := 0; k <= n; k++ {
		i := k // shortest first
		if op == syntax.RemLargePrefix || op == syntax.RemLargeSuffix {
			i = n - k
		}
		switch op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix:
			if re.MatchString(v[:i]) {
				return v[i:], true
			}
		default:
			if re.MatchString(v[n-i:]) {
				return v[:n-i], true
			}
		}
	}
	return v, true
}

// brace expands {a,b} and {1..3} into alternatives. An expansion past
// the bounds is not left as a word only known at run time, which a read
// would then pass unseen (cat {,}{,}{,}{,}{,}{,}{,}{,}{,}.env is 512
// words, all .env): the distinct words are kept when they are few, and
// otherwise the word is code that cannot be known (see braceTooLarge).
func (w *walker) brace(b *syntax.BraceExp, acc []piece) ([]piece, bool) {
	var alts []piece
	if b.Sequence {
		seq, ok, tooLong := sequence(b)
		if tooLong {
			w.braceTooLarge()
			return nil, false
		}
		if !ok {
			return nil, false
		}
		for _, s := range seq {
			alts = append(alts, piece{s: []byte(s), pat: []byte(escapePattern(s))})
		}
	} else {
		for _, e := range b.Elems {
			sub, ok := w.expand(e.Parts, false, []piece{{}})
			if !ok {
				return nil, false
			}
			alts = append(alts, sub...)
		}
	}
	n := len(acc) * len(alts)
	if w.braceFields+n > maxBraceFields {
		w.braceTooLarge()
		return nil, false
	}
	w.braceFields += n
	var seen map[string]bool
	if n > maxFields {
		// Over the bound only: bash passes duplicates on, which a
		// program may count (Args keeps them below it).
		seen = map[string]bool{}
	}
	out := make([]piece, 0, min(n, maxFields))
	for _, a := range acc {
		for _, b := range alts {
			p := piece{
				s:    append(append(make([]byte, 0, len(a.s)+len(b.s)), a.s...), b.s...),
				pat:  append(append(make([]byte, 0, len(a.pat)+len(b.pat)), a.pat...), b.pat...),
				glob: a.glob || b.glob,
			}
			if seen != nil {
				k := string(p.s) + "\x00" + string(p.pat)
				if p.glob {
					k += "*"
				}
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			out = append(out, p)
		}
	}
	if len(out) > maxFields {
		w.braceTooLarge()
		return nil, false
	}
	return out, true
}

// braceTooLarge records a brace expansion past the bounds: its words are
// not known, and may name anything.
func (w *walker) braceTooLarge() {
	// (b.Pos panics on an empty alternative, so no source text.)
	w.incomplete("brace expansion too large")
	w.unknownCode(fmt.Sprintf("a brace expansion of more than %d distinct words, or past %d in the command", maxFields, maxBraceFields))
}

// sequence expands {x..y[..step]} over integers or single letters.
// ok is false when b is no such sequence (bash leaves it as written),
// tooLong when it makes more than maxFields words.
func sequence(b *syntax.BraceExp) (seq []string, ok, tooLong bool) {
	if len(b.Elems) < 2 || len(b.Elems) > 3 {
		return nil, false, false
	}
	lits := make([]string, len(b.Elems))
	for i, e := range b.Elems {
		lits[i] = e.Lit()
		if lits[i] == "" {
			return nil, false, false
		}
	}
	step := 1
	if len(lits) == 3 {
		n, err := strconv.Atoi(lits[2])
		if err != nil {
			return nil, false, false
		}
		step = max(n, -n)
		if step == 0 {
			step = 1
		}
	}
	from, err1 := strconv.Atoi(lits[0])
	to, err2 := strconv.Atoi(lits[1])
	letters := false
	if err1 != nil || err2 != nil {
		if len(lits[0]) != 1 || len(lits[1]) != 1 {
			return nil, false, false
		}
		from, to, letters = int(lits[0][0]), int(lits[1][0]), true
	}
	if from != to && (from < -(1<<40) || from > 1<<40 || to < -(1<<40) || to > 1<<40) {
		// to-from would overflow (bash counts such a range in
		// intmax_t too, and it makes more words than any bound).
		return nil, true, true
	}
	if (to-from)/step > maxFields || (from-to)/step > maxFields {
		return nil, true, true
	}
	var out []string
	add := func(i int) {
		if letters {
			out = append(out, string(rune(i)))
		} else {
			out = append(out, strconv.Itoa(i))
		}
	}
	if from <= to {
		for i := from; i <= to; i += step {
			add(i)
		}
	} else {
		for i := from; i >= to; i -= step {
			add(i)
		}
	}
	return out, true, false
}

func appendAll(acc []piece, s, pat string, glob bool) []piece {
	for i := range acc {
		acc[i].s = append(acc[i].s, s...)
		acc[i].pat = append(acc[i].pat, pat...)
		acc[i].glob = acc[i].glob || glob
	}
	return acc
}

// unescapeLit removes the backslashes of a literal part of a word. Outside
// double quotes a backslash quotes any character (and joins lines);
// inside, only $ ` " \ and newline. It also returns the part as a
// filepath.Match pattern, and whether it holds an unquoted metacharacter.
func unescapeLit(v string, quoted bool) (s, pat string, glob bool) {
	if !strings.ContainsAny(v, `\*?[`) {
		return v, v, false
	}
	var b, p strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			n := v[i+1]
			if n == '\n' {
				i++
				continue
			}
			if quoted && !strings.ContainsRune("$`\"\\", rune(n)) {
				b.WriteByte(c)
				p.WriteString(`\\`)
				continue
			}
			i++
			b.WriteByte(n)
			p.WriteString(escapePattern(string(n)))
		case !quoted && (c == '*' || c == '?' || c == '[' && closesBracket(v, i)):
			glob = true
			b.WriteByte(c)
			p.WriteByte(c)
		default:
			b.WriteByte(c)
			p.WriteString(escapePattern(string(c)))
		}
	}
	return b.String(), p.String(), glob
}

// escapePattern quotes the characters filepath.Match gives meaning to.
func escapePattern(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes the escapes of a $'...' string as bash does.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(s) && j-i-1 < width && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if e == 'x' {
				b.WriteByte(byte(n))
			} else if utf8.ValidRune(rune(n)) {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	// Bash keeps strings as C strings: a NUL ends this quoted part
	// (`rm -rf $'/home/u\x00'` removes /home/u).
	out := b.String()
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// closesBracket reports whether the '[' at v[i] opens a bracket
// expression: a ']' follows, with at least one character between them
// (a ']' right after '[' is a member, not the end). An unmatched '[' is
// an ordinary character to bash, so the test command '[' is a static
// name, not a pattern.
func closesBracket(v string, i int) bool {
	return i+2 < len(v) && strings.IndexByte(v[i+2:], ']') >= 0
}

// maybeValue is the value of a plain $NAME or ${NAME} that an assignment
// which may or may not have run gave NAME (walker.maybe), when Parse
// does not know NAME's value otherwise.
func (w *walker) maybeValue(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Exp != nil || !defaultOp(p) || w.noVars {
		return "", false
	}
	if _, known := w.vars[p.Param.Value]; known {
		return "", false
	}
	v, ok := w.maybe[p.Param.Value]
	return v, ok
}

// maxDefaultParts bounds the parts defaultsWord rebuilds for one word.
const maxDefaultParts = 64

// defaultsWord returns word with each $NAME that may hold a value Parse
// knows replaced by it (see maybeValue), each ${NAME:-WORD}, ${NAME-WORD},
// ${NAME:=WORD} and ${NAME=WORD} replaced by WORD, or by NAME's value
// when the command line gave it a static one, and each ${NAME:+WORD} and
// ${NAME+WORD} by WORD (or by nothing when the command line made NAME
// empty), and whether there was one to replace.
func (w *walker) defaultsWord(word *syntax.Word) (*syntax.Word, bool) {
	n := 0
	var sub func(parts []syntax.WordPart, quoted bool) ([]syntax.WordPart, bool)
	sub = func(parts []syntax.WordPart, quoted bool) ([]syntax.WordPart, bool) {
		found := false
		out := make([]syntax.WordPart, 0, len(parts))
		// operand appends the WORD of ${NAME op WORD} in NAME's place
		// (nothing when there is none); false when it cannot be rebuilt.
		operand := func(p *syntax.ParamExp) bool {
			if p.Exp.Word == nil {
				return true
			}
			inner, _ := sub(p.Exp.Word.Parts, quoted)
			if inner == nil {
				return false
			}
			if quoted {
				out = append(out, &syntax.DblQuoted{Parts: inner})
			} else {
				out = append(out, inner...)
			}
			return true
		}
		for _, part := range parts {
			n++
			if n > maxDefaultParts {
				return nil, false
			}
			switch p := part.(type) {
			case *syntax.DblQuoted:
				inner, ok := sub(p.Parts, true)
				if ok {
					found = true
					q := *p
					q.Parts = inner
					out = append(out, &q)
					continue
				}
			case *syntax.ParamExp:
				if v, ok := w.maybeValue(p); ok {
					found = true
					out = append(out, &syntax.SglQuoted{Value: v})
					continue
				}
				if p.Param == nil || p.Exp == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.NestedParam != nil {
					break
				}
				switch p.Exp.Op {
				case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
				case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
					// ${NAME:+ALT} is ALT when NAME is set (and not
					// empty), else empty: ALT, unless the command line
					// gave NAME a value that says otherwise.
					found = true
					if v, ok := w.varValue(p.Param.Value); ok && v == "" && p.Exp.Op == syntax.AlternateUnsetOrNull {
						continue
					}
					if !operand(p) {
						return nil, false
					}
					continue
				default:
					out = append(out, part)
					continue
				}
				found = true
				if v, ok := w.varValue(p.Param.Value); ok && (v != "" || p.Exp.Op == syntax.DefaultUnset || p.Exp.Op == syntax.AssignUnset) {
					out = append(out, &syntax.SglQuoted{Value: v})
					continue
				}
				if _, ok := w.varValue(p.Param.Value); !ok && (p.Param.Value == "HOME" || p.Param.Value == "PWD") {
					// Set, and known when Parse knows it: $HOME, $PWD.
					out = append(out, &syntax.ParamExp{Param: p.Param})
					continue
				}
				if !operand(p) {
					return nil, false
				}
				continue
			}
			out = append(out, part)
		}
		return out, found
	}
	parts, found := sub(word.Parts, false)
	if !found || parts == nil {
		return nil, false
	}
	if len(parts) == 0 {
		// Every part expands to nothing (${X:+y} with X made empty): an
		// empty word, which still needs a part to have a position.
		parts = []syntax.WordPart{&syntax.SglQuoted{}}
	}
	return &syntax.Word{Parts: parts}, true
}
