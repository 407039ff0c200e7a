package repofacts

import (
	"path"
	"slices"
	"strings"
)

// vouchDir is the directory at the root that vouch keeps its files in.
// Only the files ownFiles names are vouch's; anything else there
// (.vouch/.gitignore, the guard policy, a script) is part of the work.
const vouchDir = ".vouch"

// ArtifactNames are the files vouch writes into an output directory,
// relative to it: the verification program and trace, the receipt, the
// gate program, and the architecture program and trace (directly, from
// vouch lint --out, and under lint/, from the gate). They match
// gate.Outputs, verify's, receipt's and lint's file names; a test keeps
// them in step.
func ArtifactNames() []string {
	return []string{
		"architecture.compiled.dl",
		"datalog_evaluation.txt",
		"gate.compiled.dl",
		"lint/architecture.compiled.dl",
		"lint/lint_evaluation.txt",
		"lint_evaluation.txt",
		"rulespec.compiled.dl",
		"verification.json",
	}
}

// ownExact are the files vouch writes under .vouch wherever its output
// directory is: the default envelope, the extraction cache of imports and
// lint, the guard's audit log, the JSON Schemas of `vouch schema` where
// docs/schema.md saves them, and what `vouch lint` writes without --out
// (.vouch/lint). The artifacts of a gate or verify are vouch's only in
// the output directories the caller names (Options.Exclude).
func ownExact() []string {
	return []string{
		vouchDir + "/envelope.yaml",
		vouchDir + "/envelope.schema.json",
		vouchDir + "/rulespec.schema.json",
		vouchDir + "/rulespec-test.schema.json",
		vouchDir + "/cache/imports.bin",
		vouchDir + "/guard/audit.jsonl",
		vouchDir + "/lint/architecture.compiled.dl",
		vouchDir + "/lint/lint_evaluation.txt",
	}
}

// ownNamed reports whether p is one of the files under .vouch whose names
// vouch makes up, spelled exactly as its writers spell them: the imports
// cache's temporary file (os.CreateTemp's "imports.bin.tmp" and
// decimal digits), the guard's compiled-policy cache ("guard-", 40
// lowercase hex digits, ".json") and its session logs and the sets of
// files their sessions wrote (32 lowercase hex digits, ".log" or
// ".writes").
func ownNamed(p string) bool {
	dir, name := path.Split(p)
	switch dir {
	case vouchDir + "/cache/":
		if d, ok := strings.CutPrefix(name, "imports.bin.tmp"); ok {
			return digits(d)
		}
		if h, ok := strings.CutPrefix(name, "guard-"); ok {
			h, ok = strings.CutSuffix(h, ".json")
			return ok && len(h) == 40 && lowerHex(h)
		}
	case vouchDir + "/guard/sessions/":
		h, ok := strings.CutSuffix(name, ".log")
		if !ok {
			h, ok = strings.CutSuffix(name, ".writes")
		}
		return ok && len(h) == 32 && lowerHex(h)
	}
	return false
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func lowerHex(s string) bool {
	return s != "" && strings.Trim(s, "0123456789abcdef") == ""
}

// ownSet says which root-relative paths are vouch's own files.
type ownSet struct {
	// envelope is left out even when tracked: it is committed with the
	// work, and vouch reads it as the envelope, not as work.
	envelope string
	exact    map[string]bool
}

// ownFiles is the set of vouch's own files: ownExact, ownNamed, and each
// of outputs (root-relative) as a file and as an output directory holding
// ArtifactNames; envelope (root-relative, or "") is the envelope.
func ownFiles(envelope string, outputs []string) ownSet {
	o := ownSet{envelope: envelope, exact: map[string]bool{}}
	for _, p := range ownExact() {
		o.exact[p] = true
	}
	for _, g := range outputs {
		if g == "." || g == "" {
			continue // the root is not an output; its work is
		}
		o.exact[g] = true
		for _, n := range ArtifactNames() {
			o.exact[g+"/"+n] = true
		}
	}
	if envelope != "" {
		o.exact[envelope] = true
	}
	return o
}

// atomicTag marks internal/atomicfile's temporary files,
// ".NAME.vouch-tmp-PID-RANDOM" beside NAME, PID and RANDOM decimal.
const atomicTag = ".vouch-tmp-"

// has reports whether p is one of vouch's own files, or the temporary
// file of an atomic write of one. tracked says p is in the base tree or
// the repository's index: vouch's own files are never committed, so such
// a path is work (code an agent committed under an artifact's name would
// otherwise be left out in CI's fresh clone too), except the envelope.
func (o ownSet) has(p string, tracked bool) bool {
	if o.envelope != "" && p == o.envelope {
		return true
	}
	if tracked {
		return false
	}
	if o.match(p) {
		return true
	}
	dir, name := path.Split(p)
	i := strings.Index(name, atomicTag)
	if !strings.HasPrefix(name, ".") || i <= 1 {
		return false
	}
	pid, n, ok := strings.Cut(name[i+len(atomicTag):], "-")
	return ok && digits(pid) && digits(n) && o.match(dir+name[1:i])
}

// names are the paths of vouch's own files that have fixed names (all but
// ownNamed's and the atomic writes' temporary files), sorted: the files a
// pattern may come to match once vouch writes them.
func (o ownSet) names() []string {
	out := make([]string, 0, len(o.exact))
	for p := range o.exact {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func (o ownSet) match(p string) bool {
	return o.exact[p] || ownNamed(p)
}
