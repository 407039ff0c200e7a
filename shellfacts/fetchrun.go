package shellfacts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Package runners fetch a package from a registry and run one of its
// programs: npx and npm exec, bunx and bun x, pnpm dlx (pnpx), yarn dlx,
// uvx and uv tool run, pipx run. What they run is a program vouch has
// never seen, chosen by a name anyone can publish under, so it is unknown
// code unless the package is one of the well-known tools below (or, for
// the runners that look there first, a program the project installed in
// node_modules/.bin). Either way the program and its arguments are
// analysed as the command they are (npx rimraf ~ removes nothing vouch
// sees, but npx cat .env reads .env), so a runner is a wrapper.

// fetchEco says which registry a runner's packages come from.
type fetchEco int

const (
	ecoNPM fetchEco = iota
	ecoPyPI
	ecoGems  // RubyGems (gem exec)
	ecoNuGet // NuGet (dnx, dotnet tool exec)
)

// fetchRunner describes one runner's command line.
type fetchRunner struct {
	name string // as unknown code names it: "npx", "pnpm dlx"
	spec optSpec
	eco  fetchEco
	// local: the runner runs a program of that name installed in the
	// project's node_modules/.bin instead of fetching one (npx, bunx).
	local bool
	// pkgOpts name the packages fetched when given (npx -p, uvx --from,
	// --with); the program is then one of theirs.
	pkgOpts []string
	// sourceOpts change where packages come from (a registry or index of
	// anyone's choosing): every package is then unknown.
	sourceOpts []string
	// callOpts hold a shell command run with the packages' programs on
	// PATH (npx -c, pnpm dlx -c joins the words).
	callOpts []string
	// chdirOpts name the directory the program runs in (uvx --directory).
	chdirOpts []string
}

// npmExecSpec is npm exec's (and npx's) options, npm 7 and later; npm
// takes any configuration key as an option, so one not named here is
// unknown.
var npmExecSpec = optSpec{
	withValue: "pcw",
	flags:     "yq",
	long:      []string{"package", "call", "workspace", "registry", "userconfig", "cache", "loglevel"},
	longFlags: []string{"yes", "no", "workspaces", "ws", "include-workspace-root", "quiet", "silent", "ignore-existing",
		"prefer-offline", "prefer-online", "offline", "no-install", "help", "version"},
	posix: true, closed: true,
}

var npxRunner = fetchRunner{name: "npx", spec: npmExecSpec, eco: ecoNPM, local: true,
	pkgOpts: []string{"-p", "--package"}, sourceOpts: []string{"--registry", "--userconfig"}, callOpts: []string{"-c", "--call"}}

// bunx [--bun] [-p PKG] PKG[@VERSION] ARGS...
var bunxRunner = fetchRunner{name: "bunx", eco: ecoNPM, local: true, pkgOpts: []string{"-p", "--package"},
	sourceOpts: []string{"--registry"},
	spec: optSpec{withValue: "p", long: []string{"package", "registry"}, longFlags: []string{"bun", "silent", "verbose", "no-install", "help", "version"},
		posix: true, closed: true}}

// pnpm dlx [--package PKG]... [--allow-build PKG] [-c] CMD ARGS...: always
// a fresh install from the registry.
var pnpmDlxRunner = fetchRunner{name: "pnpm dlx", eco: ecoNPM, pkgOpts: []string{"--package"}, sourceOpts: []string{"--registry"},
	spec: optSpec{flags: "ch", long: []string{"package", "allow-build", "registry", "reporter", "loglevel"},
		longFlags: []string{"shell-mode", "silent", "help"}, posix: true, closed: true}}

// yarn dlx [-p PKG]... [-q] CMD ARGS... (yarn 2 and later).
var yarnDlxRunner = fetchRunner{name: "yarn dlx", eco: ecoNPM, pkgOpts: []string{"-p", "--package"},
	spec: optSpec{withValue: "p", flags: "qh", long: []string{"package"}, longFlags: []string{"quiet", "help"}, posix: true, closed: true}}

// uvxRunner is uvx (uv tool run): uv's own options, and --from and --with
// naming packages.
func uvxRunner() fetchRunner {
	s, _ := runnerSpecs("uv")
	s.long = append(append([]string(nil), s.long...), "from")
	s.posix = true
	return fetchRunner{name: "uvx", spec: s, eco: ecoPyPI,
		pkgOpts:    []string{"--from", "--with", "-w", "--with-editable", "--with-requirements"},
		sourceOpts: []string{"--index", "--default-index", "--index-url", "--extra-index-url", "-i", "--find-links", "-f"},
		chdirOpts:  []string{"--directory"}}
}

// pipx run [--spec SPEC] [--python P] ... APP ARGS...
var pipxRunRunner = fetchRunner{name: "pipx run", eco: ecoPyPI, pkgOpts: []string{"--spec", "-e", "--editable"},
	sourceOpts: []string{"--index-url", "-i", "--pip-args"},
	spec: optSpec{withValue: "ie", flags: "vqh", long: []string{"spec", "python", "index-url", "pip-args", "editable", "backend"},
		longFlags: []string{"no-cache", "pypackages", "path", "system-site-packages", "verbose", "quiet", "help", "fetch-missing-python"},
		posix:     true, closed: true}}

// gem exec [OPTIONS] [--] COMMAND ARGS... (RubyGems 3.5 and later)
// installs the gem COMMAND names (or -g GEM) if missing and runs it.
var gemExecRunner = fetchRunner{name: "gem exec", eco: ecoGems, pkgOpts: []string{"-g", "--gem"},
	sourceOpts: []string{"-s", "--source", "--config-file"},
	spec: optSpec{withValue: "vgsB", flags: "lrbhVq", long: []string{"version", "gem", "source", "bulk-threshold", "config-file"},
		longFlags: []string{"prerelease", "no-prerelease", "conservative", "local", "remote", "both", "clear-sources", "help",
			"verbose", "no-verbose", "quiet", "backtrace", "debug", "norc"},
		posix: true, closed: true}}

// dnx PACKAGE[@VERSION] ARGS..., also dotnet dnx and dotnet tool exec
// (.NET 10): fetches a tool package from NuGet and runs it.
var dnxRunner = fetchRunner{name: "dnx", eco: ecoNuGet, sourceOpts: []string{"--source", "--add-source", "--configfile"},
	spec: optSpec{withValue: "av", flags: "yh", long: []string{"source", "add-source", "configfile", "arch", "framework", "verbosity"},
		longFlags: []string{"allow-roll-forward", "disable-parallel", "ignore-failed-sources", "interactive", "no-http-cache",
			"prerelease", "yes", "help"},
		posix: true, closed: true}}

// dnxRun is dnx: its command-line parser takes its own options
// anywhere before --, after the package too (dnx x --source URL), so
// one that points at another feed is looked for in every word.
func (w *walker) dnxRun(r fetchRunner, args []field) wrapResult {
	for _, f := range args {
		if f.known() && f.s == "--" {
			break
		}
		name, _, _ := strings.Cut(f.raw, "=")
		if slices.Contains(r.sourceOpts, strings.Trim(name, `"'`)) {
			w.incomplete(r.name + " fetches from a feed the command line names")
			w.unknownCode(r.name + " " + joinRaw(args))
			w.unmodelledArgs(r.name, args)
			return wrapResult{}
		}
	}
	res := w.fetchRun(r, args)
	if res.ok && len(res.rest) > 1 && res.rest[1].known() && res.rest[1].s == "--" {
		res.rest = append([]field{res.rest[0]}, res.rest[2:]...)
	}
	return res
}

// fetchWrapper strips a package runner whose command line starts with
// its own options (npx, bunx, uvx, pnpx).
func fetchWrapper(r fetchRunner) wrapFunc {
	return func(w *walker, args []field) wrapResult {
		return w.fetchRun(r, args)
	}
}

// subFetchWrapper strips a program that is a package runner through one
// subcommand (npm exec and npm x, bun x, pipx run, go run PKG@VERSION);
// used otherwise it is the program itself, and its create command
// (npm init NAME, bun create NAME) is a scaffolder.
func subFetchWrapper(prog string) wrapFunc {
	return func(w *walker, args []field) wrapResult {
		switch prog {
		case "npm":
			p := parseOpts(args, npmExecSpec)
			isExec := func(s string) bool { return s == "exec" || s == "x" }
			if len(p.operands) == 0 || !p.operands[0].known() || !isExec(p.operands[0].s) {
				w.scaffolder("npm", p.operands)
				if len(p.unknown) > 0 {
					// npm takes any configuration key as an option:
					// one not known may have taken a value for its own,
					// and exec be further on (npm --prefix d exec x).
					w.lostVerb("npm", p.operands, isExec)
				}
				return wrapResult{}
			}
			if w.unknownOpts("npm", p) {
				return wrapResult{}
			}
			r := npxRunner
			r.name = "npm exec"
			return w.fetchRun(r, slices.Concat(optWords(args, p), p.operands[1:]))
		case "bun":
			if len(args) > 0 && args[0].known() && args[0].s == "x" {
				return w.fetchRun(bunxRunner, args[1:])
			}
			w.scaffolder("bun", args)
		case "pipx":
			if len(args) > 0 && args[0].known() && args[0].s == "run" {
				return w.fetchRun(pipxRunRunner, args[1:])
			}
		case "gem":
			if len(args) > 0 && args[0].known() && args[0].s == "exec" {
				return w.fetchRun(gemExecRunner, args[1:])
			}
		case "dotnet":
			switch {
			case len(args) > 0 && args[0].known() && args[0].s == "dnx":
				return w.dnxRun(dnxRunner, args[1:])
			case len(args) > 1 && args[0].known() && args[0].s == "tool" && args[1].known() && args[1].s == "exec":
				r := dnxRunner
				r.name = "dotnet tool exec"
				return w.dnxRun(r, args[2:])
			}
		case "go":
			// go -C DIR run ...: -C, which must come first, is where
			// go runs.
			var dir *field
			if len(args) > 1 && args[0].known() && args[0].s == "-C" {
				dir, args = &args[1], args[2:]
			} else if len(args) > 0 && args[0].known() && strings.HasPrefix(args[0].s, "-C=") {
				dir = &field{s: args[0].s[3:], static: true, raw: args[0].raw}
				args = args[1:]
			}
			// Its flags may name programs it runs (go test -exec), in
			// the command it is or the one it fetches.
			progs := func() { w.goPrograms(args) }
			if len(args) > 0 && args[0].known() && args[0].s == "run" {
				res := w.goRun(args[1:])
				if res.ok && dir != nil {
					res.chdir = dir
				}
				res.after = progs
				return res
			}
			return wrapResult{after: progs}
		}
		return wrapResult{}
	}
}

// optWords returns the words of args that p read as options and their
// values: the words before its first operand.
func optWords(args []field, p parsed) []field {
	return args[:len(args)-len(p.operands)]
}

// fetchRun reads a runner's options and returns the program it runs as
// the wrapped command, marking what it fetches as unknown code unless it
// is well known. A runner it gives up on (an option it does not know,
// another registry) runs what it runs unread: its words are then read as
// any unmodelled program's are, so that a file they name is still a read
// (npx --registry=URL cat .env reads .env).
func (w *walker) fetchRun(r fetchRunner, args []field) wrapResult {
	res := w.fetchRunOpts(r, args)
	if !res.ok && res.after == nil {
		w.unmodelledArgs(r.name, args)
	}
	return res
}

func (w *walker) fetchRunOpts(r fetchRunner, args []field) wrapResult {
	p := parseOpts(args, r.spec)
	if w.unknownOpts(r.name, p) {
		return wrapResult{}
	}
	pkgs := p.values(r.pkgOpts...)
	if len(p.values(r.sourceOpts...)) > 0 || p.has(r.sourceOpts...) {
		w.incomplete(r.name + " fetches from a registry or index the command line names")
		w.unknownCode(r.name + " " + joinRaw(args))
		return wrapResult{}
	}
	if c := p.values(r.callOpts...); len(c) > 0 {
		w.fetchKnown(r, pkgs, nil)
		return wrapResult{after: func() {
			for _, s := range c {
				w.nestedString(s, r.name+" -c")
			}
		}}
	}
	ops := p.operands
	if len(ops) == 0 {
		w.fetchKnown(r, pkgs, nil)
		return wrapResult{}
	}
	if r.name == "pnpm dlx" && p.has("-c", "--shell-mode") {
		// The words joined with spaces are the shell's code, as for
		// pnpm exec -c; the packages are the ones to fetch.
		w.fetchKnown(r, pkgs, nil)
		return w.shellModeWords(ops, r.name+" -c")
	}
	w.fetchKnown(r, pkgs, &ops[0])
	rest := ops
	if len(pkgs) == 0 && ops[0].known() {
		// The package's own name, with a version, names its program.
		prog := field{s: pkgName(ops[0].s, r.eco), static: true, raw: ops[0].raw}
		rest = append([]field{prog}, ops[1:]...)
	}
	res := wrapResult{ok: true, rest: rest}
	if d := p.values(r.chdirOpts...); len(d) > 0 {
		res.chdir = &d[len(d)-1]
	}
	return res
}

// shellModeWords is pnpm's shell mode: the words, joined with spaces and
// unquoted, are run as shell code.
func (w *walker) shellModeWords(ops []field, what string) wrapResult {
	var words []string
	for _, f := range ops {
		if !f.known() {
			w.incomplete(what + " with a word that is not static")
			w.unknownCode(what + " " + f.raw)
			return wrapResult{}
		}
		words = append(words, f.s)
	}
	code := field{s: strings.Join(words, " "), static: true, raw: strings.Join(words, " ")}
	return wrapResult{after: func() { w.nestedString(code, what) }}
}

// fetchKnown marks the packages a runner fetches as unknown code unless
// each is well known: those named by its package options, else the
// one cmd names. A program the project installed (node_modules/.bin)
// is run from there by the runners that look there first, and fetches
// nothing.
func (w *walker) fetchKnown(r fetchRunner, pkgs []field, cmd *field) {
	if len(pkgs) == 0 {
		if cmd == nil {
			return
		}
		if r.local && cmd.known() && w.projectBin(cmd.s) {
			return
		}
		pkgs = []field{*cmd}
	}
	for _, f := range pkgs {
		if f.known() && wellKnownPackage(f.s, r.eco) {
			continue
		}
		w.incomplete(r.name + " fetches and runs a package vouch does not know")
		w.unknownCode(r.name + " " + f.raw)
	}
}

// projectBin reports whether name is a program installed in a
// node_modules/.bin of the current directory or one above it, where npx
// and bunx find a project's own tools.
func (w *walker) projectBin(name string) bool {
	if name == "" || strings.ContainsAny(name, "/\\") || name == "." || name == ".." || !w.dirKnown {
		return false
	}
	for d := w.cwd(); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "node_modules", ".bin", name)); err == nil && !fi.IsDir() {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// pkgName is the name in a package spec with a version (prettier@3,
// @biomejs/biome@1.9, ruff==0.5, ruff@latest, black[d]>=24); a spec that
// is not a plain name and version (a path, a URL, git:, an npm: alias)
// comes back whole.
func pkgName(spec string, eco fetchEco) string {
	name, version := spec, ""
	switch eco {
	case ecoNPM:
		if i := strings.IndexByte(spec[min(1, len(spec)):], '@'); i >= 0 {
			name, version = spec[:i+1], spec[i+2:]
		}
		if strings.ContainsAny(version, ":/") {
			return spec
		}
	case ecoGems, ecoNuGet:
		if i := strings.IndexByte(spec, '@'); i > 0 {
			name, version = spec[:i], spec[i+1:]
		}
		if strings.ContainsAny(version, ":/") || strings.ContainsAny(name, ":/\\") {
			return spec
		}
	case ecoPyPI:
		i := strings.IndexAny(spec, "@=<>!~[;")
		if i < 0 {
			return spec
		}
		name, version = spec[:i], spec[i:]
		if strings.ContainsAny(version, ":/ ") {
			return spec
		}
	}
	return name
}

// wellKnownPackage reports whether spec names, with any plain version,
// one of the widely used developer tools: linters, formatters, type
// checkers, test runners and build tools, each published under that exact
// name. Its program reads and writes files vouch sees as it sees those of
// any program it does not model; programs that run other commands given
// as arguments (cross-env, concurrently), delete (rimraf), publish or
// fetch templates are left out, so running them through a runner asks.
func wellKnownPackage(spec string, eco fetchEco) bool {
	name := pkgName(spec, eco)
	switch eco {
	case ecoNPM:
		switch name {
		case "prettier", "eslint", "typescript", "jest", "vitest", "mocha", "tsx", "ts-node", "vite", "serve", "http-server",
			"npm-check-updates", "@biomejs/biome", "markdownlint-cli", "markdownlint-cli2", "stylelint", "playwright",
			"@playwright/test", "prisma", "turbo", "nx", "lerna", "svelte-check", "vue-tsc", "knip", "depcheck", "madge", "c8",
			"nyc", "tsup", "esbuild", "rollup", "webpack", "webpack-cli", "@redocly/cli", "@commitlint/cli", "@angular/cli",
			"eslint_d", "oxlint", "publint", "size-limit", "pyright", "cspell", "jscpd", "license-checker":
			return true
		}
	case ecoPyPI:
		switch strings.ReplaceAll(strings.ToLower(name), "_", "-") {
		case "ruff", "black", "mypy", "pytest", "isort", "flake8", "pylint", "pre-commit", "tox", "nox", "pyright", "codespell",
			"yamllint", "bandit", "pip-audit", "sqlfluff", "build", "coverage", "pyupgrade", "autopep8", "yapf", "pydocstyle",
			"vulture", "radon", "check-jsonschema", "mdformat", "ty", "basedpyright", "djlint", "cmake", "ninja", "meson",
			// Plugins and type packages the tools above are run with
			// (uvx --with, uv run --with).
			"pytest-cov", "pytest-xdist", "pytest-asyncio", "pytest-mock", "pytest-timeout", "pytest-randomly",
			"mypy-extensions", "types-requests", "types-pyyaml", "types-setuptools":
			return true
		}
	case ecoGems:
		switch name {
		case "rubocop", "rake", "rspec", "rspec-core", "standard", "rufo", "erb_lint", "haml_lint", "slim_lint", "solargraph",
			"yard", "brakeman", "reek", "bundler-audit", "steep", "rbs", "sorbet", "ruby-lsp", "syntax_tree", "htmlbeautifier":
			return true
		}
	case ecoNuGet:
		// NuGet package ids ignore case.
		switch strings.ToLower(name) {
		case "dotnet-ef", "csharpier", "dotnet-outdated-tool", "dotnet-reportgenerator-globaltool", "dotnet-coverage",
			"coverlet.console", "dotnet-counters", "dotnet-trace", "dotnet-dump", "dotnet-format", "fantomas", "dotnet-stryker",
			"microsoft.web.librarymanager.cli", "dotnet-sonarscanner":
			return true
		}
	}
	return false
}

// joinRaw is the words as written, joined with spaces.
func joinRaw(fs []field) string {
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.raw)
	}
	return b.String()
}

// scaffolders are the package managers' create commands: npm init NAME
// and npm create NAME run the package create-NAME fetched from the
// registry (yarn create, pnpm create and bun create likewise). Such a
// scaffolder writes whatever it likes where it runs; none is well known
// here, so each is unknown code.
func (w *walker) scaffolder(prog string, ops []field) bool {
	if len(ops) == 0 || !ops[0].known() {
		return false
	}
	switch verb := ops[0].s; {
	case verb == "create" && prog != "npm", (verb == "init" || verb == "create" || verb == "innit") && prog == "npm":
	default:
		return false
	}
	for _, f := range ops[1:] {
		if f.known() && strings.HasPrefix(f.s, "-") {
			continue
		}
		w.incomplete(prog + " " + ops[0].s + " fetches and runs a package vouch does not know")
		w.unknownCode(prog + " " + ops[0].s + " " + f.raw)
		return true
	}
	return false
}

// goRunValueFlags are the go build flags that take a value as the next
// word (go help build); every other flag is -name or -name=value.
var goRunValueFlags = map[string]bool{
	"C": true, "p": true, "asmflags": true, "buildmode": true, "buildvcs": true, "compiler": true, "gccgoflags": true,
	"gcflags": true, "installsuffix": true, "ldflags": true, "mod": true, "modfile": true, "overlay": true, "pgo": true,
	"pkgdir": true, "tags": true, "toolexec": true, "exec": true, "covermode": true, "coverpkg": true,
}

// goRun is go run PKG@VERSION ARGS: the module is fetched at that
// version, outside the current module's requirements, built and run,
// which is npx for Go. A package without a version is the project's own
// code or one of its dependencies, and runs as any program does.
func (w *walker) goRun(args []field) wrapResult {
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			return wrapResult{}
		}
		if f.s == "--" {
			return wrapResult{}
		}
		if strings.HasPrefix(f.s, "-") {
			name, _, eq := strings.Cut(strings.TrimLeft(f.s, "-"), "=")
			if !eq && goRunValueFlags[name] {
				i++
			}
			continue
		}
		path, version, ok := strings.Cut(f.s, "@")
		if !ok {
			return wrapResult{}
		}
		if !wellKnownGoTool(path) || strings.ContainsAny(version, ":/") {
			w.incomplete("go run fetches and runs a module vouch does not know")
			w.unknownCode("go run " + f.raw)
		}
		prog := field{s: filepath.Base(path), static: true, raw: f.raw}
		return wrapResult{ok: true, rest: append([]field{prog}, args[i+1:]...)}
	}
	return wrapResult{}
}

// wellKnownGoTool reports whether a Go package path is one of the widely
// used developer tools: the Go project's own (golang.org/x/...) and the
// common linters and formatters.
func wellKnownGoTool(path string) bool {
	if strings.HasPrefix(path, "golang.org/x/") && !strings.Contains(path, "..") {
		return true
	}
	switch path {
	case "honnef.co/go/tools/cmd/staticcheck", "mvdan.cc/gofumpt", "github.com/golangci/golangci-lint/cmd/golangci-lint",
		"github.com/golangci/golangci-lint/v2/cmd/golangci-lint", "github.com/securego/gosec/v2/cmd/gosec",
		"github.com/google/go-licenses", "github.com/google/addlicense", "github.com/daixiang0/gci", "mvdan.cc/sh/v3/cmd/shfmt",
		"github.com/segmentio/golines", "github.com/mgechev/revive":
		return true
	}
	return false
}

// denoRemote marks deno run of a script fetched from elsewhere (a URL,
// jsr:, an npm: package that is not well known) as unknown code: deno
// runs a remote module as readily as a local file.
func (w *walker) denoRemote(args []field) {
	i := 0
	for i < len(args) && args[i].known() && strings.HasPrefix(args[i].s, "-") {
		i++
	}
	if i < len(args) && args[i].known() && args[i].s == "run" {
		i++
	}
	for ; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			return
		}
		if strings.HasPrefix(f.s, "-") {
			name, _, eq := strings.Cut(f.s, "=")
			switch name {
			case "-c", "--config", "--import-map", "-L", "--log-level", "--lock", "--cert", "--location", "--seed":
				if !eq {
					i++
				}
			}
			continue
		}
		s := f.s
		if npm, ok := strings.CutPrefix(s, "npm:"); ok && wellKnownPackage(npm, ecoNPM) {
			return
		}
		if strings.Contains(s, "://") || strings.HasPrefix(s, "npm:") || strings.HasPrefix(s, "jsr:") {
			w.incomplete("deno runs a module fetched from elsewhere")
			w.unknownCode("deno run " + f.raw)
		}
		return
	}
}

// uvRunWith marks the packages uv run adds for the command (--with,
// --with-requirements, --with-editable) as uvx's are: fetched from the
// index and run, unknown code unless well known. p and q are uv's
// options before and after run; false means uv run fetches from an index
// the command line names, and what runs is unknown.
func (w *walker) uvRunWith(p, q parsed, args []field) bool {
	r := uvxRunner()
	r.name = "uv run --with"
	var pkgs []field
	for _, o := range slices.Concat(p.opts, q.opts) {
		switch {
		case !o.hasVal || !slices.Contains(r.pkgOpts, o.name):
		case o.name == "--with-editable" && o.val.known() && !strings.Contains(o.val.s, ":"):
			// A directory here, the project's own code, such as
			// the project itself (--with-editable .).
		default:
			pkgs = append(pkgs, o.val)
		}
	}
	if len(pkgs) == 0 {
		return true
	}
	if p.has(r.sourceOpts...) || q.has(r.sourceOpts...) {
		w.incomplete("uv run fetches from a registry or index the command line names")
		w.unknownCode("uv " + joinRaw(args))
		return false
	}
	w.fetchKnown(r, pkgs, nil)
	return true
}

// nixFetches marks the installables of nix run, shell and develop that
// are flakes fetched from elsewhere (github:o/r, git+https://...,
// https://...tar.gz, a registry name other than nixpkgs) as unknown
// code: anyone can publish one, and nix builds and runs what it says,
// as a package runner does. nixpkgs (nixpkgs#hello, nixpkgs/nixos-24.05#x)
// is reviewed, and a flake in a local directory (., ./x, /abs, path:) is
// the project's or the machine's own. With --file or --expr the words
// are attributes of that file or expression, not flakes; the registry
// overridden on the command line (--override-flake, --override-input)
// may point anywhere. It reports whether any was marked.
func (w *walker) nixFetches(args, refs []field, sub string) bool {
	for _, f := range args {
		if f.known() && (f.s == "--override-flake" || f.s == "--override-input" || f.s == "--inputs-from") {
			w.incomplete("nix " + sub + " with flake inputs the command line points elsewhere")
			w.unknownCode("nix " + sub + " " + f.s + " ...")
			return true
		}
	}
	if nixExpr(args) {
		w.incomplete("nix " + sub + " evaluates an expression the command line gives")
		w.unknownCode("nix " + sub + " --expr ...")
		return true
	}
	if nixAttrs(args) {
		return false
	}
	marked := false
	for _, f := range refs {
		if f.known() && !nixRemoteRef(f.s) {
			continue
		}
		w.incomplete("nix " + sub + " fetches and runs a flake vouch does not know")
		w.unknownCode("nix " + sub + " " + f.raw)
		marked = true
	}
	return marked
}

// nixRemoteRef reports whether a flake reference (before any #attribute)
// is fetched from elsewhere than nixpkgs or a local directory.
func nixRemoteRef(s string) bool {
	ref, _, _ := strings.Cut(s, "#")
	ref = strings.TrimPrefix(ref, "flake:")
	switch {
	case ref == "." || ref == ".." || strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../") || strings.HasPrefix(ref, "/"):
		return false
	case strings.HasPrefix(ref, "path:") && !strings.Contains(ref, "?"):
		return false
	case ref == "nixpkgs" || strings.HasPrefix(ref, "nixpkgs/") && !strings.ContainsAny(ref, ":?"):
		return false
	}
	return true
}

// nixRun is nix run INSTALLABLE ARGS: a flake fetched from elsewhere is
// unknown code; a nixpkgs package runs its program, named as the
// package is (nixpkgs#bash -- -c CODE is bash -c CODE); another
// installable (the project's own app, nix run .) runs a program whose
// name the command line does not give, as ./app does.
func (w *walker) nixRun(args, refs []field) wrapResult {
	if len(refs) == 0 {
		if nixExpr(args) {
			w.nixFetches(args, refs, "run")
		}
		return wrapResult{} // nix run: the flake in the current directory
	}
	if w.nixFetches(args, refs[:1], "run") {
		return wrapResult{}
	}
	ref, attr, ok := strings.Cut(refs[0].s, "#")
	if !refs[0].known() || !ok || !(ref == "nixpkgs" || strings.HasPrefix(ref, "nixpkgs/")) {
		return wrapResult{}
	}
	if nixAttrs(args) {
		return wrapResult{}
	}
	name := attr[strings.LastIndexByte(attr, '.')+1:]
	if name == "" || strings.ContainsAny(name, "/\"'") {
		return wrapResult{}
	}
	prog := field{s: name, static: true, raw: refs[0].raw}
	rest := refs[1:]
	if len(rest) > 0 && rest[0].known() && rest[0].s == "--" {
		rest = rest[1:]
	}
	return wrapResult{ok: true, rest: append([]field{prog}, rest...)}
}

// nixExpr reports whether nix is given --expr: a Nix expression,
// which can fetch anything from anywhere (builtins.fetchTarball,
// builtins.getFlake "github:...", fetchurl from nixpkgs, reached under
// any name the language can compute) and build and run it, so what it
// installs is not known from the text.
func nixExpr(args []field) bool {
	return slices.ContainsFunc(args, func(a field) bool {
		return a.known() && (a.s == "--expr" || strings.HasPrefix(a.s, "--expr="))
	})
}

// nixAttrs reports whether nix is given --file or --expr, which make its
// installables attributes of that file or expression rather than flakes.
func nixAttrs(args []field) bool {
	return slices.ContainsFunc(args, func(a field) bool {
		return a.known() && (a.s == "--file" || a.s == "-f" || a.s == "--expr")
	})
}

// pixiExec marks what pixi exec fetches from conda channels, as a
// package runner's packages are: the packages --spec and --with name, or
// else the one the command is named after, unknown code unless a
// well-known tool, and any with a channel the command line names. p and
// q are pixi's options before and after exec.
func (w *walker) pixiExec(p, q parsed, ops []field) bool {
	r := fetchRunner{name: "pixi exec", eco: ecoPyPI, pkgOpts: []string{"-s", "--spec", "-w", "--with"}}
	if p.has("-c", "--channel") || q.has("-c", "--channel") {
		w.incomplete("pixi exec fetches from a channel the command line names")
		w.unknownCode("pixi exec " + joinRaw(ops))
		return false
	}
	pkgs := append(p.values(r.pkgOpts...), q.values(r.pkgOpts...)...)
	if len(ops) > 0 {
		w.fetchKnown(r, pkgs, &ops[0])
	} else {
		w.fetchKnown(r, pkgs, nil)
	}
	return true
}
