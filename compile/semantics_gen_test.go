package compile

import (
	"testing"

	"github.com/vouch-dev/vouch/internal/dlgen/astgo"
)

// TestSemanticsGenerated proves semantics_gen.go current (regenerate with
// go generate ./compile) and the unit and analysis it builds deep-equal to
// parsing and analysing semantics.dl.
func TestSemanticsGenerated(t *testing.T) {
	cfg := astgo.Config{Package: "compile", Source: "semantics.dl", Func: "semantics"}
	if err := astgo.CheckFile(cfg, "semantics_gen.go", Semantics(), SemanticsUnit(), semanticsAnalysis()); err != nil {
		t.Fatal(err)
	}
}
