package repofacts

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrNoBase is wrapped by the *Error Collect returns when no base is
// given and none can be found, in a repository where HEAD cannot stand
// in for one: it has a remote, so the work is expected to be compared
// with that remote's default branch, or it is a shallow clone. Comparing
// with HEAD there would compare committed work with itself, and every
// rule on what changed would pass on an empty list.
var ErrNoBase = errors.New("no base to compare the work with")

// emptyTree is git's id of the empty tree: the base of a repository that
// has no commit yet, so every file is added.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// resolveBase finds the base commit: the one given, else the merge-base
// of HEAD with the default branch's remote-tracking branch, else HEAD in
// a repository with no remote (one that is only local, where only
// uncommitted work can be compared). It returns a description of the
// base and the commit id.
//
// HEAD is refused as a default where a remote exists or the clone is
// shallow: CI checks out the pushed commit, often at depth 1 with no
// other branch, and HEAD is then the agent's last commit.
func resolveBase(ctx context.Context, g *git, opts Options) (string, string, error) {
	if opts.Base != "" {
		from := opts.BaseFrom
		if from == "" {
			from = "--base"
		}
		if strings.HasPrefix(opts.Base, "-") {
			return "", "", &Error{Msg: fmt.Sprintf("repository facts: %s %q is not a revision (it starts with '-')", from, opts.Base)}
		}
		out, err := g.run(ctx, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", opts.Base+"^{commit}")
		if err != nil {
			if e, ok := err.(*Error); ok {
				return "", "", e
			}
			return "", "", &Error{Msg: fmt.Sprintf("repository facts: %s %q does not name a commit in this repository; give a branch, tag or commit that exists (git rev-parse --verify %s fails), or fetch it first", from, opts.Base, opts.Base)}
		}
		return opts.Base, strings.TrimSpace(string(out)), nil
	}
	head, err := g.run(ctx, nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		if e, ok := err.(*Error); ok {
			return "", "", e
		}
		// No commit yet: everything in the tree is new.
		return "(no commits)", emptyTree, nil
	}
	up := defaultUpstream(ctx, g)
	if up != "" {
		if mb, err := g.run(ctx, nil, "merge-base", "HEAD", up); err == nil {
			return "merge-base HEAD " + up, strings.TrimSpace(string(mb)), nil
		}
	}
	if why := noHeadBase(ctx, g, up); why != "" {
		return "", "", &Error{Err: ErrNoBase, Msg: "repository facts: no base: " + why +
			", so the work would be compared with HEAD, its own last commit; fetch the default branch with its history " +
			"(in GitHub Actions: actions/checkout with fetch-depth: 0), or pin the base with --base or base: in vouch.yaml"}
	}
	return "HEAD", strings.TrimSpace(string(head)), nil
}

// noHeadBase says why HEAD cannot stand in for the default base, or ""
// when it can. up is the default branch's remote-tracking branch, if
// any; the caller found no merge-base with it.
func noHeadBase(ctx context.Context, g *git, up string) string {
	if out, err := g.run(ctx, nil, "rev-parse", "--is-shallow-repository"); err != nil || strings.TrimSpace(string(out)) != "false" {
		return "this is a shallow clone"
	}
	if up != "" {
		return "HEAD has no common ancestor with " + strings.TrimPrefix(up, "refs/remotes/")
	}
	out, err := g.run(ctx, nil, "remote")
	if err != nil {
		return "the repository's remotes cannot be listed"
	}
	if remotes := strings.Fields(string(out)); len(remotes) > 0 {
		return "the repository has a remote (" + remotes[0] + ") but origin's default branch is not in this clone " +
			"(no refs/remotes/origin/HEAD, origin/main or origin/master)"
	}
	return ""
}

// defaultUpstream is the remote-tracking branch of the default branch:
// what origin/HEAD points at, else origin/main, else origin/master; ""
// when there is none.
func defaultUpstream(ctx context.Context, g *git) string {
	if out, err := g.run(ctx, nil, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"); err == nil {
		if ref := strings.TrimSpace(string(out)); ref != "" {
			return ref
		}
	}
	for _, ref := range []string{"refs/remotes/origin/main", "refs/remotes/origin/master"} {
		if _, err := g.run(ctx, nil, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err == nil {
			return ref
		}
	}
	return ""
}
