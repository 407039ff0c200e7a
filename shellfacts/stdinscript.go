package shellfacts

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// atJob: at and batch read a script on stdin (or from -f FILE) and run it
// later with /bin/sh. -l, -r, -d and -c list, remove or show jobs.
func atJob(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "qft"})
	if p.has("-l", "-r", "-d", "-c") {
		return
	}
	if fs := p.values("-f"); len(fs) > 0 {
		w.pathsTo(fs, w.reads, c.name)
		w.incomplete(c.name + " runs a script file")
		w.unknownCode(c.name + " -f " + fs[len(fs)-1].raw)
		return
	}
	w.stdinScript(c, c.name)
}

// stdinScript analyses the script a program reads on its standard input
// and runs (at, batch, ssh to this machine): a here-document or
// here-string, or the output of an echo or printf piped in, when static,
// is parsed one level deeper; a script from anywhere else (a file, a
// pipe from another program, the terminal) is code only known when it
// runs.
func (w *walker) stdinScript(c *call, what string) {
	r := lastStdin(c.redirs)
	from := w.facts.Commands[c.idx].PipeFrom
	switch {
	case r != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc):
		if text, static, _ := w.stdinText([]*syntax.Redirect{r}); static {
			w.script(text, w.depth+1, what+" script")
			return
		}
		w.incomplete(what + " reads a script that is not static")
		w.unknownCode(what + " <<here-document")
	case r != nil:
		if r.Op == syntax.RdrIn && r.Word != nil {
			if fs := w.fieldsQuiet(r.Word); len(fs) == 1 && fs[0].known() && fs[0].s == "/dev/null" {
				return
			}
		}
		w.incomplete(what + " reads its script from a file")
		raw := r.Op.String()
		if r.Word != nil {
			raw += " " + w.rawOf(r.Word)
		}
		w.unknownCode(what + " " + raw)
	case c.pipeKnown:
		w.script(c.pipeText, w.depth+1, what+" script")
	case from != "":
		w.incomplete(what + " reads its script from a pipe")
		w.unknownCode(from + " | " + what)
	default:
		w.incomplete(what + " reads its script from the terminal")
		w.unknownCode(what + " reading a script from standard input")
	}
}

// lastStdin is the redirection of standard input that takes effect (the
// last one), nil when there is none.
func lastStdin(rs []*syntax.Redirect) *syntax.Redirect {
	var last *syntax.Redirect
	for _, r := range rs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			last = r
		}
	}
	return last
}

// expectScript: expect runs Tcl, whose spawn and exec start any program:
// code given with -c or on stdin is code Parse cannot follow; a script
// file is read.
func expectScript(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "cDfb", posix: true})
	codes := p.values("-c")
	for _, s := range codes {
		w.incomplete("expect runs Tcl code")
		w.unknownCode("expect -c " + s.raw)
	}
	files := p.values("-f", "-b")
	if len(files) == 0 && len(p.operands) > 0 {
		files = p.operands[:1]
	}
	stdin := len(files) == 0 && len(codes) == 0
	for _, f := range files {
		if f.known() && (f.s == "-" || stdinPath(f.s)) {
			stdin = true
			continue
		}
		w.path(f, w.reads, c.name)
	}
	if !stdin {
		return
	}
	if r := lastStdin(c.redirs); r != nil || w.facts.Commands[c.idx].PipeFrom != "" || c.pipeKnown {
		w.incomplete("expect reads Tcl code from standard input")
		w.unknownCode("expect reading code from standard input")
	}
}

// stageOutput returns what a pipeline stage writes to the next one when
// that is known statically: the stage is one echo or printf (it started
// no other command) whose words are all static and whose output is not
// redirected. `echo "rm -rf ~" | at now` hands at that script.
func (w *walker) stageOutput(s *syntax.Stmt, first int) (string, bool) {
	if _, ok := s.Cmd.(*syntax.CallExpr); !ok || len(s.Redirs) > 0 || len(w.facts.Commands) != first+1 {
		return "", false
	}
	cm := w.facts.Commands[first]
	if cm.Depth != w.depth || cm.Dynamic {
		return "", false
	}
	return printed(cm.Name, cm.Args)
}

// stageFile returns the file a pipeline stage passes on unchanged when the
// stage is `cat FILE` (one static operand, no option, no redirection):
// a shell it feeds runs FILE as `bash FILE` would.
func (w *walker) stageFile(s *syntax.Stmt, first int) *field {
	if _, ok := s.Cmd.(*syntax.CallExpr); !ok || len(s.Redirs) > 0 || len(w.facts.Commands) != first+1 {
		return nil
	}
	cm := w.facts.Commands[first]
	if cm.Depth != w.depth || cm.Dynamic || cm.Name != "cat" || len(cm.Wrappers) > 0 {
		return nil
	}
	// -u (unbuffered) and -- change nothing cat prints.
	file := -1
	for i, a := range cm.Args {
		switch {
		case a == "-u" || (a == "--" && file < 0):
		case file < 0 && (!strings.HasPrefix(a, "-") || slices.Contains(cm.Args[:i], "--")):
			file = i
		default:
			return nil
		}
	}
	if file < 0 {
		return nil
	}
	return &field{s: cm.Args[file], static: true, raw: cm.Raw[file]}
}

// printed is what echo or printf print given args, when Parse can tell:
// bash's echo with -n and -E, printf with a format whose only directives
// are %s and %% and whose only escapes are \n, \t and \\. A backslash echo
// may read as an escape, or anything else printf formats, is not known.
func printed(name string, args []string) (string, bool) {
	switch name {
	case "echo":
		newline := true
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			if strings.ContainsRune(args[0], 'n') {
				newline = false
			}
			args = args[1:]
		}
		s := strings.Join(args, " ")
		if strings.Contains(s, `\`) {
			return "", false
		}
		if newline {
			s += "\n"
		}
		return s, true
	case "printf":
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return "", false
		}
		// The format is used again for the arguments its %s did not
		// take (printf '%s\n' a b prints two lines), at least once.
		f, rest := args[0], args[1:]
		var b strings.Builder
		for {
			took := 0
			for i := 0; i < len(f); i++ {
				switch c := f[i]; {
				case c == '%' && i+1 < len(f) && f[i+1] == '%':
					b.WriteByte('%')
					i++
				case c == '%' && i+1 < len(f) && f[i+1] == 's':
					if took < len(rest) {
						b.WriteString(rest[took])
					}
					took++
					i++
				case c == '\\' && i+1 < len(f) && strings.IndexByte("nt\\", f[i+1]) >= 0:
					b.WriteByte(map[byte]byte{'n': '\n', 't': '\t', '\\': '\\'}[f[i+1]])
					i++
				case c == '%' || c == '\\':
					return "", false
				default:
					b.WriteByte(c)
				}
			}
			if took == 0 || took >= len(rest) {
				break
			}
			rest = rest[took:]
		}
		return b.String(), true
	}
	return "", false
}
