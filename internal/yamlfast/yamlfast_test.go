package yamlfast

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/internal/benchgen/workload"
)

// reference decodes data the way vouch's callers do: one yaml.v3 Decode
// into a node, and a second that must find nothing. ok is false when
// yaml.v3 fails, panics, finds no document or finds a second one.
func reference(data []byte) (doc *yaml.Node, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			doc, ok = nil, false
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first yaml.Node
	if err := dec.Decode(&first); err != nil {
		return nil, false
	}
	var second yaml.Node
	if err := dec.Decode(&second); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return &first, true
}

// check fails t when Parse answers for data and the answer differs from
// yaml.v3's, or yaml.v3 rejects data. It reports whether Parse answered.
func check(t testing.TB, data []byte) bool {
	t.Helper()
	got, ok := Parse(data)
	if !ok {
		if got != nil {
			t.Fatalf("Parse(%q) declined but returned a node", data)
		}
		return false
	}
	want, wantOK := reference(data)
	if !wantOK {
		t.Fatalf("Parse(%q) answered, but yaml.v3 rejects it or finds no single document", data)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("Parse(%q) differs from yaml.v3: %s", data, firstDiff("doc", want, got))
	}
	return true
}

// firstDiff describes the first difference between two node trees, for
// messages. (cmp.Diff takes exponential time on deeply nested trees.)
func firstDiff(path string, want, got *yaml.Node) string {
	if want == nil || got == nil {
		return fmt.Sprintf("%s: yaml.v3 %v, Parse %v", path, want, got)
	}
	w, g := *want, *got
	w.Content, g.Content = nil, nil
	if !reflect.DeepEqual(w, g) {
		return fmt.Sprintf("%s: yaml.v3 %+v, Parse %+v", path, w, g)
	}
	if len(want.Content) != len(got.Content) {
		return fmt.Sprintf("%s: yaml.v3 has %d children, Parse %d", path, len(want.Content), len(got.Content))
	}
	for i := range want.Content {
		if d := firstDiff(fmt.Sprintf("%s.%d", path, i), want.Content[i], got.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

// accepted are inputs inside the subset: Parse must answer, and equal
// yaml.v3.
var accepted = []string{
	"a: b",
	"a: b\n",
	"a",
	"'a'\n",
	"[a]",
	"{a: b}",
	"a: b\nc: d\n",
	"\n\n  \na: b\n\n",
	"a: b   \n   \nc: d",
	"a:\n  b: c\n  d: e\nf: g\n",
	"a:\n  b:\n    c: d\n",
	"a:\n- x\n- y\nb: c\n",
	"a:\n  - x\n  - y\nb: c\n",
	"- a\n- b\n",
	"- a: b\n  c: d\n- e\n",
	"-   a: b\n    c: d\n",
	"- - a\n  - b\n- c\n",
	"- a:\n  - x\n  b: y\n",
	"- a:\n    b: c\n",
	"-\n  a: b\n",
	"-\n  - a\n",
	"a:\n  b\n",
	"a:\n  'b'\n",
	"a:\n  [x]\n",
	"a: [x, y, z]\n",
	"a: [ x , y ]\n",
	"a: []\nb: {}\n",
	"a: {k: v, l: [1, 2, {m: n}]}\n",
	"a: {\"k\": 'v', 'l': \"w\"}\n",
	"a: [[], [[a]], {}]\n",
	"a: [a b, c  d ]\n",
	"a: [-1, -x, a#b]\n",
	"a: 1\nb: 1.5\nc: true\nd: null\ne: ~\nf: 0x1F\ng: 2001-12-14\nh: .inf\ni: -.5\nj: 1_000\nk: yes\nl: 0o17\n",
	"a: http://x.y/z?q=1&r=2\n",
	"a b: c d\n",
	"a:b: c\n",
	"a: b,c[d]{e}\n",
	"a: C#\n",
	"a: 'it''s'\n",
	"a: ''\nb: \"\"\n",
	"a: ' x '\n",
	`a: "q\"q\\q\n\t\0\a\b\v\f\r\e\ \'\N\_\L\P"` + "\n",
	`a: "\x41\u00e9\U0001F600\x7f"` + "\n",
	`"a": b` + "\n" + `'c': d` + "\n",
	"a: é\nb: [é, ü]\nc: {é: 😀}\n",
	"é: a\nb: é x é\n",
	"a: b\na: c\n",
	"key-with-dashes: -5\n",
	"a: b!\n",
	"a: 50%\n",
	"a: x*y&z\n",
	"- - - a\n",
	"a: [\"x\", 'y']\n",
	"a: {b: c}\n",
	"a: [a, [b, [c, [d]]]]\n",
	"- {a: b}\n- [c]\n",
	"a: 'x # y'\n",
	"a: x\u00a0\n\u00a0b: c\n",
	"\u00e9\u00e9: [\u00e9, {\u00e9: \u00e9}, '\u00e9']\n",
	"a: \U0001F600 \U0001F600\nb: {\U0001F600: [x]}\n",
	"- \u4e2d: \u6587\n  b: [\u4e2d]\n",
	"a: \"x # y\"\n",
}

// declined are inputs outside the subset (or not YAML at all): Parse must
// leave them to yaml.v3.
var declined = []string{
	"",
	"   \n\n",
	"a: !b\n",
	"a: -\"x\"\n",
	" a: b\n",
	"a: b # comment\n",
	"# comment\na: b\n",
	"a: b\n# comment\n",
	"a:\tb\n",
	"a: b\r\n",
	"\ufeffa: b\n",
	"---\na: b\n",
	"a: b\n...\n",
	"a: b\n---\nc: d\n",
	"%YAML 1.2\n---\na: b\n",
	"a: &x b\n",
	"a: *x\n",
	"a: !!str b\n",
	"a: |\n  b\n",
	"a: >\n  b\n",
	"a: b\n  c\n",
	"a: 'b\n  c'\n",
	"a: \"b\n  c\"\n",
	"a:\n",
	"a:\nb: c\n",
	"- \n- a\n",
	"-\n",
	"? a\n: b\n",
	"a: [b,\n  c]\n",
	"a: [b, ]\n",
	"a: [b, , c]\n",
	"a: {b}\n",
	"a: {b: }\n",
	"a: {b:c}\n",
	"a: [b: c]\n",
	"a: b: c\n",
	"a: b:\n",
	"<<: {a: b}\n",
	"a: <<\n",
	"a : b\n",
	"\"a\" : b\n",
	"a: \"\\/\"\n",
	"a: \"\\ud800\"\n",
	"a: \"\\U00110000\"\n",
	"a: \"\\xZZ\"\n",
	"a: \"x\\\n  y\"\n",
	"a: b\n- c\n",
	"- a\nb: c\n",
	"a:\n    b: c\n  d: e\n",
	"a:\n  - x\n  b: y\n",
	"a: 1\x00",
	"a: \x7f\n",
	"a: \u0085\n",
	"a: \u2028\n",
	"a: \xff\n",
	"a: b\n c: d\n",
	"- a\n - b\n",
	"a: ?b\n",
	"a: :b\n",
	"a: [a?b]\n",
	"a: [a:b]\n",
	strings.Repeat("k", 1001) + ": v\n",
	strings.Repeat("[", 300) + strings.Repeat("]", 300),
	"a: " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n",
	strings.Repeat("- ", 300) + "a\n",
}

func TestAccepted(t *testing.T) {
	for _, in := range accepted {
		if !check(t, []byte(in)) {
			t.Errorf("Parse(%q) declined; it is in the subset", in)
		}
	}
}

func TestDeclined(t *testing.T) {
	for _, in := range declined {
		if check(t, []byte(in)) {
			t.Errorf("Parse(%q) answered; it should decline", in)
		}
	}
}

// TestCheckCatchesDifferences makes sure the comparison itself can fail:
// a tree that differs from yaml.v3's in one position is reported.
func TestCheckCatchesDifferences(t *testing.T) {
	got, ok := Parse([]byte("a: b\n"))
	want, wantOK := reference([]byte("a: b\n"))
	if !ok || !wantOK {
		t.Fatal("both parsers should read a: b")
	}
	got.Content[0].Content[1].Column++
	if reflect.DeepEqual(want, got) || firstDiff("doc", want, got) == "" {
		t.Fatal("the comparison misses a changed column")
	}
}

// TestPlainTagShortcut holds plainTag's table to yaml.v3's resolver: for
// every first byte it marks as a plain string, values starting with that
// byte resolve to !!str.
func TestPlainTagShortcut(t *testing.T) {
	suffixes := []string{"", "1", "0", ".5", "rue", "ull", "es", "o", "n", "ff", "x10", "_1", "2001-12-14", ".inf", "nan", "<", "e5"}
	for b := 1; b < 256; b++ {
		for _, suf := range suffixes {
			n := &yaml.Node{Kind: yaml.ScalarNode, Value: string([]byte{byte(b)}) + suf}
			want := n.ShortTag()
			if got := plainTag(n); got != want {
				t.Errorf("plainTag(%q) = %s, yaml.v3 resolves %s", n.Value, got, want)
			}
			if !maybeResolved[b] && want != "!!str" {
				t.Errorf("%q resolves to %s, but %q is not marked in maybeResolved", n.Value, want, byte(b))
			}
		}
	}
}

// TestWorkloads checks the benchmark inputs, which must take the fast path.
func TestWorkloads(t *testing.T) {
	w := workload.Wide(1000, 100)
	for name, in := range map[string]string{"wide envelope": w.Envelope, "wide rulespec": w.Rulespec, "array rulespec": workload.Array(10).Rulespec} {
		if !check(t, []byte(in)) {
			t.Errorf("%s: declined", name)
		}
	}
}

// TestRepositoryYAML checks every YAML file of the repository (testdata
// included): Parse equals yaml.v3 or declines.
func TestRepositoryYAML(t *testing.T) {
	root := filepath.Join("..", "..")
	var answered, total int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		total++
		t.Run(path, func(t *testing.T) {
			if check(t, data) {
				answered++
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total == 0 {
		t.Fatal("found no YAML files")
	}
	t.Logf("%d of %d YAML files took the fast path", answered, total)
}

func FuzzParse(f *testing.F) {
	for _, in := range accepted {
		f.Add([]byte(in))
	}
	for _, in := range declined {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
	})
}

func benchmarkParse(b *testing.B, data []byte) {
	b.Run("yamlfast", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := Parse(data); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := reference(data); !ok {
				b.Fatal("yaml.v3 failed")
			}
		}
	})
}

func BenchmarkWideEnvelope(b *testing.B) {
	benchmarkParse(b, []byte(workload.Wide(10000, 1000).Envelope))
}

func BenchmarkWideRulespec(b *testing.B) {
	benchmarkParse(b, []byte(workload.Wide(10000, 1000).Rulespec))
}

// Example inputs for the documentation of the subset.
func ExampleParse() {
	doc, ok := Parse([]byte("facts:\n  tags: [a, b]\n  count: 3\n"))
	tags := doc.Content[0].Content[1].Content[1]
	fmt.Println(ok, tags.Tag, tags.Content[1].Column)
	_, ok = Parse([]byte("facts: &x {a: b}\n"))
	fmt.Println(ok)
	// Output:
	// true !!seq 13
	// false
}
