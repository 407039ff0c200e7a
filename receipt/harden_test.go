package receipt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadRefusesKeyTricks: a signed receipt edited so that a decoder
// reads other values than the MAC'd ones (a duplicate key, a key in other
// letter case, an escaped key) is refused as malformed before any MAC is
// trusted.
func TestReadRefusesKeyTricks(t *testing.T) {
	tests := []struct {
		name string
		edit func(string) string
		want string
	}{
		{"duplicate key", func(s string) string {
			return strings.Replace(s, `"strict": false,`, `"strict": true, "strict": false,`, 1)
		}, `duplicate key "strict"`},
		{"case variant before", func(s string) string {
			return strings.Replace(s, `"strict": false,`, `"Strict": true, "strict": false,`, 1)
		}, `keys "Strict" and "strict" differ only in letter case`},
		{"case variant alone", func(s string) string {
			return strings.Replace(s, `"strict": false,`, `"STRICT": false,`, 1)
		}, "not byte for byte"},
		{"escaped key", func(s string) string {
			return strings.Replace(s, `"strict": false,`, `"str\u0069ct": false,`, 1)
		}, "not byte for byte"},
		{"escaped value", func(s string) string {
			return strings.Replace(s, `"verdict": "pass"`, `"verdict": "p\u0061ss"`, 1)
		}, "not byte for byte"},
		{"reformatted", func(s string) string { return strings.ReplaceAll(s, "\n  ", "\n   ") }, "not byte for byte"},
		{"nested duplicate", func(s string) string {
			return strings.Replace(s, `"status": "pass",`, `"status": "fail", "status": "pass",`, 1)
		}, `duplicate key "status"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, path := setup(t, true)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			edited := tt.edit(string(data))
			if edited == string(data) {
				t.Fatal("the edit changed nothing")
			}
			if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err = Verify(path, Options{Key: key})
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Verify: %v, want ErrMalformed with %q", err, tt.want)
			}
		})
	}
}

// TestMACCoversWrittenBytes: the MAC is over exactly the bytes of the
// receipt without its mac member, as written.
func TestMACCoversWrittenBytes(t *testing.T) {
	_, path := setup(t, false)
	unsigned, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := r.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	if string(canon) != string(unsigned) {
		t.Fatalf("Canonical differs from the written bytes:\n%s\n---\n%s", canon, unsigned)
	}
}

// TestVerifyConfinesPaths: an unsigned receipt naming files outside the
// repository root, or artifacts outside its own directory, is refused
// without opening them, and no hash of them is printed.
func TestVerifyConfinesPaths(t *testing.T) {
	dir, path := setup(t, false)
	secret := filepath.Join(filepath.Dir(dir), "secret.txt")
	if err := os.WriteFile(secret, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(secret)
	r, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	r.Rulespec.Path = "../../secret.txt"
	r.Program.Path = "../../secret.txt"
	if err := r.Write(path); err != nil {
		t.Fatal(err)
	}
	_, probs, err := Verify(path, Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range probs {
		got[p.Subject] = p.Msg
		if strings.Contains(p.Msg, "sha256 ") {
			t.Errorf("a problem prints a hash: %s", p.Msg)
		}
	}
	if !strings.Contains(got["rulespec"], "is outside the repository root") || !strings.Contains(got["program"], "outside its own directory") {
		t.Fatalf("problems %+v", probs)
	}
}

// TestUnchecked: a receipt whose gate decided no predicate is refused
// unless allowed, whether it says so or only its verdicts show it.
func TestUnchecked(t *testing.T) {
	for _, flag := range []bool{true, false} {
		_, path := setup(t, false)
		r, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		r.CheckedNothing = flag
		r.Predicates = []Predicate{{Index: 0, Status: "skipped"}}
		if err := r.Write(path); err != nil {
			t.Fatal(err)
		}
		_, probs, err := Verify(path, Options{})
		if err != nil || len(probs) != 1 || probs[0].Subject != "unchecked" {
			t.Errorf("flag %v: Verify = %+v, %v", flag, probs, err)
		}
		if _, probs, err := Verify(path, Options{AllowUnchecked: true}); err != nil || len(probs) != 0 {
			t.Errorf("flag %v: allowed: %+v, %v", flag, probs, err)
		}
	}
}

// TestNewReadsNothing: New records the hashes of the bytes the gate
// parsed and wrote; it never reads the files again, so one swapped on
// disk after the decision cannot be hashed in its place.
func TestNewReadsNothing(t *testing.T) {
	dir := t.TempDir()
	sum := strings.Repeat("ab", 32)
	j := func(p string) string { return filepath.Join(dir, p) }
	r, err := New(j("out/"+FileName), Inputs{
		Rulespec: Source{j("gone/rulespec.yaml"), sum},
		Envelope: Source{j("out/envelope.yaml"), sum},
		Program:  Source{j("out/p.dl"), sum},
		Gate:     Source{j("out/gate.compiled.dl"), sum},
		Config:   &Source{j("vouch.yaml"), sum},
		Root:     dir,
		Evidence: []Source{{"src/a.go", sum}},
	}, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if r.Rulespec.SHA256 != sum || r.Rulespec.Path != "../gone/rulespec.yaml" || r.Evidence[0].SHA256 != sum || r.Config.SHA256 != sum {
		t.Fatalf("receipt %+v", r)
	}
	if _, err := New(j(FileName), Inputs{Rulespec: Source{Path: j("r.yaml")}}, "test", time.Now()); err == nil {
		t.Fatal("a source without a hash is accepted")
	}
}
