package shellfacts

import (
	"slices"
	"strings"
)

// Wrappers are looked up by name; the table is a switch rather than a
// map so that it holds no state and cannot be changed at run time.

// wrapResult is what stripping one wrapper leaves.
type wrapResult struct {
	ok         bool    // the program was used as a wrapper
	rest       []field // the wrapped command and its arguments
	env        []string
	envDynamic bool
	stdinArgs  bool // the wrapped command gets more arguments from input
	// inputRepl, with stdinArgs, is the string the input replaces in the
	// arguments (xargs -I R, parallel's {}), "" when the input is
	// appended to them instead.
	inputRepl string
	// nulInput, with stdinArgs, is set when the input is split at NULs
	// only (xargs -0), so that each path a listing prints is one
	// argument whatever characters it holds.
	nulInput bool
	// plainInput, with stdinArgs, says the input is read from stdin and
	// split at blanks (or, with inputRepl, at newlines) as xargs does
	// by default: no -0, -d, -E or -a (see xargsInput).
	plainInput bool
	chdir      *field // the wrapped command runs in this directory
	// after runs once the wrapper is recorded as the command itself (a
	// string it will run, such as env -S or flock -c, is parsed then, so
	// commands stay in the order they start).
	after func()
	// shell: given no command, the wrapper starts a shell, which reads
	// its script from stdin (sudo -s, chroot DIR, unshare, script): it
	// is analysed as a shell fed that stdin (shellStdin).
	shell bool
}

type wrapFunc func(w *walker, args []field) wrapResult

// wrapperFor returns how to strip the wrapper called name, or nil when name
// is not a wrapper. Wrappers run another program named in their arguments;
// a rule about that program must see it whatever wraps it.
func wrapperFor(name string) wrapFunc {
	switch name {
	case "sudo":
		return wrapSudo
	case "doas":
		return shellWrapper(name, optSpec{withValue: "auC", flags: "Lns", posix: true, closed: true}, "-s")
	case "runuser":
		return wrapRunuser
	case "env":
		return wrapEnv
	case "timeout":
		return wrapTimeout
	case "nice":
		return wrapNice
	case "nohup":
		return simpleWrapper(name, optSpec{longFlags: []string{"help", "version"}, posix: true, closed: true, gnu: true})
	case "builtin", "catchsegv", "nocorrect", "noglob":
		return simpleWrapper(name, optSpec{posix: true, closed: true})
	case "busybox", "toybox":
		return simpleWrapper(name, optSpec{longFlags: []string{"help", "list", "list-full", "install"}, posix: true, closed: true})
	case "prlimit":
		return wrapPrlimit
	case "fakeroot":
		// fakeroot [-l LIB] [--faked BIN] [-s FILE] [-i FILE] [-u] [-b FD] [--] [COMMAND...]; without a command it starts a shell.
		return shellWrapper(name, optSpec{withValue: "lsib", flags: "uhv", long: []string{"lib", "faked"},
			longFlags: []string{"unknown-is-real", "help", "version"}, posix: true, closed: true})
	case "rlwrap":
		return wrapRlwrap
	case "perf":
		return wrapPerf
	case "start-stop-daemon":
		return wrapStartStopDaemon
	case "unbuffer":
		return simpleWrapper(name, optSpec{flags: "p", posix: true, closed: true})
	case "torsocks":
		return simpleWrapper(name, optSpec{withValue: "upaP", flags: "idqh", long: []string{"user", "pass", "address", "port"},
			longFlags: []string{"isolate", "debug", "quiet", "help", "version", "shell"}, posix: true, closed: true})
	case "proxychains", "proxychains4":
		return simpleWrapper(name, optSpec{withValue: "f", flags: "q", posix: true, closed: true})
	case "chronic":
		return simpleWrapper(name, optSpec{flags: "ev", posix: true, closed: true})
	case "time":
		return wrapTime
	case "command":
		return wrapCommand
	case "exec":
		return simpleWrapper(name, optSpec{withValue: "a", flags: "cl", posix: true, closed: true})
	case "xargs":
		return wrapXargs
	case "stdbuf":
		return simpleWrapper(name, optSpec{withValue: "ioe", long: []string{"input", "output", "error"}, longFlags: []string{"help", "version"}, posix: true, closed: true, gnu: true})
	case "ionice":
		return wrapIonice
	case "setsid":
		return simpleWrapper(name, optSpec{flags: "cfwhV", longFlags: []string{"ctty", "fork", "wait", "help", "version"}, posix: true, closed: true, gnu: true})
	case "chrt":
		return wrapChrt
	case "taskset":
		return wrapTaskset
	case "flock":
		return wrapFlock
	case "strace":
		return wrapTracer("strace", straceSpec)
	case "ltrace":
		return wrapTracer("ltrace", ltraceSpec)
	case "chroot":
		return wrapChroot
	case "pkexec":
		return shellWrapper(name, optSpec{withValue: "u", long: []string{"user"}, longFlags: []string{"keep-cwd", "disable-internal-agent", "help", "version"}, posix: true, closed: true})
	case "gosu", "su-exec":
		// gosu USER COMMAND...
		return skipOperands(name, optSpec{posix: true, closed: true}, 1)
	case "setpriv":
		return closedWrapper("setpriv", setprivSpec, false)
	case "unshare":
		return closedWrapper("unshare", unshareSpec, true)
	case "nsenter":
		return closedWrapper("nsenter", nsenterSpec, true)
	case "firejail":
		// firejail's options take their values after =, so an
		// option not known cannot swallow the program.
		return shellWrapper(name, optSpec{posix: true})
	case "systemd-run":
		return wrapSystemdRun
	case "xvfb-run":
		return simpleWrapper(name, optSpec{withValue: "nsfepw", flags: "alh", long: []string{"server-num", "server-args", "auth-file", "error-file", "xauth-protocol", "wait"},
			longFlags: []string{"auto-servernum", "auto-display", "listen-tcp", "help"}, posix: true, closed: true})
	case "dbus-run-session":
		return simpleWrapper(name, optSpec{longOptional: []string{"config-file", "dbus-daemon"}, longFlags: []string{"help", "version"}, posix: true, closed: true})
	case "caffeinate":
		return simpleWrapper(name, optSpec{withValue: "tw", flags: "dimsu", posix: true, closed: true})
	case "tini":
		return simpleWrapper(name, optSpec{withValue: "ep", flags: "svwglh", posix: true, closed: true})
	case "dumb-init":
		return simpleWrapper(name, optSpec{withValue: "r", flags: "cvVh", long: []string{"rewrite"}, longFlags: []string{"single-child", "verbose", "version", "help"}, posix: true, closed: true})
	case "ssh-agent":
		return simpleWrapper(name, optSpec{withValue: "aEPtO", flags: "cskdD", posix: true, closed: true})
	case "parallel", "sem":
		// sem is parallel --semaphore: the same options, one job.
		return wrapParallel
	case "cgexec":
		// cgexec [-g CONTROLLERS:PATH]... [--sticky] COMMAND...
		return simpleWrapper(name, optSpec{withValue: "g", flags: "h", longFlags: []string{"sticky"}, posix: true, closed: true})
	case "chpst":
		// runit's chpst; -/ (a new root) is left out of the table, so
		// it asks: paths would be inside another root.
		return simpleWrapper(name, optSpec{withValue: "uUbeCnlLmdopfcrt", flags: "vP012", posix: true, closed: true})
	case "faketime":
		// faketime [-m] [-f] [-p PID] TIMESTAMP COMMAND...; --date-prog
		// names a program to run and is left out, so it asks.
		return skipOperands(name, optSpec{withValue: "p", flags: "mfh", longFlags: []string{"exclude-monotonic"}, posix: true, closed: true}, 1)
	case "numactl":
		return simpleWrapper(name, optSpec{withValue: "iPpmNC", flags: "albsH",
			long:      []string{"interleave", "preferred", "preferred-many", "membind", "cpunodebind", "physcpubind"},
			longFlags: []string{"all", "localalloc", "balancing", "show", "hardware"}, posix: true, closed: true, gnu: true})
	case "s6-setuidgid":
		// s6-setuidgid ACCOUNT COMMAND...
		return skipOperands(name, optSpec{posix: true, closed: true}, 1)
	case "systemd-inhibit":
		return simpleWrapper(name, optSpec{flags: "h", long: []string{"what", "who", "why", "mode"},
			longFlags: []string{"list", "no-pager", "no-legend", "help", "version"}, posix: true, closed: true, gnu: true})
	case "valgrind":
		// Every valgrind option takes its value after =, so an option
		// not known cannot swallow the program.
		return simpleWrapper(name, optSpec{posix: true})
	case "with-contenv":
		return simpleWrapper(name, optSpec{posix: true, closed: true})
	case "gdb", "lldb", "hyperfine":
		return wrapUnread(name)
	case "dotenv":
		return wrapDotenv
	case "script":
		return wrapScript
	case "screen":
		return wrapScreen
	case "uv", "poetry", "pipenv", "pdm", "hatch", "rye", "pixi", "bundle", "pnpm", "yarn", "mise", "rtx", "asdf", "direnv", "conda", "micromamba", "devbox":
		return wrapRunner(name)
	case "run0":
		return wrapRun0
	case "sshpass":
		return wrapSshpass
	case "nix-shell":
		return wrapNixShell
	case "nix":
		return wrapNix
	case "flatpak-spawn":
		return wrapFlatpakSpawn
	case "aws-vault":
		// aws-vault exec PROFILE [--] COMMAND; with no command, $SHELL.
		return secretsRunner("aws-vault", "exec", awsVaultGlobal, awsVaultExec, true, true)
	case "op":
		// 1Password: op run [--env-file F] -- COMMAND.
		return secretsRunner("op", "run", opGlobal, opRun, false, false)
	case "doppler":
		return wrapDoppler
	case "bwrap":
		return wrapBwrap
	case "proot":
		return wrapProot
	case "entr":
		return wrapEntr
	case "npx":
		return fetchWrapper(npxRunner)
	case "bunx":
		return fetchWrapper(bunxRunner)
	case "pnpx":
		return fetchWrapper(pnpmDlxRunner)
	case "uvx":
		return fetchWrapper(uvxRunner())
	case "npm", "bun", "pipx", "go", "gem", "dotnet":
		return subFetchWrapper(name)
	case "dnx":
		return func(w *walker, args []field) wrapResult { return w.dnxRun(dnxRunner, args) }
	}
	return nil
}

// argsReadWhenStripped reports whether a wrapper that was not used as
// one (the loop in simple found no command in it) has had its arguments
// read already, where it was stripped. The package managers that run a
// package only through one subcommand (npm exec, pipx run) are ordinary
// programs otherwise, read like any program vouch does not model.
func argsReadWhenStripped(name string) bool {
	switch name {
	case "npm", "pipx", "go", "bun", "gem", "dotnet":
		return false
	}
	return wrapperFor(name) != nil
}

// skipOperands strips options and then n operands (gosu's user) before
// the wrapped command.
func skipOperands(name string, spec optSpec, n int) wrapFunc {
	return func(w *walker, args []field) wrapResult {
		p := parseOpts(args, spec)
		w.unknownOpts(name, p)
		if len(p.operands) <= n {
			return wrapResult{}
		}
		return wrapResult{ok: true, rest: p.operands[n:]}
	}
}

// wrapRunner: environment managers that run a command in a prepared
// environment: uv run, poetry run, bundle exec, direnv exec DIR, conda run.
func wrapRunner(name string) wrapFunc {
	return func(w *walker, args []field) wrapResult {
		return runner(w, name, args)
	}
}

// runnerVerb is the subcommand with which each runner runs a program
// (yarn run and pnpm run run package scripts, not programs).
func runnerVerb(name, verb string) bool {
	switch name {
	case "bundle", "yarn", "pnpm", "asdf", "direnv":
		return verb == "exec"
	case "mise", "rtx":
		return verb == "exec" || verb == "x"
	case "pixi":
		return verb == "run" || verb == "exec"
	}
	return verb == "run"
}

// simpleWrapper strips the options of a wrapper whose first operand is the
// wrapped program.
// wrapUnread is for a program that runs commands vouch does not read
// from its command line: a debugger (gdb --args, -ex 'shell ...', lldb
// --) or a benchmark runner (hyperfine's operands and --prepare are
// shell code). What they run is unknown code, which a policy asks about.
func wrapUnread(name string) wrapFunc {
	return func(w *walker, args []field) wrapResult {
		raw := name
		for _, a := range args {
			raw += " " + a.raw
		}
		w.incomplete(name + " runs commands vouch does not read")
		w.unknownCode(raw)
		return wrapResult{}
	}
}

func simpleWrapper(name string, spec optSpec) wrapFunc {
	return func(w *walker, args []field) wrapResult {
		p := parseOpts(args, spec)
		w.unknownOpts(name, p)
		return wrapResult{ok: true, rest: p.operands}
	}
}

// shellWrapper is simpleWrapper for a wrapper that starts a shell when
// given no command (unshare, nsenter, pkexec), or given no command and
// one of opts (doas -s).
func shellWrapper(name string, spec optSpec, opts ...string) wrapFunc {
	return func(w *walker, args []field) wrapResult {
		p := parseOpts(args, spec)
		w.unknownOpts(name, p)
		return wrapResult{ok: true, rest: p.operands, shell: len(p.operands) == 0 && (len(opts) == 0 || p.has(opts...))}
	}
}

// leadingEnv takes NAME=value operands off the front of args.
func leadingEnv(args []field) (env []string, dynamic bool, rest []field) {
	for len(args) > 0 {
		f := args[0]
		if !f.known() {
			// Could be an assignment or the program; it is the
			// program's slot either way, and not static.
			break
		}
		name, _, ok := strings.Cut(f.s, "=")
		if !ok || !isName(name) {
			break
		}
		env = append(env, f.s)
		args = args[1:]
	}
	return env, dynamic, args
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

func wrapSudo(w *walker, args []field) wrapResult {
	// sudo(8); getopt_long, so long options may be abbreviated.
	p := parseOpts(args, optSpec{
		withValue:    "aCcDghpRrTtUu",
		flags:        "ABbEeHiKklNnPSsVv",
		long:         []string{"user", "group", "prompt", "close-from", "chdir", "role", "type", "command-timeout", "other-user", "chroot", "host", "auth-type", "login-class"},
		longOptional: []string{"preserve-env"},
		longFlags: []string{"askpass", "bell", "background", "edit", "set-home", "help", "login", "remove-timestamp", "reset-timestamp", "list",
			"no-update", "non-interactive", "preserve-groups", "stdin", "shell", "version", "validate"},
		posix: true, closed: true, gnu: true,
	})
	w.unknownOpts("sudo", p)
	if p.has("-e", "--edit", "-l", "--list", "-v", "--validate", "-k", "-K", "--reset-timestamp", "--remove-timestamp", "-V", "--version", "-h", "--help") && len(p.operands) == 0 {
		return wrapResult{}
	}
	if p.has("-e", "--edit") {
		// sudoedit: the operands are files, not a command.
		return wrapResult{}
	}
	env, dyn, rest := leadingEnv(p.operands)
	res := wrapResult{ok: true, rest: rest, env: env, envDynamic: dyn}
	if len(rest) == 0 && p.has("-s", "--shell", "-i", "--login") {
		res.shell = true
	}
	if d := p.values("-D", "--chdir"); len(d) > 0 {
		res.chdir = &d[len(d)-1]
	}
	return res
}

// wrapRunuser: runuser -u USER [--] COMMAND runs COMMAND as USER; the
// su-like forms (runuser USER -c STRING) are left to the su handler.
func wrapRunuser(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{
		withValue: "ugGcCsw",
		flags:     "lmpPfhV",
		long:      []string{"user", "group", "supp-group", "command", "session-command", "shell", "whitelist-environment"},
		longFlags: []string{"login", "preserve-environment", "pty", "fast", "help", "version"},
		posix:     true, closed: true, gnu: true,
	})
	w.unknownOpts("runuser", p)
	if !p.has("-u", "--user") || len(p.operands) == 0 || p.has("-c", "--command", "-C", "--session-command") {
		return wrapResult{}
	}
	return wrapResult{ok: true, rest: p.operands}
}

func wrapEnv(w *walker, args []field) wrapResult {
	// GNU env (and BSD env's -P); the signal options take a list only
	// when it is attached (--default-signal=INT).
	p := parseOpts(args, optSpec{
		withValue:    "uCSP",
		flags:        "i0v",
		long:         []string{"unset", "chdir", "split-string"},
		longOptional: []string{"default-signal", "ignore-signal", "block-signal"},
		longFlags:    []string{"ignore-environment", "null", "debug", "list-signal-handling", "help", "version"},
		posix:        true, closed: true, gnu: true,
	})
	w.unknownOpts("env", p)
	ops := p.operands
	if len(ops) > 0 && ops[0].known() && ops[0].s == "-" {
		// A lone "-" is GNU env's old spelling of -i, not the program.
		ops = ops[1:]
	}
	env, dyn, rest := leadingEnv(ops)
	res := wrapResult{ok: true, env: env, envDynamic: dyn, rest: rest}
	if d := p.values("-C", "--chdir"); len(d) > 0 {
		res.chdir = &d[len(d)-1]
	}
	if s := p.values("-S", "--split-string"); len(s) > 0 {
		// env -S splits one string into the command and its
		// arguments: treat it as a nested command line.
		if !s[0].known() {
			w.incomplete("env -S with a string that is not static")
			w.unknownCode("env -S " + s[0].raw)
			return wrapResult{}
		}
		text := s[0].s
		if after, ok := afterSplitString(args); ok {
			// GNU env reads no option after -S STRING: env -S bash
			// -c 'cmd' passes -c and cmd to bash.
			rest = after
		}
		for _, f := range rest {
			text += " " + shellQuote(f)
		}
		return wrapResult{after: func() { w.script(text, w.depth+1, "env -S") }}
	}
	return res
}

// afterSplitString returns the arguments after env's -S STRING (or
// -SSTRING, --split-string[=]STRING), all of which go to the command.
func afterSplitString(args []field) ([]field, bool) {
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || f.s == "--" || len(f.s) < 2 || f.s[0] != '-' {
			return nil, false
		}
		switch {
		case f.s == "-S" || f.s == "--split-string":
			if i+2 > len(args) {
				return nil, false
			}
			return args[i+2:], true
		case strings.HasPrefix(f.s, "--split-string="):
			return args[i+1:], true
		case f.s == "-u" || f.s == "-C" || f.s == "-P" || f.s == "--unset" || f.s == "--chdir":
			i++ // the option's value
		case !strings.HasPrefix(f.s, "--"):
			j := strings.IndexAny(f.s, "uCPS")
			if j < 0 {
				continue
			}
			if f.s[j] == 'S' {
				if j+1 == len(f.s) {
					if i+2 > len(args) {
						return nil, false
					}
					return args[i+2:], true
				}
				return args[i+1:], true
			}
			if j+1 == len(f.s) {
				i++ // -iu NAME
			}
		}
	}
	return nil, false
}

// shellQuote renders a field back as one shell word; a field that is not
// static becomes a parameter expansion, so it stays dynamic when reparsed.
func shellQuote(f field) string {
	if !f.known() {
		return `"$__vouch_dynamic"`
	}
	return "'" + strings.ReplaceAll(f.s, "'", `'\''`) + "'"
}

func wrapTimeout(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{withValue: "sk", flags: "fpv", long: []string{"signal", "kill-after"},
		longFlags: []string{"foreground", "preserve-status", "verbose", "help", "version"}, posix: true, closed: true, gnu: true})
	w.unknownOpts("timeout", p)
	if len(p.operands) < 2 {
		return wrapResult{}
	}
	return wrapResult{ok: true, rest: p.operands[1:]}
}

func wrapNice(w *walker, args []field) wrapResult {
	// nice -10 cmd is an old spelling of nice -n 10 cmd.
	if len(args) > 0 && args[0].known() && len(args[0].s) > 1 && args[0].s[0] == '-' && isDigits(strings.TrimPrefix(args[0].s[1:], "-")) {
		args = args[1:]
	}
	p := parseOpts(args, optSpec{withValue: "n", long: []string{"adjustment"}, longFlags: []string{"help", "version"}, posix: true, closed: true, gnu: true})
	w.unknownOpts("nice", p)
	return wrapResult{ok: true, rest: p.operands}
}

func wrapTime(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{withValue: "fo", flags: "apqvV", long: []string{"format", "output"},
		longFlags: []string{"append", "portability", "quiet", "verbose", "help", "version"}, posix: true, closed: true, gnu: true})
	w.unknownOpts("time", p)
	for _, o := range p.values("-o", "--output") {
		w.path(o, w.writes, "time -o")
	}
	return wrapResult{ok: true, rest: p.operands}
}

func wrapCommand(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{flags: "pvV", posix: true, closed: true})
	w.unknownOpts("command", p)
	if p.has("-v", "-V") {
		// command -v looks a program up; it does not run it.
		return wrapResult{}
	}
	return wrapResult{ok: true, rest: p.operands}
}

func wrapXargs(w *walker, args []field) wrapResult {
	// GNU xargs: -e, -i and -l (--eof, --replace, --max-lines) take a
	// value only when it is attached.
	p := parseOpts(args, optSpec{
		withValue:    "adEILnPs",
		optional:     "eil",
		flags:        "0prtx",
		long:         []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
		longOptional: []string{"eof", "replace", "max-lines"},
		longFlags:    []string{"null", "interactive", "no-run-if-empty", "verbose", "exit", "open-tty", "show-limits", "help", "version"},
		posix:        true, closed: true, gnu: true,
	})
	w.unknownOpts("xargs", p)
	for _, f := range p.values("-a", "--arg-file") {
		w.path(f, w.reads, "xargs -a")
	}
	if len(p.operands) == 0 {
		// Plain xargs runs echo.
		return wrapResult{}
	}
	// With -I R (or -i, R = {}), each input line replaces R in the
	// arguments: in a shell's code string (xargs -I{} sh -c '{}') that
	// is code only known when it runs.
	repl := ""
	for _, o := range p.opts {
		switch {
		case o.name != "-I" && o.name != "-i" && o.name != "--replace":
		case !o.hasVal && o.name != "-I":
			repl = "{}" // -i and --replace alone replace {}
		case o.hasVal && o.val.known():
			repl = o.val.s
		}
	}
	if name := p.operands[0]; repl != "" && name.known() && isShellName(baseName(name.s)) {
		// xargs puts the input line into the words textually, before
		// the shell parses them: in the code of sh -c (or the name of
		// the script it runs) the input is code, and a line holding
		// `; rm -rf ~` (a file name may) runs it. Where the shell
		// takes it as an argument ($1 in sh -c '...' _ %), it is data.
		if f, command, ok := shellCodeOperand(p.operands[1:]); ok && (!f.known() || strings.Contains(f.s, repl)) {
			words, how := name.s+" "+f.raw, "each input line names the script "+name.s+" runs"
			if command {
				words, how = name.s+" -c "+f.raw, "each input line replaces "+repl+" in the code before "+name.s+" parses it"
			}
			w.incomplete("xargs -I" + repl + " " + name.s + ": " + how + ", so the input is code")
			w.unknownCode("xargs -I" + repl + " " + words + " (" + how + ")")
		}
	}
	plain := !p.has("-0", "--null", "-d", "--delimiter", "-E", "-e", "--eof", "-a", "--arg-file")
	return wrapResult{ok: true, rest: p.operands, stdinArgs: true, inputRepl: repl, nulInput: p.has("-0", "--null"), plainInput: plain}
}

// shellCodeOperand finds, in a shell's arguments, the word it takes as
// its code (command, with -c) or as the name of its script file, as the
// shell handler reads them; ok is false when the script comes from
// stdin.
func shellCodeOperand(args []field) (f field, command, ok bool) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.known() && (a.s == "--" || a.s == "-") {
			i++
			break
		}
		if !a.known() || len(a.s) < 2 || (a.s[0] != '-' && a.s[0] != '+') {
			break
		}
		if strings.HasPrefix(a.s, "--") {
			switch a.s {
			case "--rcfile", "--init-file":
				i++
			case "--command":
				command = true
			}
			continue
		}
		letters := a.s[1:]
		command = command || strings.ContainsRune(letters, 'c')
		if strings.ContainsRune(letters, 's') && a.s[0] == '-' && !command {
			return field{}, false, false
		}
		if strings.ContainsAny(letters, "oO") {
			i++
		}
	}
	if i >= len(args) {
		return field{}, command, false
	}
	return args[i], command, true
}

func wrapIonice(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{withValue: "cnpPu", flags: "thV", long: []string{"class", "classdata", "pid", "pgid", "uid"},
		longFlags: []string{"ignore", "help", "version"}, posix: true, closed: true, gnu: true})
	w.unknownOpts("ionice", p)
	if p.has("-p", "--pid", "-P", "--pgid", "-u", "--uid") {
		return wrapResult{}
	}
	return wrapResult{ok: true, rest: p.operands}
}

func wrapChrt(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{withValue: "TPD", flags: "abdfiormpRvhVe", long: []string{"sched-runtime", "sched-deadline", "sched-period"},
		longFlags: []string{"all-tasks", "batch", "deadline", "fifo", "idle", "other", "rr", "ext", "reset-on-fork", "max", "pid", "verbose", "help", "version"},
		posix:     true, closed: true, gnu: true})
	w.unknownOpts("chrt", p)
	if p.has("-p", "--pid") || len(p.operands) < 2 {
		return wrapResult{}
	}
	return wrapResult{ok: true, rest: p.operands[1:]}
}

func wrapTaskset(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{flags: "acphV", longFlags: []string{"all-tasks", "cpu-list", "pid", "help", "version"}, posix: true, closed: true, gnu: true})
	w.unknownOpts("taskset", p)
	if p.has("-p", "--pid") || len(p.operands) < 2 {
		return wrapResult{}
	}
	return wrapResult{ok: true, rest: p.operands[1:]}
}

func wrapChroot(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{long: []string{"userspec", "groups"}, longFlags: []string{"skip-chdir", "help", "version"}, posix: true, closed: true, gnu: true})
	w.unknownOpts("chroot", p)
	if len(p.operands) == 1 {
		// chroot DIR runs $SHELL -i.
		return wrapResult{ok: true, shell: true}
	}
	if len(p.operands) < 2 {
		return wrapResult{}
	}
	w.incomplete("chroot: paths are inside another root")
	return wrapResult{ok: true, rest: p.operands[1:]}
}

func wrapFlock(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{withValue: "wEc", flags: "sexunoFhV", long: []string{"timeout", "conflict-exit-code", "command"},
		longFlags: []string{"shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose", "help", "version"}, posix: true, closed: true, gnu: true})
	w.unknownOpts("flock", p)
	if len(p.operands) == 0 {
		return wrapResult{}
	}
	lock := p.operands[0]
	if !(lock.known() && isDigits(lock.s)) {
		w.path(lock, w.writes, "flock")
	}
	rest := p.operands[1:]
	if c := p.values("-c", "--command"); len(c) > 0 {
		return wrapResult{after: func() { w.nestedString(c[0], "flock -c") }}
	}
	if len(rest) >= 2 && rest[0].known() && (rest[0].s == "-c" || rest[0].s == "--command") {
		return wrapResult{after: func() { w.nestedString(rest[1], "flock -c") }}
	}
	return wrapResult{ok: true, rest: rest}
}

// nestedString parses a shell string given as an argument one level deeper.
func (w *walker) nestedString(f field, what string) {
	if !f.known() {
		w.incomplete(what + " with a string that is not static")
		w.unknownCode(what + " " + f.raw)
		return
	}
	// The string runs in a child process: its cd and assignments do not
	// reach this shell, and it sees only exported variables and the
	// assignments written before the command, which Parse does not
	// track, so inside it every variable is unknown.
	st := w.saveDir()
	w.vars = map[string]string{}
	w.script(f.s, w.depth+1, what)
	w.restoreDir(st)
}

// wrapFlatpakSpawn: flatpak-spawn [--host] COMMAND runs COMMAND, on the
// host with --host, out of the sandbox; --env=NAME=VALUE sets its
// environment.
func wrapFlatpakSpawn(w *walker, args []field) wrapResult {
	p := parseOpts(args, flatpakSpawnSpec)
	w.unknownOpts("flatpak-spawn", p)
	res := wrapResult{ok: true, rest: p.operands}
	for _, e := range p.values("--env") {
		if !e.known() {
			res.envDynamic = true
			continue
		}
		res.env = append(res.env, e.s)
	}
	if d := p.values("--directory"); len(d) > 0 {
		res.chdir = &d[len(d)-1]
	}
	return res
}

// bwrapArity is how many values each bubblewrap option takes (an
// option not listed takes none).
var bwrapArity = map[string]int{
	"--args": 1, "--argv0": 1, "--userns": 1, "--userns2": 1, "--pidns": 1, "--uid": 1, "--gid": 1, "--hostname": 1,
	"--chdir": 1, "--unsetenv": 1, "--lock-file": 1, "--sync-fd": 1, "--remount-ro": 1, "--exec-label": 1, "--file-label": 1,
	"--proc": 1, "--dev": 1, "--tmpfs": 1, "--mqueue": 1, "--dir": 1, "--seccomp": 1, "--add-seccomp-fd": 1,
	"--block-fd": 1, "--userns-block-fd": 1, "--info-fd": 1, "--json-status-fd": 1, "--cap-add": 1, "--cap-drop": 1,
	"--perms": 1, "--size": 1, "--level-prefix": 0,
	"--setenv": 2, "--bind": 2, "--bind-try": 2, "--dev-bind": 2, "--dev-bind-try": 2, "--ro-bind": 2, "--ro-bind-try": 2,
	"--bind-fd": 2, "--ro-bind-fd": 2, "--file": 2, "--bind-data": 2, "--ro-bind-data": 2, "--symlink": 2, "--chmod": 2,
	"--overlay-src": 1, "--overlay": 3, "--tmp-overlay": 1, "--ro-overlay": 1,
}

// wrapBwrap: bubblewrap runs its command in a sandbox it builds from its
// options, each of which takes a fixed number of values; the command
// starts at the first word that is not an option. --args FD reads more
// options from a descriptor, which cannot be seen.
func wrapBwrap(w *walker, args []field) wrapResult {
	var chdir *field
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || !strings.HasPrefix(f.s, "--") {
			res := wrapResult{ok: true, rest: args[i:], chdir: chdir}
			return res
		}
		if f.s == "--" {
			return wrapResult{ok: true, rest: args[i+1:], chdir: chdir}
		}
		if f.s == "--args" {
			w.incomplete("bwrap --args reads options from a descriptor")
		}
		if f.s == "--chdir" && i+1 < len(args) {
			d := args[i+1]
			chdir = &d
		}
		if i+2 < len(args) {
			// A bind gives its source a second name inside the sandbox
			// (--ro-bind ~/.ssh /tmp/k): the source is what is touched.
			switch f.s {
			case "--bind", "--bind-try", "--dev-bind", "--dev-bind-try":
				w.bindSource(args[i+1], args[i+2], false, "bwrap "+f.s)
			case "--ro-bind", "--ro-bind-try", "--symlink":
				w.bindSource(args[i+1], args[i+2], true, "bwrap "+f.s)
			}
		}
		i += bwrapArity[f.s]
	}
	return wrapResult{}
}

// wrapProot: proot [options] COMMAND, with no command /bin/sh; with
// -r/-R/-S the paths are inside another root. -q runs each program
// through the command it names (an emulator).
func wrapProot(w *walker, args []field) wrapResult {
	p := parseOpts(args, prootSpec)
	w.unknownOpts("proot", p)
	for _, q := range p.values("-q", "--qemu") {
		w.simpleFromString(q, "proot -q")
	}
	if p.has("-r", "--rootfs", "-R", "-S") {
		w.incomplete("proot: paths are inside another root")
	}
	// -b SRC:DEST gives SRC a second name (read and written through it);
	// -b SRC alone binds it to itself.
	for _, b := range p.values("-b", "--bind", "-m", "--mount") {
		if !b.known() {
			w.incomplete("proot bind that is not static")
			continue
		}
		if src, dest, ok := strings.Cut(b.s, ":"); ok {
			w.bindSource(field{s: src, static: true, raw: src}, field{s: dest, static: true, raw: dest}, false, "proot -b")
		}
	}
	res := wrapResult{ok: true, rest: p.operands, shell: len(p.operands) == 0}
	if d := p.values("-w", "--pwd", "--cwd"); len(d) > 0 {
		res.chdir = &d[len(d)-1]
	}
	return res
}

// wrapEntr: entr runs its command each time a file listed on stdin
// changes: with -s the first operand is a string $SHELL runs, otherwise
// the operands are the command, where /_ stands for the file that
// changed.
func wrapEntr(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{flags: "acdnprsz", posix: true, closed: true})
	w.unknownOpts("entr", p)
	if len(p.operands) == 0 {
		return wrapResult{}
	}
	if p.has("-s") {
		s := p.operands[0]
		return wrapResult{after: func() { w.nestedString(s, "entr -s") }}
	}
	for _, f := range p.operands[1:] {
		if !f.known() || strings.Contains(f.s, "/_") {
			return wrapResult{ok: true, rest: p.operands, stdinArgs: true, inputRepl: "/_"}
		}
	}
	return wrapResult{ok: true, rest: p.operands}
}

// wrapSshpass: sshpass [-f FILE | -d FD | -p PASSWORD | -e] COMMAND runs
// COMMAND (ssh, scp, rsync) typing the password for it; -f reads it from
// a file.
// wrapDotenv: dotenv-cli loads .env, or the -e files, into the
// environment of the command after --; loading them reads them. Without
// --, its option parser (minimist) also takes the command's own options
// as dotenv's, so which words run is not plain, and that is unknown
// code; so is -c, whose value is optional.
func wrapDotenv(w *walker, args []field) wrapResult {
	dash := slices.IndexFunc(args, func(a field) bool { return a.known() && a.s == "--" })
	if dash < 0 {
		return wrapUnread("dotenv")(w, args)
	}
	p := parseOpts(args[:dash], optSpec{withValue: "evp", flags: "o", long: []string{"quiet"},
		longFlags: []string{"debug", "no-expand", "help"}, posix: true, closed: true})
	w.unknownOpts("dotenv", p)
	if len(p.operands) > 0 {
		return wrapUnread("dotenv")(w, args)
	}
	files := p.values("-e")
	if len(files) == 0 {
		files = []field{{s: ".env", static: true, raw: ".env"}}
	}
	w.pathsTo(files, w.reads, "dotenv")
	return wrapResult{ok: true, rest: args[dash+1:]}
}

func wrapSshpass(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{withValue: "fdpP", flags: "evhV", posix: true, closed: true})
	w.unknownOpts("sshpass", p)
	w.pathsTo(p.values("-f"), w.reads, "sshpass")
	return wrapResult{ok: true, rest: p.operands}
}
