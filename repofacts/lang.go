package repofacts

import (
	"path"
	"strings"
)

// isTest reports whether p is a conventional test file of a language
// vouch understands: Go's _test.go; Python's test_*.py, *_test.py,
// conftest.py and files under tests/; JavaScript and TypeScript's
// *.test.* and *.spec.* and files under __tests__/; Rust's files under
// tests/.
func isTest(p string) bool {
	base := path.Base(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	dirs := strings.Split(path.Dir(p), "/")
	inDir := func(names ...string) bool {
		for _, d := range dirs {
			for _, n := range names {
				if d == n {
					return true
				}
			}
		}
		return false
	}
	switch strings.ToLower(ext) {
	case ".go":
		return strings.HasSuffix(base, "_test.go")
	case ".py", ".pyi":
		return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || base == "conftest.py" || inDir("tests", "test")
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		inner := path.Ext(stem)
		return inner == ".test" || inner == ".spec" || inDir("__tests__")
	case ".rs":
		return len(dirs) > 0 && (dirs[0] == "tests" || inDir("tests"))
	}
	return false
}
