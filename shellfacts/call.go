package shellfacts

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/vouch-dev/vouch/canonpath"
)

// call is one simple command being analysed after its wrappers are gone.
type call struct {
	name   string
	args   []field // after the program name
	redirs []*syntax.Redirect
	idx    int // index in Facts.Commands
	// envConfig is how many leading args are the -c options git
	// configuration in the environment amounts to (gitEnvConfig): envCode
	// analysed their values already.
	envConfig int
	// pipeText is what the command reads on stdin from a pipe, when
	// known (pipeKnown): see stageOutput.
	pipeText  string
	pipeKnown bool
	// pipeFile is the file a `cat FILE` producer feeds the command (see
	// stageFile).
	pipeFile *field
}

// call handles a simple command: assignments, words, wrappers, and then
// what the program is known to do with its arguments.
func (w *walker) call(ce *syntax.CallExpr, redirs []*syntax.Redirect, c ctx) {
	var env []string
	var statics []bool
	envDynamic := false
	var as []assignment
	for _, a := range ce.Assigns {
		s, static := w.assignValue(a)
		env = append(env, s)
		statics = append(statics, static)
		envDynamic = envDynamic || !static
		if a.Name != nil && a.Index == nil && a.Array == nil {
			_, value, _ := strings.Cut(s, "=")
			raw := w.rawOf(a)
			as = append(as, assignment{name: a.Name.Value, value: value, static: static, raw: raw})
		}
	}
	// An assignment on its own changes the variable for every later
	// program when it is exported (GIT_EDITOR often is), so both forms
	// count.
	w.envCode(as)
	if len(ce.Args) == 0 {
		// Only assignments: the shell sets variables, nothing runs.
		for i, a := range ce.Assigns {
			if a.Name == nil {
				continue
			}
			_, value, _ := strings.Cut(env[i], "=")
			static := statics[i] && !a.Append && a.Index == nil && a.Array == nil && !a.Naked
			if a.Append {
				if old, ok := w.vars[a.Name.Value]; ok && statics[i] && a.Index == nil && a.Array == nil {
					value, static = old+value, true
				}
			}
			w.setVar(a.Name.Value, value, static)
			if w.allexport && static {
				w.export(a.Name.Value, value)
			}
		}
		return
	}
	var fs []field
	for _, word := range ce.Args {
		fs = append(fs, w.fields(word)...)
	}
	w.simple(fs, env, envDynamic, redirs, c)
}

// simple strips wrappers from fs and records the command that remains.
func (w *walker) simple(fs []field, env []string, envDynamic bool, redirs []*syntax.Redirect, c ctx) {
	if len(fs) == 0 {
		return
	}
	wrappers := slices.Clone(c.wrappers)
	stdinArgs, inputRepl, nulInput, plainIn := false, "", false, false
	shellNoCmd := false
	var after func()
	// A wrapper that changes directory (env -C, sudo -D) does so for the
	// wrapped command only.
	var restore *dirState
	defer func() {
		if restore != nil {
			w.restoreDir(*restore)
		}
	}()
	for len(fs) > 0 {
		if p, ok := unknownDirProgram(fs[0]); ok {
			// "$(go env GOPATH)/bin/golangci-lint": the program named
			// so, in a directory only known at run time, as
			// /opt/x/bin/tool is that tool (also under a wrapper).
			w.incomplete("program " + baseName(p) + " in a directory only known at run time")
			fs = slices.Concat([]field{{s: p, static: true, raw: fs[0].raw}}, fs[1:])
		} else if !fs[0].known() && strings.Contains(fs[0].raw, "$(") {
			if name, ok := whichName(fs[0].raw); ok && !stateBuiltin(name) {
				// "$(which python3)" x.py: the program which finds on
				// PATH, which the name alone runs.
				fs = slices.Concat([]field{{s: name, static: true, raw: fs[0].raw}}, fs[1:])
			}
		}
		if !fs[0].known() {
			break
		}
		name := baseName(fs[0].s)
		strip := wrapperFor(name)
		if strip == nil {
			break
		}
		if len(wrappers) >= maxWrappers {
			// Stripping one costs a pass over the words left: past
			// this many, what finally runs is not looked for.
			w.incomplete(fmt.Sprintf("more than %d wrappers", maxWrappers))
			w.unknownCode(fmt.Sprintf("a command under more than %d wrappers", maxWrappers))
			break
		}
		res := strip(w, fs[1:])
		if res.after != nil {
			after = res.after
		}
		if !res.ok || len(res.rest) == 0 {
			// Not used as a wrapper (`command -v rm`, `sudo -l`, plain
			// `env`): the program itself is the command. One that
			// starts a shell then (`sudo -s`) runs what stdin holds.
			shellNoCmd = res.ok && res.shell
			break
		}
		wrappers = append(wrappers, name)
		env = append(env, res.env...)
		w.envCode(assignmentsOf(res.env))
		envDynamic = envDynamic || res.envDynamic
		if res.stdinArgs {
			stdinArgs, inputRepl, nulInput, plainIn = true, res.inputRepl, res.nulInput, res.plainInput
		}
		if res.chdir != nil {
			if restore == nil {
				d := w.saveDir()
				restore = &d
			}
			w.cd(*res.chdir)
		}
		fs = res.rest
	}
	if len(wrappers) > 32 {
		wrappers = wrappers[:32]
	}
	envConfig := 0
	if fs[0].known() && baseName(fs[0].s) == "git" {
		if cfg := w.gitEnvConfig(); len(cfg) > 0 {
			fs = append(append([]field{fs[0]}, cfg...), fs[1:]...)
			envConfig = len(cfg)
		}
	}
	cmd := Command{
		Path:     fs[0].arg(),
		Name:     baseName(fs[0].arg()),
		Wrappers: wrappers,
		Env:      env,
		Depth:    w.depth,
		PipeFrom: c.pipeFrom,
		Upstream: slices.Clone(c.upstream),
		Dynamic:  envDynamic,
	}
	if !fs[0].known() {
		cmd.Dynamic = true
		w.incomplete("command name is not static")
		w.unknownCode(fs[0].raw)
	}
	if envDynamic {
		w.incomplete("assignment that is not static in front of " + nameOr(cmd.Name))
	}
	for _, f := range fs[1:] {
		cmd.Args = append(cmd.Args, w.argOf(f))
		cmd.Raw = append(cmd.Raw, f.raw)
		if !f.known() {
			cmd.Dynamic = true
			if f.glob {
				w.incomplete("glob in argument of " + nameOr(cmd.Name))
			} else {
				w.incomplete("dynamic argument of " + nameOr(cmd.Name))
			}
		}
	}
	var argSets [][]field
	if stdinArgs && plainIn && !isShellName(cmd.Name) {
		argSets = w.xargsInput(fs[1:], inputRepl, redirs, c)
	}
	if len(argSets) > 0 {
		cmd.Args, cmd.Raw = nil, nil
		for _, f := range argSets[0] {
			cmd.Args = append(cmd.Args, w.argOf(f))
			cmd.Raw = append(cmd.Raw, f.raw)
		}
	} else if stdinArgs {
		cmd.Dynamic = true
		w.incomplete("arguments of " + nameOr(cmd.Name) + " come from input (xargs, find -exec)")
	}
	if !w.add(cmd) {
		return
	}
	cl := &call{name: cmd.Name, args: fs[1:], redirs: redirs, idx: len(w.facts.Commands) - 1, envConfig: envConfig, pipeText: c.pipeText, pipeKnown: c.pipeKnown, pipeFile: c.pipeFile}
	if len(argSets) > 0 {
		cl.args = argSets[0]
	} else if stdinArgs && !isShellName(cmd.Name) {
		// (A shell's code string with the input in it is unknown code:
		// see wrapXargs.)
		cl.args = inputArgs(cl.args, inputRepl)
		if l := c.listing; l != nil && nulInput && inputRepl == "" {
			// The input is paths below the listing's starting
			// points, one per argument: as find -exec's {} is.
			cl.args[len(cl.args)-1].raw = listedInput
			w.facts.Commands[cl.idx].ListedInput = true
			saveRoots, saveSet, saveNames := w.findRoots, w.findSet, w.findNames
			w.findRoots, w.findSet, w.findNames = l.roots, l.set, l.names
			defer func() { w.findRoots, w.findSet, w.findNames = saveRoots, saveSet, saveNames }()
		}
	}
	if after != nil {
		after()
	}
	if shellNoCmd {
		w.shellStdin(cl)
	}
	if w.bombs[cmd.Name] {
		w.unknownCode(forkBombPrefix + cmd.Name)
	}
	if w.funcs[cmd.Name] && len(wrappers) == 0 {
		// A call of a function defined earlier: its body was walked at
		// the definition, but what it leaves behind (a cd, variables)
		// is not known here.
		for n := range w.vars {
			w.forget(n)
		}
		w.vars = map[string]string{}
		w.dirKnown = false
		return
	}
	switch cmd.Name {
	case "export", "declare", "typeset", "readonly", "local":
		// Reached only through a wrapper (builtin export X=...): the
		// parser reads a plain export as a declaration (see decl).
		das := declaredAssignments(cl.args)
		w.envCode(das)
		if cmd.Name == "export" {
			for _, a := range das {
				if a.static {
					w.export(a.name, a.value)
				}
			}
		}
	}
	// What the command runs inherits the environment it is given.
	savedEnv := w.callEnv
	w.callEnv = append(slices.Clip(savedEnv), env...)
	defer func() { w.callEnv = savedEnv }()
	w.runWritten(cl, fs[0], runExec)
	for i := 0; i == 0 || i < len(argSets); i++ {
		if i > 0 {
			cl.args = argSets[i] // xargs -I: one run per input line
		}
		if h := handlerFor(cmd.Name); h != nil {
			h(w, cl)
		} else if cmd.Name != "" && !argsReadWhenStripped(cmd.Name) {
			// A wrapper's own options are read where it is stripped.
			w.unmodelledArgs(cmd.Name, cl.args)
		}
		w.anyURLs(cmd.Name, cl.args)
		w.sentInputs(cmd.Name, cl.args)
	}
}

// unknownDirProgram returns the path a command name only known at run
// time stands for when it is one word ending in a static /NAME, with
// the part only known at run time as unknownDir: "$D/bin/tool" is
// /{unknown directory}/bin/tool. A name not ending so ("$(x)",
// "$(x)/", "$X/..", $X/tool unquoted, which may split) is not one.
func unknownDirProgram(f field) (string, bool) {
	if f.static || !f.whole || strings.IndexByte(f.tail, 0) >= 0 {
		return "", false
	}
	i := strings.IndexByte(f.tail, '/')
	if i < 0 {
		return "", false
	}
	rel := f.tail[i:]
	if filepath.Clean(rel) != rel {
		return "", false
	}
	if base := filepath.Base(rel); base == "/" || base == "." || base == ".." || stateBuiltin(base) {
		return "", false
	}
	return unknownDir + rel, true
}

// stateBuiltin reports whether name is a builtin whose effect on this
// shell Parse follows (. is one too): a file of that name run by its
// path is another program, which changes nothing here, so a path only
// known at run time that ends in one is not read as the builtin.
func stateBuiltin(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "alias", "unalias", "enable", "shopt", "hash", "set", "unset", "export", "declare",
		"typeset", "local", "readonly", "source", "eval", "exec", "builtin", "command", "read", "mapfile",
		"readarray", "let", "trap", "umask", "ulimit":
		return true
	}
	return false
}

// inputArgs are the arguments a program run by xargs or parallel gets:
// the input replaces repl where it appears, or else comes after them. Each
// such argument is a word only known at run time, so the program's
// handler sees a write, removal or read whose target is unresolved (xargs
// sed -i, xargs truncate), while an operand that is static stays a plain
// path (xargs cp -t /etc writes into /etc).
func inputArgs(args []field, repl string) []field {
	out := slices.Clone(args)
	if repl == "" {
		return append(out, field{raw: "{arguments from input}"})
	}
	for i, f := range out {
		if !f.known() || (repl == parallelInput && parallelRepl().MatchString(f.s)) || (repl != parallelInput && strings.Contains(f.s, repl)) {
			out[i] = field{raw: f.raw}
		}
	}
	return out
}

func nameOr(name string) string {
	if name == "" {
		return "a command"
	}
	return name
}

// cd follows a change of directory so later relative paths resolve
// against it.
func (w *walker) cd(f field) {
	if !f.known() {
		w.dirKnown = false
		w.incomplete("cd to a directory that is not static")
		return
	}
	target := f.s
	if target == "" {
		return
	}
	if strings.HasPrefix(target, "~") {
		target = "./" + target
	}
	d, err := w.resolve(target, false)
	if err != nil {
		w.dirKnown = false
		w.incomplete(fmt.Sprintf("cd: %v", err))
		return
	}
	w.dir = d
}

// resolve makes p canonical against the current directory, following the
// links the command line made earlier (see symlinked); entry leaves the
// last component unfollowed (canonpath.EntryFrom).
func (w *walker) resolve(p string, entry bool) (string, error) {
	if entry {
		return canonpath.EntryFromLinks(p, w.cwd(), w.links)
	}
	return canonpath.CanonicalFromLinks(p, w.cwd(), w.links)
}

// path records the file f names in set.
func (w *walker) path(f field, set map[string]bool, what string) {
	switch {
	case !f.static:
		w.incomplete("dynamic path in " + what)
		if p := procEnviron(f.raw); p != "" {
			// /proc/$PPID/environ, /proc/$$/environ: some process's
			// environment, whichever process it is.
			set[p] = true
		}
		if f.alt != "" {
			// ${XDG_CONFIG_HOME:-~/.config}/x: x below the default is
			// one place it may be.
			w.addPath(f.alt, set, what)
		}
		if mapsSame(set, w.reads) {
			w.readTail(f)
		}
		if w.findRoots != nil && findMatchWord(f.raw) {
			// find -exec's {} is what find finds below its starting
			// points: written or removed below them.
			w.fromFindMatch(set, what)
		} else {
			w.unresolvedRemoval(f.raw)
			w.unresolvedWrite(set, f.raw)
		}
	case f.glob:
		w.glob(f, set, what)
	case f.s == "" || f.s == "-":
		// "-" is stdin or stdout for the programs handled here.
	default:
		w.addPath(f.s, set, what)
	}
}

// unknownDir stands for the directories of a path only known at run time
// (see readTail). It is absolute, so the path stays canonical, and names
// no directory anyone has.
const unknownDir = "/{unknown directory}"

// readTail records the read of a word only known at run time that ends in
// static components ("$D/.env", $(pwd)/.ssh/id_rsa): wherever the unknown
// part points, the file read has those last components, which is what
// the rules about secrets look at (a file named .env, one below .ssh). It
// is recorded as those components below unknownDir. A tail without a
// slash (${X}.env) is no whole name: the unknown part may end the name.
// A word with a static default (${D:-/tmp}/.env) already has its path
// under the default recorded, which ends in the same components.
func (w *walker) readTail(f field) {
	i := strings.IndexByte(f.tail, '/')
	if f.alt != "" || i < 0 || strings.IndexByte(f.tail, 0) >= 0 {
		return
	}
	p := filepath.Clean(unknownDir + f.tail[i:])
	if base := filepath.Base(p); base == "/" || base == "." || base == ".." || p == unknownDir {
		return
	}
	w.reads[p] = true
}

// procEnviron returns raw, its quotes removed, when it names a process's
// environment file through a process id only known at run time
// (/proc/$PPID/environ, "/proc/$$/task/$TID/environ"), else "".
func procEnviron(raw string) string {
	s := strings.NewReplacer(`"`, "", "'", "").Replace(raw)
	rest, ok := strings.CutPrefix(s, "/proc/")
	if !ok {
		return ""
	}
	parts := strings.Split(strings.TrimRight(rest, "/"), "/")
	switch {
	case len(parts) == 2 && parts[1] == "environ",
		len(parts) == 4 && parts[1] == "task" && parts[3] == "environ":
		return s
	}
	return ""
}

// addPath records the file p names in set and returns its canonical
// form, "" when it could not be recorded.
func (w *walker) addPath(p string, set map[string]bool, what string) string {
	if strings.HasPrefix(p, "~") {
		// A tilde that survived word expansion was quoted: it is a
		// literal name, not a home directory.
		p = "./" + p
	}
	if !filepath.IsAbs(p) && !w.dirKnown {
		w.incomplete("relative path in " + what + " after cd to an unknown directory")
		w.unresolvedRemoval(p)
		w.unresolvedWrite(set, p)
	}
	if _, ok := fdPath(p); ok {
		// /dev/stdout, /dev/fd/3: one of the command's own descriptors,
		// which its redirections (recorded where they open a file) or
		// the harness set up. Resolving the link here would follow the
		// hook's own descriptor instead (a pipe, a terminal, /dev/null),
		// a different file in every hook process.
		return ""
	}
	if w.paths++; w.paths > maxPaths {
		// The path is not recorded: what it names is not known.
		w.incomplete(fmt.Sprintf("more than %d paths", maxPaths))
		w.unknownCode(fmt.Sprintf("more than %d paths: the rest are not analysed", maxPaths))
		return ""
	}
	c, err := w.resolve(p, w.entry)
	if err != nil {
		w.incomplete(fmt.Sprintf("path in %s: %v", what, err))
		if errors.Is(err, canonpath.ErrUnknownLink) {
			// Through a link made earlier with a target only known
			// at run time: the path may be anything.
			w.unresolvedRemoval(p)
			w.unresolvedWrite(set, p)
		}
		return ""
	}
	set[c] = true
	w.noteWrite(set, c, what)
	return c
}

// tree records a directory whose whole contents a command may replace or
// remove without naming the files inside (Facts.WritesTrees): a policy
// protecting a file can then tell that the command may change it when the
// file lies below the directory. A relative directory after a cd to a
// place only known at run time is a write whose target is unresolved.
func (w *walker) tree(p, what string) {
	if !filepath.IsAbs(p) && !w.dirKnown {
		w.incomplete(what + " in a directory only known at run time")
		w.unresolvedWrite(w.writes, what+" in a directory only known at run time")
		return
	}
	if w.trees == nil {
		w.trees = map[string]bool{}
	}
	w.addPath(p, w.trees, what)
	if w.keeping {
		if w.keptTrees == nil {
			w.keptTrees = map[string]bool{}
		}
		w.addPath(p, w.keptTrees, what)
	} else {
		if w.forcedTrees == nil {
			w.forcedTrees = map[string]bool{}
		}
		w.addPath(p, w.forcedTrees, what)
	}
}

// treeHere is tree for the current directory.
func (w *walker) treeHere(what string) { w.tree(".", what) }

// entriesTo records paths that a program acts on as directory entries
// (rm and unlink remove a symbolic link, not its target; rename moves
// it), so only the directories above each last component are resolved.
func (w *walker) entriesTo(fs []field, set map[string]bool, what string) {
	w.entry = true
	defer func() { w.entry = false }()
	w.pathsTo(fs, set, what)
}

// glob expands a pattern whose directory part is static against the file
// system, as the shell would when the command runs.
func (w *walker) glob(f field, set map[string]bool, what string) {
	w.incomplete("glob in " + what)
	if w.globs++; w.globs > maxGlobs {
		w.incomplete(fmt.Sprintf("more than %d globs", maxGlobs))
		w.unknownCode(fmt.Sprintf("more than %d globs: the rest are not expanded", maxGlobs))
		return
	}
	pat := GoPattern(f.pat)
	dirPat, basePat := "", pat
	if i := strings.LastIndexByte(pat, '/'); i >= 0 {
		dirPat, basePat = pat[:i+1], pat[i+1:]
	}
	if hasMeta(dirPat) {
		w.unresolvedRemoval(f.raw)
		// What the pattern matches now is still read or written when
		// the command runs (cat ~/.ss?/id_rsa reads the key). A
		// removal stays unresolved only: it may remove more.
		if !w.removing {
			w.globDirs(pat, set, what)
		}
		return
	}
	dir := unescapePattern(dirPat)
	if dir == "" {
		dir = "."
	}
	if strings.HasPrefix(dir, "~") {
		dir = "./" + dir
	}
	cdir, err := w.resolve(dir, false)
	if err != nil {
		if errors.Is(err, canonpath.ErrUnknownLink) {
			w.unresolvedRemoval(f.raw)
			w.unresolvedWrite(set, f.raw)
		}
		return
	}
	matches := 0
	if d, err := os.Open(cdir); err == nil {
		entries, _ := d.ReadDir(maxDirEntries + 1)
		d.Close()
		if len(entries) > maxDirEntries {
			w.incomplete(fmt.Sprintf("glob in %s: a directory of more than %d entries", what, maxDirEntries))
			w.unknownCode(fmt.Sprintf("%s: a glob in a directory of more than %d entries", f.raw, maxDirEntries))
			entries = entries[:maxDirEntries]
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") && !strings.HasPrefix(basePat, ".") && !strings.HasPrefix(basePat, `\.`) {
				continue
			}
			if ok, _ := filepath.Match(basePat, name); ok {
				if matches++; matches > maxGlobMatches && e.Type()&os.ModeSymlink == 0 {
					// Past the bound, an entry that is no link is
					// recorded without resolving it (cdir is
					// canonical), so none is dropped.
					set[filepath.Join(cdir, name)] = true
					continue
				}
				w.addPath(filepath.Join(cdir, name), set, what)
			}
		}
	}
	if matches == 0 {
		// No match: bash passes the pattern on as it is.
		w.addPath(f.s, set, what)
	}
}

// globDirs records what a pattern with wildcards in its directory part
// matches now, relative to the working directory, up to maxGlobMatches.
// The walk is bounded (boundedGlob): a pattern such as /*/*/*/*/* would
// otherwise read much of the file system. When the bound is reached the
// word is marked unresolved: it may match more than was recorded.
func (w *walker) globDirs(pat string, set map[string]bool, what string) {
	if !w.dirKnown && !strings.HasPrefix(pat, "/") {
		return
	}
	abs := pat
	if !strings.HasPrefix(abs, "/") {
		abs = w.cwd() + "/" + pat
	}
	matches, complete := boundedGlob(abs, &w.globReads, maxGlobDirReads, maxGlobMatches)
	if !complete {
		// What it matches past the bound is not seen, a read included.
		w.incomplete(fmt.Sprintf("glob in %s reads more than %d directories or matches more than %d paths", what, maxGlobDirReads, maxGlobMatches))
		w.unresolvedWrite(set, pat)
		w.unknownCode(fmt.Sprintf("%s: a glob that reads more than %d directories or matches more than %d paths", pat, maxGlobDirReads, maxGlobMatches))
	}
	for _, m := range matches {
		w.addPath(m, set, what)
	}
}

// boundedGlob is filepath.Glob for an absolute pattern, with the work
// bounded: it reads directories while *reads (counted across calls) is
// below maxReads, each up to 4096 entries, and returns at most
// maxMatches paths. complete is false when a bound was reached, so the
// pattern may match more than is returned.
func boundedGlob(pat string, reads *int, maxReads, maxMatches int) (matches []string, complete bool) {
	if _, err := filepath.Match(pat, ""); err != nil {
		return nil, true
	}
	parts := strings.Split(strings.TrimPrefix(pat, "/"), "/")
	cands := []string{"/"}
	for i, part := range parts {
		last := i == len(parts)-1
		if part == "" {
			continue
		}
		var next []string
		for _, c := range cands {
			if !hasMeta(part) {
				p := filepath.Join(c, unescapePattern(part))
				if last {
					if _, err := os.Lstat(p); err != nil {
						continue
					}
				}
				next = append(next, p)
			} else {
				if *reads >= maxReads {
					return partial(next, last, maxMatches), false
				}
				*reads++
				d, err := os.Open(c)
				if err != nil {
					continue
				}
				entries, _ := d.ReadDir(4096)
				d.Close()
				names := make([]string, 0, len(entries))
				for _, e := range entries {
					names = append(names, e.Name())
				}
				sort.Strings(names)
				for _, name := range names {
					if ok, _ := filepath.Match(part, name); ok {
						next = append(next, filepath.Join(c, name))
					}
				}
			}
			if len(next) > maxMatches*16 {
				return partial(next, last, maxMatches), false
			}
		}
		cands = next
		if len(cands) == 0 {
			return nil, true
		}
	}
	if len(cands) > maxMatches {
		return cands[:maxMatches], false
	}
	return cands, true
}

// partial is what boundedGlob returns when it stops early: at most n of
// the paths found for the last component, none for a directory part.
func partial(paths []string, last bool, n int) []string {
	if !last {
		return nil
	}
	if len(paths) > n {
		return paths[:n]
	}
	return paths
}

// argOf is a field as Command.Args shows it: f.arg(), except that a glob
// that matches nothing is passed on as it is, as bash (without nullglob)
// does: git push origin +refs/heads/*:refs/heads/* pushes a forced refspec.
func (w *walker) argOf(f field) string {
	if f.glob && f.static && w.globMatchesNothing(f) {
		return f.s
	}
	return f.arg()
}

// globMatchesNothing reports whether a glob is known to match no path
// now, so that bash passes it on as it is. Reading the file system for it
// counts against the same bounds as other globs.
func (w *walker) globMatchesNothing(f field) bool {
	pat := GoPattern(f.pat)
	if !strings.HasPrefix(pat, "/") {
		if !w.dirKnown {
			return false
		}
		pat = w.cwd() + "/" + pat
	}
	if strings.Contains(pat, "~") {
		return false
	}
	matches, complete := boundedGlob(pat, &w.globReads, maxGlobDirReads, 1)
	return complete && len(matches) == 0
}

// GoPattern turns a bash glob into one filepath.Match reads alike:
// bash's negated bracket [!x] is Go's [^x], and a character class inside
// brackets ([[:alpha:]]) becomes the ranges it stands for, or any
// character for classes without a short spelling, so the pattern matches
// at least what bash's would.
func GoPattern(pat string) string {
	if !strings.Contains(pat, "[") {
		return pat
	}
	pat = strings.ReplaceAll(pat, "[!", "[^")
	classes := map[string]string{"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z", "xdigit": "0-9a-fA-F"}
	for {
		i := strings.Index(pat, "[:")
		if i < 0 {
			return pat
		}
		// The class's end is looked for after its "[:" ("[:]" holds
		// none: its ":" is the opening one's).
		j := strings.Index(pat[i+2:], ":]")
		if j < 0 {
			return pat
		}
		name, after := pat[i+2:i+2+j], i+2+j+2
		if r, ok := classes[name]; ok {
			pat = pat[:i] + r + pat[after:]
			continue
		}
		// A class without a short spelling: the whole bracket matches
		// any one character.
		open := strings.LastIndexByte(pat[:i], '[')
		end := strings.IndexByte(pat[after:], ']')
		if open < 0 || end < 0 {
			return pat
		}
		pat = pat[:open] + "?" + pat[after+end+1:]
	}
}

func hasMeta(pat string) bool {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

func unescapePattern(pat string) string {
	if !strings.Contains(pat, `\`) {
		return pat
	}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		if pat[i] == '\\' && i+1 < len(pat) {
			i++
		}
		b.WriteByte(pat[i])
	}
	return b.String()
}
