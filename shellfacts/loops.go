package shellfacts

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxLoopWalks bounds how many times, in one Parse, loop bodies are
// walked once per value of their variable (see loopValues).
const maxLoopWalks = 256

// forLoop walks a for (or select) loop. Over a list of static words the
// body is walked once per word with the variable set to it, as bash runs
// it: `for f in ~/.ssh/id_rsa; do cat $f; done` reads the key. A list
// holding anything only known at run time (a substitution, a glob, "$@")
// leaves the variable unknown in the body, as before.
func (w *walker) forLoop(cmd *syntax.ForClause, c ctx) {
	it, ok := cmd.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil {
		if cmd.Loop != nil {
			w.substs(cmd.Loop)
		}
		w.cond++
		w.forgetAssigned(cmd.Do)
		w.stmts(cmd.Do, c)
		w.cond--
		return
	}
	var vals []string
	known := it.InPos.IsValid()
	for _, word := range it.Items {
		for _, f := range w.fields(word) {
			if !f.known() {
				known = false
				continue
			}
			vals = append(vals, f.s)
		}
	}
	w.cond++
	w.forgetAssigned(cmd.Do)
	if !known || !w.loopValues(it.Name.Value, vals, cmd.Do, c, "for "+it.Name.Value+" in ...") {
		w.setVar(it.Name.Value, "", false)
		w.stmts(cmd.Do, c)
	}
	w.cond--
	// After the loop the variable holds the last word, or another when
	// the body broke out early.
	w.setVar(it.Name.Value, "", false)
}

// whileLoop walks a while or until loop. `while read f; do ...; done`
// fed static text (a here-string, a here-document, or an echo or printf
// piped in) walks the body once per line with f set to it, as for a for
// loop over the lines.
func (w *walker) whileLoop(cmd *syntax.WhileClause, c ctx) {
	w.cond++
	defer func() { w.cond-- }()
	w.forgetAssigned(cmd.Cond)
	w.forgetAssigned(cmd.Do)
	w.stmts(cmd.Cond, c)
	if !cmd.Until && c.pipeKnown {
		if name, vals, ok := w.readLines(cmd.Cond, c.pipeText); ok {
			if w.loopValues(name, vals, cmd.Do, c, "while read "+name) {
				w.setVar(name, "", false)
				return
			}
		}
	}
	w.stmts(cmd.Do, c)
}

// readLines returns the values `read NAME` (the loop's whole condition)
// gives NAME, line by line, when it reads text: read strips blanks at
// both ends (not with IFS= in front of it) and, without -r, takes
// backslashes as escapes, which are not followed (ok is false then, as
// for any other option or several names).
func (w *walker) readLines(cond []*syntax.Stmt, text string) (string, []string, bool) {
	if len(cond) != 1 || cond[0].Negated || cond[0].Background || len(cond[0].Redirs) > 0 {
		return "", nil, false
	}
	ce, ok := cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 || ce.Args[0].Lit() != "read" {
		return "", nil, false
	}
	trim := !w.ifsChanged
	for _, a := range ce.Assigns {
		if a.Name == nil || a.Name.Value != "IFS" || a.Index != nil || a.Array != nil || a.Append {
			return "", nil, false
		}
		if a.Value != nil && a.Value.Lit() != "" {
			return "", nil, false // read splits at another IFS
		}
		trim = false // IFS= read: the line as it is
	}
	if w.ifsChanged && len(ce.Assigns) == 0 {
		return "", nil, false
	}
	raw, name := false, ""
	for _, arg := range ce.Args[1:] {
		s := arg.Lit()
		switch {
		case s == "":
			return "", nil, false
		case strings.HasPrefix(s, "-"):
			if strings.Trim(s[1:], "rse") != "" {
				return "", nil, false
			}
			raw = raw || strings.Contains(s, "r")
		case name != "" || !isName(s):
			return "", nil, false
		default:
			name = s
		}
	}
	if name == "" {
		return "", nil, false
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	seen := map[string]bool{}
	var vals []string
	for _, l := range lines {
		if !raw && strings.Contains(l, `\`) {
			return "", nil, false
		}
		if trim {
			l = strings.Trim(l, " \t")
		}
		if !seen[l] {
			seen[l] = true
			vals = append(vals, l)
		}
	}
	return name, vals, true
}

// loopValues walks body once per value in vals with the variable name
// set to it, and reports whether it did. Past maxLoopWalks the body is
// not walked per value: that is code that cannot be known (a policy
// asks), not a variable only known at run time, whose reads would pass
// unseen. The caller walks the body once more in that case.
func (w *walker) loopValues(name string, vals []string, body []*syntax.Stmt, c ctx, what string) bool {
	if w.noVars || len(vals) == 0 {
		return false
	}
	vals = unique(vals)
	if w.loopWalks+len(vals) > maxLoopWalks {
		w.incomplete(fmt.Sprintf("loops over more than %d words", maxLoopWalks))
		w.unknownCode(fmt.Sprintf("%s: a loop over %d words, past the %d loop bodies analysed per word", what, len(vals), maxLoopWalks))
		return false
	}
	w.loopWalks += len(vals)
	for _, v := range vals {
		// Set directly: within the body the value is certain, though
		// the loop as a whole runs conditionally (w.cond).
		w.vars[name] = v
		w.stmts(body, c)
	}
	return true
}

// unique returns vals without repeats, in order.
func unique(vals []string) []string {
	seen := make(map[string]bool, len(vals))
	out := vals[:0:0]
	for _, v := range vals {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// forgetAssigned forgets, before a loop's code is walked, the variables
// it may assign: it runs again after such an assignment, so a value from
// before the loop does not hold in a later iteration (D=build; while
// ...; do rm -rf $D; D=/; done). A name written in the code other than as
// an expansion ($D) counts, which over-forgets (echo D) on the safe side.
func (w *walker) forgetAssigned(list []*syntax.Stmt) {
	if len(w.vars) == 0 {
		return
	}
	params := map[*syntax.Lit]bool{}
	for _, s := range list {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.ParamExp:
				params[n.Param] = true
			case *syntax.Lit:
				if params[n] {
					return true
				}
				for name := range w.vars {
					if namesVar(n.Value, name) {
						w.setVar(name, "", false)
					}
				}
			}
			return true
		})
	}
}

// namesVar reports whether the literal text lit may name the variable
// name as something assigned: the name itself (read NAME, for NAME in,
// unset NAME), NAME=..., NAME+=..., NAME[...]=... or printf's -vNAME.
func namesVar(lit, name string) bool {
	lit = strings.TrimPrefix(lit, "-v")
	rest, ok := strings.CutPrefix(lit, name)
	if !ok {
		return false
	}
	return rest == "" || strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "+=") || strings.HasPrefix(rest, "[")
}

// xargsInput returns the arguments a program run by xargs gets when its
// input is static text (echo .env | xargs cat, xargs cat <<< .env): the
// words of the text after args, or, with -I (repl), args with repl
// replaced by each line, one argument list per line. nil means the input
// is not known: another program's output, a file, or text with quotes
// or backslashes, which xargs reads as its own quoting.
func (w *walker) xargsInput(args []field, repl string, redirs []*syntax.Redirect, c ctx) [][]field {
	text, known := c.pipeText, c.pipeKnown
	if r := lastStdin(redirs); r != nil {
		text, known, _ = w.stdinText([]*syntax.Redirect{r})
	}
	if !known || strings.ContainsAny(text, "'\"\\") {
		return nil
	}
	if repl == "" {
		out := slices.Clone(args)
		for _, item := range strings.Fields(text) {
			out = append(out, field{s: item, static: true, raw: item})
		}
		return [][]field{out}
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimLeft(l, " \t"); l != "" {
			lines = append(lines, l)
		}
	}
	lines = unique(lines)
	if len(lines) == 0 || w.loopWalks+len(lines) > maxLoopWalks {
		return nil
	}
	w.loopWalks += len(lines)
	var sets [][]field
	for _, l := range lines {
		out := slices.Clone(args)
		for i, f := range out {
			if !f.known() {
				return nil
			}
			if strings.Contains(f.s, repl) {
				s := strings.ReplaceAll(f.s, repl, l)
				out[i] = field{s: s, static: true, raw: f.raw}
			}
		}
		sets = append(sets, out)
	}
	return sets
}
