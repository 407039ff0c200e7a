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
	"errors"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/yamldoc"
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
type Pos = yamldoc.Pos

// Case is one envelope with its expectations.
type Case struct {
	Name string
	Pos  Pos
	// EnvelopePath is the envelope file, resolved against the test file's
	// directory; empty when the facts are inline.
	EnvelopePath string
	// Facts is the inline facts mapping as JSON, when given.
	Facts []byte
	// Repo is the inline repository document (the fields claims with
	// from: repo select) as JSON, when given; nil means a repository
	// with no changes. Rule tests never run git.
	Repo []byte
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

// Error is one problem in a test file, at file:line:col.
type Error = yamldoc.Error

// ErrorList is every problem found, in file order.
type ErrorList = yamldoc.ErrorList

// Statuses are the statuses a case may expect.
var Statuses = []string{"fail", "pass", "skipped"}

var verdicts = []string{"fail", "pass"}

var (
	topKeys  = []string{"cases", "rulespec", "strict"}
	caseKeys = []string{"envelope", "facts", "name", "predicates", "repo", "verdict"}
)

// Load reads and parses the test file at path.
func Load(path string) (*File, error) {
	data, err := yamldoc.ReadFile(path, "test file", MaxBytes)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses test file text; path names it in errors and anchors relative
// paths. A returned error is an ErrorList with every problem found.
func Parse(path string, data []byte) (*File, error) {
	doc, err := yamldoc.Decode(path, data, "test file")
	if err != nil {
		return nil, err
	}
	if doc == nil {
		return nil, ErrorList{{File: path, Msg: "test file is empty; it needs cases:"}}
	}
	p := &parser{Parser: yamldoc.Parser{File: path}}
	f := &File{Path: path, Rulespec: "rulespec.yaml"}
	p.top(doc, f)
	if err := p.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

type parser struct {
	yamldoc.Parser
}

func (p *parser) top(n *yaml.Node, f *File) {
	fs := p.Fields(n, "the test file", topKeys)
	if fs == nil {
		return
	}
	if v, ok := fs["rulespec"]; ok {
		if s, ok := p.Str(v, "rulespec"); ok {
			f.Rulespec = s
		}
	}
	if v, ok := fs["strict"]; ok {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			p.Errorf(v, "strict must be true or false, found %s", yamldoc.KindName(v))
		} else {
			f.Strict = v.Value == "true"
		}
	}
	cases, ok := fs["cases"]
	if !ok {
		p.Errorf(n, "the test file has no cases; add cases: with a name, an envelope or facts, and a verdict or predicates for each")
		return
	}
	if cases.Kind != yaml.SequenceNode || len(cases.Content) == 0 {
		p.Errorf(cases, "cases must be a non-empty list, found %s", yamldoc.KindName(cases))
		return
	}
	names := make(map[string]int)
	for _, item := range cases.Content {
		c, ok := p.testCase(item)
		if !ok {
			continue
		}
		if line, dup := names[c.Name]; dup {
			p.Errorf(item, "duplicate case name %q (first at line %d); names must be unique so --run can pick one", c.Name, line)
			continue
		}
		names[c.Name] = item.Line
		f.Cases = append(f.Cases, c)
	}
}

func (p *parser) testCase(n *yaml.Node) (Case, bool) {
	c := Case{Pos: Pos{Line: n.Line, Col: n.Column}}
	fs := p.Fields(n, "a case", caseKeys)
	if fs == nil {
		return c, false
	}
	ok := true
	if v, has := fs["name"]; !has {
		p.Errorf(n, "case has no name; add name: saying what the case shows")
		ok = false
	} else if c.Name, ok = p.Str(v, "name"); ok && c.Name == "" {
		p.Errorf(v, "case name is empty")
		ok = false
	}
	env, hasEnv := fs["envelope"]
	facts, hasFacts := fs["facts"]
	switch {
	case hasEnv && hasFacts:
		p.Errorf(facts, "case %q has both envelope: and facts:; use one", c.Name)
		ok = false
	case hasEnv:
		if s, sok := p.Str(env, "envelope"); sok {
			c.EnvelopePath = s
		} else {
			ok = false
		}
	case hasFacts:
		if facts.Kind != yaml.MappingNode {
			p.Errorf(facts, "facts must be a mapping, found %s", yamldoc.KindName(facts))
			ok = false
			break
		}
		js, err := envelope.ToJSON(p.File, facts, envelope.DefaultLimits())
		if err != nil {
			var ee *envelope.Error
			if errors.As(err, &ee) {
				p.Errs = append(p.Errs, &Error{File: p.File, Pos: Pos{Line: ee.Line, Col: ee.Col}, Msg: ee.Msg})
			} else {
				p.Errorf(facts, "%v", err)
			}
			ok = false
		}
		c.Facts = js
	default:
		p.Errorf(n, "case %q has neither envelope: (a path) nor facts: (inline); add one", c.Name)
		ok = false
	}
	if v, has := fs["repo"]; has {
		if v.Kind != yaml.MappingNode {
			p.Errorf(v, "repo must be a mapping of repository facts such as changed: [a.go], found %s", yamldoc.KindName(v))
			ok = false
		} else if n := len(p.Errs); p.Fields(v, "repo", repofacts.Fields()) == nil || len(p.Errs) > n {
			ok = false
		} else if js, err := envelope.ToJSON(p.File, v, envelope.DefaultLimits()); err != nil {
			var ee *envelope.Error
			if errors.As(err, &ee) {
				p.Errs = append(p.Errs, &Error{File: p.File, Pos: Pos{Line: ee.Line, Col: ee.Col}, Msg: ee.Msg})
			} else {
				p.Errorf(v, "%v", err)
			}
			ok = false
		} else {
			c.Repo = js
		}
	}
	if v, has := fs["verdict"]; has {
		if s, sok := p.Str(v, "verdict"); sok {
			if !yamldoc.Contains(verdicts, s) {
				p.Errorf(v, "unknown verdict %q%s; use pass or fail", s, suggest.Hint(s, verdicts))
				ok = false
			}
			c.Verdict = s
		} else {
			ok = false
		}
	}
	if v, has := fs["predicates"]; has {
		if v.Kind != yaml.MappingNode {
			p.Errorf(v, "predicates must be a mapping from predicate index or id to pass, fail or skipped, found %s", yamldoc.KindName(v))
			ok = false
		} else {
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, s := v.Content[i], v.Content[i+1]
				e := Expect{Index: -1, Pos: Pos{Line: k.Line, Col: k.Column}}
				if k.Tag == "!!int" {
					n, err := strconv.Atoi(k.Value)
					if err != nil || n < 0 {
						p.Errorf(k, "predicate index %s must be a non-negative integer", k.Value)
						ok = false
						continue
					}
					e.Index = n
				} else if k.Kind == yaml.ScalarNode && k.Tag == "!!str" {
					e.ID = k.Value
				} else {
					p.Errorf(k, "name a predicate by its index or its id, found %s", yamldoc.KindName(k))
					ok = false
					continue
				}
				st, sok := p.Str(s, "a predicate's expected status")
				if !sok {
					ok = false
					continue
				}
				if !yamldoc.Contains(Statuses, st) {
					p.Errorf(s, "unknown status %q%s; use pass, fail or skipped", st, suggest.Hint(st, Statuses))
					ok = false
					continue
				}
				e.Status = st
				c.Predicates = append(c.Predicates, e)
			}
		}
	}
	if ok && c.Verdict == "" && len(c.Predicates) == 0 {
		p.Errorf(n, "case %q expects nothing; add verdict: or predicates:", c.Name)
		ok = false
	}
	return c, ok
}
