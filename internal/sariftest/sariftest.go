// Package sariftest checks, in tests, that a SARIF log is what GitHub code
// scanning accepts: valid against the OASIS SARIF 2.1.0 schema and free of
// the problems GitHub's ingestion rejects or hides.
//
// The schema is testdata/sarif/sarif-schema-2.1.0.json, the OASIS 2.1.0
// final (errata01, OS) schema. The ingestion rules are those of the GitHub
// rule kind of the SARIF multitool (microsoft/sarif-sdk, `sarif validate`
// with policies/github.config.xml), restated here because that tool is a
// .NET program CI cannot run:
//
//	GH1001 every result has a location with physicalLocation.artifactLocation.uri
//	GH1002 no threadFlowLocation refers to run.threadFlowLocations by index
//	GH1003 every physical location of a result has a region with startLine >= 1
//	GH1004 at most 5 runs, 1000 rules per run, 1000 results per run and
//	       10 locations per result (GitHub's default display limits)
//	GH1005 every artifact URI is relative or uses the file scheme
//	GH1006 no absolute file URI (vouch writes relative URIs only)
//	GH1007 every message has text (no message id without text)
//	GH1011 $schema refers to the final 2.1.0 schema (ends in 2.1.0 or 2.1.0.json)
//
// Beyond those, it checks what vouch promises on top: the driver's version
// is dotted digits and semanticVersion is present, every rule has a
// fullDescription and help with text and markdown, every relative URI has
// a uriBaseId that run.originalUriBaseIds defines, and every result's
// ruleIndex points at its rule.
package sariftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/vouch-dev/vouch/internal/lazyre"
)

// SchemaID is the $id (draft-04 "id") of the vendored schema: the OASIS
// 2.1.0 final schema, not a pre-release (rtm) copy.
const SchemaID = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

var (
	compileOnce sync.Once
	compiled    *jsonschema.Schema
	compileErr  error
)

// SchemaPath is the vendored schema's path.
func SchemaPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "sarif", "sarif-schema-2.1.0.json")
}

// schema compiles the vendored schema once per test binary.
func schema() (*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		data, err := os.ReadFile(SchemaPath())
		if err != nil {
			compileErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			compileErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(SchemaID, doc); err != nil {
			compileErr = err
			return
		}
		compiled, compileErr = c.Compile(SchemaID)
	})
	return compiled, compileErr
}

// Validate fails t unless log validates against the schema and breaks
// none of the ingestion rules listed in the package comment.
func Validate(t testing.TB, log []byte) {
	t.Helper()
	if errs := Check(log); len(errs) > 0 {
		for _, e := range errs {
			t.Error(e)
		}
		t.Fatalf("SARIF log:\n%s", log)
	}
}

// Check returns every problem of log: schema errors first, then broken
// ingestion rules, each prefixed with its rule id.
func Check(log []byte) []error {
	s, err := schema()
	if err != nil {
		return []error{fmt.Errorf("compile SARIF schema: %w", err)}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		return []error{fmt.Errorf("SARIF is not JSON: %w", err)}
	}
	if err := s.Validate(inst); err != nil {
		return []error{fmt.Errorf("schema: %v", err)}
	}
	var doc sarifLog
	if err := json.Unmarshal(log, &doc); err != nil {
		return []error{fmt.Errorf("decode: %w", err)}
	}
	return doc.check()
}

type sarifLog struct {
	Schema string `json:"$schema"`
	Runs   []struct {
		Tool struct {
			Driver struct {
				Version         string `json:"version"`
				SemanticVersion string `json:"semanticVersion"`
				Rules           []struct {
					ID              string   `json:"id"`
					FullDescription *message `json:"fullDescription"`
					Help            *message `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]json.RawMessage `json:"originalUriBaseIds"`
		Invocations        []struct {
			Notifications []struct {
				Message   message    `json:"message"`
				Locations []location `json:"locations"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID    string     `json:"ruleId"`
			RuleIndex *int       `json:"ruleIndex"`
			Message   message    `json:"message"`
			Locations []location `json:"locations"`
			CodeFlows []struct {
				ThreadFlows []struct {
					Locations []struct {
						Index *int `json:"index"`
					} `json:"locations"`
				} `json:"threadFlows"`
			} `json:"codeFlows"`
		} `json:"results"`
	} `json:"runs"`
}

type message struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
	ID       string `json:"id"`
}

type location struct {
	Physical *struct {
		Artifact *struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region *struct {
			StartLine int `json:"startLine"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

var digits = lazyre.New(`^\d+(\.\d+)*$`)

func (l *sarifLog) check() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !strings.HasSuffix(l.Schema, "2.1.0") && !strings.HasSuffix(l.Schema, "2.1.0.json") {
		bad("GH1011: $schema %q does not refer to the final SARIF 2.1.0 schema", l.Schema)
	}
	if len(l.Runs) > 5 {
		bad("GH1004: %d runs, more than 5", len(l.Runs))
	}
	for ri, run := range l.Runs {
		d := run.Tool.Driver
		if !digits().MatchString(d.Version) {
			bad("runs[%d].tool.driver.version %q is not dotted digits", ri, d.Version)
		}
		if d.SemanticVersion == "" {
			bad("runs[%d].tool.driver.semanticVersion is missing", ri)
		}
		if len(d.Rules) > 1000 {
			bad("GH1004: runs[%d] has %d rules, more than 1000", ri, len(d.Rules))
		}
		for i, r := range d.Rules {
			if r.FullDescription == nil || r.FullDescription.Text == "" {
				bad("rule %d (%s) has no fullDescription.text", i, r.ID)
			}
			if r.Help == nil || r.Help.Text == "" || r.Help.Markdown == "" {
				bad("rule %d (%s) has no help with text and markdown", i, r.ID)
			}
		}
		checkURI := func(where string, loc location) {
			if loc.Physical == nil || loc.Physical.Artifact == nil {
				return
			}
			a := loc.Physical.Artifact
			u, err := url.Parse(a.URI)
			switch {
			case err != nil:
				bad("%s: uri %q does not parse: %v", where, a.URI, err)
			case u.IsAbs() && u.Scheme != "file":
				bad("GH1005: %s: uri %q is neither relative nor a file URI", where, a.URI)
			case u.IsAbs():
				bad("GH1006: %s: uri %q is absolute; vouch writes paths relative to the repository root", where, a.URI)
			case a.URIBaseID == "":
				bad("%s: relative uri %q has no uriBaseId", where, a.URI)
			case run.OriginalURIBaseIDs[a.URIBaseID] == nil:
				bad("%s: uriBaseId %q is not in run.originalUriBaseIds", where, a.URIBaseID)
			}
		}
		if len(run.Results) > 1000 {
			bad("GH1004: runs[%d] has %d results, more than 1000", ri, len(run.Results))
		}
		for i, res := range run.Results {
			where := fmt.Sprintf("runs[%d].results[%d]", ri, i)
			if res.Message.Text == "" {
				bad("GH1007: %s has no message text", where)
			}
			if res.RuleIndex == nil || *res.RuleIndex < 0 || *res.RuleIndex >= len(d.Rules) || d.Rules[*res.RuleIndex].ID != res.RuleID {
				bad("%s: ruleIndex does not point at rule %q", where, res.RuleID)
			}
			if len(res.Locations) > 10 {
				bad("GH1004: %s has %d locations, more than 10", where, len(res.Locations))
			}
			physical := false
			for j, loc := range res.Locations {
				lw := fmt.Sprintf("%s.locations[%d]", where, j)
				if loc.Physical == nil {
					continue
				}
				if loc.Physical.Artifact == nil || loc.Physical.Artifact.URI == "" {
					bad("GH1001: %s.physicalLocation has no artifactLocation.uri", lw)
					continue
				}
				physical = true
				if loc.Physical.Region == nil || loc.Physical.Region.StartLine < 1 {
					bad("GH1003: %s.physicalLocation has no region.startLine", lw)
				}
				checkURI(lw, loc)
			}
			if !physical {
				bad("GH1001: %s has no physical location", where)
			}
			for _, cf := range res.CodeFlows {
				for _, tf := range cf.ThreadFlows {
					for _, tl := range tf.Locations {
						if tl.Index != nil {
							bad("GH1002: %s has a threadFlowLocation by index", where)
						}
					}
				}
			}
		}
		for ii, inv := range run.Invocations {
			for ni, n := range inv.Notifications {
				where := fmt.Sprintf("runs[%d].invocations[%d].toolExecutionNotifications[%d]", ri, ii, ni)
				if n.Message.Text == "" {
					bad("GH1007: %s has no message text", where)
				}
				for _, loc := range n.Locations {
					checkURI(where, loc)
				}
			}
		}
	}
	return errs
}
