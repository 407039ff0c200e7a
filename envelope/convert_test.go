package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"gopkg.in/yaml.v3"
)

// node parses src into a yaml.Node, as the rulespec loader would.
func node(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	return &n
}

func TestToJSON(t *testing.T) {
	cyclic := &yaml.Node{Kind: yaml.SequenceNode}
	cyclic.Content = []*yaml.Node{{Kind: yaml.AliasNode, Value: "c", Alias: cyclic}}
	tests := []struct {
		name string
		n    *yaml.Node
		lim  Limits
		want string // JSON, or the error text when it starts with "ERR "
	}{
		{"document scalar", node(t, "42"), Limits{}, `42`},
		{"document string", node(t, "hello world"), Limits{}, `"hello world"`},
		{"bare scalar", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "x"}, Limits{}, `"x"`},
		{"untagged scalar resolves", &yaml.Node{Kind: yaml.ScalarNode, Value: "12"}, Limits{}, `12`},
		{"sequence", node(t, "[a, 1, 1.5, ~]"), Limits{}, `["a",1,1.5,null]`},
		{"top-level sequence depth 1", node(t, "[[1]]"), Limits{MaxDepth: 1}, "ERR rule.yaml:1:2: mappings and sequences nest deeper than the limit of 1 levels here; flatten the data or raise the limit with --max-depth"},
		{"scalar has no depth", node(t, "x"), Limits{MaxDepth: 1}, `"x"`},
		{"nil node", nil, Limits{}, "ERR rule.yaml: missing value; write a value"},
		{"zero node", &yaml.Node{}, Limits{}, "ERR rule.yaml: unexpected empty YAML node; write a value"},
		{"empty document", &yaml.Node{Kind: yaml.DocumentNode, Line: 3}, Limits{}, "ERR rule.yaml:3: the document is empty; write a value"},
		{"odd mapping", &yaml.Node{Kind: yaml.MappingNode, Line: 2, Column: 5, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "k"}}}, Limits{}, "ERR rule.yaml:2:5: malformed mapping with a key and no value; write key: value pairs"},
		{"dangling alias", &yaml.Node{Kind: yaml.AliasNode, Value: "x", Line: 1, Column: 1}, Limits{}, "ERR rule.yaml:1:1: alias *x has no anchor; define &x before using it"},
		{"cycle without anchor", cyclic, Limits{}, "ERR rule.yaml: alias *c refers to the value that contains it, which would repeat forever; write the value out"},
		{"huge MaxDepth is capped", node(t, "[[1]]"), Limits{MaxDepth: 1 << 40, MaxBytes: 1 << 62}, `[[1]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToJSON("rule.yaml", tt.n, tt.lim)
			if strings.HasPrefix(tt.want, "ERR ") {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("got %s, %v; want *Error %q", got, err, tt.want)
				}
				if diff := cmp.Diff(strings.TrimPrefix(tt.want, "ERR "), err.Error()); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLimitsNormalized(t *testing.T) {
	tests := []struct{ in, want Limits }{
		{Limits{}, DefaultLimits()},
		{Limits{MaxBytes: -1, MaxDepth: -1}, Limits{MaxBytes: 64 << 20, MaxDepth: 256}},
		{Limits{MaxBytes: 10, MaxDepth: 3}, Limits{MaxBytes: 10, MaxDepth: 3}},
		{Limits{MaxBytes: 1 << 62, MaxDepth: 1 << 30}, Limits{MaxBytes: 1 << 50, MaxDepth: HardMaxDepth}},
	}
	for _, tt := range tests {
		if got := tt.in.normalized(); got != tt.want {
			t.Errorf("%+v.normalized() = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// TestAppendStringMatchesEncodingJSON pins the hand-written string encoder to
// encoding/json's output (without HTML escaping).
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range stringSeeds {
		checkString(t, s)
	}
}

var stringSeeds = []string{
	"", "plain", `quote " and back \ slash`, "\x00\x01\x1f\x7f", "\b\f\n\r\t",
	"<script>&amp;</script>", "\u2028\u2029", "é中文😀", "\xff\xfe bad \xc3", "\xed\xa0\x80 surrogate",
	strings.Repeat("a", 100) + "\n",
}

func checkString(t *testing.T, s string) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	got := appendString(nil, s)
	if diff := cmp.Diff(strings.TrimSuffix(want.String(), "\n"), string(got)); diff != "" {
		t.Errorf("appendString(%q) (-encoding/json +got):\n%s", s, diff)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkString(t, s) })
}

func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.*"))
	if err != nil || len(files) < 3 {
		f.Fatalf("want the envelopes in testdata as seeds, got %v: %v", files, err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", "facts: {}", "facts:\n", "facts: &a [*a]", "facts: {a: &a {b: *a}}", billionLaughs,
		"facts: {<<: {a: 1}}", "facts: {a: 1, a: 2}", "facts: {x: 99999999999999999999}", "facts: {x: .nan}",
		"facts: {x: !!binary aGk=, y: !!float 1, z: !custom 3}", "facts: {}\n---\n", "facts: [[[[[[[[",
		"metadata: &m {a: 1}\nfacts: *m", "{\"facts\": {\"a\": \"\\ud800\"}}", "facts: {*a : 1}",
	} {
		f.Add([]byte(s))
	}
	lim := Limits{MaxBytes: 1 << 20, MaxDepth: 64}
	f.Fuzz(func(t *testing.T, data []byte) {
		env, err := Parse("fuzz.yaml", data, lim)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if !json.Valid(env.Facts) {
			t.Fatalf("facts are not valid JSON: %q", env.Facts)
		}
		if !gjson.ParseBytes(env.Facts).IsObject() {
			t.Fatalf("facts are not a JSON object: %q", env.Facts)
		}
		if env.Metadata != nil && (!json.Valid(env.Metadata) || !gjson.ParseBytes(env.Metadata).IsObject()) {
			t.Fatalf("metadata is not a JSON object: %q", env.Metadata)
		}
		if int64(len(env.Facts)+len(env.Metadata)) > lim.MaxBytes {
			t.Fatalf("output of %d bytes exceeds the limit", len(env.Facts)+len(env.Metadata))
		}
	})
}

func wideEnvelope(keys int) []byte {
	var b bytes.Buffer
	b.WriteString("metadata: {agent: bench}\nfacts:\n")
	for i := range keys {
		b.WriteString("  key_" + strconv.Itoa(i) + ": {name: \"file " + strconv.Itoa(i) + ".go\", lines: " + strconv.Itoa(i*7) + ", ok: true, ratio: 0.5}\n")
	}
	return b.Bytes()
}

func longArray(n int) []byte {
	var b bytes.Buffer
	b.WriteString("facts:\n  items:\n")
	for i := range n {
		b.WriteString("    - " + strconv.Itoa(i) + "\n")
	}
	return b.Bytes()
}

// bigEnvelope builds an envelope of about size bytes: a list of records, the
// shape of a large test or file report.
func bigEnvelope(size int) []byte {
	var b bytes.Buffer
	b.WriteString("facts:\n  results:\n")
	for i := 0; b.Len() < size; i++ {
		b.WriteString("    - {test: \"pkg/sub.TestSomething_" + strconv.Itoa(i) + "\", passed: true, ms: " + strconv.Itoa(i%997) + ", tags: [unit, fast], note: \"all good, nothing to see\"}\n")
	}
	return b.Bytes()
}

func benchParse(b *testing.B, data []byte) {
	b.Helper()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench.yaml", data, DefaultLimits()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse10kKeys(b *testing.B)   { benchParse(b, wideEnvelope(10000)) }
func BenchmarkParse100kArray(b *testing.B) { benchParse(b, longArray(100000)) }
func BenchmarkParse10MB(b *testing.B)      { benchParse(b, bigEnvelope(10<<20)) }
func BenchmarkParseSmall(b *testing.B) {
	data, _ := os.ReadFile("testdata/pr_review.yaml")
	benchParse(b, data)
}

// The conversion alone, without the YAML parse, which dominates Parse.
func benchToJSON(b *testing.B, data []byte) {
	b.Helper()
	n := node(b, string(data))
	facts := n.Content[0].Content
	var v *yaml.Node
	for i := 0; i < len(facts); i += 2 {
		if facts[i].Value == "facts" {
			v = facts[i+1]
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ToJSON("bench.yaml", v, DefaultLimits()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToJSON10kKeys(b *testing.B)   { benchToJSON(b, wideEnvelope(10000)) }
func BenchmarkToJSON100kArray(b *testing.B) { benchToJSON(b, longArray(100000)) }
func BenchmarkToJSON10MB(b *testing.B)      { benchToJSON(b, bigEnvelope(10<<20)) }

func BenchmarkBillionLaughs(b *testing.B) {
	data := []byte(billionLaughs)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bomb.yaml", data, DefaultLimits()); err == nil {
			b.Fatal("alias bomb accepted")
		}
	}
}
