package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/suggest"
)

// completeFlag is the hidden flag urfave/cli answers with the words that
// may come next; the bash and zsh scripts call vouch with it as the last
// argument.
const completeFlag = "--generate-bash-completion"

// The bash and zsh scripts ask vouch itself for the next words, so they
// stay right as commands and flags change.
const bashCompletion = `# vouch completion for bash: source <(vouch completion bash)
_vouch_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local -a prev=("${COMP_WORDS[@]:0:COMP_CWORD}")
  local words
  if [[ "$cur" == -* ]]; then
    words="$("${prev[@]}" "$cur" ` + completeFlag + ` 2>/dev/null)"
  else
    words="$("${prev[@]}" ` + completeFlag + ` 2>/dev/null)"
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _vouch_complete vouch
`

const zshCompletion = `#compdef vouch
# vouch completion for zsh: source <(vouch completion zsh)
_vouch() {
  local cur="${words[CURRENT]}"
  local -a prev opts
  prev=("${(@)words[1,CURRENT-1]}")
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$("${prev[@]}" "$cur" ` + completeFlag + ` 2>/dev/null)}")
  else
    opts=("${(@f)$("${prev[@]}" ` + completeFlag + ` 2>/dev/null)}")
  fi
  if [[ -n "${opts[1]}" ]]; then
    compadd -- "${opts[@]}"
  else
    _files
  fi
}
compdef _vouch vouch
`

var shells = []string{"bash", "fish", "zsh"}

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
			w := c.App.Writer
			var err error
			switch sh := c.Args().First(); sh {
			case "bash":
				_, err = io.WriteString(w, bashCompletion)
			case "zsh":
				_, err = io.WriteString(w, zshCompletion)
			case "fish":
				var script string
				if script, err = c.App.ToFishCompletion(); err == nil {
					_, err = io.WriteString(w, script)
				}
			default:
				return fail(exitError, fmt.Errorf("unknown shell %q%s; use bash, zsh or fish", sh, suggest.Hint(sh, shells)))
			}
			if err != nil {
				return fail(exitError, fmt.Errorf("write the completion script: %w", err))
			}
			return nil
		},
	}
}
