package output

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/vouch-dev/vouch/internal/lazyre"
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
	Tool SARIFTool `json:"tool"`
	// OriginalURIBaseIDs says what SRCRoot, the base of every relative
	// URI, stands for: the repository root when it is known.
	OriginalURIBaseIDs map[string]SARIFBase `json:"originalUriBaseIds"`
	Invocations        []SARIFInvocation    `json:"invocations"`
	Results            []SARIFResult        `json:"results"`
}

// SARIFTool describes vouch.
type SARIFTool struct {
	Driver SARIFDriver `json:"driver"`
}

// SARIFDriver is vouch's name, version and rules.
type SARIFDriver struct {
	Name           string `json:"name"`
	InformationURI string `json:"informationUri"`
	// Version is dotted digits only ("1.2.3", "0.0.0" for a development
	// build), which GitHub code scanning reads as the tool's version;
	// SemanticVersion is the full version as semver ("0.0.0-dev").
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	Rules           []SARIFRule `json:"rules"`
}

// SARIFRule is a reportingDescriptor: one rule results refer to. GitHub
// code scanning shows FullDescription and Help on every alert of the
// rule, so every rule has both.
type SARIFRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name,omitempty"`
	ShortDescription     *SARIFMessage     `json:"shortDescription,omitempty"`
	FullDescription      *SARIFMessage     `json:"fullDescription,omitempty"`
	Help                 *SARIFMessage     `json:"help,omitempty"`
	HelpURI              string            `json:"helpUri,omitempty"`
	DefaultConfiguration SARIFConfig       `json:"defaultConfiguration"`
	Properties           map[string]string `json:"properties"`
}

// SARIFConfig is a rule's default level.
type SARIFConfig struct {
	Level string `json:"level"`
}

// SARIFMessage is a message: plain text, and for rule help also Markdown
// (a multiformatMessageString).
type SARIFMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// SARIFBase is what a uriBaseId stands for: an absolute directory URI
// when known, and a description.
type SARIFBase struct {
	URI         string        `json:"uri,omitempty"`
	Description *SARIFMessage `json:"description,omitempty"`
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
	// Properties are the result's property bag (such as the contract of
	// another tool's configuration a lint finding belongs to).
	Properties map[string]string `json:"properties,omitempty"`
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

// SARIFArtifact names a file by a URI relative to the base URIBaseID.
type SARIFArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// SARIFSchema is the $schema of every log: the OASIS SARIF 2.1.0 final
// schema, which GitHub's ingestion checks a log refers to.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// SRCRoot is the uriBaseId of every file vouch names: the repository root,
// the base GitHub code scanning resolves relative URIs against.
const SRCRoot = "%SRCROOT%"

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

// FileLocation is a location in file (a path relative to the repository
// root) at line and col. A line below 1 becomes 1: GitHub code scanning
// shows no result whose region lacks a start line, and a whole-file
// finding is best shown at the top. col 0 leaves the column out.
func FileLocation(file string, line, col int) SARIFLocation {
	if line < 1 {
		line = 1
	}
	p := &SARIFPhysical{Artifact: SARIFArtifact{URI: FileURI(file), URIBaseID: SRCRoot}, Region: &SARIFRegion{StartLine: line}}
	if col > 0 {
		p.Region.StartColumn = col
	}
	return SARIFLocation{Physical: p}
}

// FileURI is a relative path as a relative URI reference: slashes, each
// character a URI may not hold percent-encoded, and a first segment with a
// colon prefixed by ./ so it cannot read as a scheme.
func FileURI(file string) string {
	return (&url.URL{Path: filepath.ToSlash(file)}).String()
}

// numericVersion is a version's leading dotted digits.
var numericVersion = lazyre.New(`^v?(\d+\.\d+\.\d+)`)

// semverTail is what may follow MAJOR.MINOR.PATCH in a semver version.
var semverTail = lazyre.New(`^(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

// SARIFVersions splits vouch's version (a tag such as v1.2.3, a Go
// pseudo-version, devel-COMMIT or dev) into the driver's numeric version
// and its semantic version: "v1.2.3" is 1.2.3 and 1.2.3; "dev" is 0.0.0
// and 0.0.0-dev.
func SARIFVersions(v string) (numeric, semantic string) {
	if m := numericVersion().FindStringSubmatch(v); m != nil {
		rest := strings.TrimPrefix(strings.TrimPrefix(v, "v"), m[1])
		if semverTail().MatchString(rest) {
			return m[1], m[1] + rest
		}
		return m[1], m[1]
	}
	tag := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '.' {
			return r
		}
		return '-'
	}, v)
	tag = strings.Trim(strings.ReplaceAll(tag, "..", "."), ".-")
	if tag == "" {
		return "0.0.0", "0.0.0"
	}
	return "0.0.0", "0.0.0-" + tag
}

// SARIFBuilder assembles one run of vouch into a log. Its zero value is
// not usable; start with NewSARIF.
type SARIFBuilder struct {
	run   SARIFRun
	index map[string]int
}

// NewSARIF starts a log for vouch at version, with a successful
// invocation and no rules, results or notifications yet (SARIF consumers
// want the arrays present even when empty). root is the repository root
// every file is relative to, as an absolute directory; "" leaves SRCRoot
// described but unresolved.
func NewSARIF(version, root string) *SARIFBuilder {
	numeric, semantic := SARIFVersions(version)
	base := SARIFBase{Description: &SARIFMessage{Text: "The repository root: every file vouch names is relative to it."}}
	if root != "" && filepath.IsAbs(root) {
		p := filepath.ToSlash(root)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // C:/repo is file:///C:/repo
		}
		u := (&url.URL{Scheme: "file", Path: p}).String()
		if !strings.HasSuffix(u, "/") {
			u += "/"
		}
		base.URI = u
	}
	return &SARIFBuilder{
		run: SARIFRun{
			Tool:               SARIFTool{Driver: SARIFDriver{Name: "vouch", InformationURI: "https://github.com/vouch-dev/vouch", Version: numeric, SemanticVersion: semantic, Rules: []SARIFRule{}}},
			OriginalURIBaseIDs: map[string]SARIFBase{SRCRoot: base},
			Invocations:        []SARIFInvocation{{ExecutionSuccessful: true, Notifications: []SARIFNotification{}}},
			Results:            []SARIFResult{},
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
	return SARIFLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []SARIFRun{b.run}}
}

// Write writes the log as JSON.
func (b *SARIFBuilder) Write(w io.Writer) error {
	if err := WriteJSON(w, b.Log()); err != nil {
		return fmt.Errorf("write SARIF: %w", err)
	}
	return nil
}
