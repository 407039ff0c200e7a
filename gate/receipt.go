package gate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/receipt"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/verify"
)

// ReceiptRequest is a `vouch receipt verify` invocation: which receipt,
// and what it must cover besides what vouch.yaml asks for.
type ReceiptRequest struct {
	// Path is the receipt; "" is verification.json in vouch.yaml's out
	// directory, else beside the envelope.
	Path string
	// Root is the repository root ("" finds it); RootSet says --root was
	// given.
	Root    string
	RootSet bool
	// Rulespec and Envelope are the files the receipt must name; "" is
	// vouch.yaml's, else the defaults. Never the receipt's own, which may
	// be hostile.
	Rulespec, Envelope string
	// KeyFile, else KeyEnv (VOUCH_KEY), holds the MAC key.
	KeyFile, KeyEnv string
	// RequireSigned, AllowObserved, AllowUnchecked and MaxEvidenceBytes
	// are receipt.Options'.
	RequireSigned, AllowObserved, AllowUnchecked bool
	MaxEvidenceBytes                             int64
	// Base is the base a gate here compares the work with (--base), for
	// a receipt that records repository facts; "" is vouch.yaml's base:,
	// else the default, as for the gate.
	Base string
}

// ReceiptCheck is what checking a receipt found.
type ReceiptCheck struct {
	// Path is the receipt checked.
	Path    string
	Receipt *receipt.Receipt
	// Problems lists what does not hold; none means the receipt holds.
	Problems []receipt.Problem
	// Options are those it was checked with, for the report.
	Options receipt.Options
}

// WriteText prints the check as `vouch receipt verify` does: every
// problem, or what the receipt proves.
func (c *ReceiptCheck) WriteText(w io.Writer, paint output.Painter) error {
	if len(c.Problems) > 0 {
		return receipt.WriteProblems(w, c.Problems, paint)
	}
	return c.Receipt.WriteOK(w, c.Path, c.Options, paint)
}

// Err is the one-line summary of a receipt that does not hold, nil when
// it holds, so every caller words the failure the same way.
func (c *ReceiptCheck) Err() error {
	if len(c.Problems) == 0 {
		return nil
	}
	return fmt.Errorf("receipt %s does not hold: %s", c.Path, output.Count(len(c.Problems), "problem"))
}

// VerifyReceipt checks a receipt against the files on disk and what
// vouch.yaml asks of the gate here: the root, the rulespec and envelope,
// the architecture check and strictness, and the work it was given for.
// An error means nothing could be checked (a missing or garbled receipt,
// a signed one without a key, a bad vouch.yaml).
func VerifyReceipt(ctx context.Context, req ReceiptRequest) (*ReceiptCheck, error) {
	cfg, err := config.LoadRoot(req.Root, req.RootSet)
	if err != nil {
		return nil, err
	}
	opts := receipt.Options{
		RequireSigned:    req.RequireSigned,
		AllowObserved:    req.AllowObserved,
		AllowUnchecked:   req.AllowUnchecked,
		MaxEvidenceBytes: req.MaxEvidenceBytes,
		CheckConfig:      true,
		Config:           cfg.File,
		// Evidence is rehashed under the root the gate would use here,
		// and what vouch.yaml asks for must have been run.
		Root:         cfg.Root,
		Architecture: cfg.Architecture != nil,
		Strict:       cfg.Strict,
		ArchStrict:   cfg.Architecture != nil && cfg.Architecture.Strict,
		Rulespec:     orDefault(req.Rulespec, cfg.Rulespec),
		Envelope:     orDefault(req.Envelope, cfg.Envelope),
		WorkDigest: func(base, env, dir string) (string, error) {
			st, err := WorkState(ctx, StateOptions{Root: cfg.Root, Base: base, BaseFrom: "the receipt's work.base",
				Envelope: env, OutDir: verify.EvidenceOutDir(cfg.Out, cfg.Root), ArtifactDir: dir})
			return st.Digest, err
		},
	}
	path := req.Path
	if path == "" {
		path = receipt.DefaultPath(cfg.Out, opts.Envelope)
	}
	base, baseFrom := req.Base, "--base"
	if base == "" {
		base, baseFrom = cfg.BaseRef()
	}
	// Only the commit is needed, not the state of the work.
	opts.RepoBase = sync.OnceValues(func() (string, error) {
		return repofacts.BaseCommit(ctx, cfg.Root, base, baseFrom)
	})
	// Anything but "no .git above the root" counts as a work tree, so a
	// repository git cannot read fails the receipt instead of excusing
	// its missing work pin.
	opts.WorkTree = func() bool {
		_, err := opts.RepoBase()
		return !errors.Is(err, repofacts.ErrNotWorkTree)
	}
	if opts.Key, err = receipt.LoadKey(req.KeyFile, req.KeyEnv); err != nil {
		return nil, err
	}
	r, probs, err := receipt.Verify(path, opts)
	if err != nil {
		return nil, err
	}
	return &ReceiptCheck{Path: path, Receipt: r, Problems: probs, Options: opts}, nil
}

func orDefault(flag, fallback string) string {
	if flag != "" {
		return flag
	}
	return fallback
}
