package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/rulespec"
)

// docExample returns the first YAML block of docs/repository-facts.md:
// the rulespec readers copy, read from the page so the two cannot drift.
func docExample(tb testing.TB) []byte {
	tb.Helper()
	page, err := os.ReadFile("../docs/repository-facts.md")
	if err != nil {
		tb.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(page), "```yaml\n")
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		tb.Fatal("docs/repository-facts.md has no YAML block")
	}
	return []byte(block)
}

// TestRepoFactsExample runs the example over inline repository documents
// and replays each written program with stock Mangle.
func TestRepoFactsExample(t *testing.T) {
	rs, err := rulespec.Parse("rulespec.yaml", docExample(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, facts, repo string
		want              []Status
	}{
		{"declared and clean", "files_changed: [a.go, b.go]\napi_changes: {breaking: false}\n",
			`{"changed": ["a.go"]}`, []Status{Pass, Pass, Pass}},
		{"undeclared file", "files_changed: [a.go]\napi_changes: {breaking: false}\n",
			`{"changed": ["a.go", "c.go"]}`, []Status{Fail, Pass, Pass}},
		{"nothing declared", "api_changes: {breaking: false}\n",
			`{"changed": ["a.go"]}`, []Status{Fail, Pass, Pass}},
		{"removed export, not breaking", "files_changed: [a.go]\napi_changes: {breaking: false}\n",
			`{"changed": ["a.go"], "go_exports_removed": ["api.New"]}`, []Status{Pass, Fail, Pass}},
		{"removed export, breaking left out", "files_changed: [a.go]\n",
			`{"changed": ["a.go"], "go_exports_removed": ["api.New"]}`, []Status{Pass, Fail, Pass}},
		{"removed export, declared breaking", "files_changed: [a.go]\napi_changes: {breaking: true}\n",
			`{"changed": ["a.go"], "go_exports_removed": ["api.New"]}`, []Status{Pass, Skipped, Pass}},
		{"new dependency", "files_changed: [go.mod]\napi_changes: {breaking: false}\n",
			`{"changed": ["go.mod"], "dependencies_added": [{"ecosystem": "go", "name": "example.com/x", "source": "go.mod"}]}`, []Status{Pass, Pass, Fail}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, err := envelope.Parse("envelope.yaml", []byte("facts:\n  "+indent(tc.facts)), envelope.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			doc, err := repofacts.Inline([]byte(tc.repo))
			if err != nil {
				t.Fatal(err)
			}
			o, err := RunLoadedWith(rs, env, Options{RepoJSON: doc}, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []Status
			for _, p := range o.Report.Predicates {
				got = append(got, p.Status)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("statuses (-want +got):\n%s\n%+v", diff, o.Report.Predicates)
			}
			dir := t.TempDir()
			if err := o.WriteArtifacts(dir); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(reported(o), replay(t, filepath.Join(dir, ProgramFile))); diff != "" {
				t.Errorf("replayed verdicts differ from reported (-reported +replayed):\n%s", diff)
			}
		})
	}
}

// indent indents every line after the first by two spaces.
func indent(s string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		out = append(out, s[i])
		if s[i] == '\n' && i+1 < len(s) {
			out = append(out, ' ', ' ')
		}
	}
	return string(out)
}
