// Package receipt writes and checks verification.json, the proof a passing
// gate leaves for CI: which vouch, which rulespec, envelope and compiled
// program (by sha256), and the verdicts. With a key it carries an
// HMAC-SHA256 over its canonical form, so neither the receipt nor any of
// the three files can change without Verify noticing.
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
	"strings"
	"time"

	"github.com/vouch-dev/vouch/internal/atomicfile"
)

// FileName is the receipt's name, beside the other artifacts.
const FileName = "verification.json"

// Format names this layout; Verify refuses any other.
const Format = "vouch-receipt/1"

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
	Rulespec   File        `json:"rulespec"`
	Envelope   File        `json:"envelope"`
	Program    File        `json:"program"`
	Strict     bool        `json:"strict"`
	Observe    bool        `json:"observe"`
	Verdict    string      `json:"verdict"`
	Predicates []Predicate `json:"predicates"`
	// Architecture is present when the gate also evaluated the
	// architecture rules.
	Architecture *Architecture `json:"architecture,omitempty"`
	MAC          *MAC          `json:"mac,omitempty"`
}

// Architecture records the architecture rules a gate evaluated: their
// input files (configuration, then the baseline), the architecture program
// and the gate program that combined the two verdicts, by sha256.
type Architecture struct {
	Files   []File `json:"files"`
	Program File   `json:"program"`
	Gate    File   `json:"gate_program"`
	Strict  bool   `json:"strict"`
	Observe bool   `json:"observe"`
	Verdict string `json:"verdict"`
}

// ArchInputs are the architecture files a receipt vouches for, by path as
// the caller sees them.
type ArchInputs struct {
	Files         []string
	Program, Gate string
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
	if a.Gate, err = hash(in.Gate); err != nil {
		return err
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
}

// New hashes the inputs from disk and builds an unsigned receipt for a
// receipt to be written at path.
func New(path string, in Inputs, vouchVersion string, created time.Time) (*Receipt, error) {
	r := &Receipt{Format: Format, Vouch: vouchVersion, Created: created.UTC().Format(time.RFC3339)}
	dir := filepath.Dir(path)
	for _, f := range []struct {
		dst  *File
		path string
	}{{&r.Rulespec, in.Rulespec}, {&r.Envelope, in.Envelope}, {&r.Program, in.Program}} {
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
	return r, nil
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("receipt: encode: %w", err)
	}
	return atomicfile.Write(path, buf.Bytes(), 0o644)
}

// ErrMalformed marks a receipt that cannot be read as one: not JSON,
// unknown fields, another format.
var ErrMalformed = errors.New("malformed receipt")

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
	// Subject is what failed: "rulespec", "envelope", "program",
	// "architecture", "verdict" or "mac".
	Subject string
	Msg     string
}

// Verify checks the receipt at path: each file's sha256 recomputed from
// disk, the verdict, and, when key is not nil, the MAC. It returns the
// receipt and every problem found; an error means it could not check.
func Verify(path string, key []byte) (*Receipt, []Problem, error) {
	r, err := Read(path)
	if err != nil {
		return nil, nil, err
	}
	var probs []Problem
	dir := filepath.Dir(path)
	type named struct {
		name string
		f    File
	}
	files := []named{{"rulespec", r.Rulespec}, {"envelope", r.Envelope}, {"program", r.Program}}
	if a := r.Architecture; a != nil {
		for _, f := range a.Files {
			files = append(files, named{"architecture", f})
		}
		files = append(files, named{"architecture", a.Program}, named{"architecture", a.Gate})
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
	if r.Verdict != "pass" {
		probs = append(probs, Problem{"verdict", fmt.Sprintf("the receipt records verdict %q; only a passing gate writes one", r.Verdict)})
	}
	switch {
	case key == nil && r.MAC != nil:
		return r, probs, errors.New("the receipt is signed; give the key with --key-file or VOUCH_KEY to check it")
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
