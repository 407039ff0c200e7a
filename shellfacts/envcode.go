package shellfacts

import (
	"slices"
	"strings"
)

// assignment is one NAME=value a command line sets for a program: in
// front of it, through env, or with export, declare -x and the like.
type assignment struct {
	name, value string
	static      bool
	raw         string
	// unknown marks a word that may set any variable (export "$x").
	unknown bool
}

// commandVars are variables whose value programs run as a command line
// (git, less, man, sudo and ssh start them through a shell): setting one
// runs its value the moment the program needs an editor, a pager, an ssh
// transport or a password. GIT_SSH_COMMAND="rm -rf /" git fetch deletes
// what rm would.
var commandVars = map[string]bool{
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true,
	"GIT_PAGER": true, "GIT_ASKPASS": true, "GIT_EXTERNAL_DIFF": true, "GIT_PROXY_COMMAND": true,
	"EDITOR": true, "VISUAL": true, "PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true,
	"SSH_ASKPASS": true, "SUDO_ASKPASS": true, "BROWSER": true, "PROMPT_COMMAND": true,
	"SUDO_EDITOR": true, "RSYNC_RSH": true, "CVS_RSH": true,
}

// codeVars are variables that make a program load code named elsewhere
// (a library, a startup script, interpreter options, git's programs and
// configuration): what runs cannot be known from the command line.
var codeVars = map[string]bool{
	"LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true, "BASH_ENV": true, "ENV": true,
	"NODE_OPTIONS": true, "PERL5OPT": true, "RUBYOPT": true, "PYTHONSTARTUP": true, "PYTHONPATH": true,
	"GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true, "GIT_CONFIG": true, "GIT_CONFIG_GLOBAL": true,
	"GIT_CONFIG_SYSTEM": true, "GIT_CONFIG_PARAMETERS": true, "LESSOPEN": true, "LESSCLOSE": true,
	"LESS": true, "TAR_OPTIONS": true, "PERL5LIB": true, "NODE_PATH": true, "JAVA_TOOL_OPTIONS": true,
	"_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "GIT_DIR": true, "GIT_COMMON_DIR": true,
	"GIT_WORK_TREE": true, "XDG_CONFIG_HOME": true, "HOME": true,
}

// searchPathVars are the codeVars that only name directories a program
// looks in for the modules or libraries it loads by name. With a static
// value what loads is the program's own imports, from a place the
// command line names: files the agent could as well run directly
// (python /tmp/x.py, ./bin/app), which the guard allows, so the path
// adds nothing it cannot already see. Wherever the value points (the
// repository, a system directory, a scratch directory) that holds.
var searchPathVars = map[string]bool{
	"PYTHONPATH": true, "NODE_PATH": true, "LD_LIBRARY_PATH": true, "PERL5LIB": true,
}

// nodeOptions are the NODE_OPTIONS that neither load code nor read or
// write a file nor open a port: memory limits, warnings, module
// resolution flags. An allow list, as Node keeps adding options that do
// (--require, --import, --loader, --env-file, --inspect, --openssl-config,
// --redirect-warnings).
var nodeOptions = map[string]bool{
	"--max-old-space-size": true, "--max-semi-space-size": true, "--stack-size": true,
	"--experimental-vm-modules": true, "--experimental-specifier-resolution": true,
	"--experimental-json-modules": true, "--experimental-wasm-modules": true,
	"--experimental-fetch": true, "--no-experimental-fetch": true, "--experimental-global-webcrypto": true,
	"--experimental-import-meta-resolve": true, "--experimental-detect-module": true,
	"--experimental-require-module": true, "--experimental-strip-types": true,
	"--no-warnings": true, "--no-deprecation": true, "--trace-warnings": true, "--trace-deprecation": true,
	"--trace-uncaught": true, "--throw-deprecation": true, "--pending-deprecation": true,
	"--disable-warning": true, "--enable-source-maps": true, "--unhandled-rejections": true,
	"--dns-result-order": true, "--openssl-legacy-provider": true, "--use-openssl-ca": true,
	"--use-bundled-ca": true, "--max-http-header-size": true, "--preserve-symlinks": true,
	"--preserve-symlinks-main": true, "--conditions": true, "--input-type": true, "--no-addons": true,
	"--frozen-intrinsics": true, "--disable-proto": true, "--zero-fill-buffers": true, "--expose-gc": true,
}

// plainNodeOptions reports whether every option in a NODE_OPTIONS value
// is one of nodeOptions, values given with =. Node reads the value with
// its own quoting rules; a value with quotes or backslashes is not
// looked into.
func plainNodeOptions(v string) bool {
	if strings.ContainsAny(v, `"'\`) {
		return false
	}
	opts := strings.Fields(v)
	for _, o := range opts {
		name, _, _ := strings.Cut(o, "=")
		if !nodeOptions[name] {
			return false
		}
	}
	return len(opts) > 0
}

// envCode looks at what a command line puts in the environment of the
// programs it runs. A command variable's value is analysed as the command
// it is; a variable that loads code is unknown code. git configuration
// given as GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n
// is read as git -c key=value would be.
func (w *walker) envCode(as []assignment) {
	keys := map[string]assignment{}
	values := map[string]assignment{}
	for _, a := range as {
		if a.static && (a.name == "GIT_CONFIG_PARAMETERS" || strings.HasPrefix(a.name, "GIT_CONFIG_KEY_") || strings.HasPrefix(a.name, "GIT_CONFIG_VALUE_")) {
			// Kept for every later git command of the line, which reads
			// them as -c options (gitEnvConfig). An assignment that may
			// not run, or one in front of another program, is kept too:
			// over-reading is the safe side.
			if w.gitEnv == nil {
				w.gitEnv = map[string]string{}
			}
			if len(w.gitEnv) < 256 {
				w.gitEnv[a.name] = a.value
			}
		}
		if hookSkipVar(a) {
			// Kept with the git environment for every later git
			// command of the line (gitSkipsHooks).
			if w.gitEnv == nil {
				w.gitEnv = map[string]string{}
			}
			w.gitEnv[hookSkipKey+a.name] = a.value
		}
		split, cargo := cargoProgramVar(a.name)
		sep, rustFlags := rustFlagsVar(a.name)
		if f, ok := logFileVar(a); ok {
			w.path(f, w.writes, a.name)
		}
		switch {
		case a.unknown:
			w.incomplete("a declaration whose variable is only known at run time")
			w.unknownCode(a.raw)
		case cargo:
			w.cargoVarCode(a, split)
		case rustFlags:
			w.flagsCode(a, true, sep)
		case commandVars[a.name]:
			if a.static {
				w.nestedString(field{s: a.value, static: true}, a.name)
			} else {
				w.nestedString(field{raw: a.raw}, a.name)
			}
		case a.name == "LESS" && a.static && !strings.ContainsAny(a.value, "+!|"):
			// Plain options (LESS=-R) run nothing; a +command or !shell
			// escape in them does.
		case a.name == "GOFLAGS":
			w.goFlagsCode(a)
		case ccProgramVar(a.name):
			w.ccProgramCode(a)
		case ccFlagsVar(a.name):
			w.flagsCode(a, false, " ")
		case a.name == "GOENV" && !(a.static && (a.value == "off" || a.value == "")):
			// go reads its settings (CC, GOFLAGS, ...) from this file.
			w.incomplete("GOENV makes go read its settings from a file")
			w.unknownCode(a.raw)
		case strings.HasPrefix(a.name, "CARGO_ALIAS_"):
			// An alias is cargo's own arguments, which may set any
			// configuration (--config target.x.runner=...).
			w.incomplete(a.name + " makes cargo run arguments vouch does not read")
			w.unknownCode(a.raw)
		case searchPathVars[a.name] && a.static:
		case a.name == "NODE_OPTIONS" && a.static && plainNodeOptions(a.value):
		case codeVars[a.name]:
			w.incomplete(a.name + " makes programs load code from elsewhere")
			w.unknownCode(a.raw)
		case strings.HasPrefix(a.name, "GIT_CONFIG_KEY_"):
			keys[strings.TrimPrefix(a.name, "GIT_CONFIG_KEY_")] = a
		case strings.HasPrefix(a.name, "GIT_CONFIG_VALUE_"):
			values[strings.TrimPrefix(a.name, "GIT_CONFIG_VALUE_")] = a
		}
	}
	for n, k := range keys {
		v, ok := values[n]
		if !k.static || !ok || !v.static {
			w.incomplete("git configuration from the environment (GIT_CONFIG_KEY_" + n + ") that is not static")
			w.unknownCode(k.raw)
			continue
		}
		w.gitConfig(field{s: k.value + "=" + v.value, static: true})
	}
}

// hookSkipKey prefixes, in walker.gitEnv, the hook managers' variables
// the command line set to skip git hooks.
const hookSkipKey = "hook-skip:"

// hookSkipVar reports whether an assignment turns off the git hooks a
// hook manager installs, as --no-verify would: HUSKY=0 (husky 5 and
// later), HUSKY_SKIP_HOOKS (husky 4), SKIP=hook,... (pre-commit),
// LEFTHOOK=0 and LEFTHOOK_EXCLUDE (lefthook). A value only known at run
// time may be one that does.
func hookSkipVar(a assignment) bool {
	switch a.name {
	case "HUSKY", "LEFTHOOK":
		return !a.static || a.value == "0" || a.value == "false"
	case "HUSKY_SKIP_HOOKS", "SKIP", "LEFTHOOK_EXCLUDE":
		return !a.static || a.value != ""
	}
	return false
}

// gitSkipsHooks reports whether the command line set a variable that
// makes hook managers skip git's hooks (hookSkipVar).
func (w *walker) gitSkipsHooks() bool {
	for k := range w.gitEnv {
		if strings.HasPrefix(k, hookSkipKey) {
			return true
		}
	}
	return false
}

// logFileVar returns the file an assignment makes programs append to:
// git's trace variables (GIT_TRACE, GIT_TRACE2_EVENT, GIT_TRACE_PACKET
// ...) when their value is an absolute path (1, true or a descriptor
// number mean stderr or that descriptor; a directory receives one file
// per process), and SSLKEYLOGFILE, where curl, Python and browsers
// write TLS secrets. Through them a program run for another purpose
// writes wherever the agent points it.
func logFileVar(a assignment) (field, bool) {
	switch {
	case a.name == "SSLKEYLOGFILE":
		if !a.static {
			return field{raw: a.raw}, true
		}
		return field{s: a.value, static: true, raw: a.value}, a.value != ""
	case strings.HasPrefix(a.name, "GIT_TRACE"):
		switch a.name {
		case "GIT_TRACE_REDACT", "GIT_TRACE2_ENV_VARS", "GIT_TRACE2_CONFIG_PARAMS", "GIT_TRACE2_BRIEF",
			"GIT_TRACE2_EVENT_NESTING", "GIT_TRACE2_EVENT_BRIEF", "GIT_TRACE2_PERF_BRIEF", "GIT_TRACE2_MAX_FILES",
			"GIT_TRACE2_DST_DEBUG", "GIT_TRACE_CURL_NO_DATA":
			return field{}, false
		}
		if a.static && strings.HasPrefix(a.value, "/") {
			return field{s: a.value, static: true, raw: a.value}, true
		}
	}
	return field{}, false
}

// declaredAssignments reads the NAME=value arguments of export, declare
// and the like; one whose value is not static keeps its name when the
// word starts with NAME= as written.
func declaredAssignments(args []field) []assignment {
	var as []assignment
	for _, f := range args {
		if f.known() {
			as = append(as, assignmentsOf([]string{f.s})...)
			continue
		}
		name, _, ok := strings.Cut(strings.Trim(f.raw, `"'`), "=")
		switch {
		case ok && isName(name):
			as = append(as, assignment{name: name, raw: f.raw})
		case !strings.HasPrefix(f.raw, "-"):
			// export "$x": the word may be any NAME=value.
			as = append(as, assignment{name: "?", raw: f.raw, unknown: true})
		}
	}
	return as
}

// assignmentsOf reads NAME=value words (env's operands, export's
// arguments) as assignments.
func assignmentsOf(words []string) []assignment {
	var as []assignment
	for _, s := range words {
		name, value, ok := strings.Cut(s, "=")
		if ok && isName(name) {
			as = append(as, assignment{name: name, value: value, static: true, raw: s})
		}
	}
	return as
}

// gitEnvConfig is the git configuration the command line put in the
// environment (GIT_CONFIG_KEY_n with GIT_CONFIG_VALUE_n, and
// GIT_CONFIG_PARAMETERS), as the -c options it amounts to: git reads
// them exactly as it reads `git -c key=value`, so a git command gets them
// in front of its own arguments and every rule on -c sees them. Keys are
// taken whatever GIT_CONFIG_COUNT says (it may be set elsewhere).
func (w *walker) gitEnvConfig() []field {
	if len(w.gitEnv) == 0 {
		return nil
	}
	var settings []string
	for name, key := range w.gitEnv {
		n, ok := strings.CutPrefix(name, "GIT_CONFIG_KEY_")
		if !ok {
			continue
		}
		if v, ok := w.gitEnv["GIT_CONFIG_VALUE_"+n]; ok {
			settings = append(settings, key+"="+v)
		} else {
			settings = append(settings, key)
		}
	}
	slices.Sort(settings)
	if p, ok := w.gitEnv["GIT_CONFIG_PARAMETERS"]; ok {
		settings = append(settings, gitConfigParameters(p)...)
	}
	var fs []field
	for _, kv := range settings {
		fs = append(fs, field{s: "-c", static: true, raw: "-c"}, field{s: kv, static: true, raw: shellQuote(field{s: kv, static: true})})
	}
	return fs
}

// gitConfigParameters splits GIT_CONFIG_PARAMETERS as git does: words
// separated by spaces, each 'key'='value' or 'key=value' in single quotes
// ('\” for a quote inside).
func gitConfigParameters(s string) []string {
	var out []string
	var b strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			quoted = !quoted
			inWord = true
		case c == '\\' && !quoted && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			inWord = true
		case (c == ' ' || c == '\t' || c == '\n') && !quoted:
			if inWord {
				out = append(out, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, b.String())
	}
	return out
}
