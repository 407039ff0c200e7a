package shellfacts

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/vouch-dev/vouch/canonpath"
)

// Bounds on the work one Parse may do, so that a hostile command line costs
// no more than a few milliseconds. Reaching any of them sets Incomplete.
const (
	// DefaultMaxDepth is the nesting bound used when Options.MaxDepth is 0.
	DefaultMaxDepth = 4
	// MaxMaxDepth is the largest MaxDepth accepted.
	MaxMaxDepth = 16
	// MaxInput is the most shell code analysed, in bytes: the command
	// line less the bodies of here-documents whose delimiter is quoted
	// (<<'EOF', literal text the parser only copies). A longer command
	// line is analysed up to MaxInput bytes and Facts.Truncated says so.
	MaxInput = 64 << 10
	// MaxHeredocInput is the longest command line analysed when all but
	// MaxInput bytes of it are the bodies of quoted here-documents
	// (cat > f <<'EOF' writing a big file). The parser copies such a
	// body, so it costs per byte, not per word as code does:
	// BenchmarkParseHeredoc measured 30 to 120 ms per MiB on a loaded
	// 2-core machine (2026-11-27), so 1 MiB keeps the worst such call
	// near a tenth of a second; events may be 16 MiB (guard.MaxEventBytes).
	MaxHeredocInput = 1 << 20
	// MaxCommands is the most commands recorded.
	MaxCommands = 1000
	// maxNested is the total size of all nested strings (bash -c, eval,
	// heredocs fed to a shell) parsed on top of the command line itself.
	maxNested = 4 * MaxInput
	// maxAST bounds the recursion of the walk over one syntax tree.
	maxAST = 200
	// maxFields bounds how many fields one brace expansion may produce.
	maxFields = 256
	// maxGlobMatches bounds how many paths one glob resolves (a glob
	// with a static directory records its other matches unresolved).
	maxGlobMatches = 256
	// maxDirEntries bounds the entries read from one directory a glob
	// matches in.
	maxDirEntries = 4096
	// maxGlobDirReads bounds how many directories the globs with
	// wildcards in their directory part read in one Parse.
	maxGlobDirReads = 256
	// maxReasons bounds the Unresolved list.
	maxReasons = 32
	// maxPaths bounds how many paths one Parse resolves (each costs a
	// system call per component).
	maxPaths = 4096
	// maxGlobs bounds how many globs one Parse expands (each reads a
	// directory).
	maxGlobs = 32
	// maxUpstream bounds Command.Upstream.
	maxUpstream = 64
	// maxBraceFields bounds the fields brace expansion makes in one Parse.
	maxBraceFields = 4096
	// maxWrappers bounds the wrappers stripped from one command (sudo
	// nohup env ...): each costs a pass over the words left.
	maxWrappers = 64
)

// Options says where a command runs. Only Cwd is required.
type Options struct {
	Cwd      string // absolute working directory; relative paths are resolved against it
	Home     string // for ~ and $HOME expansion; may be empty (then such words are dynamic)
	MaxDepth int    // bound on nested `bash -c` / `sh -c` / eval strings; 0 means the default (4)
	// CwdUnknown says the command starts in a directory only known at
	// run time (a harness's working-directory argument that is not a
	// plain path): relative paths are then what they are after a cd to
	// an unknown place (unresolved writes and removals), and Cwd only
	// stands for absolute-path checks.
	CwdUnknown bool
	// ScriptFile, when set, lets the caller have a script file that the
	// command runs analysed as the code it holds, when the command line
	// did not write the file itself (that text Parse follows on its
	// own): a guard that knows which files earlier calls of the same
	// session wrote answers for those, so `bash s.sh` after a Write of
	// s.sh is decided on what s.sh says. It is called with the file's
	// canonical path when a shell or source runs the file, or the kernel
	// runs it by a path (./s.sh). With read false the file is not
	// analysed (a script of the project's, which runs as the project's
	// code does); with read true its text is walked as the script the
	// shell runs, one level deeper, unless err says it could not be read
	// (too large, not a regular file), which makes its code unknown.
	// Shell code is walked; a file the kernel runs through a #! line
	// naming another interpreter, or a file an interpreter is given
	// (python3 x.py), is searched for the commands it runs and the files
	// it removes and writes with fixed arguments, as inline code is
	// (inlinecode.go), leniently: a script's computed commands and paths
	// are not asked about.
	ScriptFile func(path string) (text string, read bool, err error)
}

// Facts is what a command line would do, as far as can be told without
// running it.
type Facts struct {
	Commands []Command // every simple command, nested ones included, in the order the shell would start them
	Reads    []string  // canonical absolute paths read, sorted and unique; a read through directories only known at run time is its written-out end below "/{unknown directory}"
	Writes   []string  // canonical absolute paths written or created, sorted and unique
	Deletes  []string  // canonical absolute paths removed, sorted and unique
	// DeletesBelow are directories below which some entries are removed,
	// but not the directories themselves: the starting points of a find
	// whose tests pick what -delete or -exec rm removes (`find . -name
	// '*.o' -delete`). Sorted and unique.
	DeletesBelow []string
	// WritesBelow are directories below which some files are written
	// that the command does not name: the starting points of a find
	// whose -exec writer is given the match (`find . -name '*.go' -exec
	// sed -i s/a/b/ {} +`). Sorted and unique.
	WritesBelow []string
	// BelowFilters say, for DeletesBelow and WritesBelow directories,
	// which entries the finds acting there may reach (their -name
	// tests); a directory without one may have any entry reached.
	BelowFilters []BelowFilter
	// WritesTrees are directories (or, for a source that turns out to be
	// a file, files) whose whole contents a command may replace or
	// remove without naming what is inside: the destination of a
	// recursive copy or sync (cp -r src/. dst, rsync -a src/ dst), the
	// directory an archive or a patch is extracted or applied in (tar x,
	// unzip, patch, git apply), and the work tree of a git command that
	// rewrites it (git reset --hard, merge, pull, a branch switch, git
	// checkout ., git clean). They are not in Writes unless the command
	// names them as its destination (cp, rsync, tar -C, unzip -d): a
	// rule on Writes keeps meaning the paths a command names, and one
	// protecting a file checks whether it lies below a tree. Sorted and
	// unique.
	WritesTrees []string
	// TrackedTrees are the WritesTrees that only git commands which
	// keep untracked files recorded: a branch switch, merge, pull,
	// rebase, cherry-pick, stash without -u or -a. git refuses to
	// overwrite an untracked file there, so such a command reaches only
	// the files git tracks and those it ignores (which it overwrites
	// without asking): a policy that can tell vouch's own files are
	// neither need not ask about these. Sorted and unique.
	TrackedTrees []string
	URLs         []string // network targets (URLs, hosts, user@host, host:path remotes), sorted and unique
	Incomplete   bool     // some word could not be resolved statically, or a bound was reached; the facts are a lower bound
	ParseError   string   // non-empty when the command (or a nested string) does not parse as bash; facts are then best-effort
	// Truncated is non-empty when the command line is too long to analyse
	// whole (see MaxInput): only its start was analysed, and what follows
	// may run anything. Unlike ParseError it does not say the command is
	// malformed, only that part of it was not looked at.
	Truncated string

	// Unresolved says briefly why Incomplete is set ("variable in argument
	// of rm", "nesting deeper than 4"), sorted and unique, at most 32.
	Unresolved []string

	// Unknown lists, as written, each place where the command line runs
	// a program or code that cannot be known without running it: a
	// command name that is not static (`$(echo rm) -rf /`, `"$CMD" x`,
	// `${x}rm`), and eval, `bash -c`, `su -c` and the like given a string
	// that is not static (`eval "$X"`). Sorted, unique, at most 32. A
	// policy cannot tell what these do, so it should ask or deny.
	Unknown []string

	// DeletesUnresolved lists, as written, the targets of removals
	// (rm, find -delete, git rm, mv's sources...) that are only known
	// when the command runs: a variable (`rm -rf "$DIR"`), a substitution,
	// a glob whose directory part has a wildcard, or a relative path
	// after a cd to an unknown place. Such a target may be anything, /
	// included, so a policy should ask. Sorted, unique, at most 32.
	DeletesUnresolved []string
	// WritesUnresolved lists, as written, the targets of writes only
	// known at run time (`cat x > .vouch/guard.$(echo yaml)`, `cp x
	// "$DEST"`, a relative path after cd to an unknown place). Sorted,
	// unique, at most 32.
	WritesUnresolved []string
	// Uploads are local files a command sends over the network (curl -d
	// @file, -F x=@file and -T, wget --post-file, scp and rsync sources
	// copied to a remote, gh gist create, gh release upload, aws s3 cp
	// and sync to s3://, gsutil and gcloud storage cp to gs://, rclone
	// copy to a remote): canonical paths, also in Reads, and "{files
	// named on the input of gsutil cp -I}" for a copy whose sources are
	// named on stdin. Sorted and unique.
	Uploads []string
}

// Command is one simple command.
type Command struct {
	Name     string   // program base name after wrappers are stripped (`/usr/bin/rm` -> "rm"); "" when the name is not static
	Path     string   // the program word as written, quotes removed ("/usr/bin/rm")
	Args     []string // arguments after the name, as the program sees them (quotes removed, braces expanded); a word that is not static is "" with Dynamic set, except a glob that matches nothing now, which bash passes on as written (also with Dynamic set). git's are led by the -c key=value options that GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n and GIT_CONFIG_PARAMETERS assigned in the command line amount to
	Wrappers []string // wrappers stripped in order: sudo, doas, env, timeout, nice, nohup, time, command, exec, xargs, stdbuf, ionice, find (-exec), ...
	Env      []string // NAME=value assignments in front of the command or given to env (the value is empty when not static)
	Depth    int      // 0 top level; +1 per nested bash -c / sh -c / eval / $(...) / `...` / <(...)
	PipeFrom string   // name of the command whose stdout is piped into this one ("curl" in `curl x | sh`), "" if none; also set for a shell or interpreter whose script comes from a substitution (`bash <(curl x)`, `bash < <(curl x)`, `python3 <(curl x)`, `sh -c "$(curl x)"`)
	Dynamic  bool     // the name or some argument is not a static word

	// Upstream names every command earlier in the same pipeline, nearest
	// last, so `curl x | tee f | sh` is still seen as curl feeding sh (at
	// most 64; a longer pipeline sets Incomplete).
	Upstream []string
	// Raw is each argument's source text (quotes kept), parallel to
	// Args, so a rule can still look at a word that is not static.
	Raw []string

	// Sub is the subcommand of a program that has them (git: "commit"),
	// found after the program's own global options; "" otherwise.
	// SubArgs are the arguments after it, as in Args.
	Sub     string
	SubArgs []string
	// Options are the options the program reads, as it reads them:
	// clusters split (-rf is -r and -f), option values dropped (so the
	// text of `-m '--no-verify'` is not an option), and short options
	// named by their long form where Parse knows it for this program and
	// subcommand (rm -r is --recursive; git commit -n is --no-verify but
	// git push -n is --dry-run). A git push refspec forced with a leading
	// + is reported as --force. Global git options that change what runs
	// are kept as "-c NAME" (lowercase key, value dropped). Filled for rm,
	// rmdir, unlink, find (its actions: -delete, -exec, ...) and git;
	// empty for other programs.
	Options []string
	// ListedInput is set for a program xargs -0 hands the paths a find
	// -print0 or grep -lZ before it in the pipeline prints: they are
	// below that command's starting points, and recorded as removals
	// and writes below them (as find -exec's {} is), so its arguments
	// from input are not ones vouch cannot see.
	ListedInput bool
}

// Parse extracts the facts of one shell command line. It never panics and
// never runs anything (it reads the file system only to resolve symbolic
// links and expand globs); the error is returned only for invalid Options.
func Parse(command string, opts Options) (facts *Facts, err error) {
	if opts.Cwd == "" || !filepath.IsAbs(opts.Cwd) {
		return nil, fmt.Errorf("shellfacts: Options.Cwd must be an absolute directory, got %q", opts.Cwd)
	}
	if strings.IndexByte(opts.Cwd, 0) >= 0 || strings.IndexByte(opts.Home, 0) >= 0 {
		return nil, errors.New("shellfacts: Options.Cwd and Options.Home must not contain NUL bytes")
	}
	if opts.Home != "" && !filepath.IsAbs(opts.Home) {
		return nil, fmt.Errorf("shellfacts: Options.Home must be absolute or empty, got %q", opts.Home)
	}
	switch {
	case opts.MaxDepth < 0 || opts.MaxDepth > MaxMaxDepth:
		return nil, fmt.Errorf("shellfacts: Options.MaxDepth must be between 0 and %d, got %d", MaxMaxDepth, opts.MaxDepth)
	case opts.MaxDepth == 0:
		opts.MaxDepth = DefaultMaxDepth
	}
	if len(opts.Cwd) > canonpath.MaxLen {
		return nil, fmt.Errorf("shellfacts: Options.Cwd: %w", canonpath.ErrTooLong)
	}
	w := newWalker(opts)
	if opts.CwdUnknown {
		w.dirKnown = false
		w.incomplete("the command starts in a directory only known at run time")
	}
	defer func() {
		// A bug here must not take the guard down with it, nor let a
		// command through unseen: report it as unparsed.
		if r := recover(); r != nil {
			w.facts.ParseError = fmt.Sprintf("internal error while analysing the command: %v", r)
			w.incomplete("analysis stopped by an internal error")
			facts, err = w.finish(), nil
		}
	}()
	if len(command) > MaxInput && !w.heredocScript(command) {
		w.facts.Truncated = fmt.Sprintf("command is %d bytes long; only the first %d were analysed", len(command), MaxInput)
		w.incomplete("command too long")
		w.unknownCode(fmt.Sprintf("the command past its first %d bytes", MaxInput))
		w.script(command[:MaxInput], 0, "")
		return w.finish(), nil
	}
	w.script(command, 0, "")
	return w.finish(), nil
}

// heredocScript analyses a command line longer than MaxInput when the
// bodies of its quoted here-documents make up the excess, and reports
// whether it did. A cheap scan for <<'DELIM' decides whether the parse is
// worth trying (so plain long code is cut at once); the parse then
// decides, from the syntax tree, whether the code outside those bodies
// is within MaxInput. Nothing is walked unless it is.
func (w *walker) heredocScript(command string) bool {
	if len(command) > MaxHeredocInput || len(command)-quotedHeredocBytes(command) > MaxInput {
		return false
	}
	if nesting(command) > maxNesting {
		return false
	}
	if w.parser == nil {
		w.parser = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	file, err := w.parser.Parse(strings.NewReader(command), "")
	if err != nil {
		return false
	}
	body := 0
	syntax.Walk(file, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.Redirect); ok && r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && quotedDelim(r.Word) {
			body += int(r.Hdoc.End().Offset() - r.Hdoc.Pos().Offset())
		}
		return true
	})
	if len(command)-body > MaxInput {
		return false
	}
	saveSrc, saveDepth, saveAST := w.src, w.depth, w.ast
	w.src, w.depth, w.ast = command, 0, 0
	w.scanIFS(file, command)
	w.stmts(file.Stmts, ctx{})
	w.src, w.depth, w.ast = saveSrc, saveDepth, saveAST
	return true
}

// quotedDelim reports whether a here-document's delimiter is quoted, so
// its body is literal text.
func quotedDelim(word *syntax.Word) bool {
	if word == nil {
		return false
	}
	for _, p := range word.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.(*syntax.Lit).Value, "\\") {
				return true
			}
		}
	}
	return false
}

// quotedHeredocBytes estimates, without parsing, how many bytes of src
// are bodies of here-documents with a quoted delimiter (<<'EOF', <<"EOF",
// <<\EOF, <<-'EOF'): from the line after the operator to the delimiter
// line. It only decides whether parsing src whole is worth trying, so it
// may be fooled (<<'EOF' inside quotes); the parse decides.
func quotedHeredocBytes(src string) int {
	total := 0
	for i := 0; i < len(src); {
		j := strings.Index(src[i:], "<<")
		if j < 0 {
			break
		}
		k := i + j + 2
		dash := k < len(src) && src[k] == '-'
		if dash {
			k++
		}
		for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
			k++
		}
		var delim string
		switch {
		case k < len(src) && (src[k] == '\'' || src[k] == '"'):
			if e := strings.IndexByte(src[k+1:], src[k]); e > 0 {
				delim = src[k+1 : k+1+e]
			}
		case k < len(src) && src[k] == '\\':
			e := k + 1
			for e < len(src) && (src[e] == '_' || src[e] >= 'a' && src[e] <= 'z' || src[e] >= 'A' && src[e] <= 'Z' || src[e] >= '0' && src[e] <= '9') {
				e++
			}
			delim = src[k+1 : e]
		}
		if delim == "" || strings.ContainsAny(delim, "\n") {
			i = k
			continue
		}
		nl := strings.IndexByte(src[k:], '\n')
		if nl < 0 {
			break
		}
		start := k + nl + 1
		end, pos := len(src), start
		for pos < len(src) {
			line, next := src[pos:], len(src)
			if e := strings.IndexByte(line, '\n'); e >= 0 {
				line, next = line[:e], pos+e+1
			}
			if dash {
				line = strings.TrimLeft(line, "\t")
			}
			if line == delim {
				end = pos
				break
			}
			pos = next
		}
		total += end - start
		i = max(end, k)
	}
	return total
}

// walker carries the state of one Parse.
type walker struct {
	opts  Options
	facts *Facts

	dir      string   // current directory, following static cd; canonical once cwd() has run
	dirKnown bool     // false after a cd whose target is not static
	dirStack []string // pushd / popd

	// vars holds shell variables assigned a static value earlier in the
	// command line (F=.env; cat $F). An assignment that may or may not
	// happen (inside if, a loop, after && or ||, in a function) removes
	// the variable instead, so its later uses stay dynamic.
	vars map[string]string
	cond int // > 0 while walking code that runs conditionally
	// funcs are the functions the command line defines: calling one
	// may change any variable and the directory.
	funcs map[string]bool
	// noVars is set once a nameref is declared (declare -n): an
	// assignment to one name may then set another, so no variable is
	// tracked from there on.
	noVars bool
	// maybe holds, for variables assigned a static value where the
	// assignment may or may not run (inside if, a loop, after && or ||),
	// that value: a word using one is not static, but names it as one
	// of its possible values (field.alt).
	maybe map[string]string
	// ifsChanged is set when the command line may give IFS a value
	// other than bash's default (see scanIFS).
	ifsChanged bool
	// exported holds the static values the command line exports
	// (export F=.env, declare -x F=.env, export F after F=.env): every
	// later program has them in its environment (see envReads).
	exported map[string]string
	// allexport is set once set -a (set -o allexport) may have run:
	// bash then exports every variable assigned after it, which is kept
	// in exported as export's are. set +a is not looked for: exporting
	// too much is the safe side.
	allexport bool
	// callEnv is the environment, as NAME=VALUE, that the command being
	// analysed, and whatever it runs, gets from assignments in front of
	// it or from a wrapper (F=.env tool, env F=.env tool).
	callEnv []string
	// forgotten are HOME, PWD and OLDPWD when the command line gave
	// them a value that is not known: their value from before it no
	// longer holds (see tildeValue).
	forgotten map[string]bool

	// gitAliases holds git aliases that are not shell commands, set
	// earlier in the command line by git config alias.NAME VALUE.
	gitAliases map[string]string
	// pasteBufs holds the tmux buffers (by name, "" for the most recent)
	// and screen registers ("screen:a", "screen:." for the paste buffer)
	// set earlier in the command line: pasting one types its text.
	pasteBufs map[string]pasteBuf
	// tmuxAliases holds the tmux command aliases set earlier in the
	// command line (set -s command-alias), by name.
	tmuxAliases map[string]pasteBuf
	// screenFiles holds the files screen commands earlier in the
	// command line named for later ones: "bufferfile" (which writebuf
	// writes) and "logfile" (which log on writes).
	screenFiles map[string]field

	// Work done so far, against the bounds above.
	paths, globs, braceFields int
	// globReads counts the directories read by globs with wildcards
	// in their directory part, up to maxGlobDirReads.
	globReads int
	// loopWalks counts the loop bodies walked once per value of their
	// variable, up to maxLoopWalks.
	loopWalks int
	// argLooks counts the arguments of programs vouch does not model
	// looked up on disk, up to maxArgLooks (see unmodelledArgs).
	argLooks int

	depth  int // nesting of shell strings and substitutions
	ast    int // recursion depth within one syntax tree
	nested int // bytes of nested strings parsed so far

	reads, writes, deletes, urls map[string]bool
	uploads                      map[string]bool
	below                        map[string]bool
	trees                        map[string]bool // made on first use: few commands write a tree
	// keptTrees and forcedTrees split trees by whether a git command
	// that keeps untracked files recorded them (keeping is set while
	// it does) or anything else did.
	keptTrees, forcedTrees map[string]bool
	keeping                bool
	reasons, unknown       map[string]bool
	unresolvedDeletes      map[string]bool
	unresolvedWrites       map[string]bool

	// removing is set while recording the targets of a removal, so a
	// target that cannot be resolved is listed in DeletesUnresolved.
	removing bool

	// redirFields are redirection words already expanded (and their
	// substitutions walked) by the command's handler (see stdinSubst).
	redirFields map[*syntax.Redirect][]field

	// links are the symbolic links the command line makes (ln -s),
	// which later paths resolve through (see symlinked).
	links canonpath.Links

	// entry is set while recording the operands of programs that act on
	// a directory entry itself (rm, unlink, rename): their last
	// component is not followed (see canonpath.EntryFrom).
	entry bool
	// findRoots are the starting points of the find whose -exec command
	// is being walked: a remover given the match ({}) removes below them.
	findRoots []field
	findSet   map[string]bool // deletes or below, as the find's expression decides
	findNames []string        // the find's -name tests (findNameFilter)
	// listing is set by the last find or grep walked that prints only
	// NUL-ended paths below its starting points (see inputListing).
	listing *inputListing
	// writesBelow are directories below which a find -exec writer
	// writes the matches ({}); belowNames and belowAny are the name
	// tests of the finds acting below each (BelowFilter).
	writesBelow map[string]bool
	belowNames  map[string][][]string
	belowAny    map[string]bool
	// gitEnv holds the GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n and
	// GIT_CONFIG_PARAMETERS the command line assigns (see gitEnvConfig).
	gitEnv map[string]string
	// bombs are the functions the command line defines as fork bombs
	// (see forkBomb), reported when one is called.
	bombs map[string]bool
	// varInputs names, by variable, the files read by the substitutions
	// of a value assigned to it (D=$(cat f)): a word expanding the
	// variable carries them as field.inputs (see sentInputs).
	varInputs map[string][]string
	// changed names, by path, the program Parse does not follow that
	// changed a file the command line did not write (sed -i s.sh), kept
	// only for Options.ScriptFile: such a file no longer holds the text
	// the caller reads.
	changed map[string]string
	// written and writeLog follow files the command line writes and
	// then runs (see runwrite.go).
	written  map[string]writtenFile
	writeLog []loggedWrite
	src      string // the source text being walked, for Raw

	parser      *syntax.Parser // created on first use, reused for nested strings
	cwdResolved string         // Options.Cwd resolved, once needed
}

func newWalker(opts Options) *walker {
	return &walker{
		opts:        opts,
		facts:       &Facts{},
		dir:         opts.Cwd,
		dirKnown:    true,
		vars:        map[string]string{},
		funcs:       map[string]bool{},
		reads:       map[string]bool{},
		writes:      map[string]bool{},
		deletes:     map[string]bool{},
		below:       map[string]bool{},
		writesBelow: map[string]bool{},
		urls:        map[string]bool{},
		uploads:     map[string]bool{},
		reasons:     map[string]bool{},
		unknown:     map[string]bool{},

		unresolvedDeletes: map[string]bool{},
		unresolvedWrites:  map[string]bool{},
	}
}

func (w *walker) finish() *Facts {
	f := w.facts
	f.Reads = sortedKeys(w.reads)
	f.Writes = sortedKeys(w.writes)
	f.Deletes = sortedKeys(w.deletes)
	f.DeletesBelow = sortedKeys(w.below)
	f.WritesBelow = sortedKeys(w.writesBelow)
	f.BelowFilters = w.belowFilters()
	f.WritesTrees = sortedKeys(w.trees)
	for k := range w.keptTrees {
		if !w.forcedTrees[k] {
			f.TrackedTrees = append(f.TrackedTrees, k)
		}
	}
	slices.Sort(f.TrackedTrees)
	f.URLs = sortedKeys(w.urls)
	f.Uploads = sortedKeys(w.uploads)
	f.Unresolved = sortedKeys(w.reasons)
	f.Unknown = sortedKeys(w.unknown)
	f.DeletesUnresolved = sortedKeys(w.unresolvedDeletes)
	f.WritesUnresolved = sortedKeys(w.unresolvedWrites)
	return f
}

// unresolvedWrite records, when set is the set of written paths, a write
// target that cannot be resolved.
func (w *walker) unresolvedWrite(set map[string]bool, raw string) {
	// Maps cannot be compared with ==; the written set is the one map
	// the walker made for writes.
	if mapsSame(set, w.writes) && len(w.unresolvedWrites) < maxReasons {
		w.unresolvedWrites[raw] = true
	}
}

// mapsSame reports whether a and b are the same map.
func mapsSame(a, b map[string]bool) bool {
	return a != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// unresolvedRemoval records a removal target that cannot be resolved.
func (w *walker) unresolvedRemoval(raw string) {
	if w.removing && len(w.unresolvedDeletes) < maxReasons {
		w.unresolvedDeletes[raw] = true
	}
}

// removeTo records what a removal acts on (entries: the directory entry
// itself, as rm and rename do, see entriesTo).
func (w *walker) removeTo(fs []field, set map[string]bool, entries bool, what string) {
	w.removing = true
	defer func() { w.removing = false }()
	if entries {
		w.entriesTo(fs, set, what)
	} else {
		w.pathsTo(fs, set, what)
	}
}

// unknownCode records a place where code that cannot be known runs.
func (w *walker) unknownCode(raw string) {
	if raw == "" {
		raw = "?"
	}
	if len(raw) > 200 {
		raw = raw[:200] + "..."
	}
	if len(w.unknown) < maxReasons {
		w.unknown[raw] = true
	}
}

func sortedKeys(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// incomplete records that the facts are a lower bound, and why.
func (w *walker) incomplete(reason string) {
	w.facts.Incomplete = true
	if len(w.reasons) < maxReasons {
		w.reasons[reason] = true
	}
}

func (w *walker) parseError(err error) {
	if w.facts.ParseError == "" {
		w.facts.ParseError = err.Error()
	}
}

// script parses src and walks it at the given depth. pipeFrom is the
// producer feeding a nested script, if any.
func (w *walker) script(src string, depth int, what string) {
	if depth > 0 {
		// Past a bound the code is not analysed, so it is code that
		// cannot be known: a policy asks about it rather than allow it.
		if depth > w.opts.MaxDepth {
			w.incomplete(fmt.Sprintf("%s nested deeper than %d levels", what, w.opts.MaxDepth))
			w.unknownCode(fmt.Sprintf("%s nested deeper than %d levels", what, w.opts.MaxDepth))
			return
		}
		if w.nested+len(src) > maxNested {
			w.incomplete("too much nested shell text")
			w.unknownCode(what + ": too much nested shell text to analyse")
			return
		}
		w.nested += len(src)
	}
	w.parseWalk(src, depth, what, 0)
}

// maxNesting bounds the bracket nesting of one script handed to the parser.
const maxNesting = 128

// nesting returns how deeply (, { and [ nest in src. Quotes are ignored on
// purpose: telling quoted text apart needs the parser this protects, and
// counting every bracket only over-estimates the parser's recursion depth.
func nesting(src string) int {
	depth, most := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '(' || c == '{' || c == '[':
			depth++
			most = max(most, depth)
		case c == ')' || c == '}' || c == ']':
			depth = max(depth-1, 0)
		}
	}
	return most
}

// maxResyncs bounds how many times one script is resumed after a syntax
// error.
const maxResyncs = 16

// parseWalk parses src and walks it. When src does not parse, a parser
// that fills in missing tokens (an unclosed quote or parenthesis) is tried;
// when that fails too, the statements before the error are walked and
// parsing resumes after the next separator, so `echo ) ; rm -rf /` still
// shows rm.
func (w *walker) parseWalk(src string, depth int, what string, resync int) {
	if n := nesting(src); n > maxNesting {
		// The parser recurses per level (and deeply per level of
		// arithmetic), so such input would cost seconds; no real
		// command nests like this.
		w.parseError(fmt.Errorf("brackets nested %d levels deep (at most %d are analysed)", n, maxNesting))
		w.incomplete("brackets nested too deeply to analyse")
		return
	}
	if w.parser == nil {
		w.parser = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	// Reusing the parser is safe: a nested string is parsed only after
	// the enclosing script's tree is complete.
	file, err := w.parser.Parse(strings.NewReader(src), "")
	if err != nil && strings.HasPrefix(what, "zsh") {
		// zsh syntax (glob qualifiers, =(...)) that bash refuses.
		if zf, zerr := syntax.NewParser(syntax.Variant(syntax.LangZsh)).Parse(strings.NewReader(src), ""); zerr == nil {
			file, err = zf, nil
		}
	}
	if err != nil && strings.Contains(src, "((") {
		// bash reads (( or $(( that does not parse as arithmetic as
		// nested subshells: ((:) ; rm -rf ~) runs rm.
		if fixed, ff := w.arithAsSubshells(src, err); ff != nil {
			src, file, err = fixed, ff, nil
		}
	}
	if err != nil {
		perr := err
		if depth > 0 {
			perr = fmt.Errorf("%s string: %w", what, err)
		}
		w.parseError(perr)
		w.incomplete("part of the command does not parse")
		if rec, rerr := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.RecoverErrors(16)).Parse(strings.NewReader(src), ""); rerr == nil && rec != nil {
			file, err = rec, nil
		}
	}
	if file != nil {
		saveSrc, saveDepth, saveAST := w.src, w.depth, w.ast
		w.src, w.depth, w.ast = src, depth, 0
		w.scanIFS(file, src)
		w.stmts(file.Stmts, ctx{})
		w.src, w.depth, w.ast = saveSrc, saveDepth, saveAST
	}
	if err == nil {
		return
	}
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return
	}
	if resync >= maxResyncs {
		w.incomplete("too many syntax errors")
		return
	}
	off := int(pe.Pos.Offset())
	if off < 0 || off > len(src) {
		return
	}
	if i := strings.IndexAny(src[off:], ";&|\n"); i >= 0 {
		w.parseWalk(src[off+i+1:], depth, what, resync+1)
	}
}

// arithAsSubshells reparses src the way bash does when an arithmetic
// command (( or expansion $(( fails to parse: as a subshell (or command
// substitution) that opens with a subshell. The (( nearest before each
// syntax error is split, up to a few times; it returns the text that
// parses and its tree, or nil when splitting does not make it parse.
func (w *walker) arithAsSubshells(src string, err error) (string, *syntax.File) {
	for range 8 {
		var pe syntax.ParseError
		if !errors.As(err, &pe) {
			return "", nil
		}
		off := int(pe.Pos.Offset())
		if off < 0 || off > len(src) {
			return "", nil
		}
		i := strings.LastIndex(src[:min(off+2, len(src))], "((")
		if i < 0 {
			return "", nil
		}
		src = src[:i+1] + " " + src[i+1:]
		var file *syntax.File
		file, err = w.parser.Parse(strings.NewReader(src), "")
		if err == nil {
			return src, file
		}
	}
	return "", nil
}

// ctx is what an enclosing construct tells the commands inside it.
type ctx struct {
	pipeFrom string   // producer of this command's stdin
	upstream []string // every earlier command of the pipeline
	wrappers []string // wrappers applied from outside (the time keyword)
	// pipeText is what the producer writes to this command's stdin when
	// that is known (pipeKnown): the static words of an echo or printf
	// (see stageOutput).
	pipeText  string
	pipeKnown bool
	// pipeFile is the file a `cat FILE` producer passes on unchanged
	// (see stageFile), nil for any other producer.
	pipeFile *field
	// listing is what the producer prints, when it is only paths below
	// some directories, each ended by a NUL (see inputListing).
	listing *inputListing
}

// enter counts one level of the walk's recursion. Past maxAST the
// statements below are not walked, so they may run anything: that is
// reported as the bracket bound is (a parse error, and code that cannot
// be known), never only as incomplete facts, which a policy allows.
// Keyword compounds (if, while, for, case) nest without brackets, so
// only this bound sees them.
func (w *walker) enter() bool {
	w.ast++
	if w.ast > maxAST {
		why := fmt.Sprintf("syntax nested deeper than %d levels", maxAST)
		w.parseError(fmt.Errorf("%s (at most %d are analysed)", why, maxAST))
		w.incomplete(why)
		w.unknownCode(why + ": the commands below are not analysed")
		return false
	}
	return true
}

func (w *walker) leave() { w.ast-- }

func (w *walker) stmts(list []*syntax.Stmt, c ctx) {
	for _, s := range list {
		w.stmt(s, c)
	}
}

func (w *walker) stmt(s *syntax.Stmt, c ctx) {
	if s == nil || !w.enter() {
		return
	}
	defer w.leave()
	defer w.scriptWrites(s, c, w.markStmt())
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(cmd, s.Redirs, c)
		w.redirects(s.Redirs, "")
		return
	case nil:
	default:
		w.command(cmd, w.compoundStdin(s.Redirs, c))
	}
	w.redirects(s.Redirs, "")
}

// compoundStdin is the context for the commands inside a compound
// command whose stdin is redirected ({ bash; } <<< '...', (sh) < <(...)):
// a static here-document or here-string is what they read, as from an
// echo piped in; another program's output is a producer Parse does not
// know. A file leaves the context as it is (like bash script.sh).
func (w *walker) compoundStdin(rs []*syntax.Redirect, c ctx) ctx {
	r := lastStdin(rs)
	if r == nil {
		return c
	}
	switch {
	case r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc:
		if text, static, _ := w.stdinText([]*syntax.Redirect{r}); static {
			c.pipeText, c.pipeKnown, c.pipeFrom = text, true, "here-document"
		} else {
			c.pipeText, c.pipeKnown, c.pipeFrom = "", false, "here-document"
		}
	case r.Op == syntax.RdrIn && r.Word != nil && soleProcIn(r.Word):
		c.pipeText, c.pipeKnown, c.pipeFrom = "", false, "process substitution"
	}
	return c
}

// command walks every compound command down to its simple commands.
func (w *walker) command(cmd syntax.Command, c ctx) {
	switch cmd := cmd.(type) {
	case *syntax.BinaryCmd:
		if cmd.Op == syntax.Pipe || cmd.Op == syntax.PipeAll {
			w.pipeline(cmd, c)
			return
		}
		// a && b || c is a left-leaning tree; walk it as a list so a
		// long chain does not count against the recursion bound.
		var chain []*syntax.Stmt
		for b := cmd; ; {
			chain = append(chain, b.Y)
			x := b.X
			if inner, ok := x.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.AndStmt || inner.Op == syntax.OrStmt) &&
				len(x.Redirs) == 0 && !x.Negated && !x.Background && len(chain) < MaxCommands {
				b = inner
				continue
			}
			chain = append(chain, x)
			break
		}
		slices.Reverse(chain)
		w.stmt(chain[0], c)
		// Everything after the first command may or may not run.
		w.cond++
		for _, s := range chain[1:] {
			w.stmt(s, c)
		}
		w.cond--
	case *syntax.Subshell:
		dir := w.saveDir()
		w.stmts(cmd.Stmts, c)
		w.restoreDir(dir)
	case *syntax.Block:
		w.stmts(cmd.Stmts, c)
	case *syntax.IfClause:
		w.stmts(cmd.Cond, c)
		w.cond++
		w.stmts(cmd.Then, c)
		for ic := cmd.Else; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, c)
			w.stmts(ic.Then, c)
		}
		w.cond--
	case *syntax.WhileClause:
		w.whileLoop(cmd, c)
	case *syntax.ForClause:
		w.forLoop(cmd, c)
	case *syntax.CaseClause:
		if cmd.Word != nil {
			w.substs(cmd.Word)
		}
		w.cond++
		defer func() { w.cond-- }()
		for _, item := range cmd.Items {
			for _, p := range item.Patterns {
				w.substs(p)
			}
			w.stmts(item.Stmts, c)
		}
	case *syntax.FuncDecl:
		// The body runs when the function is called, wherever that is;
		// its commands count as if they ran here.
		if cmd.Name != nil {
			w.funcs[cmd.Name.Value] = true
		}
		dir := w.saveDir()
		w.cond++
		w.stmt(cmd.Body, ctx{})
		w.cond--
		w.restoreDir(dir)
		if cmd.Name != nil && forkBomb(cmd.Name.Value, cmd.Body) {
			// Reported where the function is called (after its
			// body, whose own calls are walked above).
			if w.bombs == nil {
				w.bombs = map[string]bool{}
			}
			w.bombs[cmd.Name.Value] = true
		}
	case *syntax.TimeClause:
		c.wrappers = append(slices.Clip(c.wrappers), "time")
		w.stmt(cmd.Stmt, c)
	case *syntax.CoprocClause:
		if cmd.Name != nil {
			w.substs(cmd.Name)
		}
		w.stmt(cmd.Stmt, c)
	case *syntax.DeclClause:
		w.decl(cmd, c)
	case *syntax.TestDecl:
		if cmd.Description != nil {
			w.substs(cmd.Description)
		}
		w.stmt(cmd.Body, c)
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		// No command runs, but substitutions inside them do.
		w.substs(cmd)
	default:
		// A construct this walker does not know: still find the
		// substitutions in it, and say the facts may be partial.
		w.substs(cmd)
		w.incomplete(fmt.Sprintf("unhandled shell construct %T", cmd))
	}
}

// pipeline walks the stages of `a | b | c`, telling each stage which
// commands feed it. Every stage runs in a subshell, so a cd inside one
// does not outlive it.
func (w *walker) pipeline(cmd *syntax.BinaryCmd, c ctx) {
	var stages []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && len(stages) < MaxCommands {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		stages = append(stages, s)
	}
	flatten(cmd.X)
	flatten(cmd.Y)
	upstream := slices.Clip(c.upstream)
	pipeFrom := c.pipeFrom
	pipeText, pipeKnown := c.pipeText, c.pipeKnown
	pipeFile := c.pipeFile
	var listing *inputListing
	for _, s := range stages {
		first := len(w.facts.Commands)
		dir := w.saveDir()
		w.listing = nil
		w.stmt(s, ctx{pipeFrom: pipeFrom, upstream: upstream, wrappers: c.wrappers, pipeText: pipeText, pipeKnown: pipeKnown, pipeFile: pipeFile, listing: listing})
		w.restoreDir(dir)
		listing = listingOf(s, w.listing)
		w.listing = nil
		pipeText, pipeKnown = w.stageOutput(s, first)
		pipeFile = w.stageFile(s, first)
		// The producer for the next stage is the last command this
		// stage started at its own depth (substitutions come first).
		for i := first; i < len(w.facts.Commands); i++ {
			if cm := w.facts.Commands[i]; cm.Depth == w.depth {
				pipeFrom = cm.Name
				upstream = append(slices.Clip(upstream), cm.Name)
			}
		}
		if len(upstream) > maxUpstream {
			// Keep the nearest; say that earlier producers were
			// dropped, and that what they feed is not known (curl
			// x | cat | ... | sh).
			upstream = slices.Clone(upstream[len(upstream)-maxUpstream:])
			w.incomplete(fmt.Sprintf("pipeline longer than %d commands", maxUpstream))
			w.unknownCode(fmt.Sprintf("a pipeline longer than %d commands", maxUpstream))
		}
	}
}

// cwd returns the current directory in canonical form. Options.Cwd is
// resolved only when a path first needs it, because resolving costs a
// system call per component and most commands name no path at all.
func (w *walker) cwd() string {
	if w.dir != w.opts.Cwd {
		return w.dir // set by cd, popd or a wrapper: already canonical
	}
	if w.cwdResolved == "" {
		c, err := canonpath.Canonical(w.opts.Cwd, "", "")
		if err != nil {
			w.incomplete(fmt.Sprintf("working directory: %v", err))
			c = filepath.Clean(w.opts.Cwd)
		}
		w.cwdResolved = c
	}
	w.dir = w.cwdResolved
	return w.dir
}

// dirState is what a subshell inherits and cannot change for its parent:
// the directory and the variables.
type dirState struct {
	dir   string
	known bool
	stack []string
	vars  map[string]string
}

func (w *walker) saveDir() dirState {
	d := dirState{dir: w.dir, known: w.dirKnown, stack: slices.Clone(w.dirStack)}
	if len(w.vars) > 0 {
		d.vars = maps.Clone(w.vars)
	}
	return d
}

func (w *walker) restoreDir(d dirState) {
	w.dir, w.dirKnown, w.dirStack = d.dir, d.known, d.stack
	switch {
	case d.vars != nil:
		w.vars = d.vars
	case len(w.vars) > 0:
		// There were none: what a subshell assigned must not stay
		// behind ((X=/); rm -rf "$X").
		w.vars = map[string]string{}
	}
}

// setVar records an assignment; conditional ones forget the variable.
func (w *walker) setVar(name, value string, static bool) {
	if name == "" {
		return
	}
	switch {
	case static && w.cond > 0 && !w.noVars:
		// if ...; then F=.env; fi; cat $F: F may hold .env, which
		// is then one place the word names (see maybeValue).
		if w.maybe == nil {
			w.maybe = map[string]string{}
		}
		if _, ok := w.maybe[name]; ok || len(w.maybe) < 256 {
			w.maybe[name] = value
		} else {
			w.unknownCode("more than 256 variables: the rest are not followed")
		}
	case w.cond == 0:
		delete(w.maybe, name)
	}
	if !static || w.cond > 0 || w.noVars {
		delete(w.vars, name)
		w.forget(name)
		return
	}
	if _, ok := w.vars[name]; ok || len(w.vars) < 256 {
		w.vars[name] = value
		return
	}
	// Not kept: a later use would be a word only known at run time,
	// whose reads pass unseen.
	delete(w.vars, name)
	w.unknownCode("more than 256 variables: the rest are not followed")
}

// anyVar records an assignment to a variable whose name is only known at
// run time (declare "$n=/", read "$n", printf -v "$n"): it may be any
// variable, IFS included, so none keeps a value Parse knows.
func (w *walker) anyVar() {
	for n := range w.vars {
		w.forget(n)
	}
	w.forget("HOME")
	w.forget("PWD")
	w.forget("OLDPWD")
	w.vars = map[string]string{}
	w.ifsChanged = true
}

// export records an exported variable's static value (see envReads),
// whether or not the export runs: a later program may have it in its
// environment, and over-reading is the safe side.
func (w *walker) export(name, value string) {
	if w.exported == nil {
		w.exported = map[string]string{}
	}
	if _, ok := w.exported[name]; ok || len(w.exported) < 256 {
		w.exported[name] = value
	} else {
		w.unknownCode("more than 256 exported variables: the rest are not followed")
	}
}

// substs walks every command substitution and process substitution inside
// node (at any depth of words, arithmetic, tests, parameter expansions).
func (w *walker) substs(node syntax.Node) {
	if node == nil {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.nestedStmts(n.Stmts, "command substitution")
			return false
		case *syntax.ProcSubst:
			w.nestedStmts(n.Stmts, "process substitution")
			return false
		}
		return true
	})
}

// nestedStmts walks the body of a substitution one level deeper.
func (w *walker) nestedStmts(list []*syntax.Stmt, what string) {
	if w.depth+1 > w.opts.MaxDepth {
		w.incomplete(fmt.Sprintf("%s nested deeper than %d levels", what, w.opts.MaxDepth))
		w.unknownCode(fmt.Sprintf("%s nested deeper than %d levels", what, w.opts.MaxDepth))
		return
	}
	w.depth++
	dir := w.saveDir()
	w.stmts(list, ctx{})
	w.restoreDir(dir)
	w.depth--
}

// lastName is the name of the last command a substitution starts at its
// own depth: the one whose output becomes the word.
func (w *walker) lastNameSince(first, depth int) string {
	name := ""
	for i := first; i < len(w.facts.Commands); i++ {
		if cm := w.facts.Commands[i]; cm.Depth == depth {
			name = cm.Name
		}
	}
	return name
}

// decl handles declare, local, export, readonly, typeset and nameref: no
// program runs, but the values may hold substitutions, and `export -p` or
// plain `export` dumps the environment, which a policy may care about.
func (w *walker) decl(d *syntax.DeclClause, c ctx) {
	cmd := Command{Name: d.Variant.Value, Path: d.Variant.Value, Wrappers: slices.Clone(c.wrappers), Depth: w.depth, PipeFrom: c.pipeFrom, Upstream: slices.Clone(c.upstream)}
	var as []assignment
	defer func() { w.envCode(as) }()
	exports := d.Variant.Value == "export" || w.allexport
	for _, a := range d.Args {
		switch {
		case a.Naked && a.Value == nil && a.Name == nil:
			continue
		case a.Naked && a.Name == nil && a.Value != nil:
			// A flag such as -x, or a name given as a word: which may
			// also be a whole quoted assignment (export "GIT_EDITOR=x"),
			// or a word only known at run time.
			fs := w.fields(a.Value)
			das := declaredAssignments(fs)
			as = append(as, das...)
			for _, da := range das {
				switch {
				case da.unknown:
					w.anyVar()
				case da.name == "IFS":
					w.ifsChanged = true
				default:
					// declare "F=/": set as F=/ is.
					w.setVar(da.name, da.value, da.static)
				}
			}
			for _, f := range fs {
				if f.known() && strings.HasPrefix(f.s, "-") && strings.Contains(f.s, "n") {
					w.noVars = true
					w.ifsChanged = true // declare -n r=$n; r=,
					w.vars = map[string]string{}
				}
				if f.known() && strings.HasPrefix(f.s, "-") && strings.Contains(f.s, "x") {
					exports = true // declare -x, typeset -x
				}
				cmd.Args = append(cmd.Args, f.arg())
				cmd.Raw = append(cmd.Raw, f.raw)
				cmd.Dynamic = cmd.Dynamic || !f.static
			}
			if exports {
				for _, da := range das {
					if da.static {
						w.export(da.name, da.value)
					}
				}
			}
			continue
		}
		s, static := w.assignValue(a)
		if a.Name != nil {
			name, value, _ := strings.Cut(s, "=")
			switch {
			case !exports || a.Index != nil || a.Array != nil:
			case a.Naked:
				// export F after F=.env: the value set earlier.
				if v, ok := w.vars[name]; ok {
					w.export(name, v)
				}
			case static && !a.Append:
				w.export(name, value)
			}
			w.setVar(name, value, static && !a.Naked && !a.Append && a.Index == nil && a.Array == nil)
			if !a.Naked && a.Index == nil && a.Array == nil {
				as = append(as, assignment{name: name, value: value, static: static && !a.Append, raw: w.rawOf(a)})
			}
		}
		cmd.Args = append(cmd.Args, s)
		cmd.Raw = append(cmd.Raw, w.rawOf(a))
		cmd.Dynamic = cmd.Dynamic || !static
	}
	w.add(cmd)
}

// assignValue renders NAME=value with the value's substitutions walked;
// a value that is not static is left empty.
func (w *walker) assignValue(a *syntax.Assign) (string, bool) {
	name := ""
	if a.Name != nil {
		name = a.Name.Value
	}
	if a.Index != nil {
		w.substs(a.Index)
	}
	if a.Array != nil {
		w.substs(a.Array)
		return name + "=", false
	}
	if a.Naked {
		return name, true
	}
	if a.Value == nil {
		return name + "=", true
	}
	fs := w.assignFields(a.Value)
	if len(fs) > 0 {
		w.noteVarInputs(name, fs[0].inputs)
	}
	if len(fs) == 1 && fs[0].static {
		return name + "=" + fs[0].s, true
	}
	return name + "=", false
}

func (w *walker) rawOf(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(w.src) || start > end {
		return ""
	}
	return w.src[start:end]
}

// add records a command, unless the bound on commands has been reached.
func (w *walker) add(c Command) bool {
	if len(w.facts.Commands) >= MaxCommands {
		w.incomplete(fmt.Sprintf("more than %d commands", MaxCommands))
		w.unknownCode(fmt.Sprintf("more than %d commands: the rest is not analysed", MaxCommands))
		return false
	}
	w.facts.Commands = append(w.facts.Commands, c)
	return true
}

// redirWord expands r's word once: a word with substitutions runs them
// as it is expanded, so expanding it again would record them twice.
func (w *walker) redirWord(r *syntax.Redirect) []field {
	fs, ok := w.redirFields[r]
	if !ok {
		fs = w.fields(r.Word)
		if w.redirFields == nil {
			w.redirFields = map[*syntax.Redirect][]field{}
		}
		w.redirFields[r] = fs
	}
	return fs
}

// redirects records the files a statement's redirections read and write.
// A here-document or here-string is not a file, but its body may hold
// substitutions that run.
func (w *walker) redirects(rs []*syntax.Redirect, _ string) {
	for _, r := range rs {
		if r.Hdoc != nil {
			w.substs(r.Hdoc)
		}
		if r.Word == nil {
			continue
		}
		fs := w.redirWord(r)
		if len(fs) != 1 {
			w.incomplete("redirection target is not one word")
			continue
		}
		f := fs[0]
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
			w.path(f, w.writes, "redirection")
		case syntax.RdrIn:
			w.path(f, w.reads, "redirection")
		case syntax.RdrInOut:
			w.path(f, w.reads, "redirection")
			w.path(f, w.writes, "redirection")
		case syntax.DplOut, syntax.DplIn:
			// >&2 and <&0 duplicate descriptors; >&- closes one. Only
			// `>& file` (bash's spelling of &>) names a file.
			if !f.static {
				w.incomplete("dynamic descriptor in redirection")
				continue
			}
			if f.s == "-" || isDigits(strings.TrimSuffix(f.s, "-")) {
				continue
			}
			if r.Op == syntax.DplOut {
				w.path(f, w.writes, "redirection")
			} else {
				w.path(f, w.reads, "redirection")
			}
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			// Not files; the body was walked above (a here-string's
			// word by fields).
		}
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// stdinText returns the static text a statement feeds a command on stdin
// through a here-document or here-string, if any.
func (w *walker) stdinText(rs []*syntax.Redirect) (text string, ok bool, found bool) {
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			found = true
			if r.Hdoc == nil {
				return "", true, true
			}
			s, static := w.heredocText(r.Hdoc, quotedWord(r.Word))
			return s, static, true
		case syntax.WordHdoc:
			found = true
			fs := w.fieldsQuiet(r.Word)
			if len(fs) == 1 && fs[0].static {
				return fs[0].s + "\n", true, true
			}
			return "", false, true
		}
	}
	return "", false, false
}

// heredocText renders a here-document body: literal text stays as is
// (a quoted delimiter leaves the whole body one literal), expansions make
// it dynamic.
func (w *walker) heredocText(word *syntax.Word, quoted bool) (string, bool) {
	var b strings.Builder
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if quoted {
				b.WriteString(p.Value)
			} else {
				b.WriteString(unescapeHeredoc(p.Value))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// quotedWord reports whether any part of a here-document delimiter is
// quoted, which makes the body literal.
func quotedWord(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		}
	}
	return false
}

// unescapeHeredoc removes the backslashes an unquoted here-document gives
// meaning to: before $, `, \ and newline.
func unescapeHeredoc(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '\\':
				b.WriteByte(s[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// baseName is the program name a command word stands for.
func baseName(p string) string {
	if p == "" {
		return ""
	}
	b := path.Base(p)
	if b == "/" || b == "." {
		return p
	}
	return b
}
