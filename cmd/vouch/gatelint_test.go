package main

import (
	"os"
	"testing"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/lint"
)

// TestCombineGate: the gate program's verdict for every combination of the
// rulespec's verdict and an architecture finding, and the written program
// replays to the same verdict.
func TestCombineGate(t *testing.T) {
	tests := []struct {
		name, rulespec, severity string
		strict, observe, base    bool
		want, lintWant           string
		blocking, observed       int
	}{
		{"clean", "pass", "", false, false, false, "pass", "pass", 0, 0},
		{"rulespec fails alone", "fail", "", false, false, false, "fail", "pass", 0, 0},
		{"error blocks", "pass", "error", false, false, false, "fail", "fail", 1, 0},
		{"warning does not", "pass", "warn", false, false, false, "pass", "pass", 0, 0},
		{"strict warning blocks", "pass", "warn", true, false, false, "fail", "fail", 1, 0},
		{"observed error", "pass", "error", false, true, false, "pass", "pass", 0, 1},
		{"baselined error", "pass", "error", false, false, true, "pass", "pass", 0, 0},
		{"both fail", "fail", "error", false, false, false, "fail", "fail", 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &lint.Report{Findings: []lint.Finding{}}
			if tt.severity != "" {
				rep.Findings = append(rep.Findings, lint.Finding{Rule: "r", Type: "deny", Severity: tt.severity, Baseline: tt.base})
			}
			gl := &gateLint{Report: rep, Strict: tt.strict, Observe: tt.observe, Blocking: map[int]bool{}, Observed: map[int]bool{}}
			dir := t.TempDir()
			got, err := gl.combineGate(tt.rulespec, dir)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || gl.Verdict != tt.lintWant || len(gl.Blocking) != tt.blocking || len(gl.Observed) != tt.observed {
				t.Errorf("gate %s, lint %s, blocking %v, observed %v; want %s, %s, %d, %d",
					got, gl.Verdict, gl.Blocking, gl.Observed, tt.want, tt.lintWant, tt.blocking, tt.observed)
			}
			src, err := os.ReadFile(gl.GateProgram)
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
