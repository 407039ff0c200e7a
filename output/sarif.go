package output

import (
	"fmt"
	"io"
)

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/) shapes:
// only the properties vouch fills. A command builds one log with a
// SARIFBuilder, so every command that emits SARIF shares its tool
// description, locations and notifications.

// SARIFLog is a SARIF log file.
type SARIFLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []SARIFRun `json:"runs"`
}

// SARIFRun is one run of vouch.
type SARIFRun struct {
	Tool        SARIFTool         `json:"tool"`
	Invocations []SARIFInvocation `json:"invocations"`
	Results     []SARIFResult     `json:"results"`
}

// SARIFTool describes vouch.
type SARIFTool struct {
	Driver SARIFDriver `json:"driver"`
}

// SARIFDriver is vouch's name, version and rules.
type SARIFDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []SARIFRule `json:"rules"`
}

// SARIFRule is a reportingDescriptor: one rule results refer to.
type SARIFRule struct {
	ID                   string            `json:"id"`
	ShortDescription     *SARIFMessage     `json:"shortDescription,omitempty"`
	DefaultConfiguration SARIFConfig       `json:"defaultConfiguration"`
	Properties           map[string]string `json:"properties"`
}

// SARIFConfig is a rule's default level.
type SARIFConfig struct {
	Level string `json:"level"`
}

// SARIFMessage is a plain-text message.
type SARIFMessage struct {
	Text string `json:"text"`
}

// SARIFInvocation says whether the run succeeded and what went wrong.
type SARIFInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []SARIFNotification `json:"toolExecutionNotifications"`
}

// SARIFNotification is a problem with the run itself (a configuration
// error, a warning about it), not a finding.
type SARIFNotification struct {
	Level     string          `json:"level"`
	Message   SARIFMessage    `json:"message"`
	Locations []SARIFLocation `json:"locations,omitempty"`
}

// SARIFResult is one finding.
type SARIFResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Kind                string            `json:"kind"`
	Message             SARIFMessage      `json:"message"`
	Locations           []SARIFLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	BaselineState       string            `json:"baselineState,omitempty"`
}

// SARIFLocation is where a result or notification is: a file region, or a
// logical location such as a module.
type SARIFLocation struct {
	Physical *SARIFPhysical `json:"physicalLocation,omitempty"`
	Logical  []SARIFLogical `json:"logicalLocations,omitempty"`
}

// SARIFPhysical is a file and an optional region.
type SARIFPhysical struct {
	Artifact SARIFArtifact `json:"artifactLocation"`
	Region   *SARIFRegion  `json:"region,omitempty"`
}

// SARIFArtifact names a file.
type SARIFArtifact struct {
	URI string `json:"uri"`
}

// SARIFRegion is a line and optional column.
type SARIFRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// SARIFLogical is a named logical location.
type SARIFLogical struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// FileLocation is a location in file at line and col; 0 leaves them out.
func FileLocation(file string, line, col int) SARIFLocation {
	p := &SARIFPhysical{Artifact: SARIFArtifact{URI: file}}
	if line > 0 {
		p.Region = &SARIFRegion{StartLine: line}
		if col > 0 {
			p.Region.StartColumn = col
		}
	}
	return SARIFLocation{Physical: p}
}

// SARIFBuilder assembles one run of vouch into a log. Its zero value is
// not usable; start with NewSARIF.
type SARIFBuilder struct {
	run   SARIFRun
	index map[string]int
}

// NewSARIF starts a log for vouch at version, with a successful
// invocation and no rules, results or notifications yet (SARIF consumers
// want the arrays present even when empty).
func NewSARIF(version string) *SARIFBuilder {
	return &SARIFBuilder{
		run: SARIFRun{
			Tool:        SARIFTool{Driver: SARIFDriver{Name: "vouch", InformationURI: "https://github.com/vouch-dev/vouch", Version: version, Rules: []SARIFRule{}}},
			Invocations: []SARIFInvocation{{ExecutionSuccessful: true, Notifications: []SARIFNotification{}}},
			Results:     []SARIFResult{},
		},
		index: map[string]int{},
	}
}

// AddRule adds a rule unless one with its ID is already there.
func (b *SARIFBuilder) AddRule(r SARIFRule) {
	if _, dup := b.index[r.ID]; dup {
		return
	}
	b.index[r.ID] = len(b.run.Tool.Driver.Rules)
	b.run.Tool.Driver.Rules = append(b.run.Tool.Driver.Rules, r)
}

// AddResult adds a result of a rule added before, filling its RuleIndex;
// it reports false (and adds nothing) for an unknown rule, since SARIF
// consumers reject a result whose rule is not described.
func (b *SARIFBuilder) AddResult(r SARIFResult) bool {
	i, ok := b.index[r.RuleID]
	if !ok {
		return false
	}
	r.RuleIndex = i
	b.run.Results = append(b.run.Results, r)
	return true
}

// Notify records a problem with the run at level ("error", "warning",
// "note"), at file:line:col when file is not "".
func (b *SARIFBuilder) Notify(level, msg, file string, line, col int) {
	n := SARIFNotification{Level: level, Message: SARIFMessage{Text: msg}}
	if file != "" {
		n.Locations = []SARIFLocation{FileLocation(file, line, col)}
	}
	inv := &b.run.Invocations[0]
	inv.Notifications = append(inv.Notifications, n)
}

// Failed marks the run as not having completed (configuration errors):
// consumers then do not read an empty result list as a clean bill.
func (b *SARIFBuilder) Failed() {
	b.run.Invocations[0].ExecutionSuccessful = false
}

// Log is the finished log.
func (b *SARIFBuilder) Log() SARIFLog {
	return SARIFLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []SARIFRun{b.run}}
}

// Write writes the log as JSON.
func (b *SARIFBuilder) Write(w io.Writer) error {
	if err := WriteJSON(w, b.Log()); err != nil {
		return fmt.Errorf("write SARIF: %w", err)
	}
	return nil
}
