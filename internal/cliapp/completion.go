package cliapp

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/suggest"
)

// CompleteFlag is the hidden flag urfave/cli answers with the words that
// may come next; the bash and zsh scripts call the program with it as
// the last argument.
const CompleteFlag = "--generate-bash-completion"

// Shells are the shells CompletionScript writes for.
func Shells() []string { return []string{"bash", "fish", "zsh"} }

// The bash and zsh scripts ask the program itself for the next words, so
// they stay right as commands and flags change. PROG is the program's name.
const bashCompletion = `# PROG completion for bash: source <(PROG completion bash)
_PROG_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local -a prev=("${COMP_WORDS[@]:0:COMP_CWORD}")
  local words
  if [[ "$cur" == -* ]]; then
    words="$("${prev[@]}" "$cur" ` + CompleteFlag + ` 2>/dev/null)"
  else
    words="$("${prev[@]}" ` + CompleteFlag + ` 2>/dev/null)"
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _PROG_complete PROG
`

const zshCompletion = `#compdef PROG
# PROG completion for zsh: source <(PROG completion zsh)
_PROG() {
  local cur="${words[CURRENT]}"
  local -a prev opts
  prev=("${(@)words[1,CURRENT-1]}")
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$("${prev[@]}" "$cur" ` + CompleteFlag + ` 2>/dev/null)}")
  else
    opts=("${(@f)$("${prev[@]}" ` + CompleteFlag + ` 2>/dev/null)}")
  fi
  if [[ -n "${opts[1]}" ]]; then
    compadd -- "${opts[@]}"
  else
    _files
  fi
}
compdef _PROG PROG
`

// CompletionScript is app's completion script for shell: bash, zsh or
// fish (a fixed list of its commands and flags, as urfave/cli writes it).
func CompletionScript(app *cli.App, shell string) (string, error) {
	switch shell {
	case "bash":
		return strings.ReplaceAll(bashCompletion, "PROG", app.Name), nil
	case "zsh":
		return strings.ReplaceAll(zshCompletion, "PROG", app.Name), nil
	case "fish":
		return app.ToFishCompletion()
	}
	return "", fmt.Errorf("unknown shell %q%s; use bash, zsh or fish", shell, suggest.Hint(shell, Shells()))
}
