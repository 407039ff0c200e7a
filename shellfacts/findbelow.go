package shellfacts

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// BelowFilter says which entries below a DeletesBelow or WritesBelow
// directory the finds that act there may reach: an entry whose base name
// matches every pattern of one of the Names lists (a find's -name and
// -iname tests, in fnmatch syntax as written; -iname ignores case). A
// directory that some find acts below without such a test has no
// BelowFilter: any entry below it may be reached.
type BelowFilter struct {
	Dir   string
	Names [][]string
}

// findNameFilter returns the -name and -iname patterns every entry a
// find expression acts on must match, or nil when it cannot tell (no
// such test, or operators, negation or parentheses that may let other
// entries through, or a word it does not know).
func findNameFilter(expr []field) []string {
	var names []string
	for i := 0; i < len(expr); i++ {
		f := expr[i]
		if !f.known() {
			return nil
		}
		switch f.s {
		case "-name", "-iname":
			if i+1 >= len(expr) || !expr[i+1].known() {
				return nil
			}
			names = append(names, expr[i+1].s)
			i++
		case "-a", "-and", "-true", "-depth", "-d", "-mount", "-xdev", "-follow", "-noleaf", "-ignore_readdir_race",
			"-noignore_readdir_race", "-daystart", "-warn", "-nowarn", "-delete", "-print", "-print0", "-ls", "-quit",
			"-prune", "-empty", "-executable", "-readable", "-writable", "-nouser", "-nogroup", "-false":
		case "-maxdepth", "-mindepth", "-regextype", "-fprint", "-fprint0", "-fls", "-printf", "-path", "-ipath",
			"-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype", "-user", "-group", "-uid", "-gid",
			"-perm", "-size", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-newer", "-anewer", "-cnewer",
			"-samefile", "-inum", "-links", "-fstype", "-lname", "-ilname", "-used", "-context":
			i++
		case "-fprintf":
			i += 2
		case "-exec", "-execdir", "-ok", "-okdir":
			for i++; i < len(expr) && !(expr[i].known() && (expr[i].s == ";" || expr[i].s == "+")); i++ {
			}
		default:
			// -o, -or, ",", "!", -not, parentheses, and anything else.
			return nil
		}
	}
	return names
}

// addBelow records fs (a find's starting points) in set (w.below or
// w.writesBelow) as directories below which entries matching names are
// acted on; removal resolves them as removal targets (entries: as
// directory entries). A starting point only known at run time is an
// unresolved target.
func (w *walker) addBelow(fs []field, set map[string]bool, names []string, removal, entries bool, what string) {
	tmp := map[string]bool{}
	if removal {
		w.removeTo(fs, tmp, entries, what)
	} else {
		for _, f := range fs {
			if !f.known() || f.glob {
				w.unresolvedWrite(w.writes, f.raw)
			}
		}
		w.pathsTo(fs, tmp, what)
	}
	for d := range tmp {
		set[d] = true
		if mapsSame(set, w.below) || mapsSame(set, w.writesBelow) {
			w.belowFilter(d, names)
		}
	}
}

// belowFilter notes that a find acts below d on entries matching names
// (nil: on any entry).
func (w *walker) belowFilter(d string, names []string) {
	if w.belowAny == nil {
		w.belowAny, w.belowNames = map[string]bool{}, map[string][][]string{}
	}
	if names == nil {
		w.belowAny[d] = true
		return
	}
	for _, have := range w.belowNames[d] {
		if slices.Equal(have, names) {
			return
		}
	}
	if len(w.belowNames[d]) < 16 {
		w.belowNames[d] = append(w.belowNames[d], slices.Clone(names))
	} else {
		w.belowAny[d] = true
	}
}

// fromFindMatch handles a path operand holding find -exec's {} (the
// match, below find's starting points): a write target is a write below
// them, a removal target a removal below them, as the find's tests pick.
func (w *walker) fromFindMatch(set map[string]bool, what string) {
	roots, names := w.findRoots, w.findNames
	switch {
	case mapsSame(set, w.writes):
		w.findRoots = nil
		w.addBelow(roots, w.writesBelow, names, false, false, "find -exec "+what)
		w.findRoots = roots
	case w.removing && mapsSame(set, w.deletes):
		removing, entry := w.removing, w.entry
		w.findRoots = nil
		if mapsSame(w.findSet, w.below) {
			w.addBelow(roots, w.below, names, true, true, "find -exec "+what)
		} else {
			w.removeTo(roots, w.findSet, true, "find -exec "+what)
		}
		w.findRoots, w.removing, w.entry = roots, removing, entry
	}
}

func (w *walker) belowFilters() []BelowFilter {
	var out []BelowFilter
	for _, d := range sortedKeys(w.below) {
		out = w.appendFilter(out, d)
	}
	for _, d := range sortedKeys(w.writesBelow) {
		if !w.below[d] {
			out = w.appendFilter(out, d)
		}
	}
	slices.SortFunc(out, func(a, b BelowFilter) int { return strings.Compare(a.Dir, b.Dir) })
	return out
}

func (w *walker) appendFilter(out []BelowFilter, d string) []BelowFilter {
	if w.belowAny[d] || len(w.belowNames[d]) == 0 {
		return out
	}
	return append(out, BelowFilter{Dir: d, Names: w.belowNames[d]})
}

// inputListing is what a find or grep in a pipeline prints when that is
// only paths below its starting points, each ended by a NUL: find
// ROOTS ... -print0 (not following links, no other output) and grep
// -lZ or -LZ over FILES or -r DIRS. xargs -0 then hands each path whole
// to the program it runs, which acts on it as find -exec's {} is acted
// on: below those starting points. Without -0 xargs splits at blanks
// and reads quotes, so a directory named "a " holding root/.bashrc
// hands it "/root/.bashrc": that stays a path only known at run time.
type inputListing struct {
	roots []field
	set   map[string]bool // deletes or below, as for find -exec
	names []string
}

// listedInput is the raw text of the argument xargs -0 takes from a
// listing (see findMatchWord).
const listedInput = "{} (arguments from input)"

// findMatchWord reports whether an operand written raw stands for what
// find -exec matches (or an xargs -0 listing prints): {} at its start,
// quoted or not, and nothing after it that leaves the match's place
// ({}.bak, {}/x); in the code of a shell find runs, the match stands as
// "$__vouch_find_match". /tmp/{} or {}/../.. is somewhere else, a path
// only known at run time.
func findMatchWord(raw string) bool {
	r := strings.TrimLeft(raw, `'"`)
	return (strings.HasPrefix(r, "{}") || strings.HasPrefix(r, "$__vouch_find_match")) && !strings.Contains(r, "..")
}

// listingOf returns the listing a pipeline stage prints: the one its
// find or grep noted, when the stage is that one simple command with
// stdout left to the pipe.
func listingOf(s *syntax.Stmt, l *inputListing) *inputListing {
	if l == nil || s.Negated || s.Background {
		return nil
	}
	if _, ok := s.Cmd.(*syntax.CallExpr); !ok {
		return nil
	}
	for _, r := range s.Redirs {
		if r.N == nil || r.N.Value != "2" {
			return nil
		}
	}
	return l
}

// noteListing records what a find or grep prints when it is a listing
// (see inputListing): roots must be static paths.
func (w *walker) noteListing(roots []field, set map[string]bool, names []string) {
	if len(roots) == 0 {
		return
	}
	for _, f := range roots {
		if !f.known() || f.glob || f.s == "-" {
			return
		}
	}
	w.listing = &inputListing{roots: roots, set: set, names: names}
}
