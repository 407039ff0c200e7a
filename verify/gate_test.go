package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/mangle/analysis"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/engine"
	"github.com/google/mangle/factstore"
	"github.com/google/mangle/parse"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/rulespec"
)

// runWith verifies envelope text against rulespec text with opts.
func runWith(t *testing.T, rs, env string, opts Options) *Outcome {
	t.Helper()
	r, err := rulespec.Parse("r.yaml", []byte(rs))
	if err != nil {
		t.Fatalf("rulespec.Parse: %v\n%s", err, rs)
	}
	e, err := envelope.Parse("e.yaml", []byte(env), envelope.DefaultLimits())
	if err != nil {
		t.Fatalf("envelope.Parse: %v", err)
	}
	out, err := RunLoadedWith(r, e, opts, 0)
	if err != nil {
		t.Fatalf("RunLoadedWith: %v", err)
	}
	return out
}

// runOwn is runWith with the rulespec read as if from file rsFile, so
// evidence knows it as vouch's own.
func runOwn(t *testing.T, rs, env string, opts Options, rsFile string) *Outcome {
	t.Helper()
	r, err := rulespec.Parse(rsFile, []byte(rs))
	if err != nil {
		t.Fatalf("rulespec.Parse: %v\n%s", err, rs)
	}
	e, err := envelope.Parse("e.yaml", []byte(env), envelope.DefaultLimits())
	if err != nil {
		t.Fatalf("envelope.Parse: %v", err)
	}
	out, err := RunLoadedWith(r, e, opts, 0)
	if err != nil {
		t.Fatalf("RunLoadedWith: %v", err)
	}
	return out
}

const twoRules = `claims:
  - {name: a, selector: a}
predicates:
  - {claim: a, rule: equals, value: 1}
  - {claim: a, rule: equals, value: 2%s}
`

// TestObserve: an observed failure is reported with Observed set and does
// not fail the run or the gate; an enforced failure still does.
func TestObserve(t *testing.T) {
	tests := []struct {
		name       string
		top, pred  string
		observe    bool
		env        string
		verdict    string
		observed   []bool
		summaryObs int
	}{
		{"enforced failure fails", "", "", false, "facts: {a: 1}", "fail", []bool{false, false}, 0},
		{"predicate observe", "", ", mode: observe", false, "facts: {a: 1}", "pass", []bool{false, true}, 0 + 1},
		{"rulespec observe", "mode: observe\n", "", false, "facts: {a: 1}", "pass", []bool{false, true}, 1},
		{"flag observe", "", "", true, "facts: {a: 3}", "pass", []bool{true, true}, 2},
		{"predicate enforce overrides rulespec observe", "mode: observe\n", ", mode: enforce", false, "facts: {a: 1}", "fail", []bool{false, false}, 0},
		{"observe passes stay plain passes", "", ", mode: observe", false, "facts: {a: 2}", "fail", []bool{false, false}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := tt.top + strings.Replace(twoRules, "%s", tt.pred, 1)
			out := runWith(t, rs, tt.env, Options{Observe: tt.observe})
			rep := out.Report
			if rep.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", rep.Verdict, tt.verdict)
			}
			for i, want := range tt.observed {
				if rep.Predicates[i].Observed != want {
					t.Errorf("predicate %d observed = %v, want %v", i, rep.Predicates[i].Observed, want)
				}
			}
			if rep.Summary.Observed != tt.summaryObs {
				t.Errorf("summary observed = %d, want %d", rep.Summary.Observed, tt.summaryObs)
			}
		})
	}
}

// TestObservedShownEverywhere: text and trace both say a failure was only
// observed.
func TestObservedShownEverywhere(t *testing.T) {
	out := runWith(t, strings.Replace(twoRules, "%s", ", mode: observe", 1), "facts: {a: 1}", Options{})
	var text bytes.Buffer
	if err := out.Report.WriteText(&text, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FAIL [1] a equals 2 (observed: reported, not enforced)", "PASS 1/2 passed, 1 failed (1 observed), 0 skipped"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var dl bytes.Buffer
	if err := out.Program.WriteDL(&dl, nil); err != nil {
		t.Fatal(err)
	}
	trace := string(out.Trace(dl.Bytes()))
	if !strings.Contains(trace, "predicate 1: a equals 2 -> fail (observed)") {
		t.Errorf("trace does not mark the observed failure:\n%s", trace)
	}
}

// evidenceRoot is a repository holding src/a.go (3 lines), .git/HEAD, a
// worktree-style .git file in sub/, and a symlink to a file outside it.
func evidenceRoot(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	for _, d := range []string{"src", ".git", "sub", ".vouch", "out"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range map[string]string{
		"src/a.go":             "1\n2\n3\n",
		".git/HEAD":            "ref: refs/heads/main\n",
		".git/config":          "[core]\n",
		"sub/.git":             "gitdir: ../.git\n",
		"secret:3":             "x\n",
		".vouch/envelope.yaml": "facts: {}\n",
		"vouch.yaml":           "out: out\n",
		"rules.yaml":           "claims: []\n",
		"out/receipt.json":     "{}\n",
	} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "secret"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"leak": "../secret", "gl": ".git", "cfg.txt": ".git/config", "vl": ".vouch", "dangling": "nowhere"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestEvidenceMessages(t *testing.T) {
	root := evidenceRoot(t)
	tests := []struct {
		rule, fact string
		status     Status
		parts      []string
	}{
		{"file_exists", `["src/a.go:2-3", "src/a.go"]`, Pass, nil},
		{"file_exists", `"src/a.go:2-9"`, Fail, []string{`"src/a.go:2-9" (the file has 3 lines, so lines 2-9 are not all in it)`}},
		{"file_exists", `["src/b.go", "src/a.go"]`, Fail, []string{`cited paths not found: "src/b.go" (does not exist under the repository root)`}},
		{"file_exists", `"leak"`, Fail, []string{`"leak" (path resolves through a symlink to outside the repository root)`}},
		{"file_exists", `"../secret"`, Fail, []string{"path escapes the repository root"}},
		{"file_exists", `"/etc/hostname"`, Fail, []string{"absolute path"}},
		{"file_exists", `"src:3"`, Fail, []string{`"src:3" (a directory, not a file; cite the files)`}},
		// Evidence cites regular files: not the root, a directory, or .git.
		{"file_exists", `"src"`, Fail, []string{`cited paths not found: "src" (a directory, not a file; cite the files)`}},
		{"file_exists", `["src/a.go", "src/"]`, Fail, []string{`"src/" (a directory, not a file; cite the files)`}},
		{"file_exists", `"."`, Fail, []string{`"." (the repository root, not a file; cite the files)`}},
		{"file_exists", `"./"`, Fail, []string{`"./" (the repository root, not a file; cite the files)`}},
		{"file_exists", `"src/.."`, Fail, []string{`"src/.." (the repository root, not a file; cite the files)`}},
		{"file_exists", `".git/HEAD"`, Fail, []string{`".git/HEAD" (inside .git, which is not evidence of work)`}},
		{"file_exists", `".git/HEAD:1"`, Fail, []string{`".git/HEAD:1" (inside .git, which is not evidence of work)`}},
		{"file_exists", `".git"`, Fail, []string{`".git" (inside .git, which is not evidence of work)`}},
		{"file_exists", `"sub/.git"`, Fail, []string{`"sub/.git" (inside .git, which is not evidence of work)`}},
		{"file_exists", `"src/../.git/HEAD"`, Fail, []string{"inside .git"}},
		{"file_exists", `".git/nope"`, Fail, []string{"inside .git"}},
		{"file_exists", `[".github.go", "src/a.go"]`, Fail, []string{`".github.go" (does not exist under the repository root)`}},
		{"file_exists", `"src/./a.go"`, Pass, nil},
		{"file_exists", "[]", Pass, nil},
		{"file_exists", `["src/a.go", 3]`, Fail, []string{"needs a path string or an array of path strings"}},
		{"no_file_exists", `["src/a.go", "gone.go"]`, Fail, []string{`cited paths that exist or cannot be checked: "src/a.go" (exists)`}},
		{"no_file_exists", `"leak"`, Fail, []string{"resolves through a symlink"}},
		// Lines are irrelevant to absence: src/a.go is there.
		{"no_file_exists", `"src/a.go:4"`, Fail, []string{`cited paths that exist or cannot be checked: "src/a.go:4"`}},
		{"no_file_exists", `"src/a.go:1"`, Fail, []string{`cited paths that exist or cannot be checked: "src/a.go:1"`}},
		{"no_file_exists", `"gone.go:4"`, Pass, nil},
		// A file literally named "secret:3" is there, though "secret" is not.
		{"no_file_exists", `"secret:3"`, Fail, []string{`"secret:3" (ambiguous: a file is named literally with this :line suffix`}},
		{"file_exists", `"secret:3"`, Fail, []string{`"secret:3" (ambiguous`}},
		// A dangling symlink is something at the name.
		{"no_file_exists", `"dangling"`, Fail, []string{`"dangling" (a symlink to nothing, not a file; cite regular files)`}},
		{"file_exists", `"dangling"`, Fail, []string{`"dangling" (a symlink to nothing`}},
		// A trailing / or /. names a directory; a file there is not one.
		{"file_exists", `"src/a.go/"`, Fail, []string{`"src/a.go/" (ends in / or /., which names a directory, but it is a file; cite it without the trailing slash)`}},
		{"file_exists", `"src/a.go/."`, Fail, []string{`"src/a.go/." (ends in / or /.`}},
		{"file_exists", `"src/a.go/:2"`, Fail, []string{`"src/a.go/:2" (ends in / or /.`}},
		{"no_file_exists", `"src/a.go/"`, Fail, []string{`"src/a.go/" (ends in / or /.`}},
		{"no_file_exists", `"gone/"`, Pass, nil},
		// .git reached through a symlink, or in other letter case.
		{"file_exists", `"gl/HEAD"`, Fail, []string{`"gl/HEAD" (inside .git, which is not evidence of work)`}},
		{"file_exists", `"cfg.txt:1"`, Fail, []string{`"cfg.txt:1" (inside .git, which is not evidence of work)`}},
		{"file_exists", `["src/a.go", "gl/HEAD", "cfg.txt:1"]`, Fail, []string{`"cfg.txt:1" (inside .git`, `"gl/HEAD" (inside .git`}},
		{"file_exists", `".GIT/HEAD"`, Fail, []string{`".GIT/HEAD" (inside .git, which is not evidence of work)`}},
		{"no_file_exists", `"gl/nope"`, Fail, []string{`"gl/nope" (inside .git`}},
		// vouch's own files are not evidence of work.
		{"file_exists", `[".vouch/envelope.yaml", "vouch.yaml"]`, Fail, []string{`".vouch/envelope.yaml" (vouch's own file, not evidence of work)`, `"vouch.yaml" (vouch's own file, not evidence of work)`}},
		{"file_exists", `"vl/envelope.yaml"`, Fail, []string{`"vl/envelope.yaml" (vouch's own file, not evidence of work)`}},
		{"file_exists", `"rules.yaml"`, Fail, []string{`"rules.yaml" (vouch's own file, not evidence of work)`}},
		{"file_exists", `"out/receipt.json"`, Fail, []string{`"out/receipt.json" (vouch's own file, not evidence of work)`}},
		{"no_file_exists", `".vouch/nope"`, Fail, []string{`".vouch/nope" (vouch's own file`}},
		// A directory at the path exists; .git and the root prove nothing.
		{"no_file_exists", `"src"`, Fail, []string{`cited paths that exist or cannot be checked: "src" (a directory, not a file; cite the files)`}},
		{"no_file_exists", `"."`, Fail, []string{"the repository root"}},
		{"no_file_exists", `".git/nope"`, Fail, []string{`".git/nope" (inside .git, which is not evidence of work)`}},
		{"no_file_exists", `"src/gone"`, Pass, nil},
		{"no_file_exists", "[]", Pass, nil},
	}
	for _, tt := range tests {
		t.Run(tt.rule+" "+tt.fact, func(t *testing.T) {
			out := runOwn(t, oneRule("v", tt.rule, ""), factsV(tt.fact), Options{Root: root, OutDir: "out"}, filepath.Join(root, "rules.yaml"))
			p := out.Report.Predicates[0]
			if p.Status != tt.status {
				t.Fatalf("status %s, want %s (message %q)", p.Status, tt.status, p.Message)
			}
			for _, part := range tt.parts {
				if !strings.Contains(p.Message, part) {
					t.Errorf("message %q lacks %q", p.Message, part)
				}
			}
		})
	}
}

// TestEvidenceReplays: the written program carries the evidence as facts,
// so stock Mangle reaches the same verdicts, observed failures and gate
// verdict without the working tree.
func TestEvidenceReplays(t *testing.T) {
	root := evidenceRoot(t)
	rs := `mode: observe
claims:
  - {name: files, selector: files}
predicates:
  - {claim: files, rule: file_exists}
  - {claim: files, rule: no_file_exists, mode: enforce}
`
	out := runWith(t, rs, `facts: {files: ["src/a.go:3", "leak", "nope"]}`, Options{Root: root})
	dir := t.TempDir()
	if err := out.WriteArtifacts(dir); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, ProgramFile))
	if err != nil {
		t.Fatal(err)
	}
	unit, err := parse.Unit(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	info, err := analysis.AnalyzeOneUnit(unit, nil)
	if err != nil {
		t.Fatal(err)
	}
	strata, p2s, err := analysis.Stratify(analysis.Program{EdbPredicates: info.EdbPredicates, IdbPredicates: info.IdbPredicates, Rules: info.Rules})
	if err != nil {
		t.Fatal(err)
	}
	store := factstore.NewMultiIndexedArrayInMemoryStore()
	if _, err := engine.EvalStratifiedProgramWithStats(info, strata, p2s, store, engine.WithCreatedFactLimit(1_000_000)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pred := range []ast.PredicateSym{{Symbol: "verdict", Arity: 2}, {Symbol: "observed", Arity: 1}} {
		store.GetFacts(ast.NewQuery(pred), func(a ast.Atom) error {
			got = append(got, a.String())
			return nil
		})
	}
	sort.Strings(got)
	want := []string{"observed(0)", "verdict(0,/fail)", "verdict(1,/fail)"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("replayed %v, want %v", got, want)
	}
	if out.Report.Verdict != "fail" || !out.Report.Predicates[0].Observed || out.Report.Predicates[1].Observed {
		t.Errorf("reported verdict %s, predicates %+v", out.Report.Verdict, out.Report.Predicates)
	}
}
