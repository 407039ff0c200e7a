package compile

import (
	"fmt"

	"github.com/google/mangle/ast"
)

func str(s string) ast.Constant { return ast.String(s) }
func num(n int64) ast.Constant  { return ast.Number(n) }

func name(n string) ast.Constant {
	c, err := ast.Name(n)
	if err != nil {
		// Names come only from this package's own constants.
		panic(fmt.Sprintf("compile: bad Mangle name %q: %v", n, err))
	}
	return c
}

func atom(pred string, args ...ast.BaseTerm) ast.Atom {
	return ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args}
}
