package envelope

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Destination says where `vouch envelope write` may write. The command
// runs on the agent's behalf, so the path it is given is hostile: without
// these checks it wrote outside the repository, over vouch.yaml, the
// rulespec, the receipt and source files.
type Destination struct {
	// Root is the repository root.
	Root string
	// Configured is the envelope path vouch.yaml (or the default) names;
	// it may always be written.
	Configured string
	// Inputs are vouch's own input files (vouch.yaml, the rulespec, the
	// architecture configuration); OutDir is its output directory, ""
	// for none configured.
	Inputs []string
	OutDir string
}

// outputNames are the files vouch writes beside the envelope.
var outputNames = []string{"verification.json", "rulespec.compiled.dl", "datalog_evaluation.txt", "gate.compiled.dl"}

// CheckDestination decides, before anything is written, whether path may
// receive an envelope: the configured envelope path, or else a new .yaml,
// .yml or .json file under the root, through no symlink out of it, that is
// none of vouch's inputs or outputs and is not tracked by git.
func CheckDestination(path string, d Destination) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if conf, err := filepath.Abs(d.Configured); err == nil && conf == abs {
		return nil
	}
	refuse := func(why string) error {
		return fmt.Errorf("refusing to write the envelope to %s: %s; write to the configured envelope %s (the default PATH)", path, why, d.Configured)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
	default:
		return refuse("an envelope file ends in .yaml, .yml or .json")
	}
	root, err := filepath.Abs(d.Root)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return refuse("it is outside the repository root " + d.Root)
	}
	// The directory it lands in, once symlinks are resolved, must still
	// be under the root (the root itself may sit behind a symlink).
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	if parent, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		if r, err := filepath.Rel(realRoot, parent); err != nil || !filepath.IsLocal(r) && r != "." {
			return refuse("its directory resolves to outside the repository root")
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return refuse(err.Error())
	}
	if _, err := os.Lstat(abs); err == nil {
		return refuse("a file already exists there, and only the configured envelope is replaced")
	} else if !errors.Is(err, fs.ErrNotExist) {
		return refuse(err.Error())
	}
	for _, in := range d.Inputs {
		if a, err := filepath.Abs(in); err == nil && strings.EqualFold(a, abs) {
			return refuse("it is one of vouch's own inputs")
		}
	}
	for _, n := range outputNames {
		if strings.EqualFold(filepath.Base(abs), n) {
			return refuse("it is one of vouch's own outputs")
		}
	}
	if d.OutDir != "" {
		if out, err := filepath.Abs(d.OutDir); err == nil {
			if r, err := filepath.Rel(out, abs); err == nil && filepath.IsLocal(r) {
				return refuse("it is inside vouch's output directory " + d.OutDir)
			}
		}
	}
	if tracked(root, rel) {
		return refuse("git tracks that path")
	}
	return nil
}

// tracked reports whether git tracks rel in the repository at root (even
// if the file was deleted from the working tree). Outside a git
// repository, or without git, nothing is tracked.
func tracked(root, rel string) bool {
	cmd := exec.Command("git", "-C", root, "ls-files", "--", filepath.ToSlash(rel))
	out, err := cmd.Output()
	return err == nil && len(strings.TrimSpace(string(out))) > 0
}
