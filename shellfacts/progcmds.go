package shellfacts

import (
	"path/filepath"
	"strings"
)

// This file models programs that run a command, or another project's
// code, named in their options: make --eval, make -C DIR, just and task
// pointed elsewhere, vim's -c and +commands, cmake's -E command mode,
// and the wrappers prlimit, fakeroot, toybox, rlwrap, perf and
// start-stop-daemon.

// nameOnlyFiles is the handler of programs that take paths only to print
// their metadata or their names (stat, realpath): nothing of the file's
// content is shown, so an argument naming a secret is no read. A handler
// is needed all the same, as a program without one has its existing
// arguments taken for reads.
func nameOnlyFiles(w *walker, c *call) {}

// trashFiles: trash PATH... (trash-cli, macOS trash, gio trash) moves
// each path into the trash, which removes it from where it was, a
// directory with everything below it.
func trashFiles(w *walker, c *call) {
	args := c.args
	if c.name == "gio" {
		if len(args) == 0 || !args[0].known() {
			return
		}
		switch args[0].s {
		case "trash", "remove", "rm":
			args = args[1:]
		default:
			// gio cat, gio copy ...: read as a program vouch does
			// not model.
			w.unmodelledArgs(c.name, c.args)
			return
		}
	}
	p := parseOpts(args, optSpec{})
	w.removeTo(p.operands, w.deletes, true, c.name)
}

// makeArgs: make --eval=TEXT (-E TEXT) runs makefile text written on the
// command line, which vouch does not read; -C DIR and -f FILE outside the
// project around the working directory run another project's recipes.
// Both are unknown code. Its other arguments are read as those of a
// program vouch does not model (make F=.env reads .env).
func makeArgs(w *walker, c *call) {
	w.unmodelledArgs(c.name, c.args)
	p := parseOpts(c.args, optSpec{withValue: "CEfIjlLoOW", long: []string{"directory", "eval", "file", "makefile",
		"include-dir", "jobs", "load-average", "old-file", "assume-old", "output-sync", "what-if", "new-file", "assume-new",
		"debug", "jobserver-auth", "jobserver-style", "shuffle"}})
	for _, e := range p.values("-E", "--eval") {
		w.incomplete("make --eval runs makefile text vouch does not read")
		w.unknownCode("make --eval " + e.raw)
	}
	w.elsewhereCode(c.name, p.values("-C", "--directory", "-f", "--file", "--makefile"))
}

// justArgs: just --justfile FILE (-f) and --working-directory DIR (-d)
// outside the project run another project's recipes. Its other
// arguments are read as makeArgs reads make's.
func justArgs(w *walker, c *call) {
	w.unmodelledArgs(c.name, c.args)
	p := parseOpts(c.args, optSpec{withValue: "fdc", long: []string{"justfile", "working-directory", "chooser", "color",
		"command-color", "dotenv-filename", "dotenv-path", "list-heading", "list-prefix", "set", "shell", "shell-arg",
		"completions", "dump-format", "show", "usage", "command", "timestamp-format", "alias-style"}})
	w.elsewhereCode(c.name, p.values("-f", "--justfile", "-d", "--working-directory"))
	for _, s := range p.values("--shell", "--command", "-c") {
		w.incomplete(c.name + " runs a shell or command given in its options")
		w.unknownCode(c.name + " " + s.raw)
	}
}

// taskArgs: go-task's task -d DIR (--dir) and -t FILE (--taskfile)
// outside the project run another project's tasks. Its other
// arguments are read as makeArgs reads make's.
func taskArgs(w *walker, c *call) {
	w.unmodelledArgs(c.name, c.args)
	p := parseOpts(c.args, optSpec{withValue: "dtoC", long: []string{"dir", "taskfile", "output", "concurrency",
		"output-group-begin", "output-group-end", "interval", "sort", "json", "completion"}})
	w.elsewhereCode(c.name, p.values("-d", "--dir", "-t", "--taskfile"))
}

// elsewhereCode marks as unknown code each directory or build file that
// lies outside the project around the working directory (the nearest
// directory above it with a .git, else the directory itself), or whose
// place is only known at run time: the recipes run there are not the
// project's, and vouch sees none of them.
func (w *walker) elsewhereCode(prog string, fs []field) {
	if len(fs) == 0 {
		return
	}
	top := w.opts.Cwd
	if t, ok := w.topAbove(w.opts.Cwd); ok {
		top = t
	}
	for _, f := range fs {
		if f.known() && !w.opts.CwdUnknown {
			if cp, err := w.canonical(f.s); err == nil && (cp == top || strings.HasPrefix(cp, strings.TrimSuffix(top, "/")+"/")) {
				continue
			}
		}
		w.incomplete(prog + " runs recipes from " + f.raw + ", outside the project")
		w.unknownCode(prog + " " + f.raw)
	}
}

// topAbove is the nearest directory at or above dir holding a .git.
func (w *walker) topAbove(dir string) (string, bool) {
	if dir == "" {
		return "", false
	}
	if cd, err := w.canonical(dir); err == nil {
		dir = cd
	}
	for d := dir; ; d = filepath.Dir(d) {
		if w.isPath(field{s: filepath.Join(d, ".git"), static: true}) {
			return d, true
		}
		if d == filepath.Dir(d) {
			return "", false
		}
	}
}

// vimCommands: vim's -c CMD, --cmd CMD and +CMD run Ex commands, which
// may run a shell (:!cmd, :r !cmd), write any file (:w! FILE) or source
// a script; -S FILE and -s FILE run a script, -u FILE loads one in place
// of the vimrc. Such a command is unknown code, but for a line number or
// a search (vim +42 f, vim +/pattern f), which move the cursor only.
func vimCommands(w *walker, c *call, p parsed) {
	var cmds []field
	cmds = append(cmds, p.values("-c", "--cmd")...)
	for _, f := range p.operands {
		if f.known() && strings.HasPrefix(f.s, "+") {
			cmds = append(cmds, field{s: f.s[1:], static: true, raw: f.raw})
		}
	}
	for _, f := range cmds {
		if f.known() && plainExCommand(f.s) {
			continue
		}
		w.incomplete(c.name + " runs editor commands, which may run shell commands")
		w.unknownCode(c.name + " " + f.raw)
	}
	for _, f := range p.values("-S", "-s", "-u") {
		if f.known() && (f.s == "NONE" || f.s == "NORC" || f.s == "DEFAULTS") {
			continue
		}
		w.incomplete(c.name + " runs a script of editor commands")
		w.unknownCode(c.name + " " + f.raw)
	}
}

// plainExCommand reports whether an Ex command only moves the cursor: a
// line number, $, or a search without a | that would start another
// command.
func plainExCommand(s string) bool {
	switch {
	case s == "" || s == "$" || isDigits(s):
		return true
	case (strings.HasPrefix(s, "/") || strings.HasPrefix(s, "?")) && !strings.Contains(s, "|"):
		return true
	}
	return false
}

// cmakeArgs: cmake -E TOOL ARGS... is cmake's portable command mode; the
// tools that change files are the plain programs under other names (rm,
// remove_directory, copy, rename, make_directory, touch,
// create_symlink), and chdir, env and time run a command. They are
// analysed as those programs; a tool vouch does not know is unknown
// code. cmake's other modes are read as a program vouch does not model.
func cmakeArgs(w *walker, c *call) {
	if len(c.args) < 2 || !c.args[0].known() || c.args[0].s != "-E" {
		w.unmodelledArgs(c.name, c.args)
		return
	}
	tool, rest := c.args[1], c.args[2:]
	if !tool.known() {
		w.incomplete("cmake -E tool only known at run time")
		w.unknownCode("cmake -E " + tool.raw)
		return
	}
	word := func(s string) field { return field{s: s, static: true, raw: s} }
	run := func(prog ...string) {
		var argv []field
		for _, s := range prog {
			argv = append(argv, word(s))
		}
		w.nestedArgv(append(argv, rest...), "cmake -E "+tool.s, "cmake -E", true)
	}
	switch tool.s {
	case "rm":
		run("rm")
	case "remove":
		run("rm", "-f")
	case "remove_directory":
		run("rm", "-r", "-f")
	case "copy", "copy_if_different":
		run("cp")
	case "copy_directory", "copy_directory_if_different":
		run("cp", "-r")
	case "rename":
		run("mv")
	case "make_directory":
		run("mkdir", "-p")
	case "touch", "touch_nocreate":
		run("touch")
	case "create_symlink":
		run("ln", "-s")
	case "create_hardlink":
		run("ln")
	case "tar":
		run("tar")
	case "cat":
		run("cat")
	case "env", "time":
		// env [--unset=NAME] [NAME=VALUE]... COMMAND..., time COMMAND...
		if tool.s == "env" {
			run("env")
		} else {
			w.nestedArgv(rest, "cmake -E time", "cmake -E", true)
		}
	case "chdir":
		if len(rest) < 2 {
			return
		}
		st := w.saveDir()
		w.cd(rest[0])
		w.nestedArgv(rest[1:], "cmake -E chdir", "cmake -E", w.dirKnown)
		w.restoreDir(st)
	case "echo", "echo_append", "sleep", "true", "false", "environment", "capabilities", "compare_files",
		"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum":
		if tool.s == "compare_files" || strings.HasSuffix(tool.s, "sum") {
			w.pathsTo(rest, w.reads, "cmake -E "+tool.s)
		}
	default:
		w.incomplete("cmake -E " + tool.s + " is not modelled")
		w.unknownCode("cmake -E " + tool.s)
	}
}

// wrapPrlimit: prlimit [--LIMIT[=SOFT:HARD]]... [--pid PID] COMMAND...;
// the limits' values are attached (-n10, --nofile=10).
func wrapPrlimit(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{withValue: "po", optional: "cdefilmnqrstuvxy", flags: "hV",
		long: []string{"pid", "output"},
		longOptional: []string{"core", "data", "nice", "fsize", "sigpending", "memlock", "rss", "nofile", "msgqueue",
			"rtprio", "stack", "cpu", "nproc", "as", "locks", "rttime"},
		longFlags: []string{"noheadings", "raw", "verbose", "help", "version"}, posix: true, closed: true, gnu: true})
	w.unknownOpts("prlimit", p)
	return wrapResult{ok: true, rest: p.operands}
}

// wrapRlwrap: rlwrap [OPTIONS] COMMAND...; -z runs a filter program,
// which is left out of the table so that it asks.
func wrapRlwrap(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{withValue: "bCDefgHlOPqsStwM", optional: "apm", flags: "AcEhiInNrRUvW",
		long: []string{"break-chars", "command-name", "history-no-dupes", "extra-char-after-completion", "file", "forget-matching",
			"history-filename", "logfile", "only-cook", "pre-given", "multi-line-ext", "quote-characters", "histsize",
			"substitute-prompt", "set-term-name", "wait-before-prompt"},
		longOptional: []string{"password-prompt", "prompt-colour", "multi-line"},
		longFlags: []string{"ansi-colour-aware", "complete-filenames", "complete-case-insensitive", "no-children", "help",
			"case-insensitive", "remember", "renice", "no-warnings", "mirror-arguments", "polling", "version", "always-readline",
			"one-shot", "no-echo"},
		posix: true, closed: true, gnu: true})
	w.unknownOpts("rlwrap", p)
	w.pathsTo(p.values("-l", "--logfile"), w.writes, "rlwrap -l")
	return wrapResult{ok: true, rest: p.operands}
}

// wrapPerf: perf stat|record|trace [OPTIONS] [--] COMMAND... runs the
// command under the profiler; perf record writes perf.data (or -o FILE),
// perf stat -o FILE its counts. Other perf commands run none.
func wrapPerf(w *walker, args []field) wrapResult {
	if len(args) == 0 || !args[0].known() {
		if len(args) > 0 {
			w.incomplete("perf subcommand only known at run time")
			w.unknownCode("perf " + args[0].raw)
		}
		return wrapResult{}
	}
	sub := args[0].s
	switch sub {
	case "stat", "record", "trace", "top", "sched", "mem", "c2c", "kmem", "kvm", "lock", "timechart", "ftrace", "bench", "probe", "daemon":
	default:
		return wrapResult{}
	}
	if sub != "stat" && sub != "record" && sub != "trace" {
		// Subcommands that may run a command after their own
		// subcommand (perf sched record CMD): not read.
		if len(args) > 1 {
			w.incomplete("perf " + sub + " may run a command vouch does not read")
			w.unknownCode("perf " + sub)
		}
		return wrapResult{}
	}
	p := parseOpts(args[1:], optSpec{withValue: "eGpPtuoCrxIFcmLjbDS", long: []string{"event", "cgroup", "pid", "tid", "uid", "output",
		"cpu", "repeat", "field-separator", "interval-print", "freq", "count", "mmap-pages", "call-graph", "branch-filter",
		"delay", "filter", "append", "log-fd", "pre", "post", "metrics", "topdown", "duration", "expr", "user-regs",
		"intr-regs", "clockid", "affinity", "aio", "compression-level", "max-size", "switch-output", "switch-max-files",
		"exclude-perf", "control", "event-filter", "syscall", "output-dir", "sort", "max-stack", "min-stack", "proc-map-timeout"},
		posix: true})
	for _, o := range p.values("-o", "--output") {
		w.path(o, w.writes, "perf "+sub+" -o")
	}
	for _, o := range p.values("--pre", "--post") {
		w.nestedString(o, "perf "+sub+" --pre")
	}
	if sub == "record" && len(p.values("-o", "--output")) == 0 {
		w.addPath("perf.data", w.writes, "perf record")
	}
	return wrapResult{ok: true, rest: p.operands}
}

// wrapStartStopDaemon: start-stop-daemon --start --exec PATH [--startas
// PATH] [-- ARGS...] runs PATH (--startas when given) with ARGS; --stop
// and --status run nothing. --chroot puts paths in another root and
// --chdir elsewhere, so the command is not followed then.
func wrapStartStopDaemon(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{withValue: "xapnugcrdNPIksR", flags: "SKTHVbCmoqtv",
		long: []string{"exec", "startas", "pidfile", "name", "user", "group", "chuid", "chroot", "chdir", "nicelevel",
			"procsched", "iosched", "umask", "signal", "retry", "ppid", "notify-timeout", "output"},
		longFlags: []string{"start", "stop", "status", "help", "version", "background", "no-close", "make-pidfile",
			"remove-pidfile", "oknodo", "quiet", "test", "verbose", "notify-await", "close-fds"},
		closed: true, gnu: true})
	w.unknownOpts("start-stop-daemon", p)
	if !p.has("-S", "--start") {
		return wrapResult{}
	}
	prog := p.values("-a", "--startas")
	if len(prog) == 0 {
		prog = p.values("-x", "--exec")
	}
	if len(prog) == 0 {
		return wrapResult{}
	}
	if len(p.values("-r", "--chroot", "-d", "--chdir")) > 0 {
		w.incomplete("start-stop-daemon runs its command in another root or directory")
		w.unknownCode("start-stop-daemon --chroot/--chdir")
	}
	w.pathsTo(p.values("--output"), w.writes, "start-stop-daemon --output")
	return wrapResult{ok: true, rest: append([]field{prog[len(prog)-1]}, p.operands...)}
}
