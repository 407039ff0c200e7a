package repofacts

import (
	"path"
	"strings"
)

// vouchDir is the directory at the root that vouch keeps its files in.
// Only the files listed by ownFiles are vouch's; anything else there
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

// ownPatterns are the files vouch writes under .vouch on its own, as
// path.Match patterns relative to the root: the default envelope, the
// default output directory's artifacts (the envelope's directory), the
// extraction cache of imports and lint, the guard's compiled-policy
// cache, its audit log and its session logs, and the JSON Schemas of
// `vouch schema` where docs/schema.md saves them (data for editors that
// would otherwise show up, ignored and uncommitted, in every change).
func ownPatterns() []string {
	p := []string{
		vouchDir + "/envelope.yaml",
		vouchDir + "/envelope.schema.json",
		vouchDir + "/rulespec.schema.json",
		vouchDir + "/rulespec-test.schema.json",
		vouchDir + "/cache/imports.bin",
		vouchDir + "/cache/imports.bin.tmp*",
		vouchDir + "/cache/guard-*.json",
		vouchDir + "/guard/audit.jsonl",
		vouchDir + "/guard/sessions/*.log",
		vouchDir + "/lint/architecture.compiled.dl",
		vouchDir + "/lint/lint_evaluation.txt",
	}
	for _, n := range ArtifactNames() {
		p = append(p, vouchDir+"/"+n)
	}
	return p
}

// ownSet says which root-relative paths are vouch's own files.
type ownSet struct {
	exact    map[string]bool
	patterns []string
}

// ownFiles is the set of vouch's own files: ownPatterns, and each of
// given (root-relative exclusions) as a file and as an output directory
// holding ArtifactNames.
func ownFiles(given []string) ownSet {
	o := ownSet{exact: map[string]bool{}, patterns: ownPatterns()}
	for _, g := range given {
		if g == "." {
			continue // the root is not an output; its work is
		}
		o.exact[g] = true
		for _, n := range ArtifactNames() {
			o.exact[g+"/"+n] = true
		}
	}
	return o
}

// atomicTag marks internal/atomicfile's temporary files,
// ".NAME.vouch-tmp-PID-RANDOM" beside NAME.
const atomicTag = ".vouch-tmp-"

// has reports whether p is one of vouch's own files, or the temporary
// file of an atomic write of one.
func (o ownSet) has(p string) bool {
	if o.match(p) {
		return true
	}
	dir, name := path.Split(p)
	if i := strings.Index(name, atomicTag); strings.HasPrefix(name, ".") && i > 1 {
		return o.match(dir + name[1:i])
	}
	return false
}

func (o ownSet) match(p string) bool {
	if o.exact[p] {
		return true
	}
	for _, pat := range o.patterns {
		if ok, _ := path.Match(pat, p); ok {
			return true
		}
	}
	return false
}
