package guard

import (
	"testing"

	"github.com/google/mangle/parse"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/internal/dlgen/astgo"
)

// TestProgramsGenerated proves guard_gen.go and conditions_gen.go current
// (regenerate with go generate ./guard) and equal to parsing and analysing
// guard.dl and conditions.dl.
func TestProgramsGenerated(t *testing.T) {
	for _, p := range []struct {
		file, src, fn, text string
		unit                parse.SourceUnit
		an                  *datalog.Analysis
	}{
		{"guard_gen.go", "guard.dl", "guard", Program, guardUnit(), guardAnalysis()},
		{"conditions_gen.go", "conditions.dl", "conditions", ConditionsProgram, conditionsUnit(), conditionsAnalysis()},
	} {
		if err := astgo.CheckFile(astgo.Config{Package: "guard", Source: p.src, Func: p.fn}, p.file, p.text, p.unit, p.an); err != nil {
			t.Error(err)
		}
	}
}
