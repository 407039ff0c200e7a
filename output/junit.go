package output

import (
	"encoding/xml"
	"fmt"
	"io"
)

// JUnit XML, as GitLab and Jenkins read it. The document follows the
// xunit-plugin's "JUnit 10" schema (junit-10.xsd), the one GitLab's
// documentation links: testsuites holds testsuite elements; a testsuite
// has the required name, tests, failures and errors (and skipped); a
// testcase has a required name and a classname, and holds at most one of
// failure, error or skipped (each with message and type) and system-out.
// That schema allows no file or line attribute on a testcase, so a
// failure's position is written into its message and text as file:line.
// No time attributes: vouch's reports are byte-identical across runs.

// JUnitSuites is the document's root.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one rule set: a rulespec, an architecture configuration.
type JUnitSuite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	// File is the rule set's file, "" for none.
	File  string      `xml:"file,attr,omitempty"`
	Cases []JUnitCase `xml:"testcase"`
}

// JUnitCase is one rule or predicate. At most one of Failure, Error and
// Skipped is set; none is a pass.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *JUnitProblem `xml:"failure"`
	Error     *JUnitProblem `xml:"error"`
	Skipped   *JUnitProblem `xml:"skipped"`
	// SystemOut carries details of a pass (warnings, baseline findings).
	SystemOut string `xml:"system-out,omitempty"`
}

// JUnitProblem is a failure, an error or a reason for skipping: a one-line
// message and the full text.
type JUnitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// Add appends a suite, counting its cases, and adds its counts to the
// document's.
func (d *JUnitSuites) Add(s JUnitSuite) {
	s.Tests, s.Failures, s.Errors, s.Skipped = len(s.Cases), 0, 0, 0
	for _, c := range s.Cases {
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
	d.Tests += s.Tests
	d.Failures += s.Failures
	d.Errors += s.Errors
	d.Suites = append(d.Suites, s)
}

// At prefixes msg with file:line, the position a reader of a JUnit report
// jumps to; file "" leaves msg as it is and line 0 leaves the line out.
func At(file string, line int, msg string) string {
	switch {
	case file == "":
		return msg
	case line > 0:
		return fmt.Sprintf("%s:%d: %s", file, line, msg)
	}
	return file + ": " + msg
}

// WriteJUnit writes d as an XML document with its declaration.
// encoding/xml replaces what XML 1.0 cannot hold (control characters from
// a hostile envelope, invalid UTF-8) with U+FFFD, so the document always
// parses.
func WriteJUnit(w io.Writer, d *JUnitSuites) error {
	data, err := xml.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("write JUnit: %w", err)
	}
	_, err = io.WriteString(w, xml.Header+string(data)+"\n")
	return err
}
