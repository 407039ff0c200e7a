package shellfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/vouch-dev/vouch/internal/lazyre"
)

// shell handles bash, sh and the other shells: -c STRING is parsed as a
// nested command line; a script operand is read; with neither, the script
// comes from stdin, which is either a here-document (parsed too) or a
// pipe (PipeFrom says from what).
func shell(w *walker, c *call) {
	args := c.args
	command, stdin := false, false
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		if f.known() && (f.s == "--" || f.s == "-") {
			// `bash -` is `bash --`: with no operand after it, the
			// script comes from stdin (echo ... | sh -).
			i++
			break
		}
		if !f.known() || len(f.s) < 2 || (f.s[0] != '-' && f.s[0] != '+') {
			break
		}
		if strings.HasPrefix(f.s, "--") {
			switch f.s {
			case "--rcfile", "--init-file":
				if i+1 < len(args) {
					w.path(args[i+1], w.reads, c.name)
				}
				i++
			case "--command":
				// fish --command STRING
				command = true
			}
			continue
		}
		letters := f.s[1:]
		if strings.ContainsRune(letters, 'c') {
			command = true
		}
		if strings.ContainsRune(letters, 's') && f.s[0] == '-' {
			stdin = true
		}
		if strings.ContainsAny(letters, "oO") {
			// -o OPTION / -O SHOPT take a value.
			i++
		}
	}
	if i >= len(args) || (stdin && !command) {
		if command {
			return
		}
		// The operands, if any, are the script's arguments, which it
		// may read as files (see unmodelledArgs).
		w.shellStdin(c)
		w.unmodelledArgs(c.name, args[min(i, len(args)):])
		return
	}
	first := args[i]
	if command {
		if first.from != "" {
			w.setPipeFrom(c, first.from)
		}
		w.nestedString(first, c.name+" -c")
		// The words after the code are its $0, $1 ...: the code
		// reads them only through variables it cannot be followed
		// through (bash -c 'cat "$1"' sh .env).
		w.unmodelledArgs(c.name, args[i+1:])
		return
	}
	if first.from != "" {
		w.setPipeFrom(c, first.from)
	}
	if first.known() && w.fdScript(c, first) {
		// bash /dev/stdin <<< '...', bash /dev/fd/3 3<<< '...'
		return
	}
	if !first.known() {
		// `bash <(echo ...)`, `sh "$SCRIPT"`: the script is not known.
		w.unknownCode(c.name + " " + first.raw)
	}
	w.runWritten(c, first, runShell)
	w.path(first, w.reads, c.name)
	// The script's arguments: bash x.sh .env reads .env most likely.
	w.unmodelledArgs(c.name, args[i+1:])
}

// scriptSource reports a producer whose output piped into a shell is
// accounted for otherwise (see shellStdin).
func scriptSource(name string) bool {
	switch name {
	case "curl", "wget", "cat", "tee":
		return true
	}
	return false
}

// stdinSubst returns the program whose output a command reads on its
// standard input through a process substitution (`bash < <(curl x)`,
// `0< <(curl x)`) or a here-string that is one command substitution
// (`bash <<< "$(curl x)"`), "" when its input is anything else. The substitution
// is walked here, one level deeper, so that its producer is known before
// the command's handler decides; redirects then does not walk it again.
func (w *walker) stdinSubst(c *call) string {
	from := ""
	for _, r := range c.redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		default:
			continue
		}
		// The last redirection of descriptor 0 is the one in effect.
		from = ""
		switch {
		case r.Word == nil:
			continue
		case r.Op == syntax.RdrIn && soleProcIn(r.Word):
		case r.Op == syntax.WordHdoc && soleCmdSubst(r.Word):
			// bash <<< "$(curl x)", source /dev/stdin <<< "$(curl x)":
			// the here-string is the producer's output.
		default:
			continue
		}
		if fs := w.redirWord(r); len(fs) == 1 {
			from = fs[0].from
		}
	}
	return from
}

// stdinPath reports whether a script operand names standard input.
func stdinPath(p string) bool {
	n, ok := fdPath(p)
	return ok && n == "0"
}

// fdPath returns the file descriptor a path names (/dev/stdin,
// /dev/fd/N, /proc/self/fd/N, /dev/stdin's siblings).
func fdPath(p string) (string, bool) {
	switch p {
	case "/dev/stdin":
		return "0", true
	case "/dev/stdout":
		return "1", true
	case "/dev/stderr":
		return "2", true
	}
	for _, pre := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"} {
		if n, ok := strings.CutPrefix(p, pre); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			n = strings.TrimLeft(n, "0")
			if n == "" {
				n = "0"
			}
			return n, true
		}
	}
	return "", false
}

// fdScript analyses a script a shell or source reads through a path that
// names one of its file descriptors (bash /dev/stdin, source /dev/fd/3):
// standard input as a shell with no script operand reads it
// (shellStdin), another descriptor as the here-document or here-string
// redirected to it, or a file redirected to it as a script file read; a
// descriptor opened elsewhere is code only known at run time. It
// reports false when the path names no descriptor.
func (w *walker) fdScript(c *call, f field) bool {
	fd, ok := fdPath(f.s)
	if !ok {
		return false
	}
	if fd == "0" {
		w.shellStdin(c)
		return true
	}
	var last *syntax.Redirect
	for _, r := range c.redirs {
		if r.N != nil && r.N.Value == fd {
			last = r
		}
	}
	what := c.name + " " + f.raw
	switch {
	case last == nil:
		w.incomplete(what + ": a descriptor opened outside the command")
		w.unknownCode(what)
	case last.Op == syntax.Hdoc || last.Op == syntax.DashHdoc || last.Op == syntax.WordHdoc:
		if text, static, _ := w.stdinText([]*syntax.Redirect{last}); static {
			w.script(text, w.depth+1, c.name+" here-document")
			return true
		}
		w.incomplete(c.name + " reads a script that is not static")
		w.unknownCode(c.name + " <<here-document")
	case (last.Op == syntax.RdrIn || last.Op == syntax.RdrInOut) && last.Word != nil && !soleProcIn(last.Word):
		// bash /dev/fd/3 3< script.sh runs script.sh, whose read
		// the redirection records.
	default:
		w.incomplete(what + " reads its script from a descriptor")
		w.unknownCode(what)
	}
	return true
}

// soleCmdSubst reports whether a word is nothing but one command
// substitution, $(...) or `...`, quoted or not.
func soleCmdSubst(word *syntax.Word) bool {
	if len(word.Parts) != 1 {
		return false
	}
	part := word.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok {
		if len(dq.Parts) != 1 {
			return false
		}
		part = dq.Parts[0]
	}
	_, ok := part.(*syntax.CmdSubst)
	return ok
}

// soleProcIn reports whether a word is nothing but one input process
// substitution, <(...).
func soleProcIn(word *syntax.Word) bool {
	if len(word.Parts) != 1 {
		return false
	}
	ps, ok := word.Parts[0].(*syntax.ProcSubst)
	return ok && ps.Op == syntax.CmdIn
}

// shellStdin parses the here-document or here-string a shell reads its
// script from.
func (w *walker) shellStdin(c *call) {
	if from := w.stdinSubst(c); from != "" {
		// `bash < <(curl x)` is `curl x | bash`; the redirection
		// replaces any pipe into the shell.
		w.facts.Commands[c.idx].PipeFrom = from
	}
	text, static, found := w.stdinText(c.redirs)
	switch {
	case !found && c.pipeKnown && lastStdin(c.redirs) == nil:
		// echo 'rm -rf ~' | sh: the script is the static output of
		// an echo or printf.
		w.script(c.pipeText, w.depth+1, c.name+" script")
	case !found:
		// bash < s.sh runs s.sh as bash s.sh does: a file the command
		// line or an earlier call wrote is its script (runWritten).
		if r := lastStdin(c.redirs); r != nil && (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut) {
			if fs := w.redirWord(r); len(fs) == 1 {
				w.runWritten(c, fs[0], runShell)
			}
		} else if r == nil && c.pipeFile != nil {
			// cat s.sh | bash runs s.sh as bash < s.sh does.
			w.runWritten(c, *c.pipeFile, runShell)
		}
		// Reads its script from the pipe or the terminal; PipeFrom
		// records a pipe. Code made by the producer is only known when
		// it runs (`echo ... | sh`, `base64 -d | sh`), unless the
		// producer fetches it (curl, wget: Pipes says so, for the
		// network rules) or passes a file on (cat, tee: like running
		// the file, whose read is recorded).
		if from := w.facts.Commands[c.idx].PipeFrom; from != "" && !scriptSource(from) {
			w.incomplete(c.name + " reads its script from a pipe")
			w.unknownCode(from + " | " + c.name)
		}
	case !static:
		w.incomplete(c.name + " reads a script that is not static")
		if from := w.facts.Commands[c.idx].PipeFrom; from != "" && scriptSource(from) {
			// bash <<< "$(curl x)": the fetched script, which Pipes
			// reports to the network rules, as for curl x | bash.
			break
		}
		w.unknownCode(c.name + " <<here-document")
	default:
		w.script(text, w.depth+1, c.name+" here-document")
	}
}

// evalArgs: eval joins its arguments with spaces and runs the result.
func evalArgs(w *walker, c *call) {
	parts := make([]string, 0, len(c.args))
	for _, f := range c.args {
		if !f.known() {
			if len(c.args) == 1 && w.initSnippet(f.raw) {
				w.incomplete("eval of the set-up " + f.raw + " prints")
				return
			}
			if len(c.args) == 1 && f.from != "" {
				w.setPipeFrom(c, f.from)
			}
			w.incomplete("eval of a string that is not static")
			w.unknownCode("eval " + f.raw)
			return
		}
		parts = append(parts, f.s)
	}
	if len(parts) > 0 {
		w.script(strings.Join(parts, " "), w.depth+1, "eval")
	}
}

func suCommand(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "cCgGsw", long: []string{"command", "session-command", "group", "supp-group", "shell", "whitelist-environment"}})
	cs := p.values("-c", "--command", "-C", "--session-command")
	for _, s := range cs {
		w.nestedString(s, c.name+" -c")
	}
	if len(cs) == 0 {
		// su [-] [user]: the user's shell reads its script from stdin.
		w.shellStdin(c)
	}
}

// newgrpShell: newgrp [-] [group] starts a shell, which reads stdin.
func newgrpShell(w *walker, c *call) { w.shellStdin(c) }

// sgCommand: sg [-] group [-c] command runs command with /bin/sh -c; with
// no command it starts a shell, which reads stdin.
func sgCommand(w *walker, c *call) {
	args := c.args
	if len(args) > 0 && args[0].known() && args[0].s == "-" {
		args = args[1:]
	}
	if len(args) > 0 {
		args = args[1:] // the group
	}
	if len(args) > 0 && args[0].known() && args[0].s == "-c" {
		args = args[1:]
	}
	if len(args) == 0 {
		w.shellStdin(c)
		return
	}
	parts := make([]string, 0, len(args))
	for _, f := range args {
		if !f.known() {
			w.incomplete("sg with a command that is not static")
			w.unknownCode("sg " + f.raw)
			return
		}
		parts = append(parts, f.s)
	}
	w.script(strings.Join(parts, " "), w.depth+1, "sg")
}

func trapCommand(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{posix: true})
	if p.has("-l", "-p") || len(p.operands) < 2 {
		return
	}
	w.nestedString(p.operands[0], "trap")
}

func aliasValues(w *walker, c *call) {
	for _, f := range c.args {
		if !f.known() {
			w.incomplete("alias with a value that is not static")
			continue
		}
		if _, v, ok := strings.Cut(f.s, "="); ok {
			w.nestedString(field{s: v, static: true}, "alias")
		}
	}
}

// watchCommand: watch runs its arguments, joined, through sh -c.
func watchCommand(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "ndq", long: []string{"interval", "differences", "equexit"}, posix: true})
	if len(p.operands) == 0 {
		return
	}
	if p.has("-x", "--exec") {
		w.simple(p.operands, nil, false, nil, ctx{wrappers: []string{"watch"}})
		return
	}
	parts := make([]string, 0, len(p.operands))
	for _, f := range p.operands {
		if !f.known() {
			w.incomplete("watch with a command that is not static")
			return
		}
		parts = append(parts, f.s)
	}
	w.script(strings.Join(parts, " "), w.depth+1, "watch")
}

// lineLoopFiles records the files a perl or ruby one-liner loops over
// (and writes back with -i).
func (w *walker) lineLoopFiles(files []field, inPlace bool, name string) {
	w.pathsTo(files, w.reads, name)
	if inPlace {
		w.pathsTo(files, w.writes, name)
	}
}

// openCall finds file names passed to open() and friends in inline code.
// It is a best-effort look into another language, not a parser of it.
var openCall = lazyre.New(`\b(?:open|Path|read_text|read_bytes|readFileSync|readFile|createReadStream|File\.read|IO\.read|file_get_contents|fopen|load)\s*\(\s*(?:f|r|rb|b)?["']([^"'\\\n]{1,1000})["']`)

// isLetters reports whether s is ASCII letters only.
func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// interpreter: python -c / node -e / perl -e code (or a here-document fed
// to the interpreter) is searched for files it opens; a script operand is
// read; perl and ruby -n/-p one-liners read their file operands. The
// arguments the script or code is given are a program vouch does not
// model's (python3 x.py .env reads .env; see unmodelledArgs).
func interpreter(w *walker, c *call) {
	if c.name == "deno" {
		w.denoRemote(c.args)
		if len(c.args) > 1 && c.args[0].known() && c.args[0].s == "eval" {
			// deno eval CODE
			if c.args[1].known() {
				w.inlineCode(c.name, c.args[1].s)
			} else {
				w.incomplete("deno eval code that is not static")
			}
		}
	}
	var code []field
	var rest []field // the arguments the code or script gets
	script := -1
	args := c.args
	lineLoop := c.name == "perl" || c.name == "ruby"
	inPlace := false
	var opts []field // the interpreter's own option words
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || !strings.HasPrefix(f.s, "-") {
			script = i
			rest = args[i+1:]
			break
		}
		if f.s == "-" {
			rest = args[i+1:]
			break
		}
		opts = append(opts, f)
		switch {
		case lineLoop && f.s[1] != '-' && strings.ContainsRune(f.s, 'i') && !strings.HasSuffix(f.s, "e"):
			// perl -i edits the files in place.
			inPlace = true
		case lineLoop && len(f.s) > 2 && f.s[1] != '-' && (strings.HasSuffix(f.s, "e") || c.name == "perl" && strings.HasSuffix(f.s, "E")):
			// perl -ne 'code' FILE...: the operands after the code
			// are files the loop reads.
			if strings.ContainsRune(f.s, 'i') {
				inPlace = true
			}
			if i+1 < len(args) {
				code = append(code, args[i+1])
				w.lineLoopFiles(args[i+2:], inPlace, c.name)
			}
			i = len(args)
		case lineLoop && f.s == "-e":
			if i+1 < len(args) {
				code = append(code, args[i+1])
				w.lineLoopFiles(args[i+2:], inPlace, c.name)
			}
			i = len(args)
		case f.s == "-c" || f.s == "-e" || f.s == "-E" || f.s == "--eval" || f.s == "-p" || f.s == "--print" || f.s == "-r":
			if i+1 < len(args) {
				code = append(code, args[i+1])
				rest = args[i+2:]
			}
			i = len(args)
		case len(f.s) > 2 && f.s[1] != '-' && isLetters(f.s[1:]) &&
			(langOf(c.name) == pythonLang && strings.HasSuffix(f.s, "c") || langOf(c.name) == jsLang && (f.s == "-pe" || f.s == "-ep")):
			// python3 -Bc CODE, -uc, -Ic; node -pe CODE: flags
			// clustered before the one taking the code.
			if i+1 < len(args) {
				code = append(code, args[i+1])
				rest = args[i+2:]
			}
			i = len(args)
		case f.s == "-m":
			// python -m module: runs a module, no script file.
			if i+1 < len(args) {
				rest = args[i+2:]
			}
			i = len(args)
		case strings.HasPrefix(f.s, "-c") && len(f.s) > 2 && c.name != "perl" && c.name != "ruby":
			code = append(code, field{s: f.s[2:], static: true})
			rest = args[i+1:]
			i = len(args)
		case f.s == "-W" || f.s == "-X" || f.s == "-I" || f.s == "--require" || f.s == "-r":
			i++
		}
	}
	if text, static, found := w.stdinText(c.redirs); found && static && script < 0 && len(code) == 0 {
		code = append(code, field{s: text, static: true})
	}
	switch {
	case script >= 0 && args[script].from != "":
		// python3 <(curl x): the script is what the producer prints.
		w.setPipeFrom(c, args[script].from)
	case script < 0 && len(code) == 0, script >= 0 && args[script].known() && stdinPath(args[script].s):
		// The script comes from standard input (python3 < <(curl x)).
		if from := w.stdinSubst(c); from != "" {
			w.facts.Commands[c.idx].PipeFrom = from
		}
	}
	for _, f := range code {
		if f.from != "" {
			// python3 -c "$(curl x)"
			w.setPipeFrom(c, f.from)
		}
		if !f.known() {
			w.incomplete(c.name + " code that is not static")
			continue
		}
		for _, m := range openCall().FindAllStringSubmatch(f.s, 64) {
			w.addPath(m[1], w.reads, c.name+" code")
		}
		w.inlineCode(c.name, f.s)
	}
	if script >= 0 {
		w.runWritten(c, args[script], runInterp)
		w.path(args[script], w.reads, c.name)
	}
	// An option's attached value may name a file it loads (node
	// --env-file=.env), and the script or code gets the rest.
	w.unmodelledArgs(c.name, opts)
	w.unmodelledArgs(c.name, rest)
}
