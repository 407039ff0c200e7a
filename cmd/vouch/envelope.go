package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/gate"
	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/internal/safeopen"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/verify"
)

func envelopeCommand() *cli.Command {
	return &cli.Command{
		Name:  "envelope",
		Usage: "write an action envelope",
		Subcommands: []*cli.Command{{
			Name:      "write",
			Usage:     "validate an envelope, save it atomically, and say what still fails",
			ArgsUsage: "[PATH]",
			Description: `Reads an envelope from --from FILE (or standard input, also with --from -), checks it
with the same loader and limits as verify, refuses one whose facts: is missing or empty, and
writes it to PATH (default: vouch.yaml's envelope, else .vouch/envelope.yaml) through a temporary
file and a rename, so no reader ever sees half an envelope. PATH other than the configured
envelope must be a new .yaml, .yml or .json file under the repository root that is none of
vouch's inputs or outputs and is not tracked by git; anything else is refused (exit 2) before
anything is read or written. It then verifies the envelope and
prints the counts and every failing predicate: its id and claim, what was expected, what was
found, why, and its notes.

In a git work tree the envelope is stamped with the state of the work it describes: under
metadata.vouch_state, the base commit and a digest of every changed file's content (see
docs/gating.md). The gate recomputes that state and fails a stamped envelope that no longer
matches the work, naming the files that changed.

Exit codes: 0 written and passing, 1 written but failing, 2 not written (bad input), or written
but the rulespec could not be checked.`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "from", Value: "-", Usage: "read the envelope from `FILE` ('-' for standard input)"},
				&cli.StringFlag{Name: "rulespec", Aliases: []string{"r"}, Usage: "rulespec `FILE` (default: vouch.yaml's, else analysis/rulespec.yaml)"},
				&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: found from the working directory)"},
				baseFlag(),
			},
			Action: runEnvelopeWrite,
		}},
	}
}

func runEnvelopeWrite(c *cli.Context) error {
	if c.NArg() > 1 {
		return fail(exitError, fmt.Errorf("envelope write takes at most one PATH, got %d", c.NArg()))
	}
	cfg, err := loadConfig(c)
	if err != nil {
		return fail(exitError, err)
	}
	dst := pick(c.Args().First(), cfg.Envelope)
	rulespecPath := pick(c.String("rulespec"), cfg.Rulespec)
	// Checked before anything is read or written: the agent picks PATH.
	inputs := []string{filepath.Join(cfg.Root, config.FileName), rulespecPath}
	if a := cfg.Architecture; a != nil {
		inputs = append(inputs, a.Config, a.Baseline)
	}
	if err := envelope.CheckDestination(dst, envelope.Destination{Root: cfg.Root, Configured: cfg.Envelope, Inputs: inputs, OutDir: cfg.Out}); err != nil {
		return fail(exitError, err)
	}
	src := c.String("from")
	var data []byte
	name := src
	if src == "-" {
		name = "<stdin>"
		data, err = io.ReadAll(io.LimitReader(c.App.Reader, normLimit(cfg.Limits)+1))
	} else {
		data, err = readLimited(src, normLimit(cfg.Limits))
	}
	if err != nil {
		return fail(exitError, fmt.Errorf("read the envelope from %s: %w", name, err))
	}
	env, err := envelope.Parse(name, data, cfg.Limits)
	if err != nil {
		return fail(exitError, fmt.Errorf("invalid envelope, nothing written:\n%w", err))
	}
	if string(env.Facts) == "{}" {
		return fail(exitError, fmt.Errorf("%s: facts is empty, nothing written; list what you did under facts: (the rulespec's claims name the facts it checks)", name))
	}
	w := c.App.Writer
	base, baseFrom := baseOf(c, cfg)
	st, err := gate.WorkState(c.Context, gate.StateOptions{Root: cfg.Root, Base: base, BaseFrom: baseFrom, Envelope: dst,
		OutDir: verify.EvidenceOutDir(cfg.Out, cfg.Root), ArtifactDir: artifactDir("", cfg.Out, dst)})
	stamped := err == nil
	if err != nil {
		var re *repofacts.Error
		if !errors.As(err, &re) || base != "" {
			return fail(exitError, fmt.Errorf("nothing written: %w", err))
		}
		// Not a git work tree (or no git): there is no state to stamp.
		err = nil
	} else if data, err = envelope.SetMetadata(data, gate.StampKey, st); err == nil {
		env, err = envelope.Parse(name, data, cfg.Limits)
	}
	if err != nil {
		return fail(exitError, fmt.Errorf("stamp the envelope, nothing written: %w", err))
	}
	if envelope.IsJSONName(dst) {
		// A .json envelope is read as strict JSON, and the source (or
		// the stamp) may be YAML.
		data = env.JSON()
	}
	if err := atomicfile.Write(dst, data, 0o644); err != nil {
		return fail(exitError, err)
	}
	fmt.Fprintf(w, "wrote %s\n", dst)
	if stamped {
		fmt.Fprintf(w, "stamped with the state of the work: %d changed files since %.12s\n", len(st.Files), st.Base)
	}
	out, err := verify.Run(verify.Input{
		RulespecPath:     rulespecPath,
		RulespecExplicit: c.IsSet("rulespec"),
		EnvelopePath:     dst,
		EnvelopeExplicit: true,
		Limits:           cfg.Limits,
		Strict:           cfg.Strict,
		Root:             cfg.Root,
		Base:             base,
		BaseFrom:         baseFrom,
		Outputs:          gate.Outputs(artifactDir("", cfg.Out, dst)),
		OutDir:           verify.EvidenceOutDir(cfg.Out, cfg.Root),
	})
	if err != nil {
		var ie *verify.InputError
		if errors.As(err, &ie) {
			return fail(exitError, fmt.Errorf("the envelope was written, but it could not be verified:\n%w", err))
		}
		return fail(exitError, err)
	}
	if err := out.Report.WriteFixes(w); err != nil {
		return fail(exitError, err)
	}
	if out.Report.Verdict != "pass" {
		return fail(exitFail, nil)
	}
	return nil
}

// normLimit is the byte limit the loader will apply.
func normLimit(l envelope.Limits) int64 {
	if l.MaxBytes <= 0 {
		return envelope.DefaultLimits().MaxBytes
	}
	return l.MaxBytes
}

// readLimited reads at most limit+1 bytes, so the loader can refuse an
// oversized file without vouch reading all of it.
// It refuses anything but a regular file without blocking.
func readLimited(path string, limit int64) ([]byte, error) {
	f, _, err := safeopen.Open(path, safeopen.Options{})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}
