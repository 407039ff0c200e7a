package verify

import (
	"path/filepath"
	"slices"

	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/evidence"
)

// EvidenceFiles are the cited paths the program's evidence facts found as
// regular files: every citation with ref_exists(R, /file) and nothing
// marking it invalid, at the root or inside .git, by its path without the
// line suffix, sorted. A receipt hashes them, so deleting or editing one
// after the gate breaks it. Only verify and compile know these relation
// names; callers get paths.
func (o *Outcome) EvidenceFiles() []string {
	files := map[string]bool{}
	bad := map[string]bool{}
	for _, f := range o.Program.Facts() {
		if len(f.Args) == 0 {
			continue
		}
		ref, ok := datalog.String(f.Args[0])
		if !ok {
			continue
		}
		switch f.Predicate.Symbol {
		case "ref_exists":
			if kind, ok := datalog.Name(f.Args[len(f.Args)-1]); ok && kind == "/file" {
				files[ref] = true
			}
		case "ref_invalid", "ref_git", "ref_root":
			bad[ref] = true
		}
	}
	var paths []string
	for ref := range files {
		if bad[ref] {
			continue
		}
		r, err := evidence.ParseRef(ref)
		if err != nil {
			continue
		}
		paths = append(paths, r.Path)
	}
	slices.Sort(paths)
	return paths
}

// EvidenceOutDir is the configured output directory as evidence checks
// must exclude it (Input.OutDir): vouch's own artifacts prove nothing about
// the work. Only a directory set with --out or vouch.yaml counts (the
// default, the envelope's directory, may hold the work itself), and never
// the root.
func EvidenceOutDir(out, root string) string {
	if out == "" {
		return ""
	}
	absOut, err1 := filepath.Abs(out)
	absRoot, err2 := filepath.Abs(root)
	if err1 != nil || err2 != nil || absOut == absRoot {
		return ""
	}
	return absOut
}
