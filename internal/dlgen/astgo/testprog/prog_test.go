package testprog

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/internal/dlgen/astgo"
)

func TestGenerated(t *testing.T) {
	cfg := astgo.Config{Package: "testprog", Source: "prog.dl", Func: "prog"}
	if err := astgo.CheckFile(cfg, "prog_gen.go", source, progUnit(), progAnalysis()); err != nil {
		t.Fatal(err)
	}
	// A stale or missing generated file fails the check.
	if err := astgo.CheckFile(cfg, "prog_gen.go", source+"\nextra(1).\n", progUnit(), progAnalysis()); err == nil {
		t.Error("CheckFile passed a source the generated file does not match")
	}
	if err := astgo.CheckFile(cfg, "missing_gen.go", source, progUnit(), progAnalysis()); err == nil {
		t.Error("CheckFile passed a missing generated file")
	}
}

// TestEvaluates proves the generated analysis runs, twice, to the same
// answers as evaluating the text.
func TestEvaluates(t *testing.T) {
	fromText, err := datalog.Eval(source, nil, datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	an := progAnalysis()
	for range 2 {
		res, err := datalog.EvalAnalysis(an, nil, datalog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct {
			name  string
			arity int
		}{{"heavy", 1}, {"same", 1}, {"next", 2}, {"total", 1}, {"pairs", 1}, {"ratio", 1}, {"raw", 1}, {"kind", 1}} {
			var want, got []string
			for _, f := range fromText.Facts(p.name, p.arity) {
				want = append(want, f.String())
			}
			for _, f := range res.Facts(p.name, p.arity) {
				got = append(got, f.String())
			}
			if len(want) == 0 {
				t.Errorf("%s: no facts from the text; the test proves nothing", p.name)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-text +generated):\n%s", p.name, diff)
			}
		}
	}
	// The program, not the plans the Analysis keeps for later runs.
	fresh, all := progAnalysis(), cmp.Exporter(func(reflect.Type) bool { return true })
	if !cmp.Equal(an.Info, fresh.Info, all) || !cmp.Equal(an.Strata, fresh.Strata, all) || !cmp.Equal(an.PredToStratum, fresh.PredToStratum, all) {
		t.Error("evaluation changed the analysis it was given")
	}
}
