package verify

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/vouch-dev/vouch/datalog"
)

// EvidenceFiles are the cited paths the program's evidence facts found as
// regular files: every citation with ref_exists(R, /file) and nothing
// marking it invalid, at the root or inside .git, by its path without the
// line suffix, sorted, with the sha256 read while each was checked (the
// run needs Input.HashEvidence). A receipt records them, so deleting or
// editing one after the gate breaks it, and nothing is read again after
// the decision. Only verify and compile know these relation names;
// callers get paths.
func (o *Outcome) EvidenceFiles() ([]EvidenceFile, error) {
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
	sums := map[string]string{}
	for ref := range files {
		if bad[ref] {
			continue
		}
		info, ok := o.Program.Evidence[ref]
		if !ok {
			continue
		}
		p := info.Ref.Path
		if info.SHA256 == "" {
			return nil, fmt.Errorf("evidence %s was not hashed while it was checked (Input.HashEvidence)", p)
		}
		if prev, ok := sums[p]; ok && prev != info.SHA256 {
			return nil, fmt.Errorf("evidence %s changed while it was checked; run again", p)
		}
		sums[p] = info.SHA256
	}
	out := make([]EvidenceFile, 0, len(sums))
	for _, p := range slices.Sorted(maps.Keys(sums)) {
		out = append(out, EvidenceFile{Path: p, SHA256: sums[p]})
	}
	return out, nil
}

// EvidenceFile is a cited file the evidence rules found, with the sha256
// of the bytes read while it was checked.
type EvidenceFile struct {
	Path, SHA256 string
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
