package repofacts

import (
	"context"
	"fmt"
	"strings"
)

// emptyTree is git's id of the empty tree: the base of a repository that
// has no commit yet, so every file is added.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// resolveBase finds the base commit: the one given, else the merge-base
// of HEAD with the default branch's remote-tracking branch, else HEAD.
// It returns a description of the base and the commit id.
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
	if up := defaultUpstream(ctx, g); up != "" {
		if mb, err := g.run(ctx, nil, "merge-base", "HEAD", up); err == nil {
			return "merge-base HEAD " + up, strings.TrimSpace(string(mb)), nil
		}
	}
	return "HEAD", strings.TrimSpace(string(head)), nil
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
