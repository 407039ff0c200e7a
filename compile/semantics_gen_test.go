package compile

import (
	"os"
	"testing"

	"github.com/vouch-dev/vouch/internal/dlgen/astgo"
)

// TestSemanticsGenerated proves semantics_gen.go current (regenerate with
// go generate ./compile) and the unit and analysis it builds deep-equal to
// parsing and analysing semantics.dl.
func TestSemanticsGenerated(t *testing.T) {
	gen, err := os.ReadFile("semantics_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	cfg := astgo.Config{Package: "compile", Source: "semantics.dl", Func: "semantics"}
	if err := astgo.Check(cfg, Semantics(), gen, SemanticsUnit(), SemanticsAnalysis()); err != nil {
		t.Fatal(err)
	}
}
