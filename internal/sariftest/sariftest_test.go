package sariftest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestSchemaIsOASISFinal pins the vendored schema to the OASIS 2.1.0 final
// text: a pre-release (rtm) schema accepts logs GitHub rejects.
func TestSchemaIsOASISFinal(t *testing.T) {
	data, err := os.ReadFile(SchemaPath())
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		Title string `json:"title"`
		ID    string `json:"id"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		t.Fatal(err)
	}
	if head.ID != SchemaID || head.Title != "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema" {
		t.Errorf("schema id %q, title %q: not the OASIS 2.1.0 final schema", head.ID, head.Title)
	}
}

const good = `{"$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json", "version": "2.1.0", "runs": [{
  "tool": {"driver": {"name": "vouch", "version": "1.2.3", "semanticVersion": "1.2.3",
    "rules": [{"id": "r", "fullDescription": {"text": "f"}, "help": {"text": "h", "markdown": "**h**"}}]}},
  "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "root"}}},
  "results": [{"ruleId": "r", "ruleIndex": 0, "message": {"text": "m"},
    "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a/b.go", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 3}}}]}]}]}`

func TestCheck(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"valid", "", "", ""},
		{"schema: unknown property", `"ruleId": "r"`, `"ruleId": "r", "bogus": 1`, "schema:"},
		{"schema: bad version", `"version": "2.1.0"`, `"version": "2.1.0-rtm.5"`, "schema:"},
		{"GH1011 rtm schema", `sarif-schema-2.1.0.json"`, `sarif-2.1.0-rtm.5.json"`, "GH1011"},
		{"GH1001 logical only", `{"physicalLocation": {"artifactLocation": {"uri": "a/b.go", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 3}}}`, `{"logicalLocations": [{"name": "m"}]}`, "GH1001"},
		{"GH1003 no region", `, "region": {"startLine": 3}`, ``, "GH1003"},
		{"GH1005 http uri", `"uri": "a/b.go"`, `"uri": "https://example.com/a.go"`, "GH1005"},
		{"GH1006 absolute file uri", `"uri": "a/b.go"`, `"uri": "file:///tmp/a.go"`, "GH1006"},
		{"GH1007 message id only", `"message": {"text": "m"}`, `"message": {"id": "x"}`, "GH1007"},
		{"no uriBaseId", `, "uriBaseId": "%SRCROOT%"`, ``, "has no uriBaseId"},
		{"undefined uriBaseId", `"uriBaseId": "%SRCROOT%"`, `"uriBaseId": "%OTHER%"`, "not in run.originalUriBaseIds"},
		{"non-numeric version", `"version": "1.2.3"`, `"version": "dev"`, "not dotted digits"},
		{"no semanticVersion", `, "semanticVersion": "1.2.3"`, ``, "semanticVersion is missing"},
		{"no help markdown", `, "markdown": "**h**"`, ``, "no help with text and markdown"},
		{"no fullDescription", `"fullDescription": {"text": "f"}, `, ``, "no fullDescription"},
		{"bad ruleIndex", `"ruleIndex": 0`, `"ruleIndex": 1`, "ruleIndex does not point"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := good
			if tt.old != "" {
				if !strings.Contains(log, tt.old) {
					t.Fatalf("fixture lacks %q", tt.old)
				}
				log = strings.Replace(log, tt.old, tt.new, 1)
			}
			errs := Check([]byte(log))
			if tt.want == "" {
				if len(errs) > 0 {
					t.Fatalf("valid log rejected: %v", errs)
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

func TestCheckGH1004Limits(t *testing.T) {
	results := make([]string, 1001)
	for i := range results {
		results[i] = `{"ruleId": "r", "ruleIndex": 0, "message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.go", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 1}}}]}`
	}
	log := strings.Replace(good, good[strings.Index(good, `"results": [`):len(good)-3], `"results": [`+strings.Join(results, ",")+`]`, 1)
	errs := Check([]byte(log))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "GH1004") {
		t.Errorf("errors = %v, want one GH1004", errs)
	}
}
