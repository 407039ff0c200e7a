package junittest

import (
	"strings"
	"testing"
)

const good = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="vouch" tests="3" failures="1" errors="1">
  <testsuite name="s" tests="3" failures="1" errors="1" skipped="0" file="a.yaml">
    <testcase name="a" classname="s"><failure message="m" type="t">a.yaml:3: m</failure></testcase>
    <testcase name="b" classname="s"><error message="e">boom</error></testcase>
    <testcase name="c" classname="s" time="0.5"><system-out>ok</system-out></testcase>
  </testsuite>
</testsuites>
`

func TestCheck(t *testing.T) {
	tests := []struct{ name, old, new, want string }{
		{"valid", "", "", ""},
		{"not XML", `</testsuites>`, ``, "not well-formed"},
		{"wrong root", `<testsuites name="vouch" tests="3" failures="1" errors="1">`, `<testsuitez>`, "not well-formed"},
		{"file on testcase", `<testcase name="a" classname="s">`, `<testcase name="a" classname="s" file="x">`, "attribute file is not allowed"},
		{"missing tests", `<testsuite name="s" tests="3"`, `<testsuite name="s"`, "required attribute tests"},
		{"missing case name", `<testcase name="b" classname="s">`, `<testcase classname="s">`, "required attribute name"},
		{"unknown element", `<system-out>ok</system-out>`, `<output>ok</output>`, "may not hold <output>"},
		{"element in failure", `a.yaml:3: m</failure>`, `<b>x</b></failure>`, "text only"},
		{"bad time", `time="0.5"`, `time="half"`, "SUREFIRE_TIME"},
		{"suite count off", `<testsuite name="s" tests="3"`, `<testsuite name="s" tests="4"`, "tests=4, but it holds 3"},
		{"total off", `<testsuites name="vouch" tests="3" failures="1"`, `<testsuites name="vouch" tests="3" failures="2"`, "failures=2, but it holds 1"},
		{"two outcomes", `<error message="e">boom</error>`, `<error message="e">boom</error><skipped message="s"/>`, "2 outcome elements"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := good
			if tt.old != "" {
				if !strings.Contains(doc, tt.old) {
					t.Fatalf("fixture lacks %q", tt.old)
				}
				doc = strings.Replace(doc, tt.old, tt.new, 1)
			}
			errs := Check([]byte(doc))
			if tt.want == "" {
				if len(errs) > 0 {
					t.Fatalf("valid document rejected: %v", errs)
				}
				return
			}
			for _, e := range errs {
				if strings.Contains(e.Error(), tt.want) {
					return
				}
			}
			t.Errorf("errors %v, want one containing %q", errs, tt.want)
		})
	}
}
