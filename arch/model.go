// Package arch is vouch's architecture model: the nodes of a repository
// (domains, services, packages, ...), the edges declared between them, and
// the rules the code must follow. It loads vouch's own architecture.yaml,
// the .beadloom/_graph layout unchanged, or, with no graph at all, derives
// one node per source directory so glob rules work with no setup.
//
// The package only reads and validates; package lint turns the model and the
// repository's imports into datalog facts and lets the engine decide.
package arch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/yamldoc"
)

// Pos locates something in a configuration file for error messages.
type Pos struct {
	File      string
	Line, Col int
}

// String formats the position as file:line:col, the form editors link.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Node is one element of the architecture.
type Node struct {
	ID   string
	Kind string
	Tags []string
	// Source is a repository-relative directory prefix or file; the node
	// with the longest source covering a file owns it. "" means the node
	// owns no files of its own (it may still own annotated files).
	Source    string
	Lifecycle string
	Pos       Pos
}

// Edge is a declared relation between two nodes.
type Edge struct {
	Src, Dst, Kind string
	Lifecycle      string
	Pos            Pos
}

// RuleType names what a rule checks.
type RuleType string

// The rule types vouch evaluates.
const (
	Deny         RuleType = "deny"
	Require      RuleType = "require"
	Forbid       RuleType = "forbid"
	ForbidImport RuleType = "forbid_import"
	ForbidCycles RuleType = "forbid_cycles"
	Layers       RuleType = "layers"
	// ForbidDependency is dependency-cruiser's forbidden rule: conditions
	// on the importing file and on the dependency (regular expressions over
	// paths, dependency types, circularity), one finding per import.
	ForbidDependency RuleType = "forbid_dependency"
	// AllowedDependencies is dependency-cruiser's allowed list: every
	// import that matches none of its entries is a finding.
	AllowedDependencies RuleType = "allowed_dependencies"
	// Check is Beadloom's cardinality rule: nodes whose own files hold
	// more top-level symbols (or more files) than a limit.
	Check RuleType = "check"
	// ModuleCoverage is Beadloom's module_coverage rule: every module
	// under a source root is tracked by a node, annotated as a feature or
	// component, or listed as exempt.
	ModuleCoverage RuleType = "module_coverage"
	// AcyclicSiblings is import-linter's acyclic_siblings contract: no
	// cycle between the children of each ancestor package (an import
	// between two children's modules is a dependency of one child on the
	// other), and so on down Depth generations.
	AcyclicSiblings RuleType = "acyclic_siblings"
)

// RuleTypes lists every rule type, for did-you-mean hints.
func RuleTypes() []string {
	return []string{string(Deny), string(Require), string(Forbid), string(ForbidImport), string(ForbidCycles), string(Layers), string(ForbidDependency), string(AllowedDependencies), string(Check), string(ModuleCoverage), string(AcyclicSiblings)}
}

// Severity of a rule's findings.
const (
	SeverityError = "error"
	SeverityWarn  = "warn"
	// SeverityInfo findings are reported and never fail a run, not even
	// with --strict (dependency-cruiser's info).
	SeverityInfo = "info"
)

// Matcher selects nodes; every field given must hold (AND). The zero
// Matcher, written {}, selects every node.
type Matcher struct {
	// RefID is a node id or a glob over node ids.
	RefID string
	// Modules are Python module expressions (CompileModule, descendants
	// included) over node ids that are dotted module names (granularity
	// module); the node must match one of them.
	Modules []string
	Kind    string
	Tag     string
	Exclude []string
	// ExcludeModules are module expressions (descendants included) whose
	// nodes the matcher leaves out.
	ExcludeModules []string
	Pos            Pos
}

// Empty reports whether the matcher has no condition.
func (m Matcher) Empty() bool {
	return m.RefID == "" && len(m.Modules) == 0 && m.Kind == "" && m.Tag == "" && len(m.Exclude) == 0 && len(m.ExcludeModules) == 0
}

// String spells the matcher as it would be written in YAML.
func (m Matcher) String() string {
	var parts []string
	if m.RefID != "" {
		parts = append(parts, "ref_id: "+m.RefID)
	}
	if len(m.Modules) > 0 {
		parts = append(parts, "module: ["+strings.Join(m.Modules, ", ")+"]")
	}
	if m.Kind != "" {
		parts = append(parts, "kind: "+m.Kind)
	}
	if m.Tag != "" {
		parts = append(parts, "tag: "+m.Tag)
	}
	if len(m.Exclude) > 0 {
		parts = append(parts, "exclude: ["+strings.Join(m.Exclude, ", ")+"]")
	}
	if len(m.ExcludeModules) > 0 {
		parts = append(parts, "exclude_module: ["+strings.Join(m.ExcludeModules, ", ")+"]")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Layer is one level of a layers rule; layers are listed top-down. Its
// nodes are those carrying Tag, or those matching one of Modules (module
// expressions, descendants included, as in Matcher).
type Layer struct {
	Name, Tag string
	Modules   []string
	// Required are modules of Modules that must exist (an import-linter
	// layer not marked optional): Finish reports one no module node
	// matches, at RequiredPos.
	Required    []string
	RequiredPos Pos
}

// Exhaustive is a layers rule's exhaustiveness check: every direct child
// module of Container (a dotted module name) must be a layer module of
// the rule, unless its last name is listed in Ignores.
type Exhaustive struct {
	Container string
	Ignores   []string
}

// Siblings says which packages an acyclic_siblings rule checks: the
// packages Ancestors (module expressions without descendants) match, and
// their descendants down Depth generations (0: the ancestors only),
// except below the packages SkipDescendants match.
type Siblings struct {
	Ancestors       []string
	Depth           int
	SkipDescendants []string
}

// DefaultSiblingsDepth is import-linter's default depth.
const DefaultSiblingsDepth = 10

// IgnoredImport removes the imports from nodes matching From to nodes
// matching To (module expressions without descendants: import-linter's
// ignore_imports) from the import graph one rule sees, chains included.
type IgnoredImport struct {
	From, To string
	Pos      Pos
}

// Exemption waives a rule's findings between matching endpoints until a
// date. From and To are globs over the finding's endpoints (node ids, or
// file and import target for forbid_import); empty means any.
//
// A forbid_cycles exemption instead lists Members, the node ids of the
// whole cycle: it covers a cycle whose member set is exactly that set, so
// a cycle that gains or loses a member is reported again.
type Exemption struct {
	From, To string
	Members  []string
	Reason   string
	// Until is the last day (YYYY-MM-DD) the exemption applies; UntilDay
	// is the same day as days since 1970-01-01, the form datalog compares.
	Until    string
	UntilDay int64
	Pos      Pos
}

// Rule is one architecture rule.
type Rule struct {
	Name        string
	Description string
	Severity    string
	Reason      string
	Type        RuleType
	// From and To are the node matchers of deny and forbid; for require
	// From is `for` and To is `has_edge_to`.
	From, To Matcher
	// UnlessEdge lists edge kinds that exempt a deny.
	UnlessEdge []string
	// EdgeKind restricts require, forbid, forbid_cycles and layers to one
	// kind of graph edge.
	EdgeKind string
	// FromGlob and ToGlob are forbid_import's file and target patterns.
	FromGlob, ToGlob string
	Layers           []Layer
	AllowSkip        bool
	// Exhaustive, on a layers rule, requires every direct child module
	// of a container to be one of the rule's layer modules or ignored
	// (import-linter's exhaustive layers contracts).
	Exhaustive *Exhaustive
	// Siblings are an acyclic_siblings rule's settings.
	Siblings *Siblings
	// AllowWithin, on a deny rule, allows an import between two nodes
	// inside one module its to side matches (the innermost module a to
	// expression names, with its descendants): import-linter's protected
	// contracts let a protected package's modules import each other.
	AllowWithin bool
	// Indirect makes deny and layers rules fail on chains of imports
	// (A imports X imports B) as well as on direct imports, as
	// import-linter's forbidden and layers contracts do, and forbid rules
	// on chains of graph edges of their kind.
	Indirect bool
	// DependencyTypes, when not empty, restricts a deny, layers or
	// forbid_cycles rule to imports of these kinds (DependencyKinds);
	// DependencyTypesNot ignores imports of these kinds.
	// exclude_type_checking_imports adds "type-checking" to the latter.
	DependencyTypes, DependencyTypesNot []string
	// MaxChains caps how many findings of an indirect rule carry their
	// witness chain (DefaultMaxChains when zero); every finding still
	// counts.
	MaxChains int
	// IgnoreImports are imports the rule does not see at all (deny, layers
	// and forbid_cycles). IgnoreUnmatched is the severity of the finding an
	// entry matching no import gives: SeverityError (the default),
	// SeverityWarn, or "none" for no finding.
	IgnoreImports   []IgnoredImport
	IgnoreUnmatched string
	// GraphOnly makes forbid_cycles and layers look at declared graph
	// edges (of EdgeKind) only, not imports: Beadloom's meaning of a rule
	// with edge_kind, unless it sets include_imports.
	GraphOnly bool
	// MaxSymbols and MaxFiles are a check rule's limits (-1 when unset).
	MaxSymbols, MaxFiles int
	// SourceRoot, MinSymbols and ExemptGlobs are module_coverage's
	// settings; ExemptGlobs are fnmatch patterns (* crosses /).
	SourceRoot  string
	MinSymbols  int
	ExemptGlobs []string
	// Dep holds a forbid_dependency rule's conditions; Allowed the
	// entries of an allowed_dependencies rule.
	Dep     *DepRule
	Allowed []DepRule
	Exempt  []Exemption
	Pos     Pos
	// Origin is set on a rule read from another tool's configuration.
	Origin *Origin
}

// DepRule is one dependency-cruiser style rule: conditions on the module a
// dependency starts from and on the dependency itself. Every condition
// given must hold; an absent condition holds for everything.
type DepRule struct {
	From DepFrom
	To   DepTo
}

// DepPaths are regular expressions (Go RE2 syntax) over repository-relative
// paths: Path, when not empty, must match (any of them) and PathNot must
// not (none of them).
type DepPaths struct {
	Path, PathNot []string
}

// DepFrom conditions the importing module.
type DepFrom struct {
	DepPaths
	// Orphan, when set, selects modules with no dependency in either
	// direction (the rule then has no to side) or, false, the others.
	Orphan *bool
}

// DepTo conditions the dependency: its resolved path (PathNot may refer to
// the from path's groups as $1, $2, ...), whether it is part of a cycle,
// the modules such a cycle may pass through, and its dependency types.
type DepTo struct {
	DepPaths
	Circular *bool
	// ViaOnly restricts a circular match to cycles whose every module
	// matches Path and none PathNot (dependency-cruiser's viaOnly; viaNot
	// is ViaOnly.PathNot).
	ViaOnly DepPaths
	// DependencyTypes (any of) and DependencyTypesNot (none of) use
	// DepTypes' names.
	DependencyTypes, DependencyTypesNot []string
	// CouldNotResolve, when set, selects unresolved imports (true) or
	// resolved ones (false).
	CouldNotResolve *bool
	// MoreThanOneType, when set, selects dependencies with more than one
	// of the types in DuplicateTypes (true: a package listed both in
	// dependencies and devDependencies), or with at most one (false).
	MoreThanOneType *bool
}

// NpmTypes are the dependency types that say where the package.json
// closest to the importing file lists an npm package, as
// dependency-cruiser names them: npm (dependencies), npm-dev,
// npm-optional, npm-peer, npm-bundled (also in bundledDependencies),
// npm-no-pkg (in none of them), npm-unknown (no package.json), and
// deprecated (the installed package's package.json says so).
func NpmTypes() []string {
	return []string{"deprecated", "npm-bundled", "npm-dev", "npm-no-pkg", "npm-optional", "npm-peer", "npm-unknown"}
}

// DuplicateTypes are the types more_than_one_type counts (those of
// dependency-cruiser's moreThanOneDependencyType).
func DuplicateTypes() []string {
	return []string{"core", "local", "npm", "npm-bundled", "npm-dev", "npm-no-pkg", "npm-optional", "npm-peer", "npm-unknown"}
}

// NeedsManifests reports whether a rule of m tells npm packages apart by
// the package.json that lists them, so lint must read the manifests.
func (m *Model) NeedsManifests() bool {
	for _, d := range m.depRules() {
		if d.To.MoreThanOneType != nil {
			return true
		}
		for _, k := range append(slices.Clone(d.To.DependencyTypes), d.To.DependencyTypesNot...) {
			if k == "npm" || slices.Contains(NpmTypes(), k) {
				return true
			}
		}
	}
	return false
}

// NeedsDeprecations reports whether a rule of m selects deprecated
// packages, so lint must read the installed packages' package.json (as
// dependency-cruiser does only then).
func (m *Model) NeedsDeprecations() bool {
	for _, d := range m.depRules() {
		if slices.Contains(d.To.DependencyTypes, "deprecated") || slices.Contains(d.To.DependencyTypesNot, "deprecated") {
			return true
		}
	}
	return false
}

// depRules are the conditions of every forbid_dependency rule and allowed
// entry.
func (m *Model) depRules() []DepRule {
	var out []DepRule
	for i := range m.Rules {
		r := &m.Rules[i]
		if r.Dep != nil {
			out = append(out, *r.Dep)
		}
		out = append(out, r.Allowed...)
	}
	return out
}

// DepTypes are the dependency types a forbid_dependency or
// allowed_dependencies rule may select: the import kinds of
// DependencyKinds, and where the import resolved: local (a file of the
// repository), npm (an external package), core (the runtime's own
// modules, such as node's fs) and unknown (unresolved).
func DepTypes() []string {
	return append(append(DependencyKinds(), "core", "local", "npm", "unknown"), NpmTypes()...)
}

// Circ reports whether the rule asks for circular dependencies.
func (d *DepRule) Circ() bool { return d.To.Circular != nil && *d.To.Circular }

// DefaultMaxChains is how many findings of an indirect rule show their
// witness chain when the rule does not say.
const DefaultMaxChains = 20

// DependencyKinds are the import kinds a rule may select or ignore: the
// syntactic forms imports.Kind records, plus "type-checking" for Python
// imports under `if TYPE_CHECKING:`.
func DependencyKinds() []string {
	return []string{"dynamic", "extern_crate", "from", "import", "mod", "reexport", "require", "type-checking", "type-only", "use"}
}

// Filtered reports whether the rule looks at only some kinds of import.
func (r *Rule) Filtered() bool {
	return len(r.DependencyTypes) > 0 || len(r.DependencyTypesNot) > 0 || len(r.IgnoreImports) > 0
}

// Granularities of derived nodes.
const (
	GranularityDirectory = "directory"
	GranularityFile      = "file"
	GranularityPackage   = "package"
	// GranularityModule makes one node per Python module of the model's
	// RootPackages, named by its dotted module name, as import-linter's
	// graph has.
	GranularityModule = "module"
)

// Granularities lists the accepted granularity values.
func Granularities() []string {
	return []string{GranularityDirectory, GranularityFile, GranularityModule, GranularityPackage}
}

// Scope holds dependency-cruiser's options that decide which modules and
// dependencies exist at all (regular expressions over repository-relative
// paths), applied before any rule sees the imports.
type Scope struct {
	// Exclude drops matching modules: their imports and imports of them.
	Exclude []string
	// IncludeOnly keeps only matching modules (both ends of an import).
	IncludeOnly []string
	// DoNotFollow keeps matching modules but not their own imports.
	DoNotFollow []string
	// NoTypeOnly drops type-only imports, as dependency-cruiser does
	// unless tsPreCompilationDeps is true.
	NoTypeOnly bool
	// JSOnly keeps JavaScript and TypeScript files only, the modules
	// dependency-cruiser cruises.
	JSOnly bool
	Pos    Pos
}

// Note is a notice about the configuration at a position.
type Note struct {
	Pos Pos
	Msg string
}

// Skipped is a rule of the seed's layout that vouch does not evaluate
// (check, module_coverage, ...): reported, never silently dropped.
type Skipped struct {
	Name, Type string
	Pos        Pos
}

// Model is everything a lint run reads from configuration.
type Model struct {
	Nodes   []Node
	Edges   []Edge
	Rules   []Rule
	Skipped []Skipped
	// Files are the configuration files read, in reading order.
	Files []string
	// FileSHA256 holds, for each of Files, the sha256 of the bytes that were
	// parsed, so a receipt vouches for what was evaluated rather than for
	// whatever is on disk when the receipt is written.
	FileSHA256 map[string]string
	// Layout is "vouch" (architecture.yaml), "beadloom" (.beadloom/_graph),
	// the Tool of a ForeignFormat, or "none".
	Layout string
	// Annotations says whether `beadloom:key=value` file annotations
	// assign files to nodes (the beadloom layout's behaviour).
	Annotations bool
	// Auto is set when the nodes were derived from the source tree.
	Auto bool
	// Granularity is what a derived node stands for: GranularityDirectory
	// (the default), GranularityFile or GranularityPackage.
	Granularity string
	// GranularityPos locates the granularity setting, for errors.
	GranularityPos Pos
	// ScanPaths are the directories .beadloom/config.yml's scan_paths
	// lists; only files under them are linted. Empty means every file.
	ScanPaths []string
	// PythonRoots are the Python package roots architecture.yaml's
	// python_roots lists (repository-relative); empty means detect them.
	PythonRoots []string
	// RootPackages are the Python packages (dotted names) whose modules
	// become nodes at granularity module; empty means every package found
	// through __init__.py files.
	RootPackages []string
	// RootPackagesPos is where the root packages are named.
	RootPackagesPos Pos
	// ExternalPackages makes each external Python package imported (its
	// top-level name) a node, as import-linter's include_external_packages
	// does: rules can then forbid it, chains included.
	ExternalPackages bool
	// Root is the repository root Load read, used to find package
	// manifests for package granularity; "" is the working directory.
	Root string
	// Scope narrows what is linted the way dependency-cruiser's options
	// do; nil lints everything.
	Scope *Scope
	// Notes are things a foreign configuration asks for that vouch does
	// not do, reported as notices (they fail a --strict run).
	Notes []Note
	// pendingTags are tags from a `tags:` map by node id, applied by
	// Finish once every graph file is read.
	pendingTags map[string][]string
	pendingPos  map[string]Pos
}

// Error is one problem in an architecture file: yamldoc's positioned error.
type Error = yamldoc.Error

// ErrorList is every problem found, in file order.
type ErrorList = yamldoc.ErrorList

// errAt is a problem at p.
func errAt(p Pos, msg string) *Error {
	return &Error{File: p.File, Pos: yamldoc.Pos{Line: p.Line, Col: p.Col}, Msg: msg}
}
