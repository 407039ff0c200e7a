package guard

import (
	"os"
	"testing"

	"github.com/vouch-dev/vouch/internal/dlgen/astgo"
)

// TestProgramsGenerated proves guard_gen.go and conditions_gen.go current
// (regenerate with go generate ./guard) and equal to parsing and analysing
// guard.dl and conditions.dl.
func TestProgramsGenerated(t *testing.T) {
	for _, p := range []struct {
		file, src, fn, text string
		check               func(cfg astgo.Config, gen []byte) error
	}{
		{"guard_gen.go", "guard.dl", "guard", Program, func(cfg astgo.Config, gen []byte) error {
			return astgo.Check(cfg, Program, gen, guardUnit(), guardAnalysis())
		}},
		{"conditions_gen.go", "conditions.dl", "conditions", ConditionsProgram, func(cfg astgo.Config, gen []byte) error {
			return astgo.Check(cfg, ConditionsProgram, gen, conditionsUnit(), conditionsAnalysis())
		}},
	} {
		gen, err := os.ReadFile(p.file)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.check(astgo.Config{Package: "guard", Source: p.src, Func: p.fn}, gen); err != nil {
			t.Errorf("%s: %v", p.file, err)
		}
	}
}
