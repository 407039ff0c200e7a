package repofacts

import (
	"context"
	"slices"
	"strconv"
	"strings"
)

// list runs a git command that lists the work tree's untracked files
// and returns its standard output, as run does, but fails when git
// warns on its standard error: git ls-files --others prints "warning:
// could not open directory 'x/': Permission denied" for a directory it
// cannot read and still exits 0, and the files there would be missing
// from the work (from changed, the stamp, imports) while the agent that
// made the directory unreadable to git can still run them.
func (g *git) list(ctx context.Context, args ...string) ([]byte, error) {
	out, warnings, err := g.runErr(ctx, nil, args...)
	if err != nil {
		return nil, err
	}
	if msg := listingWarnings(string(warnings)); msg != "" {
		return nil, &Error{Msg: "could not list the work tree completely, so files of the work would be missing from it; make every directory of the work readable:\n  " + msg}
	}
	return out, nil
}

// listingWarnings is what git said on its standard error while listing,
// one line each as ShownPath quotes it, or "" when it said nothing
// ("warning:", "error:" or "fatal:" lines are all the work's: git names
// what it could not read).
func listingWarnings(stderr string) string {
	var out []string
	for l := range strings.SplitSeq(stderr, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, ShownPath(l))
		}
	}
	return strings.Join(out, "\n  ")
}

// localPath reports whether the '/'-separated path p, as git listed it,
// names a file below the root: not absolute, no empty, "." or ".."
// component. git writes no other path into an index or a tree, but the
// work can write .git/index itself, and vouch would read, hash and parse
// the file outside the root that such an entry names.
func localPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") {
		return false
	}
	for c := range strings.SplitSeq(p, "/") {
		if c == "" || c == "." || c == ".." {
			return false
		}
	}
	return true
}

// nonLocal refuses the paths of a listing (what names says they are)
// that localPath rejects, each quoted.
func nonLocal(what string, paths []string) error {
	var bad []string
	for _, p := range paths {
		if !localPath(p) {
			bad = append(bad, strconv.Quote(p))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return &Error{Msg: what + " names paths outside the work tree, which git never writes there; vouch reads none of them (restore the index with git reset, or the tree it came from):\n  " + strings.Join(slices.Compact(bad), "\n  ")}
}

// stagePaths are the paths of "MODE ID STAGE\tPATH" records of git
// ls-files -s -z output, after a "T " tag with tagged; a record
// parseStage does not read is left to the caller, which refuses it.
func stagePaths(out []byte, tagged bool) []string {
	var ps []string
	for _, rec := range splitZ(out) {
		if tagged {
			if len(rec) < 3 {
				continue
			}
			rec = rec[2:]
		}
		if _, p, ok := parseStage(rec); ok {
			ps = append(ps, p)
		}
	}
	return ps
}
