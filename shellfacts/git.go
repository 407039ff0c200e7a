package shellfacts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// gitArgs handles git: global options (-C changes directory, -c can name
// commands git will run), then per subcommand the paths it reads, writes
// or deletes and the remotes it talks to.
func gitArgs(w *walker, c *call) {
	args := c.args
	dir := w.saveDir()
	defer w.restoreDir(dir)
	var aliases map[string]string // -c alias.NAME=VALUE
	moved := false                // -C or --work-tree named the repository
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			w.incomplete("dynamic git option")
			return
		}
		s := f.s
		if !strings.HasPrefix(s, "-") {
			break
		}
		name, val, hasVal := strings.Cut(s, "=")
		switch name {
		case "-C":
			if i+1 < len(args) {
				w.cd(args[i+1])
				moved = true
				i++
			}
		case "-c":
			if i+1 < len(args) {
				if i >= c.envConfig {
					w.gitConfig(args[i+1])
				}
				if k := args[i+1]; k.known() {
					key, val, _ := strings.Cut(k.s, "=")
					w.setOptions(c, []string{"-c " + strings.ToLower(key)})
					if name, ok := strings.CutPrefix(strings.ToLower(key), "alias."); ok {
						if aliases == nil {
							aliases = map[string]string{}
						}
						aliases[name] = val
					}
				}
				i++
			}
		case "--work-tree":
			if !hasVal && i+1 < len(args) {
				i++
				w.cd(args[i])
			} else if hasVal {
				w.cd(field{s: val, static: true})
			}
		case "--git-dir", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source":
			if !hasVal {
				i++
				if i < len(args) {
					val = args[i].s
				}
			}
			if name == "--config-env" {
				// --config-env=KEY=ENVVAR: the value comes from the
				// environment, so it is read as a value only known at
				// run time ($ENVVAR).
				if key, env, ok := strings.Cut(val, "="); ok {
					w.gitConfig(field{s: key + "=$" + env, static: true})
				}
			}
		}
	}
	if i >= len(args) {
		return
	}
	sub := args[i].s
	rest := args[i+1:]
	sub, rest = w.gitExpandAlias(aliases, sub, rest)
	if c.idx >= 0 && c.idx < len(w.facts.Commands) {
		cmd := &w.facts.Commands[c.idx]
		cmd.Sub = sub
		for _, f := range rest {
			cmd.SubArgs = append(cmd.SubArgs, w.argOf(f))
		}
	}
	w.gitOptions(c, sub, rest)
	w.gitTrees(sub, rest)
	w.gitOutput(rest)
	if moved {
		w.gitIndexWrite(sub)
	}
	switch sub {
	case "show", "cat-file", "rev-parse":
		// rev-parse REV:PATH names the blob that show or cat-file
		// then print (git show $(git rev-parse HEAD:.env)).
		w.gitRevPaths(rest, w.reads, false, "nSGLO")
	case "add", "stage", "hash-object":
		// Their files are read into the object store, to be committed
		// and pushed. No short option of add takes a value (-f is
		// --force, so git add -f .env adds .env); hash-object's -t does.
		w.gitRevPaths(rest, w.reads, true, "t")
	case "diff", "log", "blame", "annotate", "grep", "difftool", "whatchanged", "shortlog",
		"diff-tree", "diff-index", "diff-files":
		// ls-files, check-ignore and check-attr are left out: they print
		// names and what .gitignore or .gitattributes say about them,
		// never a file's content (git check-ignore .env is how one asks
		// whether .env is committed by mistake).
		w.gitRevPaths(rest, w.reads, true, "nSGLOefm")
		if sub == "difftool" {
			// -x CMD runs CMD through the shell on each pair of files.
			for _, v := range gitOptValues(rest, "-x", "--extcmd") {
				w.nestedString(v, "git difftool --extcmd")
			}
		}
	case "mergetool":
		for _, v := range gitOptValues(rest, "", "--tool-cmd") {
			w.nestedString(v, "git mergetool --tool-cmd")
		}
	case "bundle":
		// git bundle create FILE REV...: FILE receives the history.
		p := parseOpts(rest, optSpec{})
		if len(p.operands) >= 2 && p.operands[0].known() && p.operands[0].s == "create" {
			w.path(p.operands[1], w.writes, "git bundle create")
		}
	case "format-patch":
		// Prints the history of the paths after -- into patch files:
		// -o DIR (else the current directory) receives them, unless
		// --stdout.
		p := parseOpts(rest, optSpec{withValue: "ov", long: []string{"output-directory", "subject-prefix", "reroll-count", "in-reply-to", "to", "cc", "from", "add-header", "suffix", "start-number", "interdiff", "range-diff", "creation-factor", "base", "signature", "signature-file", "filename-max-length", "cover-from-description", "description-file", "notes"}})
		w.gitRevPaths(rest, w.reads, false, "ov")
		if !p.has("--stdout") {
			dirs := p.values("-o", "--output-directory")
			if len(dirs) == 0 {
				w.addPath(".", w.writes, "git format-patch")
			}
			w.pathsTo(dirs, w.writes, "git format-patch")
		}
	case "checkout", "restore", "reset", "switch":
		w.gitRevPaths(rest, w.writes, sub == "checkout" || sub == "reset", "bBcCs")
		if sub == "restore" {
			p := parseOpts(rest, optSpec{withValue: "s", long: []string{"source", "pathspec-from-file"}})
			w.pathsTo(p.operands, w.writes, "git restore")
		}
	case "checkout-index":
		// Writes the index's version of each named file (with -a, of
		// every file) into the work tree: what git update-index
		// --cacheinfo put there can replace any file.
		p := parseOpts(rest, optSpec{withValue: "", long: []string{"prefix", "stage"}})
		if p.has("-a", "--all") {
			w.gitWorkTree("git checkout-index --all")
		}
		w.pathsTo(p.operands, w.writes, "git checkout-index")
	case "rm":
		p := parseOpts(rest, optSpec{long: []string{"pathspec-from-file"}})
		if p.has("--cached") {
			return
		}
		w.removeTo(p.operands, w.deletes, false, "git rm")
	case "mv":
		moveFiles(w, &call{name: "git mv", args: rest, idx: c.idx})
	case "clean":
		p := parseOpts(rest, optSpec{withValue: "eE", long: []string{"exclude"}})
		if p.has("-n", "--dry-run") {
			return
		}
		if len(p.operands) == 0 {
			w.removing = true
			w.addPath(".", w.deletes, "git clean")
			w.removing = false
		}
		w.removeTo(p.operands, w.deletes, false, "git clean")
		w.incomplete("git clean removes whatever is untracked")
	case "clone":
		p := parseOpts(rest, optSpec{withValue: "bocuj", long: []string{"branch", "origin", "depth", "reference", "reference-if-able", "separate-git-dir", "config", "upload-pack", "template", "jobs", "filter", "shallow-since", "shallow-exclude", "server-option", "bundle-uri", "ref-format"}})
		for _, cfg := range p.values("-c", "--config") {
			w.gitConfig(cfg)
		}
		w.gitUploadPack(p)
		if len(p.operands) == 0 {
			return
		}
		src := p.operands[0]
		w.gitRemote(c, src, true)
		if len(p.operands) > 1 {
			w.path(p.operands[1], w.writes, "git clone")
		} else if src.known() {
			name := strings.TrimSuffix(filepath.Base(strings.TrimRight(src.s, "/")), ".git")
			if i := strings.LastIndexByte(name, ':'); i >= 0 {
				name = name[i+1:]
			}
			if name != "" && name != "." && name != ".." {
				w.addPath(name, w.writes, "git clone")
			}
		}
	case "fetch", "pull", "push", "ls-remote":
		p := parseOpts(rest, optSpec{withValue: "ojt", long: []string{"upload-pack", "receive-pack", "exec", "depth", "deepen", "shallow-since", "shallow-exclude", "jobs", "server-option", "push-option", "refmap", "negotiation-tip", "recurse-submodules-default", "strategy", "strategy-option", "repo"}})
		w.gitUploadPack(p)
		for _, r := range p.values("--repo") {
			w.gitRemote(c, r, false)
		}
		if len(p.operands) > 0 {
			w.gitRemote(c, p.operands[0], false)
		}
	case "remote":
		p := parseOpts(rest, optSpec{withValue: "tm"})
		if len(p.operands) >= 3 && p.operands[0].known() && (p.operands[0].s == "add" || p.operands[0].s == "set-url") {
			w.gitRemote(c, p.operands[2], false)
		}
	case "submodule":
		p := parseOpts(rest, optSpec{withValue: "b", long: []string{"branch", "name", "reference", "depth"}})
		if len(p.operands) >= 2 && p.operands[0].known() && p.operands[0].s == "foreach" {
			// One word is run through the shell in each submodule;
			// several are run as a program and its arguments.
			cmd := p.operands[1:]
			if len(cmd) == 1 {
				w.nestedString(cmd[0], "git submodule foreach")
			} else {
				w.nestedArgv(cmd, "git submodule foreach", "git submodule foreach", true)
			}
		}
		if len(p.operands) >= 2 && p.operands[0].known() && p.operands[0].s == "add" {
			w.gitRemote(c, p.operands[1], false)
			if len(p.operands) >= 3 {
				w.path(p.operands[2], w.writes, "git submodule add")
			}
		}
	case "archive":
		p := parseOpts(rest, optSpec{withValue: "o", long: []string{"output", "remote", "exec", "format", "prefix", "add-file", "add-virtual-file"}})
		w.pathsTo(p.values("-o", "--output"), w.writes, "git archive")
		for _, r := range p.values("--remote") {
			w.gitRemote(c, r, false)
		}
		// git archive TREE-ISH [PATH...]: the paths are read (from the
		// tree, as git show HEAD:path is), and --add-file files too.
		w.pathsTo(p.values("--add-file"), w.reads, "git archive")
		if len(p.values("--remote")) == 0 && len(p.operands) > 1 {
			w.pathsTo(p.operands[1:], w.reads, "git archive")
		}
	case "apply", "am":
		p := parseOpts(rest, optSpec{withValue: "pC", long: []string{"directory", "exclude", "include", "whitespace", "build-fake-ancestor"}})
		w.pathsTo(p.operands, w.reads, "git "+sub)
		w.incomplete("git " + sub + ": the files it changes are named in the patch")
	case "config":
		p := parseOpts(rest, optSpec{withValue: "f", long: []string{"file", "blob", "type", "default", "comment", "value"}})
		ops := p.operands
		w.gitConfigFile(p)
		if len(ops) >= 3 && ops[0].known() && (ops[0].s == "set" || ops[0].s == "--add") {
			ops = ops[1:]
		}
		if len(ops) >= 2 && ops[0].known() && ops[1].known() {
			w.gitConfig(field{s: ops[0].s + "=" + ops[1].s, static: true})
			if name, ok := strings.CutPrefix(strings.ToLower(ops[0].s), "alias."); ok {
				// git config alias.p 'push -f' && git p
				if w.gitAliases == nil {
					w.gitAliases = map[string]string{}
				}
				if len(w.gitAliases) < 64 {
					w.gitAliases[name] = ops[1].s
				}
			}
		}
	}
}

// gitIndexWrite records, for a git command run in a repository that -C
// named, the write of that repository's .git (its index, objects and
// refs) by the subcommands that change them: git -C ~/other add . writes
// below ~/other/.git, outside the repository the agent works in. Run in
// the current repository, the same write is of the agent's own .git.
func (w *walker) gitIndexWrite(sub string) {
	switch sub {
	case "add", "stage", "rm", "mv", "commit", "reset", "restore", "update-index", "stash", "checkout", "switch",
		"merge", "pull", "rebase", "cherry-pick", "revert", "am", "tag", "branch", "fetch", "gc", "prune", "update-ref":
	default:
		return
	}
	if !w.dirKnown {
		return
	}
	w.addPath(filepath.Join(w.repoRoot(), ".git"), w.writes, "git -C "+sub)
}

// gitOutput records the file named by --output (--output=FILE or
// --output FILE): every git command that takes diff or revision options
// (diff, log, show, shortlog, blame, range-diff, rev-list, cherry-pick
// ...) writes what it would print there, and with --format=%B that is a
// commit message the agent wrote, so it is a write of any content.
// Options after -- are paths.
func (w *walker) gitOutput(rest []field) {
	for _, v := range gitOptValues(rest, "", "--output") {
		w.path(v, w.writes, "git --output")
	}
}

// gitOptValues returns the values of a git option given as a short
// letter (-xV, -x V; "" for none) or a long name (--name=V, --name V),
// the long name also abbreviated to any prefix of at least four
// characters, as git's parse-options accepts. Arguments after -- are
// not options. A value only known at run time is returned as it is.
func gitOptValues(args []field, short, long string) []field {
	var vals []field
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			continue
		}
		s := f.s
		if s == "--" {
			break
		}
		name, val, hasVal := strings.Cut(s, "=")
		switch {
		case strings.HasPrefix(s, "--") && len(name) >= 4 && strings.HasPrefix(long, name):
			if hasVal {
				vals = append(vals, field{s: val, static: true, raw: val})
			} else if i+1 < len(args) {
				i++
				vals = append(vals, args[i])
			}
		case short != "" && s == short:
			if i+1 < len(args) {
				i++
				vals = append(vals, args[i])
			}
		case short != "" && strings.HasPrefix(s, short) && !strings.HasPrefix(s, "--"):
			v := s[len(short):]
			vals = append(vals, field{s: v, static: true, raw: v})
		}
	}
	return vals
}

// gitConfigFile records the file git config writes when it is not the
// repository's own .git/config (whose keys the rules on git commands
// read from the command line): ~/.gitconfig with --global, /etc/gitconfig
// with --system, F with --file F. It writes when setting a value
// (git config [--global] KEY VALUE, set, --add, --replace-all), removing
// one or a section, renaming a section, or opening the editor; getting
// and listing only read.
func (w *walker) gitConfigFile(p parsed) {
	ops := p.operands
	write := false
	if len(ops) > 0 && ops[0].known() {
		switch ops[0].s {
		case "set", "unset", "rename-section", "remove-section", "edit":
			write = true
		case "get", "list":
			return
		}
	}
	switch {
	case p.has("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list"):
	case p.has("--add", "--replace-all", "--unset", "--unset-all", "--rename-section", "--remove-section", "-e", "--edit"):
		write = true
	case len(ops) >= 2:
		write = true
	}
	if !write {
		return
	}
	if f := p.values("-f", "--file"); len(f) > 0 {
		w.path(f[len(f)-1], w.writes, "git config --file")
		return
	}
	switch {
	case p.has("--global"):
		if w.opts.Home == "" {
			w.incomplete("git config --global without a home directory")
			w.unresolvedWrite(w.writes, "~/.gitconfig")
			return
		}
		w.addPath(w.opts.Home+"/.gitconfig", w.writes, "git config --global")
	case p.has("--system"):
		w.addPath("/etc/gitconfig", w.writes, "git config --system")
	}
}

// gitExpandAlias replaces a subcommand that is a git alias standing for
// another git command (-c alias.p='push -f', or git config alias.p set
// earlier in the command line) with what it stands for, as git does, so
// the subcommand's options are read from the expansion (git p is git
// push -f). An alias that runs a shell command (!...) is left as it is:
// gitConfig parses its command.
func (w *walker) gitExpandAlias(local map[string]string, sub string, rest []field) (string, []field) {
	for range 8 {
		key := strings.ToLower(sub)
		val, ok := local[key]
		if !ok {
			val, ok = w.gitAliases[key]
		}
		if !ok || strings.HasPrefix(val, "!") {
			return sub, rest
		}
		words := splitGitCmdline(val)
		if len(words) == 0 {
			return sub, rest
		}
		expanded := make([]field, 0, len(words)-1+len(rest))
		for _, s := range words[1:] {
			expanded = append(expanded, field{s: s, static: true, raw: s})
		}
		sub, rest = words[0], append(expanded, rest...)
	}
	return sub, rest
}

// splitGitCmdline splits an alias's value into words as git does:
// whitespace separates words, single and double quotes group, and a
// backslash escapes the next character.
func splitGitCmdline(s string) []string {
	var words []string
	var b strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote == 0 && (ch == ' ' || ch == '\t' || ch == '\n'):
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
			continue
		case ch == '\\' && quote != '\'' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case quote == 0 && (ch == '\'' || ch == '"'):
			quote = ch
		case quote != 0 && ch == quote:
			quote = 0
		default:
			b.WriteByte(ch)
		}
		in = true
	}
	if in {
		words = append(words, b.String())
	}
	return words
}

// gitUploadPack: --upload-pack and --receive-pack name programs git runs
// (locally for local and file:// remotes).
func (w *walker) gitUploadPack(p parsed) {
	for _, prog := range p.values("-u", "--upload-pack", "--receive-pack", "--exec") {
		w.nestedString(prog, "git --upload-pack")
	}
}

// gitRemote records a remote that is a URL or host:path; a local path
// remote is read instead (local: true for clone's source).
func (w *walker) gitRemote(c *call, f field, local bool) {
	if !f.known() {
		w.incomplete("dynamic git remote")
		return
	}
	if strings.HasPrefix(strings.ToLower(f.s), "ext::") {
		// ext::CMD is a remote helper that runs CMD (when
		// protocol.ext.allow lets it).
		w.incomplete("git's ext:: remote runs a command")
		w.unknownCode(f.raw)
		return
	}
	if u, ok := findURL(f.s); ok && strings.HasPrefix(f.s, u) {
		w.addURL(f.s, "git")
		return
	}
	if _, ok := remote(f.s); ok {
		w.urls[f.s] = true
		return
	}
	if local || strings.ContainsAny(f.s, "/.") {
		// A path remote (../other-repo): git reads it.
		if strings.Contains(f.s, "/") || local {
			w.path(f, w.reads, "git")
		}
	}
}

// gitConfig looks at a -c key=value for settings whose value is a command
// git will run: aliases starting with '!', pagers, editors, ssh commands.
func (w *walker) gitConfig(f field) {
	if !f.known() {
		w.incomplete("dynamic git -c setting")
		return
	}
	key, val, ok := strings.Cut(f.s, "=")
	if !ok {
		return
	}
	key = strings.ToLower(key)
	switch {
	case key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path") ||
		key == "extensions.worktreeconfig" && !gitFalse(val):
		// An included file (or, with worktreeConfig, .git/config.worktree)
		// is configuration read from a file this command line does not
		// show: it may set core.fsmonitor, core.hooksPath or an alias,
		// as GIT_CONFIG_GLOBAL may.
		w.incomplete("git configuration " + key + " loads settings from a file vouch does not read")
		w.unknownCode(f.s)
	case key == "protocol.ext.allow" && val != "never" || key == "protocol.allow" && val == "always" ||
		strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, "url") && strings.HasPrefix(strings.ToLower(val), "ext::"):
		// ext:: remotes run a command of their own.
		w.incomplete("git configuration " + key + " lets ext:: remotes run commands")
		w.unknownCode(f.s)
	case strings.HasPrefix(key, "alias."):
		if cmd, ok := strings.CutPrefix(val, "!"); ok {
			w.nestedString(field{s: cmd, static: true}, "git alias")
		}
	case key == "core.pager" || key == "core.editor" || key == "core.sshcommand" || key == "core.fsmonitor" ||
		key == "core.askpass" || key == "sequence.editor" || key == "diff.external" || key == "gpg.program" ||
		key == "credential.helper" || key == "core.hookspath" || strings.HasPrefix(key, "pager.") ||
		strings.HasPrefix(key, "filter.") || strings.HasSuffix(key, ".textconv") || strings.HasSuffix(key, ".command") ||
		strings.HasSuffix(key, ".cmd") || strings.HasSuffix(key, ".program"):
		if key == "core.hookspath" {
			w.incomplete("git hooks from " + val + " may run")
			return
		}
		if strings.HasPrefix(key, "pager.") && (val == "true" || val == "false") {
			return
		}
		w.nestedString(field{s: strings.TrimPrefix(val, "!"), static: true}, "git "+key)
	}
}

// gitFalse reports whether a git boolean value is false.
func gitFalse(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}

// gitRevPaths records the paths a subcommand names: REV:path operands
// (relative to the repository's top, or to the current directory when
// spelled ./path), everything after --, and (when bare is true) operands
// that exist as files, which git takes as paths too.
func (w *walker) gitRevPaths(args []field, set map[string]bool, bare bool, withValue string) {
	p := parseOpts(args, optSpec{
		withValue: withValue,
		long: []string{"format", "pretty", "author", "committer", "grep", "since", "until", "after", "before", "max-count",
			"skip", "diff-filter", "output", "src-prefix", "dst-prefix", "relative", "word-diff-regex", "color-words",
			"anchored", "source", "pathspec-from-file", "conflict", "orphan", "encoding", "textconv", "filters", "batch"},
	})
	// parseOpts stops at "--": everything from there on is a path.
	afterDashes := false
	nOps := 0
	for _, f := range args {
		if f.known() && f.s == "--" {
			afterDashes = true
			break
		}
	}
	if afterDashes {
		for i, f := range args {
			if f.known() && f.s == "--" {
				nOps = len(p.operands) - len(args[i+1:])
				w.pathsTo(args[i+1:], set, "git")
				break
			}
		}
	} else {
		nOps = len(p.operands)
	}
	for _, f := range p.operands[:max(nOps, 0)] {
		if !f.known() {
			w.incomplete("dynamic git argument")
			continue
		}
		if rev, path, ok := strings.Cut(f.s, ":"); ok {
			// ":0:path" names a stage of the index.
			if rev == "" && len(path) > 2 && path[1] == ':' && path[0] >= '0' && path[0] <= '3' {
				path = path[2:]
			}
			if path == "" {
				continue
			}
			if strings.HasPrefix(path, "./") || strings.HasPrefix(path, "../") {
				w.addPath(path, set, "git")
			} else {
				w.addPath(filepath.Join(w.repoRoot(), path), set, "git")
			}
			continue
		}
		if bare {
			if f.s == "." {
				w.addPath(".", set, "git")
				continue
			}
			if cp, err := w.canonical(f.s); err == nil {
				if _, err := os.Lstat(cp); err == nil {
					set[cp] = true
				}
			}
		}
	}
}

// repoRoot finds the top of the repository around the current directory
// (the nearest ancestor with a .git), or the directory itself.
func (w *walker) repoRoot() string {
	if top, ok := w.gitTop(); ok {
		return top
	}
	return w.dir
}

// gitTop is the nearest directory at or above the current one with a
// .git, and whether there is one.
func (w *walker) gitTop() (string, bool) {
	d := w.cwd()
	for range 64 {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", false
}

// gitFullNames writes abbreviated long options into the subcommand's
// argument list under their full names, so a rule on the subcommand's line
// (git reset --hard main) sees `git reset --har main` as git runs it.
func (w *walker) gitFullNames(c *call, p parsed, rest []field) {
	if c.idx < 0 || c.idx >= len(w.facts.Commands) {
		return
	}
	args := w.facts.Commands[c.idx].SubArgs
	for _, o := range p.opts {
		if !strings.HasPrefix(o.name, "--") || o.at >= len(args) || o.at >= len(rest) {
			continue
		}
		word := rest[o.at].s
		name, val, hasEq := strings.Cut(word, "=")
		if name == o.name || !strings.HasPrefix(word, "--") {
			continue
		}
		if hasEq {
			args[o.at] = o.name + "=" + val
		} else {
			args[o.at] = o.name
		}
	}
}

// gitLong lists, per subcommand, the long options git knows (from git's
// documentation), so abbreviations are read as git reads them: git accepts
// any prefix that begins exactly one of them. Only subcommands that rules
// look at closely are listed; a list that misses an option can make an
// abbreviation look unambiguous when git would refuse it, which at worst
// flags a command that does not run.
var gitLong = map[string][]string{
	"push": {"all", "branches", "mirror", "delete", "tags", "follow-tags", "no-follow-tags", "atomic", "no-atomic",
		"dry-run", "porcelain", "force", "no-force", "force-with-lease", "no-force-with-lease", "force-if-includes",
		"no-force-if-includes", "repo", "set-upstream", "thin", "no-thin", "quiet", "verbose", "progress", "no-progress",
		"prune", "no-prune", "verify", "no-verify", "recurse-submodules", "no-recurse-submodules", "signed", "no-signed",
		"push-option", "ipv4", "ipv6", "receive-pack", "exec"},
	"commit": {"all", "patch", "reuse-message", "reedit-message", "fixup", "squash", "reset-author", "short", "branch",
		"porcelain", "long", "null", "file", "author", "date", "message", "template", "signoff", "no-signoff", "trailer",
		"verify", "no-verify", "allow-empty", "allow-empty-message", "cleanup", "edit", "no-edit", "amend",
		"no-post-rewrite", "include", "only", "pathspec-from-file", "pathspec-file-nul", "untracked-files", "verbose",
		"quiet", "dry-run", "status", "no-status", "gpg-sign", "no-gpg-sign"},
	"rebase": {"onto", "keep-base", "no-keep-base", "continue", "abort", "quit", "apply", "empty", "keep-empty",
		"no-keep-empty", "reapply-cherry-picks", "no-reapply-cherry-picks", "allow-empty-message", "skip", "edit-todo",
		"show-current-patch", "merge", "strategy", "strategy-option", "rerere-autoupdate", "no-rerere-autoupdate",
		"gpg-sign", "no-gpg-sign", "quiet", "verbose", "stat", "no-stat", "verify", "no-verify", "force-rebase",
		"no-force-rebase", "no-ff", "fork-point", "no-fork-point", "ignore-whitespace", "whitespace",
		"committer-date-is-author-date", "ignore-date", "reset-author-date", "signoff", "interactive", "rebase-merges",
		"no-rebase-merges", "exec", "root", "autosquash", "no-autosquash", "autostash", "no-autostash",
		"reschedule-failed-exec", "no-reschedule-failed-exec", "update-refs", "no-update-refs", "trailer"},
	"merge": {"commit", "no-commit", "edit", "no-edit", "cleanup", "ff", "no-ff", "ff-only", "gpg-sign", "no-gpg-sign",
		"log", "no-log", "signoff", "no-signoff", "stat", "no-stat", "squash", "no-squash", "verify", "no-verify",
		"strategy", "strategy-option", "verify-signatures", "no-verify-signatures", "summary", "no-summary", "quiet",
		"verbose", "progress", "no-progress", "autostash", "no-autostash", "allow-unrelated-histories", "message",
		"into-name", "file", "rerere-autoupdate", "no-rerere-autoupdate", "overwrite-ignore", "no-overwrite-ignore",
		"abort", "quit", "continue"},
	"pull": {"quiet", "verbose", "recurse-submodules", "no-recurse-submodules", "commit", "no-commit", "edit", "no-edit",
		"cleanup", "ff", "no-ff", "ff-only", "gpg-sign", "no-gpg-sign", "log", "no-log", "signoff", "no-signoff", "stat",
		"no-stat", "squash", "no-squash", "verify", "no-verify", "strategy", "strategy-option", "verify-signatures",
		"no-verify-signatures", "summary", "no-summary", "autostash", "no-autostash", "allow-unrelated-histories",
		"rebase", "no-rebase", "all", "append", "atomic", "depth", "deepen", "shallow-since", "shallow-exclude",
		"unshallow", "update-shallow", "negotiation-tip", "negotiate-only", "dry-run", "porcelain", "force", "keep",
		"prefetch", "prune", "no-tags", "tags", "refmap", "jobs", "set-upstream", "upload-pack", "progress",
		"server-option", "show-forced-updates", "no-show-forced-updates", "ipv4", "ipv6"},
	"am": {"signoff", "keep", "keep-non-patch", "keep-cr", "no-keep-cr", "scissors", "no-scissors", "quoted-cr",
		"empty", "message-id", "no-message-id", "quiet", "utf8", "no-utf8", "3way", "no-3way", "rerere-autoupdate",
		"no-rerere-autoupdate", "ignore-space-change", "ignore-whitespace", "whitespace", "directory", "exclude",
		"include", "reject", "patch-format", "interactive", "verify", "no-verify", "committer-date-is-author-date",
		"ignore-date", "skip", "gpg-sign", "no-gpg-sign", "continue", "resolved", "resolvemsg", "abort", "quit",
		"retry", "show-current-patch", "allow-empty"},
	"reset": {"soft", "mixed", "hard", "merge", "keep", "recurse-submodules", "no-recurse-submodules", "quiet",
		"no-quiet", "refresh", "no-refresh", "patch", "intent-to-add", "pathspec-from-file", "pathspec-file-nul"},
	"branch": {"delete", "create-reflog", "force", "move", "copy", "color", "no-color", "ignore-case", "omit-empty",
		"column", "no-column", "remotes", "all", "list", "show-current", "verbose", "quiet", "abbrev", "no-abbrev",
		"track", "no-track", "set-upstream-to", "unset-upstream", "edit-description", "contains", "no-contains",
		"merged", "no-merged", "sort", "points-at", "format", "recurse-submodules"},
	"clean": {"force", "interactive", "dry-run", "quiet", "exclude"},
	"checkout": {"quiet", "progress", "no-progress", "force", "ours", "theirs", "track", "no-track", "guess", "no-guess",
		"detach", "orphan", "ignore-skip-worktree-bits", "merge", "conflict", "patch", "ignore-other-worktrees",
		"overwrite-ignore", "no-overwrite-ignore", "recurse-submodules", "no-recurse-submodules", "overlay",
		"no-overlay", "pathspec-from-file", "pathspec-file-nul"},
	"tag": {"annotate", "sign", "no-sign", "local-user", "force", "delete", "verify", "list", "sort", "color",
		"ignore-case", "omit-empty", "column", "no-column", "contains", "no-contains", "merged", "no-merged",
		"points-at", "message", "file", "trailer", "edit", "cleanup", "create-reflog", "format"},
}

// gitSubOpts describes, per git subcommand, the options that take a value
// (only those whose value is required: an optional one, such as
// --force-with-lease[=ref] or commit's -u[mode], is attached when given,
// and treating it as taking the next word would hide that word)
// so a value such as commit's message is never read as an option, and
// the long names of its short options. Short letters mean different
// things in different subcommands: -n is --no-verify for commit but
// --dry-run for push and --no-stat for merge.
var gitSubOpts = map[string]struct {
	spec  optSpec
	short map[string]string
}{
	"commit": {optSpec{withValue: "mFCct", long: []string{"message", "file", "reuse-message", "reedit-message", "template", "author", "date", "cleanup", "fixup", "squash", "trailer", "pathspec-from-file"}},
		map[string]string{"-n": "--no-verify", "-m": "--message", "-a": "--all", "-F": "--file", "-C": "--reuse-message", "-c": "--reedit-message", "-t": "--template", "-s": "--signoff", "-e": "--edit", "-p": "--patch", "-i": "--include", "-o": "--only", "-q": "--quiet", "-v": "--verbose", "-u": "--untracked-files"}},
	"push": {optSpec{withValue: "o", long: []string{"repo", "receive-pack", "exec", "push-option"}},
		map[string]string{"-n": "--dry-run", "-f": "--force", "-u": "--set-upstream", "-d": "--delete", "-q": "--quiet", "-v": "--verbose", "-o": "--push-option"}},
	"merge": {optSpec{withValue: "mFsX", long: []string{"message", "file", "strategy", "strategy-option", "cleanup", "into-name"}},
		map[string]string{"-n": "--no-stat", "-m": "--message", "-F": "--file", "-s": "--strategy", "-X": "--strategy-option", "-e": "--edit", "-q": "--quiet", "-v": "--verbose"}},
	"rebase": {optSpec{withValue: "sXxC", long: []string{"onto", "strategy", "strategy-option", "exec", "whitespace", "empty"}},
		map[string]string{"-n": "--no-stat", "-i": "--interactive", "-x": "--exec", "-s": "--strategy", "-X": "--strategy-option", "-f": "--force-rebase", "-q": "--quiet", "-v": "--verbose", "-r": "--rebase-merges"}},
	"am": {optSpec{withValue: "pC", long: []string{"directory", "exclude", "include", "whitespace", "patch-format", "resolvemsg", "quoted-cr", "empty"}},
		map[string]string{"-s": "--signoff", "-3": "--3way", "-q": "--quiet", "-i": "--interactive"}},
	"cherry-pick": {optSpec{withValue: "mXs", long: []string{"mainline", "strategy", "strategy-option", "cleanup"}},
		map[string]string{"-n": "--no-commit", "-e": "--edit", "-x": "-x", "-m": "--mainline", "-s": "--signoff"}},
	"revert": {optSpec{withValue: "mXs", long: []string{"mainline", "strategy", "strategy-option", "cleanup"}},
		map[string]string{"-n": "--no-commit", "-e": "--edit", "-m": "--mainline", "-s": "--signoff"}},
	"pull": {optSpec{withValue: "sXo", long: []string{"strategy", "strategy-option", "upload-pack", "depth"}},
		map[string]string{"-n": "--no-stat", "-f": "--force", "-r": "--rebase", "-s": "--strategy", "-X": "--strategy-option", "-q": "--quiet", "-v": "--verbose"}},
	"reset": {optSpec{long: []string{"pathspec-from-file"}}, map[string]string{"-q": "--quiet", "-p": "--patch"}},
	"branch": {optSpec{withValue: "tu", long: []string{"set-upstream-to", "points-at", "sort", "format"}},
		map[string]string{"-d": "--delete", "-D": "--delete --force", "-f": "--force", "-m": "--move", "-M": "--move --force", "-c": "--copy", "-C": "--copy --force", "-r": "--remotes", "-a": "--all", "-l": "--list", "-q": "--quiet", "-v": "--verbose", "-u": "--set-upstream-to"}},
	"clean":    {optSpec{withValue: "eE", long: []string{"exclude"}}, map[string]string{"-f": "--force", "-n": "--dry-run", "-q": "--quiet", "-i": "--interactive"}},
	"checkout": {optSpec{withValue: "bB", long: []string{"conflict", "pathspec-from-file"}}, map[string]string{"-f": "--force", "-q": "--quiet", "-p": "--patch", "-m": "--merge"}},
	"stash":    {optSpec{withValue: "m", long: []string{"message", "pathspec-from-file"}}, map[string]string{"-m": "--message", "-p": "--patch", "-u": "--include-untracked", "-a": "--all", "-q": "--quiet"}},
	"tag": {optSpec{withValue: "mFuM", long: []string{"message", "file", "local-user", "points-at", "sort", "format", "cleanup", "trailer"}},
		map[string]string{"-d": "--delete", "-f": "--force", "-m": "--message", "-a": "--annotate", "-s": "--sign", "-l": "--list"}},
}

// gitOptions records a git subcommand's options as it reads them.
func (w *walker) gitOptions(c *call, sub string, rest []field) {
	o, ok := gitSubOpts[sub]
	if !ok {
		return
	}
	spec := o.spec
	spec.abbrev = gitLong[sub]
	p := parseOpts(rest, spec)
	w.gitFullNames(c, p, rest)
	if sub == "rebase" {
		// rebase --exec CMD runs CMD through the shell after each commit.
		for _, v := range p.values("-x", "--exec") {
			w.nestedString(v, "git rebase --exec")
		}
	}
	var opts []string
	for _, name := range normOptions(p, o.short) {
		// "-D" is two long options at once.
		opts = append(opts, strings.Fields(name)...)
	}
	switch sub {
	case "commit", "push", "merge", "rebase", "am", "pull", "cherry-pick", "revert":
		if w.gitSkipsHooks() {
			// HUSKY=0 git commit, SKIP=lint git commit: the hooks
			// are skipped as with --no-verify.
			opts = append(opts, "--no-verify")
		}
	}
	if sub == "push" {
		// A refspec forced with a leading + (git push origin +main)
		// is a forced update of that ref.
		for _, f := range p.operands {
			// (A glob keeps its +: git push origin +refs/heads/*:... .)
			if f.static && strings.HasPrefix(f.s, "+") {
				opts = append(opts, "--force")
				break
			}
		}
	}
	w.setOptions(c, opts)
}

// gitTrees records what a git subcommand may rewrite without naming the
// files (see tree): the work tree for the subcommands that move it to
// another commit or apply changes to it, and the directories that
// pathspecs cover for those that restore or clean paths. A branch switch
// (git checkout main, git switch main) counts: it replaces every tracked
// file that differs between the two commits, and which ones do is only
// known by reading git's objects. Creating a branch where HEAD is (git
// checkout -b x, git switch -c x) leaves the files as they are.
func (w *walker) gitTrees(sub string, rest []field) {
	has := func(names ...string) bool {
		for _, f := range rest {
			if !f.known() {
				continue
			}
			if f.s == "--" {
				return false
			}
			if slices.Contains(names, f.s) {
				return true
			}
		}
		return false
	}
	// "git "+sub is built only where it is used: most git commands
	// (status, diff, log) rewrite nothing and should cost nothing here.
	switch sub {
	case "merge", "pull", "rebase", "cherry-pick", "revert", "am":
		// --quit leaves the work tree as it is; the others show or
		// edit the sequencer's state.
		// None of them has a force: they refuse to overwrite an
		// untracked file.
		if !has("--quit", "--show-current-patch", "--edit-todo") {
			w.gitKeptWorkTree("git " + sub)
		}
	case "bisect":
		// Every step checks out another commit.
		if op := firstOperand(rest); !slices.Contains([]string{"", "log", "view", "visualize", "terms", "help"}, op) {
			w.gitKeptWorkTree("git " + sub)
		}
	case "read-tree":
		if has("-u") {
			w.gitWorkTree("git " + sub)
		}
	case "reset":
		spec := gitSubOpts["reset"].spec
		spec.abbrev = gitLong["reset"]
		if p := parseOpts(rest, spec); p.has("--hard", "--merge", "--keep") {
			w.gitWorkTree("git " + sub)
		}
	case "stash":
		w.gitStash(rest)
	case "checkout":
		w.gitCheckout(rest)
	case "switch":
		p := parseOpts(rest, optSpec{withValue: "cC", long: []string{"create", "force-create", "orphan", "conflict"}})
		// switch BRANCH, switch --detach REV, switch -c NEW START, and
		// switch --orphan NEW, which empties the work tree; -c NEW alone
		// (its value is not an operand) stays where HEAD is. Without
		// a force, and but for --orphan, the switch keeps untracked
		// files.
		switch {
		case p.has("--orphan", "-f", "--force", "--discard-changes"):
			w.gitWorkTree("git " + sub)
		case len(p.operands) > 0:
			w.gitKeptWorkTree("git " + sub)
		}
	case "restore":
		p := parseOpts(rest, optSpec{withValue: "s", long: []string{"source", "pathspec-from-file", "conflict"}})
		if p.has("-S", "--staged") && !p.has("-W", "--worktree") {
			return // the index only
		}
		if p.has("--pathspec-from-file") {
			w.gitWorkTree("git " + sub)
		}
		w.gitPathspecs(p.operands, "git "+sub)
	case "clean":
		p := parseOpts(rest, optSpec{withValue: "eE", long: []string{"exclude"}})
		if p.has("-n", "--dry-run") {
			return
		}
		// git clean removes untracked files below each pathspec (below
		// the current directory without one), and with -x or -X the
		// ignored ones too, such as logs.
		if len(p.operands) == 0 {
			w.treeHere("git " + sub)
		}
		w.gitPathspecs(p.operands, "git "+sub)
	case "apply":
		p := parseOpts(rest, optSpec{withValue: "pC", long: []string{"directory", "exclude", "include", "whitespace", "build-fake-ancestor"}})
		if p.has("--cached") || p.has("--check", "--stat", "--numstat", "--summary") && !p.has("--apply") {
			return
		}
		// Paths in the patch are relative to the top of the work tree,
		// and git applies those below the current directory (all of
		// them, outside a repository, relative to it).
		w.treeHere("git " + sub)
		if p.has("--unsafe-paths") {
			w.incomplete("git apply --unsafe-paths writes wherever the patch's paths point")
			w.unresolvedWrite(w.writes, "the patch's own paths (git apply --unsafe-paths)")
		}
	}
}

// firstOperand returns the first argument that is not an option, "" when
// there is none or it is not static.
func firstOperand(args []field) string {
	for _, f := range args {
		if !f.known() {
			return ""
		}
		if !strings.HasPrefix(f.s, "-") {
			return f.s
		}
	}
	return ""
}

// gitWorkTree records the work tree around the current directory (the
// nearest directory above it with a .git) as a tree a git command may
// rewrite.
func (w *walker) gitWorkTree(what string) {
	if !w.dirKnown {
		w.incomplete(what + " in a directory only known at run time")
		w.unresolvedWrite(w.writes, "work tree of "+what+" in a directory only known at run time")
		return
	}
	w.tree(w.repoRoot(), what)
}

// gitKeptWorkTree is gitWorkTree for a command that keeps untracked
// files (Facts.TrackedTrees).
func (w *walker) gitKeptWorkTree(what string) {
	w.keeping = true
	defer func() { w.keeping = false }()
	w.gitWorkTree(what)
}

// gitPathspecs records the trees that pathspecs cover: a directory (the
// current one for ., and any spelled with a trailing /), the directory part before a wildcard (git's * also
// matches /, so '*.go' reaches every directory below), and the whole work
// tree for magic (:/, :(top), :!x). A pathspec naming a file is a write
// of that file, which the subcommand's own handling records.
func (w *walker) gitPathspecs(specs []field, what string) {
	for _, f := range specs {
		if !f.known() {
			w.path(f, w.writes, what)
			continue
		}
		s := f.s
		switch {
		case s == "":
		case strings.HasPrefix(s, ":"):
			w.gitWorkTree(what)
		case strings.ContainsAny(s, "*?["):
			dir := s[:strings.IndexAny(s, "*?[")]
			if i := strings.LastIndexByte(dir, '/'); i >= 0 {
				w.tree(dir[:i+1], what)
			} else {
				w.tree(".", what)
			}
		case s == "." || s == ".." || strings.HasSuffix(s, "/") || strings.HasSuffix(s, "/.") || strings.HasSuffix(s, "/.."):
			// A directory by its spelling, whether or not it exists
			// yet.
			w.tree(s, what)
		default:
			if cp, err := w.canonical(s); err == nil {
				if st, err := os.Stat(cp); err == nil && st.IsDir() {
					w.tree(cp, what)
				}
			}
		}
	}
}

// gitStash: stash (push) resets the changed files to HEAD, and -u or -a
// removes untracked or ignored ones; pop, apply and branch change the work
// tree too. A push limited by pathspecs touches only those.
func (w *walker) gitStash(rest []field) {
	op := "push"
	args := rest
	if len(rest) > 0 && rest[0].known() && !strings.HasPrefix(rest[0].s, "-") {
		op, args = rest[0].s, rest[1:]
	} else if len(rest) > 0 && !rest[0].known() {
		op = "?"
	}
	switch op {
	case "push", "save":
		p := parseOpts(args, optSpec{withValue: "m", long: []string{"message", "pathspec-from-file"}})
		if op == "push" && len(p.operands) > 0 && !p.has("--pathspec-from-file") {
			w.pathsTo(p.operands, w.writes, "git stash")
			w.gitPathspecs(p.operands, "git stash")
			return
		}
		// -u and -a remove the untracked (and ignored) files they
		// stash; without them only the changes to tracked files go.
		if p.has("-u", "--include-untracked", "-a", "--all") {
			w.gitWorkTree("git stash " + op)
			return
		}
		w.gitKeptWorkTree("git stash " + op)
	case "show":
		// stash show -p -- PATH prints the stashed content of PATH.
		w.gitRevPaths(args, w.reads, false, "")
	case "list", "drop", "clear", "create", "store":
	case "pop", "apply":
		// Brings back the stashed changes; the untracked files a
		// stash -u kept are not written over ones that exist.
		w.gitKeptWorkTree("git stash " + op)
	default:
		// pop, apply, branch, and a subcommand only known at run time.
		w.gitWorkTree("git stash " + op)
	}
}

// gitCheckout records what git checkout may rewrite as a whole. Without
// --, its first operand is a branch or commit unless it names an existing
// path (git's own rule): alone, that switches the work tree to it; with
// more operands, those are pathspecs restored from it. After --, every
// operand is a pathspec. checkout -b NEW alone creates a branch at HEAD
// and leaves the files alone; checkout -f alone throws away every change.
func (w *walker) gitCheckout(rest []field) {
	p := parseOpts(rest, optSpec{withValue: "bB", long: []string{"orphan", "conflict", "pathspec-from-file"}})
	if p.has("--pathspec-from-file") {
		w.gitWorkTree("git checkout")
		return
	}
	ops := p.operands
	before := len(ops)
	for i, f := range rest {
		if f.known() && f.s == "--" {
			before = max(len(ops)-len(rest[i+1:]), 0)
			break
		}
	}
	created := p.has("-b", "-B", "--orphan")
	switch {
	case before == 0 && len(ops) == 0:
		if p.has("-f", "--force", "--detach") {
			w.gitWorkTree("git checkout")
		}
	case before == len(ops) && !created && before > 0 && w.isPath(ops[0]):
		// git checkout FILE...: restored from the index.
		w.gitPathspecs(ops, "git checkout")
	case before == len(ops) && (before == 1 || created):
		// A branch switch (or checkout -b NEW START): without a force
		// or --orphan it keeps untracked files.
		if p.has("-f", "--force", "--orphan") {
			w.gitWorkTree("git checkout")
		} else {
			w.gitKeptWorkTree("git checkout")
		}
	default:
		// git checkout REV PATH..., git checkout [REV] -- PATH...
		w.gitPathspecs(ops[min(1, before):], "git checkout")
	}
}

// isPath reports whether an argument names an existing file or directory.
func (w *walker) isPath(f field) bool {
	if !f.known() {
		return false
	}
	cp, err := w.canonical(f.s)
	if err != nil {
		return false
	}
	_, err = os.Lstat(cp)
	return err == nil
}
