package shellfacts

import (
	"strings"
)

// Compilers and the flags given to them name programs too. go build
// runs $CC (and $CXX, $FC, $PKG_CONFIG) for cgo, the C compiler loads
// any plugin -fplugin names and runs the assembler and linker -B points
// at, the linker loads -plugin; cargo's rustc runs the linker
// -C linker names. A build tool reads these from the environment (CC,
// CGO_LDFLAGS, RUSTFLAGS) and from its own flags (go build -ldflags
// -extld=...), so CC='rm -rf ~' go build is rm as much as go test -exec
// 'rm -rf ~' is. A compiler variable is analysed as the command words it
// is; a flag that makes a compiler or linker run or load a program named
// elsewhere is unknown code. Everything else in them (optimisation,
// warnings, defines, include and library directories, -rpath) only
// changes how the project's own code is built.

// ccProgramVar reports whether a variable names a compiler or helper a
// build runs as a program with arguments: go (cgo), make, cmake,
// configure scripts and the cc crate of cargo build scripts read them,
// the last also per target (CC_x86_64_unknown_linux_gnu, TARGET_CC).
func ccProgramVar(name string) bool {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "HOST_"), "TARGET_")
	switch name {
	case "CC", "CXX", "FC", "PKG_CONFIG":
		return true
	}
	for _, p := range []string{"CC_", "CXX_"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != strings.ToUpper(rest) {
			return true
		}
	}
	return false
}

// ccFlagsVar reports whether a variable holds flags for a C compiler or
// linker (cgo's CGO_*FLAGS, the CFLAGS family make and the cc crate
// read).
func ccFlagsVar(name string) bool {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "HOST_"), "TARGET_")
	switch strings.TrimPrefix(name, "CGO_") {
	case "CFLAGS", "CPPFLAGS", "CXXFLAGS", "FFLAGS", "LDFLAGS":
		return true
	}
	return false
}

// rustFlagsVar reports whether a variable holds flags cargo hands rustc
// or rustdoc, and the separator between them: the encoded forms use the
// ASCII unit separator, the others spaces.
func rustFlagsVar(name string) (sep string, ok bool) {
	switch name {
	case "CARGO_ENCODED_RUSTFLAGS", "CARGO_ENCODED_RUSTDOCFLAGS":
		return "\x1f", true
	case "RUSTFLAGS", "RUSTDOCFLAGS", "CARGO_BUILD_RUSTFLAGS", "CARGO_BUILD_RUSTDOCFLAGS":
		return " ", true
	}
	if strings.HasPrefix(name, "CARGO_TARGET_") && (strings.HasSuffix(name, "_RUSTFLAGS") || strings.HasSuffix(name, "_RUSTDOCFLAGS")) {
		return " ", true
	}
	return "", false
}

// ccProgramCode analyses a compiler variable's value as the program and
// arguments it is, split as go splits it (splitGoQuoted). make and
// configure scripts paste the value into shell code instead, so a value
// a shell would read differently (an operator, an expansion, a glob, a
// tilde) is also analysed as that shell code, run in a directory only
// known at run time with arguments only known then: CC='rm -rf ~' is
// go running rm on a directory named ~ and make removing the home
// directory. No compiler's name holds such a character.
func (w *walker) ccProgramCode(a assignment) {
	if !a.static {
		if p, ok := toolPath(field{raw: valueRaw(a)}, valueRaw(a)); ok {
			w.runWords([]string{p}, "", a.name)
			return
		}
		w.incomplete(a.name + " that is not static")
		w.unknownCode(a.raw)
		return
	}
	if words, ok := splitGoQuoted(a.value); ok && len(words) > 0 {
		w.runWords(words, "", a.name)
	}
	if strings.ContainsAny(a.value, ";&|<>()$`\\\n*?[]{}~#!'\"") {
		w.nestedStringIn(field{s: a.value + ` "$@"`, static: true, raw: a.raw}, a.name, false)
	}
}

// flagsCode checks a compiler or rustc flags variable (ccFlagsVar,
// rustFlagsVar). A value only known at run time is looked into when it
// adds static flags to the variable's own earlier value
// (CFLAGS="$CFLAGS -O2", the usual way to add one): the earlier value was
// looked at where it was set, or is the environment the session started
// with. Any other expansion may be any flag, and is unknown code.
func (w *walker) flagsCode(a assignment, rust bool, sep string) {
	value := a.value
	if !a.static {
		rest := valueRaw(a)
		for _, own := range []string{"${" + a.name + "}", "$" + a.name} {
			rest = strings.ReplaceAll(rest, own, " ")
		}
		if strings.ContainsAny(rest, "$`\\") {
			w.incomplete(a.name + " that is not static")
			w.unknownCode(a.raw)
			return
		}
		value, sep = strings.NewReplacer(`"`, "", `'`, "").Replace(rest), " "
	}
	var words []string
	if sep == " " {
		words = strings.Fields(value)
	} else {
		words = strings.Split(value, sep)
	}
	if rust {
		w.rustFlags(words, a.name, a.raw)
		return
	}
	if bad, ok := ccFlagsRun(words); ok {
		w.incomplete(a.name + " makes the compiler or linker run or load a program named elsewhere (" + bad + ")")
		w.unknownCode(a.raw)
	}
}

// valueRaw is the value of an assignment as written (after NAME=).
func valueRaw(a assignment) string {
	_, v, ok := strings.Cut(strings.TrimLeft(a.raw, `"'`), "=")
	if !ok {
		return a.raw
	}
	return v
}

// ccFlagsRun returns the first of a C compiler's or linker's flags that
// makes it run or load a program the flags name: a plugin (-fplugin,
// clang's -fpass-plugin and -Xclang -load), another directory for its
// assembler and linker (-B, clang's --prefix and --gcc-toolchain), a
// linker named by path (-fuse-ld=/x, --ld-path), a specs file (which
// may run programs), a wrapper of every subprogram (-wrapper), a
// response file (@file, more flags not shown) and, passed through to
// the linker, assembler or preprocessor (-Wl, -Xlinker ...), a plugin,
// a program interpreter for what it links (--dynamic-linker) or any of
// the above.
func ccFlagsRun(words []string) (string, bool) {
	for i := 0; i < len(words); i++ {
		f := words[i]
		switch {
		case f == "-Xlinker" || f == "-Xassembler" || f == "-Xpreprocessor" || f == "-Xclang":
			if i+1 < len(words) {
				i++
				if passedRuns(words[i]) {
					return f + " " + words[i], true
				}
			}
		case strings.HasPrefix(f, "-Wl,") || strings.HasPrefix(f, "-Wa,") || strings.HasPrefix(f, "-Wp,"):
			for _, part := range strings.Split(f[4:], ",") {
				if passedRuns(part) {
					return f, true
				}
			}
		case strings.HasPrefix(f, "-fuse-ld="):
			if strings.ContainsAny(f, `/\`) {
				return f, true
			}
		default:
			if ccRuns(f) {
				return f, true
			}
		}
	}
	return "", false
}

// ccRuns reports whether one compiler flag names a program or plugin
// to run or load (see ccFlagsRun).
func ccRuns(f string) bool {
	for _, p := range []string{"-fplugin", "-fpass-plugin", "-B", "--prefix", "-specs", "--specs", "-wrapper", "--ld-path",
		"--gcc-toolchain", "-gcc-toolchain", "-load", "@"} {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

// passedRuns reports whether a word a compiler passes to its linker,
// assembler or preprocessor (or clang's front end) makes that load or
// run a program.
// The linker's -Bstatic, -Bdynamic and -Bsymbolic are not the
// compiler's -B: only the words below are looked for.
func passedRuns(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "plugin") || strings.Contains(l, "load") || strings.Contains(l, "dynamic-linker") ||
		strings.HasPrefix(s, "-I") || strings.HasPrefix(s, "@") || strings.HasPrefix(s, "-fuse-ld=") || strings.HasPrefix(s, "-specs")
}

// rustFlags looks at flags cargo hands rustc or rustdoc: -C linker=PATH
// runs that program (analysed as such); link arguments are C linker
// flags (ccFlagsRun); a flag that loads code or names more flags
// elsewhere (an unstable -Z flag for a plugin or codegen backend, LLVM
// arguments that load a pass, --extern NAME=PATH, which may be a
// procedural macro rustc loads, an @file) is unknown code; rustdoc's
// --runtool, --test-builder and its wrapper run programs, analysed as
// such.
func (w *walker) rustFlags(words []string, what, raw string) {
	unknown := func(flag string) {
		w.incomplete(what + " makes rustc or rustdoc run or load a program named elsewhere (" + flag + ")")
		w.unknownCode(raw)
	}
	for i := 0; i < len(words); i++ {
		f := words[i]
		next := func() (string, bool) {
			if i+1 >= len(words) {
				return "", false
			}
			i++
			return words[i], true
		}
		var kv string
		switch {
		case f == "-C" || f == "--codegen" || f == "-Z":
			v, ok := next()
			if !ok {
				continue
			}
			kv = v
		case strings.HasPrefix(f, "--codegen="):
			kv = strings.TrimPrefix(f, "--codegen=")
		case strings.HasPrefix(f, "-C") || strings.HasPrefix(f, "-Z"):
			kv = f[2:]
		case f == "--extern" || strings.HasPrefix(f, "--extern="):
			v := strings.TrimPrefix(f, "--extern=")
			if f == "--extern" {
				v, _ = next()
			}
			if strings.Contains(v, "=") {
				unknown(f + " " + v)
			}
			continue
		case strings.HasPrefix(f, "@"):
			unknown(f)
			continue
		case f == "--runtool" || f == "--test-builder" || f == "--test-builder-wrapper":
			if v, ok := next(); ok && v != "" {
				runs := builtProgram
				switch f {
				case "--test-builder":
					runs = ""
				case "--test-builder-wrapper":
					runs = toolchainProgram
				}
				w.runWords([]string{v}, runs, what+" "+f)
			}
			continue
		case strings.HasPrefix(f, "--runtool=") || strings.HasPrefix(f, "--test-builder"):
			unknown(f)
			continue
		default:
			continue
		}
		key, value, _ := strings.Cut(kv, "=")
		switch key = strings.ReplaceAll(key, "_", "-"); key {
		case "linker":
			if value != "" {
				w.runWords([]string{value}, "", what+" -C linker")
			}
		case "link-arg", "pre-link-arg":
			if bad, ok := ccFlagsRun([]string{value}); ok {
				unknown(bad)
			}
		case "link-args", "pre-link-args":
			if bad, ok := ccFlagsRun(strings.Fields(value)); ok {
				unknown(bad)
			}
		case "linker-plugin-lto":
			// Given a value other than yes or no, the path of the
			// plugin the linker loads.
			switch value {
			case "", "y", "yes", "n", "no", "on", "off", "true", "false":
			default:
				unknown(kv)
			}
		default:
			if l := strings.ToLower(kv); strings.Contains(l, "plugin") || strings.Contains(l, "load") ||
				strings.Contains(l, "backend") {
				unknown(kv)
			}
		}
	}
}

// goFlagLists are the go build flags whose value is a list of flags for
// another program: the linker's (-ldflags) and gccgo's (-gccgoflags).
var goFlagLists = map[string]bool{"ldflags": true, "gccgoflags": true}

// goLinkFlags looks at the flags -ldflags or -gccgoflags hands on. The
// value may start with a package pattern (all=-s -w) and is split as go
// splits it. Of the linker's flags, -extld names the external linker,
// run as the words it is, -extar the archiver, and -extldflags are C
// linker flags (ccFlagsRun); gccgo's are C compiler flags.
func (w *walker) goLinkFlags(name string, v field) {
	what := "go -" + name
	if !v.known() {
		if flagsInjectable(v.raw) {
			w.incomplete(what + " with a value only known at run time that may name a program")
			w.unknownCode(goFlagText(what, v.raw))
		}
		return
	}
	s := strings.TrimSpace(v.s)
	if s != "" && s[0] != '-' {
		if _, after, ok := strings.Cut(s, "="); ok {
			s = after
		}
	}
	words, ok := splitGoQuoted(s)
	if !ok {
		return // go refuses it
	}
	if name == "gccgoflags" {
		if bad, ok := ccFlagsRun(words); ok {
			w.incomplete(what + " makes gccgo run or load a program named elsewhere (" + bad + ")")
			w.unknownCode(goFlagText(what, v.raw))
		}
		return
	}
	for i := 0; i < len(words); i++ {
		flag, value, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(words[i], "-"), "-"), "=")
		if !strings.HasPrefix(words[i], "-") || flag != "extld" && flag != "extar" && flag != "extldflags" {
			continue
		}
		if !eq {
			if i+1 >= len(words) {
				continue
			}
			i++
			value = words[i]
		}
		switch flag {
		case "extld":
			if ws, ok := splitGoQuoted(value); ok && len(ws) > 0 {
				w.runWords(ws, "", what+" -extld")
			} else if !ok {
				w.unknownCode(goFlagText(what, v.raw))
			}
		case "extar":
			if value != "" {
				w.runWords([]string{value}, "", what+" -extar")
			}
		case "extldflags":
			ws, ok := splitGoQuoted(value)
			if bad, runs := ccFlagsRun(ws); runs || !ok {
				w.incomplete(what + " -extldflags makes the linker run or load a program named elsewhere (" + bad + ")")
				w.unknownCode(goFlagText(what, v.raw))
			}
		}
	}
}

// goLinkFlagsDynamic handles a word only known at run time that is
// -ldflags=VALUE or -gccgoflags=VALUE as written, reporting whether it
// was one.
func (w *walker) goLinkFlagsDynamic(f field) bool {
	raw := strings.TrimLeft(f.raw, `"'`)
	if !strings.HasPrefix(raw, "-") {
		return false
	}
	name, value, ok := strings.Cut(strings.TrimLeft(raw, "-"), "=")
	if !ok || !goFlagLists[name] {
		return false
	}
	if flagsInjectable(value) {
		w.incomplete("go -" + name + " with a value only known at run time that may name a program")
		w.unknownCode("go " + f.raw)
	}
	return true
}

// flagsInjectable reports whether a flag list only known at run time,
// as written, may hold a flag that names a program: it names one
// (extld, extar), or an expansion stands where a flag starts ("$LDFLAGS",
// "-s $EXTRA"). An expansion inside a flag's value (-X main.v=$V, the
// usual way to stamp a version) is taken as that value.
func flagsInjectable(raw string) bool {
	l := strings.ToLower(raw)
	if strings.Contains(l, "extld") || strings.Contains(l, "extar") || strings.Contains(l, "plugin") {
		return true
	}
	text := strings.NewReplacer(`"`, "", `'`, "").Replace(raw)
	for i := 0; i < len(text); i++ {
		if c := text[i]; (c == '$' || c == '`') && (i == 0 || strings.IndexByte(" \t\n", text[i-1]) >= 0) {
			return true
		}
	}
	return false
}

// goFlagText names a go flag list for unknown code: the word as written
// when it holds the flag's name, else the name and the value.
func goFlagText(what, raw string) string {
	if strings.Contains(raw, strings.TrimPrefix(what, "go ")) {
		return "go " + raw
	}
	return what + " " + raw
}
