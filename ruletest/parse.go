// Package ruletest runs a rulespec's test file (analysis/rulespec_test.yaml):
// cases of envelopes, each with the verdict and per-predicate statuses the
// author expects, so a rulespec can be checked like code before it gates
// anything.
//
// Verdicts come from verify, exactly as `vouch verify` computes them; this
// package only compares them with what the cases expect and records which
// outcomes each predicate has been seen to take.
package ruletest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/suggest"
)

// MaxBytes caps a test file's size; inline envelopes make them larger than
// rulespecs, but not unboundedly so.
const MaxBytes = 64 << 20

// File is a parsed test file.
type File struct {
	// Path is where the file was read from, as given.
	Path string
	// Rulespec is the rulespec's path, resolved against the file's
	// directory; "rulespec.yaml" next to the file when not set.
	Rulespec string
	// Strict runs every case as `vouch verify --strict` does.
	Strict bool
	Cases  []Case
}

// Pos is a 1-based position in the test file.
type Pos struct{ Line, Col int }

// Case is one envelope with its expectations.
type Case struct {
	Name string
	Pos  Pos
	// EnvelopePath is the envelope file, resolved against the test file's
	// directory; empty when the facts are inline.
	EnvelopePath string
	// Facts is the inline facts mapping as JSON, when given.
	Facts []byte
	// Verdict is the expected run verdict, "" when not checked.
	Verdict string
	// Predicates are the expected statuses, in file order.
	Predicates []Expect
}

// Expect is the expected status of one predicate, named by index or id.
type Expect struct {
	// Index is the predicate's index when named by number, else -1.
	Index int
	// ID is the predicate's id when named by id.
	ID     string
	Status string
	Pos    Pos
}

// Error is one problem in a test file.
type Error struct {
	File string
	Pos
	Msg string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// ErrorList is every problem found, in file order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Statuses are the statuses a case may expect.
var Statuses = []string{"fail", "pass", "skipped"}

var verdicts = []string{"fail", "pass"}

var (
	topKeys  = []string{"cases", "rulespec", "strict"}
	caseKeys = []string{"envelope", "facts", "name", "predicates", "verdict"}
)

// Load reads and parses the test file at path.
func Load(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, ErrorList{{File: path, Msg: "cannot read test file: " + reason(err)}}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, ErrorList{{File: path, Msg: "cannot read test file: " + reason(err)}}
	}
	if len(data) > MaxBytes {
		return nil, ErrorList{{File: path, Msg: fmt.Sprintf("test file is larger than %d bytes; move large envelopes into files of their own", MaxBytes)}}
	}
	return Parse(path, data)
}

func reason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Parse parses test file text; path names it in errors and anchors relative
// paths. A returned error is an ErrorList with every problem found.
func Parse(path string, data []byte) (file *File, err error) {
	// yaml.v3 panics on some malformed input; that is bad input, not a
	// crash.
	defer func() {
		if r := recover(); r != nil {
			file, err = nil, ErrorList{{File: path, Msg: fmt.Sprintf("not valid YAML: %v", r)}}
		}
	}()
	p := &parser{path: path}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil && err != io.EOF {
		return nil, ErrorList{{File: path, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return nil, ErrorList{{File: path, Msg: "test file is empty; it needs cases:"}}
	}
	var next yaml.Node
	if err := dec.Decode(&next); err != io.EOF {
		at := Pos{next.Line, next.Column}
		if len(next.Content) > 0 {
			at = Pos{next.Content[0].Line, next.Content[0].Column}
		}
		return nil, ErrorList{{File: path, Pos: at, Msg: "the test file holds more than one YAML document; keep every case in one document"}}
	}
	f := &File{Path: path, Rulespec: "rulespec.yaml"}
	p.top(root.Content[0], f)
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool {
			if p.errs[i].Line != p.errs[j].Line {
				return p.errs[i].Line < p.errs[j].Line
			}
			return p.errs[i].Col < p.errs[j].Col
		})
		return nil, p.errs
	}
	return f, nil
}

type parser struct {
	path string
	errs ErrorList
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	e := &Error{File: p.path, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	p.errs = append(p.errs, e)
}

// fields reads a mapping, reporting unknown and duplicate keys.
func (p *parser) fields(n *yaml.Node, what string, known []string) map[string]*yaml.Node {
	if n.Kind == yaml.AliasNode {
		p.errorf(n, "aliases are not supported in test files; write %s out", what)
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping, found %s", what, kind(n))
		return nil
	}
	out := make(map[string]*yaml.Node)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, dup := out[k.Value]; dup {
			p.errorf(k, "duplicate key %q in %s", k.Value, what)
			continue
		}
		if !contains(known, k.Value) {
			p.errorf(k, "unknown key %q in %s%s; allowed keys are %s", k.Value, what, suggest.Hint(k.Value, known), strings.Join(known, ", "))
			continue
		}
		out[k.Value] = v
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return strconv.Quote(n.Value)
	}
	return "an alias"
}

func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		p.errorf(n, "%s must be a string, found %s", what, kind(n))
		return "", false
	}
	return n.Value, true
}

func (p *parser) top(n *yaml.Node, f *File) {
	fs := p.fields(n, "the test file", topKeys)
	if fs == nil {
		return
	}
	if v, ok := fs["rulespec"]; ok {
		if s, ok := p.str(v, "rulespec"); ok {
			f.Rulespec = s
		}
	}
	if v, ok := fs["strict"]; ok {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			p.errorf(v, "strict must be true or false, found %s", kind(v))
		} else {
			f.Strict = v.Value == "true"
		}
	}
	cases, ok := fs["cases"]
	if !ok {
		p.errorf(n, "the test file has no cases; add cases: with a name, an envelope or facts, and a verdict or predicates for each")
		return
	}
	if cases.Kind != yaml.SequenceNode || len(cases.Content) == 0 {
		p.errorf(cases, "cases must be a non-empty list, found %s", kind(cases))
		return
	}
	names := make(map[string]int)
	for _, item := range cases.Content {
		c, ok := p.testCase(item)
		if !ok {
			continue
		}
		if line, dup := names[c.Name]; dup {
			p.errorf(item, "duplicate case name %q (first at line %d); names must be unique so --run can pick one", c.Name, line)
			continue
		}
		names[c.Name] = item.Line
		f.Cases = append(f.Cases, c)
	}
}

func (p *parser) testCase(n *yaml.Node) (Case, bool) {
	c := Case{Pos: Pos{n.Line, n.Column}}
	fs := p.fields(n, "a case", caseKeys)
	if fs == nil {
		return c, false
	}
	ok := true
	if v, has := fs["name"]; !has {
		p.errorf(n, "case has no name; add name: saying what the case shows")
		ok = false
	} else if c.Name, ok = p.str(v, "name"); ok && c.Name == "" {
		p.errorf(v, "case name is empty")
		ok = false
	}
	env, hasEnv := fs["envelope"]
	facts, hasFacts := fs["facts"]
	switch {
	case hasEnv && hasFacts:
		p.errorf(facts, "case %q has both envelope: and facts:; use one", c.Name)
		ok = false
	case hasEnv:
		if s, sok := p.str(env, "envelope"); sok {
			c.EnvelopePath = s
		} else {
			ok = false
		}
	case hasFacts:
		if facts.Kind != yaml.MappingNode {
			p.errorf(facts, "facts must be a mapping, found %s", kind(facts))
			ok = false
			break
		}
		js, err := envelope.ToJSON(p.path, facts, envelope.DefaultLimits())
		if err != nil {
			var ee *envelope.Error
			if errors.As(err, &ee) {
				p.errs = append(p.errs, &Error{File: p.path, Pos: Pos{ee.Line, ee.Col}, Msg: ee.Msg})
			} else {
				p.errorf(facts, "%v", err)
			}
			ok = false
		}
		c.Facts = js
	default:
		p.errorf(n, "case %q has neither envelope: (a path) nor facts: (inline); add one", c.Name)
		ok = false
	}
	if v, has := fs["verdict"]; has {
		if s, sok := p.str(v, "verdict"); sok {
			if !contains(verdicts, s) {
				p.errorf(v, "unknown verdict %q%s; use pass or fail", s, suggest.Hint(s, verdicts))
				ok = false
			}
			c.Verdict = s
		} else {
			ok = false
		}
	}
	if v, has := fs["predicates"]; has {
		if v.Kind != yaml.MappingNode {
			p.errorf(v, "predicates must be a mapping from predicate index or id to pass, fail or skipped, found %s", kind(v))
			ok = false
		} else {
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, s := v.Content[i], v.Content[i+1]
				e := Expect{Index: -1, Pos: Pos{k.Line, k.Column}}
				if k.Tag == "!!int" {
					n, err := strconv.Atoi(k.Value)
					if err != nil || n < 0 {
						p.errorf(k, "predicate index %s must be a non-negative integer", k.Value)
						ok = false
						continue
					}
					e.Index = n
				} else if k.Kind == yaml.ScalarNode && k.Tag == "!!str" {
					e.ID = k.Value
				} else {
					p.errorf(k, "name a predicate by its index or its id, found %s", kind(k))
					ok = false
					continue
				}
				st, sok := p.str(s, "a predicate's expected status")
				if !sok {
					ok = false
					continue
				}
				if !contains(Statuses, st) {
					p.errorf(s, "unknown status %q%s; use pass, fail or skipped", st, suggest.Hint(st, Statuses))
					ok = false
					continue
				}
				e.Status = st
				c.Predicates = append(c.Predicates, e)
			}
		}
	}
	if ok && c.Verdict == "" && len(c.Predicates) == 0 {
		p.errorf(n, "case %q expects nothing; add verdict: or predicates:", c.Name)
		ok = false
	}
	return c, ok
}
