package repofacts

import (
	"bytes"
	"context"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
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
// internal/ and testdata/ directories are not API. Only files some build
// compiles count, on either side (builds): an identifier moved into a
// //go:build ignore file, a _.go file or one for no platform is removed.
// Only files of the work count now: one on disk that a .gitignore hides
// is not in a checkout of the work.
func (d *Doc) exportDiff(ctx context.Context, g *git, root string, s *sources) error {
	d.GoExportsRemoved = []string{}
	candidates := map[string]map[string]bool{} // directory -> names
	pkgName := map[string]string{}
	for _, c := range s.cs {
		op := c.oldPath()
		if c.Status == Added || !isAPIFile(op) {
			continue
		}
		data, ok := s.old[op]
		if !ok || data == nil || !builds(op, data) {
			continue
		}
		name, before := goExports(op, data)
		if name == "" || name == "main" || strings.HasSuffix(name, "_test") {
			continue
		}
		var after map[string]bool
		if c.Status != Deleted && dirOf(c.Path) == dirOf(op) {
			if cur, ok := s.cur[c.Path]; ok && cur != nil && builds(c.Path, cur) {
				if pn, now := goExports(c.Path, cur); pn == name {
					after = now
				}
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
	if len(candidates) == 0 {
		return ctx.Err()
	}
	files, err := s.workGoFiles(ctx, g)
	if err != nil {
		return err
	}
	for dir, names := range candidates {
		// An identifier that moved to another file of the package is
		// still there.
		for _, p := range files[dir] {
			if !isAPIFile(p) {
				continue
			}
			data, ok := s.cur[p]
			if !ok || data == nil {
				full := filepath.Join(root, filepath.FromSlash(p))
				fi, err := os.Lstat(full)
				if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFileBytes {
					continue
				}
				if data, err = os.ReadFile(full); err != nil {
					continue
				}
			}
			if !builds(p, data) {
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

// workGoFiles lists the work's .go files by directory: the base's that
// the work kept, and the changed ones that are regular files now.
func (s *sources) workGoFiles(ctx context.Context, g *git) (map[string][]string, error) {
	base, err := s.baseListing(ctx, g)
	if err != nil {
		return nil, err
	}
	changed := map[string]bool{}
	out := map[string][]string{}
	for _, c := range s.cs {
		changed[c.Path], changed[c.oldPath()] = true, true
		if c.Status == Deleted || !strings.HasSuffix(c.Path, ".go") {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(c.Path))); err == nil && fi.Mode().IsRegular() {
			out[dirOf(c.Path)] = append(out[dirOf(c.Path)], c.Path)
		}
	}
	for p, e := range base {
		if !changed[p] && strings.HasSuffix(p, ".go") && e.typ == "blob" && e.mode != "120000" {
			out[dirOf(p)] = append(out[dirOf(p)], p)
		}
	}
	return out, nil
}

// buildPlatforms are the GOOS/GOARCH pairs `go tool dist list` names
// (go1.26).
var buildPlatforms = [][2]string{
	{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "arm64"}, {"windows", "amd64"},
	{"aix", "ppc64"}, {"android", "386"}, {"android", "amd64"}, {"android", "arm"}, {"android", "arm64"},
	{"darwin", "amd64"}, {"dragonfly", "amd64"}, {"freebsd", "386"}, {"freebsd", "amd64"}, {"freebsd", "arm"},
	{"freebsd", "arm64"}, {"illumos", "amd64"}, {"ios", "amd64"}, {"ios", "arm64"}, {"js", "wasm"},
	{"linux", "386"}, {"linux", "arm"}, {"linux", "loong64"}, {"linux", "mips"}, {"linux", "mips64"},
	{"linux", "mips64le"}, {"linux", "mipsle"}, {"linux", "ppc64"}, {"linux", "ppc64le"}, {"linux", "riscv64"},
	{"linux", "s390x"}, {"netbsd", "386"}, {"netbsd", "amd64"}, {"netbsd", "arm"}, {"netbsd", "arm64"},
	{"openbsd", "386"}, {"openbsd", "amd64"}, {"openbsd", "arm"}, {"openbsd", "arm64"}, {"openbsd", "ppc64"},
	{"openbsd", "riscv64"}, {"plan9", "386"}, {"plan9", "amd64"}, {"plan9", "arm"}, {"solaris", "amd64"},
	{"wasip1", "wasm"}, {"windows", "386"}, {"windows", "arm64"},
}

// builds reports whether the go command compiles a file for some
// platform of buildPlatforms, with cgo on or off and no extra build tags
// (go/build's Context.MatchFile: the _ and . prefixes, _GOOS/_GOARCH
// suffixes and //go:build lines). A //go:build ignore file, one whose
// constraint no platform meets, or one that needs a tag such as
// integration never counts. Release tags (go1.N) are those of the Go
// vouch was built with; no GOEXPERIMENT or GOAMD64-style tool tags are
// set, so the answer does not depend on the environment.
func builds(file string, data []byte) bool {
	for _, pl := range buildPlatforms {
		for _, cgo := range []bool{true, false} {
			ctx := build.Context{GOOS: pl[0], GOARCH: pl[1], CgoEnabled: cgo, Compiler: "gc",
				ReleaseTags: build.Default.ReleaseTags,
				JoinPath:    path.Join,
				OpenFile:    func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
			}
			if ok, err := ctx.MatchFile(".", path.Base(file)); err == nil && ok {
				return true
			}
		}
	}
	return false
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
