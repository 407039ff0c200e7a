package shellfacts

import "mvdan.cc/sh/v3/syntax"

// forkBombPrefix begins the unknown_commands entry for a fork bomb; the
// built-in destructive-fork-bomb rule matches it.
const forkBombPrefix = "fork bomb: a function that starts copies of itself without waiting: "

// forkBomb reports whether a function's body calls the function itself
// in the background or inside a pipeline (`:(){ :|:& };:`, `f(){ f & f;
// }`): each call then starts more copies before any ends, until the
// machine runs out of processes. A function calling itself in turn
// (recursion that waits) is not one.
func forkBomb(name string, body *syntax.Stmt) bool {
	found := false
	var visit func(n syntax.Node, detached bool)
	visit = func(n syntax.Node, detached bool) {
		syntax.Walk(n, func(n syntax.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *syntax.Stmt:
				if n.Background || n.Coprocess {
					if n.Cmd != nil {
						visit(n.Cmd, true)
					}
					return false
				}
			case *syntax.BinaryCmd:
				if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
					visit(n.X, true)
					visit(n.Y, true)
					return false
				}
			case *syntax.CallExpr:
				if detached && len(n.Args) > 0 && n.Args[0].Lit() == name {
					found = true
					return false
				}
			}
			return true
		})
	}
	visit(body, false)
	return found
}
