package shellfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// scanIFS looks, before a script is walked, for anything in it that may
// give IFS another value: an assignment (IFS=, or IFS=, cmd), a
// declaration, read, printf -v, unset, a for loop over it, or the name
// in a string that eval or a function may act on. bash splits an
// unquoted expansion at the characters of IFS, so after IFS=, the
// static value "rm,-rf,/x" of $x runs rm. The whole script is scanned,
// not the part after the assignment, because a loop body or a function
// walked once runs again after it.
//
// The one use that is left out is IFS assigned in front of read,
// mapfile or readarray (while IFS= read -r line): it holds only while
// that builtin splits its input, whose words Parse does not know anyway.
//
// Modelling IFS exactly was not chosen: a script that changes it is rare
// in an agent's commands, and splitting every unquoted expansion of a
// known value then (see walker.splits) costs only precision.
func (w *walker) scanIFS(file *syntax.File, src string) {
	if w.ifsChanged {
		return
	}
	total := strings.Count(src, "IFS")
	if total == 0 {
		return
	}
	benign := 0
	syntax.Walk(file, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 || len(ce.Assigns) == 0 {
			return true
		}
		switch ce.Args[0].Lit() {
		case "read", "mapfile", "readarray":
		default:
			return true
		}
		for _, a := range ce.Assigns {
			if a.Name != nil && a.Name.Value == "IFS" {
				benign += strings.Count(w.textOf(src, a), "IFS")
			}
		}
		return true
	})
	if total > benign {
		w.ifsChanged = true
		w.incomplete("the command line may change IFS, so unquoted expansions split at characters Parse does not follow")
	}
}

// textOf is the source text of n within src.
func (w *walker) textOf(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return src[start:end]
}

// splits reports whether bash splits the value s of an unquoted
// expansion into several words, or globs it: at blanks, or at any
// character once IFS may have been changed (see scanIFS). Such a value
// is no one static word.
func (w *walker) splits(s string) bool {
	if w.ifsChanged {
		return s != ""
	}
	return strings.ContainsAny(s, " \t\n*?[")
}
