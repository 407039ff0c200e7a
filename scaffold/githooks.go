package scaffold

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// preCommitPath is where git runs the pre-commit hook from: the directory
// core.hooksPath names (relative to the repository root, as git resolves
// it for hooks), else .git/hooks. The path is relative to root with '/',
// or absolute. An error means it cannot be determined, and the hook must
// not be written where git might never run it.
func preCommitPath(root string) (string, error) {
	cmd := exec.Command("git", "config", "--get", "core.hooksPath")
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 1 && len(out) == 0 && strings.TrimSpace(stderr.String()) == "":
		return ".git/hooks/pre-commit", nil // core.hooksPath is not set
	case err != nil:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("cannot read git's core.hooksPath (git config --get core.hooksPath: %s)", msg)
	}
	dir := strings.TrimRight(string(out), "\r\n")
	switch {
	case dir == "":
		return "", errors.New("git's core.hooksPath is set but empty")
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("cannot expand core.hooksPath %q: %w", dir, err)
		}
		dir = filepath.Join(home, dir[1:])
	}
	dir = filepath.FromSlash(dir)
	if filepath.IsAbs(dir) {
		return filepath.Join(dir, "pre-commit"), nil
	}
	return filepath.ToSlash(filepath.Join(dir, "pre-commit")), nil
}

// FindBinary is the absolute path of the running vouch, for hooks. It
// prefers the PATH entry that runs this same file (a symlink such as
// /usr/local/bin/vouch survives upgrades that move its target) over the
// resolved executable.
func FindBinary(argv0 string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the vouch binary for the hooks: %w", err)
	}
	exeInfo, err := os.Stat(exe)
	if err != nil {
		return "", fmt.Errorf("find the vouch binary for the hooks: %w", err)
	}
	var candidate string
	if strings.ContainsRune(argv0, filepath.Separator) {
		candidate = argv0
	} else if p, err := exec.LookPath(argv0); err == nil {
		candidate = p
	}
	if candidate != "" {
		if abs, err := filepath.Abs(candidate); err == nil {
			if st, err := os.Stat(abs); err == nil && os.SameFile(st, exeInfo) {
				return abs, nil
			}
		}
	}
	return exe, nil
}
