package lint

import (
	"fmt"
	"io"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/output"
)

// ruleHelp says, per rule type, what a rule checks and how to clear a
// finding: the fullDescription and help GitHub code scanning shows with
// every alert.
var ruleHelp = map[string]struct{ what, fix string }{
	string(arch.Deny):            {"Files of the nodes matched by `from` must not import files of the nodes matched by `to` (directly, or with `indirect: true` through a chain of imports).", "Remove the import, or move the code so the dependency goes the allowed way. An accepted violation can be recorded in the baseline or exempted on the rule with a reason."},
	string(arch.Require):         {"Every node matched by `for` must have a declared edge to a node matching `has_edge_to`.", "Declare the missing edge in the architecture file, or change the node so the rule no longer applies to it."},
	string(arch.Forbid):          {"The architecture file must not declare an edge from a node matched by `from` to a node matched by `to`.", "Remove the declared edge, or exempt it on the rule with a reason."},
	string(arch.ForbidImport):    {"Files matching the `from` glob must not import a module matching the `to` glob.", "Remove the import, or exempt the file on the rule with a reason."},
	string(arch.ForbidCycles):    {"The node-level import graph and the declared edges (of `edge_kind` when given) must have no cycle; each strongly connected component is reported once, with one shortest witness cycle.", "Break the cycle at one of the imports listed in the witness (the finding points at the one that closes it), or exempt the cycle by its exact member set."},
	string(arch.AcyclicSiblings): {"The children of each package the rule checks (its ancestors and their descendants down `depth` generations) must not depend on each other in a cycle, a dependency being an import between the children's modules; each cycle is reported once, with one shortest witness.", "Break the cycle at one of the dependencies listed in the witness, or exempt the cycle by its exact member set."},
	TypeUnreadable:               {"A source file vouch could not read in full (over the size limit, binary, not in a readable encoding, a link leading outside the repository, or nested past a safety bound) may import anything the rules forbid, so it fails the run.", "Fix the file so vouch can read it, or, if it is not code the rules should check, exclude it with `scope: {exclude: [...]}` in the architecture configuration."},
	string(arch.Layers):          {"A node of a layer may depend only on nodes of the layers below it.", "Remove the upward dependency, or move the code to the layer it belongs to."},
}

// sarifRule is the reportingDescriptor of ri.
func sarifRule(ri RuleInfo) output.SARIFRule {
	h, ok := ruleHelp[ri.Type]
	if !ok {
		h.what, h.fix = "An architecture rule of type "+ri.Type+".", "See the rule in the architecture file."
	}
	short := ri.Description
	if short == "" {
		short = fmt.Sprintf("Architecture rule %s (%s).", ri.Name, ri.Type)
	}
	full := h.what
	if ri.Description != "" {
		full = ri.Description + ". " + h.what
	}
	where := ""
	if ri.File != "" {
		where = fmt.Sprintf(" The rule is defined in %s", ri.File)
		if ri.Line > 0 {
			where += fmt.Sprintf(" at line %d", ri.Line)
		}
		where += "."
	}
	text := fmt.Sprintf("%s\n\n%s%s\n\nSee docs/lint.md for the rule types, exemptions and baselines.", full, h.fix, where)
	md := fmt.Sprintf("**%s** (`%s`): %s\n\n%s%s\n\nSee [docs/lint.md](https://github.com/vouch-dev/vouch/blob/main/docs/lint.md) for the rule types, exemptions and baselines.",
		ri.Name, ri.Type, full, h.fix, where)
	props := map[string]string{"vouch_type": ri.Type}
	if ri.Group != "" {
		// The contract of another tool's configuration the rule is part
		// of: import-linter reports contracts, not vouch's rules.
		props["contract"] = ri.Group
		if ri.Description == "" {
			short = fmt.Sprintf("Contract %q: architecture rule %s (%s).", ri.Group, ri.Name, ri.Type)
		}
	}
	return output.SARIFRule{ID: ri.Name, Name: ri.Name,
		ShortDescription:     &output.SARIFMessage{Text: short},
		FullDescription:      &output.SARIFMessage{Text: full},
		Help:                 &output.SARIFMessage{Text: text, Markdown: md},
		HelpURI:              "https://github.com/vouch-dev/vouch/blob/main/docs/lint.md",
		DefaultConfiguration: output.SARIFConfig{Level: level(ri.Severity)},
		Properties:           props}
}

// WriteSARIF writes a SARIF 2.1.0 log: one reportingDescriptor per rule,
// one result per finding, and configuration errors (and notices, as
// warnings) as toolExecutionNotifications so the file stays valid when
// vouch fails. Every result has a file and line, relative to the
// repository root (%SRCROOT%), as GitHub code scanning requires: the
// import site, the closing import of a cycle, or for a finding only the
// architecture graph shows, the rule's line in the architecture file;
// node-level findings also name the node as a logical location.
func (r *Report) WriteSARIF(w io.Writer, version string) error {
	b := output.NewSARIF(version, r.Root)
	if len(r.Errors) > 0 {
		b.Failed()
	}
	at := map[string]RuleInfo{}
	for _, ri := range r.Rules {
		b.AddRule(sarifRule(ri))
		at[ri.Name] = ri
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
	for _, s := range r.Skipped {
		// A contract or rule vouch does not run checked nothing: say so
		// rather than let its absence read as a pass.
		b.Notify("warning", fmt.Sprintf("%s (%s) is not evaluated by vouch", s.Rule, s.Type), s.File, s.Line, 0)
	}
	for _, f := range r.Findings {
		res := output.SARIFResult{RuleID: f.Rule, Level: level(f.Severity), Kind: "fail",
			Message:             output.SARIFMessage{Text: findingText(f)},
			PartialFingerprints: map[string]string{"vouchFinding/v1": keyOf(f)}}
		if g := at[f.Rule].Group; g != "" {
			// Grouped per contract: the contract's name leads the
			// message and is a property, so code scanning can filter
			// on it.
			res.Message.Text = fmt.Sprintf("contract %q: %s", g, res.Message.Text)
			res.Properties = map[string]string{"contract": g}
		}
		if f.Baseline {
			res.BaselineState = "unchanged"
		}
		file, line := f.File, f.Line
		if file == "" {
			file, line = at[f.Rule].File, at[f.Rule].Line
		}
		var loc output.SARIFLocation
		if file != "" {
			loc = output.FileLocation(file, line, 0)
		}
		if f.From != "" && nodeRule(f.Type) {
			loc.Logical = []output.SARIFLogical{{Name: f.From, Kind: "module"}}
		}
		if loc.Physical != nil || loc.Logical != nil {
			res.Locations = []output.SARIFLocation{loc}
		}
		b.AddResult(res)
	}
	return b.Write(w)
}

// nodeRule reports whether findings of type t start at a node (not a
// file), which SARIF names as a logical location.
func nodeRule(t string) bool {
	switch arch.RuleType(t) {
	case arch.Deny, arch.Require, arch.Forbid, arch.Layers, arch.ForbidCycles, arch.AcyclicSiblings:
		return true
	}
	return false
}

func level(sev string) string {
	switch sev {
	case arch.SeverityError:
		return "error"
	case arch.SeverityInfo:
		return "note"
	}
	return "warning"
}
