package shellfacts

import "mvdan.cc/sh/v3/syntax"

// forkBombPrefix begins the unknown_commands entry for a fork bomb; the
// built-in destructive-fork-bomb rule matches it.
const forkBombPrefix = "fork bomb: a function that starts copies of itself without waiting: "

// forkBomb reports whether a function's body always calls the function
// itself in the background or as a stage of a pipeline (`:(){ :|:& };:`,
// `f(){ f & f; }`): once called, each call starts more copies before any
// ends, until the machine runs out of processes. Only calls the body
// makes whatever happens count: a self-call under if, a loop, case, or
// after && or || is a recursion with an end (walking a tree, `for d in
// */; do f "$d" & done`), and one that waits in turn is no bomb at all.
func forkBomb(name string, body *syntax.Stmt) bool {
	found := false
	var stmt func(s *syntax.Stmt, detached bool)
	var command func(c syntax.Command, detached bool)
	stmt = func(s *syntax.Stmt, detached bool) {
		if s == nil || found {
			return
		}
		command(s.Cmd, detached || s.Background || s.Coprocess)
	}
	command = func(c syntax.Command, detached bool) {
		switch c := c.(type) {
		case *syntax.CallExpr:
			if detached && len(c.Args) > 0 && c.Args[0].Lit() == name {
				found = true
			}
		case *syntax.BinaryCmd:
			switch c.Op {
			case syntax.Pipe, syntax.PipeAll:
				stmt(c.X, true)
				stmt(c.Y, true)
			default:
				// a && b, a || b: a always runs.
				stmt(c.X, detached)
			}
		case *syntax.Block:
			for _, s := range c.Stmts {
				stmt(s, detached)
			}
		case *syntax.Subshell:
			for _, s := range c.Stmts {
				stmt(s, detached)
			}
		}
	}
	stmt(body, false)
	return found
}
