package explain

import (
	"fmt"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/rulespec"
)

// Request is a `vouch explain` invocation before vouch.yaml fills in
// the rest: the rulespec, limits, strictness and evidence root are found
// as verify and the gate find them.
type Request struct {
	// Select picks predicates by index, id or claim name.
	Select []string
	// Rulespec is --rulespec ("" is vouch.yaml's, else the default);
	// Envelope is --envelope ("" explains without one).
	Rulespec, Envelope string
	// Root is --root when RootSet ("" then is an error).
	Root    string
	RootSet bool
	// Strict overrides vouch.yaml's strict.
	Strict *bool
	// Base is --base when BaseSet; else vouch.yaml's base:.
	Base    string
	BaseSet bool
}

// Run loads what the request names and explains it. An error is the
// user's to fix, or an evaluation that gave no verdict to explain.
func Run(req Request) (*Explanation, error) {
	cfg, err := config.LoadRoot(req.Root, req.RootSet)
	if err != nil {
		return nil, err
	}
	path := req.Rulespec
	if path == "" {
		path = cfg.Rulespec
	}
	rs, err := rulespec.Load(path)
	if err != nil {
		return nil, fmt.Errorf("invalid input:\n%w", err)
	}
	var env *envelope.Envelope
	if req.Envelope != "" {
		if env, err = envelope.Load(req.Envelope, cfg.Limits); err != nil {
			return nil, fmt.Errorf("invalid input:\n%w", err)
		}
	}
	opts := Options{Select: req.Select, Strict: cfg.Strict, Root: cfg.Root}
	if req.Strict != nil {
		opts.Strict = *req.Strict
	}
	opts.Base, opts.BaseFrom = cfg.BaseRef()
	if req.BaseSet {
		opts.Base, opts.BaseFrom = req.Base, "--base"
	}
	return Explain(rs, env, opts)
}
