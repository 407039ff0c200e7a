package lint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/repofacts"
)

func newFromName(cfg Config) string {
	if cfg.NewFromFrom != "" {
		return cfg.NewFromFrom
	}
	return "--new-from-rev"
}

// dropPreexisting checks the same rules on the tree of commit and removes
// from rep every finding whose identity was already found there (as many
// times as it was found), counting them in rep.Preexisting. The rules are
// the current ones, as golangci-lint judges old code by today's
// configuration: a finding is new when the code introduced it.
//
// When the old tree cannot be checked with the current rules (a
// configuration error there, such as a node whose directory did not
// exist yet), nothing is dropped and a notice says so: failing closed
// reports too much rather than too little.
func dropPreexisting(ctx context.Context, root string, cfg Config, commit string, rep *Report) error {
	tmp, err := os.MkdirTemp("", "vouch-new-from-")
	if err != nil {
		return fmt.Errorf("%s: %w", newFromName(cfg), err)
	}
	defer os.RemoveAll(tmp)
	tree := filepath.Join(tmp, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		return fmt.Errorf("%s: %w", newFromName(cfg), err)
	}
	if err := repofacts.ExtractTree(ctx, root, commit, tree); err != nil {
		return err
	}
	old := cfg
	old.NewFromRev, old.Baseline, old.SkipBaseline = "", "", false
	old.RequiredBy, old.Remedy = "", ""
	old.File = architectureFile(root, cfg.File)
	old.Out = filepath.Join(tmp, "out")
	old.NoCache = true
	orep, err := Check(ctx, tree, old)
	var ce *ConfigErrors
	switch {
	case errors.As(err, &ce):
		rep.Notices = append(rep.Notices, &ConfigError{Msg: fmt.Sprintf(
			"%s %s: the current rules could not be checked on that revision (%s); every finding is reported",
			newFromName(cfg), cfg.NewFromRev, ce.List[0].Error())})
		return nil
	case err != nil:
		return fmt.Errorf("%s %s: check the revision's tree: %w", newFromName(cfg), cfg.NewFromRev, err)
	}
	left := map[string]int{}
	for _, f := range orep.Findings {
		if Baselinable(f) {
			left[keyOf(f)]++
		}
	}
	kept := rep.Findings[:0]
	for _, f := range rep.Findings {
		if k := keyOf(f); Baselinable(f) && left[k] > 0 {
			left[k]--
			rep.Preexisting++
			continue
		}
		kept = append(kept, f)
	}
	rep.Findings = kept
	return nil
}

// architectureFile is the architecture file Check reads for root: the
// configured one, else the one arch.Load finds, else "" (rules derived
// from the tree itself).
func architectureFile(root, file string) string {
	if file != "" {
		return file
	}
	for _, p := range []string{filepath.Join(root, arch.FileName), filepath.Join(root, filepath.FromSlash(arch.BeadloomDir))} {
		if _, err := os.Stat(p); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
			return p
		}
	}
	return ""
}
