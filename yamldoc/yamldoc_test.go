package yamldoc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name, src string
		wantNil   bool
		wantErr   string
	}{
		{"mapping", "a: 1\n", false, ""},
		{"empty", "", true, ""},
		{"null document", "~\n", true, ""},
		{"two documents", "a: 1\n---\nb: 2\n", false, "f.yaml:3:1: the file holds more than one YAML document"},
		{"syntax", "a: [1\n", false, "f.yaml:2: not valid YAML:"},
		// The reader's errors carry no position; Decode finds the character.
		{"nul", "a: 1\nb: \"x\x00y\"\n", false, "f.yaml:2:6: not valid YAML: control characters are not allowed (U+0000)"},
		{"not utf-8", "a: 1\nb: \"x\xffy\"\n", false, "f.yaml:2:6: not valid YAML: invalid leading UTF-8 octet (byte 0xff)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Decode("f.yaml", []byte(tt.src), "file")
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want prefix %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (doc == nil) != tt.wantNil {
				t.Errorf("doc nil = %v, want %v", doc == nil, tt.wantNil)
			}
		})
	}
}

// TestBadChar: the first character yaml.v3's reader refuses, where it is.
func TestBadChar(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		what      string
	}{
		{"a: \x00", 1, 4, "U+0000"},
		{"\xef\xbb\xbfa: \x01", 1, 4, "U+0001"},
		{"a:\n\tb\x7f", 2, 3, "U+007F"},
		{"a\r\nb\rc\u0085d\u2028é\xc3", 5, 2, "byte 0xc3"},
		{"ok: \u00a0\ufffd\U0001F600\n\xef\xbf\xbe", 2, 1, "U+FFFE"},
		{"x: \xed\xa0\x80", 1, 4, "byte 0xed"},
	}
	for _, tt := range tests {
		p, what, ok := BadChar([]byte(tt.src))
		if !ok || p.Line != tt.line || p.Col != tt.col || what != tt.what {
			t.Errorf("BadChar(%q) = %d:%d %q %v, want %d:%d %q", tt.src, p.Line, p.Col, what, ok, tt.line, tt.col, tt.what)
		}
	}
	for _, src := range []string{"a: 1\n", "\t\r\n\u0085 é 日本 \U0001F600", "\xff\xfea\x00"} {
		if p, what, ok := BadChar([]byte(src)); ok {
			t.Errorf("BadChar(%q) = %d:%d %q, want none", src, p.Line, p.Col, what)
		}
	}
}

func TestFields(t *testing.T) {
	doc, err := Decode("f.yaml", []byte("name: x\nnmae: y\nname: z\n[1]: 2\nsize: 3\n"), "file")
	if err != nil {
		t.Fatal(err)
	}
	p := &Parser{File: "f.yaml"}
	got := p.Fields(doc, "the thing", []string{"name", "size"})
	if got["name"].Value != "x" || got["size"].Value != "3" || len(got) != 2 {
		t.Errorf("Fields = %v, want name x and size 3", got)
	}
	want := []string{
		`f.yaml:2:1: unknown key "nmae" in the thing (did you mean "name"?); allowed keys are name, size`,
		`f.yaml:3:1: duplicate key "name" in the thing (first at line 1); remove one of them`,
		`f.yaml:4:1: the thing keys must be plain words, found a list`,
	}
	if diff := cmp.Diff(want, strings.Split(p.Err().Error(), "\n")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if p2 := (&Parser{File: "f.yaml"}); p2.Fields(doc.Content[1], "name", nil) != nil || p2.Err() == nil {
		t.Error("Fields on a scalar: want nil and an error")
	}
}

func TestStrAndKinds(t *testing.T) {
	doc, err := Decode("f.yaml", []byte("s: text\nn: 3\nb: true\nz: null\nl: [1]\nm: {a: 1}\nr: &x hi\nal: *x\n"), "file")
	if err != nil {
		t.Fatal(err)
	}
	p := &Parser{File: "f.yaml"}
	f := p.Fields(doc, "f", []string{"s", "n", "b", "z", "l", "m", "r", "al"})
	kinds := map[string]string{}
	for k, v := range f {
		kinds[k] = KindName(v)
	}
	want := map[string]string{"s": `"text"`, "n": "the number 3", "b": "the boolean true", "z": "null",
		"l": "a list", "m": "a mapping", "r": `"hi"`, "al": `"hi"`}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("KindName (-want +got):\n%s", diff)
	}
	if s, ok := p.Str(f["al"], "alias"); !ok || s != "hi" {
		t.Errorf("Str through an alias = %q, %v", s, ok)
	}
	if _, ok := p.Str(f["n"], "a number"); ok {
		t.Error("Str of a number succeeded")
	}
	if !IsNull(f["z"]) || IsNull(f["s"]) || !IsNull(nil) {
		t.Error("IsNull wrong")
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte(strings.Repeat("a", 20)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(big, "rulespec", 10); err == nil || !strings.Contains(err.Error(), "rulespec is larger than 10 bytes") {
		t.Errorf("oversize: err = %v", err)
	}
	missing := filepath.Join(dir, "missing.yaml")
	if _, err := ReadFile(missing, "rulespec", 10); err == nil || err.Error() != missing+": cannot read rulespec: no such file or directory" {
		t.Errorf("missing: err = %v", err)
	}
	if data, err := ReadFile(big, "rulespec", 20); err != nil || len(data) != 20 {
		t.Errorf("ReadFile at the limit = %d bytes, %v", len(data), err)
	}
}
