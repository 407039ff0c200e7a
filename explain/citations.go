package explain

import (
	"fmt"
	"github.com/vouch-dev/vouch/output"
	"strconv"
	"strings"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/compile"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/rulespec"
)

// maxCitations bounds how many citations of one check an explanation
// lists; an array claim may cite thousands of paths.
const maxCitations = 50

// Citation is what the evaluated program held about one path an evidence
// check (file_exists, no_file_exists) cites. Every field is read from the
// store's ref_* facts and the derived found/ref_invalid facts; nothing is
// recomputed from the working tree.
type Citation struct {
	// Check is the check that cites it: p<I> for the predicate, w<I> for
	// its when condition.
	Check string `json:"check"`
	Ref   string `json:"ref"`
	// Kind is what exists at the path (file, dir, other), from
	// ref_exists; empty when nothing does.
	Kind string `json:"kind,omitempty"`
	// Lines is the file's line count, from ref_lines; 0 when not recorded.
	Lines int64 `json:"lines,omitempty"`
	// First and Last are the cited line range, from ref_range.
	First int64 `json:"first,omitempty"`
	Last  int64 `json:"last,omitempty"`
	// Root and Git are ref_root and ref_git.
	Root bool `json:"root,omitempty"`
	Git  bool `json:"git,omitempty"`
	// Invalid is the reason of ref_invalid: why the path is not evidence.
	Invalid string `json:"invalid,omitempty"`
	// Found is the derived found(Ref).
	Found bool `json:"found"`
	// Facts are those facts as the store holds them.
	Facts []string `json:"facts"`
}

// Describe renders a citation for a person:
// `"src/a.go:3-5" — regular file, 40 lines: found`.
func (c Citation) Describe() string {
	ref := strconv.Quote(c.Ref)
	if c.Invalid != "" {
		return ref + " — " + c.Invalid
	}
	var parts []string
	switch c.Kind {
	case "":
		parts = append(parts, "nothing at this path")
	case "file":
		parts = append(parts, "regular file")
	case "dir":
		parts = append(parts, "a directory")
	default:
		parts = append(parts, "exists, not a regular file")
	}
	if c.Lines > 0 || (c.Kind == "file" && c.First > 0) {
		parts = append(parts, output.Count(int(c.Lines), "line"))
	}
	status := "not found"
	if c.Found {
		status = "found"
	} else if c.First > 0 && c.Kind == "file" {
		status = fmt.Sprintf("not found (lines %d-%d are not all in the file)", c.First, c.Last)
	}
	return ref + " — " + strings.Join(parts, ", ") + ": " + status
}

// citations lists, for each evidence check of p, the store's facts about
// every path it cites, at most maxCitations per check; omitted counts the
// rest.
func citations(p rulespec.Predicate, res *datalog.Result) (out []Citation, omitted int) {
	checks := []struct {
		rule rulespec.Rule
		id   string
	}{{p.Rule, compile.PredicateCheck(p.Index)}}
	if p.When != nil {
		checks = append(checks, struct {
			rule rulespec.Rule
			id   string
		}{p.When.Rule, compile.ConditionCheck(p.Index)})
	}
	v := ast.Variable{Symbol: "_"}
	for _, ch := range checks {
		if !ch.rule.Evidence() {
			continue
		}
		cites := query(res, "cites", ast.String(ch.id), v)
		for i, f := range cites {
			if i == maxCitations {
				omitted += len(cites) - maxCitations
				break
			}
			out = append(out, citation(ch.id, stringArg(f, 1), res))
		}
	}
	return out, omitted
}

// citation reads one cited path's facts from the store.
func citation(check, ref string, res *datalog.Result) Citation {
	c := Citation{Check: check, Ref: ref, Facts: []string{}}
	r := ast.String(ref)
	v := ast.Variable{Symbol: "_"}
	add := func(fs []ast.Atom) []ast.Atom {
		for _, f := range fs {
			c.Facts = append(c.Facts, datalog.FormatFact(f))
		}
		return fs
	}
	if fs := add(query(res, "ref_exists", r, v)); len(fs) > 0 {
		c.Kind = strings.TrimPrefix(nameArg(fs[0], 1), "/")
	}
	if fs := add(query(res, "ref_lines", r, v)); len(fs) > 0 {
		c.Lines = intArg(fs[0], 1)
	}
	if fs := add(query(res, "ref_range", r, v, v)); len(fs) > 0 {
		c.First, c.Last = intArg(fs[0], 1), intArg(fs[0], 2)
	}
	c.Root = len(add(query(res, "ref_root", r))) > 0
	c.Git = len(add(query(res, "ref_git", r))) > 0
	if fs := add(query(res, "ref_invalid", r, v)); len(fs) > 0 {
		// Several reasons can hold (a directory inside .git); list all in
		// Facts and show the first.
		c.Invalid = stringArg(fs[0], 1)
	}
	c.Found = len(add(query(res, "found", r))) > 0
	return c
}

// stringArg is argument i as a string, or its printed form when it is
// not a string constant.
func stringArg(a ast.Atom, i int) string {
	if s, ok := datalog.String(a.Args[i]); ok {
		return s
	}
	return a.Args[i].String()
}

// nameArg is argument i as a name ("/file"), or any other constant's
// symbol, or its printed form.
func nameArg(a ast.Atom, i int) string {
	if s, ok := datalog.Name(a.Args[i]); ok {
		return s
	}
	if c, ok := a.Args[i].(ast.Constant); ok {
		return c.Symbol
	}
	return a.Args[i].String()
}

// intArg is argument i as a number, 0 when it is not one.
func intArg(a ast.Atom, i int) int64 {
	n, _ := datalog.Number(a.Args[i])
	return n
}
