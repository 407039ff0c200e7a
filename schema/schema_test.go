package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

func compile(t *testing.T, kind string) *jsonschema.Schema {
	t.Helper()
	data, ok := Get(kind)
	if !ok {
		t.Fatalf("no schema for %s", kind)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s schema is not JSON: %v", kind, err)
	}
	url := "https://github.com/vouch-dev/vouch/schema/" + kind + ".schema.json"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s schema: %v", kind, err)
	}
	return s
}

// instance reads YAML as the JSON value an editor validates.
func instance(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("yaml: %v", err)
	}
	js, err := json.Marshal(normalise(v))
	if err != nil {
		t.Fatalf("to json: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// normalise turns yaml.v3's non-string mapping keys (7: skipped) into the
// strings they are in JSON.
func normalise(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = normalise(e)
		}
		return t
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = normalise(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = normalise(e)
		}
	}
	return v
}

// kindOf says which schema a shipped file follows, by its name.
func kindOf(path string) string {
	base := filepath.Base(path)
	switch {
	case strings.HasSuffix(base, "_test.yaml"):
		return "rulespec-test"
	case strings.HasPrefix(base, "rulespec"):
		return "rulespec"
	case strings.HasPrefix(base, "envelope"):
		return "envelope"
	}
	return ""
}

// Every shipped example validates against its schema.
func TestExamplesValidate(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{}
	for _, k := range Kinds() {
		schemas[k] = compile(t, k)
	}
	n := 0
	err := filepath.WalkDir("../testdata/examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		kind := kindOf(path)
		if kind == "" {
			t.Errorf("%s: no schema kind for this file name", path)
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := schemas[kind].Validate(instance(t, data)); err != nil {
			t.Errorf("%s (%s): %v", path, kind, err)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 4 {
		t.Errorf("validated %d example files, want at least 4", n)
	}
}

func TestInvalidRejected(t *testing.T) {
	tests := []struct {
		kind, name, src string
	}{
		{"rulespec", "typo in a predicate key", "claims: [{name: a, selector: a}]\npredicates: [{claim: a, rule: exists, nots: x}]"},
		{"rulespec", "unknown rule", "claims: [{name: a, selector: a}]\npredicates: [{claim: a, rule: min_len, value: 1}]"},
		{"rulespec", "value on exists", "claims: [{name: a, selector: a}]\npredicates: [{claim: a, rule: exists, value: 1}]"},
		{"rulespec", "min_length needs an integer", "claims: [{name: a, selector: a}]\npredicates: [{claim: a, rule: min_length, value: two}]"},
		{"rulespec", "any_of needs a list", "claims: [{name: a, selector: a}]\npredicates: [{claim: a, rule: any_of, value: x}]"},
		{"rulespec", "bad id", "claims: [{name: a, selector: a}]\npredicates: [{claim: a, rule: exists, id: Bad Id}]"},
		{"rulespec", "typo in when", "claims: [{name: a, selector: a}]\npredicates: [{claim: a, rule: exists, when: {claim: a, rul: exists}}]"},
		{"rulespec", "bad mode", "mode: watch\nclaims: [{name: a, selector: a}]\npredicates: [{claim: a, rule: exists}]"},
		{"rulespec", "no predicates", "claims: [{name: a, selector: a}]\npredicates: []"},
		{"envelope", "no facts", "metadata: {}"},
		{"envelope", "extra top-level key", "facts: {}\nresults: 1"},
		{"rulespec-test", "bad status", "cases: [{name: a, facts: {}, predicates: {0: passed}}]"},
		{"rulespec-test", "envelope and facts", "cases: [{name: a, facts: {}, envelope: e.yaml, verdict: pass}]"},
		{"rulespec-test", "typo in a case", "cases: [{name: a, facts: {}, verdcit: pass}]"},
	}
	for _, tt := range tests {
		t.Run(tt.kind+"/"+tt.name, func(t *testing.T) {
			if err := compile(t, tt.kind).Validate(instance(t, []byte(tt.src))); err == nil {
				t.Errorf("accepted:\n%s", tt.src)
			}
		})
	}
}

func TestValidAccepted(t *testing.T) {
	tests := []struct{ kind, src string }{
		{"rulespec", "mode: observe\nclaims: [{name: a, selector: a}]\npredicates:\n  - {claim: a, rule: file_exists, mode: enforce}\n  - {claim: a, rule: no_file_exists}\n  - {claim: a, rule: greater_than, value: 1.5, when: {claim: a, rule: matches, value: '^x'}}"},
		{"envelope", "facts: {a: null}\nmetadata: null"},
		{"rulespec-test", "strict: true\ncases: [{name: a, envelope: e.yaml, predicates: {my-id: skipped, 3: fail}}]"},
	}
	for _, tt := range tests {
		if err := compile(t, tt.kind).Validate(instance(t, []byte(tt.src))); err != nil {
			t.Errorf("%s rejected: %v\n%s", tt.kind, err, tt.src)
		}
	}
}

func TestGet(t *testing.T) {
	if _, ok := Get("rulspec"); ok {
		t.Error("Get accepted an unknown kind")
	}
	if got := strings.Join(Kinds(), ","); got != "envelope,rulespec,rulespec-test" {
		t.Errorf("Kinds() = %s", got)
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		kind, wantErr string
	}{
		{"rulespec", ""},
		{"envelope", ""},
		{"rulespec-test", ""},
		{"rulespc", `unknown schema kind "rulespc" (did you mean "rulespec"?); use one of envelope, rulespec, rulespec-test`},
		{"", `unknown schema kind ""`},
	}
	for _, tt := range tests {
		data, err := Lookup(tt.kind)
		if tt.wantErr == "" {
			if want, _ := Get(tt.kind); err != nil || !bytes.Equal(data, want) {
				t.Errorf("Lookup(%q) = %d bytes, %v; want its schema", tt.kind, len(data), err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
			t.Errorf("Lookup(%q) error %v, want one starting %q", tt.kind, err, tt.wantErr)
		}
	}
}
