package imports

import (
	"bufio"
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The accuracy tests compare extraction with each language's reference
// parser on real code, as sets of (file, line, spec) triples (Python adds
// the imported name, since it emits one record per name). The full corpora
// (GOROOT/src, the module cache, Python's library) run with
// VOUCH_REFERENCE=1; a handful of files always run.

func heavy(t testing.TB) bool {
	return os.Getenv("VOUCH_REFERENCE") == "1" && !testing.Short()
}

// corpusFiles returns files under dir with one of exts, sorted; limit 0
// means all.
func corpusFiles(dir string, exts []string, limit int) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				out = append(out, p)
			}
		}
		return nil
	})
	sort.Strings(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// score compares two triple sets and reports misses and extras.
type score struct {
	ref, got, both int
	missed, extra  []string
}

func (s *score) add(ref, got map[string]bool) {
	s.ref += len(ref)
	s.got += len(got)
	for k := range ref {
		if got[k] {
			s.both++
		} else {
			s.missed = append(s.missed, k)
		}
	}
	for k := range got {
		if !ref[k] {
			s.extra = append(s.extra, k)
		}
	}
}

func (s *score) check(t *testing.T, what string, floor float64) {
	t.Helper()
	recall, precision := 1.0, 1.0
	if s.ref > 0 {
		recall = float64(s.both) / float64(s.ref)
	}
	if s.got > 0 {
		precision = float64(s.both) / float64(s.got)
	}
	sort.Strings(s.missed)
	sort.Strings(s.extra)
	t.Logf("%s: %d reference triples, %d extracted, recall %.4f%%, precision %.4f%%", what, s.ref, s.got, 100*recall, 100*precision)
	for i, m := range s.missed {
		if i < 20 {
			t.Logf("  missed %s", m)
		}
	}
	for i, m := range s.extra {
		if i < 20 {
			t.Logf("  extra  %s", m)
		}
	}
	if recall < floor || precision < floor {
		t.Errorf("%s: recall %.4f / precision %.4f below %.4f", what, recall, precision, floor)
	}
}

// goReference returns the import triples of a full go/parser parse, or
// false when the file does not parse (the comparison skips such files).
func goReference(rel string, src []byte) (map[string]bool, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	out := map[string]bool{}
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		out[fmt.Sprintf("%s:%d %s", rel, fset.PositionFor(is.Pos(), false).Line, p)] = true
	}
	return out, true
}

func compareGo(t *testing.T, files []string, base string) *score {
	s := &score{}
	skipped := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil || !utf8.Valid(src) {
			continue
		}
		rel, _ := filepath.Rel(base, f)
		ref, ok := goReference(rel, src)
		if !ok {
			skipped++
			continue
		}
		sites, _, _ := extractGoFile(src)
		got := map[string]bool{}
		for _, st := range sites {
			got[fmt.Sprintf("%s:%d %s", rel, st.Line, st.Spec)] = true
		}
		s.add(ref, got)
	}
	t.Logf("%d files, %d skipped because go/parser rejects them", len(files), skipped)
	return s
}

func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return runtime.GOROOT()
	}
	return strings.TrimSpace(string(out))
}

func TestGoAccuracySmall(t *testing.T) {
	src := filepath.Join(goroot(), "src")
	var files []string
	for _, f := range []string{"fmt/print.go", "net/http/server.go", "go/parser/parser.go", "runtime/cgo/cgo.go", "os/exec/exec.go"} {
		if _, err := os.Stat(filepath.Join(src, f)); err == nil {
			files = append(files, filepath.Join(src, f))
		}
	}
	if len(files) == 0 {
		t.Skip("GOROOT/src not available")
	}
	s := compareGo(t, files, src)
	if s.ref == 0 {
		t.Fatal("reference found no imports")
	}
	s.check(t, "go (small)", 1)
}

func TestGoAccuracyCorpus(t *testing.T) {
	if !heavy(t) {
		t.Skip("set VOUCH_REFERENCE=1 for the full Go corpus")
	}
	for _, dir := range []string{filepath.Join(goroot(), "src"), gomodcache()} {
		if dir == "" {
			continue
		}
		files := corpusFiles(dir, []string{".go"}, 0)
		if len(files) == 0 {
			continue
		}
		compareGo(t, files, dir).check(t, "go "+dir, 0.995)
	}
}

func gomodcache() string {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// pyReferenceScript prints one line per imported name, as parsed by
// CPython's ast: "file\tline\tspec\tname", and "!\tfile" for files ast
// rejects. Since 3.10 alias nodes carry their own positions.
const pyReferenceScript = `
import ast, sys, warnings
warnings.simplefilter("ignore")
out = sys.stdout
for path in sys.stdin.read().split("\0"):
    if not path:
        continue
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), path)
    except Exception:
        out.write("!\t%s\n" % path)
        continue
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.write("%s\t%d\t%s\t\n" % (path, a.lineno, a.name))
        elif isinstance(node, ast.ImportFrom):
            spec = "." * node.level + (node.module or "")
            for a in node.names:
                out.write("%s\t%d\t%s\t%s\n" % (path, a.lineno, spec, a.name))
`

func python3(t testing.TB) string {
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out, err := exec.Command(p, "-c", "import sys; print(sys.version_info >= (3, 10))").Output()
	if err != nil || strings.TrimSpace(string(out)) != "True" {
		t.Skip("python3 >= 3.10 needed for alias positions")
	}
	return p
}

func comparePython(t *testing.T, py string, files []string, base string) *score {
	cmd := exec.Command(py, "-c", pyReferenceScript)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\x00"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reference script: %v", err)
	}
	ref := map[string]map[string]bool{}
	rejected := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if parts[0] == "!" {
			rejected[parts[1]] = true
			continue
		}
		if len(parts) != 4 {
			continue
		}
		if ref[parts[0]] == nil {
			ref[parts[0]] = map[string]bool{}
		}
		rel, _ := filepath.Rel(base, parts[0])
		ref[parts[0]][rel+":"+parts[1]+" "+parts[2]+" "+parts[3]] = true
	}
	s := &score{}
	compared := 0
	for _, f := range files {
		if rejected[f] {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil || !utf8.Valid(src) {
			continue
		}
		compared++
		rel, _ := filepath.Rel(base, f)
		sites, _ := extractPython(src)
		got := map[string]bool{}
		for _, st := range sites {
			if st.Kind == KindDynamic {
				continue // a call, which ast does not count as an import
			}
			name := ""
			if st.Kind == KindFrom {
				name = st.Names[0]
			}
			got[fmt.Sprintf("%s:%d %s %s", rel, st.Line, st.Spec, name)] = true
		}
		r := ref[f]
		if r == nil {
			r = map[string]bool{}
		}
		s.add(r, got)
	}
	t.Logf("%d files compared, %d rejected by ast (Python 2 or deliberately broken test data), %d not UTF-8",
		compared, len(rejected), len(files)-compared-len(rejected))
	return s
}

func pythonStdlibDir(t testing.TB, py string) string {
	out, err := exec.Command(py, "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		t.Skip("cannot locate the Python standard library")
	}
	return strings.TrimSpace(string(out))
}

func TestPythonAccuracySmall(t *testing.T) {
	py := python3(t)
	dir := pythonStdlibDir(t, py)
	var files []string
	for _, f := range []string{"os.py", "typing.py", "importlib/__init__.py", "concurrent/futures/__init__.py", "asyncio/__init__.py", "unittest/mock.py"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			files = append(files, filepath.Join(dir, f))
		}
	}
	// A tricky file written for this test, so the check does not depend on
	// the installed library's contents alone.
	tricky := filepath.Join(t.TempDir(), "tricky.py")
	os.WriteFile(tricky, []byte("if TYPE_CHECKING:\n    from a.b import (c,\n        d as e)\ntry: import f, g.h as i\nexcept ImportError: pass\nx = f'{y!r:>{w}}' ; from . import k\ndef z():\n    from ..m import *\n    s = '''import no'''\nclass C: import \\\n  n\n"), 0o644)
	files = append(files, tricky)
	s := comparePython(t, py, files, dir)
	if s.ref < 10 {
		t.Fatalf("reference found only %d imports", s.ref)
	}
	s.check(t, "python (small)", 1)
}

func TestPythonAccuracyCorpus(t *testing.T) {
	if !heavy(t) {
		t.Skip("set VOUCH_REFERENCE=1 for the full Python corpus")
	}
	py := python3(t)
	dir := pythonStdlibDir(t, py)
	comparePython(t, py, corpusFiles(dir, []string{".py"}, 0), dir).check(t, "python "+dir, 0.995)
}

// loadCorpus reads files into memory for throughput benchmarks.
func loadCorpus(b *testing.B, files []string) ([][]byte, int64) {
	var srcs [][]byte
	var total int64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || !utf8.Valid(data) {
			continue
		}
		srcs = append(srcs, data)
		total += int64(len(data))
	}
	if len(srcs) == 0 {
		b.Skip("empty corpus")
	}
	return srcs, total
}

// BenchmarkExtractGoCorpus measures single-core extraction over GOROOT/src
// (files read beforehand); it reports MB/s and files/s.
func BenchmarkExtractGoCorpus(b *testing.B) {
	srcs, total := loadCorpus(b, corpusFiles(filepath.Join(goroot(), "src"), []string{".go"}, 0))
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, s := range srcs {
			extractGoFile(s)
		}
	}
	b.ReportMetric(float64(len(srcs))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkExtractPythonCorpus is the same over Python's library.
func BenchmarkExtractPythonCorpus(b *testing.B) {
	py := python3(b)
	srcs, total := loadCorpus(b, corpusFiles(pythonStdlibDir(b, py), []string{".py"}, 0))
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, s := range srcs {
			extractPython(s)
		}
	}
	b.ReportMetric(float64(len(srcs))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
