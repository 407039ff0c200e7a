package ruletest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/output"
)

// RunRequest finds the default test file under the root, filters cases
// with --run, and says when the filter matched none.
func TestRunRequest(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		".git/HEAD":                   "ref: refs/heads/main\n",
		"analysis/rulespec.yaml":      "claims:\n  - {name: caps, selector: a.caps}\npredicates:\n  - {claim: caps, rule: exists, id: has-caps}\n",
		"analysis/rulespec_test.yaml": "cases:\n  - name: there\n    facts: {a: {caps: [x]}}\n    verdict: pass\n  - name: wrong\n    facts: {a: {}}\n    verdict: pass\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	tests := []struct {
		name    string
		req     Request
		passed  bool
		cases   int
		wantErr string
		noCase  bool
	}{
		{name: "every case", req: Request{}, passed: false, cases: 2},
		{name: "--run picks", req: Request{Run: "^there$"}, passed: true, cases: 1},
		{name: "--run matches none", req: Request{Run: "nothing"}, passed: true, cases: 0, wantErr: `--run "nothing" matches no case`, noCase: true},
		{name: "bad --run", req: Request{Run: "("}, wantErr: "invalid --run"},
		{name: "missing file", req: Request{Paths: []string{"none.yaml"}}, wantErr: "none.yaml"},
		{name: "empty root", req: Request{RootSet: true}, wantErr: "--root is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := RunRequest(tt.req)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.Is(err, ErrNoCase) != tt.noCase {
					t.Fatalf("error %v, want %q (no case: %v)", err, tt.wantErr, tt.noCase)
				}
				if !tt.noCase {
					return
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if Passed(res) != tt.passed || Cases(res) != tt.cases {
				t.Errorf("passed %v with %d cases, want %v with %d", Passed(res), Cases(res), tt.passed, tt.cases)
			}
		})
	}
}

// Report renders the same results as WriteJSON and WriteText, with
// --coverage deciding the text's coverage lines only.
func TestReportForms(t *testing.T) {
	results := []*Result{{File: "t_test.yaml", OK: true, Rulespec: "r.yaml",
		Coverage: []Coverage{{Label: "has-caps", Line: 3, Col: 5}}}}
	render := func(f func(*bytes.Buffer) error) string {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, coverage := range []bool{false, true} {
		rep := Report{Results: results, Coverage: coverage}
		tests := []struct{ form, got, want string }{
			{"json", render(func(b *bytes.Buffer) error { return rep.WriteJSON(b) }), render(func(b *bytes.Buffer) error { return WriteJSON(b, results) })},
			{"text", render(func(b *bytes.Buffer) error { return rep.WriteText(b, output.Painter{}) }), render(func(b *bytes.Buffer) error { return WriteText(b, results, coverage, output.Painter{}) })},
		}
		for _, tt := range tests {
			if tt.got != tt.want {
				t.Errorf("coverage %v, %s: Report gives %q, want %q", coverage, tt.form, tt.got, tt.want)
			}
		}
		if got := strings.Contains(tests[1].got, "no case takes the failing path of"); got != coverage {
			t.Errorf("coverage %v: text lists uncovered predicates: %v", coverage, got)
		}
	}
}
