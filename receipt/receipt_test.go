package receipt

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var key = []byte("0123456789abcdef0123456789abcdef")

// setup writes three inputs and a signed receipt in out/, returning the
// receipt's path.
func setup(t *testing.T, sign bool) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"analysis/rulespec.yaml":   "claims: []\n",
		"out/envelope.yaml":        "facts: {a: 1}\n",
		"out/rulespec.compiled.dl": "verdict(0, /pass).\n",
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path = filepath.Join(dir, "out", FileName)
	r, err := New(path, Inputs{
		Rulespec: src(t, filepath.Join(dir, "analysis/rulespec.yaml")),
		Envelope: src(t, filepath.Join(dir, "out/envelope.yaml")),
		Program:  src(t, filepath.Join(dir, "out/rulespec.compiled.dl")), Gate: src(t, filepath.Join(dir, "out/rulespec.compiled.dl")),
		Root: dir,
	}, "test", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	r.Verdict = "pass"
	r.Predicates = []Predicate{{Index: 0, Status: "pass"}}
	if sign {
		if err := r.Sign(key); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Write(path); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func TestRoundTrip(t *testing.T) {
	_, path := setup(t, true)
	r, probs, err := Verify(path, Options{Key: key})
	if err != nil || len(probs) != 0 {
		t.Fatalf("Verify = %v, %v", probs, err)
	}
	if r.Rulespec.Path != "../analysis/rulespec.yaml" || r.Envelope.Path != "envelope.yaml" || r.Created != "2026-01-02T03:04:05Z" {
		t.Errorf("receipt %+v", r)
	}
}

// TestTamper: changing any input or any byte of meaning in the receipt is
// detected.
func TestTamper(t *testing.T) {
	tests := []struct {
		name    string
		tamper  func(t *testing.T, dir, path string)
		subject string
	}{
		{"rulespec edited", appendTo("analysis/rulespec.yaml"), "rulespec"},
		{"envelope edited", appendTo("out/envelope.yaml"), "envelope"},
		{"program edited", appendTo("out/rulespec.compiled.dl"), "program"},
		{"envelope removed", func(t *testing.T, dir, _ string) { os.Remove(filepath.Join(dir, "out/envelope.yaml")) }, "envelope"},
		{"verdict rewritten", replaceIn(`"status": "pass"`, `"status": "fail"`), "mac"},
		{"hash rewritten to match an edited envelope", func(t *testing.T, dir, path string) {
			appendTo("out/envelope.yaml")(t, dir, path)
			sum, err := hashFile(filepath.Join(dir, "out/envelope.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			r.Envelope.SHA256 = sum
			if err := r.Write(path); err != nil {
				t.Fatal(err)
			}
		}, "mac"},
		{"MAC stripped", func(t *testing.T, _, path string) {
			r, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			r.MAC = nil
			if err := r.Write(path); err != nil {
				t.Fatal(err)
			}
		}, "mac"},
		{"created moved", replaceIn(`2026-01-02`, `2026-01-03`), "mac"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, path := setup(t, true)
			tt.tamper(t, dir, path)
			_, probs, err := Verify(path, Options{Key: key})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, p := range probs {
				found = found || p.Subject == tt.subject
			}
			if !found {
				t.Errorf("problems %+v lack one about %s", probs, tt.subject)
			}
		})
	}
}

func TestWrongKeyAndNoKey(t *testing.T) {
	_, path := setup(t, true)
	if _, probs, err := Verify(path, Options{Key: []byte("another key, long enough")}); err != nil || len(probs) != 1 || probs[0].Subject != "mac" {
		t.Errorf("wrong key: %v, %v", probs, err)
	}
	if _, _, err := Verify(path, Options{}); err == nil || !strings.Contains(err.Error(), "signed") {
		t.Errorf("no key: %v", err)
	}
	if _, _, err := Verify(path, Options{Key: []byte("short")}); err == nil {
		t.Error("a short key is accepted")
	}
}

// TestObserved: a pass that relied on observed failures is refused unless
// allowed, whether the receipt says so or only its verdicts show it.
func TestObserved(t *testing.T) {
	for name, edit := range map[string]func(r *Receipt){
		"flagged":          func(r *Receipt) { r.Observed = true },
		"failed predicate": func(r *Receipt) { r.Predicates[0].Status = "fail" },
	} {
		t.Run(name, func(t *testing.T) {
			_, path := setup(t, false)
			r, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			edit(r)
			if err := r.Write(path); err != nil {
				t.Fatal(err)
			}
			_, probs, err := Verify(path, Options{})
			if err != nil || len(probs) != 1 || probs[0].Subject != "observed" {
				t.Errorf("Verify = %+v, %v; want one observed problem", probs, err)
			}
			_, probs, err = Verify(path, Options{AllowObserved: true})
			if err != nil || len(probs) != 0 {
				t.Errorf("AllowObserved: %+v, %v", probs, err)
			}
		})
	}
}

func TestPassedOnObserved(t *testing.T) {
	r := &Receipt{Verdict: "pass", Predicates: []Predicate{{Status: "pass"}}}
	if r.PassedOnObserved() {
		t.Error("a clean pass counts as observed")
	}
	r.Architecture = &Architecture{Verdict: "pass", Observe: true, ObservedFindings: 1}
	if !r.PassedOnObserved() {
		t.Error("observed architecture findings do not count")
	}
}

// TestExpected: a receipt made under another rulespec, envelope or
// vouch.yaml is refused when the caller names the expected ones.
func TestExpected(t *testing.T) {
	dir, path := setup(t, true)
	rs, env := filepath.Join(dir, "analysis/rulespec.yaml"), filepath.Join(dir, "out/envelope.yaml")
	if _, probs, err := Verify(path, Options{Key: key, Rulespec: rs, Envelope: filepath.Join(dir, "out/../out/envelope.yaml"), CheckConfig: true}); err != nil || len(probs) != 0 {
		t.Errorf("the right files: %+v, %v", probs, err)
	}
	_, probs, err := Verify(path, Options{Key: key, Rulespec: filepath.Join(dir, "easy.yaml"), Envelope: env})
	if err != nil || len(probs) != 1 || probs[0].Subject != "rulespec" || !strings.Contains(probs[0].Msg, "easy.yaml") {
		t.Errorf("another rulespec: %+v, %v", probs, err)
	}
	_, probs, err = Verify(path, Options{Key: key, Envelope: filepath.Join(dir, "other.yaml")})
	if err != nil || len(probs) != 1 || probs[0].Subject != "envelope" {
		t.Errorf("another envelope: %+v, %v", probs, err)
	}
	_, probs, err = Verify(path, Options{Key: key, CheckConfig: true, Config: filepath.Join(dir, "vouch.yaml")})
	if err != nil || len(probs) != 1 || probs[0].Subject != "config" {
		t.Errorf("a vouch.yaml the receipt lacks: %+v, %v", probs, err)
	}
}

// TestConfig: vouch.yaml is hashed into the receipt; editing it breaks it.
func TestConfig(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"vouch.yaml", "r.yaml", "e.yaml", "p.dl"} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(p+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := func(p string) string { return filepath.Join(dir, p) }
	path := j(FileName)
	r, err := New(path, Inputs{Rulespec: src(t, j("r.yaml")), Envelope: src(t, j("e.yaml")), Program: src(t, j("p.dl")), Gate: src(t, j("p.dl")), Config: srcp(t, j("vouch.yaml")), Root: dir}, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r.Verdict, r.Predicates = "pass", []Predicate{{Index: 0, Status: "pass"}}
	if err := r.Sign(key); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(path); err != nil {
		t.Fatal(err)
	}
	opts := Options{Key: key, CheckConfig: true, Config: j("vouch.yaml")}
	if _, probs, err := Verify(path, opts); err != nil || len(probs) != 0 || r.Config == nil || r.Config.Path != "vouch.yaml" {
		t.Fatalf("Verify = %+v, %v (config %+v)", probs, err, r.Config)
	}
	if err := os.WriteFile(j("vouch.yaml"), []byte("strict: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, probs, err := Verify(path, opts); err != nil || len(probs) != 1 || probs[0].Subject != "config" {
		t.Errorf("edited vouch.yaml: %+v, %v", probs, err)
	}
	opts.Config = ""
	if _, probs, err := Verify(path, opts); err != nil || len(probs) != 2 {
		t.Errorf("no vouch.yaml applies: %+v, %v", probs, err)
	}
}

// TestRequireSigned: an unsigned receipt fails with a key, and cannot be
// checked without one.
func TestRequireSigned(t *testing.T) {
	_, path := setup(t, false)
	if _, probs, err := Verify(path, Options{}); err != nil || len(probs) != 0 {
		t.Errorf("unsigned, not required: %+v, %v", probs, err)
	}
	if _, _, err := Verify(path, Options{RequireSigned: true}); err == nil || !strings.Contains(err.Error(), "no key") {
		t.Errorf("required, no key: %v", err)
	}
	if _, probs, err := Verify(path, Options{RequireSigned: true, Key: key}); err != nil || len(probs) != 1 || probs[0].Subject != "mac" {
		t.Errorf("required, key: %+v, %v", probs, err)
	}
	_, path = setup(t, true)
	if _, probs, err := Verify(path, Options{RequireSigned: true, Key: key}); err != nil || len(probs) != 0 {
		t.Errorf("signed: %+v, %v", probs, err)
	}
}

func TestMalformed(t *testing.T) {
	for name, text := range map[string]string{
		"not json":      "{",
		"unknown field": `{"format": "vouch-receipt/3", "extra": 1}`,
		"other format":  `{"format": "vouch-receipt/9"}`,
		"trailing data": `{"format": "vouch-receipt/3"} {}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, path := setup(t, false)
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, _, err := Verify(path, Options{}); err == nil {
				t.Error("malformed receipt accepted")
			}
		})
	}
}

func appendTo(rel string) func(t *testing.T, dir, path string) {
	return func(t *testing.T, dir, _ string) {
		f, err := os.OpenFile(filepath.Join(dir, rel), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString("# tampered\n"); err != nil {
			t.Fatal(err)
		}
	}
}

func replaceIn(old, new string) func(t *testing.T, dir, path string) {
	return func(t *testing.T, _, path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(string(b), old, new, 1)
		if s == string(b) {
			t.Fatalf("%q not in the receipt", old)
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeRepo writes files under a fresh directory.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const evidenceRulespec = "claims:\n  - {name: f, selector: f}\npredicates:\n  - {claim: f, rule: file_exists}\n"

// TestEvidence: the root and each file found as evidence are pinned; a
// deleted or edited file, or another root, breaks the receipt.
func TestEvidence(t *testing.T) {
	files := map[string]string{
		"r.yaml": evidenceRulespec, "out/e.yaml": "facts: {f: src/a.go}\n", "out/p.dl": "p.\n", "out/trace.txt": "t\n",
		"src/a.go": "package a\n",
	}
	mk := func(t *testing.T) (dir, path string) {
		dir = writeRepo(t, files)
		j := func(p string) string { return filepath.Join(dir, p) }
		path = j("out/" + FileName)
		r, err := New(path, Inputs{Rulespec: src(t, j("r.yaml")), Envelope: src(t, j("out/e.yaml")), Program: src(t, j("out/p.dl")), Gate: src(t, j("out/p.dl")), Trace: srcp(t, j("out/trace.txt")),
			Root: dir, Evidence: []Source{{"src/a.go", src(t, j("src/a.go")).SHA256}, {"./src/a.go", src(t, j("src/a.go")).SHA256}}}, "test", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if *r.Root != ".." || len(r.Evidence) != 1 || r.Evidence[0].Path != "src/a.go" || r.Trace == nil || r.Trace.Path != "trace.txt" {
			t.Fatalf("receipt %+v", r)
		}
		r.Verdict, r.Predicates = "pass", []Predicate{{Index: 0, Status: "pass"}}
		if err := r.Sign(key); err != nil {
			t.Fatal(err)
		}
		if err := r.Write(path); err != nil {
			t.Fatal(err)
		}
		return dir, path
	}
	one := func(t *testing.T, path string, opts Options, subject, msg string) {
		t.Helper()
		_, probs, err := Verify(path, opts)
		if err != nil || len(probs) != 1 || probs[0].Subject != subject || !strings.Contains(probs[0].Msg, msg) {
			t.Errorf("Verify = %+v, %v; want one %s problem with %q", probs, err, subject, msg)
		}
	}
	dir, path := mk(t)
	if _, probs, err := Verify(path, Options{Key: key, Root: dir}); err != nil || len(probs) != 0 {
		t.Fatalf("Verify = %+v, %v", probs, err)
	}
	if err := os.Remove(filepath.Join(dir, "src/a.go")); err != nil {
		t.Fatal(err)
	}
	one(t, path, Options{Key: key, Root: dir}, "evidence", "src/a.go, cited as evidence, cannot be read")

	dir, path = mk(t)
	appendTo("src/a.go")(t, dir, path)
	one(t, path, Options{Key: key, Root: dir}, "evidence", "src/a.go, cited as evidence, has changed")

	dir, path = mk(t)
	appendTo("out/trace.txt")(t, dir, path)
	one(t, path, Options{Key: key, Root: dir}, "trace", "has changed")

	_, path = mk(t)
	other := writeRepo(t, map[string]string{"src/a.go": "package a\n"})
	// Another root: refused, and the receipt's inputs, outside the root
	// given, are not opened.
	_, probs, err := Verify(path, Options{Key: key, Root: other})
	var subjects []string
	for _, p := range probs {
		subjects = append(subjects, p.Subject)
		if p.Subject == "root" && !strings.Contains(p.Msg, "not "+other) {
			t.Errorf("root problem %q", p.Msg)
		}
		if p.Subject != "root" && !strings.Contains(p.Msg, "is outside the repository root") {
			t.Errorf("problem %q", p.Msg)
		}
	}
	if err != nil || strings.Join(subjects, " ") != "rulespec envelope root" {
		t.Errorf("Verify = %+v, %v", probs, err)
	}
}

// TestOldForm: a receipt without root and evidence holds only when its
// rulespec has no evidence rules.
func TestOldForm(t *testing.T) {
	for _, tt := range []struct {
		rulespec string
		ok       bool
	}{
		{"claims:\n  - {name: f, selector: f}\npredicates:\n  - {claim: f, rule: exists}\n", true},
		{evidenceRulespec, false},
		{"claims:\n  - {name: f, selector: f}\npredicates:\n  - {claim: f, rule: exists, when: {claim: f, rule: no_file_exists}}\n", false},
	} {
		dir := writeRepo(t, map[string]string{"r.yaml": tt.rulespec, "e.yaml": "facts: {f: x}\n", "p.dl": "p.\n"})
		j := func(p string) string { return filepath.Join(dir, p) }
		r, err := New(j(FileName), Inputs{Rulespec: src(t, j("r.yaml")), Envelope: src(t, j("e.yaml")), Program: src(t, j("p.dl")), Gate: src(t, j("p.dl"))}, "test", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		r.Verdict, r.Predicates = "pass", []Predicate{{Index: 0, Status: "pass"}}
		if err := r.Write(j(FileName)); err != nil {
			t.Fatal(err)
		}
		_, probs, err := Verify(j(FileName), Options{Root: dir})
		if err != nil {
			t.Fatal(err)
		}
		if tt.ok && len(probs) != 0 {
			t.Errorf("no evidence rules: %+v", probs)
		}
		if !tt.ok && (len(probs) != 1 || probs[0].Subject != "evidence" || !strings.Contains(probs[0].Msg, "re-run the gate")) {
			t.Errorf("evidence rules: %+v", probs)
		}
	}
}

// TestConfigured: a receipt that skipped the architecture rules, or ran
// with a weaker strict than vouch.yaml sets, is refused.
func TestConfigured(t *testing.T) {
	_, path := setup(t, true)
	subjects := func(opts Options) []string {
		opts.Key = key
		_, probs, err := Verify(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, p := range probs {
			s = append(s, p.Subject+": "+p.Msg)
		}
		return s
	}
	if got := subjects(Options{Architecture: true}); len(got) != 1 || !strings.Contains(got[0], "architecture: ") || !strings.Contains(got[0], "re-run the gate without --no-lint") {
		t.Errorf("architecture: %q", got)
	}
	if got := subjects(Options{Strict: true}); len(got) != 1 || !strings.HasPrefix(got[0], "strict: vouch.yaml sets strict: true") {
		t.Errorf("strict: %q", got)
	}
	if got := subjects(Options{ArchStrict: true}); len(got) != 0 {
		t.Errorf("architecture.strict without an architecture block: %q", got)
	}
	r, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	r.Architecture = &Architecture{Files: []File{}, Verdict: "pass"}
	r.Architecture.Program = r.Program
	r.Architecture.Program.Path = "rulespec.compiled.dl"
	if err := r.Sign(key); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(path); err != nil {
		t.Fatal(err)
	}
	if got := subjects(Options{Architecture: true, ArchStrict: true}); len(got) != 1 || !strings.HasPrefix(got[0], "strict: vouch.yaml sets architecture.strict: true") {
		t.Errorf("architecture.strict: %q", got)
	}
	if got := subjects(Options{Architecture: true}); len(got) != 0 {
		t.Errorf("with an architecture block: %q", got)
	}
}

// TestOlderFormat: a receipt an earlier vouch wrote is refused with a
// message that says so and what to do, not as garbled.
func TestOlderFormat(t *testing.T) {
	_, path := setup(t, false)
	old := `{"format": "vouch-receipt/1", "program": {"path": "p", "sha256": "0"}, "architecture": {"gate_program": {"path": "g", "sha256": "0"}}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Verify(path, Options{})
	if !errors.Is(err, ErrOlderFormat) {
		t.Fatalf("err = %v, want ErrOlderFormat", err)
	}
	for _, want := range []string{"vouch-receipt/1 receipt, written by an older vouch", "checks " + Format, "run 'vouch gate' again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// src hashes a file as the gate would have while parsing it.
func src(t *testing.T, path string) Source {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return Source{Path: path, SHA256: hex.EncodeToString(sum[:])}
}

func srcp(t *testing.T, path string) *Source {
	s := src(t, path)
	return &s
}
