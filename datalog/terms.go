package datalog

import "github.com/google/mangle/ast"

// The term accessors: the one place that reads Go values out of Mangle
// terms, so every package decodes a fact's arguments the same way. Each
// reports false for a term that is not a constant of the wanted type
// (a variable, or another type), and callers fail closed on it.

// Number is t's value when t is a number constant.
func Number(t ast.BaseTerm) (int64, bool) {
	c, ok := t.(ast.Constant)
	if !ok {
		return 0, false
	}
	n, err := c.NumberValue()
	return n, err == nil
}

// String is t's value when t is a string constant.
func String(t ast.BaseTerm) (string, bool) {
	c, ok := t.(ast.Constant)
	if !ok {
		return "", false
	}
	s, err := c.StringValue()
	return s, err == nil
}

// Name is t's value, with its leading "/", when t is a name constant.
func Name(t ast.BaseTerm) (string, bool) {
	c, ok := t.(ast.Constant)
	if !ok {
		return "", false
	}
	s, err := c.NameValue()
	return s, err == nil
}
