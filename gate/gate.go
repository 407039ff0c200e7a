// Package gate decides whether an agent's work is done: the envelope is
// present and well formed, it passes the rulespec, and (when asked) the
// repository keeps its architecture rules. The decision is the gate
// program's (semantics.dl), evaluated on every run; a pass leaves a receipt
// (verification.json) and any other outcome removes an earlier one.
//
// Run is what `vouch gate` calls; the renderers in render.go print its
// Result in the gate's formats.
package gate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/evidence"
	"github.com/vouch-dev/vouch/internal/hugeheap"
	"github.com/vouch-dev/vouch/internal/safeopen"
	"github.com/vouch-dev/vouch/lint"
	"github.com/vouch-dev/vouch/receipt"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/verify"
)

// Options are a gate run's settings; the zero value reads everything from
// vouch.yaml found from the working directory.
type Options struct {
	// Root is the repository root; "" finds it (vouch.yaml's directory,
	// else the git top level, else the working directory). RootSet says
	// --root was given, so an empty Root is an error.
	Root    string
	RootSet bool
	// Envelope, Rulespec and Out override vouch.yaml's.
	Envelope, Rulespec, Out string
	// KeyFile holds the receipt's MAC key; else KeyEnv (the value of
	// VOUCH_KEY); both empty writes an unsigned receipt.
	KeyFile, KeyEnv string
	// Strict overrides vouch.yaml's strict when not nil.
	Strict *bool
	// Observe reports failures without failing the gate.
	Observe bool
	// Lint and NoLint force the architecture rules on or off; neither
	// follows vouch.yaml's architecture: section.
	Lint, NoLint bool
	// NoCache does not write the import cache either. The gate never
	// reads it: the cache is outside the repository, but the agent whose
	// work is gated may be able to write the user's cache directory and
	// plant entries there.
	NoCache bool
	// Progress, when set, is told how many source files the architecture
	// check has scanned (lint.Config.Progress).
	Progress func(done, total int)
	// Evidence bounds the cited paths and the bytes hashed for the
	// receipt; zero fields mean evidence's defaults.
	Evidence evidence.Limits
	// Version is vouch's version, recorded in the receipt.
	Version string
	// Now is the receipt's creation time; zero is the current time.
	Now time.Time
	// Base is the base revision of repository facts (--base) and BaseFrom
	// where it was given; "" uses vouch.yaml's base:, else the default.
	Base, BaseFrom string
	// AuditSession is the agent's session, whose records claims with
	// from: audit read (--session, else the Stop event's session_id);
	// "" reads every session in the audit log.
	AuditSession string
}

// Outputs are the files a gate (or verify) writes into its artifact
// directory: not part of the work, so repository facts leave them out.
func Outputs(dir string) []string {
	names := []string{verify.ProgramFile, verify.TraceFile, receipt.FileName, lint.ProgramFile, lint.TraceFile, ProgramFile, "lint"}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(dir, n)
	}
	return out
}

// Result is everything a gate run decided, for the renderers.
type Result struct {
	// Verdict is "pass" only when the gate program derived
	// gate_verdict(/pass) and the receipt was written.
	Verdict  string
	Envelope string
	Rulespec string
	Root     string
	Observe  bool
	// Receipt is the written receipt, "" unless the gate passed.
	Receipt string
	Signed  bool
	// PassedOnObserved is set when the pass relied on observed failures;
	// the receipt records it and 'receipt verify' refuses it by default.
	PassedOnObserved bool
	// Missing is set when there is no envelope; Report is nil then.
	Missing bool
	// Claims are the rulespec's claims with their selectors, listed when
	// the envelope is missing so the agent knows which facts to write.
	Claims []string
	// Err is an input or evaluation error; Report is nil then.
	Err    error
	Report *verify.Report
	// Lint is the architecture half, nil when the rules were not evaluated.
	Lint *Lint
	// Program is the written gate program (gate.compiled.dl).
	Program string
	// programSHA256 is the hash of the gate program bytes written.
	programSHA256 string
	// Stale is set when the gate program found the envelope stale; Changed
	// lists the files that changed after it was written.
	Stale   bool
	Changed []string
	// unlock releases the output directory's lock that decide took.
	unlock func()
}

// Lint is the architecture half of a gate run.
type Lint struct {
	// Source names the configuration files read, as vouch lint's header
	// does (architecture.yaml, or the .beadloom/_graph files).
	Source  string
	Strict  bool
	Observe bool
	// Files are the configuration files read, then the baseline.
	Files []string
	// Report is the lint report with the baseline applied; its Errors
	// hold configuration problems when the rules could not be read.
	Report *lint.Report
	// Verdict is the gate program's lint_verdict; Blocking and Observed
	// mark findings (by index) that lint_enforced / lint_observed derived.
	Verdict  string
	Blocking map[int]bool
	Observed map[int]bool
	// BlockingNotices and BlockingStale mark the report's notices and
	// stale baseline entries (by index) that block: under strict, as
	// vouch lint --strict fails on them, unless observed.
	BlockingNotices map[int]bool
	BlockingStale   map[int]bool
}

// Run runs the whole gate. It never passes on an error, and no receipt
// survives a run that does not pass: one from an earlier pass would
// otherwise vouch for work this run rejected. The returned error is
// Result.Err; the Result is always returned so the outcome can be
// rendered.
func Run(ctx context.Context, opts Options) (*Result, error) {
	g := &Result{Verdict: "fail", Observe: opts.Observe}
	path := g.decide(ctx, opts)
	if g.unlock != nil {
		// Removing a stale receipt happens under the same lock as the
		// decision, so it cannot remove a receipt a concurrent pass into
		// the same directory has just written and reported.
		defer g.unlock()
	}
	if g.Verdict == "pass" {
		return g, nil
	}
	g.Receipt = ""
	if path != "" {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			g.Err = errors.Join(g.Err, fmt.Errorf("remove the stale receipt: %w", err))
			g.Report = nil
		}
	}
	return g, g.Err
}

// decide fills g and returns where the receipt goes, so Run can remove a
// stale one on any outcome but a pass.
func (g *Result) decide(ctx context.Context, opts Options) string {
	cfg, err := loadConfig(opts)
	if err != nil {
		g.Err = err
		return fallbackReceipt(opts)
	}
	g.Root = cfg.Root
	g.Envelope = pick(opts.Envelope, cfg.Envelope)
	g.Rulespec = pick(opts.Rulespec, cfg.Rulespec)
	outFlag := pick(opts.Out, cfg.Out)
	dir := outFlag
	if dir == "" {
		dir = filepath.Dir(g.Envelope)
	}
	path := filepath.Join(dir, receipt.FileName)
	if g.unlock, err = lockDir(dir); err != nil {
		g.Err = err
		return ""
	}
	key, err := receipt.LoadKey(opts.KeyFile, opts.KeyEnv)
	if err != nil {
		g.Err = err
		return path
	}
	withLint, err := lintWanted(opts, cfg)
	if err != nil {
		g.Err = err
		return path
	}
	if _, err := os.Stat(g.Envelope); errors.Is(err, fs.ErrNotExist) {
		g.Missing = true
		g.Claims = expectedClaims(g.Rulespec)
		return path
	}
	strict := cfg.Strict
	if opts.Strict != nil {
		strict = *opts.Strict
	}
	base, baseFrom := opts.Base, opts.BaseFrom
	if base == "" {
		base, baseFrom = cfg.BaseRef()
	}
	// One run reads the working tree up to three times (repository
	// facts, staleness, the receipt's work pin): each file is hashed once.
	hashes := &repofacts.Hashes{}
	hugeheap.ForFiles(verify.HeapPerInputByte, g.Envelope, g.Rulespec)
	out, err := verify.Run(verify.Input{
		Hashes:       hashes,
		Base:         base,
		BaseFrom:     baseFrom,
		Outputs:      Outputs(dir),
		OutDir:       verify.EvidenceOutDir(outFlag, cfg.Root),
		RulespecPath: g.Rulespec,
		EnvelopePath: g.Envelope,
		// Paths from vouch.yaml (or the defaults) must lie under the
		// root; only a flag names a file anywhere.
		RulespecExplicit: opts.Rulespec != "",
		EnvelopeExplicit: opts.Envelope != "",
		Limits:           cfg.Limits,
		Strict:           strict,
		Observe:          g.Observe,
		Root:             cfg.Root,
		HashEvidence:     true,
		Evidence:         opts.Evidence,
		AuditSession:     opts.AuditSession,
		RenderProgram:    true,
	})
	if err != nil {
		var ie *verify.InputError
		if errors.As(err, &ie) {
			err = fmt.Errorf("invalid input:\n%w", err)
		}
		g.Err = err
		return path
	}
	if g.expired(ctx) {
		return path
	}
	if withLint {
		g.Lint, err = runLint(ctx, opts, cfg, dir, base, baseFrom)
		if err != nil {
			g.Err = err
			return path
		}
	}
	so := StateOptions{Root: cfg.Root, Base: base, BaseFrom: baseFrom, Hashes: hashes, Envelope: g.Envelope,
		OutDir: verify.EvidenceOutDir(outFlag, cfg.Root), ArtifactDir: dir}
	st, err := checkStale(ctx, so, out.Envelope.Metadata)
	if err != nil {
		g.Err = err
		return path
	}
	d, err := decide(out.Report.Verdict, g.Lint, st)
	if err != nil {
		g.Err = err
		return path
	}
	if d.Verdict == "pass" && key == nil {
		// An unsigned pass never silently replaces a signed receipt:
		// whoever checks it with --require-signed would find it gone.
		// The check comes before the program and trace are rewritten,
		// since the signed receipt pins their hashes: the run is an
		// error and leaves the receipt and what it pins as they were.
		if prev, err := receipt.Read(path); err == nil && prev.MAC != nil {
			g.Err = fmt.Errorf("%s is a signed receipt and this run has no key, so it is not replaced by an unsigned one: "+
				"set VOUCH_KEY (or --key-file) to sign, or delete %s to accept unsigned receipts", path, path)
			return ""
		}
	}
	// Artifacts are written once the verdict is known, failures
	// included: they are how a failure is audited.
	if err := out.WriteArtifacts(dir); err != nil {
		g.Err = err
		return path
	}
	if g.Program, g.programSHA256, err = writeProgram(dir, d.Facts); err != nil {
		g.Err = err
		return path
	}
	if g.Lint != nil {
		g.Lint.Verdict, g.Lint.Blocking, g.Lint.Observed = d.LintVerdict, d.Blocking, d.Observed
		g.Lint.BlockingNotices, g.Lint.BlockingStale = d.BlockingNotices, d.BlockingStale
	}
	if d.Stale {
		g.Stale = true
		g.Changed = append(append([]string{}, st.Changed...), st.Newer...)
	}
	g.Report = out.Report
	if d.Verdict != "pass" {
		return path
	}
	work, err := receiptWork(ctx, so, st)
	if err != nil {
		g.Err = err
		g.Report = nil
		return path
	}
	// The last moment to give up: past the deadline no receipt is written,
	// because the caller has already been told (or will be) that the gate
	// failed closed.
	if g.expired(ctx) {
		return path
	}
	r, err := writeReceipt(path, cfg, out, g, key, opts, work)
	if err != nil {
		g.Err = err
		g.Report = nil
		return path
	}
	g.Receipt = path
	g.Signed = key != nil
	g.PassedOnObserved = r.Observed
	g.Verdict = "pass"
	return path
}

// expired records a failed run when ctx has ended (the --timeout deadline
// passed, or the caller gave up), so a late decision is never a pass.
func (g *Result) expired(ctx context.Context) bool {
	err := ctx.Err()
	if err == nil {
		return false
	}
	g.Err = fmt.Errorf("the gate did not finish before its deadline (--timeout); failing closed, nothing was verified: %w", err)
	g.Report = nil
	return true
}

// runLint evaluates the architecture rules of the repository at cfg.Root
// through lint.Check, the pipeline vouch lint runs, writing their program
// and trace into dir/lint. It decides nothing: the findings are the
// architecture program's, and the gate program decides. The files are
// listed honouring the .gitignore rules of the base repository facts
// compare with (base and baseFrom as they take them), not HEAD's, so
// both list the same files and a rule the work commits hides nothing.
func runLint(ctx context.Context, opts Options, cfg *config.Config, dir, base, baseFrom string) (*Lint, error) {
	a := cfg.Architecture
	askedBy, remedy := "vouch.yaml's architecture: section", "remove the section to turn the check off"
	if a == nil {
		a = &config.Architecture{}
		askedBy, remedy = "--lint", "drop --lint"
	}
	strict := opts.Strict != nil && *opts.Strict
	l := &Lint{Strict: strict || a.Strict, Observe: opts.Observe || a.Observe}
	rep, err := lint.Check(ctx, cfg.Root, lint.Config{
		File: a.Config, Baseline: a.Baseline, BaselineAt: lint.BaselineAt(a), Strict: l.Strict, NoCache: opts.NoCache, Fresh: true,
		Out: filepath.Join(dir, "lint"), RequiredBy: askedBy, Remedy: remedy, Progress: opts.Progress,
		Trusted: repofacts.BaseTree(cfg.Root, base, baseFrom),
	})
	var ce *lint.ConfigErrors
	switch {
	case errors.As(err, &ce):
		l.Report = lint.ErrorReport(ce.List)
		return l, err
	case err != nil:
		return l, fmt.Errorf("architecture rules: %w", err)
	}
	l.Report, l.Source, l.Files = rep, rep.Source, rep.Files
	return l, nil
}

// lintWanted says whether the gate evaluates the architecture rules.
func lintWanted(opts Options, cfg *config.Config) (bool, error) {
	if opts.Lint && opts.NoLint {
		return false, errors.New("--lint and --no-lint contradict each other; give one")
	}
	if opts.NoLint {
		return false, nil
	}
	return opts.Lint || cfg.Architecture != nil, nil
}

func writeReceipt(path string, cfg *config.Config, out *verify.Outcome, g *Result, key []byte, opts Options, work *receipt.Work) (*receipt.Receipt, error) {
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	// Every hash is of the bytes this run parsed or wrote: nothing is
	// read back from disk, where it may have been swapped since the
	// decision.
	ev, err := out.EvidenceFiles()
	if err != nil {
		return nil, err
	}
	arts := out.Report.Artifacts
	in := receipt.Inputs{
		Rulespec: receipt.Source{Path: out.Rulespec.File, SHA256: out.Rulespec.SHA256},
		Envelope: receipt.Source{Path: out.Envelope.File, SHA256: out.Envelope.SHA256},
		Program:  receipt.Source{Path: arts.Program, SHA256: arts.ProgramSHA256},
		Gate:     receipt.Source{Path: g.Program, SHA256: g.programSHA256},
		Trace:    &receipt.Source{Path: arts.Trace, SHA256: arts.TraceSHA256},
		Root:     out.Root,
	}
	for _, e := range ev {
		in.Evidence = append(in.Evidence, receipt.Source{Path: e.Path, SHA256: e.SHA256})
	}
	if cfg.File != "" {
		in.Config = &receipt.Source{Path: cfg.File, SHA256: cfg.SHA256}
	}
	r, err := receipt.New(path, in, opts.Version, now)
	if err != nil {
		return nil, err
	}
	// Only a gate_verdict(/pass) reaches here: both programs passed.
	r.Strict, r.Observe, r.Verdict = out.Strict, out.Observe, "pass"
	r.Work = work
	if out.Repo != nil {
		// The base the repository facts compared the work with: receipt
		// verify refuses it when a gate here would compare with another.
		r.RepoBase = &receipt.RepoBase{Base: out.Repo.Base, Commit: out.Repo.BaseCommit}
	}
	// The engine's checked_nothing: 'receipt verify' refuses the receipt
	// without --allow-unchecked.
	r.CheckedNothing = out.Report.CheckedNothing
	for _, p := range out.Report.Predicates {
		r.Predicates = append(r.Predicates, receipt.Predicate{Index: p.Index, ID: p.ID, Status: string(p.Status), Observed: p.Observed})
	}
	if l := g.Lint; l != nil {
		arts := l.Report.Artifacts
		sums := maps.Clone(l.Report.FileSHA256)
		if sums == nil {
			sums = map[string]string{}
		}
		if arts.ProgramSHA256 != "" {
			sums[arts.Program] = arts.ProgramSHA256
		}
		if arts.TraceSHA256 != "" {
			sums[arts.Trace] = arts.TraceSHA256
		}
		in := receipt.ArchInputs{Files: l.Files, Program: arts.Program, Trace: arts.Trace, SHA256: sums}
		if err := r.AddArchitecture(path, in, l.Strict, l.Observe, l.Verdict); err != nil {
			return nil, err
		}
		r.Architecture.ObservedFindings = len(l.Observed)
	}
	// A pass that relied on observed failures says so, and 'receipt
	// verify' refuses it without --allow-observed.
	r.Observed = r.PassedOnObserved()
	if key != nil {
		if err := r.Sign(key); err != nil {
			return nil, err
		}
	}
	return r, r.Write(path)
}

// loadConfig reads vouch.yaml, found from the working directory or under
// opts.Root.
func loadConfig(opts Options) (*config.Config, error) {
	return config.LoadRoot(opts.Root, opts.RootSet)
}

// fallbackReceipt is where the receipt would be when vouch.yaml cannot be
// loaded: Out, else the directory of Envelope, else what a lenient read of
// vouch.yaml's out and envelope says, else the default. A receipt
// elsewhere still fails 'vouch receipt verify', which hashes vouch.yaml.
func fallbackReceipt(opts Options) string {
	if opts.Out != "" {
		return filepath.Join(opts.Out, receipt.FileName)
	}
	if opts.Envelope != "" {
		return filepath.Join(filepath.Dir(opts.Envelope), receipt.FileName)
	}
	root := opts.Root
	if root == "" {
		var err error
		if root, _, err = config.Discover("."); err != nil {
			return ""
		}
	}
	out, env := lenientConfig(filepath.Join(root, config.FileName))
	switch {
	case out != "":
		return filepath.Join(root, out, receipt.FileName)
	case env != "":
		return filepath.Join(root, filepath.Dir(env), receipt.FileName)
	}
	return filepath.Join(root, filepath.Dir(filepath.FromSlash(config.DefaultEnvelope)), receipt.FileName)
}

// lenientConfig reads out and envelope from a vouch.yaml that did not
// load, ignoring every other problem; paths that leave the root are
// dropped.
func lenientConfig(file string) (out, env string) {
	defer func() { _ = recover() }() // yaml.v3 has panicked on hostile input
	f, err := safeopen.Read(file, safeopen.Options{MaxBytes: config.MaxBytes})
	if err != nil {
		return "", ""
	}
	data := f.Data
	var v struct {
		Out      any `yaml:"out"`
		Envelope any `yaml:"envelope"`
	}
	_ = yaml.Unmarshal(data, &v)
	local := func(x any) string {
		s, ok := x.(string)
		if !ok || s == "" || !filepath.IsLocal(filepath.FromSlash(s)) {
			return ""
		}
		return filepath.FromSlash(s)
	}
	return local(v.Out), local(v.Envelope)
}

func pick(flag, fallback string) string {
	if flag != "" {
		return flag
	}
	return fallback
}

// MissingMessage tells the agent exactly how to produce the missing
// envelope, and which facts the rulespec's claims read.
func (r *Result) MissingMessage() string {
	msg := fmt.Sprintf("no envelope at %s: the work is not done until it has one. Write the facts of what you did "+
		"as YAML under a top-level facts: mapping, then save it with\n  vouch envelope write %s < envelope.yaml\n"+
		"(or write the file directly) and finish again.", r.Envelope, r.Envelope)
	if len(r.Claims) == 0 {
		return msg + " The rulespec's claims name the facts it checks."
	}
	return msg + fmt.Sprintf(" The rulespec %s expects these facts: %s.", r.Rulespec, strings.Join(r.Claims, ", "))
}

// expectedClaims lists the rulespec's claims for the missing-envelope
// message; a rulespec that does not load lists none (the message then
// says only where to look).
func expectedClaims(path string) []string {
	rs, err := rulespec.Load(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range rs.Claims {
		// Claims from the repository or the audit log are read by
		// vouch itself: the agent has nothing to write for them.
		if c.From != "" && c.From != rulespec.FromEnvelope {
			continue
		}
		out = append(out, fmt.Sprintf("%s (facts.%s)", c.Name, c.Selector))
	}
	return out
}
