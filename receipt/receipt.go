// Package receipt writes and checks verification.json, the proof a passing
// gate leaves for CI: which vouch, which rulespec, envelope and compiled
// program (by sha256), the trace, the repository root and the files cited
// as evidence, and the verdicts. With a key it carries an
// HMAC-SHA256 over its canonical form, so neither the receipt nor any of
// the files it names can change without Verify noticing.
//
// Verify also refuses, unless told otherwise, a receipt whose pass relied
// on observed failures (observe mode reports a failure without failing the
// gate, so such a pass proves nothing about the failing rules), and, given
// the files the caller expects, a receipt made under other ones.
package receipt

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/rulespec"
)

// FileName is the receipt's name, beside the other artifacts.
const FileName = "verification.json"

// Format names this layout; Verify refuses any other. Version 2 records
// the gate program (gate.compiled.dl) at the top level, since every gate
// run now evaluates it; version 1 recorded it only under architecture.
const Format = "vouch-receipt/2"

// olderFormats are layouts earlier vouch versions wrote, named so a user
// meeting one is told to re-run the gate rather than that it is garbled.
var olderFormats = []string{"vouch-receipt/1"}

// MACAlgorithm is the only MAC a receipt carries.
const MACAlgorithm = "hmac-sha256"

// MinKeyBytes is the shortest key accepted: a shorter one makes the MAC
// guessable.
const MinKeyBytes = 16

// maxReceiptBytes bounds what Verify reads; a real receipt is a few KiB.
const maxReceiptBytes = 16 << 20

// Receipt is the content of verification.json. Field order is the
// canonical order the MAC covers.
type Receipt struct {
	Format  string `json:"format"`
	Vouch   string `json:"vouch_version"`
	Created string `json:"created"`
	// Paths are relative to the receipt's directory, with '/', so the
	// receipt still checks out after the tree moves.
	Rulespec File `json:"rulespec"`
	Envelope File `json:"envelope"`
	Program  File `json:"program"`
	// Gate is the gate program that derived the verdict.
	Gate File `json:"gate_program"`
	// Config is vouch.yaml when the gate read one: editing it (out,
	// strict, limits, architecture) invalidates the receipt. Omitted when
	// there was none, so older receipts keep their canonical form.
	Config *File `json:"config,omitempty"`
	// Trace is the evaluation trace (datalog_evaluation.txt) this gate
	// run wrote. Its timing lines differ between runs; the receipt pins
	// the file written by its own run.
	Trace *File `json:"trace,omitempty"`
	// Root is the repository root evidence was checked under, relative
	// to the receipt's directory. Verify refuses a receipt made under
	// another root than the one the gate would use.
	Root *string `json:"root,omitempty"`
	// Evidence holds every file the evidence rules found (cited paths
	// that exist as regular files), by path relative to Root, with its
	// sha256: deleting or editing one breaks the receipt.
	Evidence []File `json:"evidence,omitempty"`
	Strict   bool   `json:"strict"`
	Observe  bool   `json:"observe"`
	Verdict  string `json:"verdict"`
	// Observed is set when the gate passed only because failures were
	// observed (reported, not enforced): Verify refuses such a receipt
	// unless Options.AllowObserved.
	Observed   bool        `json:"observed,omitempty"`
	Predicates []Predicate `json:"predicates"`
	// Architecture is present when the gate also evaluated the
	// architecture rules.
	Architecture *Architecture `json:"architecture,omitempty"`
	MAC          *MAC          `json:"mac,omitempty"`
}

// Architecture records the architecture rules a gate evaluated: their
// input files (configuration, then the baseline), the architecture program
// and its trace, by sha256.
type Architecture struct {
	Files   []File `json:"files"`
	Program File   `json:"program"`
	// Trace is the architecture evaluation trace; absent in receipts
	// written before it was recorded.
	Trace   *File  `json:"trace,omitempty"`
	Strict  bool   `json:"strict"`
	Observe bool   `json:"observe"`
	Verdict string `json:"verdict"`
	// ObservedFindings counts the blocking findings observe mode let
	// through.
	ObservedFindings int `json:"observed_findings,omitempty"`
}

// ArchInputs are the architecture files a receipt vouches for, by path as
// the caller sees them.
type ArchInputs struct {
	Files          []string
	Program, Trace string
}

// AddArchitecture hashes the architecture inputs from disk into the
// receipt to be written at path.
func (r *Receipt) AddArchitecture(path string, in ArchInputs, strict, observe bool, verdict string) error {
	a := &Architecture{Files: []File{}, Strict: strict, Observe: observe, Verdict: verdict}
	dir := filepath.Dir(path)
	hash := func(p string) (File, error) {
		sum, err := hashFile(p)
		if err != nil {
			return File{}, err
		}
		rel, err := relTo(dir, p)
		if err != nil {
			return File{}, err
		}
		return File{Path: rel, SHA256: sum}, nil
	}
	for _, p := range in.Files {
		f, err := hash(p)
		if err != nil {
			return err
		}
		a.Files = append(a.Files, f)
	}
	var err error
	if a.Program, err = hash(in.Program); err != nil {
		return err
	}
	if in.Trace != "" {
		t, err := hash(in.Trace)
		if err != nil {
			return err
		}
		a.Trace = &t
	}
	r.Architecture = a
	return nil
}

// File is one input, by path and content hash.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Predicate is one predicate's verdict as the gate saw it.
type Predicate struct {
	Index    int    `json:"index"`
	ID       string `json:"id,omitempty"`
	Status   string `json:"status"`
	Observed bool   `json:"observed"`
}

// MAC authenticates the canonical receipt.
type MAC struct {
	Algorithm string `json:"algorithm"`
	Value     string `json:"value"`
}

// Inputs are the files a receipt vouches for, by path as the caller sees
// them.
type Inputs struct {
	Rulespec, Envelope, Program string
	// Gate is the gate program (gate.compiled.dl).
	Gate string
	// Config is vouch.yaml, "" when the gate read none.
	Config string
	// Trace is the evaluation trace; "" records none.
	Trace string
	// Root is the repository root evidence was checked under, and
	// Evidence the files found there, relative to Root ('/' or the OS
	// separator). Root "" records neither (a receipt of an older form).
	Root     string
	Evidence []string
}

// New hashes the inputs from disk and builds an unsigned receipt for a
// receipt to be written at path.
func New(path string, in Inputs, vouchVersion string, created time.Time) (*Receipt, error) {
	r := &Receipt{Format: Format, Vouch: vouchVersion, Created: created.UTC().Format(time.RFC3339)}
	dir := filepath.Dir(path)
	for _, f := range []struct {
		dst  *File
		path string
	}{{&r.Rulespec, in.Rulespec}, {&r.Envelope, in.Envelope}, {&r.Program, in.Program}, {&r.Gate, in.Gate}} {
		sum, err := hashFile(f.path)
		if err != nil {
			return nil, err
		}
		rel, err := relTo(dir, f.path)
		if err != nil {
			return nil, err
		}
		*f.dst = File{Path: rel, SHA256: sum}
	}
	if in.Config != "" {
		sum, err := hashFile(in.Config)
		if err != nil {
			return nil, err
		}
		rel, err := relTo(dir, in.Config)
		if err != nil {
			return nil, err
		}
		r.Config = &File{Path: rel, SHA256: sum}
	}
	if in.Trace != "" {
		sum, err := hashFile(in.Trace)
		if err != nil {
			return nil, err
		}
		rel, err := relTo(dir, in.Trace)
		if err != nil {
			return nil, err
		}
		r.Trace = &File{Path: rel, SHA256: sum}
	}
	if in.Root != "" {
		rel, err := relTo(dir, in.Root)
		if err != nil {
			return nil, err
		}
		r.Root = &rel
		root, err := os.OpenRoot(in.Root)
		if err != nil {
			return nil, fmt.Errorf("receipt: %w", err)
		}
		defer root.Close()
		seen := map[string]bool{}
		for _, e := range in.Evidence {
			p := filepath.ToSlash(filepath.Clean(filepath.FromSlash(e)))
			if seen[p] {
				continue
			}
			seen[p] = true
			sum, err := hashIn(root, p)
			if err != nil {
				return nil, err
			}
			r.Evidence = append(r.Evidence, File{Path: p, SHA256: sum})
		}
		slices.SortFunc(r.Evidence, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	}
	return r, nil
}

// hashIn hashes the file at the slash-separated path rel under root,
// never following a symlink out of it.
func hashIn(root *os.Root, rel string) (string, error) {
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return "", fmt.Errorf("receipt: hash %s: %w", rel, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("receipt: hash %s: %w", rel, err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("receipt: hash %s: %w", rel, errors.New("not a regular file"))
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("receipt: hash %s: %w", rel, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// PassedOnObserved reports whether the receipt's pass relied on observed
// failures: it says so, a predicate it records failed, or observe mode let
// architecture findings through. It reads the recorded verdicts too, so an
// unsigned receipt cannot hide them by dropping the flag.
func (r *Receipt) PassedOnObserved() bool {
	if r.Observed {
		return true
	}
	for _, p := range r.Predicates {
		if p.Status == "fail" || p.Observed {
			return true
		}
	}
	if a := r.Architecture; a != nil && (a.ObservedFindings > 0 || a.Verdict != "pass") {
		return true
	}
	return false
}

func relTo(dir, path string) (string, error) {
	ad, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("receipt: %w", err)
	}
	ap, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("receipt: %w", err)
	}
	rel, err := filepath.Rel(ad, ap)
	if err != nil {
		return "", fmt.Errorf("receipt: %s is not reachable from %s: %w", path, dir, err)
	}
	return filepath.ToSlash(rel), nil
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("receipt: hash %s: %w", path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("receipt: hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Canonical is the byte string the MAC covers: the receipt without its
// MAC, as compact JSON in field order. Decoding a receipt and calling
// Canonical gives the same bytes whatever whitespace the file had.
func (r *Receipt) Canonical() ([]byte, error) {
	c := *r
	c.MAC = nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return nil, fmt.Errorf("receipt: encode: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Sign adds the HMAC-SHA256 of the canonical receipt under key.
func (r *Receipt) Sign(key []byte) error {
	mac, err := r.compute(key)
	if err != nil {
		return err
	}
	r.MAC = &MAC{Algorithm: MACAlgorithm, Value: mac}
	return nil
}

func (r *Receipt) compute(key []byte) (string, error) {
	if len(key) < MinKeyBytes {
		return "", fmt.Errorf("receipt: the key is %d bytes; use at least %d random bytes", len(key), MinKeyBytes)
	}
	canon, err := r.Canonical()
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write(canon)
	return hex.EncodeToString(m.Sum(nil)), nil
}

// Write stores the receipt at path atomically, as indented JSON.
func (r *Receipt) Write(path string) error {
	data, err := output.EncodeJSON(r)
	if err != nil {
		return fmt.Errorf("receipt: %w", err)
	}
	return atomicfile.Write(path, data, 0o644)
}

// ErrMalformed marks a receipt that cannot be read as one: not JSON,
// unknown fields, another format.
var ErrMalformed = errors.New("malformed receipt")

// ErrOlderFormat marks a receipt in a layout an earlier vouch wrote: it
// cannot be checked by this one, and the gate must run again.
var ErrOlderFormat = errors.New("older receipt format")

// Read loads a receipt strictly: unknown fields and trailing data are
// refused, so nothing can ride along unauthenticated.
func Read(path string) (*Receipt, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("receipt: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxReceiptBytes+1))
	if err != nil {
		return nil, fmt.Errorf("receipt: read %s: %w", path, err)
	}
	if len(data) > maxReceiptBytes {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrMalformed, path, maxReceiptBytes)
	}
	// The format first: an older layout has fields this one lacks, and
	// its user needs to hear that it is older, not that it is garbled.
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err == nil && slices.Contains(olderFormats, head.Format) {
		return nil, fmt.Errorf("%w: %s is a %s receipt, written by an older vouch; this vouch checks %s receipts: run 'vouch gate' again to write a current one",
			ErrOlderFormat, path, head.Format, Format)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Receipt
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMalformed, path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: %s: data after the receipt object", ErrMalformed, path)
	}
	if r.Format != Format {
		return nil, fmt.Errorf("%w: %s: format %q, want %q", ErrMalformed, path, r.Format, Format)
	}
	return &r, nil
}

// Problem is one way a receipt does not hold.
type Problem struct {
	// Subject is what failed: "rulespec", "envelope", "program", "gate program", "config",
	// "trace", "root", "evidence", "architecture", "strict", "verdict",
	// "observed" or "mac".
	Subject string
	Msg     string
}

// Options say what Verify checks beyond the hashes and the verdict.
type Options struct {
	// Key checks the MAC; nil means no key (a signed receipt is then an
	// error: it cannot be checked).
	Key []byte
	// RequireSigned makes an unsigned receipt a problem.
	RequireSigned bool
	// AllowObserved accepts a pass that relied on observed failures.
	AllowObserved bool
	// Rulespec and Envelope are the files the caller expects the receipt
	// to cover, as paths from the working directory; "" checks nothing.
	Rulespec, Envelope string
	// CheckConfig compares the receipt's vouch.yaml with Config, the one
	// the caller read ("" for none).
	CheckConfig bool
	Config      string
	// Root is the repository root the gate would use here; evidence is
	// rehashed under it, and a receipt recording another root is
	// refused. "" rehashes under the receipt's own root.
	Root string
	// Architecture is set when vouch.yaml has an architecture: section:
	// a receipt without an architecture block is then refused (the
	// rules were skipped, e.g. with --no-lint).
	Architecture bool
	// Strict and ArchStrict are vouch.yaml's strict and
	// architecture.strict: a receipt recording a weaker setting is
	// refused.
	Strict, ArchStrict bool
}

// Verify checks the receipt at path: each file's sha256 recomputed from
// disk, the verdict, whether the pass relied on observed failures, the
// expected files in opts and, when opts.Key is not nil, the MAC. It
// returns the receipt and every problem found; an error means it could
// not check.
func Verify(path string, opts Options) (*Receipt, []Problem, error) {
	r, err := Read(path)
	if err != nil {
		return nil, nil, err
	}
	key := opts.Key
	var probs []Problem
	dir := filepath.Dir(path)
	type named struct {
		name string
		f    File
	}
	files := []named{{"rulespec", r.Rulespec}, {"envelope", r.Envelope}, {"program", r.Program}, {"gate program", r.Gate}}
	if r.Config != nil {
		files = append(files, named{"config", *r.Config})
	}
	if r.Trace != nil {
		files = append(files, named{"trace", *r.Trace})
	}
	if a := r.Architecture; a != nil {
		for _, f := range a.Files {
			files = append(files, named{"architecture", f})
		}
		files = append(files, named{"architecture", a.Program})
		if a.Trace != nil {
			files = append(files, named{"architecture", *a.Trace})
		}
		if a.Verdict != "pass" && !a.Observe {
			probs = append(probs, Problem{"verdict", fmt.Sprintf("the receipt records architecture verdict %q outside observe mode", a.Verdict)})
		}
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.f.Path))
		sum, err := hashFile(p)
		switch {
		case err != nil:
			probs = append(probs, Problem{f.name, fmt.Sprintf("%s cannot be read: %v", p, errors.Unwrap(err))})
		case !hmac.Equal([]byte(sum), []byte(strings.ToLower(f.f.SHA256))):
			probs = append(probs, Problem{f.name, fmt.Sprintf("%s has changed: sha256 %s, the receipt says %s", p, sum, f.f.SHA256)})
		}
	}
	for _, e := range []struct {
		name, want string
		f          File
	}{{"rulespec", opts.Rulespec, r.Rulespec}, {"envelope", opts.Envelope, r.Envelope}} {
		if e.want == "" {
			continue
		}
		got := filepath.Join(dir, filepath.FromSlash(e.f.Path))
		if same, err := samePath(got, e.want); err != nil {
			return r, probs, err
		} else if !same {
			probs = append(probs, Problem{e.name, fmt.Sprintf("the receipt covers the %s %s, not %s: it was made under another %s", e.name, got, e.want, e.name)})
		}
	}
	if opts.CheckConfig {
		switch {
		case r.Config == nil && opts.Config != "":
			probs = append(probs, Problem{"config", fmt.Sprintf("the receipt was made without %s, which exists now", opts.Config)})
		case r.Config != nil:
			got := filepath.Join(dir, filepath.FromSlash(r.Config.Path))
			if opts.Config == "" {
				probs = append(probs, Problem{"config", fmt.Sprintf("the receipt covers %s, but no vouch.yaml applies here", got)})
			} else if same, err := samePath(got, opts.Config); err != nil {
				return r, probs, err
			} else if !same {
				probs = append(probs, Problem{"config", fmt.Sprintf("the receipt covers %s, not %s", got, opts.Config)})
			}
		}
	}
	probs = append(probs, checkEvidence(r, dir, opts.Root)...)
	if opts.Architecture && r.Architecture == nil {
		probs = append(probs, Problem{"architecture", "vouch.yaml has an architecture: section, but the receipt records no architecture block: the architecture rules were not run (vouch gate --no-lint?); re-run the gate without --no-lint"})
	}
	if opts.Strict && !r.Strict {
		probs = append(probs, Problem{"strict", "vouch.yaml sets strict: true, but the gate ran with strict off (--strict=false?); re-run the gate without weakening strict"})
	}
	if a := r.Architecture; opts.ArchStrict && a != nil && !a.Strict {
		probs = append(probs, Problem{"strict", "vouch.yaml sets architecture.strict: true, but the architecture rules ran with strict off; re-run the gate without weakening strict"})
	}
	if r.Verdict != "pass" {
		probs = append(probs, Problem{"verdict", fmt.Sprintf("the receipt records verdict %q; only a passing gate writes one", r.Verdict)})
	} else if !opts.AllowObserved && r.PassedOnObserved() {
		probs = append(probs, Problem{"observed", "the gate passed only because failures were observed (reported, not enforced), so the receipt does not show the rules hold; accept it with --allow-observed"})
	}
	switch {
	case key == nil && r.MAC != nil:
		return r, probs, errors.New("the receipt is signed; give the key with --key-file or VOUCH_KEY to check it")
	case key == nil && opts.RequireSigned:
		// Unsigned, and nothing to check a signature with: a CI job
		// without its secret (a fork's pull request) must not pass.
		return r, probs, errors.New("a signed receipt is required, but there is no key to check it with (this receipt is unsigned); give the key with --key-file or VOUCH_KEY")
	case key != nil && r.MAC == nil:
		probs = append(probs, Problem{"mac", "the receipt carries no MAC, but a key was given: it was written without the key, or the MAC was stripped"})
	case key != nil:
		want, err := r.compute(key)
		if err != nil {
			return r, probs, err
		}
		if r.MAC.Algorithm != MACAlgorithm || !hmac.Equal([]byte(want), []byte(r.MAC.Value)) {
			probs = append(probs, Problem{"mac", "the MAC does not match: the receipt was altered or signed with another key"})
		}
	}
	return r, probs, nil
}

// samePath compares two paths as cleaned absolute paths.
func samePath(a, b string) (bool, error) {
	aa, err := filepath.Abs(a)
	if err != nil {
		return false, fmt.Errorf("receipt: %w", err)
	}
	ab, err := filepath.Abs(b)
	if err != nil {
		return false, fmt.Errorf("receipt: %w", err)
	}
	return aa == ab, nil
}

// checkEvidence rehashes the files the evidence rules found, under the
// configured root (else the receipt's), and refuses a receipt made under
// another root. A receipt of the older form, without a root, holds only
// when its rulespec has no evidence rules.
func checkEvidence(r *Receipt, dir, want string) []Problem {
	if r.Root == nil {
		rs := filepath.Join(dir, filepath.FromSlash(r.Rulespec.Path))
		has, err := evidenceRules(rs)
		switch {
		case err != nil:
			return []Problem{{"evidence", fmt.Sprintf("the receipt records no repository root or cited files, and the rulespec %s cannot be read to tell whether it has evidence rules (%v); re-run the gate", rs, err)}}
		case has:
			return []Problem{{"evidence", fmt.Sprintf("the receipt records neither the repository root nor the files cited as evidence, but the rulespec %s has evidence rules (file_exists, no_file_exists); re-run the gate to write a receipt that covers them", rs)}}
		}
		return nil
	}
	recorded := filepath.Join(dir, filepath.FromSlash(*r.Root))
	root := recorded
	if want != "" {
		same, err := samePath(recorded, want)
		if err != nil {
			return []Problem{{"root", err.Error()}}
		}
		if !same {
			return []Problem{{"root", fmt.Sprintf("the receipt was made under the repository root %s, not %s (the root here): re-run the gate here", recorded, want)}}
		}
		root = want
	}
	if len(r.Evidence) == 0 {
		return nil
	}
	or, err := os.OpenRoot(root)
	if err != nil {
		return []Problem{{"root", fmt.Sprintf("the repository root %s cannot be opened: %v", root, errors.Unwrap(err))}}
	}
	defer or.Close()
	var probs []Problem
	for _, f := range r.Evidence {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if !filepath.IsLocal(filepath.FromSlash(f.Path)) {
			probs = append(probs, Problem{"evidence", fmt.Sprintf("%s is not inside the repository root", f.Path)})
			continue
		}
		sum, err := hashIn(or, f.Path)
		switch {
		case err != nil:
			probs = append(probs, Problem{"evidence", fmt.Sprintf("%s, cited as evidence, cannot be read: %v", p, errors.Unwrap(err))})
		case !hmac.Equal([]byte(sum), []byte(strings.ToLower(f.SHA256))):
			probs = append(probs, Problem{"evidence", fmt.Sprintf("%s, cited as evidence, has changed: sha256 %s, the receipt says %s", p, sum, f.SHA256)})
		}
	}
	return probs
}

// evidenceRules reports whether the rulespec at path has a file_exists or
// no_file_exists check, in a predicate or its when: condition.
func evidenceRules(path string) (bool, error) {
	rs, err := rulespec.Load(path)
	if err != nil {
		return false, err
	}
	for _, p := range rs.Predicates {
		if p.Rule.Evidence() || (p.When != nil && p.When.Rule.Evidence()) {
			return true, nil
		}
	}
	return false, nil
}
