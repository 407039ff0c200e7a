package guard

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/yamldoc"
)

// CaseFile is a `vouch guard test` file: calls and the decisions the
// policy must give them.
type CaseFile struct {
	File string
	// Policy is the policy named in the file (relative paths resolved
	// against the file's directory), "" when it names none.
	Policy string
	Cases  []Case
}

// Case is one test call.
type Case struct {
	Name      string
	Line      int
	Call      Call
	Principal map[string]any
	Counters  Counters
	// Expect is the decision wanted; Rules, when set, the ids of the
	// rules that must have findings, in order.
	Expect string
	Rules  []string
	// HasRules distinguishes `rules: []` (no findings) from no rules key.
	HasRules bool
}

var caseKeys = []string{"args", "counters", "cwd", "expect", "failed", "metadata", "name", "phase", "principal", "result", "rules", "tool"}

// LoadCases parses a test file.
func LoadCases(file string, data []byte) (cf *CaseFile, err error) {
	defer func() {
		if r := recover(); r != nil {
			cf, err = nil, yamldoc.ErrorList{{File: file, Msg: fmt.Sprintf("not valid YAML: %v", r)}}
		}
	}()
	root, err := yamldoc.Decode(file, data, "guard test file")
	if err != nil {
		return nil, err
	}
	p := &loader{Parser: yamldoc.Parser{File: file}}
	if root == nil {
		return nil, yamldoc.ErrorList{{File: file, Msg: "the test file is empty; add cases:"}}
	}
	cf = &CaseFile{File: file}
	f := p.Fields(root, "the test file", []string{"cases", "policy"})
	if pn, ok := f["policy"]; ok {
		if s, ok := p.Str(pn, "policy"); ok {
			if !filepath.IsAbs(s) {
				s = filepath.Join(filepath.Dir(file), s)
			}
			cf.Policy = s
		}
	}
	cn, ok := f["cases"]
	if !ok {
		if f != nil {
			p.Errorf(root, "the test file has no cases:")
		}
		return nil, p.Err()
	}
	cn = yamldoc.Deref(cn)
	if cn.Kind != yaml.SequenceNode || len(cn.Content) == 0 {
		p.Errorf(cn, "cases must be a non-empty list, found %s", yamldoc.KindName(cn))
		return nil, p.Err()
	}
	names := map[string]int{}
	for _, n := range cn.Content {
		c := Case{Line: n.Line, Call: Call{Phase: Pre, Harness: JSON, Args: map[string]any{}, Metadata: map[string]any{}}}
		cfields := p.Fields(n, "case", caseKeys)
		if cfields == nil {
			continue
		}
		for k, v := range cfields {
			switch k {
			case "name":
				c.Name, _ = p.Str(v, "name")
				if first, dup := names[c.Name]; dup {
					p.Errorf(v, "duplicate case name %q (first at line %d)", c.Name, first)
				}
				names[c.Name] = v.Line
			case "tool":
				c.Call.Tool, _ = p.Str(v, "tool")
			case "cwd":
				c.Call.Cwd, _ = p.Str(v, "cwd")
			case "phase":
				if s, ok := p.Str(v, "phase"); ok {
					if s != string(Pre) && s != string(Post) {
						p.Errorf(v, "phase must be pre or post, found %q", s)
					}
					c.Call.Phase = Phase(s)
				}
			case "args":
				c.Call.Args = p.anyMap(v, "args")
			case "metadata":
				c.Call.Metadata = p.anyMap(v, "metadata")
			case "principal":
				c.Principal = p.anyMap(v, "principal")
			case "result":
				var r any
				if err := v.Decode(&r); err != nil {
					p.Errorf(v, "result: %v", err)
				}
				c.Call.Result = normalize(r)
			case "failed":
				c.Call.Failed = p.boolean(v, "failed")
			case "counters":
				for ck, cv := range p.Fields(v, "counters", []string{"attempts", "consecutive_failures", "execs", "tool_calls"}) {
					var n int
					if cv.Decode(&n) != nil || n < 0 {
						p.Errorf(cv, "%s must be a whole number of at least 0, found %s", ck, yamldoc.KindName(cv))
					}
					switch ck {
					case "attempts":
						c.Counters.Attempts = n
					case "execs":
						c.Counters.Execs = n
					case "tool_calls":
						c.Counters.ToolCalls = n
					case "consecutive_failures":
						c.Counters.ConsecutiveFailures = n
					}
				}
			case "expect":
				if s, ok := p.Str(v, "expect"); ok {
					if s != Allow && s != Deny && s != Ask {
						p.Errorf(v, "expect must be allow, deny or ask, found %q", s)
					}
					c.Expect = s
				}
			case "rules":
				c.HasRules = true
				v = yamldoc.Deref(v)
				if v.Kind == yaml.SequenceNode && len(v.Content) == 0 {
					c.Rules = []string{}
				} else {
					c.Rules = values(p.strings(v, "rules"))
				}
			}
		}
		if c.Name == "" {
			p.Errorf(n, "case has no name")
		}
		if c.Call.Tool == "" {
			p.Errorf(n, "case %q has no tool", c.Name)
		}
		if c.Expect == "" {
			p.Errorf(n, "case %q has no expect (allow, deny or ask)", c.Name)
		}
		c.Call.SessionID = "test"
		c.Call.Event = string(c.Call.Phase)
		cf.Cases = append(cf.Cases, c)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	return cf, nil
}

// CaseResult is one case's outcome.
type CaseResult struct {
	Name     string    `json:"name"`
	Line     int       `json:"line"`
	Pass     bool      `json:"pass"`
	Want     string    `json:"want"`
	Got      string    `json:"got"`
	WantRule []string  `json:"want_rules,omitempty"`
	GotRules []string  `json:"got_rules"`
	Findings []Finding `json:"findings"`
	Error    string    `json:"error,omitempty"`
}

// Coverage counts, per rule the policy writes itself (not a built-in
// set's, nor the implicit vouch-unparsed-shell and vouch-truncated-shell),
// the cases in which it fired.
type Coverage struct {
	Rule  string `json:"rule"`
	Kind  string `json:"kind"`
	Cases int    `json:"cases"`
}

// RunCases decides every case and compares.
func RunCases(e *Engine, p *Policy, cf *CaseFile, env Env, home, root string) ([]CaseResult, []Coverage) {
	fired := map[string]int{}
	var out []CaseResult
	for _, c := range cf.Cases {
		call := c.Call
		cenv := env
		if c.Principal != nil {
			cenv.Principal = c.Principal
		}
		res := CaseResult{Name: c.Name, Line: c.Line, Want: c.Expect, WantRule: c.Rules, GotRules: []string{}}
		d, _, err := e.Decide(p, &call, c.Counters, cenv, Derive(&call, home, root))
		if err != nil {
			res.Error = err.Error()
			d = ErrorDecision(err)
		}
		res.Got, res.Findings = d.Decision, d.Findings
		seen := map[string]bool{}
		for _, f := range d.Findings {
			res.GotRules = append(res.GotRules, f.Rule)
			if !seen[f.Rule] {
				fired[f.Rule]++
				seen[f.Rule] = true
			}
		}
		res.Pass = res.Error == "" && res.Got == res.Want && (!c.HasRules || strings.Join(c.Rules, ",") == strings.Join(res.GotRules, ","))
		out = append(out, res)
	}
	var cov []Coverage
	for _, r := range p.Rules {
		// Coverage is of the rules the policy's author wrote: a built-in
		// set's rules and the implicit shell rules fire only on
		// calls the author's cases need not make, and counting them
		// would fail --coverage for every such policy.
		if r.Builtin != "" || implicitShellRule(r.ID) {
			continue
		}
		cov = append(cov, Coverage{Rule: r.ID, Kind: r.Kind, Cases: fired[r.ID]})
	}
	sort.SliceStable(cov, func(i, j int) bool { return cov[i].Rule < cov[j].Rule })
	return out, cov
}
