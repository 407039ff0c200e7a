package rulecheck

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/rulespec"
)

// Report is the outcome of checking several rulespec files: what each
// held and every warning, in file order. It is the JSON shape of
// `vouch check --format json`.
type Report struct {
	Files    []File    `json:"files"`
	Warnings []Warning `json:"warnings"`
}

// File counts what one checked rulespec holds.
type File struct {
	File       string `json:"file"`
	Claims     int    `json:"claims"`
	Predicates int    `json:"predicates"`
	Warnings   int    `json:"warnings"`
}

// Request is a `vouch check` invocation.
type Request struct {
	// Paths are the rulespecs to check; none is vouch.yaml's (else the
	// default) under the repository root.
	Paths []string
	// Root is --root; RootSet says it was given (see config.LoadRoot).
	Root    string
	RootSet bool
}

// Run checks the rulespecs req names. vouch.yaml is read only when no
// path is given, so checking named files works in any directory, even
// one with a broken vouch.yaml.
func Run(req Request) (*Report, error) {
	paths := req.Paths
	if len(paths) == 0 {
		cfg, err := config.LoadRoot(req.Root, req.RootSet)
		if err != nil {
			return nil, err
		}
		paths = []string{cfg.Rulespec}
	}
	return CheckFiles(paths)
}

// CheckFiles loads each rulespec as verify does and checks it. Any file
// that does not load makes the error, which lists every such file's
// problems (file:line:col each); nothing is reported then.
func CheckFiles(paths []string) (*Report, error) {
	rep := &Report{Files: []File{}, Warnings: []Warning{}}
	var errs []string
	for _, p := range paths {
		rs, err := rulespec.Load(p)
		if err != nil {
			var el rulespec.ErrorList
			if errors.As(err, &el) {
				errs = append(errs, el.Error())
			} else {
				errs = append(errs, fmt.Sprintf("%s: %v", p, err))
			}
			continue
		}
		ws := Check(rs)
		rep.Files = append(rep.Files, File{File: p, Claims: len(rs.Claims), Predicates: len(rs.Predicates), Warnings: len(ws)})
		rep.Warnings = append(rep.Warnings, ws...)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("invalid input:\n%s", strings.Join(errs, "\n"))
	}
	return rep, nil
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error { return output.WriteJSON(w, r) }

// WriteText writes each warning as file:line:col: warning: message [code],
// then one summary line per file; p colours "warning" and "ok".
func (r *Report) WriteText(w io.Writer, p output.Painter) error {
	var b strings.Builder
	for _, wn := range r.Warnings {
		b.WriteString(strings.Replace(wn.String(), ": warning: ", ": "+p.Warn("warning")+": ", 1) + "\n")
	}
	for _, f := range r.Files {
		counts := output.Count(f.Claims, "claim") + ", " + output.Count(f.Predicates, "predicate")
		if f.Warnings == 0 {
			fmt.Fprintf(&b, "%s %s: %s, no warnings\n", p.Pass("ok"), f.File, counts)
		} else {
			fmt.Fprintf(&b, "%s: %s, %s\n", f.File, counts, output.Count(f.Warnings, "warning"))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
