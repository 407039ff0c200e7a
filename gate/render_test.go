package gate

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/internal/junittest"

	"github.com/vouch-dev/vouch/lint"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// results are the result models every renderer is tested over.
func results() map[string]*Result {
	passing := verify.PredicateReport{Index: 0, ID: "summary", Claim: "summary", Selector: "summary", Rule: "exists",
		Value: verify.RawJSON("null"), Source: "r.yaml", Status: verify.Pass, Actual: verify.RawJSON(`"done"`), Message: "found"}
	failing := verify.PredicateReport{Index: 1, ID: "tests", Claim: "tests", Selector: "tests.count", Rule: "min",
		Value: verify.RawJSON("3"), Source: "r.yaml", Notes: "run the suite", Status: verify.Fail, Actual: verify.RawJSON("1"),
		Message: "1 is less than 3", Line: 7, Col: 5}
	observed := failing
	observed.Observed = true
	report := func(verdict string, ps ...verify.PredicateReport) *verify.Report {
		r := &verify.Report{Verdict: verdict, Predicates: ps, Warnings: []string{},
			Artifacts: verify.Artifacts{Program: ".vouch/rulespec.compiled.dl", Trace: ".vouch/datalog_evaluation.txt"}}
		for _, p := range ps {
			r.Summary.Total++
			switch {
			case p.Status == verify.Pass:
				r.Summary.Passed++
			case p.Observed:
				r.Summary.Failed++
				r.Summary.Observed++
			default:
				r.Summary.Failed++
			}
		}
		return r
	}
	base := func() *Result {
		return &Result{Verdict: "fail", Envelope: ".vouch/envelope.yaml", Rulespec: "analysis/rulespec.yaml", Root: ".",
			Program: ".vouch/gate.compiled.dl"}
	}
	findings := []lint.Finding{
		{Rule: "billing-auth", Type: "deny", Severity: "error", File: "src/billing/a.py", Line: 3, From: "billing", To: "auth", Message: "billing imports auth", Reason: "use events"},
		{Rule: "shop-auth", Type: "deny", Severity: "warn", File: "src/shop/b.py", Line: 1, From: "shop", To: "auth", Message: "shop imports auth"},
		{Rule: "old", Type: "deny", Severity: "error", File: "src/x.py", Line: 9, Message: "x imports y", Baseline: true},
	}
	lintReport := &lint.Report{Version: lint.ReportVersion, Findings: findings, Stale: []lint.StaleEntry{}, Skipped: []lint.SkippedRule{}, Errors: []*lint.ConfigError{}}
	lintReport.Summary.RulesEvaluated = 3
	lintReport.Count()

	out := map[string]*Result{}

	r := base()
	r.Verdict, r.Report, r.Receipt = "pass", report("pass", passing), ".vouch/verification.json"
	out["pass"] = r

	r = base()
	r.Verdict, r.Report, r.Receipt, r.Signed, r.PassedOnObserved, r.Observe = "pass", report("pass", passing, observed), ".vouch/verification.json", true, true, true
	out["pass_observed_signed"] = r

	r = base()
	r.Report = report("fail", passing, failing)
	out["fail_rulespec"] = r

	// The failing claim's value was found in the envelope: annotations go
	// on that line.
	r = base()
	r.Report = report("fail", passing, failing)
	r.Report.Predicates[1].EnvelopeLine, r.Report.Predicates[1].EnvelopeCol = 4, 5
	out["fail_envelope_line"] = r

	r = base()
	r.Report = report("pass", passing)
	r.Lint = &Lint{Source: "architecture.yaml", Files: []string{"architecture.yaml"}, Report: lintReport, Verdict: "fail",
		Blocking: map[int]bool{0: true}, Observed: map[int]bool{}}
	out["fail_architecture"] = r

	r = base()
	r.Missing, r.Program = true, ""
	out["missing"] = r

	r = base()
	r.Program = ""
	r.Err = errors.New("invalid input:\n" + rulespec.ErrorList{{File: "analysis/rulespec.yaml", Pos: rulespec.Pos{Line: 4, Col: 3}, Msg: `unknown rule "exist"`}}.Error())
	out["error_plain"] = r

	r = base()
	r.Program = ""
	r.Err = rulespec.ErrorList{{File: "analysis/rulespec.yaml", Pos: rulespec.Pos{Line: 4, Col: 3}, Msg: `unknown rule "exist" (did you mean "exists"?)`}}
	out["error_positioned"] = r
	return out
}

// TestRenderGolden renders every result model in every format and
// compares with testdata/golden/<result>.<format> (go test -update
// rewrites them).
func TestRenderGolden(t *testing.T) {
	for name, g := range results() {
		for _, format := range Formats() {
			t.Run(name+"/"+format, func(t *testing.T) {
				var b bytes.Buffer
				if err := Render(&b, format, g, RenderOptions{}); err != nil {
					t.Fatal(err)
				}
				if format == "junit" {
					junittest.Validate(t, b.Bytes())
				}
				golden := filepath.Join("testdata", "golden", name+"."+format)
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./gate -update to create it)", err)
				}
				if diff := cmp.Diff(string(want), b.String()); diff != "" {
					t.Errorf("%s (-want +got):\n%s", golden, diff)
				}
			})
		}
	}
}

// TestRenderFacts: table tests over the result model for what each format
// must and must not say.
func TestRenderFacts(t *testing.T) {
	rs := results()
	tests := []struct {
		result, format string
		want, not      []string
	}{
		{"pass", "claude-hook", nil, []string{"decision"}},
		{"fail_rulespec", "claude-hook", []string{`"decision": "block"`, "does not pass the rulespec", "1 is less than 3"}, nil},
		{"fail_architecture", "claude-hook", []string{"breaks its architecture rules (architecture.yaml)", "1. [billing-auth] src/billing/a.py:3"}, []string{"shop-auth"}},
		{"missing", "claude-hook", []string{"no envelope at .vouch/envelope.yaml", "vouch envelope write"}, nil},
		{"error_plain", "claude-hook", []string{"fail closed", "unknown rule"}, nil},
		{"pass", "text", []string{"gate: PASS; receipt .vouch/verification.json (unsigned)"}, []string{"FAIL"}},
		{"pass_observed_signed", "text", []string{"(signed; observed:", "--allow-observed"}, nil},
		{"fail_architecture", "text", []string{"  BLOCK [billing-auth]", "  WARN [shop-auth]", "  BASELINE [old]", "gate: FAIL", "architecture: FAIL: 1 error, 1 warning, 1 blocking, 0 observed, 1 in the baseline"}, nil},
		{"error_plain", "text", nil, []string{"gate"}},
		{"fail_rulespec", "github", []string{"::error file=analysis/rulespec.yaml,line=7,col=5,title=vouch [1 tests]::", "vouch gate: FAIL, 1/2 passed"}, nil},
		{"fail_envelope_line", "github", []string{"::error file=.vouch/envelope.yaml,line=4,col=5,title=vouch [1 tests]::", "(rule at analysis/rulespec.yaml:7)"}, []string{"file=analysis/rulespec.yaml"}},
		{"pass_observed_signed", "github", []string{"::warning file=analysis/rulespec.yaml,line=7,col=5", "[observed: not blocking]"}, []string{"::error"}},
		{"fail_architecture", "github", []string{"::error file=src/billing/a.py,line=3,title=vouch lint billing-auth::", "::warning file=src/shop/b.py"}, []string{"src/x.py"}},
		{"error_positioned", "github", []string{"::error file=analysis/rulespec.yaml,line=4,col=3::unknown rule"}, []string{"vouch gate:"}},
		{"error_plain", "github", []string{"::error title=vouch::invalid input:%0A"}, nil},
		{"missing", "json", []string{`"problem": "missing_envelope"`, `"verdict": "fail"`}, []string{`"lint"`}},
		{"fail_architecture", "json", []string{`"blocking": [`, `"gate_program": ".vouch/gate.compiled.dl"`, `"config": "architecture.yaml"`}, nil},
		{"pass", "json", []string{`"program": ".vouch/gate.compiled.dl"`, `"receipt": ".vouch/verification.json"`}, []string{`"problem"`}},
	}
	for _, tt := range tests {
		t.Run(tt.result+"/"+tt.format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, tt.format, rs[tt.result], RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, b.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(b.String(), n) {
					t.Errorf("output has %q:\n%s", n, b.String())
				}
			}
		})
	}
	if err := Render(&bytes.Buffer{}, "yaml", rs["pass"], RenderOptions{}); err == nil {
		t.Error("an unknown format rendered")
	}
}
