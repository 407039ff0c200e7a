package shellfacts

import (
	"slices"
	"strings"
)

// The wrappers below read their options from closed tables taken from
// each tool's documentation. A wrapper that meets an option its table
// does not name cannot tell whether the next word is that option's
// value or the program it runs, so the call is marked: the reasons say
// which option, and the command is unknown code (destructive-commands
// asks). The analysis still goes on with the option taken to have no
// value, so a command found that way is decided as well.

// unknownOpts marks the options parseOpts could not place (not known to
// a closed table, or an ambiguous abbreviation); it reports whether
// there were any.
func (w *walker) unknownOpts(prog string, p parsed) bool {
	for _, o := range p.unknown {
		w.incomplete(prog + ": option " + o + " is not known or is ambiguous, so what the command does is not known")
		w.unknownCode(prog + " " + o + " ...")
	}
	return len(p.unknown) > 0
}

// lostVerb marks a wrapper whose operands (ops, the first of which is
// not the subcommand that runs a program) may still hide that
// subcommand: the first is only known at run time, or the subcommand
// appears later (doppler X run, or a value of an option not known taken
// for the subcommand). What it runs is then not known.
func (w *walker) lostVerb(prog string, ops []field, verb func(string) bool) {
	for i, f := range ops {
		if (i == 0 && !f.known()) || (f.known() && verb(f.s)) {
			w.incomplete(prog + ": the subcommand that runs a program is not where it was looked for")
			w.unknownCode(prog + " ... " + f.raw)
			return
		}
	}
}

// closedWrapper strips a wrapper whose first operand is the program,
// reading its options from a closed table; shell says it starts a shell
// when given no command.
func closedWrapper(name string, spec optSpec, shell bool) wrapFunc {
	return func(w *walker, args []field) wrapResult {
		p := parseOpts(args, spec)
		w.unknownOpts(name, p)
		return wrapResult{ok: true, rest: p.operands, shell: shell && len(p.operands) == 0}
	}
}

// setpriv(1), util-linux.
var setprivSpec = optSpec{
	flags: "dhV",
	long: []string{"ruid", "euid", "rgid", "egid", "reuid", "regid", "groups", "inh-caps", "ambient-caps", "bounding-set",
		"securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule", "seccomp-filter", "ptracer"},
	longFlags: []string{"dump", "nnp", "no-new-privs", "keep-groups", "clear-groups", "init-groups", "reset-env", "help", "version"},
	posix:     true, closed: true, gnu: true,
}

// unshare(1), util-linux: the namespace options take a file only when it
// is attached (--mount=FILE).
var unshareSpec = optSpec{
	withValue: "RwSGl",
	optional:  "muinpUCT",
	flags:     "frchV",
	long: []string{"map-user", "map-group", "map-users", "map-groups", "propagation", "setgroups", "root", "wd", "setuid", "setgid",
		"monotonic", "boottime", "load-interp"},
	longOptional: []string{"mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "kill-child", "mount-proc", "mount-binfmt"},
	longFlags:    []string{"fork", "map-root-user", "map-current-user", "map-auto", "keep-caps", "help", "version"},
	posix:        true, closed: true, gnu: true,
}

// nsenter(1), util-linux: -r and -w take a directory only when it is
// attached (-r/DIR, --root=DIR), so a separate word is the program.
var nsenterSpec = optSpec{
	withValue:    "tSGW",
	optional:     "muinpCUTrw",
	flags:        "aeFZchV",
	long:         []string{"target", "setuid", "setgid", "wdns"},
	longOptional: []string{"mount", "uts", "ipc", "net", "pid", "cgroup", "user", "time", "root", "wd"},
	longFlags:    []string{"all", "preserve-credentials", "env", "no-fork", "follow-context", "join-cgroup", "keep-caps", "user-parent", "help", "version"},
	posix:        true, closed: true, gnu: true,
}

// systemd-run(1).
var systemdRunSpec = optSpec{
	withValue: "upMHEC",
	flags:     "tPqGSdrhi",
	long: []string{"unit", "property", "description", "slice", "uid", "gid", "nice", "working-directory", "setenv", "machine", "host",
		"on-active", "on-boot", "on-startup", "on-unit-active", "on-unit-inactive", "on-calendar", "timer-property", "path-property",
		"socket-property", "service-type", "expand-environment", "capsule", "background", "shell-prompt-prefix", "lightweight", "area", "job-mode", "json", "chdir"},
	longFlags: []string{"scope", "user", "system", "remain-after-exit", "send-sighup", "pty", "pty-late", "pipe", "quiet", "verbose", "collect", "wait",
		"no-block", "no-ask-password", "shell", "same-dir", "slice-inherit", "on-clock-change", "on-timezone-change", "ignore-failure", "help", "version",
		"empower", "via-shell", "same-root-dir", "no-pager"},
	posix: true, closed: true, gnu: true,
}

func wrapSystemdRun(w *walker, args []field) wrapResult {
	p := parseOpts(args, systemdRunSpec)
	w.unknownOpts("systemd-run", p)
	res := wrapResult{ok: true, rest: p.operands, shell: len(p.operands) == 0 && p.has("-S", "--shell", "-i", "--via-shell")}
	if d := p.values("--working-directory", "--chdir"); len(d) > 0 {
		res.chdir = &d[len(d)-1]
	}
	return res
}

// run0(1): systemd-run as sudo; with no command it starts a shell.
var run0Spec = optSpec{
	withValue: "ugD",
	flags:     "ih",
	long: []string{"user", "group", "nice", "chdir", "setenv", "unit", "property", "description", "slice", "background", "machine", "area",
		"shell-prompt-prefix", "lightweight"},
	longFlags: []string{"slice-inherit", "pty", "pty-late", "pipe", "empower", "via-shell", "same-root-dir", "no-ask-password", "help", "version"},
	posix:     true, closed: true, gnu: true,
}

func wrapRun0(w *walker, args []field) wrapResult {
	p := parseOpts(args, run0Spec)
	w.unknownOpts("run0", p)
	res := wrapResult{ok: true, rest: p.operands, shell: len(p.operands) == 0}
	if d := p.values("-D", "--chdir"); len(d) > 0 {
		res.chdir = &d[len(d)-1]
	}
	return res
}

// strace(1) and ltrace(1): -o FILE writes the trace to FILE, or pipes it
// to a command when FILE begins with | or !.
var straceSpec = optSpec{
	withValue: "abeEIoOpPsSuUX",
	flags:     "AcCdDfFhiknqrtTvVwxyYzZH",
	long: []string{"trace", "abbrev", "verbose", "raw", "read", "write", "fault", "inject", "status", "trace-path", "signal", "output",
		"summary-columns", "summary-sort-by", "attach", "user", "env", "string-limit", "const-print-style", "argv0", "detach-on",
		"trace-fds", "kvm", "columns"},
	longOptional: []string{"quiet", "silent", "decode-fds", "decode-pids", "timestamps", "relative-timestamps", "syscall-times",
		"daemonize", "strings-in-hex", "tips", "stack-trace-frame-limit"},
	longFlags: []string{"output-separately", "output-append-mode", "summary-only", "summary", "summary-wall-clock", "instruction-pointer",
		"syscall-number", "absolute-timestamps", "follow-forks", "seccomp-bpf", "debug", "help", "version", "no-abbrev",
		"successful-only", "failed-only", "stack-trace", "stack-traces", "interruptible"},
	posix: true, closed: true, gnu: true,
}

var ltraceSpec = optSpec{
	withValue: "aAeDFlnopsuwx",
	flags:     "bcCfhiLrStTV",
	long:      []string{"align", "library", "output", "indent", "config"},
	longFlags: []string{"demangle", "help", "version", "no-signals"},
	posix:     true, closed: true, gnu: true,
}

func wrapTracer(name string, spec optSpec) wrapFunc {
	return func(w *walker, args []field) wrapResult {
		p := parseOpts(args, spec)
		w.unknownOpts(name, p)
		var pipes []field
		for _, o := range p.values("-o", "--output") {
			if o.known() && (strings.HasPrefix(o.s, "|") || strings.HasPrefix(o.s, "!")) {
				pipes = append(pipes, field{s: o.s[1:], static: true, raw: o.raw})
				continue
			}
			w.path(o, w.writes, name+" -o")
		}
		res := wrapResult{ok: true, rest: p.operands}
		if len(pipes) > 0 {
			res.after = func() {
				for _, s := range pipes {
					w.nestedString(s, name+" -o |")
				}
			}
		}
		return res
	}
}

// secretsRunner: programs that run a command with secrets in its
// environment, as PROG [global options] SUB [PROFILE] [options] [--]
// COMMAND (aws-vault exec PROFILE -- CMD, op run -- CMD). profile says
// an operand comes before the command; shell, that with no command the
// program starts a shell. Both tables are closed.
func secretsRunner(name, sub string, global, local optSpec, profile, shell bool) wrapFunc {
	isSub := func(s string) bool { return s == sub }
	return func(w *walker, args []field) wrapResult {
		p := parseOpts(args, global)
		if len(p.operands) == 0 || !p.operands[0].known() || p.operands[0].s != sub {
			w.lostVerb(name, p.operands, isSub)
			return wrapResult{}
		}
		w.unknownOpts(name, p)
		rest := p.operands[1:]
		if profile {
			q := parseOpts(rest, local)
			w.unknownOpts(name, q)
			w.pathsTo(q.values("--env-file"), w.reads, name+" "+sub)
			if len(q.operands) == 0 {
				return wrapResult{}
			}
			rest = q.operands[1:]
		}
		q := parseOpts(rest, local)
		w.unknownOpts(name, q)
		w.pathsTo(q.values("--env-file"), w.reads, name+" "+sub)
		return wrapResult{ok: true, rest: q.operands, shell: shell && len(q.operands) == 0}
	}
}

// aws-vault (kingpin): boolean flags also have a --no- form.
var awsVaultGlobal = optSpec{
	flags:     "h",
	long:      []string{"backend", "prompt", "keychain", "secret-service-collection", "pass-dir", "pass-cmd", "pass-prefix", "file-dir"},
	longFlags: []string{"debug", "no-debug", "help", "help-long", "help-man", "version", "biometrics", "no-biometrics"},
	posix:     true, closed: true,
}

var awsVaultExec = optSpec{
	withValue: "dt",
	flags:     "njsh",
	long:      []string{"duration", "mfa-token", "region"},
	longFlags: []string{"no-session", "ec2-server", "no-ec2-server", "ecs-server", "no-ecs-server", "lazy", "no-lazy", "stdout", "no-stdout",
		"json", "no-json", "server", "no-server", "debug", "no-debug", "help"},
	posix: true, closed: true,
}

// op, the 1Password CLI v2 (cobra: global flags may follow run too).
var opGlobal = optSpec{
	flags:     "h",
	long:      []string{"account", "config", "session", "encoding", "format"},
	longFlags: []string{"cache", "debug", "help", "iso-timestamps", "no-color", "version"},
	posix:     true, closed: true,
}

var opRun = optSpec{
	flags:     "h",
	long:      append([]string{"env-file", "environment"}, opGlobal.long...),
	longFlags: append([]string{"no-masking"}, opGlobal.longFlags...),
	posix:     true, closed: true,
}

// doppler (cobra): the global flags may come before or after run.
var dopplerGlobalLong = []string{"token", "api-host", "dashboard-host", "configuration", "config-dir", "scope", "passphrase", "timeout",
	"dns-resolver-address", "dns-resolver-proto", "dns-resolver-timeout", "attempts"}
var dopplerGlobalFlags = []string{"debug", "json", "no-check-version", "no-read-env", "no-timeout", "no-verify-tls", "print-config",
	"silent", "enable-dns-resolver", "help", "version", "no-file", "no-exit-on-write-failure"}

var dopplerGlobal = optSpec{flags: "hv", long: dopplerGlobalLong, longFlags: dopplerGlobalFlags, posix: true, closed: true}

var dopplerRun = optSpec{
	withValue: "pc",
	flags:     "hv",
	long: append([]string{"project", "config", "command", "mount", "mount-format", "mount-template", "mount-max-reads", "name-transformer",
		"fallback", "only-secrets", "fallback-passphrase"}, dopplerGlobalLong...),
	longOptional: []string{"preserve-env"},
	longFlags: append([]string{"fallback-only", "fallback-readonly", "no-fallback", "no-cache", "forward-signals", "watch",
		"enable-file-fallback", "disable-file-fallback", "clean-env"}, dopplerGlobalFlags...),
	posix: true, closed: true,
}

// wrapDoppler: doppler run [options] -- COMMAND, or doppler run
// --command STRING, which a shell runs.
func wrapDoppler(w *walker, args []field) wrapResult {
	isRun := func(s string) bool { return s == "run" }
	p := parseOpts(args, dopplerGlobal)
	if len(p.operands) == 0 || !p.operands[0].known() || p.operands[0].s != "run" {
		w.lostVerb("doppler", p.operands, isRun)
		return wrapResult{}
	}
	w.unknownOpts("doppler", p)
	q := parseOpts(p.operands[1:], dopplerRun)
	w.unknownOpts("doppler", q)
	if c := q.values("--command"); len(c) > 0 {
		return wrapResult{after: func() {
			for _, s := range c {
				w.nestedString(s, "doppler run --command")
			}
		}}
	}
	return wrapResult{ok: true, rest: q.operands}
}

// nixArity is how many values each option of nix (the new CLI) and
// nix-shell takes; -c/--command and nix-shell's --run are handled
// apart. nix also takes any setting as --NAME VALUE: such an option is
// not known here, and the call is marked.
var nixArity = map[string]int{
	"--option": 2, "--arg": 2, "--argstr": 2, "--override-input": 2, "--override-flake": 2, "--redirect": 2, "--set-env-var": 2, "-s": 2,
	"--arg-from-file": 2, "--arg-from-stdin": 1,
	"--store": 1, "--eval-store": 1, "--log-format": 1, "--include": 1, "-I": 1, "--file": 1, "-f": 1, "--expr": 1, "--profile": 1,
	"--inputs-from": 1, "--reference-lock-file": 1, "--output-lock-file": 1, "--update-input": 1, "--max-jobs": 1, "-j": 1, "--cores": 1,
	"--builders": 1, "--substituters": 1, "--extra-substituters": 1, "--experimental-features": 1, "--extra-experimental-features": 1,
	"--keep": 1, "-k": 1, "--unset": 1, "-u": 1, "--phase": 1, "--system": 1, "--nix-path": 1, "--out-link": 1, "-o": 1,
	"--keep-env-var": 1, "--max-silent-time": 1, "--timeout": 1,
	"--impure": 0, "--commit-lock-file": 0, "--no-update-lock-file": 0, "--no-write-lock-file": 0, "--no-registries": 0,
	"--no-use-registries": 0, "--recreate-lock-file": 0, "--offline": 0, "--refresh": 0, "--debug": 0, "--quiet": 0, "--verbose": 0,
	"-v": 0, "--print-build-logs": 0, "-L": 0, "--show-trace": 0, "--keep-going": 0, "--keep-failed": 0, "--fallback": 0, "--help": 0,
	"--version": 0, "--ignore-environment": 0, "-i": 0, "--build": 0, "--check": 0, "--configure": 0, "--install": 0,
	"--installcheck": 0, "--unpack": 0, "--derivation": 0, "--stdin": 0, "--json": 0, "--pretty": 0, "--no-pretty": 0, "--dry-run": 0,
	"--accept-flake-config": 0, "--repair": 0, "--no-link": 0, "--print-out-paths": 0, "--rebuild": 0, "--no-sandbox": 0, "--sandbox": 0,
}

// nixShellArity is nix-shell's (the legacy CLI's) table.
var nixShellArity = map[string]int{
	"--option": 2, "--arg": 2, "--argstr": 2, "--arg-from-file": 2,
	"--run": 1, "--command": 1,
	"-I": 1, "--include": 1, "-A": 1, "--attr": 1, "--keep": 1, "-i": 1, "-j": 1, "--max-jobs": 1, "--cores": 1, "--drv-link": 1,
	"--add-root": 1, "--log-format": 1, "--max-silent-time": 1, "--timeout": 1, "--builders": 1, "--store": 1, "--eval-store": 1,
	"--system": 1, "--substituters": 1, "--extra-substituters": 1, "--experimental-features": 1, "--extra-experimental-features": 1,
	"--nix-path": 1, "-o": 1, "--out-link": 1,
	"-p": 0, "--packages": 0, "--pure": 0, "--impure": 0, "-E": 0, "--expr": 0, "--show-trace": 0, "-v": 0, "--verbose": 0, "--quiet": 0,
	"-K": 0, "--keep-failed": 0, "-k": 0, "--keep-going": 0, "--fallback": 0, "-Q": 0, "--no-build-output": 0, "--dry-run": 0,
	"--repair": 0, "--readonly-mode": 0, "--help": 0, "--version": 0, "--no-out-link": 0, "--debug": 0, "--offline": 0, "--refresh": 0,
	"--print-build-logs": 0, "-L": 0, "--no-sandbox": 0, "--sandbox": 0,
}

// nixWords walks nix's arguments: options take the values their table
// gives (short options may be clustered, -j4, -vL), the rest are
// positional. stop is called with the index of a word it claims (a
// command option), which ends the walk. It returns the positional words
// and the options not in the table.
func nixWords(args []field, arity map[string]int, stop func(i int, name string) bool) (pos []field, unknown []string) {
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || len(f.s) < 2 || f.s[0] != '-' {
			pos = append(pos, f)
			continue
		}
		if f.s == "--" {
			pos = append(pos, args[i+1:]...)
			return pos, unknown
		}
		if strings.HasPrefix(f.s, "--") {
			if stop(i, f.s) {
				return pos, unknown
			}
			n, ok := arity[f.s]
			if !ok {
				unknown = append(unknown, f.s)
			}
			i += n
			continue
		}
		for j := 1; j < len(f.s); j++ {
			name := "-" + f.s[j:j+1]
			if stop(i, name) {
				return pos, unknown
			}
			n, ok := arity[name]
			if !ok {
				unknown = append(unknown, name)
			}
			if n > 0 {
				if j+1 < len(f.s) {
					n-- // the first value is attached: -j4
				}
				i += n
				break
			}
		}
	}
	return pos, unknown
}

// wrapNix: nix develop and nix shell run the words after -c / --command
// as a command (nix develop with neither starts a shell).
func wrapNix(w *walker, args []field) wrapResult {
	cmdAt := -1
	pos, unknown := nixWords(args, nixArity, func(i int, name string) bool {
		if name == "-c" || name == "--command" {
			cmdAt = i
			return true
		}
		return false
	})
	runs := func(s string) bool { return s == "develop" || s == "shell" || s == "run" }
	sub, refs := "", pos
	if len(pos) > 0 && pos[0].known() {
		sub, refs = pos[0].s, pos[1:]
		if sub == "env" && len(pos) > 1 && pos[1].known() && pos[1].s == "shell" {
			sub, refs = "shell", pos[2:] // nix env shell, which nix shell names
		}
	}
	if !runs(sub) {
		w.lostVerb("nix", pos, runs)
		return wrapResult{}
	}
	w.unknownOpts("nix", parsed{unknown: unknown})
	if sub == "run" {
		// nix run INSTALLABLE ARGS...: one installable, the rest its
		// program's arguments.
		return w.nixRun(args, refs)
	}
	if w.nixFetches(args, refs, sub) && cmdAt < 0 {
		return wrapResult{}
	}
	if cmdAt >= 0 {
		// What the environment holds is unknown code if fetched, but
		// the command is the one named: its own analysis applies too
		// (nix shell --expr E --command rm -rf ~ removes ~).
		return wrapResult{ok: true, rest: args[cmdAt+1:]}
	}
	return wrapResult{ok: true, shell: sub == "develop"}
}

// wrapNixShell: nix-shell --run CMD (or --command CMD) runs the string
// through a shell in the environment it builds; with neither it starts
// an interactive shell, which reads stdin.
func wrapNixShell(w *walker, args []field) wrapResult {
	var strs []field
	_, unknown := nixWords(args, nixShellArity, func(i int, name string) bool {
		f := args[i]
		if name == "--run" || name == "--command" {
			if i+1 < len(args) {
				strs = append(strs, args[i+1])
			}
			return false // the walk goes on after the string
		}
		for _, p := range []string{"--run=", "--command="} {
			if v, ok := strings.CutPrefix(f.s, p); ok {
				strs = append(strs, field{s: v, static: true, raw: f.raw})
			}
		}
		return false
	})
	w.unknownOpts("nix-shell", parsed{unknown: unknown})
	if len(strs) == 0 {
		return wrapResult{ok: true, shell: true}
	}
	return wrapResult{after: func() {
		for _, s := range strs {
			w.nestedString(s, "nix-shell --run")
		}
	}}
}

// runnerSpecs are the options of each environment manager, before its
// subcommand (global) and after it (local), as each documents them.
func runnerSpecs(name string) (global, local optSpec) {
	switch name {
	case "uv":
		// clap: global options may follow run as well.
		s := optSpec{
			withValue: "pwifCP",
			flags:     "qvnUhVms",
			long: []string{"python", "with", "with-editable", "with-requirements", "project", "directory", "env-file", "package", "extra",
				"no-extra", "group", "no-group", "only-group", "index", "default-index", "index-url", "extra-index-url", "find-links",
				"index-strategy", "keyring-provider", "resolution", "prerelease", "fork-strategy", "exclude-newer", "exclude-newer-package",
				"no-build-isolation-package", "config-setting", "config-settings-package", "no-build-package", "no-binary-package",
				"link-mode", "refresh-package", "upgrade-package", "reinstall-package", "cache-dir", "config-file", "color",
				"allow-insecure-host", "python-platform", "no-sources-package"},
			longFlags: []string{"all-extras", "no-dev", "dev", "only-dev", "no-default-groups", "all-groups", "frozen", "locked", "isolated",
				"active", "no-active", "no-sync", "no-project", "no-config", "offline", "quiet", "verbose", "native-tls", "no-cache",
				"upgrade", "reinstall", "refresh", "compile-bytecode", "no-editable", "no-env-file", "all-packages", "no-python-downloads",
				"managed-python", "no-managed-python", "preview", "no-preview", "no-progress", "help", "version", "exact", "module",
				"script", "gui-script", "no-build-isolation", "no-build", "no-binary", "no-sources", "no-install-project",
				"no-install-workspace", "no-install-local", "show-resolution", "system-certs"},
			posix: true, closed: true,
		}
		return s, s
	case "pnpm":
		s := optSpec{
			withValue: "FC",
			flags:     "rwschv",
			long: []string{"filter", "filter-prod", "dir", "reporter", "loglevel", "resume-from", "workspace-concurrency", "test-pattern",
				"changed-files-ignore-pattern"},
			longFlags: []string{"recursive", "workspace-root", "silent", "stream", "aggregate-output", "parallel", "shell-mode", "report-summary",
				"no-bail", "bail", "sort", "no-sort", "color", "no-color", "use-stderr", "ignore-workspace", "include-workspace-root",
				"fail-if-no-match", "no-reporter-hide-prefix", "reverse", "help", "version"},
			posix: true, closed: true,
		}
		return s, s
	case "mise", "rtx":
		s := optSpec{
			withValue: "cjCEP",
			flags:     "qvyh",
			long:      []string{"command", "jobs", "cd", "env", "log-level", "profile"},
			longFlags: []string{"raw", "debug", "trace", "quiet", "verbose", "yes", "silent", "no-config", "locked", "fresh-env", "no-prepare", "help", "version"},
			posix:     true, closed: true,
		}
		return s, s
	case "poetry":
		return optSpec{withValue: "CP", flags: "qvnhV", long: []string{"directory", "project"},
			longFlags: []string{"quiet", "verbose", "no-interaction", "no-plugins", "no-cache", "ansi", "no-ansi", "help", "version"}, posix: true, closed: true}, optSpec{posix: true}
	case "pipenv":
		return optSpec{flags: "qvh", long: []string{"python"},
			longFlags: []string{"where", "venv", "py", "envs", "rm", "bare", "man", "support", "site-packages", "clear", "quiet", "verbose", "help", "version"}, posix: true, closed: true}, optSpec{posix: true}
	case "pdm":
		s := optSpec{withValue: "pc", flags: "gljsvqh", long: []string{"project", "venv", "skip", "config"},
			longFlags: []string{"global", "list", "json", "site-packages", "recreate", "verbose", "quiet", "help", "version", "ignore-python", "pep582"}, posix: true, closed: true}
		return s, s
	case "hatch":
		return optSpec{withValue: "ep", flags: "vqh", long: []string{"env", "project", "data-dir", "cache-dir", "config"},
			longFlags: []string{"verbose", "quiet", "color", "no-color", "interactive", "no-interactive", "help", "version"}, posix: true, closed: true}, optSpec{posix: true}
	case "rye":
		s := optSpec{flags: "lvqh", long: []string{"pyproject"}, longFlags: []string{"list", "verbose", "quiet", "help", "version"}, posix: true, closed: true}
		return s, s
	case "pixi":
		s := optSpec{withValue: "esc", flags: "nvqh", long: []string{"manifest-path", "environment", "spec", "with", "channel", "platform", "color",
			"auth-file", "pypi-keyring-provider", "concurrent-solves", "concurrent-downloads", "executable"},
			longFlags: []string{"frozen", "locked", "clean-env", "skip-deps", "dry-run", "verbose", "quiet", "no-progress", "tls-no-verify",
				"revalidate", "no-install", "as-is", "force-activate", "force-reinstall", "list", "help", "version"}, posix: true, closed: true}
		return s, s
	case "bundle":
		return optSpec{withValue: "r", flags: "Vh", long: []string{"retry"}, longFlags: []string{"no-color", "verbose", "help", "version"}, posix: true, closed: true},
			optSpec{long: []string{"gemfile"}, longFlags: []string{"keep-file-descriptors", "help"}, posix: true, closed: true}
	case "yarn":
		s := optSpec{long: []string{"cwd"}, longFlags: []string{"silent", "verbose", "offline", "help", "version"}, posix: true, closed: true}
		return s, s
	case "asdf", "direnv":
		return optSpec{posix: true, closed: true}, optSpec{posix: true}
	case "conda", "micromamba":
		s := optSpec{withValue: "npra", flags: "vqdh", long: []string{"name", "prefix", "root-prefix", "attach", "cwd", "env", "label", "log-level", "rc-file"},
			longFlags: []string{"verbose", "quiet", "dev", "debug-wrapper-scripts", "no-capture-output", "live-stream", "detach", "clean-env", "no-rc",
				"no-env", "json", "help", "version"}, posix: true, closed: true}
		return s, s
	case "devbox":
		s := optSpec{withValue: "ce", flags: "qh", long: []string{"config", "env", "env-file", "environment"},
			longFlags: []string{"quiet", "pure", "list", "help", "version", "recompute", "omit-nix-env"}, posix: true, closed: true}
		return s, s
	}
	return optSpec{posix: true}, optSpec{posix: true}
}

// runnerFetch returns the package runner an environment manager's
// operands start (pnpm dlx, yarn dlx, uv tool run) and how many words
// name it.
func runnerFetch(name string, ops []field) (fetchRunner, int, bool) {
	word := func(i int, s string) bool { return i < len(ops) && ops[i].known() && ops[i].s == s }
	switch {
	case name == "pnpm" && word(0, "dlx"):
		return pnpmDlxRunner, 1, true
	case name == "yarn" && word(0, "dlx"):
		return yarnDlxRunner, 1, true
	case name == "uv" && word(0, "tool") && word(1, "run"):
		r := uvxRunner()
		r.name = "uv tool run"
		return r, 2, true
	}
	return fetchRunner{}, 0, false
}

func runner(w *walker, name string, args []field) wrapResult {
	global, local := runnerSpecs(name)
	isVerb := func(s string) bool { return runnerVerb(name, s) }
	p := parseOpts(args, global)
	if r, n, ok := runnerFetch(name, p.operands); ok {
		// pnpm dlx, yarn dlx, uv tool run: the runner's options before
		// the subcommand are its own, read above.
		if w.unknownOpts(name, p) {
			return wrapResult{}
		}
		return w.fetchRun(r, p.operands[n:])
	}
	if (name == "yarn" || name == "pnpm") && w.scaffolder(name, p.operands) {
		return wrapResult{}
	}
	if len(p.operands) == 0 || !p.operands[0].known() || !isVerb(p.operands[0].s) {
		w.lostVerb(name, p.operands, isVerb)
		return wrapResult{}
	}
	w.unknownOpts(name, p)
	w.pathsTo(p.values("--env-file"), w.reads, "run")
	rest := p.operands[1:]
	res := wrapResult{ok: true}
	chdirOpts := []string{"--directory", "--cwd", "--dir", "--cd"}
	if name != "uv" {
		chdirOpts = append(chdirOpts, "-C")
	}
	if d := p.values(chdirOpts...); len(d) > 0 {
		res.chdir = &d[len(d)-1]
	}
	// direnv exec DIR COMMAND
	if name == "direnv" && len(rest) > 1 {
		rest = rest[1:]
	}
	// Options of the runner's subcommand, then an optional --.
	q := parseOpts(rest, local)
	w.unknownOpts(name, q)
	w.pathsTo(q.values("--env-file"), w.reads, "run")
	res.rest = q.operands
	switch name {
	case "uv":
		if !w.uvRunWith(p, q, args) {
			// Given up on (another index): what it runs is not
			// read, so its words are read as a program's.
			w.unmodelledArgs(name, args)
			return wrapResult{}
		}
	case "pixi":
		if p.operands[0].s == "exec" && !w.pixiExec(p, q, q.operands) {
			w.unmodelledArgs(name, args)
			return wrapResult{}
		}
	case "mise", "rtx":
		// mise exec [TOOL@VERSION]... -- COMMAND, or -c STRING: the
		// words before -- are tools, never the command.
		if c := append(p.values("-c", "--command"), q.values("-c", "--command")...); len(c) > 0 {
			return wrapResult{after: func() {
				for _, s := range c {
					w.nestedString(s, name+" exec -c")
				}
			}}
		}
		dash := slices.IndexFunc(rest, func(f field) bool { return f.known() && f.s == "--" })
		if dash < 0 {
			if len(q.operands) > 0 {
				w.incomplete(name + " exec without --: its words are tools, and it runs no command")
				w.unknownCode(name + " exec " + q.operands[0].raw + " ...")
			}
			return wrapResult{}
		}
		tools := q.operands
		if i := slices.IndexFunc(tools, func(f field) bool { return f.known() && f.s == "--" }); i >= 0 {
			tools = tools[:i]
		}
		w.miseTools(name, tools)
		res.rest = rest[dash+1:]
	case "pnpm":
		// pnpm exec --shell-mode runs the command through a shell.
		if p.has("-c", "--shell-mode") || q.has("-c", "--shell-mode") {
			// It joins the words with spaces, unquoted, as the
			// shell's code.
			return w.shellModeWords(q.operands, "pnpm exec -c")
		}
	}
	if d := q.values(chdirOpts...); len(d) > 0 {
		res.chdir = &d[len(d)-1]
	}
	return res
}

// parallelSpec is GNU parallel's options, from parallel(1). It reads them
// with Perl's Getopt::Long set to bundling and require_order: short
// options cluster (-j4k), options end at the command, and a long option
// may be abbreviated to any prefix that names one option.
var parallelSpec = optSpec{
	withValue: "aCdDEIjJLnNPsSU",
	optional:  "eil",
	flags:     "0hkmMopqrtuvVxX",
	long: []string{"arg-file", "arg-file-sep", "arg-sep", "basefile", "bf", "basenamereplace", "bnr", "basenameextensionreplace", "bner",
		"bin", "block", "block-size", "blocktimeout", "bt", "colsep", "combineexec", "combine-exec", "compress-program", "decompress-program",
		"ctagstring", "debug", "delay", "delimiter", "dirnamereplace", "dnr", "env", "extensionreplace", "er", "filter", "group-by", "halt",
		"halt-on-error", "header", "jobs", "max-procs", "joblog", "limit", "load", "match", "max-args", "max-chars", "max-replace-args",
		"memfree", "memsuspend", "minversion", "nice", "parens", "process-slot-var", "profile", "recend", "recstart", "results", "res",
		"retries", "return", "rpl", "rsync-opts", "seqreplace", "semaphorename", "id", "semaphoretimeout", "st", "shard", "share-dir",
		"shell-completion", "slotreplace", "sql", "sqlmaster", "sqlandworker", "sqlworker", "ssh", "sshdelay", "ssh-delay", "sshlogin",
		"sshloginfile", "slf", "tagstring", "template", "tmpl", "termseq", "tmpdir", "timeout", "total-jobs", "total", "transferfile", "tf",
		"trc", "trim", "workdir", "wd"},
	longOptional: []string{"eof", "replace", "max-lines"},
	longFlags: []string{"null", "bar", "bg", "fg", "bibtex", "citation", "will-cite", "cat", "fifo", "cleanup", "color", "color-failed", "cf",
		"compress", "csv", "ctag", "tag", "dry-run", "embed", "eta", "exit", "files", "files0", "output-as-files", "outputasfiles",
		"filter-hosts", "gnu", "group", "ungroup", "help", "hostgroups", "hgrp", "interactive", "keep-order", "no-keep-order", "latest-line",
		"ll", "line-buffer", "linebuffer", "lb", "link", "xapply", "controlmaster", "max-line-length-allowed", "no-notice", "no-run-if-empty",
		"nonall", "onall", "noswap", "number-of-cpus", "number-of-cores", "number-of-threads", "number-of-sockets", "open-tty", "tty",
		"pipe", "spreadstdin", "pipe-part", "pipepart", "plain", "plus", "progress", "quote", "record-env", "regexp", "remove-rec-sep",
		"removerecsep", "rrs", "resume", "resume-failed", "retry-failed", "round-robin", "round", "semaphore", "sem", "shebang", "hashbang",
		"shebang-wrap", "shellquote", "shell-quote", "show-limits", "shuf", "silent", "skip-first-line", "tee", "tmux", "tmuxpane",
		"transfer", "unsafe", "use-cpus-instead-of-cores", "use-cores-instead-of-threads", "use-sockets-instead-of-threads", "verbose",
		"version", "wait", "xargs"},
	posix: true, closed: true, gnu: true,
}

// flatpakSpawnSpec is flatpak-spawn's options (flatpak-spawn --help),
// read by GOption: a long option's value may be attached with = or be
// the next word, and no option is abbreviated.
var flatpakSpawnSpec = optSpec{
	flags: "h?",
	long: []string{"env", "unset-env", "forward-fd", "directory", "sandbox-expose", "sandbox-expose-ro", "sandbox-expose-path",
		"sandbox-expose-path-ro", "sandbox-flag", "app-path", "usr-path"},
	longFlags: []string{"help", "help-all", "verbose", "clear-env", "watch-bus", "expose-pids", "share-pids", "latest-version", "no-network",
		"sandbox", "host"},
	posix: true, closed: true,
}

// prootSpec is PRoot's options (proot --help, src/cli/proot.h), with the
// extension options Termux's build adds (-l, -H, -p, -L). PRoot matches
// whole option names only.
var prootSpec = optSpec{
	withValue: "rbmqwvkiRS",
	flags:     "Vh0lHpL",
	long:      []string{"rootfs", "bind", "mount", "qemu", "pwd", "cwd", "verbose", "kernel-release", "change-id"},
	longFlags: []string{"kill-on-exit", "version", "about", "help", "usage", "root-id", "link2symlink"},
	posix:     true, closed: true,
}

// miseTools marks the tools mise exec installs for the command as a
// package runner's packages are: a name of mise's own registry
// (node@20, python, core:go, aqua:...) is reviewed there and installs
// what it names; a tool from a package registry (npm:, pipx:, go:,
// gem:, dotnet:) is unknown code unless a well-known tool; and one
// from a place anyone can publish to without review (ubi:, github:,
// gitlab:, http:, cargo:, an asdf or vfox plugin, ...) is unknown code.
func (w *walker) miseTools(name string, tools []field) {
	for _, f := range tools {
		if !f.known() {
			w.incomplete(name + " exec of a tool only known at run time")
			w.unknownCode(name + " exec " + f.raw)
			continue
		}
		backend, spec, ok := strings.Cut(f.s, ":")
		if !ok || strings.Contains(backend, "@") {
			continue // mise's registry: node@20
		}
		known := false
		switch backend {
		case "core", "aqua":
			known = true
		case "npm":
			known = wellKnownPackage(spec, ecoNPM)
		case "pipx":
			known = wellKnownPackage(spec, ecoPyPI)
		case "gem":
			known = wellKnownPackage(spec, ecoGems)
		case "dotnet":
			known = wellKnownPackage(spec, ecoNuGet)
		case "go":
			path, _, _ := strings.Cut(spec, "@")
			known = wellKnownGoTool(path)
		}
		if !known {
			w.incomplete(name + " exec installs and runs a tool vouch does not know")
			w.unknownCode(name + " exec " + f.raw)
		}
	}
}
