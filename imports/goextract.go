package imports

import (
	"bytes"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
)

// extractGo returns the import specs of one Go source file. It has the same
// shape as the other languages' extractors; extractGoFile also reports the
// build constraint.
func extractGo(src []byte) ([]Site, []SyntaxError) {
	sites, _, errs := extractGoFile(src)
	return sites, errs
}

// extractGoFile parses only the package clause and import declarations, which
// is all an import graph needs and keeps large files cheap. Build tags are
// deliberately ignored so that imports behind constraints (tests, platforms,
// tools) are still seen; the constraint is returned so rules can reason
// about it.
func extractGoFile(src []byte) (sites []Site, buildConstraint string, errs []SyntaxError) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		if list, ok := err.(scanner.ErrorList); ok {
			for _, e := range list {
				errs = append(errs, SyntaxError{Line: e.Pos.Line, Message: e.Msg})
			}
		} else {
			errs = append(errs, SyntaxError{Message: err.Error()})
		}
	}
	buildConstraint = goConstraint(src)
	if f == nil {
		return nil, buildConstraint, errs
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, spec := range gd.Specs {
			is, ok := spec.(*ast.ImportSpec)
			if !ok || is.Path == nil {
				continue
			}
			// PositionFor(..., false) ignores //line directives: generated
			// files (cgo, yacc) remap lines, but vouch reports where the
			// import physically is.
			pos := fset.PositionFor(is.Pos(), false)
			path, uerr := strconv.Unquote(is.Path.Value)
			if uerr != nil {
				// The parser already reported the malformed literal as a
				// syntax error; there is no path to record.
				continue
			}
			s := Site{Line: pos.Line, Column: pos.Column, Kind: KindImport, Spec: path}
			if is.Name != nil {
				s.Alias = is.Name.Name
			}
			sites = append(sites, s)
		}
	}
	return sites, buildConstraint, errs
}

// goConstraint returns the expression of the file's //go:build line, or the
// // +build lines converted to that syntax for files older than Go 1.17.
// Only the header (before the package clause) may carry constraints, which
// is exactly the region go/build/constraint expects callers to scan.
func goConstraint(src []byte) string {
	var plus []constraint.Expr
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if bytes.HasPrefix(line, []byte("/*")) {
			// A block comment in the header ends constraint scanning in
			// go/build too; stopping here keeps us in agreement.
			break
		}
		if !bytes.HasPrefix(line, []byte("//")) {
			break
		}
		text := string(line)
		if constraint.IsGoBuild(text) {
			if x, err := constraint.Parse(text); err == nil {
				return x.String()
			}
			return string(bytes.TrimSpace(line[len("//go:build"):]))
		}
		if constraint.IsPlusBuild(text) {
			if x, err := constraint.Parse(text); err == nil {
				plus = append(plus, x)
			}
		}
	}
	if len(plus) == 0 {
		return ""
	}
	x := plus[0]
	for _, y := range plus[1:] {
		x = &constraint.AndExpr{X: x, Y: y}
	}
	return x.String()
}
