package lint

import (
	"fmt"
	"io"

	"github.com/vouch-dev/vouch/arch"
)

// SARIF 2.1.0 shapes: only the properties vouch fills.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string            `json:"name"`
	InformationURI string            `json:"informationUri"`
	Version        string            `json:"version,omitempty"`
	Rules          []sarifDescriptor `json:"rules"`
}

type sarifDescriptor struct {
	ID                   string        `json:"id"`
	ShortDescription     *sarifMessage `json:"shortDescription,omitempty"`
	DefaultConfiguration sarifConfig   `json:"defaultConfiguration"`
	Properties           sarifProps    `json:"properties"`
}

type sarifProps struct {
	Type string `json:"vouch_type"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Kind                string            `json:"kind"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	BaselineState       string            `json:"baselineState,omitempty"`
}

type sarifLocation struct {
	Physical *sarifPhysical `json:"physicalLocation,omitempty"`
	Logical  []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogical struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// WriteSARIF writes a SARIF 2.1.0 log: one reportingDescriptor per rule,
// one result per finding with its file and line, and configuration errors
// (and notices, as warnings) as toolExecutionNotifications so the file
// stays valid when vouch fails.
func (r *Report) WriteSARIF(w io.Writer, version string) error {
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "vouch", InformationURI: "https://github.com/vouch-dev/vouch", Version: version, Rules: []sarifDescriptor{}}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(r.Errors) == 0, Notifications: []sarifNotification{}}},
		Results:     []sarifResult{},
	}
	index := map[string]int{}
	for _, ri := range r.Rules {
		if _, dup := index[ri.Name]; dup {
			continue
		}
		index[ri.Name] = len(run.Tool.Driver.Rules)
		d := sarifDescriptor{ID: ri.Name, DefaultConfiguration: sarifConfig{Level: level(ri.Severity)}, Properties: sarifProps{Type: ri.Type}}
		if ri.Description != "" {
			d.ShortDescription = &sarifMessage{Text: ri.Description}
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, d)
	}
	notify := func(lvl string, e ConfigError) {
		n := sarifNotification{Level: lvl, Message: sarifMessage{Text: e.Message}}
		if e.File != "" {
			n.Locations = []sarifLocation{physical(e.File, e.Line, e.Column)}
		}
		run.Invocations[0].Notifications = append(run.Invocations[0].Notifications, n)
	}
	for _, e := range r.Errors {
		notify("error", e)
	}
	for _, e := range r.Notices {
		notify("warning", e)
	}
	for _, e := range r.Stale {
		notify("note", ConfigError{Message: e.Describe()})
	}
	for _, f := range r.Findings {
		i, ok := index[f.Rule]
		if !ok {
			continue
		}
		res := sarifResult{RuleID: f.Rule, RuleIndex: i, Level: level(f.Severity), Kind: "fail",
			Message:             sarifMessage{Text: findingText(f)},
			PartialFingerprints: map[string]string{"vouchFinding/v1": keyOf(f)}}
		if f.Baseline {
			res.BaselineState = "unchanged"
		}
		switch {
		case f.File != "":
			res.Locations = []sarifLocation{physical(f.File, f.Line, 0)}
		case f.From != "":
			res.Locations = []sarifLocation{{Logical: []sarifLogical{{Name: f.From, Kind: "module"}}}}
		}
		run.Results = append(run.Results, res)
	}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	data, err := encodeJSON(log)
	if err != nil {
		return fmt.Errorf("encode SARIF: %w", err)
	}
	_, err = w.Write(data)
	return err
}

func physical(file string, line, col int) sarifLocation {
	p := &sarifPhysical{Artifact: sarifArtifact{URI: file}}
	if line > 0 {
		p.Region = &sarifRegion{StartLine: line}
		if col > 0 {
			p.Region.StartColumn = col
		}
	}
	return sarifLocation{Physical: p}
}

func level(sev string) string {
	if sev == arch.SeverityError {
		return "error"
	}
	return "warning"
}
