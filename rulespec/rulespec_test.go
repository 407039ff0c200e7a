package rulespec

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkView is the part of a Check the tests compare: the value as raw JSON.
type checkView struct {
	Claim string
	Rule  Rule
	Raw   string // Value.Raw, or "" when Value is nil
	Pos   Pos
}

type predicateView struct {
	Index  int
	ID     string
	Check  checkView
	Source Source
	Notes  string
	When   *checkView
}

func viewCheck(c Check) checkView {
	v := checkView{Claim: c.Claim, Rule: c.Rule, Pos: c.Pos}
	if c.Value != nil {
		v.Raw = c.Value.Raw
	}
	return v
}

func viewPredicates(ps []Predicate) []predicateView {
	var out []predicateView
	for _, p := range ps {
		v := predicateView{Index: p.Index, ID: p.ID, Check: viewCheck(p.Check), Source: p.Source, Notes: p.Notes}
		if p.When != nil {
			w := viewCheck(*p.When)
			v.When = &w
		}
		out = append(out, v)
	}
	return out
}

func TestLoadSeed(t *testing.T) {
	const path = "testdata/seed.yaml"
	rs, err := Load(path)
	if err != nil {
		t.Fatalf("Load(%s): %v", path, err)
	}
	if rs.File != path {
		t.Errorf("File = %q, want %q", rs.File, path)
	}
	if len(rs.SHA256) != 64 {
		t.Errorf("SHA256 = %q, want 64 hex digits", rs.SHA256)
	}

	type claimView struct {
		Name, Selector string
		Pos            Pos
	}
	var claims []claimView
	for _, c := range rs.Claims {
		claims = append(claims, claimView{c.Name, c.Selector.String(), c.Pos})
	}
	wantClaims := []claimView{
		{"caps", "csv_importer.capabilities", Pos{Line: 2, Col: 5}},
		{"file", "csv_importer.file", Pos{Line: 4, Col: 5}},
		{"tests", "csv_importer.tests", Pos{Line: 6, Col: 5}},
		{"breaking", "api_changes.breaking", Pos{Line: 8, Col: 5}},
		{"no_breaking", "breaking_changes", Pos{Line: 10, Col: 5}},
	}
	if diff := cmp.Diff(wantClaims, claims); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}

	wantPreds := []predicateView{
		{Index: 0, Check: checkView{"caps", Exists, "", Pos{Line: 13, Col: 5}}, Source: TaskPrompt},
		{Index: 1, Check: checkView{"caps", Contains, `"handle_csv"`, Pos{Line: 16, Col: 5}}, Source: TaskPrompt},
		{Index: 2, Check: checkView{"caps", NotContains, `"legacy_parser"`, Pos{Line: 20, Col: 5}}, Source: Memory},
		{Index: 3, Check: checkView{"caps", MinLength, `2`, Pos{Line: 24, Col: 5}}, Source: TaskPrompt},
		{Index: 4, Check: checkView{"file", Matches, `"^src/.*\\.rs$"`, Pos{Line: 28, Col: 5}}, Source: TaskPrompt},
		{Index: 5, Check: checkView{"tests", MinLength, `1`, Pos{Line: 32, Col: 5}}, Source: TaskPrompt},
		{Index: 6, Check: checkView{"no_breaking", NotExists, "", Pos{Line: 36, Col: 5}}, Source: TaskPrompt},
		{
			Index:  7,
			Check:  checkView{"caps", Contains, `"migration_guide"`, Pos{Line: 39, Col: 5}},
			Source: TaskPrompt,
			Notes:  "Breaking changes require a migration guide capability",
			When:   &checkView{"breaking", Equals, `true`, Pos{Line: 44, Col: 7}},
		},
	}
	if diff := cmp.Diff(wantPreds, viewPredicates(rs.Predicates)); diff != "" {
		t.Errorf("predicates (-want +got):\n%s", diff)
	}

	// The matches predicate carries its compiled pattern; no other does.
	for i, p := range rs.Predicates {
		if (p.Regexp != nil) != (p.Rule == Matches) {
			t.Errorf("predicate %d (%s): Regexp = %v", i, p.Rule, p.Regexp)
		}
	}
	re := rs.Predicates[4].Regexp
	if re == nil || !re.MatchString("src/lib.rs") || re.MatchString("src/lib.go") {
		t.Errorf("matches regexp = %v, want one matching src/lib.rs and not src/lib.go", re)
	}
}

const header = `claims:
  - name: caps
    selector: a.caps
  - name: file
    selector: a.file
predicates:
`

// TestParseValid covers valid forms beyond the seed example: ids, every
// rule with its value, and YAML spellings that must load.
func TestParseValid(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []predicateView
	}{{
		name: "ids and every rule",
		yaml: header + `  - {id: caps-exist_1, claim: caps, rule: exists}
  - {id: x2, claim: caps, rule: not_exists}
  - {claim: caps, rule: equals, value: {a: [1, "b"]}}
  - {claim: caps, rule: any_of, value: [a, 1, true]}
  - {claim: caps, rule: none_of, value: []}
  - {claim: caps, rule: greater_than, value: -1.5}
  - {claim: caps, rule: less_than, value: 10}
  - {claim: caps, rule: max_length, value: 0}
  - {claim: file, rule: matches, value: 'x'}
  - {claim: caps, rule: equals, value: "null"}
  - {claim: caps, rule: exists, notes: ~}
`,
		want: []predicateView{
			{Index: 0, ID: "caps-exist_1", Check: checkView{"caps", Exists, "", Pos{Line: 7, Col: 5}}},
			{Index: 1, ID: "x2", Check: checkView{"caps", NotExists, "", Pos{Line: 8, Col: 5}}},
			{Index: 2, Check: checkView{"caps", Equals, `{"a":[1,"b"]}`, Pos{Line: 9, Col: 5}}},
			{Index: 3, Check: checkView{"caps", AnyOf, `["a",1,true]`, Pos{Line: 10, Col: 5}}},
			{Index: 4, Check: checkView{"caps", NoneOf, `[]`, Pos{Line: 11, Col: 5}}},
			{Index: 5, Check: checkView{"caps", GreaterThan, `-1.5`, Pos{Line: 12, Col: 5}}},
			{Index: 6, Check: checkView{"caps", LessThan, `10`, Pos{Line: 13, Col: 5}}},
			{Index: 7, Check: checkView{"caps", MaxLength, `0`, Pos{Line: 14, Col: 5}}},
			{Index: 8, Check: checkView{"file", Matches, `"x"`, Pos{Line: 15, Col: 5}}},
			{Index: 9, Check: checkView{"caps", Equals, `"null"`, Pos{Line: 16, Col: 5}}},
			{Index: 10, Check: checkView{"caps", Exists, "", Pos{Line: 17, Col: 5}}},
		},
	}, {
		name: "leading document marker and anchors",
		yaml: "---\n" + header + `  - claim: caps
    rule: any_of
    value: &v [a, b]
  - claim: caps
    rule: none_of
    value: *v
    when: {claim: file, rule: exists}
...
`,
		want: []predicateView{
			{Index: 0, Check: checkView{"caps", AnyOf, `["a","b"]`, Pos{Line: 8, Col: 5}}},
			{Index: 1, Check: checkView{"caps", NoneOf, `["a","b"]`, Pos{Line: 11, Col: 5}},
				When: &checkView{"file", Exists, "", Pos{Line: 14, Col: 11}}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Parse("r.yaml", []byte(tt.yaml))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, viewPredicates(rs.Predicates)); diff != "" {
				t.Errorf("predicates (-want +got):\n%s", diff)
			}
		})
	}
}

// wantErr is one expected error: its line:col, and its message, which must
// match exactly when exact is set and otherwise contain msg.
type wantErr struct {
	pos   string
	msg   string
	exact bool
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []wantErr
	}{{
		name: "unknown top-level key",
		yaml: "claims:\n  - name: caps\n    selector: a.caps\npredicate:\n  - claim: caps\n    rule: exists\n",
		want: []wantErr{
			{"1:1", "the rulespec has no predicates; add predicates: with at least one predicate (a rulespec that checks nothing cannot pass)", true},
			{"4:1", `unknown key "predicate" in the rulespec (did you mean "predicates"?); allowed keys are claims, mode, predicates`, true},
		},
	}, {
		name: "unknown predicate key",
		yaml: header + "  - claim: caps\n    rule: contains\n    valeu: x\n",
		want: []wantErr{
			{"7:5", "rule contains needs a value; add value:", true},
			{"9:5", `unknown key "valeu" in a predicate (did you mean "value"?); allowed keys are claim, id, mode, notes, rule, source, value, value_from, when`, true},
		},
	}, {
		name: "unknown when key",
		yaml: header + "  - claim: caps\n    rule: exists\n    when:\n      claim: file\n      rule: exists\n      rul: x\n",
		want: []wantErr{
			{"12:7", `unknown key "rul" in a when condition (did you mean "rule"?); allowed keys are claim, rule, value, value_from`, true},
		},
	}, {
		name: "when is not a mapping",
		yaml: header + "  - claim: caps\n    rule: exists\n    when: file\n",
		want: []wantErr{{"9:11", `a when condition must be a mapping, found "file"`, true}},
	}, {
		name: "unknown rule",
		yaml: header + "  - claim: caps\n    rule: min_len\n    value: 2\n",
		want: []wantErr{
			{"8:11", `unknown rule "min_len" (did you mean "min_length"?); use one of any_of, contains, equals, exists, file_exists, greater_than, less_than, matches, max_length, min_length, no_file_exists, none_of, not_contains, not_exists, same_set, subset_of, superset_of`, true},
		},
	}, {
		name: "unknown predicate mode",
		yaml: header + "  - claim: caps\n    rule: exists\n    mode: observer\n",
		want: []wantErr{{"9:11", `unknown mode "observer" (did you mean "observe"?); use enforce or observe`, true}},
	}, {
		name: "unknown rulespec mode",
		yaml: "mode: enforced\n" + header + "  - claim: caps\n    rule: exists\n",
		want: []wantErr{{"1:7", `unknown mode "enforced" (did you mean "enforce"?); use enforce or observe`, true}},
	}, {
		name: "empty mode",
		yaml: header + "  - claim: caps\n    rule: exists\n    mode:\n",
		want: []wantErr{{"9:10", "mode is empty; use enforce or observe, or remove mode:", true}},
	}, {
		name: "evidence rule takes no value",
		yaml: header + "  - claim: file\n    rule: file_exists\n    value: x\n",
		want: []wantErr{{"9:12", "rule file_exists takes no value; remove value:", true}},
	}, {
		name: "rule not a string",
		yaml: header + "  - claim: caps\n    rule: [exists]\n",
		want: []wantErr{{"8:11", "rule must be a string, found a list", true}},
	}, {
		name: "missing claim and rule",
		yaml: header + "  - source: memory\n",
		want: []wantErr{
			{"7:5", "predicate has no claim; add claim: naming one of the claims", true},
			{"7:5", "predicate has no rule; add rule: with one of any_of,", false},
		},
	}, {
		name: "undefined claim in a predicate",
		yaml: header + "  - claim: cap\n    rule: exists\n",
		want: []wantErr{
			{"7:12", `predicate names undefined claim "cap" (did you mean "caps"?); define it under claims:`, true},
		},
	}, {
		name: "undefined claim in a when",
		yaml: header + "  - claim: caps\n    rule: exists\n    when: {claim: fiel, rule: exists}\n",
		want: []wantErr{
			{"9:19", `when condition names undefined claim "fiel" (did you mean "file"?); define it under claims:`, true},
		},
	}, {
		name: "undefined claim far from any",
		yaml: header + "  - claim: zzzzzzzz\n    rule: exists\n",
		want: []wantErr{{"7:12", `predicate names undefined claim "zzzzzzzz"; define it under claims:`, true}},
	}, {
		name: "duplicate claim names",
		yaml: "claims:\n  - name: caps\n    selector: a\n  - name: caps\n    selector: b\npredicates:\n  - claim: caps\n    rule: exists\n",
		want: []wantErr{
			{"4:11", `duplicate claim name "caps" (first at line 2); claim names must be unique`, true},
		},
	}, {
		name: "claim without name or selector",
		yaml: "claims:\n  - name: caps\n  - selector: a\n  - name: ''\n    selector: b\npredicates:\n  - claim: caps\n    rule: exists\n",
		want: []wantErr{
			{"2:5", `claim "caps" has no selector; add selector: with a path`, false},
			{"3:5", "claim has no name; add name: with a unique name that predicates refer to", true},
			{"4:11", "claim name is empty; write a unique name that predicates refer to", true},
		},
	}, {
		name: "claim is not a mapping",
		yaml: "claims:\n  - caps\npredicates:\n  - claim: caps\n    rule: exists\n",
		want: []wantErr{
			{"2:5", `a claim must be a mapping, found "caps"`, true},
			{"4:12", `predicate names undefined claim "caps"`, false},
		},
	}, {
		name: "duplicate keys in a predicate",
		yaml: header + "  - claim: caps\n    rule: exists\n    rule: not_exists\n",
		want: []wantErr{
			{"9:5", `duplicate key "rule" in a predicate (first at line 8); remove one of them`, true},
		},
	}, {
		name: "duplicate top-level key",
		yaml: header + "  - claim: caps\n    rule: exists\nclaims: []\n",
		want: []wantErr{{"9:1", `duplicate key "claims" in the rulespec (first at line 1)`, false}},
	}, {
		name: "value missing",
		yaml: header + "  - claim: caps\n    rule: any_of\n  - claim: caps\n    rule: min_length\n",
		want: []wantErr{
			{"7:5", "rule any_of needs a list of values; add value:", true},
			{"9:5", "rule min_length needs a non-negative integer; add value:", true},
		},
	}, {
		name: "value given for exists and not_exists",
		yaml: header + "  - claim: caps\n    rule: exists\n    value: true\n  - claim: caps\n    rule: not_exists\n    value: null\n",
		want: []wantErr{
			{"9:12", "rule exists takes no value; remove value:", true},
			{"12:12", "rule not_exists takes no value; remove value:", true},
		},
	}, {
		name: "value null",
		yaml: header + "  - claim: caps\n    rule: equals\n    value: null\n  - claim: caps\n    rule: contains\n    value:\n",
		want: []wantErr{
			{"9:12", "rule equals needs a value, found null; to require that a claim is absent use rule: not_exists", true},
			{"12:11", "rule contains needs a value, found null", true},
		},
	}, {
		name: "any_of with a scalar",
		yaml: header + "  - claim: caps\n    rule: any_of\n    value: x\n",
		want: []wantErr{{"9:12", `rule any_of needs a list such as [a, b], found "x"`, true}},
	}, {
		name: "any_of containing null, every null reported",
		yaml: header + "  - claim: caps\n    rule: any_of\n    value: [a, null, b, ~]\n",
		want: []wantErr{
			{"9:16", "rule any_of: list members must not be null (null is never a value); remove it, or quote it if you mean the string", true},
			{"9:25", "rule any_of: list members must not be null", false},
		},
	}, {
		name: "min_length negative, float, string, too large",
		yaml: header + `  - {claim: caps, rule: min_length, value: -1}
  - {claim: caps, rule: min_length, value: 1.5}
  - {claim: caps, rule: min_length, value: "3"}
  - {claim: caps, rule: max_length, value: 99999999999999999999}
  - {claim: caps, rule: max_length, value: 9223372036854775808}
`,
		want: []wantErr{
			{"7:44", "rule min_length needs a non-negative integer, found -1", true},
			{"8:44", "rule min_length needs a non-negative integer, found the number 1.5", true},
			{"9:44", `rule min_length needs a non-negative integer, found "3"`, true},
			{"10:44", "rule max_length needs a non-negative integer, found 99999999999999999999, which is too large", true},
			{"11:44", "found 9223372036854775808, which is too large", false},
		},
	}, {
		name: "greater_than with a string",
		yaml: header + "  - claim: caps\n    rule: greater_than\n    value: \"5\"\n",
		want: []wantErr{{"9:12", `rule greater_than needs a number, found "5"`, true}},
	}, {
		name: "less_than with infinity",
		yaml: header + "  - claim: caps\n    rule: less_than\n    value: .inf\n",
		want: []wantErr{{"9:12", "not a finite number", false}},
	}, {
		name: "matches with an invalid regex",
		yaml: header + "  - claim: file\n    rule: matches\n    value: \"([a-z\"\n",
		want: []wantErr{{"9:12", "invalid regular expression \"([a-z\": missing closing ]: `[a-z` (RE2 syntax: https://github.com/google/re2/wiki/Syntax)", true}},
	}, {
		name: "matches with a non-string",
		yaml: header + "  - claim: file\n    rule: matches\n    value: 5\n  - claim: file\n    rule: matches\n    value: [a]\n",
		want: []wantErr{
			{"9:12", "rule matches needs a regular expression string, found the number 5; quote it", true},
			{"12:12", "rule matches needs a regular expression string, found a list", false},
		},
	}, {
		name: "unknown source",
		yaml: header + "  - claim: caps\n    rule: exists\n    source: task-prompt\n",
		want: []wantErr{{"9:13", `unknown source "task-prompt" (did you mean "task_prompt"?); use task_prompt or memory`, true}},
	}, {
		name: "empty source",
		yaml: header + "  - claim: caps\n    rule: exists\n    source:\n",
		want: []wantErr{{"9:12", "source is empty; use task_prompt or memory, or remove source:", true}},
	}, {
		name: "notes not a string",
		yaml: header + "  - claim: caps\n    rule: exists\n    notes: [a]\n",
		want: []wantErr{{"9:12", "notes must be a string, found a list", true}},
	}, {
		name: "bad ids",
		yaml: header + "  - {id: Caps Exist, claim: caps, rule: exists}\n  - {id: '', claim: caps, rule: exists}\n  - {id: 7, claim: caps, rule: exists}\n",
		want: []wantErr{
			{"7:10", `id "Caps Exist" may use only lower-case letters, digits, '_' and '-'`, true},
			{"8:10", `id "" may use only`, false},
			{"9:10", "id must be a string, found the number 7", true},
		},
	}, {
		name: "duplicate id",
		yaml: header + "  - {id: a, claim: caps, rule: exists}\n  - {id: b, claim: caps, rule: exists}\n  - {id: a, claim: file, rule: exists}\n",
		want: []wantErr{{"9:10", `duplicate id "a" (first at line 7); ids must be unique`, true}},
	}, {
		name: "invalid selectors",
		yaml: "claims:\n" +
			"  - name: a\n    selector: a..b\n" +
			"  - name: b\n    selector: \"a..b\"\n" +
			"  - name: c\n    selector: 'it''s..b'\n" +
			"  - {name: éé, selector: \"\\u00e9.x..b\"}\n" +
			"  - name: e\n    selector: &s !!str a..b\n" +
			"  - name: f\n    selector: *s\n" +
			"  - name: g\n    selector: |\n      a..b\n" +
			"  - name: h\n    selector: ''\n" +
			"predicates:\n  - claim: a\n    rule: exists\n",
		want: []wantErr{
			{"3:17", `invalid selector "a..b": empty key between dots; remove one '.', or write [""] to select the empty key`, true},
			{"5:18", `invalid selector "a..b": empty key between dots`, false},
			{"7:22", `invalid selector "it's..b": empty key between dots`, false},
			{"8:36", `invalid selector "é.x..b": empty key between dots`, false},
			{"10:26", `invalid selector "a..b": empty key between dots`, false},
			{"12:15", `invalid selector "a..b" at column 3 of the selector: empty key between dots`, false},
			{"14:15", `invalid selector "a..b\n" at column 3 of the selector: empty key between dots`, false},
			{"17:16", `invalid selector "": empty selector`, false},
		},
	}, {
		name: "selector not a string",
		yaml: "claims:\n  - name: a\n    selector: 5\npredicates:\n  - claim: a\n    rule: exists\n",
		want: []wantErr{{"3:15", "selector must be a string, found the number 5", true}},
	}, {
		name: "claims not a list",
		yaml: "claims: {name: a, selector: a}\npredicates:\n  - claim: a\n    rule: exists\n",
		want: []wantErr{
			{"1:9", "claims must be a list, found a mapping", true},
			{"3:12", `predicate names undefined claim "a"`, false},
		},
	}, {
		name: "claims missing",
		yaml: "predicates:\n  - claim: a\n    rule: exists\n",
		want: []wantErr{
			{"1:1", "the rulespec has no claims; add claims: with a name and a selector for each claim", true},
			{"2:12", `predicate names undefined claim "a"`, false},
		},
	}, {
		name: "predicates missing",
		yaml: "claims:\n  - name: a\n    selector: a\n",
		want: []wantErr{{"1:1", "the rulespec has no predicates; add predicates:", false}},
	}, {
		name: "predicates null",
		yaml: "claims:\n  - name: a\n    selector: a\npredicates:\n",
		want: []wantErr{{"1:1", "the rulespec has no predicates; add predicates:", false}},
	}, {
		name: "predicates empty",
		yaml: "claims:\n  - name: a\n    selector: a\npredicates: []\n",
		want: []wantErr{{"4:13", "predicates is empty; add at least one predicate (a rulespec that checks nothing cannot pass)", true}},
	}, {
		name: "predicates not a list",
		yaml: "claims:\n  - name: a\n    selector: a\npredicates:\n  claim: a\n  rule: exists\n",
		want: []wantErr{{"5:3", "predicates must be a list, found a mapping", true}},
	}, {
		name: "predicate not a mapping",
		yaml: header + "  - exists\n",
		want: []wantErr{{"7:5", `a predicate must be a mapping, found "exists"`, true}},
	}, {
		name: "non-scalar key",
		yaml: header + "  - claim: caps\n    rule: exists\n    [a]: b\n",
		want: []wantErr{{"9:5", "a predicate keys must be plain words, found a list", true}},
	}, {
		name: "non-mapping top level: list",
		yaml: "- claims\n- predicates\n",
		want: []wantErr{{"1:1", "the rulespec must be a mapping, found a list", true}},
	}, {
		name: "non-mapping top level: scalar",
		yaml: "hello\n",
		want: []wantErr{{"1:1", `the rulespec must be a mapping, found "hello"`, true}},
	}, {
		name: "not YAML",
		yaml: "claims: [\n",
		want: []wantErr{{"2", "not valid YAML: did not find expected node content", true}},
	}, {
		name: "not YAML on a later line",
		yaml: header + "  - claim: caps\n\trule: exists\n",
		// yaml.v3 reports the line of the enclosing construct, not the tab's,
		// and no column.
		want: []wantErr{{"7", "not valid YAML: found a tab character that violates indentation", true}},
	}, {
		name: "a NUL byte, found though yaml.v3 gives no position",
		yaml: "claims:\n  - {name: a, selector: \"x\x00\"}\n",
		want: []wantErr{{"2:27", "not valid YAML: control characters are not allowed (U+0000)", true}},
	}, {
		name: "bytes that are not UTF-8",
		yaml: "claims:\n  - {name: a, selector: x}\n# caf\xe9\n",
		want: []wantErr{{"3:6", "not valid YAML: incomplete UTF-8 octet sequence (byte 0xe9)", true}},
	}, {
		name: "two documents",
		yaml: header + "  - claim: caps\n    rule: exists\n---\npredicates:\n  - claim: file\n    rule: exists\n",
		want: []wantErr{{"10:1", "the rulespec holds more than one YAML document; remove the '---' separator and keep everything in one document", true}},
	}, {
		name: "broken second document",
		yaml: header + "  - claim: caps\n    rule: exists\n---\nfoo: [\n",
		want: []wantErr{{"11", "not valid YAML:", false}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Parse("r.yaml", []byte(tt.yaml))
			if rs != nil {
				t.Errorf("Parse returned a rulespec with %d predicates despite errors", len(rs.Predicates))
			}
			list := errorList(t, err)
			if len(list) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(list), len(tt.want), err)
			}
			for i, e := range list {
				w := tt.want[i]
				prefix := "r.yaml:" + w.pos + ": "
				got := e.Error()
				if !strings.HasPrefix(got, prefix) {
					t.Errorf("error %d = %q, want position %s", i, got, w.pos)
					continue
				}
				msg := strings.TrimPrefix(got, prefix)
				if w.exact && msg != w.msg {
					t.Errorf("error %d message:\n got %q\nwant %q", i, msg, w.msg)
				} else if !w.exact && !strings.Contains(msg, w.msg) {
					t.Errorf("error %d message %q does not contain %q", i, msg, w.msg)
				}
			}
		})
	}
}

func errorList(t *testing.T, err error) ErrorList {
	t.Helper()
	if err == nil {
		t.Fatal("Parse succeeded, want errors")
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error is %T, want ErrorList: %v", err, err)
	}
	for i, e := range list {
		if e.File != "r.yaml" && e.File != "" {
			t.Errorf("error %d File = %q", i, e.File)
		}
	}
	return list
}

// TestParseWholeFileErrors covers errors that have no position.
func TestParseWholeFileErrors(t *testing.T) {
	for _, in := range []string{"", "\n\n", "# only a comment\n", "---\n", "--- ~\n", "null\n"} {
		_, err := Parse("r.yaml", []byte(in))
		want := "r.yaml: rulespec is empty; it needs claims: and predicates:"
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q) error = %v, want %q", in, err, want)
		}
	}
}

// TestParseAllErrorsSorted checks that one pass reports every problem, in
// file order, and that ErrorList.Error prints one per line.
func TestParseAllErrorsSorted(t *testing.T) {
	in := `predicates:
  - claim: caps
    rule: min_len
  - claim: nope
    rule: exists
    source: mem
claims:
  - name: caps
    selector: a..b
  - name: caps
    selector: b
`
	_, err := Parse("r.yaml", []byte(in))
	errorList(t, err)
	want := strings.Join([]string{
		`r.yaml:3:11: unknown rule "min_len" (did you mean "min_length"?); use one of any_of, contains, equals, exists, file_exists, greater_than, less_than, matches, max_length, min_length, no_file_exists, none_of, not_contains, not_exists, same_set, subset_of, superset_of`,
		`r.yaml:4:12: predicate names undefined claim "nope"; define it under claims:`,
		`r.yaml:6:13: unknown source "mem" (did you mean "memory"?); use task_prompt or memory`,
		`r.yaml:9:17: invalid selector "a..b": empty key between dots; remove one '.', or write [""] to select the empty key`,
		`r.yaml:10:11: duplicate claim name "caps" (first at line 8); claim names must be unique`,
	}, "\n")
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestLoadMissingFile(t *testing.T) {
	const path = "testdata/does-not-exist.yaml"
	rs, err := Load(path)
	if rs != nil {
		t.Fatal("Load returned a rulespec for a missing file")
	}
	want := path + ": cannot read rulespec: no such file or directory"
	if err == nil || err.Error() != want {
		t.Errorf("Load error = %v, want %q", err, want)
	}
}

func TestLoadTooLarge(t *testing.T) {
	path := t.TempDir() + "/big.yaml"
	if err := os.WriteFile(path, make([]byte, MaxBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+": rulespec is larger than") {
		t.Errorf("Load error = %v, want one saying the file is too large", err)
	}
}

// TestModes checks that a predicate inherits the rulespec's mode unless it
// declares its own.
func TestModes(t *testing.T) {
	tests := []struct {
		name     string
		top      string
		pred     string
		observed bool
	}{
		{"default enforces", "", "", false},
		{"rulespec observes", "mode: observe\n", "", true},
		{"predicate observes", "", "    mode: observe\n", true},
		{"predicate enforces in an observing rulespec", "mode: observe\n", "    mode: enforce\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Parse("r.yaml", []byte(tt.top+header+"  - claim: caps\n    rule: exists\n"+tt.pred))
			if err != nil {
				t.Fatal(err)
			}
			if got := rs.Observed(rs.Predicates[0]); got != tt.observed {
				t.Errorf("Observed = %v, want %v", got, tt.observed)
			}
		})
	}
}

func TestRules(t *testing.T) {
	rules := Rules()
	if len(rules) != 17 {
		t.Fatalf("Rules() has %d rules, want 17", len(rules))
	}
	for _, r := range rules {
		if !r.Valid() {
			t.Errorf("%s not Valid", r)
		}
	}
	if Rule("min_len").Valid() {
		t.Error(`Rule("min_len").Valid() = true`)
	}
}
