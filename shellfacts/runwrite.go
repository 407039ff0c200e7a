package shellfacts

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command line may write a file and then run it: `curl -o x.sh URL &&
// bash x.sh` is `curl URL | bash` through a file, and `echo 'rm -rf ~' >
// s.sh; sh s.sh` is `echo 'rm -rf ~' | sh`. The walker remembers what each
// statement put into the files it wrote (written), and a shell, source,
// an interpreter or the kernel running one of them later in the same
// command line is analysed as the pipe would be: the download's program
// becomes the command's PipeFrom (the network rules see curl|bash),
// static text is parsed as the script, and another program's output is
// code only known when it runs. Nothing is carried from one command line
// to the next: a caller that knows which files earlier command lines or
// tools wrote has their scripts read through Options.ScriptFile
// (runEarlier).

// writtenFile is what the command line put into a file.
type writtenFile struct {
	fetcher  string // the program that downloaded it (curl, wget)
	producer string // else a program whose output it is, unknown to Parse
	text     string // else static text (known)
	known    bool
}

// loggedWrite is one write a program's handler recorded (see noteWrite).
type loggedWrite struct {
	path string
	idx  int // the command writing, in Facts.Commands
}

// fetcher reports a program whose output is a download; the builtin
// exfiltration-pipe-to-shell rule names the same programs.
func fetcher(name string) bool {
	switch name {
	case "curl", "wget", "wget2", "fetch", "http", "https", "xh", "xhs", "aria2c", "nc", "ncat":
		return true
	}
	return false
}

// contentNeutral are programs whose writes change a file's metadata, not
// its content (chmod +x s.sh before ./s.sh).
func contentNeutral(name string) bool {
	switch name {
	case "chmod", "chown", "chgrp", "touch", "chattr", "setfacl", "xattr":
		return true
	}
	return false
}

// noteWrite logs a write a handler records through addPath, for
// scriptWrites to attribute once the statement is walked; scriptWrites
// reads the statement's redirections itself.
func (w *walker) noteWrite(set map[string]bool, canon, what string) {
	if what == "redirection" || len(w.facts.Commands) == 0 || !mapsSame(set, w.writes) || len(w.writeLog) >= maxPaths {
		return
	}
	w.writeLog = append(w.writeLog, loggedWrite{path: canon, idx: len(w.facts.Commands) - 1})
}

// stmtMark is where a statement's walk started: the writes and commands
// it records come after it.
type stmtMark struct{ log, cmds int }

func (w *walker) markStmt() stmtMark {
	return stmtMark{log: len(w.writeLog), cmds: len(w.facts.Commands)}
}

// scriptWrites records what statement s, walked since m, put into the
// files it wrote: through a redirection of its standard output, or
// through a program that writes files (tee, curl -o, wget).
func (w *walker) scriptWrites(s *syntax.Stmt, c ctx, m stmtMark) {
	// The writes are this statement's (a nested one took its own): they
	// are dropped once attributed, so an enclosing statement does not
	// attribute them again.
	logged := w.writeLog[m.log:]
	defer func() { w.writeLog = w.writeLog[:m.log] }()
	// The statement's own command: the last one it started at this
	// depth (substitutions in its words come first).
	own := -1
	if _, ok := s.Cmd.(*syntax.CallExpr); ok {
		for i := m.cmds; i < len(w.facts.Commands); i++ {
			if w.facts.Commands[i].Depth == w.depth {
				own = i
			}
		}
	}
	out := w.stmtOutput(s, c, own)
	for _, lw := range logged {
		cm := w.facts.Commands[lw.idx]
		switch {
		case fetcher(cm.Name):
			w.setWritten(lw.path, writtenFile{fetcher: cm.Name}, false)
		case cm.Name == "tee" && lw.idx == own:
			w.setWritten(lw.path, w.stmtInput(s, c), argsHave(cm.Args, "-a", "--append"))
		case contentNeutral(cm.Name):
		default:
			w.overwritten(lw.path, cm.Name)
			if _, ok := w.written[lw.path]; !ok && w.opts.ScriptFile != nil && len(w.changed) < maxPaths {
				if w.changed == nil {
					w.changed = map[string]string{}
				}
				w.changed[lw.path] = cm.Name
			}
		}
	}
	if own >= 0 {
		switch cm := w.facts.Commands[own]; cm.Name {
		case "wget":
			w.wgetNamed(cm)
		case "cp", "mv", "install":
			w.copied(cm)
		}
	}
	for _, r := range s.Redirs {
		if r.Word == nil || (r.N != nil && r.N.Value != "1") {
			continue
		}
		appendTo := false
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob:
		case syntax.AppOut, syntax.AppAll, syntax.AppAllClob:
			appendTo = true
		default:
			continue
		}
		if p, ok := w.writtenPath(w.redirWord(r)); ok {
			w.setWritten(p, out, appendTo)
		}
	}
}

// argsHave reports whether args, before any --, hold one of opts (a
// short one also in a cluster: tee -ai).
func argsHave(args []string, opts ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		for _, o := range opts {
			if a == o || (len(o) == 2 && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a[1:], rune(o[1]))) {
				return true
			}
		}
	}
	return false
}

// setWritten records what a file now holds; appending adds to what the
// command line put there before (or, for a file it did not write, to
// content that was there already, which running it runs as a file).
func (w *walker) setWritten(p string, f writtenFile, appendTo bool) {
	if w.written == nil {
		w.written = map[string]writtenFile{}
	}
	if old, ok := w.written[p]; ok && appendTo {
		switch {
		case old.fetcher != "" || old.producer != "":
			return
		case f.known:
			f.text = old.text + f.text
		}
	}
	w.written[p] = f
}

// overwritten records that a program Parse does not follow changed a
// file the command line wrote: static text is then no longer what it
// holds, while a download stays one (a later tool may only have patched
// it).
func (w *walker) overwritten(p, by string) {
	if old, ok := w.written[p]; ok && old.fetcher == "" {
		w.written[p] = writtenFile{producer: by}
	}
}

// copied records that the destination of cp, mv or install holds what
// its one source held, when the command line wrote that.
func (w *walker) copied(cm Command) {
	var ops []string
	for _, a := range cm.Args {
		if !strings.HasPrefix(a, "-") || a == "-" {
			ops = append(ops, a)
		}
	}
	if len(ops) != 2 {
		return
	}
	src, err := w.canonical(ops[0])
	if err != nil {
		return
	}
	f, ok := w.written[src]
	if !ok {
		return
	}
	dst, err := w.canonical(ops[1])
	if err != nil {
		return
	}
	if fi, err := os.Stat(dst); err == nil && fi.IsDir() {
		dst = filepath.Join(dst, filepath.Base(src))
	}
	w.written[dst] = f
}

// wgetNamed records the files wget writes under the names of the URLs it
// downloads, when no -O names the file and no -P a directory.
func (w *walker) wgetNamed(cm Command) {
	for _, a := range cm.Args {
		if strings.HasPrefix(a, "-O") || strings.HasPrefix(a, "--output-document") || strings.HasPrefix(a, "-P") ||
			strings.HasPrefix(a, "--directory-prefix") || a == "-r" || a == "--recursive" {
			return
		}
	}
	for _, a := range cm.Args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		u, err := url.Parse(a)
		if err != nil || u.Host == "" {
			continue
		}
		name := path.Base(u.Path)
		if name == "." || name == "/" || name == "" {
			name = "index.html"
		}
		if p, err := w.canonical(name); err == nil && w.dirKnown {
			w.setWritten(p, writtenFile{fetcher: cm.Name}, false)
		}
	}
}

// writtenPath is the canonical path a redirection word names.
func (w *walker) writtenPath(fs []field) (string, bool) {
	if len(fs) != 1 || !fs[0].known() || fs[0].s == "" || (!strings.HasPrefix(fs[0].s, "/") && !w.dirKnown) {
		return "", false
	}
	p, err := w.canonical(fs[0].s)
	return p, err == nil
}

// stmtOutput is what statement s writes on its standard output: a
// download, static text (echo or printf with static words, cat or tee
// passing on their input), or another program's output.
func (w *walker) stmtOutput(s *syntax.Stmt, c ctx, own int) writtenFile {
	if own < 0 {
		return writtenFile{producer: "a compound command"}
	}
	cm := w.facts.Commands[own]
	switch {
	case fetcher(cm.Name):
		return writtenFile{fetcher: cm.Name}
	case cm.Dynamic:
		return writtenFile{producer: cm.Name}
	case cm.Name == "echo" || cm.Name == "printf":
		if text, ok := printed(cm.Name, cm.Args); ok && own == len(w.facts.Commands)-1 {
			return writtenFile{text: text, known: true}
		}
	case cm.Name == "tee":
		return w.stmtInput(s, c)
	case cm.Name == "cat":
		for _, a := range cm.Args {
			if a != "-" && !strings.HasPrefix(a, "-") {
				// cat FILE... > x: running x runs those files, whose
				// reads are recorded, as cat FILE | sh does.
				return writtenFile{}
			}
		}
		return w.stmtInput(s, c)
	}
	return writtenFile{producer: cm.Name}
}

// stmtInput is what statement s reads on its standard input: a static
// here-document or here-string, the static text or download piped in,
// or another program's output.
func (w *walker) stmtInput(s *syntax.Stmt, c ctx) writtenFile {
	if text, static, found := w.stdinText(s.Redirs); found {
		if static {
			return writtenFile{text: text, known: true}
		}
		return writtenFile{producer: "a here-document that is not static"}
	}
	if r := lastStdin(s.Redirs); r != nil {
		// < FILE: the file's content, read as the file is.
		return writtenFile{}
	}
	switch {
	case c.pipeKnown:
		return writtenFile{text: c.pipeText, known: true}
	case fetcher(c.pipeFrom):
		return writtenFile{fetcher: c.pipeFrom}
	case c.pipeFrom != "":
		for _, up := range c.upstream {
			if fetcher(up) {
				return writtenFile{fetcher: up}
			}
		}
		return writtenFile{producer: c.pipeFrom}
	}
	return writtenFile{}
}

// How a written file is run (runWritten).
const (
	runShell  = iota // by a shell or source: the text is shell code
	runInterp        // by another interpreter: code Parse does not parse
	runExec          // by the kernel: a shell script, or any program
)

// runWritten analyses the run of script or program f by c when the
// command line wrote it earlier.
func (w *walker) runWritten(c *call, f field, how int) {
	if (len(w.written) == 0 && w.opts.ScriptFile == nil) || !f.known() || (how == runExec && !strings.Contains(f.s, "/")) {
		return
	}
	p, err := w.canonical(f.s)
	if err != nil {
		return
	}
	wf, ok := w.written[p]
	if !ok {
		w.runEarlier(c, f, p, how)
		return
	}
	what := c.name + " " + f.raw
	switch {
	case wf.fetcher != "":
		// As curl URL | bash: Pipes shows the download run.
		if cmd := &w.facts.Commands[c.idx]; cmd.PipeFrom == "" {
			cmd.PipeFrom = wf.fetcher
		} else {
			cmd.Upstream = append(cmd.Upstream, wf.fetcher)
		}
		if how == runExec {
			// A downloaded program: no interpreter's name says so.
			w.incomplete(what + " runs a program downloaded by " + wf.fetcher)
			w.unknownCode(what + " (downloaded by " + wf.fetcher + ")")
		}
	case wf.known:
		if how == runInterp || (how == runExec && !shellScript(wf.text)) {
			// python3 x.py: code in another language, searched for
			// files it opens as -c code is.
			for _, m := range openCall().FindAllStringSubmatch(wf.text, 64) {
				w.addPath(m[1], w.reads, c.name+" code")
			}
			return
		}
		w.script(wf.text, w.depth+1, what+" (written by the command line)")
	case wf.producer != "":
		w.incomplete(what + " runs a file another program wrote")
		w.unknownCode(wf.producer + " > " + f.raw + "; " + what)
	}
}

// runEarlier analyses the run of script f (canonical path p), which the
// command line did not write, by c when the caller asks for it to be
// read (Options.ScriptFile): a file an earlier call wrote.
func (w *walker) runEarlier(c *call, f field, p string, how int) {
	if w.opts.ScriptFile == nil {
		return
	}
	if !strings.HasPrefix(f.s, "/") && !w.dirKnown {
		// After a cd to a place only known at run time the file run is
		// not the one the path names here.
		return
	}
	text, read, err := w.opts.ScriptFile(p)
	if !read {
		return
	}
	what := c.name + " " + f.raw
	if err != nil {
		w.incomplete(what + " runs a file written earlier that could not be read")
		w.unknownCode(what + " (written earlier: " + err.Error() + ")")
		return
	}
	if by, ok := w.changed[p]; ok {
		// The text read is what the file held before this command line
		// changed it.
		w.incomplete(what + " runs a file written earlier and changed by " + by)
		w.unknownCode(by + " changes " + f.raw + "; " + what)
		return
	}
	switch {
	case how == runInterp:
		// python3 x.py: code in another language, searched for the
		// calls inline code is (inlinecode.go).
		w.fileCode(c.name, text)
		return
	case how == runExec && !shellScript(text):
		// #!/usr/bin/env python3 likewise.
		if prog, ok := shebangProgram(text); ok {
			w.fileCode(prog, text)
		}
		return
	}
	w.script(text, w.depth+1, what+" (written earlier)")
}

// shellScript reports whether the kernel runs text with a shell: it has
// no #! line (the shell runs it), or one naming a shell.
func shellScript(text string) bool {
	prog, ok := shebangProgram(text)
	return !ok || isShellName(prog)
}

// shebangProgram returns the name of the program a #! line runs the
// file with (through env, past its options and assignments: #!/usr/bin/env
// -S python3 -u is python3); ok is false without a #! line naming one.
func shebangProgram(text string) (string, bool) {
	line, ok := strings.CutPrefix(text, "#!")
	if !ok {
		return "", false
	}
	line, _, _ = strings.Cut(line, "\n")
	fs := strings.Fields(line)
	if len(fs) == 0 {
		return "", false
	}
	prog := path.Base(fs[0])
	if prog == "env" {
		for _, f := range fs[1:] {
			if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
				continue
			}
			return path.Base(f), true
		}
		return "", false
	}
	return prog, true
}
