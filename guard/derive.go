package guard

import (
	"net/netip"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/vouch-dev/vouch/canonpath"
	"github.com/vouch-dev/vouch/internal/lazyre"
	"github.com/vouch-dev/vouch/shellfacts"
)

// CallFacts are what vouch derives from a call beyond its literal fields:
// the canonical paths it touches, the programs it runs and the hosts it
// reaches. Policies match these, not the raw strings, so `cat ./x/../.env`
// and `sed -n p .env` are reads of .env, and `sudo env X=1 rm -rf /` runs
// rm.
type CallFacts struct {
	Cwd, Home string
	// Root is the repository root (canonical), "" when unknown.
	Root string
	// Paths is every canonical path the call touches (reads, writes,
	// deletes), sorted.
	Paths   []string
	Reads   []string
	Writes  []string
	Deletes []string
	// DeletesBelow are directories below which a call removes some
	// entries, but not the directories themselves (find . -name '*.o'
	// -delete): shellfacts.Facts.DeletesBelow.
	DeletesBelow []string
	// WritesBelow are directories below which a call writes files it
	// does not name (find . -name '*.go' -exec sed -i ... {} +):
	// shellfacts.Facts.WritesBelow.
	WritesBelow []string
	// belowNames are the -name tests of the finds acting below each
	// DeletesBelow and WritesBelow directory (shellfacts.BelowFilter).
	belowNames map[string][][]string
	// DeletesRepository are deleted paths that take the repository with
	// them: its root, a directory above it, or its .git directory.
	DeletesRepository []string
	// WritesTrees are directories whose whole contents a call may
	// rewrite without naming the files (shellfacts.Facts.WritesTrees):
	// `cp -r /tmp/e/. .`, `tar xf a.tar`, `git reset --hard`. Those
	// outside Root that do not take it in are OutsideRoot.
	WritesTrees []string
	// TrackedTrees are the WritesTrees that only git commands which
	// keep untracked files write (shellfacts.Facts.TrackedTrees): git
	// switch main, git pull. They count for WritesRepository and
	// WritesPolicy only when git tracks or ignores one of vouch's own
	// files there (keptTreeReaches), which reachCache keeps per tree.
	TrackedTrees []string
	reachCache   map[string]bool
	// WritesRepository are the WritesTrees that take in the whole
	// repository: its root or a directory above it, so every file in
	// it, vouch's own under .vouch included, may change.
	WritesRepository []string
	// Commands are the program names of every simple command a shell
	// call runs, nested ones included, sorted and unique; CommandLines
	// each simple command as "name arg ...", wrappers stripped.
	Commands     []string
	CommandLines []string
	// Pipes are "from|to" pairs: a command whose input comes from
	// another's output ("curl|sh").
	Pipes []string
	// Options are each command's options as the program reads them, one
	// entry "name option" or "name sub option" per option ("rm
	// --recursive", "git commit --no-verify"): see shellfacts.Command.
	Options []string
	// Subcommands are "name sub" for programs with subcommands ("git
	// push"), and SubcommandLines "name sub arg ..." with the program's
	// global options left out (`git -C d reset --hard main` is "git reset
	// --hard main").
	Subcommands, SubcommandLines []string
	// Unknown are the places a shell command runs code that cannot be
	// known statically: a command name that is not static, eval or sh -c
	// of a string that is not static (shellfacts.Facts.Unknown).
	Unknown []string
	// DeletesUnresolved are removal targets only known at run time, as
	// written (shellfacts.Facts.DeletesUnresolved): `rm -rf "$DIR"`.
	DeletesUnresolved []string
	// WritesUnresolved are write targets only known at run time, as
	// written (shellfacts.Facts.WritesUnresolved): `cp x "$DEST"`.
	WritesUnresolved []string
	// URLs are network targets as written; Domains their hosts.
	URLs    []string
	Domains []string
	// Uploads are local files a shell command sends over the network
	// (shellfacts.Facts.Uploads): `curl -d @f`, `gh gist create f`,
	// `aws s3 cp f s3://b`.
	Uploads []string
	// LoopbackOnly is set when the call sends to this machine only: see
	// loopbackOnly.
	LoopbackOnly bool
	// OutsideRoot are written or deleted paths, and trees written, outside
	// Root (the system's temporary directory and /dev/null aside);
	// DeletesOutsideRoot the deleted ones among them.
	OutsideRoot        []string
	DeletesOutsideRoot []string
	// ShellError is set when a shell command does not parse.
	ShellError string
	// ShellTruncated is set when a shell command is too long to analyse
	// whole (shellfacts.Facts.Truncated): what follows the analysed
	// part may do anything.
	ShellTruncated string
	// Dynamic is set when some word of a shell command is not static.
	Dynamic bool
	// WritesPolicy are the written or removed paths, and trees written,
	// that are or take in the guard policy in use (wherever the setup
	// puts it) or the compiled-policy cache: see ownFiles.
	WritesPolicy []string

	// shellDir is where the call's shell commands start: the directory
	// argument of a shell tool (shellDirKeys), else Cwd.
	// shellDirUnknown is set when that argument is not a plain path, so
	// where they start is only known at run time.
	shellDir        string
	shellDirUnknown bool
	// shellText are the command lines the call runs, as given.
	shellText []string
	// notData is set once a command line is dynamic for a reason other
	// than an HTTP client's dynamic data (see loopbackOnly).
	notData bool
	// scriptFile is DeriveContext.ScriptFile while the call is derived.
	scriptFile func(string) (string, bool, error)
}

// shellDirKeys are the argument names in which a shell tool takes the
// directory its command runs in, which a hook event's cwd does not
// reflect: Gemini CLI's run_shell_command (directory, later dir_path),
// Codex's shell and exec_command (workdir, when the event carries it),
// and the cwd and working_directory of other harnesses and MCP servers.
var shellDirKeys = []string{"cwd", "dir_path", "directory", "working_directory", "workdir"}

// shellDirOf is the directory a shell tool's command starts in: its
// directory argument resolved against cwd, else cwd. known is false when
// that argument is not a plain path (not a string, a ~ or $ the tool may
// or may not expand, two arguments naming different directories): the
// command may then start anywhere.
func shellDirOf(args map[string]any, cwd string) (dir string, known bool) {
	for _, k := range shellDirKeys {
		v, ok := args[k]
		if !ok || v == nil {
			continue
		}
		s, ok := v.(string)
		if !ok || strings.HasPrefix(s, "~") || strings.ContainsAny(s, "$`\x00") {
			return cwd, false
		}
		if s == "" {
			continue
		}
		p, err := canonpath.Canonical(s, cwd, "")
		if err != nil || (dir != "" && p != dir) {
			return cwd, false
		}
		dir = p
	}
	if dir == "" {
		return cwd, true
	}
	return dir, true
}

// Derive computes a call's facts as this process sees its surroundings
// (its working directory and temporary directory). home expands ~; root
// is the repository root for the *_outside_root facts ("" to skip them).
func Derive(c *Call, home, root string) *CallFacts {
	return DeriveIn(c, DeriveContext{Home: home, Root: root, TempDir: os.TempDir(), ClaudeConfigDir: os.Getenv("CLAUDE_CONFIG_DIR")})
}

// DeriveContext is what Derive takes from the invocation a call is
// decided in rather than from the call: a hook server decides for clients
// in other directories and environments, and must take none of it from
// its own process.
type DeriveContext struct {
	// Home expands ~; Root is the repository root for the
	// *_outside_root facts ("" to skip them).
	Home, Root string
	// Dir is the invocation's working directory, against which a call
	// without a usable cwd is resolved when Root is unknown ("" for this
	// process's own).
	Dir string
	// TempDir is the system's temporary directory, whose contents are
	// not outside the repository ("" for none): TempDirOf the
	// invocation's environment. Unless it is "", /tmp (on macOS
	// /private/tmp, where /tmp leads) counts as temporary too: tools
	// and agents write scratch files there by name whatever $TMPDIR
	// says (macOS sets it to a per-user /var/folders/... directory).
	TempDir string
	// ClaudeConfigDir is Claude Code's configuration directory when
	// $CLAUDE_CONFIG_DIR moves it from ~/.claude ("" when it does not).
	// Claude Code writes its plans and its auto memory below both (see
	// agentNotes), which are then not outside the repository.
	ClaudeConfigDir string
	// Policy is the guard policy file in use, relative to Dir (with
	// config.InlinePolicy after a vouch.yaml holding it), "" when not
	// known: writes to it are WritesPolicy.
	Policy string
	// ScriptFile, when set, is given to shellfacts for the script files
	// the call's command lines run (shellfacts.Options.ScriptFile): the
	// hook has it read those an earlier call of the session wrote.
	ScriptFile func(path string) (text string, read bool, err error)
}

// TempDirOf is the temporary directory os.TempDir names on Unix in the
// environment lookupEnv reads: $TMPDIR, else /tmp. lookupEnv nil is an
// empty environment.
func TempDirOf(lookupEnv func(string) (string, bool)) string {
	if lookupEnv != nil {
		if v, _ := lookupEnv("TMPDIR"); v != "" {
			return v
		}
	}
	return "/tmp"
}

// ClaudeConfigDirOf is $CLAUDE_CONFIG_DIR in the environment lookupEnv
// reads ("" when unset; lookupEnv nil is an empty environment).
func ClaudeConfigDirOf(lookupEnv func(string) (string, bool)) string {
	if lookupEnv == nil {
		return ""
	}
	v, _ := lookupEnv("CLAUDE_CONFIG_DIR")
	return v
}

// DeriveIn computes a call's facts in the invocation x describes.
func DeriveIn(c *Call, x DeriveContext) *CallFacts {
	home, root := x.Home, x.Root
	f := &CallFacts{Cwd: c.Cwd, Home: home, scriptFile: x.ScriptFile}
	// The facts outlive the call's derivation; the caller's function
	// does not.
	defer func() { f.scriptFile = nil }()
	if f.Cwd == "" || !filepath.IsAbs(f.Cwd) || strings.IndexByte(f.Cwd, 0) >= 0 {
		// An event without a usable cwd: relative paths resolve against
		// the repository root (where harnesses run hooks), else the
		// hook's own directory, never "/", where a sandbox's relative
		// paths would land outside every rule.
		base := root
		if base == "" {
			base = x.Dir
		}
		if base == "" {
			base, _ = os.Getwd()
		}
		if base == "" || !filepath.IsAbs(base) {
			if abs, err := filepath.Abs(base); err == nil {
				base = abs
			}
		}
		switch {
		case base == "":
			f.Cwd = "/"
		case f.Cwd != "" && strings.IndexByte(f.Cwd, 0) < 0:
			f.Cwd = filepath.Join(base, f.Cwd)
		default:
			f.Cwd = base
		}
	}
	if home != "" && !filepath.IsAbs(home) {
		f.Home = ""
	}
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			if r, err := canonpath.Canonical(abs, "/", ""); err == nil {
				f.Root = r
			}
		}
	}
	a := &argFacts{f: f, kind: classifyTool(c.Tool), canon: func(s string) string {
		p, err := canonpath.Canonical(s, f.Cwd, f.Home)
		if err != nil {
			// A path that cannot be made canonical (a NUL byte) is kept
			// as a fact that lies within no directory.
			p = "invalid:" + strings.ReplaceAll(s, "\x00", "\\0")
		}
		return p
	}}
	a.remoteRepo = remoteRepoCall(c.Tool, a.kind, c.Args)
	a.scriptCode = scriptIsCode(c.Tool)
	a.execTool, a.shellTool = execTool(c.Tool), shellTool(c.Tool)
	dir, known := shellDirOf(c.Args, f.Cwd)
	f.shellDir, f.shellDirUnknown = dir, !known
	skip := ""
	if isApplyPatch(c.Tool) {
		// Codex's apply_patch carries its patch in command: a patch,
		// never a shell command.
		skip = a.patch(c.Args)
	}
	if k, ok := typedShellTools[c.Tool]; ok {
		// Text typed into a running shell is a command line run there.
		if s, isStr := c.Args[k].(string); isStr && s != "" {
			f.shell(s, true)
		}
		if skip == "" {
			skip = k
		}
	}
	a.object(c.Args, 0, skip)
	for _, u := range f.URLs {
		if h := hostOf(u); h != "" {
			f.Domains = append(f.Domains, h)
		}
	}
	f.Reads, f.Writes, f.Deletes, f.DeletesBelow = uniq(f.Reads), uniq(f.Writes), uniq(f.Deletes), uniq(f.DeletesBelow)
	f.WritesBelow = uniq(f.WritesBelow)
	f.Paths = uniq(append(append(append(append(append([]string{}, f.Reads...), f.Writes...), f.Deletes...), f.DeletesBelow...), f.WritesBelow...))
	f.Commands, f.CommandLines, f.Pipes = uniq(f.Commands), uniq(f.CommandLines), uniq(f.Pipes)
	f.Options, f.Unknown = uniq(f.Options), uniq(f.Unknown)
	f.DeletesUnresolved, f.WritesUnresolved = uniq(f.DeletesUnresolved), uniq(f.WritesUnresolved)
	f.WritesTrees = uniq(f.WritesTrees)
	f.TrackedTrees = uniq(f.TrackedTrees)
	f.Subcommands, f.SubcommandLines = uniq(f.Subcommands), uniq(f.SubcommandLines)
	f.URLs, f.Domains, f.Uploads = uniq(f.URLs), uniq(f.Domains), uniq(f.Uploads)
	f.LoopbackOnly = !a.kind.uploads && f.loopbackOnly()
	// What follows judges the call's writes and deletions, and finding
	// the temporary, home and policy files' canonical paths costs file
	// system calls: a call that changes nothing (most of them) skips it.
	if !f.changesFiles() {
		return f
	}
	own := ownFiles(x, f.Root)
	if f.Root != "" {
		var tmps []string
		if x.TempDir != "" {
			for _, d := range []string{x.TempDir, "/tmp"} {
				if c, err := canonpath.Canonical(d, "/", ""); err == nil {
					tmps = append(tmps, c)
				}
			}
		}
		// A home directory inside a temporary one (a test's, a CI
		// runner's HOME=/tmp/...) still holds the user's dotfiles,
		// which are no scratch.
		var homeDir string
		if f.Home != "" {
			if c, err := canonpath.Canonical(f.Home, "/", ""); err == nil && c != "/" {
				homeDir = c
			}
		}
		// inTemp reports whether p is a temporary directory or below one
		// (below only, unless self), and not in a home directory there.
		inTemp := func(p string, self bool) bool {
			for _, t := range tmps {
				if (self || p != t) && canonpath.Within(p, t) {
					return homeDir == "" || !canonpath.Within(homeDir, t) || !canonpath.Within(p, homeDir)
				}
			}
			return false
		}
		outside := func(p string) bool {
			// Inside the temporary directory is fine; the directory
			// itself is not (rm -rf /tmp is not scratch work).
			return !(canonpath.Within(p, f.Root) || p == "/dev/null" || inTemp(p, false))
		}
		notes := agentNotes(home, x.ClaudeConfigDir)
		for _, p := range f.Writes {
			if outside(p) && !notes(p) {
				f.OutsideRoot = append(f.OutsideRoot, p)
			}
		}
		for _, p := range f.Deletes {
			if outside(p) {
				f.OutsideRoot = append(f.OutsideRoot, p)
				f.DeletesOutsideRoot = append(f.DeletesOutsideRoot, p)
			}
			if canonpath.Within(f.Root, p) || gitVital(p, filepath.Join(f.Root, ".git")) {
				f.DeletesRepository = append(f.DeletesRepository, p)
			}
		}
		for _, p := range f.DeletesBelow {
			// Entries below the temporary directory are scratch, so
			// the directory itself is fine here.
			if !canonpath.Within(p, f.Root) && !inTemp(p, true) {
				f.OutsideRoot = append(f.OutsideRoot, p)
				f.DeletesOutsideRoot = append(f.DeletesOutsideRoot, p)
			}
		}
		for _, p := range f.WritesBelow {
			// As DeletesBelow: files below the temporary directory are
			// scratch.
			if !canonpath.Within(p, f.Root) && !inTemp(p, true) {
				f.OutsideRoot = append(f.OutsideRoot, p)
			}
		}
		// A find that removes or rewrites entries below a directory
		// (find . -name audit.jsonl -delete, find . -name '*.yaml' -exec
		// sed -i ... {} +) may change files it does not name there, as
		// a tree write does, unless its -name tests cannot match any of
		// vouch's own files nor a directory on the way to them.
		for _, d := range uniq(append(slices.Clone(f.DeletesBelow), f.WritesBelow...)) {
			if f.belowMayReachVouch(d) {
				f.WritesTrees = append(f.WritesTrees, d)
			}
		}
		f.WritesTrees = uniq(f.WritesTrees)
		for _, p := range f.WritesTrees {
			switch {
			case canonpath.Within(f.Root, p):
				// git is asked only here, for a tree that takes in
				// the repository: ordinary calls pay nothing.
				if f.keptTreeSafe(p, own) {
					continue
				}
				f.WritesRepository = append(f.WritesRepository, p)
			case outside(p):
				// A tree elsewhere (git -C ../other reset --hard, cd /etc
				// && patch -p1) writes outside. One that takes in the
				// root is, for git, the work tree the root is part of
				// (vouch.yaml in a monorepo's subdirectory): a copy onto
				// it names it as its destination, which is a write.
				f.OutsideRoot = append(f.OutsideRoot, p)
			}
		}
		f.OutsideRoot, f.DeletesOutsideRoot, f.DeletesRepository = uniq(f.OutsideRoot), uniq(f.DeletesOutsideRoot), uniq(f.DeletesRepository)
	}
	f.WritesPolicy = f.writesOwn(own)
	return f
}

// changesFiles reports whether the call writes or deletes anything.
func (f *CallFacts) changesFiles() bool {
	return len(f.Writes)+len(f.Deletes)+len(f.DeletesBelow)+len(f.WritesBelow)+len(f.WritesTrees) > 0
}

// loopbackPrograms are the programs a call that sends to this machine
// only (loopbackOnly) may run: HTTP clients whose destination is their
// URL operands, and filters for their output. Others are left out
// because something other than their arguments may choose where they
// connect (ssh's and so scp's and rsync's config, ProxyCommand, git's
// remotes and config).
var loopbackPrograms = map[string]bool{"curl": true, "wget": true, "http": true, "https": true, "xh": true,
	"jq": true, "grep": true, "head": true, "tail": true, "cat": true, "echo": true, "printf": true, "cd": true, "sleep": true, "true": true}

// loopbackRedirects are what, in a command line, may send an HTTP
// client's request elsewhere than its URL names: proxies (-x shows as a
// URL, the others may not), curl's --resolve and --connect-to, DNS
// settings; and an environment assignment (A=1 curl, env A=1, export
// A=1) may name a proxy (http_proxy, ALL_PROXY) or a config to read
// (HOME or CURL_HOME for a .curlrc, WGETRC).
var loopbackRedirects = lazyre.New(`(?i)proxy|socks|--resolve|--connect-to|--doh|--dns|(^|[\s;&|(])[A-Za-z_][A-Za-z0-9_]*=`)

// loopbackOnly reports whether every network destination of the call's
// shell commands is statically known and on this machine (localhost,
// 127.0.0.0/8, ::1): posting a fixture to a local development server is
// no exfiltration. The commands must be fully known (no parse error, no
// truncation, nothing dynamic or unknown), run only loopbackPrograms,
// and carry nothing that may redirect them (loopbackRedirects). A secret
// sent there is still a read, which sensitive-reads judges.
func (f *CallFacts) loopbackOnly() bool {
	if len(f.URLs) == 0 || len(f.shellText) == 0 || (f.Dynamic && f.notData) || len(f.Unknown) > 0 || f.ShellError != "" || f.ShellTruncated != "" {
		return false
	}
	for _, c := range f.Commands {
		if !loopbackPrograms[c] {
			return false
		}
	}
	for _, t := range f.shellText {
		if loopbackRedirects().MatchString(t) {
			return false
		}
	}
	for _, u := range f.URLs {
		if !isLoopback(hostOf(u)) {
			return false
		}
	}
	return true
}

// dataReasons reports whether a command line's reasons for being
// incomplete are all dynamic arguments of the loopback HTTP clients that
// are no network target (curl -d "$(cat fixture.json)" localhost:8080,
// -H "X-T: $T"), and the variables they use: such values are data sent,
// not where it goes. shellfacts says "dynamic network target" for a
// word that may name a host or proxy (an operand, -x, --url), and any
// other reason (a cd to an unknown place, a bound reached) is not data.
// A list at shellfacts' bound on reasons may have dropped one.
func dataReasons(reasons []string) bool {
	if len(reasons) >= 32 {
		return false
	}
	for _, r := range reasons {
		if name, ok := strings.CutPrefix(r, "dynamic argument of "); ok && loopbackPrograms[name] && (name == "curl" || name == "wget" || name == "http" || name == "https" || name == "xh") {
			continue
		}
		if strings.HasPrefix(r, "variable $") {
			continue
		}
		return false
	}
	return true
}

// isLoopback reports whether a host name (as hostOf gives it) is this
// machine: localhost or a loopback address. Other spellings (127.1, a
// name under .localhost) are not taken for it.
func isLoopback(h string) bool {
	if h == "localhost" {
		return true
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	// net/netip, not net: vouch links no package that needs cgo.
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

// agentNotes returns whether a canonical path is a file Claude Code
// writes in ordinary work outside the repository, below its
// configuration directory (~/.claude, and claudeDir when set): a plan
// (plans/<name>.md, written in plan mode) or auto memory
// (projects/<project>/memory/MEMORY.md and its neighbours). Nothing
// else there is: settings.json holds the hooks that run vouch, and
// hooks, commands and agents run code. Writes only; deleting or
// rewriting a whole tree there is not note-taking.
func agentNotes(home, claudeDir string) func(string) bool {
	var dirs []string
	for _, d := range []string{filepath.Join(home, ".claude"), claudeDir} {
		if d == "" || d == ".claude" || !filepath.IsAbs(d) {
			continue
		}
		if c, err := canonpath.Canonical(d, "/", ""); err == nil {
			dirs = append(dirs, c)
		}
	}
	return func(p string) bool {
		for _, d := range dirs {
			rel, err := filepath.Rel(d, p)
			if err != nil || !canonpath.Within(p, d) {
				continue
			}
			parts := strings.Split(rel, string(filepath.Separator))
			switch {
			case len(parts) >= 2 && parts[0] == "plans":
				return true
			case len(parts) >= 4 && parts[0] == "projects" && parts[2] == "memory":
				return true
			}
		}
		return false
	}
}

// shell adds the facts of a command line, parsed with mvdan.cc/sh; typed
// is text typed into a shell already running, whose directory is not
// known (shellfacts.Options.CwdUnknown).
func (f *CallFacts) shell(cmd string, typed bool) {
	dir := f.shellDir
	if dir == "" {
		dir = f.Cwd
	}
	f.shellText = append(f.shellText, cmd)
	sf, err := shellfacts.Parse(cmd, shellfacts.Options{Cwd: dir, Home: f.Home, CwdUnknown: f.shellDirUnknown || typed, ScriptFile: f.scriptFile})
	if err != nil {
		f.ShellError = err.Error()
		f.Dynamic = true
		return
	}
	// A call may carry more than one command (command and script): the
	// first parse error and any incompleteness stand.
	if f.ShellError == "" {
		f.ShellError = sf.ParseError
	}
	if f.ShellTruncated == "" {
		f.ShellTruncated = sf.Truncated
	}
	f.Dynamic = f.Dynamic || sf.Incomplete
	f.notData = f.notData || !dataReasons(sf.Unresolved)
	f.Reads = append(f.Reads, sf.Reads...)
	f.Writes = append(f.Writes, sf.Writes...)
	f.Deletes = append(f.Deletes, sf.Deletes...)
	f.DeletesBelow = append(f.DeletesBelow, sf.DeletesBelow...)
	f.WritesBelow = append(f.WritesBelow, sf.WritesBelow...)
	filtered := map[string]bool{}
	for _, b := range sf.BelowFilters {
		filtered[b.Dir] = true
		if _, any := f.belowNames[b.Dir]; any && f.belowNames[b.Dir] == nil {
			continue // an earlier command line acts on any entry there
		}
		if f.belowNames == nil {
			f.belowNames = map[string][][]string{}
		}
		f.belowNames[b.Dir] = append(f.belowNames[b.Dir], b.Names...)
	}
	for _, d := range append(slices.Clone(sf.DeletesBelow), sf.WritesBelow...) {
		if !filtered[d] {
			if f.belowNames == nil {
				f.belowNames = map[string][][]string{}
			}
			f.belowNames[d] = nil // any entry
		}
	}
	f.WritesTrees = append(f.WritesTrees, sf.WritesTrees...)
	f.TrackedTrees = append(f.TrackedTrees, sf.TrackedTrees...)
	f.URLs = append(f.URLs, sf.URLs...)
	f.Uploads = append(f.Uploads, sf.Uploads...)
	f.Unknown = append(f.Unknown, sf.Unknown...)
	f.DeletesUnresolved = append(f.DeletesUnresolved, sf.DeletesUnresolved...)
	f.WritesUnresolved = append(f.WritesUnresolved, sf.WritesUnresolved...)
	for _, c := range sf.Commands {
		name := c.Name
		if name == "" {
			name = "?"
		}
		f.Commands = append(f.Commands, name)
		prefix := name + " "
		if c.Sub != "" {
			prefix += c.Sub + " "
			f.Subcommands = append(f.Subcommands, name+" "+c.Sub)
			f.SubcommandLines = append(f.SubcommandLines, strings.TrimSpace(prefix+strings.Join(c.SubArgs, " ")))
		}
		for _, o := range c.Options {
			f.Options = append(f.Options, prefix+o)
		}
		if deleters[name] && fromInput(c.Wrappers) && !c.ListedInput {
			// xargs/parallel hand the command paths vouch cannot see. A
			// recursive removal of them may be anything, / included: a
			// target that lies within no directory, so outside the root
			// (refused). Any other is an unresolved target, which
			// destructive-rm-from-input asks about: find ... | xargs rm
			// is everyday work. Paths a find -print0 or grep -lZ lists
			// for xargs -0 are recorded where they lie instead.
			if slices.Contains(c.Options, "--recursive") {
				f.Deletes = append(f.Deletes, "unresolved:arguments of "+name+" from input")
			} else {
				f.DeletesUnresolved = append(f.DeletesUnresolved, "{arguments of "+name+" from input}")
			}
		}
		f.CommandLines = append(f.CommandLines, strings.TrimSpace(name+" "+strings.Join(c.Args, " ")))
		from := append(append([]string{}, c.Upstream...), c.PipeFrom)
		for _, up := range from {
			if up != "" {
				f.Pipes = append(f.Pipes, up+"|"+name)
			}
		}
	}
}

// deleters are programs that remove their operands.
var deleters = map[string]bool{"rm": true, "rmdir": true, "unlink": true, "shred": true}

// fromInput reports whether a wrapper feeds the command arguments read
// from input.
func fromInput(wrappers []string) bool {
	for _, w := range wrappers {
		if w == "xargs" || w == "parallel" {
			return true
		}
	}
	return false
}

// hostOf is a network target's host: a URL's, or user@host / host:path.
func hostOf(s string) string {
	s = strings.TrimSpace(s)
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		return strings.ToLower(u.Hostname())
	}
	if i := strings.IndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '/'); i >= 0 {
		s = s[:i]
	}
	if s == "" || strings.ContainsAny(s, " \t") {
		return ""
	}
	return strings.ToLower(s)
}

func uniq(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	sort.Strings(s)
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// derivedSelector reads a derived.* selector. Lists are []any so the
// operators treat them alike.
func (f *CallFacts) derivedSelector(name string) any {
	if f == nil {
		return missing
	}
	list := func(s []string) any {
		if len(s) == 0 {
			return missing
		}
		out := make([]any, len(s))
		for i, x := range s {
			out[i] = x
		}
		return out
	}
	switch name {
	case "paths":
		return list(f.Paths)
	case "reads":
		return list(f.Reads)
	case "writes":
		return list(f.Writes)
	case "deletes":
		return list(f.Deletes)
	case "commands":
		return list(f.Commands)
	case "command_lines":
		return list(f.CommandLines)
	case "pipes":
		return list(f.Pipes)
	case "urls":
		return list(f.URLs)
	case "uploads":
		return list(f.Uploads)
	case "domains":
		return list(f.Domains)
	case "outside_root":
		return list(f.OutsideRoot)
	case "deletes_outside_root":
		return list(f.DeletesOutsideRoot)
	case "deletes_below":
		return list(f.DeletesBelow)
	case "writes_below":
		return list(f.WritesBelow)
	case "deletes_repository":
		return list(f.DeletesRepository)
	case "options":
		return list(f.Options)
	case "subcommands":
		return list(f.Subcommands)
	case "subcommand_lines":
		return list(f.SubcommandLines)
	case "unknown_commands":
		return list(f.Unknown)
	case "deletes_unresolved":
		return list(f.DeletesUnresolved)
	case "writes_unresolved":
		return list(f.WritesUnresolved)
	case "writes_trees":
		return list(f.WritesTrees)
	case "writes_repository":
		return list(f.WritesRepository)
	case "writes_policy":
		return list(f.WritesPolicy)
	case "shell_error":
		if f.ShellError == "" {
			return missing
		}
		return f.ShellError
	case "shell_truncated":
		if f.ShellTruncated == "" {
			return missing
		}
		return f.ShellTruncated
	case "dynamic":
		return f.Dynamic
	case "loopback_only":
		return f.LoopbackOnly
	}
	return missing
}

// derivedNames are the derived.* selectors.
var derivedNames = []string{"command_lines", "commands", "deletes", "deletes_below", "deletes_outside_root", "deletes_repository", "deletes_unresolved", "domains", "dynamic", "loopback_only", "options", "outside_root", "paths", "pipes", "reads", "shell_error", "shell_truncated", "subcommand_lines", "subcommands", "unknown_commands", "uploads", "urls", "writes", "writes_below", "writes_policy", "writes_repository", "writes_trees", "writes_unresolved"}

// canonicalDir makes a sandbox directory canonical against the call's
// working directory.
func canonicalDir(d string, f *CallFacts) string {
	cwd, home := "/", ""
	if f != nil {
		cwd, home = f.Cwd, f.Home
	}
	p, err := canonpath.Canonical(d, cwd, home)
	if err != nil {
		return d
	}
	return p
}

func within(path, dir string) bool { return canonpath.Within(path, dir) }

// gitVital reports whether removing p loses the repository whose .git
// directory is dotgit: the directory itself, its object store or anything
// in it, its refs or their branches and tags, HEAD and packed-refs (rm -rf
// .git/*, rm -rf .git/objects). Scratch such as .git/rebase-merge or
// .git/index.lock is not.
func gitVital(p, dotgit string) bool {
	switch p {
	case dotgit, filepath.Join(dotgit, "refs"), filepath.Join(dotgit, "refs", "heads"), filepath.Join(dotgit, "refs", "tags"),
		filepath.Join(dotgit, "HEAD"), filepath.Join(dotgit, "packed-refs"):
		return true
	}
	return canonpath.Within(p, filepath.Join(dotgit, "objects"))
}

// vouchNames returns the names on the way to vouch's own files below
// the repository root (protectedFiles), and samples of the names vouch
// gives the files it keeps in .vouch/guard and .vouch/cache: a find
// whose -name tests match none of them cannot reach those files.
func vouchNames() []string {
	var names []string
	for _, f := range protectedFiles {
		names = append(names, strings.Split(f.path, "/")...)
	}
	slices.Sort(names)
	return append(slices.Compact(names),
		// .vouch/guard: the audit log, the session store and its files.
		"audit.jsonl", "sessions", "0123456789abcdef.json", "0123456789abcdef.writes", "session-x.json", "x.lock", "x.tmp",
		// .vouch/cache: compiled policies and the imports cache.
		"guard-0123456789abcdef.json", "imports.bin", "imports.bin.tmp123")
}

// belowMayReachVouch reports whether a find acting below d (DeletesBelow,
// WritesBelow) may reach one of vouch's own files: d holds the root or
// lies inside it, and some find's -name tests could all match one of
// vouchNames, or a directory between d and the root. Patterns are matched
// ignoring case (so -iname is covered, and a case-insensitive file
// system); one that does not parse may match anything.
func (f *CallFacts) belowMayReachVouch(d string) bool {
	if !canonpath.Within(d, f.Root) && !canonpath.Within(f.Root, d) {
		return false
	}
	alts, ok := f.belowNames[d]
	if !ok || alts == nil {
		return true
	}
	names := vouchNames()
	if rel, err := filepath.Rel(d, f.Root); err == nil && rel != "." && canonpath.Within(f.Root, d) {
		names = append(names, strings.Split(filepath.ToSlash(rel), "/")...)
	}
	return anyAltMatches(alts, names)
}

// fnmatchFold matches a find -name pattern against a name ignoring case
// (lowering a bracket's ranges only widens them); a pattern path.Match
// cannot read matches.
func fnmatchFold(pat, name string) bool {
	pat = strings.ToLower(shellfacts.GoPattern(pat))
	ok, err := path.Match(pat, strings.ToLower(name))
	return ok || err != nil
}

// anyAltMatches reports whether every -name test of one of a find's
// alternatives matches one of names, ignoring case: a find whose tests
// are alts may then act on an entry of that name.
func anyAltMatches(alts [][]string, names []string) bool {
	for _, alt := range alts {
		for _, n := range names {
			if !slices.ContainsFunc(alt, func(pat string) bool { return !fnmatchFold(pat, n) }) {
				return true
			}
		}
	}
	return false
}
