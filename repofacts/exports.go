package repofacts

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// exportDiff fills GoExportsRemoved: exported functions, types, methods,
// variables and constants that a changed (or deleted, or renamed) Go file
// declared at base, in a package others may import, and that no Go file of
// that package's directory declares now. Test files, package main,
// internal/ and testdata/ directories are not API.
func (d *Doc) exportDiff(ctx context.Context, g *git, root string, s *sources) error {
	d.GoExportsRemoved = []string{}
	candidates := map[string]map[string]bool{} // directory -> names
	pkgName := map[string]string{}
	touched := map[string]bool{} // working-tree files already parsed
	for _, c := range s.cs {
		op := c.oldPath()
		if c.Status == Added || !isAPIFile(op) {
			continue
		}
		data, ok := s.old[op]
		if !ok || data == nil {
			continue
		}
		name, before := goExports(op, data)
		if name == "" || name == "main" || strings.HasSuffix(name, "_test") {
			continue
		}
		var after map[string]bool
		if c.Status != Deleted && dirOf(c.Path) == dirOf(op) {
			if cur, ok := s.cur[c.Path]; ok && cur != nil {
				_, after = goExports(c.Path, cur)
				touched[c.Path] = true
			}
		}
		dir := dirOf(op)
		for n := range before {
			if !after[n] {
				if candidates[dir] == nil {
					candidates[dir] = map[string]bool{}
				}
				candidates[dir][n] = true
			}
		}
		pkgName[dir] = name
	}
	for dir, names := range candidates {
		// An identifier that moved to another file of the package is
		// still there.
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		for _, e := range entries {
			p := path.Join(dir, e.Name())
			if dir == "." {
				p = e.Name()
			}
			if !e.Type().IsRegular() || !isAPIFile(p) {
				continue
			}
			var data []byte
			if touched[p] {
				data = s.cur[p]
			} else if data, err = os.ReadFile(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				continue
			}
			if len(data) > MaxFileBytes {
				continue
			}
			pn, now := goExports(p, data)
			if pn != pkgName[dir] {
				continue
			}
			for n := range now {
				delete(names, n)
			}
		}
		prefix := dir
		if dir == "." {
			prefix = pkgName[dir]
		}
		for n := range names {
			d.GoExportsRemoved = append(d.GoExportsRemoved, prefix+"."+n)
		}
	}
	slices.Sort(d.GoExportsRemoved)
	return ctx.Err()
}

// isAPIFile reports whether a Go file can hold exported API.
func isAPIFile(p string) bool {
	if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
		return false
	}
	for _, seg := range strings.Split(dirOf(p), "/") {
		if seg == "internal" || seg == "testdata" || seg == "vendor" {
			return false
		}
	}
	return true
}

// goExports returns the package name and the exported identifiers a Go
// file declares: Name for functions, types, variables and constants,
// Type.Method for methods of exported types. A file that does not parse
// declares what the parser recovered.
func goExports(file string, src []byte) (string, map[string]bool) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if f == nil || f.Name == nil {
		return "", nil
	}
	out := map[string]bool{}
	for _, decl := range f.Decls {
		switch dd := decl.(type) {
		case *ast.FuncDecl:
			if !dd.Name.IsExported() {
				continue
			}
			if dd.Recv == nil || len(dd.Recv.List) == 0 {
				out[dd.Name.Name] = true
				continue
			}
			if t := recvType(dd.Recv.List[0].Type); t != "" && ast.IsExported(t) {
				out[t+"."+dd.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, spec := range dd.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					if sp.Name.IsExported() {
						out[sp.Name.Name] = true
					}
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if n.IsExported() {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	return f.Name.Name, out
}

// recvType is the name of a method receiver's base type.
func recvType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
