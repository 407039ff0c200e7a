package output

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/internal/junittest"
)

func TestJUnitCountsAndEscaping(t *testing.T) {
	d := &JUnitSuites{Name: "vouch"}
	d.Add(JUnitSuite{Name: "rules", File: "a.yaml", Cases: []JUnitCase{
		{Name: "pass", Classname: "rules"},
		{Name: "fail", Classname: "rules", Failure: &JUnitProblem{Message: At("a.yaml", 3, "bad <x> & \x01\x1b[31m"), Text: "line\nline"}},
		{Name: "skip", Classname: "rules", Skipped: &JUnitProblem{Message: "observed"}},
	}})
	d.Add(JUnitSuite{Name: "run", Cases: []JUnitCase{{Name: "config", Classname: "run", Error: &JUnitProblem{Message: At("b.yaml", 0, "broken \xff")}}}})
	if d.Tests != 4 || d.Failures != 1 || d.Errors != 1 || d.Suites[0].Skipped != 1 || d.Suites[1].Errors != 1 {
		t.Fatalf("counts = %d tests, %d failures, %d errors; suites %+v", d.Tests, d.Failures, d.Errors, d.Suites)
	}
	var b bytes.Buffer
	if err := WriteJUnit(&b, d); err != nil {
		t.Fatal(err)
	}
	junittest.Validate(t, b.Bytes())
	var back JUnitSuites
	if err := xml.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if got := back.Suites[0].Cases[1].Failure.Message; got != "a.yaml:3: bad <x> & \uFFFD\uFFFD[31m" {
		t.Errorf("failure message read back as %q", got)
	}
	if got := back.Suites[1].Cases[0].Error.Message; got != "b.yaml: broken \uFFFD" {
		t.Errorf("error message read back as %q", got)
	}
	if !strings.HasPrefix(b.String(), `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no XML declaration:\n%s", b.String())
	}
}
