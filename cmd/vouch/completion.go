package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/internal/cliapp"
)

// completionCommand is `vouch completion SHELL`.
func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script: bash, zsh or fish",
		ArgsUsage: "SHELL",
		Description: `Prints the completion script for SHELL. Load it in the current shell, or install it:

  source <(vouch completion bash)      # bash; or save it in ~/.local/share/bash-completion/completions/vouch
  source <(vouch completion zsh)       # zsh (after compinit)
  vouch completion fish > ~/.config/fish/completions/vouch.fish

The bash and zsh scripts ask vouch for commands and flags as you type; the fish script lists them.`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(exitError, fmt.Errorf("completion needs one SHELL argument: bash, zsh or fish"))
			}
			script, err := cliapp.CompletionScript(c.App, c.Args().First())
			if err != nil {
				return fail(exitError, err)
			}
			if _, err := io.WriteString(c.App.Writer, script); err != nil {
				return fail(exitError, fmt.Errorf("write the completion script: %w", err))
			}
			return nil
		},
	}
}
