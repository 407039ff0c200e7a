package ruletest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// DefaultFile is where a repository keeps its rulespec's tests, relative
// to its root.
const DefaultFile = "analysis/rulespec_test.yaml"

// Files expands `vouch test` arguments: files as given, directories to the
// *_test.yaml files directly inside them, sorted; no argument means
// DefaultFile under root. A directory holding no test file is an error.
func Files(args []string, root string) ([]string, error) {
	if len(args) == 0 {
		args = []string{filepath.Join(root, filepath.FromSlash(DefaultFile))}
	}
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			out = append(out, a)
			continue
		}
		m, err := filepath.Glob(filepath.Join(a, "*_test.yaml"))
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", a, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: no *_test.yaml files in this directory", a)
		}
		sort.Strings(m)
		out = append(out, m...)
	}
	return out, nil
}

// RunFiles loads and runs every test file in order. A file that does not
// load, or whose rulespec or envelopes cannot be set up, stops the run with
// an "invalid input" error naming the problem.
func RunFiles(paths []string, opts Options) ([]*Result, error) {
	var results []*Result
	for _, p := range paths {
		f, err := Load(p)
		if err != nil {
			return nil, fmt.Errorf("invalid input:\n%w", err)
		}
		r, err := Run(f, opts)
		if err != nil {
			var se *SetupError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("invalid input:\n%w", err)
			}
			return nil, err
		}
		results = append(results, r)
	}
	return results, nil
}

// Cases counts the cases that ran across results.
func Cases(results []*Result) int {
	n := 0
	for _, r := range results {
		n += len(r.Cases)
	}
	return n
}
