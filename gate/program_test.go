package gate

import (
	"os"
	"strings"
	"testing"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/lint"
)

// TestDecide: the gate program's verdict for every combination of the
// rulespec's verdict and an architecture finding, with and without the
// architecture rules, and the written program replays to the same verdict.
func TestDecide(t *testing.T) {
	tests := []struct {
		name, rulespec, severity string
		noLint                   bool
		strict, observe, base    bool
		want, lintWant           string
		blocking, observed       int
	}{
		{name: "no lint, pass", rulespec: "pass", noLint: true, want: "pass"},
		{name: "no lint, fail", rulespec: "fail", noLint: true, want: "fail"},
		{name: "clean", rulespec: "pass", want: "pass", lintWant: "pass"},
		{name: "rulespec fails alone", rulespec: "fail", want: "fail", lintWant: "pass"},
		{name: "error blocks", rulespec: "pass", severity: "error", want: "fail", lintWant: "fail", blocking: 1},
		{name: "warning does not", rulespec: "pass", severity: "warn", want: "pass", lintWant: "pass"},
		{name: "strict warning blocks", rulespec: "pass", severity: "warn", strict: true, want: "fail", lintWant: "fail", blocking: 1},
		{name: "observed error", rulespec: "pass", severity: "error", observe: true, want: "pass", lintWant: "pass", observed: 1},
		{name: "baselined error", rulespec: "pass", severity: "error", base: true, want: "pass", lintWant: "pass"},
		{name: "both fail", rulespec: "fail", severity: "error", want: "fail", lintWant: "fail", blocking: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l *Lint
			if !tt.noLint {
				rep := &lint.Report{Findings: []lint.Finding{}}
				if tt.severity != "" {
					rep.Findings = append(rep.Findings, lint.Finding{Rule: "r", Type: "deny", Severity: tt.severity, Baseline: tt.base})
				}
				l = &Lint{Report: rep, Strict: tt.strict, Observe: tt.observe}
			}
			d, err := decide(tt.rulespec, l, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict != tt.want || d.LintVerdict != tt.lintWant || len(d.Blocking) != tt.blocking || len(d.Observed) != tt.observed {
				t.Errorf("gate %s, lint %q, blocking %v, observed %v; want %s, %q, %d, %d",
					d.Verdict, d.LintVerdict, d.Blocking, d.Observed, tt.want, tt.lintWant, tt.blocking, tt.observed)
			}
			path, _, err := writeProgram(t.TempDir(), d.Facts)
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := datalog.Eval(string(src), nil, datalog.Options{})
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			v, _ := ast.Name("/" + tt.want)
			if !res.Has(ast.NewAtom("gate_verdict", v)) || len(res.Facts("gate_verdict", 1)) != 1 {
				t.Errorf("replay derived %v, want gate_verdict(/%s)", res.Facts("gate_verdict", 1), tt.want)
			}
		})
	}
}

// TestDecideNotices: lint notices and stale baseline entries block the
// gate exactly when vouch lint --strict fails on them (strict), unless
// observed; and the written program replays to the same verdict.
func TestDecideNotices(t *testing.T) {
	tests := []struct {
		name                    string
		notices, stale          int
		strict, observe         bool
		want                    string
		blockNotice, blockStale int
	}{
		{name: "notice, not strict", notices: 1, want: "pass"},
		{name: "notice, strict", notices: 1, strict: true, want: "fail", blockNotice: 1},
		{name: "two notices, strict", notices: 2, strict: true, want: "fail", blockNotice: 2},
		{name: "notice, strict, observed", notices: 1, strict: true, observe: true, want: "pass"},
		{name: "stale entry, not strict", stale: 1, want: "pass"},
		{name: "stale entry, strict", stale: 1, strict: true, want: "fail", blockStale: 1},
		{name: "nothing, strict", strict: true, want: "pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &lint.Report{Findings: []lint.Finding{}}
			for i := range tt.notices {
				rep.Notices = append(rep.Notices, &lint.ConfigError{File: "web/b.js", Msg: "relative import \"./x\" resolves to no file " + strings.Repeat("!", i)})
			}
			for range tt.stale {
				rep.Stale = append(rep.Stale, lint.StaleEntry{})
			}
			l := &Lint{Report: rep, Strict: tt.strict, Observe: tt.observe}
			d, err := decide("pass", l, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict != tt.want || d.LintVerdict != tt.want || len(d.BlockingNotices) != tt.blockNotice || len(d.BlockingStale) != tt.blockStale {
				t.Errorf("gate %s, lint %s, notices %v, stale %v; want %s, %d, %d",
					d.Verdict, d.LintVerdict, d.BlockingNotices, d.BlockingStale, tt.want, tt.blockNotice, tt.blockStale)
			}
			if got := rep.Fails(tt.strict) && !tt.observe; got != (tt.want == "fail") {
				t.Errorf("vouch lint would fail = %v, the gate says %s", got, tt.want)
			}
			path, _, err := writeProgram(t.TempDir(), d.Facts)
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := datalog.Eval(string(src), nil, datalog.Options{})
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			v, _ := ast.Name("/" + tt.want)
			if !res.Has(ast.NewAtom("gate_verdict", v)) || len(res.Facts("gate_verdict", 1)) != 1 {
				t.Errorf("replay derived %v, want gate_verdict(/%s)", res.Facts("gate_verdict", 1), tt.want)
			}
		})
	}
}

// TestDecideFailsClosed: a verdict the program does not know derives no
// gate_verdict, which is an error, never a pass.
func TestDecideFailsClosed(t *testing.T) {
	if d, err := decide("maybe", nil, nil); err == nil {
		t.Fatalf("decide(maybe) = %+v, want an error", d)
	}
}

// TestOneDefinitionOfGateVerdict: gate_verdict is defined only in the gate
// program.
func TestOneDefinitionOfGateVerdict(t *testing.T) {
	if !strings.Contains(Semantics(), "gate_verdict(/pass) :-") {
		t.Fatal("the gate program does not define gate_verdict")
	}
	for _, dir := range []string{"../compile", "../lint"} {
		data, err := os.ReadFile(dir + "/semantics.dl")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "gate_verdict(") {
			t.Errorf("%s/semantics.dl defines gate_verdict; only gate/semantics.dl may", dir)
		}
	}
}
