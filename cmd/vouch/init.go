package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/internal/buildinfo"
	"github.com/vouch-dev/vouch/scaffold"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "scaffold vouch.yaml and a rulespec, and show or install the hooks that run the gate",
		Description: `Creates vouch.yaml, a commented analysis/rulespec.yaml and .vouch/.gitignore (vouch's
outputs and caches stay out of git; the agent's .vouch/envelope.yaml is committed) at the
repository root, then prints the snippets for a Claude Code Stop hook, a git pre-commit hook and
a GitHub Actions job. The hooks run this vouch binary by its absolute path.

With --write it installs them: the Stop hook is merged into .claude/settings.json (everything
else in the file is kept; "already installed" when a hook there runs vouch gate), the pre-commit
hook goes to .git/hooks/pre-commit or to pre-commit in the directory git config core.hooksPath
names (when core.hooksPath cannot be read, the hook is NOT INSTALLED and its snippet printed),
and the job to .github/workflows/vouch.yml. The job installs this same vouch (by version or
commit) and runs 'vouch gate --format github' on the committed envelope.

An existing file is never overwritten without --force (.claude/settings.json is merged, never
overwritten); an existing hook file without the gate is kept, and init prints the snippet to
merge into it. A settings file that cannot be merged stops init before it writes anything.

With --guard it sets up 'vouch guard' instead: .vouch/guard.yaml (a starter policy in observe
mode) and the PreToolUse and PostToolUse hooks, running this binary by its absolute path,
merged into .claude/settings.json ("already installed" when hooks there run vouch guard).
With --guard --daemon the hooks run vouch-hook instead, the fast mode: a small client that asks
a warm 'vouch-guard --serve' and falls back to running vouch-guard (both must be installed
beside vouch; docs/guard.md, "Fast mode").`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "write", Usage: "install the hooks and the CI job as files"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite files that already exist"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: the git top level, else the working directory)"},
			&cli.BoolFlag{Name: "guard", Usage: "set up vouch guard instead: a starter policy in observe mode and the PreToolUse/PostToolUse hooks merged into .claude/settings.json"},
			&cli.BoolFlag{Name: "daemon", Usage: "with --guard: the hooks run vouch-hook, which asks a warm vouch-guard --serve (fast mode; Linux)"},
		},
		Action: runInit,
	}
}

func runInit(c *cli.Context) error {
	if c.NArg() > 0 {
		return fail(exitError, fmt.Errorf("init takes no arguments, got %q", c.Args().First()))
	}
	if c.Bool("daemon") && !c.Bool("guard") {
		return fail(exitError, fmt.Errorf("--daemon sets up the guard's fast mode; use it with --guard"))
	}
	if err := scaffold.Init(scaffold.InitOptions{Options: scaffold.Options{Root: c.String("root"), Write: c.Bool("write"),
		Force: c.Bool("force"), InstallRef: buildinfo.InstallRef(version)}, Argv0: os.Args[0], Guard: c.Bool("guard"), Daemon: c.Bool("daemon")}, c.App.Writer); err != nil {
		return fail(exitError, err)
	}
	return nil
}
