package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/internal/atomicfile"
)

const initConfig = `# vouch.yaml: repository settings for vouch (docs/config.md).
# Paths are relative to this file's directory, the repository root.
rulespec: analysis/rulespec.yaml
envelope: .vouch/envelope.yaml
out: .vouch
# strict: true          # fail predicates that pass only vacuously
# limits:
#   max_envelope_bytes: 67108864
#   max_depth: 256
`

const initRulespec = `# analysis/rulespec.yaml: what an agent's envelope must show before its work counts
# as done. Rules and their exact meaning: docs/rulespec.md. Gate: vouch gate.
#
# The agent writes .vouch/envelope.yaml, for example:
#   facts:
#     summary: Added CSV import with delimiter detection
#     files_changed: [src/import/csv.go, src/import/csv_test.go:1-40]
#     tests_added: [TestImportCSV]
claims:
  - name: summary
    selector: summary
  - name: files_changed
    selector: files_changed
  - name: tests_added
    selector: tests_added

predicates:
  - id: summary
    claim: summary
    rule: min_length
    value: 10
    notes: Say in a sentence what you did.

  # Evidence: at least one file must be cited (an empty list would pass
  # file_exists vacuously), and every cited path (path, path:line or
  # path:first-last) must exist under the repository root, with the lines
  # inside the file.
  - id: files-listed
    claim: files_changed
    rule: min_length
    value: 1
    notes: List the files you changed.

  - id: files-exist
    claim: files_changed
    rule: file_exists
    notes: List the files you changed; each must exist.

  # mode: observe reports a failure without failing the gate. Roll a new rule
  # out this way, then delete the line to enforce it.
  - id: tests-added
    claim: tests_added
    rule: min_length
    value: 1
    mode: observe
    notes: New behaviour needs a test.
`

const claudeSnippet = `{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {"type": "command", "command": "vouch gate --format claude-hook"}
        ]
      }
    ]
  }
}
`

const preCommitSnippet = `#!/bin/sh
# vouch: refuse the commit while the agent's envelope is missing or failing.
exec vouch gate --format text
`

const actionsSnippet = `name: vouch
on: [pull_request]
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: "1.26"
      - run: go install github.com/vouch-dev/vouch/cmd/vouch@latest
      # Prove the committed receipt matches the rulespec, envelope, program and
      # vouch.yaml, and was signed with the key. --require-signed fails the job
      # when the VOUCH_KEY secret is missing (forks' pull requests get no secrets)
      # instead of accepting an unsigned receipt. Add --allow-observed only while
      # rolling out observe-mode rules whose failures you accept.
      - run: vouch receipt verify --require-signed
        env:
          VOUCH_KEY: ${{ secrets.VOUCH_KEY }}
      # Re-run the gate, with annotations on the failing predicates.
      - run: vouch gate --format github
`

// scaffold is one file init creates.
type scaffold struct {
	path, content string
	perm          os.FileMode
	// hook marks a file that installs a hook: keeping an existing one
	// means the gate does not run there until merged by hand.
	hook bool
	// abs, when set, is where the file goes instead of path under the
	// root (a core.hooksPath outside the repository).
	abs string
}

func initCommand() *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "scaffold vouch.yaml and a rulespec, and show the hooks that run the gate",
		Description: `Creates vouch.yaml and a commented analysis/rulespec.yaml at the repository root, then
prints the snippets for a Claude Code Stop hook, a git pre-commit hook and a GitHub Actions job.
With --write it installs them too (.claude/settings.json, .git/hooks/pre-commit or
pre-commit in the directory git config core.hooksPath names, .github/workflows/vouch.yml); when
core.hooksPath cannot be read, the hook is NOT INSTALLED and its snippet is printed. An existing file is never overwritten without --force; when a
hook file exists, init says the hook is not installed and prints the snippet to merge into it.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "write", Usage: "install the hook and CI snippets as files"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite files that already exist"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: the git top level, else the working directory)"},
		},
		Action: runInit,
	}
}

func runInit(c *cli.Context) error {
	if c.NArg() > 0 {
		return fail(exitError, fmt.Errorf("init takes no arguments, got %q", c.Args().First()))
	}
	root := c.String("root")
	if root == "" {
		var err error
		if root, _, err = config.Discover("."); err != nil {
			return fail(exitError, err)
		}
	}
	w := c.App.Writer
	force := c.Bool("force")
	files := []scaffold{
		{path: config.FileName, content: initConfig, perm: 0o644},
		{path: config.DefaultRulespec, content: initRulespec, perm: 0o644},
	}
	if c.Bool("write") {
		files = append(files,
			scaffold{path: ".claude/settings.json", content: claudeSnippet, perm: 0o644, hook: true},
			scaffold{path: ".github/workflows/vouch.yml", content: actionsSnippet, perm: 0o644, hook: true})
		if st, err := os.Stat(filepath.Join(root, ".git")); err == nil && st.IsDir() {
			hook, err := preCommitPath(root)
			if err != nil {
				fmt.Fprintf(w, "the git pre-commit hook is NOT INSTALLED: %v; install this as the pre-commit hook (executable) in the directory git runs hooks from:\n\n%s\n", err, indent(preCommitSnippet))
			} else {
				files = append(files, hook)
			}
		} else {
			fmt.Fprintln(w, "skipped .git/hooks/pre-commit: no .git directory at the root")
		}
	}
	kept := 0
	var unmerged []scaffold
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.path))
		if f.abs != "" {
			p = f.abs
		}
		_, err := os.Lstat(p)
		switch {
		case err == nil && !force:
			if f.hook {
				fmt.Fprintf(w, "kept %s: it exists, so the vouch hook is NOT installed there; merge the snippet below by hand (or use --force to overwrite)\n", p)
				unmerged = append(unmerged, f)
			} else {
				fmt.Fprintf(w, "kept %s: it exists (use --force to overwrite)\n", p)
			}
			kept++
			continue
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return fail(exitError, fmt.Errorf("check %s: %w", p, err))
		}
		if err := atomicfile.Write(p, []byte(f.content), f.perm); err != nil {
			return fail(exitError, err)
		}
		fmt.Fprintf(w, "wrote %s\n", p)
	}
	for _, f := range unmerged {
		fmt.Fprintf(w, "\nNOT INSTALLED: merge this into the existing %s:\n\n%s", f.path, indent(f.content))
	}
	if !c.Bool("write") {
		var b strings.Builder
		b.WriteString("\nClaude Code Stop hook (.claude/settings.json; merge into an existing file):\n\n")
		b.WriteString(indent(claudeSnippet))
		b.WriteString("\ngit pre-commit hook (.git/hooks/pre-commit, or pre-commit in git's core.hooksPath; executable):\n\n")
		b.WriteString(indent(preCommitSnippet))
		b.WriteString("\nGitHub Actions job (.github/workflows/vouch.yml):\n\n")
		b.WriteString(indent(actionsSnippet))
		b.WriteString("\nInstall them with: vouch init --write\n")
		fmt.Fprint(w, b.String())
	}
	if kept > 0 {
		fmt.Fprintf(w, "%d file(s) kept unchanged\n", kept)
	}
	return nil
}

// preCommitPath is where git runs the pre-commit hook from: the directory
// core.hooksPath names (relative to the repository root, as git resolves
// it for hooks), else .git/hooks. An error means it cannot be determined,
// and the hook must not be written where git might never run it.
func preCommitPath(root string) (scaffold, error) {
	hook := scaffold{path: ".git/hooks/pre-commit", content: preCommitSnippet, perm: 0o755, hook: true}
	cmd := exec.Command("git", "config", "--get", "core.hooksPath")
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 1 && len(out) == 0 && strings.TrimSpace(stderr.String()) == "":
		return hook, nil // core.hooksPath is not set
	case err != nil:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return hook, fmt.Errorf("cannot read git's core.hooksPath (git config --get core.hooksPath: %s)", msg)
	}
	dir := strings.TrimRight(string(out), "\r\n")
	switch {
	case dir == "":
		return hook, errors.New("git's core.hooksPath is set but empty")
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return hook, fmt.Errorf("cannot expand core.hooksPath %q: %w", dir, err)
		}
		dir = filepath.Join(home, dir[1:])
	}
	dir = filepath.FromSlash(dir)
	if filepath.IsAbs(dir) {
		hook.abs = filepath.Join(dir, "pre-commit")
		hook.path = hook.abs
		return hook, nil
	}
	hook.path = filepath.ToSlash(filepath.Join(dir, "pre-commit"))
	return hook, nil
}

func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	return b.String()
}
