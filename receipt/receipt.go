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
	"github.com/vouch-dev/vouch/internal/safeopen"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/rulespec"
)

// FileName is the receipt's name, beside the other artifacts.
const FileName = "verification.json"

// Format names this layout; Verify refuses any other. Version 3 records
// the base commit the repository facts compared the work with
// (repo_base), so a gate given a weaker --base is caught; version 2
// recorded the gate program (gate.compiled.dl) at the top level; version
// 1 recorded it only under architecture.
const Format = "vouch-receipt/3"

// olderFormats are layouts earlier vouch versions wrote, named so a user
// meeting one is told to re-run the gate rather than that it is garbled.
var olderFormats = []string{"vouch-receipt/1", "vouch-receipt/2"}

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
	Observed bool `json:"observed,omitempty"`
	// CheckedNothing is set when the gate decided no predicate: every
	// one was skipped (a when: over a claim the envelope left out).
	// Verify refuses such a receipt unless Options.AllowUnchecked.
	CheckedNothing bool        `json:"checked_nothing,omitempty"`
	Predicates     []Predicate `json:"predicates"`
	// Architecture is present when the gate also evaluated the
	// architecture rules.
	Architecture *Architecture `json:"architecture,omitempty"`
	// Work pins the state of the work the gate passed: the base commit
	// and the digest of every changed file's content. Verify recomputes
	// it, so the receipt fails once the code changes. Absent outside a
	// git work tree.
	Work *Work `json:"work,omitempty"`
	// RepoBase is the base the repository document (claims with from:
	// repo) compared the work with; absent when no claim read it.
	// Verify refuses it when the base the gate would use here resolves
	// to another commit: a gate run with --base HEAD after committing
	// the work sees no changes at all.
	RepoBase *RepoBase `json:"repo_base,omitempty"`
	MAC      *MAC      `json:"mac,omitempty"`
}

// RepoBase is the base of a gate's repository facts.
type RepoBase struct {
	// Base is the base as given (--base main, base: in vouch.yaml) or
	// as found (merge-base HEAD refs/remotes/origin/main, HEAD).
	Base string `json:"base"`
	// Commit is the commit id it resolved to.
	Commit string `json:"commit"`
}

// Work is the state of the work a receipt pins.
type Work struct {
	Base   string `json:"base"`
	Digest string `json:"digest"`
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
	// SHA256 gives, by path, the hash of the bytes the caller parsed or
	// wrote. A path listed here is never re-read: what was evaluated is what
	// the receipt vouches for, even if the file changed since.
	SHA256 map[string]string
}

// AddArchitecture records the architecture inputs into the receipt to be
// written at path, from in.SHA256 where the caller knows the bytes, else
// from disk.
func (r *Receipt) AddArchitecture(path string, in ArchInputs, strict, observe bool, verdict string) error {
	a := &Architecture{Files: []File{}, Strict: strict, Observe: observe, Verdict: verdict}
	dir := filepath.Dir(path)
	hash := func(p string) (File, error) {
		sum, ok := in.SHA256[p]
		if !ok {
			var err error
			if sum, err = hashFile(p); err != nil {
				return File{}, err
			}
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

// Source is one file a receipt vouches for: the path the caller used and
// the sha256 of the exact bytes vouch parsed or wrote. Taking the hash
// from the caller, never from disk, is what ties the receipt to what was
// evaluated: a file swapped during the run cannot be hashed in its place.
type Source struct {
	Path, SHA256 string
}

// Inputs are the files a receipt vouches for.
type Inputs struct {
	Rulespec, Envelope, Program Source
	// Gate is the gate program (gate.compiled.dl), as written.
	Gate Source
	// Config is vouch.yaml, nil when the gate read none.
	Config *Source
	// Trace is the evaluation trace; nil records none.
	Trace *Source
	// Root is the repository root evidence was checked under, and
	// Evidence the files found there, by path relative to Root ('/' or
	// the OS separator) with the sha256 read while they were checked.
	// Root "" records neither (a receipt of an older form).
	Root     string
	Evidence []Source
}

// New builds an unsigned receipt, to be written at path, from the hashes
// the caller computed. It reads nothing from disk.
func New(path string, in Inputs, vouchVersion string, created time.Time) (*Receipt, error) {
	r := &Receipt{Format: Format, Vouch: vouchVersion, Created: created.UTC().Format(time.RFC3339)}
	dir := filepath.Dir(path)
	file := func(src Source) (File, error) {
		if len(src.SHA256) != sha256.Size*2 {
			return File{}, fmt.Errorf("receipt: %s has no sha256 of the bytes read", src.Path)
		}
		rel, err := relTo(dir, src.Path)
		if err != nil {
			return File{}, err
		}
		return File{Path: rel, SHA256: src.SHA256}, nil
	}
	var err error
	for _, f := range []struct {
		dst *File
		src Source
	}{{&r.Rulespec, in.Rulespec}, {&r.Envelope, in.Envelope}, {&r.Program, in.Program}, {&r.Gate, in.Gate}} {
		if *f.dst, err = file(f.src); err != nil {
			return nil, err
		}
	}
	if in.Config != nil {
		f, err := file(*in.Config)
		if err != nil {
			return nil, err
		}
		r.Config = &f
	}
	if in.Trace != nil {
		f, err := file(*in.Trace)
		if err != nil {
			return nil, err
		}
		r.Trace = &f
	}
	if in.Root != "" {
		rel, err := relTo(dir, in.Root)
		if err != nil {
			return nil, err
		}
		r.Root = &rel
		seen := map[string]bool{}
		for _, e := range in.Evidence {
			p := filepath.ToSlash(filepath.Clean(filepath.FromSlash(e.Path)))
			if seen[p] {
				continue
			}
			seen[p] = true
			if len(e.SHA256) != sha256.Size*2 {
				return nil, fmt.Errorf("receipt: evidence %s has no sha256 of the bytes read", p)
			}
			r.Evidence = append(r.Evidence, File{Path: p, SHA256: e.SHA256})
		}
		slices.SortFunc(r.Evidence, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	}
	return r, nil
}

// hashIn hashes the file at the slash-separated path rel under root,
// never following a symlink out of it, never blocking on a named pipe,
// and reading at most max bytes (0: no cap).
func hashIn(root *os.Root, rel string, max int64) (string, int64, error) {
	f, st, err := safeopen.OpenIn(root, filepath.FromSlash(rel))
	if err != nil {
		return "", 0, fmt.Errorf("receipt: hash %s: %w", rel, errors.Unwrap(err))
	}
	defer f.Close()
	if max > 0 && st.Size() > max {
		return "", 0, fmt.Errorf("receipt: hash %s: %w", rel, fmt.Errorf("%d bytes, more than the limit of %d; raise it with --max-evidence-bytes", st.Size(), max))
	}
	h := sha256.New()
	var src io.Reader = f
	if max > 0 {
		src = io.LimitReader(f, max+1)
	}
	n, err := io.Copy(h, src)
	if err != nil {
		return "", 0, fmt.Errorf("receipt: hash %s: %w", rel, err)
	}
	if max > 0 && n > max {
		return "", 0, fmt.Errorf("receipt: hash %s: %w", rel, fmt.Errorf("more than the limit of %d bytes", max))
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
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

// Unchecked reports whether the gate decided no predicate: the receipt
// says so, or no recorded predicate passed or failed. Reading the
// verdicts too means an unsigned receipt cannot hide it by dropping the
// flag.
func (r *Receipt) Unchecked() bool {
	if r.CheckedNothing {
		return true
	}
	for _, p := range r.Predicates {
		if p.Status == "pass" || p.Status == "fail" {
			return false
		}
	}
	return true
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

// hashFile hashes a file the caller named, without blocking on a named
// pipe and up to maxFileBytes.
func hashFile(path string) (string, error) {
	f, st, err := safeopen.Open(path, safeopen.Options{})
	if err != nil {
		return "", fmt.Errorf("receipt: hash %s: %w", path, errors.Unwrap(err))
	}
	defer f.Close()
	if st.Size() > maxFileBytes {
		return "", fmt.Errorf("receipt: hash %s: %w", path, fmt.Errorf("larger than %d bytes", maxFileBytes))
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxFileBytes)); err != nil {
		return "", fmt.Errorf("receipt: hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// maxFileBytes bounds each of vouch's own files a receipt names (the
// inputs and artifacts); evidence has its own budget.
const maxFileBytes = 1 << 30

// Canonical is the byte string the MAC covers: the receipt without its
// MAC, exactly as Write puts it in the file. Read accepts only a file
// that is byte for byte what Write produces, so the MAC covers the exact
// bytes on disk: no duplicate, differently cased or escaped key, and no
// reformatting, can change what a reader sees while the MAC still holds.
func (r *Receipt) Canonical() ([]byte, error) {
	c := *r
	c.MAC = nil
	return c.encode()
}

func (r *Receipt) encode() ([]byte, error) {
	data, err := output.EncodeJSON(r)
	if err != nil {
		return nil, fmt.Errorf("receipt: %w", err)
	}
	return data, nil
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
	data, err := r.encode()
	if err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o644)
}

// ErrMalformed marks a receipt that cannot be read as one: not JSON,
// unknown, duplicate or case-variant fields, not in the form vouch
// writes, another format.
var ErrMalformed = errors.New("malformed receipt")

// ErrOlderFormat marks a receipt in a layout an earlier vouch wrote: it
// cannot be checked by this one, and the gate must run again.
var ErrOlderFormat = errors.New("older receipt format")

// Read loads a receipt strictly: unknown fields, duplicate keys, keys
// that differ only in letter case (Go's decoder would merge them), and
// trailing data are refused, and the file must be exactly what Write
// produces, so nothing can ride along unauthenticated.
func Read(path string) (*Receipt, error) {
	f, err := safeopen.Read(path, safeopen.Options{MaxBytes: maxReceiptBytes})
	switch {
	case errors.Is(err, safeopen.ErrTooLarge):
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrMalformed, path, maxReceiptBytes)
	case errors.Is(err, safeopen.ErrNotRegular):
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	case err != nil:
		return nil, fmt.Errorf("receipt: %w", err)
	}
	data := f.Data
	// The format first: an older layout has fields this one lacks, and
	// its user needs to hear that it is older, not that it is garbled.
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err == nil && slices.Contains(olderFormats, head.Format) {
		return nil, fmt.Errorf("%w: %s is a %s receipt, written by an older vouch; this vouch checks %s receipts: run 'vouch gate' again to write a current one",
			ErrOlderFormat, path, head.Format, Format)
	}
	if err := checkKeys(data); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMalformed, path, err)
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
	again, err := r.encode()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(again, data) {
		return nil, fmt.Errorf("%w: %s is not byte for byte what vouch writes (escaped keys or values, reordered or reformatted); re-run the gate instead of editing the receipt", ErrMalformed, path)
	}
	return &r, nil
}

// checkKeys walks the JSON and refuses an object with a key twice, or two
// keys that differ only in letter case: encoding/json matches field names
// case-insensitively and keeps the last, so {"Strict": true, "strict":
// false} would read as whichever came last.
func checkKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj   bool
		key   bool // the next token in an object is a key
		names map[string]string
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.key {
			if k, ok := tok.(string); ok {
				low := strings.ToLower(k)
				if prev, dup := top.names[low]; dup {
					if prev == k {
						return fmt.Errorf("duplicate key %q", k)
					}
					return fmt.Errorf("keys %q and %q differ only in letter case", prev, k)
				}
				top.names[low] = k
				top.key = false
				continue
			}
		}
		if top != nil && top.obj && !top.key {
			top.key = true // this token is the value
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, key: true, names: map[string]string{}})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].obj {
				stack[len(stack)-1].key = true
			}
		}
	}
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
	// AllowUnchecked accepts a receipt whose gate decided no predicate
	// (every one was skipped): it checked nothing.
	AllowUnchecked bool
	// MaxEvidenceBytes caps the bytes read to rehash evidence; zero
	// means DefaultMaxEvidenceBytes.
	MaxEvidenceBytes int64
	// WorkDigest recomputes the digest of the work against base, for the
	// envelope at envelope and artifacts in dir (gate.WorkState). A
	// receipt pinning the work is refused when it is nil or the digest
	// differs.
	WorkDigest func(base, envelope, dir string) (string, error)
	// WorkTree reports whether the root is inside a git work tree here;
	// nil means it is not. A receipt that pins no state of the work is
	// then refused: the gate could not read git when it ran, so nothing
	// binds the receipt to the code. It is asked only about such a
	// receipt.
	WorkTree func() bool
	// RepoBase resolves the base a gate here would compare the work with
	// (--base given to the verifier, else base: in vouch.yaml, else the
	// default) to a commit id. A receipt recording repository facts is
	// refused when it is nil or the commit differs.
	RepoBase func() (string, error)
}

// DefaultMaxEvidenceBytes is the evidence rehashing budget, the gate's
// default (evidence.DefaultMaxHashBytes).
const DefaultMaxEvidenceBytes = 256 << 20

// hashUnder hashes p (a path from the working directory) if it lies under
// root, opened through an os.Root.
func hashUnder(root, p string) (string, error) {
	f, st, err := safeopen.Open(p, safeopen.Options{Root: root})
	if err != nil {
		return "", fmt.Errorf("receipt: hash %s: %w", p, errors.Unwrap(err))
	}
	defer f.Close()
	if st.Size() > maxFileBytes {
		return "", fmt.Errorf("receipt: hash %s: %w", p, fmt.Errorf("larger than %d bytes", maxFileBytes))
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxFileBytes)); err != nil {
		return "", fmt.Errorf("receipt: hash %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashInDir hashes the artifact at the slash-separated local path rel in
// the receipt's directory.
func hashInDir(dir, rel string) (string, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("receipt: %w", err)
	}
	defer r.Close()
	sum, _, err := hashIn(r, rel, maxFileBytes)
	return sum, err
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
	// Every path comes from configuration or is confined: the rulespec,
	// envelope and vouch.yaml the caller expects (opts), else the
	// receipt's, under the repository root; the artifacts inside the
	// receipt's own directory. A path outside is refused, never opened,
	// so an unsigned receipt cannot make vouch read or hash any file.
	root := opts.Root
	if root == "" {
		root = dir
		if r.Root != nil {
			root = filepath.Join(dir, filepath.FromSlash(*r.Root))
		}
	}
	type named struct {
		name string
		f    File
		// want is the path configuration names for the file, "" for
		// the receipt's own.
		want string
		// inDir: an artifact, which must lie in the receipt's
		// directory; else the file must lie under root.
		inDir bool
	}
	cfgPath := ""
	if opts.CheckConfig {
		cfgPath = opts.Config
	}
	files := []named{{"rulespec", r.Rulespec, opts.Rulespec, false}, {"envelope", r.Envelope, opts.Envelope, false}, {"program", r.Program, "", true}, {"gate program", r.Gate, "", true}}
	if r.Config != nil {
		files = append(files, named{"config", *r.Config, cfgPath, false})
	}
	if r.Trace != nil {
		files = append(files, named{"trace", *r.Trace, "", true})
	}
	if a := r.Architecture; a != nil {
		for _, f := range a.Files {
			files = append(files, named{"architecture", f, "", false})
		}
		files = append(files, named{"architecture", a.Program, "", true})
		if a.Trace != nil {
			files = append(files, named{"architecture", *a.Trace, "", true})
		}
		if a.Verdict != "pass" && !a.Observe {
			probs = append(probs, Problem{"verdict", fmt.Sprintf("the receipt records architecture verdict %q outside observe mode", a.Verdict)})
		}
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.f.Path))
		var sum string
		var err error
		switch {
		case f.inDir && !filepath.IsLocal(filepath.FromSlash(f.f.Path)):
			probs = append(probs, Problem{f.name, fmt.Sprintf("the receipt names %s, outside its own directory %s, where the gate writes its artifacts; refused", f.f.Path, dir)})
			continue
		case f.inDir:
			sum, err = hashInDir(dir, f.f.Path)
		default:
			// A receipt for another file than configuration names is
			// reported below; the file it names is not opened.
			if f.want != "" {
				if same, err := samePath(p, f.want); err != nil || !same {
					continue
				}
				p = f.want
			}
			sum, err = hashUnder(root, p)
			if errors.Is(err, safeopen.ErrOutsideRoot) {
				probs = append(probs, Problem{f.name, fmt.Sprintf("%s is outside the repository root %s; refused", p, root)})
				continue
			}
		}
		switch {
		case err != nil:
			probs = append(probs, Problem{f.name, fmt.Sprintf("%s cannot be read: %v", p, errors.Unwrap(err))})
		case !hmac.Equal([]byte(sum), []byte(strings.ToLower(f.f.SHA256))):
			// The new sha256 is not printed: it would tell whoever
			// wrote the receipt the hash of a file they may not read.
			probs = append(probs, Problem{f.name, fmt.Sprintf("%s has changed since the gate: its sha256 differs from the receipt's", p)})
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
	probs = append(probs, checkEvidence(r, dir, opts.Root, opts.MaxEvidenceBytes)...)
	if r.Work != nil {
		switch {
		case opts.WorkDigest == nil:
			probs = append(probs, Problem{"work", "the receipt pins the state of the work, and nothing here can recompute it"})
		default:
			got, err := opts.WorkDigest(r.Work.Base, filepath.Join(dir, filepath.FromSlash(r.Envelope.Path)), dir)
			switch {
			case err != nil:
				probs = append(probs, Problem{"work", fmt.Sprintf("the state of the work cannot be recomputed: %v", err)})
			case got != r.Work.Digest:
				probs = append(probs, Problem{"work", fmt.Sprintf("the work changed after the gate passed (files differ from base %.12s); run the gate again", r.Work.Base)})
			}
		}
	}
	if r.Work == nil && opts.WorkTree != nil && opts.WorkTree() {
		probs = append(probs, Problem{"work", "the receipt pins no state of the work, but the root is inside a git work tree: the gate could not read the repository when it ran, so nothing binds the receipt to the code; fix git and run the gate again"})
	}
	if rb := r.RepoBase; rb != nil {
		switch {
		case opts.RepoBase == nil:
			probs = append(probs, Problem{"repo_base", "the receipt records the base of its repository facts, and nothing here can resolve the base to compare it with"})
		default:
			got, err := opts.RepoBase()
			switch {
			case err != nil:
				probs = append(probs, Problem{"repo_base", fmt.Sprintf("the base of the repository facts cannot be resolved here: %v", err)})
			case got != rb.Commit:
				probs = append(probs, Problem{"repo_base", fmt.Sprintf("the gate compared the work with %s (commit %.12s), but a gate here compares it with commit %.12s; run the gate again without --base, or give receipt verify the same --base", rb.Base, rb.Commit, got)})
			}
		}
	}
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
	if !opts.AllowUnchecked && r.Unchecked() {
		probs = append(probs, Problem{"unchecked", "the gate decided no predicate (every one was skipped), so the receipt shows nothing was checked; make the envelope state the claims the when: conditions read, or accept it with --allow-unchecked"})
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
func checkEvidence(r *Receipt, dir, want string, budget int64) []Problem {
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
	if budget <= 0 {
		budget = DefaultMaxEvidenceBytes
	}
	var used int64
	var probs []Problem
	for _, f := range r.Evidence {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if !filepath.IsLocal(filepath.FromSlash(f.Path)) {
			probs = append(probs, Problem{"evidence", fmt.Sprintf("%s is not inside the repository root", f.Path)})
			continue
		}
		if budget-used <= 0 {
			probs = append(probs, Problem{"evidence", fmt.Sprintf("%s, cited as evidence, was not rehashed: the files before it used up the limit of %d bytes; raise it with --max-evidence-bytes", p, budget)})
			continue
		}
		sum, n, err := hashIn(or, f.Path, budget-used)
		used += n
		switch {
		case err != nil:
			probs = append(probs, Problem{"evidence", fmt.Sprintf("%s, cited as evidence, cannot be read: %v", p, errors.Unwrap(err))})
		case !hmac.Equal([]byte(sum), []byte(strings.ToLower(f.SHA256))):
			probs = append(probs, Problem{"evidence", fmt.Sprintf("%s, cited as evidence, has changed since the gate: its sha256 differs from the receipt's", p)})
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
