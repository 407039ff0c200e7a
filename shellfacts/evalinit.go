package shellfacts

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// initSnippet reports whether raw, the one argument of an eval, is the
// output of a program printing its own shell set-up: eval "$(pyenv init
// -)", eval "$(direnv hook bash)", eval $(ssh-agent -s). The text is not
// known, but it is made by the program from its own code and installation
// alone, not from the project's files, the network or the command line,
// so evaluating it does no more than the program could do itself; and
// running the program, which vouch does not model, is allowed. The
// substitution must be that one plain command: no pipe, no assignment in
// front, no redirection but of errors to /dev/null, every word a plain
// literal; and the program no function or alias the command line
// defines (which would run in its place). Set-ups that read the
// project's files (direnv export, mise activate, which load .envrc and
// mise.toml) are not among them.
func (w *walker) initSnippet(raw string) bool {
	if !strings.Contains(raw, "$(") {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("eval "+raw), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 {
		return false
	}
	parts := call.Args[1].Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	cs, ok := parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	st := cs.Stmts[0]
	if st.Negated || st.Background || st.Coprocess {
		return false
	}
	for _, r := range st.Redirs {
		if r.N == nil || r.N.Value != "2" || r.Op != syntax.RdrOut || r.Word == nil || r.Word.Lit() != "/dev/null" {
			return false
		}
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return false
	}
	var words []string
	for _, a := range ce.Args {
		lit := a.Lit()
		if lit == "" || strings.ContainsAny(lit, "\\*?[~") {
			return false
		}
		words = append(words, lit)
	}
	prog := baseName(words[0])
	if w.funcs[prog] || slices.ContainsFunc(w.facts.Commands, func(c Command) bool { return c.Name == "alias" }) {
		return false
	}
	return initCommand(prog, words[1:])
}

// initCommand reports whether prog with args prints its own shell
// set-up (see initSnippet).
func initCommand(prog string, args []string) bool {
	shell := func(s string) bool {
		switch s {
		case "bash", "zsh", "sh", "ksh", "fish":
			return true
		}
		return false
	}
	switch prog {
	case "pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv", "phpenv":
		if len(args) == 0 {
			return false
		}
		isInit := args[0] == "init" || prog == "pyenv" && args[0] == "virtualenv-init"
		switch {
		case !isInit:
			return false
		case len(args) == 2 && args[1] == "--path" && prog == "pyenv":
			return true
		case len(args) == 2:
			return args[1] == "-"
		case len(args) == 3:
			return args[1] == "-" && shell(args[2])
		}
	case "direnv":
		return len(args) == 2 && args[0] == "hook" && shell(args[1])
	case "ssh-agent":
		return len(args) == 0 || len(args) == 1 && (args[0] == "-s" || args[0] == "-c")
	case "brew":
		return len(args) == 1 && args[0] == "shellenv" || len(args) == 2 && args[0] == "shellenv" && shell(args[1])
	}
	return false
}
