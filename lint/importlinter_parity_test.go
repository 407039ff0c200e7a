package lint

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestImportLinterParity runs each import-linter configuration of the
// fixture and compares the outcome with what import-linter itself reported
// on the same tree (testdata/importlinter/repo/expected, recorded as
// testdata/importlinter/README.md says): each contract's status, the first
// importer and last imported module of each illegal chain, and the modules
// an exhaustive contract does not list.
func TestImportLinterParity(t *testing.T) {
	root := filepath.Join("testdata", "importlinter", "repo")
	for _, c := range []string{"layers", "exhaustive", "forbidden", "independence"} {
		t.Run(c, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(root, "expected", c+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSpace(string(data)), "\n")
			rep, err := Check(context.Background(), root, Config{File: filepath.Join(root, "configs", c+".ini"), NoCache: true, Out: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, contractLines(rep)); diff != "" {
				t.Errorf("outcome differs from import-linter's (-import-linter +vouch):\n%s", diff)
			}
		})
	}
}

// contractLines renders a report as the expected files do.
func contractLines(rep *Report) []string {
	var out []string
	for _, c := range rep.Contracts {
		out = append(out, c.Name+": "+strings.ToUpper(strings.ReplaceAll(c.Status, "_", " ")))
		rules := map[string]bool{}
		for _, r := range c.Rules {
			rules[r] = true
		}
		for _, f := range rep.Findings {
			if !rules[f.Rule] {
				continue
			}
			switch f.To {
			case "":
				out = append(out, c.Name+": "+f.Type+": "+f.From)
				continue
			case "exhaustive":
				out = append(out, c.Name+": not listed as a layer: "+f.From)
				continue
			}
			out = append(out, c.Name+": "+f.From+" -> "+f.To)
		}
	}
	sort.Strings(out)
	return out
}
