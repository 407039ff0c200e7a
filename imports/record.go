// Package imports finds every import statement in Go, Python,
// JavaScript/TypeScript and Rust source files of a repository and resolves
// each one to a file of the repository, an external package, the standard
// library, or an explicit "unresolved" with a reason.
package imports

import "strings"

// Lang names a source language the extractor understands.
type Lang string

// The languages vouch extracts imports from.
const (
	Go         Lang = "go"
	Python     Lang = "python"
	JavaScript Lang = "js"
	TypeScript Lang = "ts"
	Rust       Lang = "rust"
)

// Kind says which syntactic form an import was written in.
type Kind string

// Import forms across the supported languages.
const (
	KindImport      Kind = "import"       // Go import spec; Python `import a.b`; JS/TS `import ... from 'x'` and `import 'x'`
	KindFrom        Kind = "from"         // Python `from a import b`
	KindRequire     Kind = "require"      // JS `require('x')` and the other calls of require (`module.require('x')`, `createRequire(u)('x')`, ...; see js.go), TS `import x = require('x')`
	KindDynamic     Kind = "dynamic"      // JS/TS `import('x')`, Python `importlib.import_module('x')` and `__import__('x')`, with a literal argument
	KindReexport    Kind = "reexport"     // JS/TS `export ... from 'x'`, `export * from 'x'`
	KindTypeOnly    Kind = "type-only"    // TS `import type ... from 'x'`, `export type ... from 'x'`
	KindUse         Kind = "use"          // Rust `use` tree leaf
	KindMod         Kind = "mod"          // Rust `mod x;`
	KindExternCrate Kind = "extern_crate" // Rust `extern crate x;`
)

// ResolutionKind classifies where an import points.
type ResolutionKind string

// The four ways an import can resolve.
const (
	Internal   ResolutionKind = "internal"   // a file or directory inside the repository
	External   ResolutionKind = "external"   // a third-party package or module
	Stdlib     ResolutionKind = "stdlib"     // the language's standard library or runtime builtins
	Unresolved ResolutionKind = "unresolved" // could not be resolved; Reason says why
)

// Resolution says where an import points.
type Resolution struct {
	Kind ResolutionKind `json:"kind"`
	// Target is the repository-relative, '/'-separated file or directory for
	// Internal imports, and the package or module name for External and
	// Stdlib imports.
	Target string `json:"target,omitempty"`
	// Reason explains an Unresolved import.
	Reason string `json:"reason,omitempty"`
	// Tried lists the candidate files an Unresolved relative import was
	// looked for at (JS/TS: relative to the importing file's directory;
	// Rust: repository-relative), for --format json; the text format
	// prints only the one resolution.
	Tried []string `json:"tried,omitempty"`
}

// Record is one import site.
type Record struct {
	File   string `json:"file"`   // repository-relative, '/'-separated
	Line   int    `json:"line"`   // 1-based
	Column int    `json:"column"` // 1-based, in bytes
	Lang   Lang   `json:"lang"`
	Kind   Kind   `json:"kind"`
	// Spec is the import path exactly as written (without quotes).
	Spec string `json:"spec"`
	// Names are the imported names where the form has them (Python
	// `from a import b, c`, JS named imports, Rust use-tree leaves).
	Names []string `json:"names,omitempty"`
	// Alias is the local name where the form renames the import.
	Alias string `json:"alias,omitempty"`
	// Constraint is the file's build constraint (Go `//go:build` line), if any.
	Constraint string `json:"constraint,omitempty"`
	// TypeChecking marks a Python import inside an `if TYPE_CHECKING:`
	// block: needed by type checkers only, never at run time.
	TypeChecking bool       `json:"type_checking,omitempty"`
	Resolution   Resolution `json:"resolution"`
}

// Warning is a problem that did not stop extraction: a syntax error, a file
// skipped for being binary or too large, an unreadable file.
type Warning struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
	// Unread marks a source file whose imports are not (all) known: it
	// was skipped (too large, binary, undecodable, unreadable, a link
	// leading outside the root), or extraction stopped at Line and the
	// rest of the file was never read. Such a file may import anything,
	// so vouch lint reports it as an error rather than let it pass.
	Unread bool `json:"unread,omitempty"`
}

// Site is one import as a language's extractor finds it in a single file,
// before resolution. Each extractor returns Sites in source order.
type Site struct {
	Line   int // 1-based
	Column int // 1-based, in bytes
	Kind   Kind
	Spec   string
	Names  []string
	Alias  string
	// TypeChecking: under `if TYPE_CHECKING:` (Python).
	TypeChecking bool
}

// SyntaxError is a problem an extractor met in a file; extraction carries on
// past it.
type SyntaxError struct {
	Line    int
	Message string
	// Stop says extraction gave up here (nesting past a safety bound):
	// the rest of the file was not read, so its imports are unknown.
	Stop bool
}

// Repo is what resolvers know about the repository being walked.
type Repo struct {
	// Root is the absolute path of the repository root.
	Root string
	// Files holds every repository-relative, '/'-separated file path the walk
	// found (all languages, plus manifests such as go.mod, package.json,
	// tsconfig.json and Cargo.toml), so resolvers can probe candidates
	// without touching the disk.
	Files map[string]bool
	// Links maps each symlink to a directory inside the root to that
	// directory, both repository-relative. Files below a link are listed
	// by their real path only.
	Links map[string]string
}

// realPath is p with a leading symlinked directory (Links) replaced by
// the directory it links to, repeatedly, or "" when no prefix of p is a
// link: the path node or Python opens for an import through the link.
func (repo *Repo) realPath(p string) string {
	if len(repo.Links) == 0 {
		return ""
	}
	changed := false
	// Each step replaces a link, so more steps than links is a loop.
	for range len(repo.Links) + 1 {
		hit := false
		for i := len(p); i > 0; i = strings.LastIndexByte(p[:i], '/') {
			if to, ok := repo.Links[p[:i]]; ok {
				p, hit, changed = to+p[i:], true, true
				break
			}
		}
		if !hit {
			break
		}
	}
	if !changed {
		return ""
	}
	return p
}

// resolver turns a Site found in file (repository-relative) into a Resolution.
// Each language implements it; resolvers are built once per walk and must be
// safe for concurrent use after construction.
type resolver interface {
	resolve(file string, s Site) Resolution
}
