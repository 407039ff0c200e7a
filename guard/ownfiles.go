package guard

import (
	"path/filepath"
	"strings"

	"github.com/vouch-dev/vouch/canonpath"
	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/yamldoc"
)

// ownFiles are the files of vouch's that the invocation names rather than
// the repository's layout, canonical: the guard policy in use, wherever
// --policy or guard.policy in vouch.yaml puts it (the vouch.yaml holding
// an inline one), and the compiled-policy cache under the root, whose
// entries the hook trusts as it trusts the policy. protect-vouch's
// patterns name only the default places; these follow the setup.
func ownFiles(x DeriveContext, root string) []string {
	var own []string
	if x.Policy != "" {
		p := yamldoc.At(x.Dir, strings.TrimSuffix(x.Policy, config.InlinePolicy))
		if abs, err := filepath.Abs(p); err == nil {
			if c, err := canonpath.Canonical(abs, "/", ""); err == nil {
				own = append(own, c)
			}
		}
	}
	if root != "" {
		own = append(own, filepath.Join(root, ".vouch", "cache"))
	}
	return own
}

// withinFold is canonpath.Within ignoring case: on a case-insensitive
// file system POLICIES/GUARD.YAML is the policy.
func withinFold(p, dir string) bool {
	return canonpath.Within(strings.ToLower(p), strings.ToLower(dir))
}

// writesOwn lists what the call writes or removes of the files own
// names (ownFiles): a write or removal of one of them or of something
// inside it (an entry of the cache), a removal of a directory holding
// one, and a tree written, or a find acting below a directory, that takes
// one in (a find whose -name tests cannot match any name on the way to
// it aside).
func (f *CallFacts) writesOwn(own []string) []string {
	var out []string
	for _, o := range own {
		for _, p := range f.Writes {
			if withinFold(p, o) {
				out = append(out, p)
			}
		}
		for _, p := range f.Deletes {
			if withinFold(p, o) || withinFold(o, p) {
				out = append(out, p)
			}
		}
		for _, d := range f.WritesTrees {
			if (withinFold(o, d) || withinFold(d, o)) && !f.keptTreeSafe(d, own) {
				out = append(out, d)
			}
		}
		for _, d := range append(append([]string{}, f.DeletesBelow...), f.WritesBelow...) {
			if withinFold(d, o) || (withinFold(o, d) && f.belowMayReach(d, o)) {
				out = append(out, d)
			}
		}
	}
	return uniq(out)
}

// belowMayReach reports whether a find acting below d may reach the
// entry o inside it: all the -name tests of one of its alternatives
// could match one of the names between d and o (a find tests each entry
// it walks, directories included), or one of vouchNames (the entries of
// the cache directory).
func (f *CallFacts) belowMayReach(d, o string) bool {
	alts, ok := f.belowNames[d]
	if !ok || alts == nil {
		return true
	}
	rel, err := filepath.Rel(d, o)
	if err != nil {
		return true
	}
	names := append(strings.Split(filepath.ToSlash(rel), "/"), vouchNames()...)
	return anyAltMatches(alts, names)
}
