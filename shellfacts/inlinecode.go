package shellfacts

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/vouch-dev/vouch/internal/lazyre"
)

// Inline code: the program text an interpreter is handed on its command
// line (python3 -c, node -e, perl -e, ruby -e, php -r, an awk program, a
// here-document fed to python3 -). vouch has no parser for these
// languages, so this is a look for the calls that matter to a guard, not
// an analysis of the program:
//
//   - calls that run a shell command or a program (os.system, subprocess,
//     child_process, system, backticks, awk's system() and pipes): a
//     command given as a string literal is walked as the shell text it is,
//     one given as a list of literals as that argument vector, so
//     `python3 -c 'import os; os.system("rm -rf ~")'` is `rm -rf ~`; a
//     command built at run time is code that cannot be known;
//   - calls that remove files (shutil.rmtree, os.remove, fs.rmSync,
//     unlink, FileUtils.rm_rf): walked as the rm they amount to, with the
//     path as written or, when it is computed, as a path only known at
//     run time (`shutil.rmtree(os.path.expanduser("~"))` is a recursive
//     delete of an unknown target);
//   - calls that write files (open(F, "w"), writeFileSync, File.write,
//     file_put_contents, shutil.copy): the path written;
//   - ways to reach those calls that this look cannot follow (eval of
//     computed text, getattr, importing them under other names): code
//     that cannot be known.
//
// A call spelled in a way none of the patterns knows is missed: the
// documentation says so (docs/guard.md, "Known limits").

// maxInlineCode bounds the code searched; longer code is not read and
// counts as code that cannot be known.
const maxInlineCode = 256 << 10

// maxInlineCalls bounds the calls followed per pattern.
const maxInlineCalls = 64

// codeLang is how one language writes string literals.
type codeLang struct {
	name string
	// quotes are the characters that open a string literal.
	quotes string
	// rawSingle: a single-quoted literal knows only \\ and \' (perl,
	// ruby, php); otherwise it decodes escapes as a double-quoted one.
	rawSingle bool
	// interpolates reports whether a literal opened by q with source
	// text body takes values at run time ("$x" in perl, "#{x}" in
	// ruby, f"{x}" in python, `${x}` in JavaScript).
	interpolates func(q byte, prefix, body string) bool
	// prefixes are letters that may precede a quote (python's r, b, f).
	prefixes string
}

var (
	pythonLang = &codeLang{name: "python", quotes: `'"`, prefixes: "rRbBuUfF",
		interpolates: func(_ byte, prefix, body string) bool {
			return strings.ContainsAny(prefix, "fF") && strings.Contains(body, "{")
		}}
	jsLang = &codeLang{name: "javascript", quotes: "'\"`",
		interpolates: func(q byte, _, body string) bool { return q == '`' && strings.Contains(body, "${") }}
	perlLang = &codeLang{name: "perl", quotes: `'"` + "`", rawSingle: true,
		interpolates: func(q byte, _, body string) bool { return q != '\'' && strings.ContainsAny(body, "$@") }}
	rubyLang = &codeLang{name: "ruby", quotes: `'"` + "`", rawSingle: true,
		interpolates: func(q byte, _, body string) bool { return q != '\'' && strings.Contains(body, "#{") }}
	phpLang = &codeLang{name: "php", quotes: `'"` + "`", rawSingle: true,
		interpolates: func(q byte, _, body string) bool { return q != '\'' && strings.Contains(body, "$") }}
	awkLang   = &codeLang{name: "awk", quotes: `"`, interpolates: func(byte, string, string) bool { return false }}
	plainLang = &codeLang{name: "code", quotes: `'"`, interpolates: func(byte, string, string) bool { return false }}
)

// langOf is the language of an interpreter's inline code, nil when vouch
// does not look into it.
func langOf(program string) *codeLang {
	switch {
	case program == "python" || strings.HasPrefix(program, "python2") || strings.HasPrefix(program, "python3") || strings.HasPrefix(program, "pypy"):
		return pythonLang
	case program == "node" || program == "nodejs" || program == "deno" || program == "bun":
		return jsLang
	case program == "perl":
		return perlLang
	case program == "ruby":
		return rubyLang
	case program == "php":
		return phpLang
	case program == "lua", program == "Rscript", program == "tclsh":
		return plainLang
	}
	return nil
}

// codeArg is one argument of a call in inline code.
type codeArg struct {
	lit    bool      // a string literal, alone
	s      string    // a literal's value
	static bool      // the literal takes no value at run time
	list   []codeArg // the items of a list literal ([...]); isList says it is one
	isList bool
	text   string // the argument's source text
}

// known reports whether the argument is a string literal whose value is
// fixed.
func (a codeArg) known() bool { return a.lit && a.static }

// argv returns the argument as an argument vector: a list of fixed
// literals, or a fixed literal alone.
func (a codeArg) argv() ([]string, bool) {
	if a.known() {
		return []string{a.s}, true
	}
	if !a.isList || len(a.list) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(a.list))
	for _, it := range a.list {
		if !it.known() {
			return nil, false
		}
		out = append(out, it.s)
	}
	return out, true
}

// literal reads the string literal starting at code[i] (after blanks),
// returning its value, whether it is fixed, and the index past it; ok is
// false when no literal starts there.
func (l *codeLang) literal(code string, i int) (val string, static bool, end int, ok bool) {
	i = skipBlanks(code, i)
	start := i
	for i < len(code) && strings.IndexByte(l.prefixes, code[i]) >= 0 && i-start < 2 {
		i++
	}
	if i >= len(code) || strings.IndexByte(l.quotes, code[i]) < 0 {
		return "", false, 0, false
	}
	prefix := code[start:i]
	q := code[i]
	triple := l == pythonLang && strings.HasPrefix(code[i:], strings.Repeat(string(q), 3))
	i++
	if triple {
		i += 2
	}
	raw := strings.ContainsAny(prefix, "rR")
	fixed := true
	var b strings.Builder
	bodyStart := i
	for i < len(code) {
		c := code[i]
		switch {
		case c == q && (!triple || strings.HasPrefix(code[i:], strings.Repeat(string(q), 3))):
			body := code[bodyStart:i]
			if triple {
				i += 2
			}
			return b.String(), fixed && !l.interpolates(q, prefix, body), i + 1, true
		case c == '\\' && i+1 < len(code):
			n := code[i+1]
			switch {
			case raw:
				b.WriteByte(c)
				b.WriteByte(n)
			case l.rawSingle && q == '\'':
				if n != '\\' && n != '\'' {
					b.WriteByte(c)
				}
				b.WriteByte(n)
			case n == '\n':
				// A line continuation: nothing.
			default:
				v, width, ok := decodeEscape(code[i+1:])
				if !ok {
					// \N{NAME} and the like: a value vouch does
					// not work out, so the literal is not fixed.
					fixed = false
				}
				b.WriteString(v)
				i += width - 1
			}
			i += 2
		case c == '\n' && !triple && q != '`':
			// An unterminated literal: not a literal this look reads.
			return "", false, 0, false
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", false, 0, false
}

// decodeEscape decodes the backslash escape whose text (after the
// backslash) starts esc, as the C-like string syntaxes read it: \n \t \r,
// \xHH, \uHHHH, \u{H...}, \UHHHHHHHH, up to three octal digits, and any
// other character standing for itself. It returns the value, how many
// bytes of esc the escape takes, and false for one whose value it does
// not work out (\N{NAME}).
func decodeEscape(esc string) (string, int, bool) {
	c := esc[0]
	hex := func(n int) (string, int, bool) {
		if len(esc) < 1+n {
			return string(c), 1, true
		}
		v, err := strconv.ParseUint(esc[1:1+n], 16, 32)
		if err != nil {
			return string(c), 1, true
		}
		return string(rune(v)), 1 + n, true
	}
	switch c {
	case 'n':
		return "\n", 1, true
	case 't':
		return "\t", 1, true
	case 'r':
		return "\r", 1, true
	case 'x':
		return hex(2)
	case 'u':
		if strings.HasPrefix(esc, "u{") {
			if end := strings.IndexByte(esc, '}'); end > 2 && end <= 10 {
				if v, err := strconv.ParseUint(esc[2:end], 16, 32); err == nil {
					return string(rune(v)), end + 1, true
				}
			}
			return "", 1, false
		}
		return hex(4)
	case 'U':
		return hex(8)
	case 'N':
		return "", 1, false
	}
	if c >= '0' && c <= '7' {
		n := 1
		for n < 3 && n < len(esc) && esc[n] >= '0' && esc[n] <= '7' {
			n++
		}
		v, _ := strconv.ParseUint(esc[:n], 8, 32)
		return string(rune(v)), n, true
	}
	return string(c), 1, true
}

func skipBlanks(code string, i int) int {
	for i < len(code) && (code[i] == ' ' || code[i] == '\t' || code[i] == '\r' || (code[i] == '\\' && i+1 < len(code) && code[i+1] == '\n')) {
		if code[i] == '\\' {
			i++
		}
		i++
	}
	return i
}

// args reads the arguments of a call whose opening parenthesis ends at
// code[i-1], up to the matching close; with parens false, the arguments
// of a call written without them (perl's `system "x"`), up to the end of
// the statement. It returns the arguments and the index past them.
func (l *codeLang) args(code string, i int, parens bool) ([]codeArg, int) {
	closer := byte(')')
	if !parens {
		closer = 0
	}
	return l.argList(code, i, closer, 0)
}

// maxArgDepth bounds the nesting of list literals read as arguments.
const maxArgDepth = 8

func (l *codeLang) argList(code string, i int, closer byte, depth int) ([]codeArg, int) {
	var out []codeArg
	for len(out) < 256 {
		i = skipBlanks(code, i)
		if i >= len(code) || code[i] == closer || (closer == 0 && endsStatement(code[i])) {
			break
		}
		a, next := l.arg(code, i, closer, depth)
		out = append(out, a)
		i = skipBlanks(code, next)
		if i < len(code) && code[i] == ',' {
			i++
			continue
		}
		break
	}
	if i < len(code) && closer != 0 && code[i] == closer {
		i++
	}
	return out, i
}

func endsStatement(c byte) bool { return c == ';' || c == '\n' || c == '}' || c == ')' }

// arg reads one argument: a literal or list literal standing alone, or
// any other expression up to the next comma or closer.
func (l *codeLang) arg(code string, i int, closer byte, depth int) (codeArg, int) {
	start := i
	if v, static, end, ok := l.literal(code, i); ok {
		if j := skipBlanks(code, end); j >= len(code) || code[j] == ',' || code[j] == closer || (closer == 0 && endsStatement(code[j])) {
			return codeArg{lit: true, s: v, static: static, text: code[start:end]}, end
		}
	}
	if code[i] == '[' && depth < maxArgDepth {
		items, end := l.argList(code, i+1, ']', depth+1)
		if j := skipBlanks(code, end); j >= len(code) || code[j] == ',' || code[j] == closer || (closer == 0 && endsStatement(code[j])) {
			return codeArg{isList: true, list: items, text: code[start:end]}, end
		}
	}
	end := l.skipExpr(code, i, closer)
	return codeArg{text: strings.TrimSpace(code[start:end])}, end
}

// skipExpr returns the index of the comma or closer ending the expression
// at code[i], skipping brackets and literals inside it.
func (l *codeLang) skipExpr(code string, i int, closer byte) int {
	depth := 0
	for i < len(code) {
		c := code[i]
		if strings.IndexByte(l.quotes, c) >= 0 {
			if _, _, end, ok := l.literal(code, i); ok {
				i = end
				continue
			}
			// An unterminated literal (a quote in a comment or a
			// regular expression): the expression is not read past
			// the line, so each quote costs one scan of it at most.
			if nl := strings.IndexByte(code[i:], '\n'); nl >= 0 {
				return i + nl
			}
			return len(code)
		}
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
		case depth > 0 && (c == ')' || c == ']' || c == '}'):
			depth--
		case depth == 0 && (c == ',' || c == closer || (closer == 0 && endsStatement(c))):
			return i
		case depth == 0 && (c == ')' || c == ']' || c == '}'):
			return i
		}
		i++
	}
	return i
}

// snippet is a short form of code for a message.
func snippet(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return s
}

// codeScan is one search of inline code: the walker, the language, and
// what to call it in facts.
type codeScan struct {
	w       *walker
	l       *codeLang
	code    string
	program string // "python3"
	what    string // "python3 code"
	// nesting counts code searched inside code (nestedCode).
	nesting int
	// lenient: the code is a whole script file (fileCode), where calls
	// with computed arguments are everyday code; only fixed commands and
	// paths are recorded, and nothing is unknown code.
	lenient bool
}

// inlineCode searches code run by program (python3, node, perl, ...) for
// the calls described at the top of this file.
func (w *walker) inlineCode(program, code string) {
	w.searchCode(program, code, program+" code", false)
}

// fileCode searches a script file that program runs, which the session
// wrote earlier (Options.ScriptFile): leniently, as a program written to
// a file builds its commands and paths at run time as a matter of course
// (subprocess.run(cmd), shutil.rmtree(out)); asking about each would
// ask about most scripts. The fixed ones (os.system("rm -rf ~")) count.
func (w *walker) fileCode(program, text string) {
	w.searchCode(program, text, program+" script (written earlier)", true)
}

func (w *walker) searchCode(program, code, what string, lenient bool) {
	l := langOf(program)
	if l == nil {
		return
	}
	s := &codeScan{w: w, l: l, code: code, program: program, what: what, lenient: lenient}
	if len(code) > maxInlineCode {
		why := fmt.Sprintf("%s longer than %d bytes: not read", s.what, maxInlineCode)
		w.incomplete(why)
		if !lenient {
			w.unknownCode(why)
		}
		return
	}
	switch l {
	case pythonLang:
		s.python()
	case jsLang:
		s.javascript()
	case perlLang:
		s.perl()
	case rubyLang:
		s.ruby()
	case phpLang:
		s.php()
	case plainLang:
		s.plain(program)
	}
}

// each calls fn for every match of re in the code (at most
// maxInlineCalls; more is code that cannot be known), with the match's
// submatch indices.
func (s *codeScan) each(re func() *regexp.Regexp, fn func(m []int)) {
	ms := re().FindAllStringSubmatchIndex(s.code, maxInlineCalls+1)
	if len(ms) > maxInlineCalls {
		s.tooMany()
		ms = ms[:maxInlineCalls]
	}
	for _, m := range ms {
		fn(m)
	}
}

// tooMany records that calls past maxInlineCalls of one kind were not
// read: code that cannot be known, but in a script file (lenient) only
// an incomplete search.
func (s *codeScan) tooMany() {
	why := fmt.Sprintf("%s: more than %d calls of one kind", s.what, maxInlineCalls)
	s.w.incomplete(why)
	if !s.lenient {
		s.w.unknownCode(why)
	}
}

// unknown records code that cannot be known at a call.
func (s *codeScan) unknown(why, at string) {
	s.w.incomplete(s.what + " " + why)
	if s.lenient {
		return
	}
	s.w.unknownCode(fmt.Sprintf("%s %s: %s", s.what, why, snippet(at)))
}

// runShell walks a shell command line the code runs.
func (s *codeScan) runShell(line string) {
	s.w.script(line, s.w.depth+1, s.what)
}

// runFed walks a shell command line that reads what the code prints
// (perl's open(F, "| cmd"), awk's print | "cmd"): as the end of a
// pipeline the interpreter starts, so a shell there reads a script vouch
// cannot see.
func (s *codeScan) runFed(line string) {
	s.w.script(s.program+" | "+line, s.w.depth+1, s.what)
}

// shellJoin renders an argument vector as one shell command line.
func shellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellQuote(field{s: a, static: true})
	}
	return strings.Join(parts, " ")
}

// runArgv walks an argument vector the code runs (no shell between).
func (s *codeScan) runArgv(argv []string) {
	if len(argv) == 0 {
		return
	}
	fs := make([]field, len(argv))
	for i, a := range argv {
		fs[i] = field{s: a, static: true, raw: a}
	}
	s.nested(fs)
}

// nested walks fields as a simple command one level deeper.
func (s *codeScan) nested(fs []field) {
	w := s.w
	if w.depth+1 > w.opts.MaxDepth {
		w.incomplete(fmt.Sprintf("%s nested deeper than %d levels", s.what, w.opts.MaxDepth))
		w.unknownCode(fmt.Sprintf("%s nested deeper than %d levels", s.what, w.opts.MaxDepth))
		return
	}
	w.depth++
	dir := w.saveDir()
	w.simple(fs, nil, false, nil, ctx{})
	w.restoreDir(dir)
	w.depth--
}

// command handles a call that runs a command: a fixed string is a shell
// line, a fixed list (or several fixed arguments, with several true) an
// argument vector; anything else cannot be known.
func (s *codeScan) command(args []codeArg, several bool, at string) {
	switch {
	case len(args) == 0:
		s.unknown("runs a command vouch cannot read", at)
	case args[0].known() && (!several || len(args) == 1):
		s.runShell(args[0].s)
	case several && allKnown(args):
		argv := make([]string, len(args))
		for i, a := range args {
			argv[i] = a.s
		}
		s.runArgv(argv)
	default:
		if argv, ok := args[0].argv(); ok && args[0].isList {
			s.runArgv(argv)
			return
		}
		s.unknown("runs a command only known at run time", at)
	}
}

// programArgs handles a call given a program and a list of its arguments
// (execFile("rm", ["-rf", x]), spawn).
func (s *codeScan) programArgs(args []codeArg, at string) {
	if len(args) == 0 || !args[0].known() {
		s.unknown("runs a program only known at run time", at)
		return
	}
	argv := []string{args[0].s}
	if len(args) > 1 && args[1].isList {
		rest, ok := args[1].argv()
		if !ok && len(args[1].list) > 0 {
			s.unknown("runs a program with arguments only known at run time", at)
			return
		}
		argv = append(argv, rest...)
	}
	s.runArgv(argv)
}

func allKnown(args []codeArg) bool {
	for _, a := range args {
		if !a.known() {
			return false
		}
	}
	return len(args) > 0
}

// remove walks the removal of the path in a (recursively or not) as the
// rm it amounts to; a computed path is a target only known at run time.
func (s *codeScan) remove(a codeArg, recursive bool) {
	if recursive {
		s.as("rm -r --", a)
		return
	}
	s.as("rm --", a)
}

// removals walks the first argument of each call re finds as a removal.
func (s *codeScan) removals(re func() *regexp.Regexp, recursive bool) {
	s.each(re, func(m []int) {
		if args, _ := s.callArgs(m); len(args) > 0 {
			s.remove(args[0], recursive)
		}
	})
}

// as walks a call as the shell command it amounts to: the fixed words of
// prefix (program and options), then the call's arguments as operands,
// each one static when it is a fixed literal and only known at run time
// otherwise (shown as the code that computes it).
func (s *codeScan) as(prefix string, args ...codeArg) {
	words := strings.Fields(prefix)
	fs := make([]field, 0, len(words)+len(args))
	for _, wd := range words {
		fs = append(fs, field{s: wd, static: true, raw: wd})
	}
	for _, a := range args {
		switch {
		case a.known():
			fs = append(fs, field{s: a.s, static: true, raw: a.text})
		case s.lenient:
			s.w.incomplete(s.what + ": " + words[0] + " of a path only known at run time")
			return
		default:
			fs = append(fs, field{raw: snippet(a.text)})
		}
	}
	s.nested(fs)
}

// write records the path in a as written; a computed path is a write
// target only known at run time.
func (s *codeScan) write(a codeArg) {
	if a.known() {
		s.w.addPath(a.s, s.w.writes, s.what)
		return
	}
	if s.lenient {
		s.w.incomplete(s.what + " writes a path only known at run time")
		return
	}
	s.w.path(field{raw: snippet(a.text)}, s.w.writes, s.what)
}

// read records the path in a as read.
func (s *codeScan) read(a codeArg) {
	if a.known() {
		s.w.addPath(a.s, s.w.reads, s.what)
	}
}

// callArgs reads the arguments of the call whose head (ending in "(")
// the match m covers.
func (s *codeScan) callArgs(m []int) ([]codeArg, string) {
	args, end := s.l.args(s.code, m[1], true)
	return args, s.code[m[0]:min(end, len(s.code))]
}

// python: os.system, os.popen, subprocess, shutil.rmtree, os.remove,
// open(F, "w") and friends.
var (
	// Names only the process modules use are read whatever they are
	// called on (x.check_output(...)); system and popen on os or on a
	// call's result (__import__("os").system(...), not
	// platform.system()); run and call only on subprocess. Blanks may
	// stand around the dot, as Python allows.
	pyShell = lazyre.New(`(?:\bos|\))\s*\.\s*(?:system|popen)\s*\(|\.\s*(?:check_call|check_output|Popen|getoutput|getstatusoutput|create_subprocess_shell)\s*\(|\b(?:subprocess|__import__\(\s*['"]subprocess['"]\s*\))\s*\.\s*(?:run|call)\s*\(|\bpty\s*\.\s*spawn\s*\(`)
	pyExec  = lazyre.New(`\basyncio\.create_subprocess_exec\s*\(`)
	// Ways to the same calls that this look does not follow: os.exec*
	// and spawn*, foreign calls into libc, the calls imported under
	// their own names or the modules under others, libraries that run
	// shells.
	pyOpaque = lazyre.New(`\bos\.(?:exec|spawn|posix_spawn)\w*|\bctypes\b|\bcffi\b|\bfrom\s+(?:os|subprocess|shutil|pty|commands|asyncio)\s+import\s+(?:\*|\(?[^;\n]*\b(?:system|popen|run|call|check_call|check_output|Popen|getoutput|getstatusoutput|rmtree|remove|unlink|rmdir|removedirs|exec\w*|spawn\w*|posix_spawn\w*|create_subprocess_\w+|move|rename|replace|copy\w*)\b)|\bimport\s+(?:[\w.]+(?:\s+as\s+\w+)?\s*,\s*)*(?:pty|commands)\s+as\b|\bimport_module\s*\(\s*['"](?:os|subprocess|shutil|pty|commands)['"]|\bvars\s*\(\s*(?:os|subprocess|shutil)\s*\)|\b(?:from|import)\s+(?:sh|plumbum|pexpect|fabric|invoke)\b|\bos\.(?:\w+\.)*__dict__|\bsys\.modules\b`)
	pyEval   = lazyre.New(`(?:^|[^\w.])(?:exec|eval|compile|__import__|getattr)\s*\(|\bimportlib\.import_module\s*\(`)
	pyRmtree = lazyre.New(`\.\s*rmtree\s*\(`)
	pyRemove = lazyre.New(`(?:\bos|\))\s*\.\s*(?:remove|unlink|rmdir|removedirs)\s*\(`)
	pyPathOp = lazyre.New(`\bPath\s*\(`)
	pyOpen   = lazyre.New(`(?:^|[^\w.])(?:io\.|codecs\.)?open\s*\(`)
	pyCopy   = lazyre.New(`\bshutil\.(copy|copy2|copyfile|copytree|move)\s*\(|\bos\.(rename|replace|symlink|link)\s*\(`)
)

func (s *codeScan) python() {
	s.each(pyShell, func(m []int) {
		args, at := s.callArgs(m)
		s.command(args, false, at)
	})
	s.pyAliases()
	s.each(pyExec, func(m []int) {
		args, at := s.callArgs(m)
		s.command(args, true, at)
	})
	s.each(pyOpaque, func(m []int) {
		s.unknown("reaches commands or files in a way vouch does not follow", s.code[m[0]:m[1]])
	})
	s.each(pyEval, func(m []int) {
		args, at := s.callArgs(m)
		name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s.code[m[0]:m[1]]), "("))
		name = strings.TrimLeft(name, "^ \t\n;:=,([{+-*/%<>!&|~")
		switch name {
		case "exec", "eval", "compile":
			// Fixed code is searched as the code it decodes to (its
			// escapes may spell what the text does not); code made
			// at run time cannot be.
			if len(args) > 0 && args[0].known() {
				s.nestedCode(args[0].s)
				return
			}
		case "__import__", "importlib.import_module":
			if len(args) > 0 && args[0].known() && !strings.Contains(args[0].s, "__") {
				return
			}
		case "getattr":
			if len(args) > 1 && args[1].known() && !pyDangerName(args[1].s) {
				return
			}
		}
		s.unknown("calls "+name+" on what vouch cannot follow", at)
	})
	s.removals(pyRmtree, true)
	s.removals(pyRemove, false)
	s.each(pyPathOp, func(m []int) {
		args, end := s.l.args(s.code, m[1], true)
		if len(args) == 0 {
			return
		}
		rest := s.code[end:]
		switch {
		case strings.HasPrefix(rest, ".unlink(") || strings.HasPrefix(rest, ".rmdir("):
			s.remove(args[0], false)
		case strings.HasPrefix(rest, ".write_text(") || strings.HasPrefix(rest, ".write_bytes(") || strings.HasPrefix(rest, ".touch(") ||
			strings.HasPrefix(rest, ".symlink_to(") || strings.HasPrefix(rest, ".hardlink_to(") || strings.HasPrefix(rest, ".chmod("):
			s.write(args[0])
		case strings.HasPrefix(rest, ".open("):
			mode, _ := s.l.args(s.code, end+len(".open("), true)
			if len(mode) > 0 && writeMode(mode[0]) {
				s.write(args[0])
			}
		case strings.HasPrefix(rest, ".rename(") || strings.HasPrefix(rest, ".replace("):
			if to, _ := s.l.args(s.code, strings.IndexByte(s.code[end:], '(')+end+1, true); len(to) > 0 {
				s.as("mv --", args[0], to[0])
			}
		}
	})
	s.each(pyOpen, func(m []int) {
		args, _ := s.callArgs(m)
		if len(args) > 1 && writeMode(args[1]) {
			s.write(args[0])
		}
	})
	s.each(pyCopy, func(m []int) {
		args, _ := s.callArgs(m)
		if len(args) < 2 {
			return
		}
		fn := ""
		if m[2] >= 0 {
			fn = s.code[m[2]:m[3]]
		} else {
			fn = s.code[m[4]:m[5]]
		}
		switch fn {
		case "copytree":
			s.as("cp -r --", args[0], args[1])
		case "copy", "copy2", "copyfile":
			s.as("cp --", args[0], args[1])
		case "move", "rename", "replace":
			s.as("mv --", args[0], args[1])
		case "symlink":
			s.as("ln -s --", args[0], args[1])
		default:
			s.as("ln --", args[0], args[1])
		}
	})
}

// maxCodeNesting bounds code searched inside code (exec of a literal).
const maxCodeNesting = 4

// nestedCode searches code the code runs from a fixed literal.
func (s *codeScan) nestedCode(code string) {
	if s.nesting >= maxCodeNesting {
		s.unknown("evaluates code nested too deeply to read", code)
		return
	}
	n := *s
	n.code, n.nesting = code, s.nesting+1
	n.python()
}

// pyAlias finds `import os as o`, `import subprocess as sp` (also later
// in an import list): the calls through the alias are read as through the
// module's own name.
var pyAlias = lazyre.New(`\bimport\s+(?:[\w.]+(?:\s+as\s+\w+)?\s*,\s*)*(os|subprocess|shutil)\s+as\s+(\w+)`)

// pyAliases reads the calls made through the aliases of os, subprocess
// and shutil: commands run (o.system, sp.run, sp.call), removals
// (o.remove, o.unlink, o.rmdir, sh.rmtree), moves and copies.
func (s *codeScan) pyAliases() {
	for _, m := range pyAlias().FindAllStringSubmatch(s.code, 8) {
		module, alias := m[1], m[2]
		if alias == module {
			continue
		}
		re, err := regexp.Compile(`\b` + regexp.QuoteMeta(alias) + `\s*\.\s*(\w+)\s*\(`)
		if err != nil {
			continue
		}
		for _, c := range re.FindAllStringSubmatchIndex(s.code, maxInlineCalls) {
			fn := s.code[c[2]:c[3]]
			args, at := s.callArgs(c)
			switch {
			case module == "subprocess" && (fn == "run" || fn == "call"):
				s.command(args, false, at)
			case module == "os" && (fn == "system" || fn == "popen"):
				s.command(args, false, at)
			case module == "os" && (fn == "remove" || fn == "unlink" || fn == "rmdir" || fn == "removedirs"):
				if len(args) > 0 {
					s.remove(args[0], false)
				}
			case module == "shutil" && (fn == "move" || fn == "copy" || fn == "copy2" || fn == "copyfile" || fn == "copytree"):
				if len(args) > 1 {
					op := map[string]string{"move": "mv --", "copytree": "cp -r --"}[fn]
					if op == "" {
						op = "cp --"
					}
					s.as(op, args[0], args[1])
				}
			case module == "os" && (strings.HasPrefix(fn, "exec") || strings.HasPrefix(fn, "spawn") || strings.HasPrefix(fn, "posix_spawn")):
				s.unknown("runs a program in a way vouch does not follow", at)
			}
		}
	}
}

// pyDangerName: attribute names getattr could fetch a way to run or remove
// with.
func pyDangerName(n string) bool {
	switch n {
	case "system", "popen", "run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput",
		"rmtree", "remove", "unlink", "rmdir", "removedirs", "spawn", "open", "__import__", "eval", "exec":
		return true
	}
	return strings.HasPrefix(n, "exec") || strings.HasPrefix(n, "spawn") || strings.HasPrefix(n, "posix_spawn")
}

// writeMode reports whether an open() mode argument writes: a fixed mode
// with w, a, x or +, or a mode only known at run time.
func writeMode(a codeArg) bool {
	if !a.lit {
		// mode=... or a variable: a keyword argument naming something
		// else (encoding=) reads.
		t := strings.TrimSpace(a.text)
		if strings.HasPrefix(t, "mode") {
			return true
		}
		return !strings.Contains(t, "=")
	}
	return !a.static || strings.ContainsAny(a.s, "wax+")
}

// javascript: child_process, Bun's and Deno's process APIs, fs removals
// and writes, eval.
var (
	jsProcModule = lazyre.New(`child_process|\bBun\.(?:spawn|spawnSync|\$)|\bDeno\.(?:Command|run)|\bzx\b|\bexeca\b|shelljs`)
	jsShellCall  = lazyre.New(`\b(?:execSync|exec)\s*\(`)
	jsProgCall   = lazyre.New(`\b(?:execFileSync|execFile|spawnSync|spawn)\s*\(`)
	jsProcOther  = lazyre.New(`\bfork\s*\(|\bBun\.(?:spawn|spawnSync)\b|\bDeno\.(?:Command|run)\b|\bzx\b|\bexeca\b|shelljs|\b(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\s*(?:[:=]|\?\.|\.\s*(?:call|apply|bind)\b)|\[\s*['"` + "`" + `](?:execSync|exec|execFileSync|execFile|spawnSync|spawn|fork)['"` + "`" + `]\s*\]`)
	jsBunShell   = lazyre.New(`\bBun\.\$\s*` + "`" + `|(?:^|[^\w$.])\$\s*` + "`")
	jsEval       = lazyre.New(`\b(?:eval|Function|require|import)\s*\(|\bnew\s+Function\b|\bvm\.\w+|\bprocess\.(?:binding|dlopen)\b`)
	jsFsOther    = lazyre.New(`\[\s*['"` + "`" + `](?:rmSync|rm|rmdirSync|rmdir|unlinkSync|unlink|writeFileSync|writeFile|appendFileSync|copyFileSync|renameSync|cpSync)['"` + "`" + `]\s*\]|\b(?:rmSync|rmdirSync|unlinkSync|writeFileSync|appendFileSync)\s*(?:\?\.|\.\s*(?:call|apply|bind)\b)`)
	jsRemove     = lazyre.New(`\b(?:rmSync|rm|rmdirSync|rmdir|unlinkSync|unlink|removeSync|remove|emptyDirSync|emptyDir)\s*\(|\brimraf(?:\.sync|Sync)?\s*\(`)
	jsWrite      = lazyre.New(`\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|truncateSync|truncate|chmodSync|symlinkSync|linkSync)\s*\(`)
	jsCopy       = lazyre.New(`\b(copyFileSync|copyFile|cpSync|cp|renameSync|rename)\s*\(`)
)

func (s *codeScan) javascript() {
	if jsProcModule().MatchString(s.code) {
		s.each(jsShellCall, func(m []int) {
			if m[0] > 0 && s.code[m[0]-1] == '.' && !strings.HasPrefix(s.code[m[0]:], "execSync") && !s.procReceiver(m[0]-1) {
				// /re/.exec(s), db.exec(sql); execSync is
				// child_process's whatever it is called on
				// (import("child_process").then(c => c.execSync(...))).
				return
			}
			args, at := s.callArgs(m)
			s.command(args, false, at)
		})
		s.each(jsProgCall, func(m []int) {
			args, at := s.callArgs(m)
			s.programArgs(args, at)
		})
		s.each(jsProcOther, func(m []int) {
			s.unknown("runs commands in a way vouch does not follow", s.code[m[0]:m[1]])
		})
	}
	s.each(jsFsOther, func(m []int) {
		s.unknown("removes or writes files in a way vouch does not follow", s.code[m[0]:m[1]])
	})
	s.each(jsBunShell, func(m []int) {
		v, static, _, ok := s.l.literal(s.code, m[1]-1)
		if !ok || !static {
			s.unknown("runs a shell command only known at run time", s.code[m[0]:m[1]])
			return
		}
		s.runShell(v)
	})
	s.each(jsEval, func(m []int) {
		head := s.code[m[0]:m[1]]
		if strings.HasPrefix(head, "require") || strings.HasPrefix(head, "import") || strings.HasPrefix(head, "eval") {
			args, at := s.callArgs(m)
			if len(args) > 0 && args[0].known() {
				return
			}
			s.unknown("loads or evaluates code vouch cannot follow", at)
			return
		}
		s.unknown("evaluates code vouch cannot follow", head)
	})
	s.each(jsRemove, func(m []int) {
		head := s.code[m[0]:m[1]]
		rimraf := strings.HasPrefix(head, "rimraf")
		if !rimraf && (m[0] == 0 || s.code[m[0]-1] != '.' || !s.fsReceiver(m[0]-1)) {
			// list.remove(x), a function of the code's own: only the
			// fs module's (and fs-extra's) are removals. A bare rmSync
			// the code destructured from fs is missed.
			return
		}
		args, at := s.callArgs(m)
		if len(args) == 0 {
			return
		}
		// fs.rm and rmSync refuse a directory without recursive: true;
		// fs-extra's remove and emptyDir and rimraf always recurse.
		recursive := rimraf || strings.HasPrefix(head, "remove") || strings.HasPrefix(head, "emptyDir") || strings.Contains(at, "recursive")
		s.remove(args[0], recursive)
	})
	s.each(jsWrite, func(m []int) {
		if m[0] > 0 && s.code[m[0]-1] == '.' && !s.fsReceiver(m[0]-1) {
			return
		}
		args, _ := s.callArgs(m)
		if len(args) > 0 {
			s.write(args[0])
		}
	})
	s.each(jsCopy, func(m []int) {
		if m[0] > 0 && s.code[m[0]-1] == '.' && !s.fsReceiver(m[0]-1) {
			return
		}
		args, _ := s.callArgs(m)
		if len(args) < 2 {
			return
		}
		switch fn := s.code[m[2]:m[3]]; {
		case strings.HasPrefix(fn, "rename"):
			s.as("mv --", args[0], args[1])
		case strings.HasPrefix(fn, "cp"):
			s.as("cp -r --", args[0], args[1])
		default:
			s.as("cp --", args[0], args[1])
		}
	})
}

// receiver returns the identifier before the dot at code[dot].
func (s *codeScan) receiver(dot int) string {
	j := dot
	for j > 0 && (isIdentByte(s.code[j-1]) || s.code[j-1] == ')' || s.code[j-1] == '(' || s.code[j-1] == '"' || s.code[j-1] == '\'' || s.code[j-1] == ':' || s.code[j-1] == '/') {
		j--
	}
	return s.code[j:dot]
}

// procReceiver: a receiver that may be the child_process module
// (require("child_process"), or a name the code binds a module to).
func (s *codeScan) procReceiver(dot int) bool {
	r := s.receiver(dot)
	return strings.Contains(r, "child_process") || s.boundModule(r)
}

// fsReceiver: a receiver that may be the fs module, fs.promises or
// fs-extra.
func (s *codeScan) fsReceiver(dot int) bool {
	r := s.receiver(dot)
	switch {
	case r == "fs", r == "fsp", r == "fse", r == "fsExtra", r == "promises", strings.HasSuffix(r, ".promises"):
		return true
	case strings.HasPrefix(r, "require(") || strings.HasPrefix(r, "(await import("):
		return strings.Contains(r, "fs")
	}
	return s.boundModule(r)
}

// boundModule reports whether the code binds the name r to a module it
// loads (r = require(...), import * as r, import r from).
func (s *codeScan) boundModule(r string) bool {
	if !isIdent(r) {
		return false
	}
	for _, form := range []string{r + " = require(", r + "=require(", r + " = await import(", "* as " + r, "import " + r + " from"} {
		if strings.Contains(s.code, form) {
			return true
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// perl: system/exec with or without parentheses, backticks, qx, piped
// open, unlink/rmtree, open for writing, eval of a string.
var (
	perlRun    = lazyre.New(`(?:^|[^\w$@%&>:/'"]|CORE::)(system|exec)\b\s*(\(?)`)
	perlQx     = lazyre.New(`(?:^|[^\w$@%])qx\s*\W|\bsyscall\b|\bIPC::(?:Open[23]|Run|Cmd)|\bopen[23]\s*\(`)
	perlEval   = lazyre.New(`(?:^|[^\w$@%&>:/'"]|CORE::)eval\b\s*([^\s{=}])`)
	perlUnlink = lazyre.New(`(?:^|[^\w$@%&>:/'"]|CORE::)(unlink|rmdir|rmtree|remove_tree)\b\s*(\(?)`)
	perlOpen   = lazyre.New(`(?:^|[^\w$@%&>:/'"]|CORE::)open\b\s*(\(?)`)
)

func (s *codeScan) perl() {
	s.perlish(perlRun, perlQx)
	s.each(perlEval, func(m []int) {
		s.unknown("evaluates a string vouch cannot follow", s.code[m[0]:min(len(s.code), m[1]+40)])
	})
	s.each(perlUnlink, func(m []int) {
		args, _ := s.l.args(s.code, m[1], m[4] < m[5])
		fn := s.code[m[2]:m[3]]
		for _, a := range args {
			s.remove(a, fn == "rmtree" || fn == "remove_tree")
		}
	})
	s.each(perlOpen, func(m []int) {
		args, end := s.l.args(s.code, m[1], m[2] < m[3])
		at := s.code[m[0]:min(end, len(s.code))]
		switch {
		case len(args) == 2 && args[1].lit:
			// Two-argument open: the mode is part of the string.
			v := strings.TrimSpace(args[1].s)
			switch {
			case !args[1].static && (strings.HasPrefix(v, "|") || strings.HasSuffix(v, "|")):
				s.unknown("runs a command only known at run time", at)
			case strings.HasPrefix(v, "|"):
				s.runFed(strings.TrimPrefix(v, "|"))
			case strings.HasSuffix(v, "|"):
				s.runShell(strings.TrimSuffix(v, "|"))
			case strings.HasPrefix(v, ">") || strings.HasPrefix(v, "+<") || strings.HasPrefix(v, "+>"):
				s.write(codeArg{lit: true, static: args[1].static, s: strings.TrimSpace(strings.TrimLeft(v, "+<>")), text: args[1].text})
			default:
				s.read(codeArg{lit: true, static: args[1].static, s: strings.TrimSpace(strings.TrimPrefix(v, "<")), text: args[1].text})
			}
		case len(args) >= 3 && args[1].known():
			mode := strings.TrimSpace(args[1].s)
			switch {
			case mode == "-|":
				s.command(args[2:], true, at)
			case mode == "|-":
				if allKnown(args[2:]) {
					argv := make([]string, 0, len(args)-2)
					for _, a := range args[2:] {
						argv = append(argv, a.s)
					}
					if len(argv) == 1 {
						s.runFed(argv[0])
					} else {
						s.runFed(shellJoin(argv))
					}
				} else {
					s.unknown("writes to a command only known at run time", at)
				}
			case strings.ContainsAny(mode, ">+"):
				s.write(args[2])
			default:
				s.read(args[2])
			}
		case len(args) >= 3:
			s.unknown("opens with a mode only known at run time", at)
		}
	})
}

// perlish handles the run calls perl and ruby share: system/exec with or
// without parentheses (one string is a shell line, several are an
// argument vector), backticks, and the forms that cannot be followed.
func (s *codeScan) perlish(run, opaque func() *regexp.Regexp) {
	s.each(run, func(m []int) {
		if rest := strings.TrimLeft(s.code[m[3]:], " \t"); strings.HasPrefix(rest, "=>") || strings.HasPrefix(rest, "}") {
			return // a hash key: (system => 1), $h{system}
		}
		args, end := s.l.args(s.code, m[1], m[4] < m[5])
		s.command(args, true, s.code[m[0]:min(end, len(s.code))])
	})
	s.backticks()
	s.each(opaque, func(m []int) {
		s.unknown("runs commands in a way vouch does not follow", s.code[m[0]:min(len(s.code), m[1]+40)])
	})
}

// backticks walks each backtick literal of the code (perl, ruby and php
// run it as a shell command), stepping over the other literals so that a
// backtick inside a string is not taken for one.
func (s *codeScan) backticks() {
	n := 0
	for i := 0; i < len(s.code); {
		j := strings.IndexByte(s.code[i:], '`')
		if j < 0 {
			return
		}
		start := i + j
		end := backtickEnd(s.code, start+1)
		if end < 0 {
			s.unknown("runs a command vouch cannot read", s.code[start:min(len(s.code), start+60)])
			return
		}
		if n++; n > maxInlineCalls {
			s.tooMany()
			return
		}
		body := s.code[start+1 : end]
		if s.l.interpolates('`', "", body) {
			s.unknown("runs a command only known at run time", s.code[start:min(len(s.code), start+60)])
		} else {
			v, _, _, _ := s.l.literal(s.code, start)
			s.runShell(v)
		}
		i = end + 1
	}
}

// backtickEnd returns the index of the backtick closing one opened before
// i (a backslash escapes the next character), -1 if none does.
func backtickEnd(code string, i int) int {
	for ; i < len(code); i++ {
		switch code[i] {
		case '\\':
			i++
		case '`':
			return i
		}
	}
	return -1
}

// ruby: system/exec/spawn, backticks, %x, IO.popen, Open3, FileUtils and
// File removals and writes, eval and send.
var (
	rubyRun    = lazyre.New(`(?:^|[^\w@$:./'"]|Kernel\.|Process\.)(system|exec|spawn)\b\s*(\(?)`)
	rubyOpaque = lazyre.New(`%x\s*\W|\bOpen3\b|\bPTY\.spawn\b|(?:^|[^\w@$'"/])(?:instance_eval|class_eval|module_eval|eval|send|__send__|public_send|method|const_get|syscall)\s*[(:'"]|\bFiddle\b`)
	rubyPopen  = lazyre.New(`\bIO\.popen\s*\(`)
	rubyRmR    = lazyre.New(`\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)\b\s*(\(?)`)
	rubyRm     = lazyre.New(`\b(?:FileUtils\.(?:rm|rm_f|remove|rmdir)|File\.(?:delete|unlink)|Dir\.(?:rmdir|delete|unlink))\b\s*(\(?)`)
	rubyWrite  = lazyre.New(`\b(?:File|IO)\.(?:write|binwrite)\b\s*(\(?)|\bFile\.open\b\s*(\(?)|\bFileUtils\.(?:touch|cp|cp_r|mv|ln_s|ln)\b\s*(\(?)`)
)

func (s *codeScan) ruby() {
	s.perlish(rubyRun, rubyOpaque)
	s.each(rubyPopen, func(m []int) {
		args, at := s.callArgs(m)
		s.command(args, false, at)
	})
	s.each(rubyRmR, func(m []int) {
		args, _ := s.l.args(s.code, m[1], m[2] < m[3])
		if len(args) > 0 {
			s.removeEach(args[0], true)
		}
	})
	s.each(rubyRm, func(m []int) {
		args, _ := s.l.args(s.code, m[1], m[2] < m[3])
		if len(args) > 0 {
			s.removeEach(args[0], false)
		}
	})
	s.each(rubyWrite, func(m []int) {
		head := s.code[m[0]:m[1]]
		parens := strings.HasSuffix(strings.TrimSpace(head), "(")
		args, _ := s.l.args(s.code, m[1], parens)
		switch {
		case len(args) == 0:
		case strings.HasPrefix(head, "File.open"):
			if len(args) > 1 && writeMode(args[1]) {
				s.write(args[0])
			}
		case strings.Contains(head, "FileUtils.") && !strings.Contains(head, "touch"):
			if len(args) < 2 {
				return
			}
			switch {
			case strings.Contains(head, "cp_r"):
				s.as("cp -r --", args[0], args[1])
			case strings.Contains(head, "cp"):
				s.as("cp --", args[0], args[1])
			case strings.Contains(head, "mv"):
				s.as("mv --", args[0], args[1])
			case strings.Contains(head, "ln_s"):
				s.as("ln -s --", args[0], args[1])
			default:
				s.as("ln --", args[0], args[1])
			}
		default:
			s.write(args[0])
		}
	})
}

// removeEach removes the path in a, or each path of a list literal.
func (s *codeScan) removeEach(a codeArg, recursive bool) {
	if a.isList {
		for _, it := range a.list {
			s.remove(it, recursive)
		}
		return
	}
	s.remove(a, recursive)
}

// php: the program execution functions, backticks, unlink/rmdir, writes,
// eval.
var (
	phpRun    = lazyre.New(`(?i)\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(`)
	phpOpaque = lazyre.New(`(?i)\b(?:pcntl_exec|eval|assert|create_function|call_user_func|call_user_func_array|FFI|preg_replace_callback_array)\b`)
	phpRemove = lazyre.New(`(?i)\b(?:unlink|rmdir)\s*\(`)
	phpWrite  = lazyre.New(`(?i)\b(?:file_put_contents|touch|chmod|symlink|link)\s*\(|\bfopen\s*\(|\b(copy|rename)\s*\(`)
)

func (s *codeScan) php() {
	s.each(phpRun, func(m []int) {
		args, at := s.callArgs(m)
		if len(args) > 0 && args[0].isList {
			s.command(args[:1], false, at)
			return
		}
		s.command(args, false, at)
	})
	s.backticks()
	s.each(phpOpaque, func(m []int) {
		s.unknown("runs code in a way vouch does not follow", s.code[m[0]:min(len(s.code), m[1]+40)])
	})
	s.removals(phpRemove, false)
	s.each(phpWrite, func(m []int) {
		args, _ := s.callArgs(m)
		head := s.code[m[0]:m[1]]
		switch {
		case len(args) == 0:
		case strings.HasPrefix(strings.ToLower(head), "fopen"):
			if len(args) > 1 && writeMode(args[1]) {
				s.write(args[0])
			}
		case m[2] >= 0:
			if len(args) < 2 {
				return
			}
			if strings.EqualFold(s.code[m[2]:m[3]], "rename") {
				s.as("mv --", args[0], args[1])
			} else {
				s.as("cp --", args[0], args[1])
			}
		default:
			s.write(args[0])
		}
	})
}

// plain: lua (os.execute, io.popen, os.remove, os.rename), R (system,
// system2, shell, unlink, file.remove) and Tcl (exec).
var (
	plainRun    = lazyre.New(`\b(?:os\.execute|io\.popen|system|shell)\s*\(`)
	plainOpaque = lazyre.New(`\b(?:system2|loadstring|dofile|eval)\b|\b(?:os\.execute|io\.popen|os\.remove)\s*["'\[{]`)
	plainRemove = lazyre.New(`\b(?:os\.remove|file\.remove|unlink)\s*\(`)
)

func (s *codeScan) plain(program string) {
	if program == "tclsh" {
		// Tcl's exec takes its words unquoted: not read here.
		if strings.Contains(s.code, "exec") || strings.Contains(s.code, "open |") || strings.Contains(s.code, "file delete") {
			s.unknown("may run commands or remove files", s.code)
		}
		return
	}
	s.each(plainRun, func(m []int) {
		args, at := s.callArgs(m)
		s.command(args, false, at)
	})
	s.each(plainOpaque, func(m []int) {
		s.unknown("runs code in a way vouch does not follow", s.code[m[0]:min(len(s.code), m[1]+40)])
	})
	s.each(plainRemove, func(m []int) {
		args, at := s.callArgs(m)
		if len(args) > 0 {
			s.remove(args[0], strings.Contains(at, "recursive"))
		}
	})
}

// awk: system("..."), "cmd" | getline, print | "cmd". awk joins strings
// by writing them side by side, so a literal followed by anything but a
// closer or a comma is a command built at run time.
var (
	awkSystem  = lazyre.New(`\bsystem\s*\(`)
	awkPipeIn  = lazyre.New(`\|\s*getline\b`)
	awkPipeOut = lazyre.New(`\|&?\s*`)
)

// awkCommands walks the commands an awk program runs.
func (w *walker) awkCommands(prog, name string) {
	s := &codeScan{w: w, l: awkLang, code: prog, program: name, what: name + " program"}
	if len(prog) > maxInlineCode {
		w.unknownCode(fmt.Sprintf("%s longer than %d bytes: not read", s.what, maxInlineCode))
		return
	}
	s.each(awkSystem, func(m []int) {
		args, at := s.callArgs(m)
		s.command(args, false, at)
	})
	s.each(awkPipeIn, func(m []int) {
		// The command is the expression before the pipe: one literal.
		j := m[0]
		for j > 0 && (prog[j-1] == ' ' || prog[j-1] == '\t') {
			j--
		}
		if j > 0 && prog[j-1] == '"' {
			if start := strings.LastIndexByte(prog[:j-1], '"'); start >= 0 {
				if v, static, end, ok := awkLang.literal(prog, start); ok && end == j && static && !awkJoined(prog, start) {
					s.runShell(v)
					return
				}
			}
		}
		s.unknown("reads from a command only known at run time", prog[max(0, m[0]-40):m[1]])
	})
	s.each(awkPipeOut, func(m []int) {
		if strings.HasPrefix(prog[m[1]:], "getline") || m[0] > 0 && prog[m[0]-1] == '|' || strings.HasPrefix(prog[m[0]:], "||") {
			return
		}
		if !awkAfterPrint(prog[:m[0]]) {
			return
		}
		args, _ := awkLang.argList(prog, m[1], 0, 0)
		if len(args) == 1 && args[0].known() {
			// The command reads what awk prints: walked as the end
			// of a pipeline awk starts, so a shell there reads a
			// script vouch cannot see.
			s.runFed(args[0].s)
			return
		}
		s.unknown("writes to a command only known at run time", prog[m[0]:min(len(prog), m[1]+40)])
	})
}

// awkJoined reports whether the literal starting at i is the end of a
// longer expression (a concatenation: "rm " $1 "| getline").
func awkJoined(prog string, i int) bool {
	j := i
	for j > 0 && (prog[j-1] == ' ' || prog[j-1] == '\t') {
		j--
	}
	if j == 0 {
		return false
	}
	c := prog[j-1]
	return !strings.ContainsRune("{;(\n&|!,=", rune(c))
}

// awkAfterPrint reports whether a pipe at the end of before belongs to a
// print or printf statement (an output pipe), not to || or a regular
// expression.
func awkAfterPrint(before string) bool {
	i := max(strings.LastIndexAny(before, ";{}\n"), -1)
	stmt := strings.TrimSpace(before[i+1:])
	return strings.HasPrefix(stmt, "print")
}

// sqliteDot finds the dot-commands of the sqlite3 shell that run
// commands, write, read or load files: at the start of a line of its
// input, or as the whole of an argument.
var sqliteDot = lazyre.New(`(?m)^[ \t]*\.([a-z]+)\b[ \t]*([^\n]*)`)

// sqliteCommands are the dot-commands sqliteArgs reads, with the shortest
// prefix of each that the sqlite3 shell accepts (it takes an unambiguous
// abbreviation: .sh is .shell, .sys .system, .o .output).
var sqliteCommands = []struct{ name, min string }{
	{"shell", "sh"}, {"system", "sy"}, {"output", "o"}, {"once", "on"}, {"read", "rea"},
	{"import", "im"}, {"load", "lo"}, {"excel", "exc"}, {"save", "sa"}, {"backup", "ba"},
	{"restore", "rest"}, {"open", "op"}, {"log", "log"},
}

// sqliteCommand returns the dot-command word abbreviates, "" if none
// sqliteArgs reads.
func sqliteCommand(word string) string {
	for _, c := range sqliteCommands {
		if strings.HasPrefix(c.name, word) && strings.HasPrefix(word, c.min) {
			return c.name
		}
	}
	return ""
}

// sqliteArgs: the sqlite3 shell, whose arguments after the database are
// SQL or dot-commands (so are the values of -cmd and its standard
// input). `.shell CMD` and `.system CMD` run CMD through the shell;
// `.output F`, `.once F`, `.save F`, `.backup F` and `.log F` write F;
// `.read F`, `.import F T`, `.restore F` and `.open F` read F (a line
// .read runs starting with | runs a command); `.load LIB` loads code.
// Arguments naming files are also read as any unmodelled program's are
// (the database).
func sqliteArgs(w *walker, c *call) {
	w.unmodelledArgs(c.name, c.args)
	// Every argument may be input (the value of -cmd too); a dot-command
	// only counts at the start of a line, which SQL and options do not
	// begin with.
	inputs := slices.Clip(c.args)
	if text, static, found := w.stdinText(c.redirs); found {
		inputs = append(inputs, field{s: text, static: static})
	}
	for _, f := range inputs {
		if !f.known() {
			w.incomplete("sqlite3 input that is not static")
			continue
		}
		for _, m := range sqliteDot().FindAllStringSubmatch(f.s, maxInlineCalls) {
			m[1] = sqliteCommand(m[1])
			if m[1] == "" {
				continue
			}
			arg := strings.TrimSpace(m[2])
			if v, static, _, ok := plainLang.literal(arg, 0); ok && static {
				arg = v
			}
			switch m[1] {
			case "shell", "system":
				w.script(arg, w.depth+1, "sqlite3 ."+m[1])
			case "load":
				w.unknownCode("sqlite3 .load " + snippet(arg))
			case "excel":
				// Opens the result in a program the system chooses.
				w.unknownCode("sqlite3 .excel")
			default:
				name := firstWord(arg)
				if strings.HasPrefix(name, "-") {
					// .once -x, .output -e: a program shows the output.
					w.unknownCode("sqlite3 ." + m[1] + " " + snippet(arg))
					continue
				}
				if strings.HasPrefix(name, "|") {
					w.script(strings.TrimPrefix(arg, "|"), w.depth+1, "sqlite3 ."+m[1])
					continue
				}
				if name == "" {
					continue
				}
				switch m[1] {
				case "output", "once", "save", "backup", "log":
					if name != "stdout" && name != "stderr" && name != "off" {
						w.addPath(name, w.writes, "sqlite3 ."+m[1])
					}
				default:
					w.addPath(name, w.reads, "sqlite3 ."+m[1])
				}
			}
		}
	}
}

// firstWord is the first blank-separated word of s, unquoted when it is
// one quoted literal.
func firstWord(s string) string {
	if v, static, _, ok := plainLang.literal(s, 0); ok && static {
		return v
	}
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// osaShell finds AppleScript's `do shell script` and JXA's doShellScript.
var osaShell = lazyre.New(`(?i)\bdo\s+shell\s+script\b|\bdoShellScript\s*\(`)

// osascript: the statements of -e run `do shell script "CMD"`, a shell
// command; one written as a single literal is walked, any other cannot be
// known. A script file operand is read.
func osascript(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "elis", posix: true})
	code := p.values("-e")
	if len(code) == 0 && len(p.operands) > 0 {
		w.path(p.operands[0], w.reads, c.name)
		w.unmodelledArgs(c.name, p.operands[1:])
	}
	if text, static, found := w.stdinText(c.redirs); found && len(code) == 0 && len(p.operands) == 0 {
		code = append(code, field{s: text, static: static})
	}
	for _, f := range code {
		if !f.known() {
			w.unknownCode("osascript code that is not static: " + snippet(f.raw))
			continue
		}
		for _, m := range osaShell().FindAllStringIndex(f.s, maxInlineCalls) {
			rest := f.s[m[1]:]
			if strings.HasSuffix(strings.TrimSpace(f.s[m[0]:m[1]]), "(") {
				w.unknownCode("osascript doShellScript: " + snippet(rest))
				continue
			}
			v, static, end, ok := plainLang.literal(rest, 0)
			if !ok || !static || osaJoined(rest[end:]) {
				w.unknownCode("osascript do shell script with a command only known at run time: " + snippet(rest))
				continue
			}
			w.script(v, w.depth+1, "osascript do shell script")
		}
	}
}

// osaJoined reports whether what follows a literal joins more text to it
// (AppleScript's & operator).
func osaJoined(after string) bool {
	return strings.HasPrefix(strings.TrimLeft(after, " \t"), "&")
}
