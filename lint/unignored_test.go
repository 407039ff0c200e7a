package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/imports"
)

// TestUnignoredNotices: one notice per rule, at the rule, for the linted
// files a .gitignore ignores by a rule the trusted commit lacks; files
// that are not linted get none.
func TestUnignoredNotices(t *testing.T) {
	why := "HEAD has no internal/.gitignore"
	tests := []struct {
		name  string
		us    []imports.Unignored
		files []string
		want  []string
	}{
		{"none", nil, []string{"a.go"}, nil},
		{"one file", []imports.Unignored{{Path: "internal/evil.go", Gitignore: "internal/.gitignore", Line: 1, Why: why}}, []string{"internal/evil.go"},
			[]string{"internal/.gitignore:1: internal/evil.go is linted although this rule ignores it: HEAD has no internal/.gitignore; only the .gitignore rules HEAD has hide files from the architecture rules"}},
		{"not linted", []imports.Unignored{{Path: "dist/app.js.map", Gitignore: ".gitignore", Line: 2, Why: why}}, []string{"a.go"}, nil},
		{"grouped by rule", []imports.Unignored{
			{Path: "gen/a.go", Gitignore: ".gitignore", Line: 3, Why: "the rule is not in HEAD's .gitignore"},
			{Path: "gen/b.go", Gitignore: ".gitignore", Line: 3, Why: "the rule is not in HEAD's .gitignore"},
			{Path: "x.go", Why: "no .gitignore in the work tree has a rule that ignores it"},
		}, []string{"gen/a.go", "gen/b.go", "x.go"}, []string{
			".gitignore:3: 2 files are linted although this rule ignores them (gen/a.go, gen/b.go): the rule is not in HEAD's .gitignore; only the .gitignore rules HEAD has hide files from the architecture rules",
			"x.go: linted although git lists it as ignored: no .gitignore in the work tree has a rule that ignores it; only the .gitignore rules HEAD has hide files from the architecture rules",
		}},
		{"many files", []imports.Unignored{
			{Path: "g/1.go", Gitignore: ".gitignore", Line: 1, Why: why}, {Path: "g/2.go", Gitignore: ".gitignore", Line: 1, Why: why},
			{Path: "g/3.go", Gitignore: ".gitignore", Line: 1, Why: why}, {Path: "g/4.go", Gitignore: ".gitignore", Line: 1, Why: why},
			{Path: "g/5.go", Gitignore: ".gitignore", Line: 1, Why: why}, {Path: "g/6.go", Gitignore: ".gitignore", Line: 1, Why: why},
		}, []string{"g/1.go", "g/2.go", "g/3.go", "g/4.go", "g/5.go", "g/6.go"}, []string{
			".gitignore:1: 6 files are linted although this rule ignores them (g/1.go, g/2.go, g/3.go, g/4.go, g/5.go, and 1 more): HEAD has no internal/.gitignore; only the .gitignore rules HEAD has hide files from the architecture rules",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, n := range unignoredNotices(tt.us, tt.files, "HEAD") {
				got = append(got, n.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
		})
	}
}
