package lint

import (
	"io"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/output"
)

// WriteSARIF writes a SARIF 2.1.0 log: one reportingDescriptor per rule,
// one result per finding with its file and line, and configuration errors
// (and notices, as warnings) as toolExecutionNotifications so the file
// stays valid when vouch fails.
func (r *Report) WriteSARIF(w io.Writer, version string) error {
	b := output.NewSARIF(version)
	if len(r.Errors) > 0 {
		b.Failed()
	}
	for _, ri := range r.Rules {
		d := output.SARIFRule{ID: ri.Name, DefaultConfiguration: output.SARIFConfig{Level: level(ri.Severity)}, Properties: map[string]string{"vouch_type": ri.Type}}
		if ri.Description != "" {
			d.ShortDescription = &output.SARIFMessage{Text: ri.Description}
		}
		b.AddRule(d)
	}
	for _, e := range r.Errors {
		b.Notify("error", e.Msg, e.File, e.Line, e.Col)
	}
	for _, e := range r.Notices {
		b.Notify("warning", e.Msg, e.File, e.Line, e.Col)
	}
	for _, e := range r.Stale {
		b.Notify("note", e.Describe(), "", 0, 0)
	}
	for _, f := range r.Findings {
		res := output.SARIFResult{RuleID: f.Rule, Level: level(f.Severity), Kind: "fail",
			Message:             output.SARIFMessage{Text: findingText(f)},
			PartialFingerprints: map[string]string{"vouchFinding/v1": keyOf(f)}}
		if f.Baseline {
			res.BaselineState = "unchanged"
		}
		switch {
		case f.File != "":
			res.Locations = []output.SARIFLocation{output.FileLocation(f.File, f.Line, 0)}
		case f.From != "":
			res.Locations = []output.SARIFLocation{{Logical: []output.SARIFLogical{{Name: f.From, Kind: "module"}}}}
		}
		b.AddResult(res)
	}
	return b.Write(w)
}

func level(sev string) string {
	if sev == arch.SeverityError {
		return "error"
	}
	return "warning"
}
