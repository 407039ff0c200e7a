package ruletest

import (
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/output"
)

// Request is a `vouch test` invocation.
type Request struct {
	// Paths are test files or directories; none is DefaultFile under the
	// repository root.
	Paths []string
	// Run, when not "", is a regular expression picking cases by name.
	Run string
	// Root is --root when RootSet ("" then is an error); evidence is
	// checked under the root verify would use.
	Root    string
	RootSet bool
}

// ErrNoCase is returned with the results when --run matched no case: a
// mistyped filter in CI would otherwise pass having tested nothing.
var ErrNoCase = errors.New("matches no case")

// RunRequest finds the test files and runs them. An error other than
// one wrapping ErrNoCase means nothing could be run (exit 2).
func RunRequest(req Request) ([]*Result, error) {
	var opts Options
	if req.Run != "" {
		re, err := regexp.Compile(req.Run)
		if err != nil {
			return nil, fmt.Errorf("invalid --run %q: %w", req.Run, err)
		}
		opts.Run = re
	}
	cfg, err := config.LoadRoot(req.Root, req.RootSet)
	if err != nil {
		return nil, err
	}
	opts.Root = cfg.Root
	paths, err := Files(req.Paths, cfg.Root)
	if err != nil {
		return nil, err
	}
	results, err := RunFiles(paths, opts)
	if err != nil {
		return nil, err
	}
	if opts.Run != nil && Cases(results) == 0 {
		return results, fmt.Errorf("--run %q %w", req.Run, ErrNoCase)
	}
	return results, nil
}

// Passed reports whether every file's cases passed.
func Passed(results []*Result) bool {
	for _, r := range results {
		if !r.OK {
			return false
		}
	}
	return true
}

// Report is one run's results as an output.Report, so `vouch test`
// renders them through output.RenderReport as every two-format command
// does.
type Report struct {
	Results []*Result
	// Coverage adds, in text, the predicates whose failing path no case
	// takes (--coverage); JSON always carries them.
	Coverage bool
}

// WriteJSON writes the results as one JSON document (see WriteJSON).
func (r Report) WriteJSON(w io.Writer) error { return WriteJSON(w, r.Results) }

// WriteText prints the results as go test does (see WriteText).
func (r Report) WriteText(w io.Writer, p output.Painter) error {
	return WriteText(w, r.Results, r.Coverage, p)
}
