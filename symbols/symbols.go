// Package symbols counts the top-level definitions of a source file
// (functions, classes, types), the unit Beadloom's `check` (max_symbols)
// and `module_coverage` rules count. It reads what Beadloom's indexer
// reads: only statements at the top of the file, never nested ones.
//
// Go files are parsed with go/parser (a file with a syntax error counts
// the declarations the parser recovered). Python, JavaScript/TypeScript and
// Rust files are read line by line: a definition counts when it starts at
// column 0 (the way formatted code is written), outside multi-line strings
// and comments.
package symbols

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"sync"
)

// Count returns how many top-level symbols the file defines, judged by its
// extension; files of other languages have none.
func Count(name string, src []byte) int {
	switch path.Ext(name) {
	case ".go":
		return goCount(src)
	case ".py", ".pyi":
		return pyCount(src)
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return lineCount(src, jsDefs(), jsState)
	case ".rs":
		return lineCount(src, rustDefs(), cState)
	}
	return 0
}

// goCount counts function and method declarations and type declarations
// (a parenthesised group is one, as Beadloom's grammar sees it). A file
// that does not parse counts what parsed before the error.
func goCount(src []byte) int {
	f, _ := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if f == nil {
		return 0
	}
	n := 0
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			n++
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				n++
			}
		}
	}
	return n
}

var pyDef = lazyRegexp(`^(async[ \t]+def|def|class)[ \t]`)

// pyCount counts `def`, `async def` and `class` statements at column 0,
// outside triple-quoted strings.
func pyCount(src []byte) int {
	n := 0
	var quote string // the triple quote a string line is inside, or ""
	for _, line := range bytes.Split(src, []byte("\n")) {
		if quote == "" && pyDef().Match(line) {
			n++
		}
		quote = pyTriple(line, quote)
	}
	return n
}

// pyTriple follows triple-quoted strings across a line: it returns the
// quote still open at its end.
func pyTriple(line []byte, open string) string {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if open == "" && c == '#' {
			return ""
		}
		if i+2 < len(line) && (c == '"' || c == '\'') && line[i+1] == c && line[i+2] == c {
			t := string(line[i : i+3])
			switch open {
			case "":
				open = t
			case t:
				open = ""
			}
			i += 2
			continue
		}
		if open == "" && (c == '"' || c == '\'') {
			// A one-line string: skip to its end.
			for i++; i < len(line) && line[i] != c; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		}
	}
	return open
}

// jsDefs are the top-level statements Beadloom's TypeScript grammar counts:
// function, class, interface and type-alias declarations, exported or not,
// exported variable bindings (one per statement here) and a default
// export.
var jsDefs = lazyRegexp(`^(export[ \t]+(default[ \t]+)?)?(declare[ \t]+)?(async[ \t]+)?(function\b|abstract[ \t]+class\b|class\b|interface\b|type[ \t]+[A-Za-z_$][\w$]*[ \t]*(<|=))|^export[ \t]+(const|let|var)[ \t]|^export[ \t]+default[ \t]`)

// rustDefs are Rust's top-level fn, struct, enum and trait items, with
// their visibility and qualifiers.
var rustDefs = lazyRegexp(`^(pub(\([^)]*\))?[ \t]+)?((const|async|unsafe|default)[ \t]+|extern[ \t]+"[^"]*"[ \t]+)*(fn|struct|enum|trait)\b`)

// lineCount counts lines starting (at column 0) with a definition, outside
// block comments and the multi-line strings state follows.
func lineCount(src []byte, defs *regexp.Regexp, state func([]byte, byte) byte) int {
	n := 0
	var open byte // what the previous lines left open: '*' comment, '`' template
	for _, line := range bytes.Split(src, []byte("\n")) {
		if open == 0 && defs.Match(line) {
			n++
		}
		open = state(line, open)
	}
	return n
}

// jsState follows block comments and template strings across a line.
func jsState(line []byte, open byte) byte {
	return scanState(line, open, true)
}

// cState follows block comments across a line.
func cState(line []byte, open byte) byte {
	return scanState(line, open, false)
}

func scanState(line []byte, open byte, templates bool) byte {
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch open {
		case '*':
			if c == '*' && i+1 < len(line) && line[i+1] == '/' {
				open = 0
				i++
			}
			continue
		case '`':
			if c == '\\' {
				i++
			} else if c == '`' {
				open = 0
			}
			continue
		}
		switch {
		case c == '/' && i+1 < len(line) && line[i+1] == '/':
			return 0
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			open = '*'
			i++
		case c == '`' && templates:
			open = '`'
		case c == '"' || c == '\'':
			for i++; i < len(line) && line[i] != c; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		}
	}
	return open
}

// lazyRegexp compiles expr on first use: every vouch process links this
// package, and only lint runs with Beadloom rules count symbols, so the
// hook and verify paths should not pay for compiling at start-up.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
