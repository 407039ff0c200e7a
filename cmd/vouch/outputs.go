package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/gate"
	"github.com/vouch-dev/vouch/output"
)

// vouchFiles are the files a run of vouch reads as its inputs or writes
// as its own outputs, which an --output report must not replace: with
// root (and rootSet) as --root gives it, vouch.yaml and what it names
// (the rulespec, the envelope, the architecture rules and baseline, the
// receipt and artifacts in the output directory), the default
// architecture file, and the files the command's flags name (extra;
// out is the --out directory, "" for the configured one).
func vouchFiles(root string, rootSet bool, out string, extra ...string) []string {
	files := append([]string{}, extra...)
	cfg, err := config.LoadRoot(root, rootSet)
	if err != nil {
		// The run fails on the configuration too, and may still write
		// its error report: keep the defaults under the root from it.
		r := root
		if r == "" {
			if r, _, err = config.Discover("."); err != nil {
				r = "."
			}
		}
		cfg = &config.Config{Root: r, Rulespec: filepath.Join(r, config.DefaultRulespec), Envelope: filepath.Join(r, config.DefaultEnvelope)}
	}
	files = append(files, filepath.Join(cfg.Root, config.FileName), cfg.Rulespec, cfg.Envelope,
		filepath.Join(cfg.Root, "architecture.yaml"))
	if a := cfg.Architecture; a != nil {
		files = append(files, a.Config, a.Baseline)
	}
	for _, dir := range []string{out, cfg.Out, filepath.Dir(cfg.Envelope)} {
		if dir != "" {
			files = append(files, gate.Outputs(dir)...)
		}
	}
	return files
}

// checkOutputs refuses an --output destination that is one of own (see
// vouchFiles), compared as absolute paths and, where they exist, as
// their symbolic links resolve, case folded as a case-insensitive file
// system would: a report written over the rulespec or the envelope
// changes what the receipt just written pins, or what the next run
// checks against.
func checkOutputs(sink *output.Sink, own []string) error {
	names := func(p string) []string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil
		}
		out := []string{abs}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			out = append(out, real)
		} else if errors.Is(err, fs.ErrNotExist) {
			if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
				out = append(out, filepath.Join(dir, filepath.Base(abs)))
			}
		}
		return out
	}
	mine := map[string]bool{}
	for _, f := range own {
		if f == "" {
			continue
		}
		for _, n := range names(f) {
			mine[strings.ToLower(n)] = true
		}
	}
	for _, t := range sink.Targets {
		for _, n := range names(t.Path) {
			if mine[strings.ToLower(n)] {
				return fmt.Errorf("refusing to write the %s report to %s: it is one of vouch's own inputs or outputs (vouch.yaml, the rulespec, the envelope, the architecture rules or baseline, the receipt or an artifact); write the report elsewhere", t.Format, t.Path)
			}
		}
	}
	return nil
}
