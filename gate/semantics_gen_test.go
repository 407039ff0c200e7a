package gate

import (
	"testing"

	"github.com/vouch-dev/vouch/internal/dlgen/astgo"
)

// TestSemanticsGenerated proves semantics_gen.go current (regenerate with
// go generate ./gate) and the unit and analysis it builds deep-equal to
// parsing and analysing semantics.dl.
func TestSemanticsGenerated(t *testing.T) {
	cfg := astgo.Config{Package: "gate", Source: "semantics.dl", Func: "semantics"}
	if err := astgo.CheckFile(cfg, "semantics_gen.go", Semantics(), semanticsUnit(), semanticsAnalysis()); err != nil {
		t.Fatal(err)
	}
}
