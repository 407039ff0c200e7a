package scaffold

import (
	"fmt"
	"strings"
)

// HookTimeout is the Claude Code hook timeout init writes, in seconds. A
// hook that times out does not block, so the gate's own deadline must end
// first: keep it above the gate's default deadline.
const HookTimeout = 120

// ModulePath is the command go install builds.
const ModulePath = "github.com/vouch-dev/vouch/cmd/vouch"

const configYAML = `# vouch.yaml: repository settings for vouch (docs/config.md).
# Paths are relative to this file's directory, the repository root.
rulespec: analysis/rulespec.yaml
# The agent's envelope: commit it with the work, CI gates it.
envelope: .vouch/envelope.yaml
# Artifacts and the receipt; .vouch/.gitignore keeps them out of git.
out: .vouch
# strict: true          # fail predicates that pass only vacuously
# limits:
#   max_envelope_bytes: 67108864
#   max_depth: 256
`

const rulespecClaims = `# analysis/rulespec.yaml: what an agent's envelope must show before its work counts
# as done. Rules and their exact meaning: docs/rulespec.md. Gate: vouch gate.
#
# The agent writes .vouch/envelope.yaml, for example:
#   facts:
#     summary: Added CSV import with delimiter detection
#     files_changed: [src/import/csv.go, src/import/csv_test.go:1-40]
#     tests_added: [TestImportCSV]
#     api_changes: {breaking: false}
claims:
  - name: summary
    selector: summary
  - name: files_changed
    selector: files_changed
  - name: tests_added
    selector: tests_added
`

const rulespecPredicates = `
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

// gitignore keeps vouch's outputs and caches out of git while the
// envelope, which CI gates, stays in: the pre-commit hook rewrites the
// artifacts on every commit and must leave git status clean.
const gitignore = `# vouch: the compiled program, the trace, the receipt and caches are outputs;
# only the agent's envelope is committed (CI runs the gate on it).
*
!.gitignore
!envelope.yaml
`

// shellQuote quotes a path for sh when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// stopCommand is the Stop hook: the gate in Claude Code's protocol.
func stopCommand(bin string) string { return shellQuote(bin) + " gate --format claude-hook" }

func preCommit(bin string) string {
	return `#!/bin/sh
# vouch: refuse the commit while the agent's envelope is missing or failing.
# The gate's outputs go to .vouch/, which .vouch/.gitignore ignores, so the
# hook leaves git status as it found it.
exec ` + shellQuote(bin) + ` gate --format text
`
}

// workflow is the GitHub Actions job. It installs the vouch that wrote it
// (ref: a version or a commit; never @latest, the module has no tags) and
// re-runs the gate on the committed envelope, so it needs no receipt.
func workflow(ref string) string {
	return fmt.Sprintf(`name: vouch
on: [push, pull_request]
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          # The whole history: repository facts compare the work with its
          # merge-base with origin's default branch, and a stamped
          # envelope names its base commit; a depth-1 clone has neither.
          fetch-depth: 0
      - uses: actions/setup-go@v5
        with:
          go-version: "1.26"
      - name: Install vouch
        run: go install %s@%s
      # The gate re-decides the committed envelope (.vouch/envelope.yaml)
      # against the rulespec, with an annotation on each failing predicate.
      - name: Gate
        run: vouch gate --format github
`, ModulePath, ref)
}

// repoClaims and repoPredicates are the checks of claims against
// the work itself (repository facts). They need git, so init writes them
// only into a git work tree: outside one every gate would stop with exit 2.
const repoClaims = `  # from: repo selects what git says changed between the base (vouch.yaml's base:,
  # else the merge-base with origin's default branch, else HEAD if there is no
  # remote) and the working tree, not the envelope (docs/repository-facts.md).
  - name: breaking
    selector: api_changes.breaking
  - name: changed
    from: repo
    selector: changed
  - name: removed_exports
    from: repo
    selector: go_exports_removed
  - name: new_deps
    from: repo
    selector: dependencies_added

`

const repoPredicates = `
  # Claims checked against the work itself, in observe mode until you trust
  # them. Every file git sees changed must be listed in files_changed (list
  # plain paths for this one: src/a.go:1-40 is not the path src/a.go; a
  # renamed file by its old path and its new one).
  - id: changes-declared
    claim: changed
    rule: subset_of
    value_from: files_changed
    mode: observe
    notes: List every file you changed in files_changed.

  # No exported Go identifier removed unless the envelope says
  # api_changes.breaking: true. The condition holds when breaking is
  # absent too, so leaving the claim out cannot skip the check.
  - id: no-removed-exports
    claim: removed_exports
    rule: max_length
    value: 0
    when: {claim: breaking, rule: none_of, value: [true]}
    mode: observe
    notes: Removing an exported Go identifier breaks callers; set api_changes.breaking to true if you mean it.

  - id: no-new-deps
    claim: new_deps
    rule: max_length
    value: 0
    mode: observe
    notes: Add no new dependencies in this task.
`

// rulespecYAML is the scaffolded rulespec, with the repository-fact
// checks when withRepo is set.
func rulespecYAML(withRepo bool) string {
	if !withRepo {
		return rulespecClaims + rulespecPredicates
	}
	return rulespecClaims + repoClaims + rulespecPredicates + repoPredicates
}
