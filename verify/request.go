package verify

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/evidence"
	"github.com/vouch-dev/vouch/internal/hugeheap"
)

// Request is a `vouch verify` invocation: the options as given, before
// vouch.yaml fills in the rest. A nil pointer or an unset flag means
// "not given": vouch.yaml's value, else the default, applies.
type Request struct {
	// Envelope is the ENVELOPE argument; "" is vouch.yaml's envelope.
	Envelope string
	// Rulespec is --rulespec when RulespecSet.
	Rulespec    string
	RulespecSet bool
	// Out is --out ("" is vouch.yaml's out, else the envelope's
	// directory).
	Out string
	// Root is --root when RootSet ("" then is an error).
	Root    string
	RootSet bool
	// MaxEnvelopeBytes and MaxDepth override vouch.yaml's limits.
	MaxEnvelopeBytes *int64
	MaxDepth         *int
	// MaxElements bounds the elements one claim may select.
	MaxElements int
	// Strict overrides vouch.yaml's strict.
	Strict *bool
	// Observe reports failures without failing.
	Observe bool
	// Base is --base when BaseSet; else vouch.yaml's base:, else the
	// default.
	Base    string
	BaseSet bool
	// MaxCitations bounds the paths evidence rules may cite.
	MaxCitations int
	// AuditSession is --session: the session claims with from: audit
	// read; "" reads every session in the audit log.
	AuditSession string
	// Outputs names the files the command writes into an artifact
	// directory, which repository facts leave out of the work.
	Outputs func(dir string) []string
	// NoArtifacts skips writing the program and trace (Command only).
	NoArtifacts bool
}

// HeapPerInputByte is how much heap to ready (hugeheap.ForFiles) for
// each byte of envelope and rulespec a run loads. The 1,000-predicate
// benchmark's YAML peaks at 46 times its size in live heap
// (GODEBUG=gctrace=1), and the heap maps about twice its peak before the
// run ends; the 100,000-element JSON needs far less. Guessing high costs
// address space, not memory: room the heap never reaches is never
// touched.
const HeapPerInputByte = 128

// Command is `vouch verify` up to its report: Resolve the request, Run
// it, and write the artifacts unless NoArtifacts. Every error is exit 2;
// one in the rulespec or envelope says "invalid input:" first, as the
// other commands that load them do.
func Command(req Request) (*Outcome, error) {
	in, dir, err := Resolve(req)
	if err != nil {
		return nil, err
	}
	in.RenderProgram = !req.NoArtifacts
	hugeheap.ForFiles(HeapPerInputByte, in.EnvelopePath, in.RulespecPath)
	out, err := Run(in)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			return nil, fmt.Errorf("invalid input:\n%w", err)
		}
		return nil, err
	}
	if !req.NoArtifacts {
		if err := out.WriteArtifacts(dir); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Resolve reads vouch.yaml (found from the working directory, or under
// Root) and returns the Input to run and the directory artifacts go to.
// Every error is the user's to fix (exit 2).
func Resolve(req Request) (Input, string, error) {
	cfg, err := config.LoadRoot(req.Root, req.RootSet)
	if err != nil {
		return Input{}, "", err
	}
	in := Input{
		RulespecPath: cfg.Rulespec,
		EnvelopePath: firstOf(req.Envelope, cfg.Envelope),
		// The envelope is always named (argument or vouch.yaml); the
		// rulespec only with --rulespec, else it must lie under the
		// root.
		EnvelopeExplicit: true,
		RulespecExplicit: req.RulespecSet,
		Limits:           cfg.Limits,
		Strict:           cfg.Strict,
		MaxElements:      req.MaxElements,
		Observe:          req.Observe,
		Root:             cfg.Root,
		OutDir:           EvidenceOutDir(firstOf(req.Out, cfg.Out), cfg.Root),
		Evidence:         evidence.Limits{MaxCitations: req.MaxCitations},
		AuditSession:     req.AuditSession,
	}
	if req.RulespecSet {
		in.RulespecPath = req.Rulespec
	}
	if req.MaxEnvelopeBytes != nil {
		if in.Limits.MaxBytes = *req.MaxEnvelopeBytes; in.Limits.MaxBytes <= 0 {
			return Input{}, "", fmt.Errorf("--max-envelope-bytes must be positive, got %d", in.Limits.MaxBytes)
		}
	}
	if req.MaxDepth != nil {
		if in.Limits.MaxDepth = *req.MaxDepth; in.Limits.MaxDepth <= 0 {
			return Input{}, "", fmt.Errorf("--max-depth must be positive, got %d", in.Limits.MaxDepth)
		}
	}
	if req.MaxElements <= 0 {
		return Input{}, "", fmt.Errorf("--max-elements must be positive, got %d", req.MaxElements)
	}
	if req.Strict != nil {
		in.Strict = *req.Strict
	}
	in.Base, in.BaseFrom = cfg.BaseRef()
	if req.BaseSet {
		in.Base, in.BaseFrom = req.Base, "--base"
	}
	dir := ArtifactDir(req.Out, cfg.Out, in.EnvelopePath)
	if req.Outputs != nil {
		in.Outputs = req.Outputs(dir)
	}
	return in, dir, nil
}

// ArtifactDir is where verify and the gate write their artifacts: out
// (--out), else configured (vouch.yaml's out), else the envelope's
// directory.
func ArtifactDir(out, configured, envPath string) string {
	if d := firstOf(out, configured); d != "" {
		return d
	}
	return filepath.Dir(envPath)
}

// Render writes the report in format (json, junit or text); color paints
// the text.
func (o *Outcome) Render(w io.Writer, format string, color bool) error {
	switch format {
	case "json":
		return o.Report.WriteJSON(w)
	case "junit":
		return o.Report.WriteJUnit(w, o.Rulespec.File)
	}
	return o.Report.WriteText(w, TextOptions{Color: color})
}

// Formats are the report formats Render knows.
func Formats() []string { return []string{"json", "junit", "text"} }

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
