// Package junittest checks, in tests, that a JUnit XML report is one GitLab
// and Jenkins read. Go has no XSD validator, so it encodes the rules of the
// xunit-plugin's "JUnit 10" schema (jenkinsci/xunit-plugin,
// src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd,
// the schema GitLab's unit test report documentation points to) that a
// structural check can state:
//
//   - the document is well-formed XML (encoding/xml) with a testsuites root;
//   - testsuites has only the attributes name, time, tests, failures,
//     errors and holds only testsuite elements;
//   - testsuite requires name, tests, failures, errors; allows group, time,
//     skipped, timestamp, hostname, id, package, file, log, url; holds only
//     testsuite, properties, testcase, system-out, system-err;
//   - testcase requires name; allows time, classname, group; holds only
//     skipped, error, failure, rerunFailure, rerunError, flakyFailure,
//     flakyError, system-out, system-err;
//   - failure, error and skipped allow only type and message and hold text,
//     no elements; system-out and system-err hold text only; property
//     requires name and value;
//   - time attributes match the schema's SUREFIRE_TIME pattern.
//
// On top of the schema it checks that the counts add up, as consumers
// trust them: a testsuite's tests, failures, errors and skipped are the
// numbers of its testcases, of those with a failure, an error, a skipped;
// testsuites' totals are the sums over its suites; and a testcase has at
// most one outcome element.
package junittest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"testing"

	"github.com/vouch-dev/vouch/internal/lazyre"
)

// element is a parsed XML element.
type element struct {
	name     string
	attrs    map[string]string
	children []*element
	text     bool // holds non-whitespace character data
}

func parse(doc []byte) (*element, error) {
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var stack []*element
	var root *element
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &element{name: t.Name.Local, attrs: map[string]string{}}
			for _, a := range t.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, e)
			} else if root != nil {
				return nil, fmt.Errorf("more than one root element")
			} else {
				root = e
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 && len(bytes.TrimSpace(t)) > 0 {
				stack[len(stack)-1].text = true
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

type rule struct {
	required, optional []string
	children           []string
	textOnly           bool
}

var rules = map[string]rule{
	"testsuites": {optional: []string{"name", "time", "tests", "failures", "errors"}, children: []string{"testsuite"}},
	"testsuite": {required: []string{"name", "tests", "failures", "errors"},
		optional: []string{"group", "time", "skipped", "timestamp", "hostname", "id", "package", "file", "log", "url"},
		children: []string{"testsuite", "properties", "testcase", "system-out", "system-err"}},
	"testcase": {required: []string{"name"}, optional: []string{"time", "classname", "group"},
		children: []string{"skipped", "error", "failure", "rerunFailure", "rerunError", "flakyFailure", "flakyError", "system-out", "system-err"}},
	"failure":    {optional: []string{"type", "message"}, textOnly: true},
	"error":      {optional: []string{"type", "message"}, textOnly: true},
	"skipped":    {optional: []string{"type", "message"}, textOnly: true},
	"system-out": {textOnly: true},
	"system-err": {textOnly: true},
	"properties": {children: []string{"property"}},
	"property":   {required: []string{"name", "value"}},
}

var surefireTime = lazyre.New(`^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$`)

// Check returns every way doc breaks the rules in the package comment.
func Check(doc []byte) []error {
	root, err := parse(doc)
	if err != nil {
		return []error{err}
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if root.name != "testsuites" {
		bad("root element is <%s>, want <testsuites>", root.name)
		return errs
	}
	var walk func(e *element, path string)
	walk = func(e *element, path string) {
		r, ok := rules[e.name]
		if !ok {
			bad("%s: element <%s> is not in the schema", path, e.name)
			return
		}
		for _, a := range r.required {
			if _, ok := e.attrs[a]; !ok {
				bad("%s: required attribute %s is missing", path, a)
			}
		}
		for a, v := range e.attrs {
			if !slices.Contains(r.required, a) && !slices.Contains(r.optional, a) {
				bad("%s: attribute %s is not allowed", path, a)
			}
			if a == "time" && !surefireTime().MatchString(v) {
				bad("%s: time %q does not match SUREFIRE_TIME", path, v)
			}
		}
		if r.textOnly && len(e.children) > 0 {
			bad("%s: holds elements, want text only", path)
		}
		if !r.textOnly && e.text {
			bad("%s: holds text", path)
		}
		for i, c := range e.children {
			if !slices.Contains(r.children, c.name) {
				bad("%s: <%s> may not hold <%s>", path, e.name, c.name)
				continue
			}
			walk(c, fmt.Sprintf("%s/%s[%d]", path, c.name, i))
		}
	}
	walk(root, "testsuites")
	if len(errs) > 0 {
		return errs
	}
	count := func(e *element, attr string, want int, path string) {
		v, ok := e.attrs[attr]
		if !ok && want == 0 {
			return
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			bad("%s: %s=%q is not a count", path, attr, v)
			return
		}
		if n != want {
			bad("%s: %s=%d, but it holds %d", path, attr, n, want)
		}
	}
	var total [3]int
	for i, s := range root.children {
		path := fmt.Sprintf("testsuite[%d] %q", i, s.attrs["name"])
		var tests, failures, errors, skipped int
		for j, c := range s.children {
			if c.name != "testcase" {
				continue
			}
			tests++
			outcomes := 0
			for _, o := range c.children {
				switch o.name {
				case "failure":
					failures++
					outcomes++
				case "error":
					errors++
					outcomes++
				case "skipped":
					skipped++
					outcomes++
				}
			}
			if outcomes > 1 {
				bad("%s testcase[%d] %q: %d outcome elements, want at most one", path, j, c.attrs["name"], outcomes)
			}
		}
		count(s, "tests", tests, path)
		count(s, "failures", failures, path)
		count(s, "errors", errors, path)
		count(s, "skipped", skipped, path)
		total[0] += tests
		total[1] += failures
		total[2] += errors
	}
	count(root, "tests", total[0], "testsuites")
	count(root, "failures", total[1], "testsuites")
	count(root, "errors", total[2], "testsuites")
	return errs
}

// Validate fails t unless doc passes Check.
func Validate(t testing.TB, doc []byte) {
	t.Helper()
	if errs := Check(doc); len(errs) > 0 {
		for _, e := range errs {
			t.Error(e)
		}
		t.Fatalf("JUnit document:\n%s", doc)
	}
}
