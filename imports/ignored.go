package imports

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// TrustedTree is the tree of the commit whose .gitignore rules a git
// listing trusts (Options.Trusted): vouch lint's HEAD, the gate's base.
// The work tree's .gitignore files are the work's, and the checked agent
// writes them; a rule it added must not hide a file from the rules, so a
// path they ignore is still listed unless the trusted commit ignores it
// by the same rule (see ListUnignored).
type TrustedTree interface {
	// Name names the commit in messages: "HEAD", or the base as given.
	// It may change once Open has resolved the commit.
	Name() string
	// Open starts reading the commit's tree; ListUnignored calls it
	// while git lists the files, and closes the reader. It returns
	// ErrNoCommit when there is no commit to trust (a repository without
	// commits): the listing then honours the work tree's rules, as
	// nothing else is there to honour. Any other error stops the
	// listing.
	Open(ctx context.Context) (TreeReader, error)
}

// TreeReader reads an open TrustedTree.
type TreeReader interface {
	// Lookup says what the commit holds at each of paths (relative to
	// the work tree's top level, '/'-separated), in order.
	Lookup(paths []string) ([]TreeEntry, error)
	Close()
}

// ErrNoCommit is what TrustedTree.Open returns when there is no commit
// to trust.
var ErrNoCommit = errors.New("the repository has no commit")

// MaxGitignoreBytes bounds the .gitignore content TreeReader.Lookup
// returns; a larger file is Big, and no rule of it is trusted.
const MaxGitignoreBytes = 1 << 20

// TreeEntry is what a commit holds at a path.
type TreeEntry struct {
	// Present is set when the commit has anything at the path: a file, a
	// directory, a symbolic link or a submodule.
	Present bool
	// File is set for a regular file, the only kind of .gitignore git
	// reads rules from; Data is then its content when the path's base
	// name is .gitignore and it is at most MaxGitignoreBytes, else nil
	// with Big set for a .gitignore that is larger.
	File bool
	Data []byte
	Big  bool
}

// Unignored is a path a .gitignore in the work tree ignores that is
// listed anyway: the trusted commit does not ignore it by the same rule.
type Unignored struct {
	// Path is root-relative; a nested repository found inside an
	// unignored directory ends in "/", as git lists it.
	Path string
	// Gitignore and Line are the rule git says ignores it (Gitignore
	// relative to the root, so "../.gitignore" above it), "" and 0 when
	// git names none.
	Gitignore string
	Line      int
	// Why says why the rule is not trusted.
	Why string
}

// gitIgnoredArgs list the untracked paths the .gitignore files ignore, an
// ignored directory as one entry ending in "/", with gitListArgs' -c
// settings. git also lists a directory that is not ignored but holds
// only ignored paths, and then those paths after it.
var gitIgnoredArgs = append(slices.Clone(gitConfigArgs),
	"ls-files", "-z", "--others", "--ignored", "--exclude-per-directory=.gitignore", "--directory")

// gitWhyArgs name the rule that ignores each path read from standard
// input: its source, line number and pattern. The .gitignore files
// outrank .git/info/exclude (which check-ignore also reads), so for a
// path only they ignore the rule named is theirs; core.excludesFile is
// emptied. --no-index reads no rules from the index the work controls.
var gitWhyArgs = append(slices.Clone(gitConfigArgs),
	"check-ignore", "-z", "-v", "-n", "--stdin", "--no-index")

// runGit runs git in root with args and stdin, returning its output; a
// failure is an error naming the command and what git said. ok lists
// exit codes besides 0 that are not failures.
func runGit(ctx context.Context, root string, stdin []byte, args []string, ok ...int) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
	// Paths are given as paths: no global pathspec mode changes what
	// ":(literal)" or "./" mean.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS":
			return true
		}
		return false
	})
	cmd.Env = append(env, "GIT_NO_REPLACE_OBJECTS=1", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || !slices.Contains(ok, ee.ExitCode()) {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = err.Error()
			}
			i := 0
			for i+2 < len(args) && args[i] == "-c" {
				i += 2
			}
			return nil, fmt.Errorf("git %s: %s", args[i], msg)
		}
	}
	return out.Bytes(), nil
}

// splitNUL splits NUL-terminated records.
func splitNUL(b []byte) []string {
	var out []string
	for _, f := range bytes.Split(b, []byte{0}) {
		if len(f) > 0 {
			out = append(out, string(f))
		}
	}
	return out
}

// ignoredEntry is one path git lists as ignored and the rule it names.
type ignoredEntry struct {
	path    string // root-relative, "/" ending a directory
	source  string // the rule's file, relative to the top level; "" for none
	line    int
	pattern string
}

// ListUnignored lists the paths under root (in a git work tree) that the
// work tree's .gitignore files ignore but that trusted does not let them
// hide: a path stays unlisted only when trusted ignores it too, by the
// same rules. That is decided in two steps.
//
// A path is hidden at once when every .gitignore that can decide it (in
// each directory above it, and a directory's own) is as trusted has it
// (present with the same content, or absent in both) and trusted does
// not hold the path itself (a file it tracks is listed whatever ignores
// it now): the rules are trusted's, so trusted ignores it too. A
// .gitignore absent from the work tree counts as absent only when git
// does not read it from the index instead: skipWorktree returns the
// root-relative .gitignore files the index marks skip-worktree, whose
// rules git reads out of the index (which the work controls) when they
// are absent; one above root, which skipWorktree cannot know of, never
// counts as absent, nor does any when skipWorktree is nil.
//
// For any other path git check-ignore names the rule that ignores it,
// reading rules from the work tree's .gitignore files only, never the
// index (a path only a rule in the index ignores gets no rule named, so
// it is listed). The path stays hidden only when trusted has that rule:
// the .gitignore holding it is a regular file in trusted's tree with that
// line, and every rule that followed the line there still follows it (no
// later negation removed, nor the line moved below one); every .gitignore
// between that file's directory and the path still has every rule
// trusted's has (none of them matches the path now, or git would have
// named it, so none did in trusted: no deeper rule that decided
// otherwise was removed); and trusted does not hold the path. Every other
// ignored path is listed: a file as itself, a directory as every
// untracked file below it, ignored or not (the rules inside it are not
// read; a nested repository there is one entry, as git lists it).
//
// git runs three to five times: the ignored paths (one listing, an
// ignored directory as one entry), the top level and trusted's reader
// (TrustedTree.Open) all at once; then, only when some path is not
// hidden at once, the rules that ignore those paths (one check-ignore);
// and the files of any directory listed. When trusted has no commit
// (ErrNoCommit), nothing is listed and the work tree's rules stand. Any
// other failure is an error: the listing never falls back to honouring
// rules it could not check.
func ListUnignored(ctx context.Context, root string, trusted TrustedTree, skipWorktree func() []string) ([]Unignored, error) {
	var (
		wg       sync.WaitGroup
		where    []byte
		whereErr error
		tree     TreeReader
		treeErr  error
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		where, whereErr = runGit(ctx, root, nil, []string{"rev-parse", "--show-toplevel", "--show-prefix"})
	}()
	go func() {
		defer wg.Done()
		tree, treeErr = trusted.Open(ctx)
	}()
	ignored, err := runGit(ctx, root, nil, gitIgnoredArgs)
	wg.Wait()
	if tree != nil {
		defer tree.Close()
	}
	if err := cmp.Or(err, whereErr); err != nil {
		return nil, err
	}
	paths := splitNUL(ignored)
	if len(paths) == 0 || errors.Is(treeErr, ErrNoCommit) {
		return nil, nil
	}
	if treeErr != nil {
		return nil, fmt.Errorf("read the .gitignore files of %s: %w", trusted.Name(), treeErr)
	}
	top, prefix, ok := strings.Cut(strings.TrimSuffix(string(where), "\n"), "\n")
	if !ok || top == "" || !(prefix == "" || strings.HasSuffix(prefix, "/")) {
		return nil, fmt.Errorf("git rev-parse: unexpected output %q", where)
	}
	d := &decider{root: root, top: filepath.FromSlash(top), prefix: prefix, trusted: trusted,
		work: map[string]workFile{}, indexed: map[string]bool{}}
	if skipWorktree != nil {
		for _, p := range skipWorktree() {
			d.indexed[d.self(p)] = true
		}
	} else {
		d.indexUnknown = true
	}
	// git lists a directory that is not ignored but holds only ignored
	// paths, and then those paths: they are decided, not it.
	slices.Sort(paths)
	var own []string
	for i, p := range paths {
		if strings.HasSuffix(p, "/") && i+1 < len(paths) && strings.HasPrefix(paths[i+1], p) {
			continue
		}
		own = append(own, p)
	}
	// Every .gitignore that can decide each path, and the path itself;
	// the rule check-ignore names and the files below it are among them.
	var lookup []string
	seen := map[string]bool{}
	for _, p := range own {
		for _, q := range append(d.deciders(p), d.self(p)) {
			if !seen[q] {
				seen[q] = true
				lookup = append(lookup, q)
			}
		}
	}
	found, err := tree.Lookup(lookup)
	if err != nil {
		return nil, fmt.Errorf("read the .gitignore files of %s: %w", trusted.Name(), err)
	}
	if len(found) != len(lookup) {
		return nil, fmt.Errorf("read the .gitignore files of %s: %d answers for %d paths", trusted.Name(), len(found), len(lookup))
	}
	d.at = make(map[string]TreeEntry, len(lookup))
	for i, p := range lookup {
		d.at[p] = found[i]
	}
	var suspects []string
	for _, p := range own {
		same, err := d.asTrusted(p)
		if err != nil {
			return nil, err
		}
		if !same {
			suspects = append(suspects, p)
		}
	}
	if len(suspects) == 0 {
		return nil, nil
	}
	entries, err := ignoreRules(ctx, root, suspects)
	if err != nil {
		return nil, err
	}
	return d.decide(ctx, entries)
}

// deciders are the .gitignore files that can decide whether the
// root-relative p is ignored, relative to the top level: those above
// it, and a directory's own (whose rules git does not read when the
// directory is ignored, but it is not known yet that it is).
func (d *decider) deciders(p string) []string {
	self := d.self(p)
	out := gitignoresAbove(self)
	if strings.HasSuffix(p, "/") {
		out = append(out, self+"/.gitignore")
	}
	return out
}

// asTrusted reports whether trusted lacks p and every .gitignore that can
// decide it is as trusted has it.
func (d *decider) asTrusted(p string) (bool, error) {
	if d.at[d.self(p)].Present {
		return false, nil
	}
	for _, g := range d.deciders(p) {
		cur, err := d.workFile(g)
		if err != nil {
			return false, err
		}
		old := d.at[g]
		if !cur.present {
			// Absent, unless git reads it from the index; above the
			// root that is not known.
			if old.Present || d.indexUnknown || d.indexed[g] || d.prefix != "" && !strings.HasPrefix(g, d.prefix) {
				return false, nil
			}
			continue
		}
		if !cur.regular || !old.File || old.Big || !bytes.Equal(cur.data, old.Data) {
			return false, nil
		}
	}
	return true, nil
}

// self is the root-relative path p relative to the top level, without
// a directory's "/".
func (d *decider) self(p string) string {
	return path.Clean(d.prefix + strings.TrimSuffix(p, "/"))
}

// gitignoresAbove lists the .gitignore files of the directories above p
// (relative to the top level), from the top down.
func gitignoresAbove(p string) []string {
	out := []string{".gitignore"}
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			out = append(out, p[:i]+"/.gitignore")
		}
	}
	return out
}

// ignoreRules asks git which rule ignores each of paths.
func ignoreRules(ctx context.Context, root string, paths []string) ([]ignoredEntry, error) {
	// check-ignore reads each path as a pathspec: "./" keeps a leading
	// ":" from being read as magic (":/x" as x at the top level).
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString("./" + p + "\x00")
	}
	// Exit 1 says no path is ignored: every record then names no rule.
	out, err := runGit(ctx, root, in.Bytes(), gitWhyArgs, 1)
	if err != nil {
		return nil, err
	}
	// SOURCE NUL LINENUM NUL PATTERN NUL PATHNAME NUL, each empty but the
	// path when no rule matches, in the order of the input.
	f := bytes.Split(out, []byte{0})
	if len(f) != 4*len(paths)+1 || len(f[len(f)-1]) != 0 {
		return nil, fmt.Errorf("git check-ignore: %d fields for %d paths", len(f)-1, len(paths))
	}
	entries := make([]ignoredEntry, len(paths))
	for i, p := range paths {
		src, num, pat, got := string(f[4*i]), string(f[4*i+1]), string(f[4*i+2]), string(f[4*i+3])
		if got != "./"+p {
			return nil, fmt.Errorf("git check-ignore: answered for %q, asked for %q", got, "./"+p)
		}
		e := ignoredEntry{path: p, source: src, pattern: pat}
		if src != "" {
			n, err := strconv.Atoi(num)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("git check-ignore: line %q of %s", num, src)
			}
			e.line = n
		}
		entries[i] = e
	}
	return entries, nil
}

// workFile is a .gitignore as the work tree has it.
type workFile struct {
	present bool
	// regular is false for a symbolic link or anything else git does not
	// read rules from; data is a regular file's content.
	regular bool
	data    []byte
}

// decider decides, for each ignored path, whether trusted ignores it by
// the same rule.
type decider struct {
	root, top, prefix string
	trusted           TrustedTree
	work              map[string]workFile // by top-level-relative path
	at                map[string]TreeEntry
	// indexed are the .gitignore files (relative to the top level) the
	// index marks skip-worktree; indexUnknown says they are not known.
	indexed      map[string]bool
	indexUnknown bool
}

// pending is an ignored path whose rule is checked against trusted.
type pending struct {
	e ignoredEntry
	// self is the path relative to the top level; chain the .gitignore
	// files between the rule's and the path, each of which must keep
	// every rule trusted's has.
	self  string
	chain []string
}

func (d *decider) decide(ctx context.Context, entries []ignoredEntry) ([]Unignored, error) {
	var listed []Unignored
	var expand []Unignored // directories whose files are all listed
	add := func(e ignoredEntry, why string) {
		u := Unignored{Path: e.path, Why: why}
		if e.source != "" {
			u.Gitignore, u.Line = d.shown(e.source), e.line
		}
		if strings.HasSuffix(e.path, "/") {
			expand = append(expand, u)
		} else {
			listed = append(listed, u)
		}
	}
	for _, e := range entries {
		if e.source == "" || strings.HasPrefix(e.pattern, "!") {
			add(ignoredEntry{path: e.path}, "no .gitignore in the work tree has a rule that ignores it (git read one from elsewhere, such as the index)")
			continue
		}
		if !isGitignore(e.source) {
			add(e, "the rule is in "+e.source+", not in a .gitignore file")
			continue
		}
		self := d.self(e.path)
		srcDir := path.Dir(e.source) // "." at the top
		if !within(self, srcDir) {
			add(e, "the rule's .gitignore is not above the path")
			continue
		}
		p := pending{e: e, self: self}
		for dd := path.Dir(self); dd != srcDir && dd != "."; dd = path.Dir(dd) {
			p.chain = append(p.chain, dd+"/.gitignore")
		}
		why, err := d.check(p)
		if err != nil {
			return nil, err
		}
		if why != "" {
			add(e, why)
		}
	}
	if len(expand) > 0 {
		files, err := d.expand(ctx, expand)
		if err != nil {
			return nil, err
		}
		listed = append(listed, files...)
	}
	slices.SortFunc(listed, func(a, b Unignored) int { return strings.Compare(a.Path, b.Path) })
	return slices.CompactFunc(listed, func(a, b Unignored) bool { return a.Path == b.Path }), nil
}

// check returns why trusted does not ignore p's path by p's rule, or ""
// when it does.
func (d *decider) check(p pending) (string, error) {
	at := d.at
	name := d.trusted.Name()
	if at[p.self].Present {
		return name + " has it, so no ignore rule hides it", nil
	}
	src := p.e.source
	old := at[src]
	switch {
	case !old.File:
		return fmt.Sprintf("%s has no %s", name, d.shown(src)), nil
	case old.Big:
		return fmt.Sprintf("%s's %s is over %d bytes, too large to compare", name, d.shown(src), MaxGitignoreBytes), nil
	}
	cur, err := d.workFile(src)
	if err != nil {
		return "", err
	}
	now := lines(cur.data)
	if !cur.regular || p.e.line > len(now) {
		return fmt.Sprintf("%s changed while it was read", d.shown(src)), nil
	}
	rule := now[p.e.line-1]
	was := lines(old.Data)
	j := lastIndex(was, rule)
	if j < 0 {
		return fmt.Sprintf("the rule is not in %s's %s", name, d.shown(src)), nil
	}
	after := map[string]bool{}
	for _, l := range now[p.e.line:] {
		after[l] = true
	}
	for k, l := range was[j+1:] {
		if !after[l] && !blankRule(l) {
			return fmt.Sprintf("%s's %s has a rule after it (line %d, %q) that no longer follows it", name, d.shown(src), j+2+k, l), nil
		}
	}
	// No .gitignore below the rule's has a rule for the path now (git
	// would have named it); trusted's had none either if each of its
	// rules is still there.
	for _, c := range p.chain {
		old := at[c]
		if !old.Present {
			continue
		}
		if !old.File || old.Big {
			return fmt.Sprintf("%s's %s is not a .gitignore that can be compared", name, d.shown(c)), nil
		}
		cur, err := d.workFile(c)
		if err != nil {
			return "", err
		}
		now := map[string]bool{}
		if cur.regular {
			for _, l := range lines(cur.data) {
				now[l] = true
			}
		}
		for k, l := range lines(old.Data) {
			if !now[l] && !blankRule(l) {
				return fmt.Sprintf("%s lacks a rule %s's has (line %d, %q)", d.shown(c), name, k+1, l), nil
			}
		}
	}
	return "", nil
}

// lastIndex is the index of the last occurrence of l in ls, -1 if none.
func lastIndex(ls []string, l string) int {
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i] == l {
			return i
		}
	}
	return -1
}

// workFile reads the .gitignore at p (relative to the top level) from
// the work tree, once.
func (d *decider) workFile(p string) (workFile, error) {
	if w, ok := d.work[p]; ok {
		return w, nil
	}
	full := filepath.Join(d.top, filepath.FromSlash(p))
	var w workFile
	fi, err := os.Lstat(full)
	switch {
	case err == nil && fi.Mode().IsRegular():
		data, err := os.ReadFile(full)
		if err != nil {
			return w, fmt.Errorf("read %s: %w", d.shown(p), err)
		}
		w = workFile{present: true, regular: true, data: data}
	case err == nil:
		w = workFile{present: true}
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
	default:
		return w, fmt.Errorf("read %s: %w", d.shown(p), err)
	}
	d.work[p] = w
	return w, nil
}

// expand lists the untracked files below each directory of dirs, ignored
// or not, each with its directory's rule and reason.
func (d *decider) expand(ctx context.Context, dirs []Unignored) ([]Unignored, error) {
	var out []Unignored
	const chunk = 1000
	for len(dirs) > 0 {
		n := min(chunk, len(dirs))
		args := append(slices.Clone(gitConfigArgs), "ls-files", "-z", "--others", "--")
		for _, u := range dirs[:n] {
			args = append(args, ":(literal)"+u.Path)
		}
		res, err := runGit(ctx, d.root, nil, args)
		if err != nil {
			return nil, err
		}
		for _, f := range splitNUL(res) {
			// The longest directory holding f gave it.
			best := -1
			for i, u := range dirs[:n] {
				if strings.HasPrefix(f, u.Path) && (best < 0 || len(u.Path) > len(dirs[best].Path)) {
					best = i
				}
			}
			if best < 0 {
				return nil, fmt.Errorf("git ls-files: listed %q outside the directories asked for", f)
			}
			u := dirs[best]
			u.Path = f
			out = append(out, u)
		}
		dirs = dirs[n:]
	}
	return out, nil
}

// shown is p (relative to the top level) relative to the root.
func (d *decider) shown(p string) string {
	if d.prefix == "" {
		return p
	}
	if r, ok := strings.CutPrefix(p, d.prefix); ok {
		return r
	}
	up := strings.Repeat("../", strings.Count(d.prefix, "/"))
	return up + p
}

// isGitignore reports whether src, as check-ignore names a rule's file,
// is a .gitignore inside the work tree: a clean relative path whose base
// name is .gitignore, outside .git.
func isGitignore(src string) bool {
	return path.Base(src) == ".gitignore" && src == path.Clean(src) && !path.IsAbs(src) &&
		!strings.HasPrefix(src, "../") && !strings.HasPrefix(src, ".git/")
}

// within reports whether p (a clean path relative to the top level) lies
// below dir ("." for the top level).
func within(p, dir string) bool {
	return dir == "." || strings.HasPrefix(p, dir+"/")
}

// lines splits a .gitignore as git numbers its lines.
func lines(data []byte) []string {
	s := string(data)
	s = strings.TrimPrefix(s, "\ufeff")
	ls := strings.Split(s, "\n")
	if len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// blankRule reports whether a .gitignore line holds no pattern: empty
// (once git trims a carriage return and trailing spaces) or a comment.
func blankRule(l string) bool {
	return strings.HasPrefix(l, "#") || strings.TrimRight(l, " \r") == ""
}
