package gate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/internal/safeopen"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/verify"
)

// WriteOptions say what `vouch envelope write` reads, where it writes, and
// what it verifies the written envelope against.
type WriteOptions struct {
	// Config is the vouch.yaml read (its root, envelope, out, limits and
	// inputs); nil reads it as --root asks (Root, RootSet; see
	// config.LoadRoot).
	Config  *config.Config
	Root    string
	RootSet bool
	// Path is the destination; "" is the configured envelope.
	Path string
	// From is the source file, "-" (or "") for Stdin.
	From  string
	Stdin io.Reader
	// Rulespec is the rulespec to verify against ("" for the configured
	// one); RulespecExplicit says it was named on the command line (else
	// it must lie under the root).
	Rulespec         string
	RulespecExplicit bool
	// Base and BaseFrom pick the revision the work is compared with;
	// BaseFrom "" (no --base) takes vouch.yaml's base:, else the default.
	Base, BaseFrom string
}

// Written is what WriteEnvelope wrote and what verifying it found.
type Written struct {
	// Path is the envelope file written.
	Path string
	// Stamped is set when the envelope carries the state of the work
	// (Stamp); outside a git work tree there is none.
	Stamped bool
	Stamp   Stamp
	// Outcome is the verification of the written envelope; nil when it
	// could not be verified.
	Outcome *verify.Outcome
}

// WriteEnvelope checks the destination before reading anything, reads and
// validates the envelope with verify's loader and limits, refuses an
// empty facts:, stamps it with the state of the work (in a git work tree),
// writes it atomically, and verifies it. An error with a nil Written means
// nothing was written; with a non-nil one, the envelope was written but
// could not be verified.
func WriteEnvelope(ctx context.Context, o WriteOptions) (*Written, error) {
	cfg := o.Config
	if cfg == nil {
		var err error
		if cfg, err = config.LoadRoot(o.Root, o.RootSet); err != nil {
			return nil, err
		}
	}
	o.Rulespec = pick(o.Rulespec, cfg.Rulespec)
	if o.BaseFrom == "" {
		o.Base, o.BaseFrom = cfg.BaseRef()
	}
	dst := pick(o.Path, cfg.Envelope)
	// Checked before anything is read or written: the agent picks PATH.
	inputs := []string{filepath.Join(cfg.Root, config.FileName), o.Rulespec}
	if a := cfg.Architecture; a != nil {
		inputs = append(inputs, a.Config, a.Baseline)
	}
	if err := envelope.CheckDestination(dst, envelope.Destination{Root: cfg.Root, Configured: cfg.Envelope, Inputs: inputs, OutDir: cfg.Out}); err != nil {
		return nil, err
	}
	name, data, err := readSource(o.From, o.Stdin, cfg.Limits)
	if err != nil {
		return nil, fmt.Errorf("read the envelope from %s: %w", name, err)
	}
	env, err := envelope.Parse(name, data, cfg.Limits)
	if err != nil {
		return nil, fmt.Errorf("invalid envelope, nothing written:\n%w", err)
	}
	if string(env.Facts) == "{}" {
		return nil, fmt.Errorf("%s: facts is empty, nothing written; list what you did under facts: (the rulespec's claims name the facts it checks)", name)
	}
	artifacts := artifactDir(cfg.Out, dst)
	w := &Written{Path: dst}
	st, err := WorkState(ctx, StateOptions{Root: cfg.Root, Base: o.Base, BaseFrom: o.BaseFrom, Envelope: dst,
		OutDir: verify.EvidenceOutDir(cfg.Out, cfg.Root), ArtifactDir: artifacts})
	if err != nil {
		if !errors.Is(err, repofacts.ErrNotWorkTree) || o.Base != "" {
			return nil, fmt.Errorf("nothing written: %w", err)
		}
		// Not a git work tree (or no git): there is no state to stamp.
	} else {
		w.Stamped, w.Stamp = true, st
		if data, err = envelope.SetMetadata(data, StampKey, st); err == nil {
			env, err = envelope.Parse(name, data, cfg.Limits)
		}
		if err != nil {
			return nil, fmt.Errorf("stamp the envelope, nothing written: %w", err)
		}
	}
	if envelope.IsJSONName(dst) {
		// A .json envelope is read as strict JSON, and the source (or
		// the stamp) may be YAML.
		data = env.JSON()
	}
	if err := atomicfile.Write(dst, data, 0o644); err != nil {
		return nil, err
	}
	w.Outcome, err = verify.Run(verify.Input{
		RulespecPath:     o.Rulespec,
		RulespecExplicit: o.RulespecExplicit,
		EnvelopePath:     dst,
		EnvelopeExplicit: true,
		Limits:           cfg.Limits,
		Strict:           cfg.Strict,
		Root:             cfg.Root,
		Base:             o.Base,
		BaseFrom:         o.BaseFrom,
		Outputs:          Outputs(artifacts),
		OutDir:           verify.EvidenceOutDir(cfg.Out, cfg.Root),
	})
	if err != nil {
		var ie *verify.InputError
		if errors.As(err, &ie) {
			return w, fmt.Errorf("the envelope was written, but it could not be verified:\n%w", err)
		}
		return w, err
	}
	return w, nil
}

// WriteText says what was written, whether it was stamped, and (when the
// envelope could be verified) every predicate that still fails, as
// `vouch envelope write` prints it for the agent that wrote it.
func (wr *Written) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "wrote %s\n", wr.Path); err != nil {
		return err
	}
	if wr.Stamped {
		if _, err := fmt.Fprintf(w, "stamped with the state of the work: %d changed files since %.12s\n", len(wr.Stamp.Files), wr.Stamp.Base); err != nil {
			return err
		}
	}
	if wr.Outcome == nil {
		return nil
	}
	return wr.Outcome.Report.WriteFixes(w)
}

// artifactDir is where verify and the gate write their artifacts for the
// envelope at env: the configured out directory, else the envelope's.
func artifactDir(out, env string) string {
	if out != "" {
		return out
	}
	return filepath.Dir(env)
}

// readSource reads the envelope from file, or stdin for "-" or "", at
// most the loader's byte limit plus one, so the loader refuses an
// oversized envelope without vouch reading all of it. A file must be a
// regular file; it is refused without blocking otherwise.
func readSource(file string, stdin io.Reader, lim envelope.Limits) (string, []byte, error) {
	limit := lim.MaxBytes
	if limit <= 0 {
		limit = envelope.DefaultLimits().MaxBytes
	}
	if file == "" || file == "-" {
		data, err := io.ReadAll(io.LimitReader(stdin, limit+1))
		return "<stdin>", data, err
	}
	f, _, err := safeopen.Open(file, safeopen.Options{})
	if err != nil {
		return file, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	return file, data, err
}
