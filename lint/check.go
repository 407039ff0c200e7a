package lint

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/internal/hugeheap"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/yamldoc"
)

// Config says what Check evaluates. Its zero value finds the
// architecture under the root, reads no baseline and writes the artifacts
// to root/.vouch/lint.
type Config struct {
	// File is the architecture file (architecture.yaml, or a
	// .beadloom/_graph directory or its rules.yml); "" finds one under the
	// root.
	File string
	// Baseline is a JSON file of accepted findings; "" for none.
	Baseline string
	// BaselineAt is where Baseline was named (vouch.yaml's
	// architecture.baseline: its File and Pos; Msg is unused), so that a
	// baseline that cannot be read is reported there; zero for --baseline.
	BaselineAt yamldoc.Error
	// SkipBaseline leaves the baseline unread, for a run that is about to
	// rewrite it (--update-baseline).
	SkipBaseline bool
	// Strict turns inert rules into errors.
	Strict bool
	// Today is the day exemptions expire against; the zero time is today.
	Today time.Time
	// NoCache neither reads nor writes the import cache.
	NoCache bool
	// Fresh takes nothing from the import cache (imports.Options.Fresh):
	// the gate's choice, since a check takes nothing it did not read
	// itself.
	Fresh bool
	// Out is where the program and trace go; "" is root/.vouch/lint.
	Out string
	// PythonRoots, when not nil, replaces the architecture file's
	// python_roots and auto-detection (lint --python-root).
	PythonRoots []string
	// RequiredBy, when set, names what asked for the rules (such as
	// "--config" or "vouch.yaml's architecture: section"): finding none
	// is then a configuration error whose advice ends with Remedy.
	// Otherwise finding none is a notice that nothing was checked.
	RequiredBy, Remedy string
	// Progress, when set, is told how many source files the import scan
	// has read (imports.Options.Progress).
	Progress func(done, total int)
	// NewFromRev, when set, reports only findings introduced since this
	// git revision, as golangci-lint's --new-from-rev does: the same
	// rules are checked on the revision's tree, and findings with the
	// same identity as one found there (the baseline identity: rule,
	// importer and imported, or a cycle's members) are left out.
	NewFromRev string
	// NewFromFrom says where NewFromRev came from, for messages
	// ("--new-from-rev", "vouch.yaml architecture.new_from").
	NewFromFrom string
	// Trusted is the commit whose .gitignore rules the file list honours
	// (imports.Options.Trusted): the gate's base (repofacts.BaseTree);
	// nil is HEAD (repofacts.HeadTree). A file only a rule it lacks
	// ignores is linted, with a notice.
	Trusted imports.TrustedTree
}

// ConfigErrors are configuration problems that stopped a check (exit 2),
// each positioned where it is known. It unwraps to the positioned list, so
// callers annotate it as they annotate any loader's errors.
type ConfigErrors struct {
	List yamldoc.ErrorList
}

// Error lists the problems one per line.
func (e *ConfigErrors) Error() string {
	return "invalid architecture configuration:\n" + e.List.Error()
}

// Unwrap is the positioned list.
func (e *ConfigErrors) Unwrap() error { return e.List }

// Check is the architecture pipeline that vouch lint and vouch gate both
// run: load the configuration, insist on rules when they were asked for,
// scan the imports, evaluate the rules in datalog, write the program and
// trace, and apply the baseline. The report's findings are the
// architecture program's; Check decides nothing beyond counting them.
//
// A configuration problem is a ConfigErrors; any other error (an
// unreadable tree, an evaluation that did not complete) is returned as
// it is. On success the report's Artifacts and Files are set.
func Check(ctx context.Context, root string, cfg Config) (*Report, error) {
	start := time.Now()
	commit := ""
	if cfg.NewFromRev != "" {
		// Resolve first: an unknown revision stops the run before any work.
		var err error
		if commit, err = repofacts.Revision(ctx, root, cfg.NewFromRev, newFromName(cfg)); err != nil {
			return nil, err
		}
	}
	model, err := arch.Load(root, cfg.File)
	if err != nil {
		return nil, configErrors(err)
	}
	var notices []*ConfigError
	if len(model.Rules) == 0 {
		if cfg.RequiredBy != "" {
			return nil, &ConfigErrors{yamldoc.ErrorList{NoRulesError(model, root, cfg.File, cfg.RequiredBy, cfg.Remedy)}}
		}
		notices = append(notices, noRulesNotice(model, root))
	}
	tuned := tuneMemory()
	pyRoots := model.PythonRoots
	if cfg.PythonRoots != nil {
		pyRoots = cfg.PythonRoots
	}
	trusted := cfg.Trusted
	if trusted == nil {
		trusted = repofacts.HeadTree(root)
	}
	scan, err := imports.Scan(ctx, root, imports.Options{NoCache: cfg.NoCache, Fresh: cfg.Fresh, PythonRoots: pyRoots, Progress: cfg.Progress, Trusted: trusted})
	if err != nil {
		return nil, err
	}
	if pyRoots == nil {
		// import-linter (grimp) names modules from where the root
		// packages lie: their parent directories are on sys.path. When
		// one lies where vouch would not guess a root (a namespace
		// package split over directories), resolve again with those.
		if derived := packageRoots(model.RootPackages, scan.Files); derived != nil {
			if scan, err = imports.Scan(ctx, root, imports.Options{NoCache: cfg.NoCache, Fresh: cfg.Fresh, PythonRoots: derived, Progress: cfg.Progress, Trusted: trusted}); err != nil {
				return nil, err
			}
		}
	}
	if tuned {
		hugeheap.Grow(int64(len(scan.Files)) * heapPerFile)
	}
	// A missed Python root hides imports from every rule: say so.
	for _, h := range scan.RootHints {
		notices = append(notices, &ConfigError{File: h.File, Pos: yamldoc.Pos{Line: h.Line, Col: 1}, Msg: h.Message})
	}
	if len(model.ScanPaths) > 0 {
		scan = restrictScan(scan, model)
	}
	scan = applyScope(scan, model.Scope)
	notices = append(notices, unignoredNotices(scan.Unignored, scan.Files, trusted.Name())...)
	notices = append(notices, unresolvedRelative(scan.Records)...)
	for _, n := range model.Notes {
		notices = append(notices, &ConfigError{File: n.Pos.File, Pos: yamldoc.Pos{Line: n.Pos.Line, Col: n.Pos.Col}, Msg: n.Msg})
	}
	var annot map[string][]string
	if model.Annotations {
		annot = readAnnotations(root, scan.Files)
	}
	if err := model.Finish(scan.Files); err != nil {
		return nil, configErrors(err)
	}
	model.AddExternal(externalPython(scan.Records))
	files := append([]string{}, model.Files...)
	sums := maps.Clone(model.FileSHA256)
	if sums == nil {
		sums = map[string]string{}
	}
	var baseline []BaselineEntry
	if cfg.Baseline != "" && !cfg.SkipBaseline {
		data, err := os.ReadFile(cfg.Baseline)
		if err != nil {
			return nil, &ConfigErrors{yamldoc.ErrorList{baselineReadError(cfg, err)}}
		}
		if baseline, err = parseBaseline(data); err != nil {
			// The problem is in the baseline file itself.
			return nil, &ConfigErrors{yamldoc.ErrorList{{File: cfg.Baseline, Msg: err.Error(), Err: err}}}
		}
		files = append(files, cfg.Baseline)
		sum := sha256.Sum256(data)
		sums[cfg.Baseline] = hex.EncodeToString(sum[:])
	}
	today := cfg.Today
	if today.IsZero() {
		today = time.Now()
	}
	var source *SourceFacts
	if needsSource(model) {
		source = readSourceFacts(root, scan.Files)
	}
	var npm NpmTypes
	if model.NeedsManifests() {
		npm = readNpmTypes(root, scan, model.NeedsDeprecations())
	}
	opts := Options{Today: arch.Day(today), Source: source, Npm: npm}
	if tuned {
		opts.beforeEval = roomForFacts
	}
	o, err := Run(model, scan, annot, opts)
	if err != nil {
		return nil, err
	}
	dir := cfg.Out
	if dir == "" {
		dir = filepath.Join(root, ".vouch", "lint")
	}
	arts, err := o.WriteArtifacts(dir)
	if err != nil {
		return nil, err
	}
	rep := NewReport(o, cfg.Strict)
	rep.Artifacts = arts
	rep.Notices = notices
	rep.Files = files
	rep.FileSHA256 = sums
	if abs, err := filepath.Abs(root); err == nil {
		rep.Root = abs
	}
	if baseline != nil {
		rep.Stale = ApplyBaseline(rep.Findings, baseline)
	}
	if commit != "" {
		if err := dropPreexisting(ctx, root, cfg, commit, rep); err != nil {
			return nil, err
		}
	}
	rep.Time = time.Since(start)
	rep.Count()
	return rep, nil
}

// ErrorReport is the report of a check that stopped on configuration
// problems: no findings, only the errors, so every format can still
// render a complete document (a SARIF consumer always gets a valid log).
func ErrorReport(errs []*ConfigError) *Report {
	return &Report{Version: ReportVersion, Findings: []Finding{}, Stale: []StaleEntry{}, Skipped: []SkippedRule{}, Errors: errs}
}

// tuneMemory bounds the heap for the scan and evaluation unless the user
// chose with GOMEMLIMIT or GOGC: extraction outpaces the collector on
// large trees, and under the limit collecting less often saves ~10% of a
// warm run without raising the peak.
// It reports whether it set the limit.
func tuneMemory() bool {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return false
	}
	debug.SetMemoryLimit(baseMemoryLimit)
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
	return true
}

// baseMemoryLimit is tuneMemory's limit, and bytesPerFact the heap an
// evaluation needs per fact it starts from: about 1 KB live per
// extensional fact (derived facts, indexes, the engine's intermediate
// solutions) on the dependency-cruiser configurations of docs/lint.md,
// doubled so the limit stays well above the live heap.
const (
	baseMemoryLimit = 256 << 20
	bytesPerFact    = 2 << 10
)

// heapPerFile is how much heap to ready, once the imports are read, for
// each file the scan found: the 4,087-file dependency-cruiser benchmark
// of docs/lint.md touches about 48 KiB of fresh memory per file from
// there to the report.
const heapPerFile = 64 << 10

// roomForFacts raises the memory limit before an evaluation whose live
// heap would come near it: a soft limit below the live heap makes the
// collector run back to back (a 20,407-file repository with four
// dependency-cruiser rules, 210k facts, took 18 s CPU under 256 MiB and
// 12 s without a limit). Small evaluations keep the limit.
func roomForFacts(facts int) {
	if need := int64(facts) * bytesPerFact; need > baseMemoryLimit {
		debug.SetMemoryLimit(need)
	}
}

// NoRulesError is the configuration error of architecture rules asked for
// (by requiredBy) when none were found: no architecture file at all, or
// one defining no rule vouch evaluates. It names where vouch looked and how
// to fix it; remedy says how to stop asking.
func NoRulesError(model *arch.Model, root, file, requiredBy, remedy string) *ConfigError {
	if model.Layout == "none" {
		want := filepath.Join(root, arch.FileName)
		return &ConfigError{File: want, Msg: fmt.Sprintf(
			"not found, nor is %s: %s asks for architecture rules but none are configured; create %s with rules, set architecture.config in vouch.yaml to your architecture file, or %s",
			filepath.Join(root, filepath.FromSlash(arch.BeadloomDir)), requiredBy, want, remedy)}
	}
	switch {
	case file != "":
	case model.Layout == "vouch" && len(model.Files) > 0:
		file = model.Files[0]
	default:
		file = filepath.Join(root, filepath.FromSlash(arch.BeadloomDir))
	}
	return &ConfigError{File: file, Msg: fmt.Sprintf(
		"defines no rules vouch evaluates, but %s asks for architecture rules; add rules to it, or %s", requiredBy, remedy)}
}

// noRulesNotice warns that a lint run found no rules, so checked nothing:
// where it looked, and how to add rules.
func noRulesNotice(model *arch.Model, root string) *ConfigError {
	if model.Layout == "none" {
		return &ConfigError{Msg: fmt.Sprintf(
			"no architecture rules found (neither %s nor %s exists): nothing was checked; create %s with rules (docs/lint.md)",
			filepath.Join(root, arch.FileName), filepath.Join(root, filepath.FromSlash(arch.BeadloomDir)), filepath.Join(root, arch.FileName))}
	}
	e := NoRulesError(model, root, "", "", "")
	e.Msg = "defines no rules vouch evaluates: nothing was checked; add rules to it (docs/lint.md)"
	return e
}

// configErrors wraps the architecture loader's positioned problems.
func configErrors(err error) *ConfigErrors {
	var el yamldoc.ErrorList
	if errors.As(err, &el) {
		return &ConfigErrors{el}
	}
	return &ConfigErrors{yamldoc.ErrorList{{Msg: err.Error()}}}
}

// externalPython lists the external Python packages imported (top-level
// names), sorted, for models whose nodes include them.
func externalPython(recs []imports.Record) []string {
	seen := map[string]bool{}
	var out []string
	for i := range recs {
		r := &recs[i]
		if r.Lang == imports.Python && r.Resolution.Kind == imports.External && !seen[r.Resolution.Target] {
			seen[r.Resolution.Target] = true
			out = append(out, r.Resolution.Target)
		}
	}
	sort.Strings(out)
	return out
}

// readAnnotations reads `beadloom:key=value` annotations from every source
// file; unreadable files simply have none (the import scan already warned).
func readAnnotations(root string, files []string) map[string][]string {
	out := map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil || !bytes.Contains(data, []byte("beadloom:")) {
			continue
		}
		if ids := arch.Annotations(data); len(ids) > 0 {
			out[f] = ids
		}
	}
	return out
}

// WriteArtifacts writes the program and its evaluation trace into dir.
func (o *Outcome) WriteArtifacts(dir string) (*Artifacts, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create output directory: %w", err)
	}
	var dl bytes.Buffer
	if err := o.WriteDL(&dl); err != nil {
		return nil, fmt.Errorf("render program: %w", err)
	}
	prog := filepath.Join(dir, ProgramFile)
	trace := filepath.Join(dir, TraceFile)
	if err := atomicfile.WriteUnsynced(prog, dl.Bytes(), 0o644); err != nil {
		return nil, err
	}
	traceBytes := o.Trace(dl.Bytes())
	if err := atomicfile.WriteUnsynced(trace, traceBytes, 0o644); err != nil {
		return nil, err
	}
	ps, ts := sha256.Sum256(dl.Bytes()), sha256.Sum256(traceBytes)
	return &Artifacts{Program: filepath.ToSlash(prog), Trace: filepath.ToSlash(trace),
		ProgramSHA256: hex.EncodeToString(ps[:]), TraceSHA256: hex.EncodeToString(ts[:])}, nil
}

// restrictScan keeps the files under the model's scan paths and the
// imports made from them, as the seed tool scans only those directories.
func restrictScan(scan *imports.Result, m *arch.Model) *imports.Result {
	out := *scan
	out.Files = nil
	for _, f := range scan.Files {
		if m.InScanPaths(f) {
			out.Files = append(out.Files, f)
		}
	}
	out.Records = nil
	for _, r := range scan.Records {
		if m.InScanPaths(r.File) {
			out.Records = append(out.Records, r)
		}
	}
	out.Warnings = keepUnread(scan.Warnings, m.InScanPaths)
	return &out
}

// ExplainConfig writes how the architecture configuration cfg.File (or
// the one found under root) is understood, as vouch's own
// architecture.yaml with the file:line each rule came from (arch's
// Model.Explain). Nothing is scanned or evaluated. A configuration
// problem is a ConfigErrors.
func ExplainConfig(root string, cfg Config, w io.Writer) error {
	model, err := arch.Load(root, cfg.File)
	if err != nil {
		return configErrors(err)
	}
	if len(model.Rules) == 0 && cfg.RequiredBy != "" {
		return &ConfigErrors{yamldoc.ErrorList{NoRulesError(model, root, cfg.File, cfg.RequiredBy, cfg.Remedy)}}
	}
	return model.Explain(w)
}

// packageRoots are the directories holding the root packages' top-level
// packages (the sys.path entries grimp assumes), "" for the repository
// root; nil when every one is at the repository root or under src/ or
// lib/, where vouch finds them anyway.
func packageRoots(rootPackages, files []string) []string {
	if len(rootPackages) == 0 {
		return nil
	}
	dirs := arch.PackageDirs(rootPackages, files)
	var out []string
	unusual := false
	for _, pkg := range rootPackages {
		d, ok := dirs[pkg]
		if !ok {
			continue
		}
		depth := strings.Count(pkg, ".") + 1
		parent := d
		for range depth {
			parent = path.Dir(parent)
		}
		if parent == "." {
			parent = ""
		}
		if parent != "" && parent != "src" && parent != "lib" {
			unusual = true
		}
		if !slices.Contains(out, parent) {
			out = append(out, parent)
		}
	}
	if !unusual {
		return nil
	}
	slices.Sort(out)
	return out
}

// unignoredNotices say which linted files (of files) a .gitignore in
// the work tree ignores and the trusted commit does not ignore by the
// same rule (imports.Result.Unignored): one notice per rule, at the
// rule, so whoever reads the report knows why an ignored file was
// checked. A rule the checked work adds must not hide a file from the
// rules.
func unignoredNotices(us []imports.Unignored, files []string, trusted string) []*ConfigError {
	type rule struct {
		file string
		line int
		why  string
	}
	linted := make(map[string]bool, len(files))
	for _, f := range files {
		linted[f] = true
	}
	var order []rule
	byRule := map[rule][]string{}
	for _, u := range us {
		if !linted[u.Path] {
			continue
		}
		r := rule{u.Gitignore, u.Line, u.Why}
		if _, ok := byRule[r]; !ok {
			order = append(order, r)
		}
		byRule[r] = append(byRule[r], u.Path)
	}
	var out []*ConfigError
	for _, r := range order {
		paths := byRule[r]
		what := paths[0] + " is linted although this rule ignores it"
		if len(paths) > 1 {
			shown := paths[:min(len(paths), 5)]
			what = fmt.Sprintf("%d files are linted although this rule ignores them (%s", len(paths), strings.Join(shown, ", "))
			if len(paths) > len(shown) {
				what += fmt.Sprintf(", and %d more", len(paths)-len(shown))
			}
			what += ")"
		}
		e := &ConfigError{File: r.file, Pos: yamldoc.Pos{Line: r.line}}
		if r.file == "" {
			// git names no rule: the notice is at the file.
			e.File, what = paths[0], "linted although git lists it as ignored"
			if len(paths) > 1 {
				e.File, what = "", fmt.Sprintf("%d files git lists as ignored are linted (%s)", len(paths), strings.Join(paths[:min(len(paths), 5)], ", "))
			}
		}
		e.Msg = what + ": " + r.why + "; only the .gitignore rules " + trusted + " has hide files from the architecture rules"
		out = append(out, e)
	}
	return out
}

// unresolvedRelative are notices for the relative imports (JS/TS ./ and
// ../, Python from-imports with leading dots) and the JS/TS imports by
// absolute path (node loads /abs/x.js, which vouch never resolves: the
// same spelling names another file in another checkout) that resolve to
// no file:
// the module the code loads is either missing (a bug) or one vouch cannot
// see, which could hide a dependency the rules forbid, so --strict fails
// on them.
func unresolvedRelative(recs []imports.Record) []*ConfigError {
	var out []*ConfigError
	for i := range recs {
		r := &recs[i]
		if r.Resolution.Kind != imports.Unresolved || !relativeSpec(r) {
			continue
		}
		what := "relative import"
		if strings.HasPrefix(r.Spec, "/") {
			what = "import by absolute path"
		}
		out = append(out, &ConfigError{File: r.File, Pos: yamldoc.Pos{Line: r.Line, Col: r.Column}, Msg: fmt.Sprintf(
			"%s %s resolves to no file (%s): no rule checked it; fix the import, or exclude the importing file with scope: {exclude: [...]} in the architecture configuration",
			what, r.Spec, r.Resolution.Reason)})
	}
	return out
}

// relativeSpec reports whether an import names a module relative to the
// importing file, or (JS/TS) by an absolute path.
func relativeSpec(r *imports.Record) bool {
	switch r.Lang {
	case imports.JavaScript, imports.TypeScript:
		return r.Spec == "." || r.Spec == ".." || strings.HasPrefix(r.Spec, "./") || strings.HasPrefix(r.Spec, "../") || strings.HasPrefix(r.Spec, "/")
	case imports.Python:
		return strings.HasPrefix(r.Spec, ".")
	}
	return false
}

// baselineReadError reports a baseline that cannot be read where it was
// named: at vouch.yaml's architecture.baseline, or (for --baseline) on the
// path itself.
func baselineReadError(cfg Config, err error) *yamldoc.Error {
	what := "cannot read the baseline " + cfg.Baseline + ": " + yamldoc.Reason(err)
	if errors.Is(err, fs.ErrNotExist) {
		what += "; record one with vouch lint --update-baseline, or fix the path"
	}
	if cfg.BaselineAt.File != "" {
		return &yamldoc.Error{File: cfg.BaselineAt.File, Pos: cfg.BaselineAt.Pos, Msg: "architecture.baseline: " + what, Err: err}
	}
	return &yamldoc.Error{Msg: "--baseline: " + what, Err: err}
}
