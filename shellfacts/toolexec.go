package shellfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Build tools run programs the command line names in their flags and
// configuration, with arguments of their own after them: go test -exec
// runs the test binary under a program, go build -toolexec runs the
// compiler and linker under one, go vet -vettool runs a program in vet's
// place, and cargo runs a target's binary under its runner and builds
// with a linker or a rustc wrapper. The words are handed to exec, not to
// a shell, so they are analysed as exactly that program and those
// arguments, followed by ones only known at run time (the binary, the
// tool and its flags), in a directory only known at run time (the
// package's). A value that is not static, or that names a program in a
// way the command line does not show in full (a cargo configuration file
// or value), is unknown code.

// goProgramFlags are the go command's flags whose value is a program it
// runs: the value split as go splits it (splitGoQuoted) for exec and
// toolexec, taken whole as a path for vettool and fixtool.
var goProgramFlags = map[string]bool{"exec": true, "toolexec": true, "vettool": true, "fixtool": true}

// goPrograms looks at the go command's arguments for the flags that name
// a program to run: -flag VALUE, -flag=VALUE, with one dash or two. go
// test takes build flags after the packages too, so every word is
// looked at; a word only known at run time that may be such a flag
// (-exec=$X, "-toolexec=$T") is unknown code. go env -w sets GOFLAGS for
// every later go command, which is read as the variable is.
func (w *walker) goPrograms(args []field) {
	if len(args) > 0 && args[0].known() && args[0].s == "env" {
		var set []string
		for _, f := range args[1:] {
			switch {
			case !f.static, f.glob && strings.HasPrefix(f.s, "GOFLAGS="):
				w.incomplete("go env with a word only known at run time")
				w.unknownCode("go env " + f.raw)
			case strings.Contains(f.s, "=") && !strings.HasPrefix(f.s, "-"):
				set = append(set, f.s)
			}
		}
		w.envCode(assignmentsOf(set))
		return
	}
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			if flag, value, ok := strings.Cut(strings.TrimLeft(f.raw, "-"), "="); ok && goProgramFlags[flag] &&
				strings.HasPrefix(f.raw, "-") {
				if p, ok := toolPath(f, value); ok {
					w.runWords([]string{p}, goRuns(flag), "go -"+flag)
					continue
				}
			}
			if w.goLinkFlagsDynamic(f) {
				continue
			}
			if raw := strings.ToLower(f.raw); strings.Contains(raw, "-exec") || strings.Contains(raw, "toolexec") ||
				strings.Contains(raw, "vettool") || strings.Contains(raw, "fixtool") {
				w.incomplete("go with a word only known at run time that may name a program for it to run")
				w.unknownCode("go " + f.raw)
			}
			continue
		}
		if !strings.HasPrefix(f.s, "-") || f.s == "-" || f.s == "--" {
			continue
		}
		name, value, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(f.s, "-"), "-"), "=")
		if !goProgramFlags[name] && !goFlagLists[name] {
			continue
		}
		v := field{s: value, static: true, raw: f.raw}
		if !eq {
			if i+1 >= len(args) {
				continue
			}
			i++
			v = args[i]
		}
		if goFlagLists[name] {
			w.goLinkFlags(name, v)
			continue
		}
		w.goProgram(name, v)
	}
}

// goProgram analyses the program one of goProgramFlags names.
func (w *walker) goProgram(flag string, v field) {
	what := "go -" + flag
	if !v.known() {
		if p, ok := toolPath(v, v.raw); ok {
			w.runWords([]string{p}, goRuns(flag), what)
			return
		}
	}
	if !v.known() {
		w.incomplete(what + " with a value that is not static")
		w.unknownCode(what + " " + v.raw)
		return
	}
	if v.s == "" {
		return // -exec= runs the binary itself
	}
	if flag == "vettool" || flag == "fixtool" {
		w.runWords([]string{v.s}, "", what)
		return
	}
	words, ok := splitGoQuoted(v.s)
	if !ok {
		w.incomplete(what + " with an unterminated quote")
		w.unknownCode(what + " " + v.raw)
		return
	}
	if len(words) > 0 {
		w.runWords(words, goRuns(flag), what)
	}
}

// goFlagsCode reads GOFLAGS, the flags every go command takes first:
// space-separated -flag=value words, no quoting.
func (w *walker) goFlagsCode(a assignment) {
	if !a.static {
		w.incomplete("GOFLAGS that is not static")
		w.unknownCode(a.raw)
		return
	}
	var fs []field
	for _, s := range strings.Fields(a.value) {
		fs = append(fs, field{s: s, static: true, raw: s})
	}
	w.goPrograms(fs)
}

// splitGoQuoted splits a flag value as the go command does
// (cmd/internal/quoted.Split): fields separated by spaces, tabs and
// newlines, a field may be wrapped in single or double quotes, and
// nothing is escaped or expanded. ok is false for an unterminated quote,
// which go refuses.
func splitGoQuoted(s string) (words []string, ok bool) {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(s) > 0 {
		for len(s) > 0 && space(s[0]) {
			s = s[1:]
		}
		if len(s) == 0 {
			break
		}
		if q := s[0]; q == '"' || q == '\'' {
			i := strings.IndexByte(s[1:], q)
			if i < 0 {
				return nil, false
			}
			words = append(words, s[1:i+1])
			s = s[i+2:]
			continue
		}
		i := 0
		for i < len(s) && !space(s[i]) {
			i++
		}
		words = append(words, s[:i])
		s = s[i:]
	}
	return words, true
}

// runWords analyses words a tool executes as a program and its
// arguments, exactly as given (no shell reads them), followed by
// arguments only known at run time, in a directory only known at run
// time. It is a child process: nothing it does reaches this shell.
// runs, when not empty, is the program the tool hands the words as
// their first run-time argument (builtProgram, toolchainProgram): a
// wrapper (valgrind, sudo, qemu) then runs that, not an unknown one.
func (w *walker) runWords(words []string, runs, what string) {
	var b strings.Builder
	for _, s := range words {
		b.WriteString(shellQuote(field{s: s, static: true}))
		b.WriteByte(' ')
	}
	if runs != "" {
		if len(words) > 0 && otherUser(baseName(words[0])) {
			// The build's program, not shown on the command line,
			// run as another user (root): a person decides that.
			w.incomplete(what + " runs the build's program as another user")
			w.unknownCode(what + " " + strings.Join(words, " "))
		}
		// A word only known at run time ending in /NAME: run as a
		// program it is NAME in an unknown directory (see
		// unknownDirProgram), handed to rm or cp it is a path only
		// known at run time.
		b.WriteString(`"$__vouch_build"/` + runs)
		b.WriteByte(' ')
	}
	b.WriteString(`"$@"`)
	st := w.saveDir()
	w.vars = map[string]string{}
	w.dirKnown = false
	w.script(b.String(), w.depth+1, what)
	w.restoreDir(st)
}

// builtProgram names the program a build tool built and hands to the
// program the command line names as its first argument: go test
// -exec's test binary, a cargo runner's target. It is the project's own
// code, as ./app is, in a directory only known at run time.
const builtProgram = "built-program"

// toolchainProgram names the toolchain's own program a wrapper is
// handed first: go -toolexec's compiler or linker, RUSTC_WRAPPER's rustc.
const toolchainProgram = "toolchain-program"

// otherUser reports whether a program runs the command it is given as
// another user.
func otherUser(name string) bool {
	switch name {
	case "sudo", "doas", "pkexec", "run0", "su", "runuser", "gosu", "su-exec", "setpriv", "s6-setuidgid", "chpst", "sg":
		return true
	}
	return false
}

// goRuns is the program go hands to the one a flag names: the test
// binary to -exec, the compiler or linker to -toolexec; vettool and
// fixtool are handed only flags and files.
func goRuns(flag string) string {
	switch flag {
	case "exec":
		return builtProgram
	case "toolexec":
		return toolchainProgram
	}
	return ""
}

// cargoProgramVar reports how cargo reads a variable naming a program it
// runs: split, a runner or linker given as words split at whitespace
// (CARGO_TARGET_<TRIPLE>_RUNNER), or whole, a path (RUSTC_WRAPPER).
// Cargo reads every configuration key from CARGO_<KEY> as well.
func cargoProgramVar(name string) (split, ok bool) {
	switch name {
	case "RUSTC", "RUSTDOC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTDOC",
		"CARGO_BUILD_RUSTC_WRAPPER", "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER":
		return false, true
	case "CARGO_HOST_LINKER", "CARGO_DOC_BROWSER", "CARGO_REGISTRY_CREDENTIAL_PROVIDER":
		return true, true
	}
	if strings.HasPrefix(name, "CARGO_TARGET_") && (strings.HasSuffix(name, "_RUNNER") || strings.HasSuffix(name, "_LINKER")) ||
		strings.HasPrefix(name, "CARGO_REGISTRIES_") && strings.HasSuffix(name, "_CREDENTIAL_PROVIDER") {
		return true, true
	}
	return false, false
}

// cargoVarCode analyses a cargo program variable's value (see
// cargoProgramVar).
func (w *walker) cargoVarCode(a assignment, split bool) {
	if !a.static {
		w.incomplete(a.name + " that is not static")
		w.unknownCode(a.raw)
		return
	}
	words := []string{a.value}
	if split {
		words = strings.Fields(a.value)
	}
	if len(words) > 0 && words[0] != "" {
		w.runWords(words, cargoRuns(a.name), a.name)
	}
}

// cargoRuns is the program cargo hands to the one a variable or key
// names: a runner is handed the target's binary, a rustc wrapper rustc;
// a linker, rustc itself and the others only flags and files.
func cargoRuns(name string) string {
	name = strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
	switch {
	case strings.HasSuffix(name, "RUNNER"):
		return builtProgram
	case strings.HasSuffix(name, "WRAPPER"):
		return toolchainProgram
	}
	return ""
}

// cargoConfig looks at cargo's --config options, which it takes before
// or after the subcommand, up to --. A value is a KEY=VALUE in TOML or
// the path of a configuration file. A file's settings are not known; a
// value that may set a key naming a program (a runner, a linker, rustc
// or a wrapper of it, rustdoc, a credential provider, the browser), an
// environment variable for rustc and build scripts (env.*), an alias
// or an included file is unknown code: TOML quoting and escapes can
// spell a key many ways, so the words are looked for anywhere in the
// text, and a backslash (an escape) is not looked into.
func (w *walker) cargoConfig(args []field) {
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			if strings.Contains(f.raw, "--config") || i > 0 && args[i-1].known() && args[i-1].s == "--config" {
				w.incomplete("cargo with a word only known at run time that may be configuration")
				w.unknownCode("cargo " + f.raw)
			}
			continue
		}
		if f.s == "--" {
			return
		}
		var v field
		switch {
		case f.s == "--config":
			if i+1 >= len(args) {
				return
			}
			i++
			v = args[i]
			if !v.known() {
				w.incomplete("cargo --config with a value that is not static")
				w.unknownCode("cargo --config " + v.raw)
				continue
			}
		case strings.HasPrefix(f.s, "--config="):
			v = field{s: strings.TrimPrefix(f.s, "--config="), static: true, raw: f.raw}
		default:
			continue
		}
		if !strings.Contains(v.s, "=") {
			w.incomplete("cargo --config reads a configuration file")
			w.unknownCode("cargo --config " + v.raw)
			continue
		}
		if key, value, ok := cargoConfigString(v.s); ok && w.cargoConfigKey(key, value, v.raw) {
			continue
		}
		if cargoConfigRuns(v.s) {
			w.incomplete("cargo --config names a program for cargo to run")
			w.unknownCode("cargo --config " + v.raw)
		}
	}
}

// cargoConfigString splits a cargo --config KEY=VALUE whose key is
// dotted bare words and whose value is one TOML string with nothing to
// unescape ("..." without a backslash, or '...'): ok is false for any
// other form, which cargoConfigRuns looks at instead.
func cargoConfigString(kv string) (key, value string, ok bool) {
	key, value, _ = strings.Cut(kv, "=")
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if key == "" || strings.Trim(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != "" ||
		strings.HasPrefix(key, ".") || strings.HasSuffix(key, ".") || strings.Contains(key, "..") || len(value) < 2 {
		return "", "", false
	}
	q := value[0]
	if q != '"' && q != '\'' || value[len(value)-1] != q {
		return "", "", false
	}
	value = value[1 : len(value)-1]
	if strings.ContainsAny(value, "\n\r") || strings.IndexByte(value, q) >= 0 || q == '"' && strings.Contains(value, `\`) {
		return "", "", false
	}
	return key, value, true
}

// cargoConfigKey analyses a --config setting of a key cargo reads a
// program or environment from, given as a plain string: env.NAME puts
// NAME in the environment of rustc, build scripts and what cargo run
// and cargo test run, read as an assignment in front of them is
// (envCode); target.TRIPLE.runner is a program and arguments split at
// spaces, handed the target's binary; a linker, rustc, rustdoc or a
// wrapper of rustc is a program path; build.rustflags and
// target.TRIPLE.rustflags are rustc's flags. It reports whether the key
// was one of those.
func (w *walker) cargoConfigKey(key, value, raw string) bool {
	parts := strings.Split(key, ".")
	what := "cargo --config " + key
	switch {
	case len(parts) == 2 && parts[0] == "env" && isName(parts[1]):
		w.envCode([]assignment{{name: parts[1], value: value, static: true, raw: raw}})
	case len(parts) == 3 && parts[0] == "target" && parts[2] == "runner":
		if words := strings.Fields(value); len(words) > 0 {
			w.runWords(words, builtProgram, what)
		}
	case len(parts) == 3 && parts[0] == "target" && parts[2] == "linker", key == "host.linker", key == "build.rustc",
		key == "build.rustdoc", key == "build.rustc-wrapper", key == "build.rustc-workspace-wrapper":
		if value != "" {
			w.runWords([]string{value}, cargoRuns(key), what)
		}
	case key == "build.rustflags", key == "build.rustdocflags", len(parts) == 3 && parts[0] == "target" &&
		(parts[2] == "rustflags" || parts[2] == "rustdocflags"):
		w.rustFlags(strings.Fields(value), what, raw)
	default:
		return false
	}
	return true
}

// cargoConfigRuns reports whether a cargo --config KEY=VALUE may set
// something that runs a program or code (see cargoConfig).
func cargoConfigRuns(kv string) bool {
	s := strings.ToLower(kv)
	if strings.ContainsRune(s, '\\') {
		return true
	}
	for _, k := range []string{"runner", "linker", "rustc", "rustdoc", "wrapper", "credential", "browser", "env", "alias", "include",
		"flags"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// cargoCommand is cargo: a program vouch does not model, whose --config
// options may name programs it runs.
func cargoCommand(w *walker, c *call) {
	w.cargoConfig(c.args)
	w.unmodelledArgs(c.name, c.args)
}

// toolPath returns the program a path only known at run time names
// (raw, the text of the value in f): one word ending in a static /NAME
// (-vettool="$(go env GOPATH)/bin/shadow", see unknownDirProgram), or
// the program which finds on PATH (-vettool=$(which shadow), also
// command -v and type -P), which is that program as its name alone is.
func toolPath(f field, raw string) (string, bool) {
	if p, ok := unknownDirProgram(f); ok {
		// A tool that splits the value at spaces (go -exec) would
		// not run this path whole.
		if strings.ContainsAny(strings.TrimPrefix(p, unknownDir), " \t\n'\"") {
			return "", false
		}
		return p, true
	}
	if name, ok := whichName(raw); ok {
		return name, true
	}
	return "", false
}

// whichName returns NAME when raw is nothing but $(which NAME),
// $(command -v NAME) or $(type -P NAME), quoted or not: the path of the
// program NAME on PATH.
func whichName(raw string) (string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("x "+raw), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 {
		return "", false
	}
	parts := call.Args[1].Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return "", false
	}
	cs, ok := parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 || cs.Stmts[0].Negated || cs.Stmts[0].Background {
		return "", false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 {
		return "", false
	}
	var words []string
	for _, a := range ce.Args {
		words = append(words, a.Lit())
	}
	var name string
	switch {
	case len(words) == 2 && words[0] == "which":
		name = words[1]
	case len(words) == 3 && (words[0] == "command" && words[1] == "-v" || words[0] == "type" && words[1] == "-P"):
		name = words[2]
	default:
		return "", false
	}
	if name == "" || name[0] == '-' || strings.ContainsAny(name, "/\\*?[~$`'\"") {
		return "", false
	}
	return name, true
}
