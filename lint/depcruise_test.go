package lint

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// npmMain is the part of a dependency-cruiser npm target vouch does not
// resolve: the package's main file (node_modules/lodash/index.js is
// node_modules/lodash to vouch).
var npmMain = regexp.MustCompile(`^(node_modules/(@[^/]+/)?[^/]+)/.*$`)

// TestDepcruiseParity runs each dependency-cruiser configuration of the
// fixture and compares the findings with the ones dependency-cruiser 17.4.3
// gave on the same tree (testdata/depcruise/repo/expected, recorded by the
// command in testdata/depcruise/README.md): one line per dependency a rule
// marks (rule, severity, from -> to) and per orphan module.
func TestDepcruiseParity(t *testing.T) {
	for _, tc := range []struct {
		root, config string
		// notices are the options the configuration sets that vouch
		// does not apply, each reported as a notice.
		notices []string
	}{
		{root: "repo", config: "paths.json"},
		{root: "repo", config: "circular.json"},
		{root: "repo", config: "types.json"},
		{root: "repo", config: "allowed.js"},
		// dependency-cruiser's own `depcruise --init` configuration,
		// unchanged: package.json sections, deprecated packages and
		// moreThanOneDependencyType.
		{root: "init", config: "init.js", notices: []string{"detectProcessBuiltinModuleCalls", "enhancedResolveOptions"}},
		// extends: a file that extends dependency-cruiser's strict preset,
		// with rules overridden by name.
		{root: "init", config: "extends.js"},
	} {
		c := tc.config
		root := filepath.Join("testdata", "depcruise", tc.root)
		t.Run(c, func(t *testing.T) {
			name := strings.TrimSuffix(c, filepath.Ext(c))
			data, err := os.ReadFile(filepath.Join(root, "expected", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				if i := strings.Index(l, " -> "); i >= 0 {
					l = l[:i+4] + npmMain.ReplaceAllString(l[i+4:], "$1")
				}
				want = append(want, l)
			}
			rep, err := Check(context.Background(), root, Config{File: filepath.Join(root, "configs", c), NoCache: true, Out: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			got := parityLines(rep)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings differ from dependency-cruiser's (-depcruise +vouch):\n%s", diff)
			}
			var notices, unresolved []string
			for _, n := range rep.Notices {
				if strings.HasPrefix(n.Msg, "relative import ") {
					unresolved = append(unresolved, n.Msg)
					continue
				}
				notices = append(notices, n.Msg)
			}
			// Each tree imports one missing module on purpose (for
			// couldNotResolve): vouch notes it, as every unresolved
			// relative import, unless the configuration's scope drops it.
			if len(unresolved) > 1 || len(unresolved) == 1 && !strings.Contains(unresolved[0], "relative import ./missing") {
				t.Errorf("unresolved-import notices %q, want at most one, about ./missing", unresolved)
			}
			if len(notices) != len(tc.notices) {
				t.Errorf("notices %q, want one for each of %q", notices, tc.notices)
			}
			for i, opt := range tc.notices {
				if i < len(notices) && !strings.Contains(notices[i], "option "+opt+" ") {
					t.Errorf("notice %q, want one about %s", notices[i], opt)
				}
			}
			// What --explain-config prints is an architecture.yaml with the
			// same meaning: linting with it gives the same findings.
			var explained bytes.Buffer
			if err := ExplainConfig(root, Config{File: filepath.Join(root, "configs", c)}, &explained); err != nil {
				t.Fatal(err)
			}
			yml := filepath.Join(t.TempDir(), "architecture.yaml")
			if err := os.WriteFile(yml, explained.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			rep2, err := Check(context.Background(), root, Config{File: yml, NoCache: true, Out: t.TempDir()})
			if err != nil {
				t.Fatalf("explained configuration does not load: %v\n%s", err, explained.String())
			}
			if diff := cmp.Diff(got, parityLines(rep2)); diff != "" {
				t.Errorf("explained configuration finds otherwise (-original +explained):\n%s\n%s", diff, explained.String())
			}
		})
	}
}

// parityLines renders findings as the expected files do.
func parityLines(rep *Report) []string {
	var got []string
	for _, f := range rep.Findings {
		l := f.Rule + " " + f.Severity + " " + f.From
		if f.To != "" {
			l += " -> " + f.To
		}
		if f.Type != "forbid_dependency" && f.Type != "allowed_dependencies" {
			l = "unexpected " + f.Type + ": " + f.Message
		}
		got = append(got, l)
	}
	sort.Strings(got)
	return got
}
