package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
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
}

func initCommand() *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "scaffold vouch.yaml and a rulespec, and show the hooks that run the gate",
		Description: `Creates vouch.yaml and a commented analysis/rulespec.yaml at the repository root, then
prints the snippets for a Claude Code Stop hook, a git pre-commit hook and a GitHub Actions job.
With --write it installs them too (.claude/settings.json, .git/hooks/pre-commit,
.github/workflows/vouch.yml). An existing file is never overwritten without --force; when a
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
		{config.FileName, initConfig, 0o644},
		{config.DefaultRulespec, initRulespec, 0o644},
	}
	if c.Bool("write") {
		files = append(files,
			scaffold{".claude/settings.json", claudeSnippet, 0o644},
			scaffold{".github/workflows/vouch.yml", actionsSnippet, 0o644})
		if st, err := os.Stat(filepath.Join(root, ".git")); err == nil && st.IsDir() {
			files = append(files, scaffold{".git/hooks/pre-commit", preCommitSnippet, 0o755})
		} else {
			fmt.Fprintln(w, "skipped .git/hooks/pre-commit: no .git directory at the root")
		}
	}
	kept := 0
	var unmerged []scaffold
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.path))
		_, err := os.Lstat(p)
		switch {
		case err == nil && !force:
			if hookFile(f.path) {
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
		b.WriteString("\ngit pre-commit hook (.git/hooks/pre-commit, executable):\n\n")
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

// hookFile reports whether init's file at rel installs a hook: keeping an
// existing one means the gate does not run there until merged by hand.
func hookFile(rel string) bool {
	switch rel {
	case ".claude/settings.json", ".github/workflows/vouch.yml", ".git/hooks/pre-commit":
		return true
	}
	return false
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
