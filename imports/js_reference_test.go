package imports

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// preProcessScript prints, for each file named on stdin, TypeScript's own
// view of its imports: ts.preProcessFile(text, readImportFiles=true,
// detectJavaScriptImports=true).importedFiles, as JSON lines.
const preProcessScript = `
const ts = require(process.argv[2]);
const fs = require('fs');
const files = fs.readFileSync(0, 'utf8').split('\n').filter(Boolean);
for (const f of files) {
  const text = fs.readFileSync(f, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, false);
  for (const r of info.importedFiles) {
    const lc = ts.getLineAndCharacterOfPosition(sf, r.pos);
    process.stdout.write(JSON.stringify({file: f, line: lc.line + 1, spec: r.fileName}) + '\n');
  }
}
`

type refTriple struct {
	file string
	line int
	spec string
}

// TestJSReference compares extractJS with TypeScript's preProcessFile over
// the packages installed in $VOUCH_JS_CORPUS/node_modules, using the
// TypeScript package in $VOUCH_TS_DIR (default: the corpus's own). It only
// runs with VOUCH_REFERENCE=1.
func TestJSReference(t *testing.T) {
	if os.Getenv("VOUCH_REFERENCE") != "1" {
		t.Skip("set VOUCH_REFERENCE=1 and VOUCH_JS_CORPUS to compare with TypeScript")
	}
	corpus := os.Getenv("VOUCH_JS_CORPUS")
	tsDir := os.Getenv("VOUCH_TS_DIR") // a TypeScript 5 package: 7 has no JS API
	if tsDir == "" {
		tsDir = filepath.Join(corpus, "node_modules", "typescript")
	}
	if _, err := os.Stat(tsDir); err != nil {
		t.Skipf("no typescript under %s: %v", corpus, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	var files []string
	var bytesTotal int64
	root := filepath.Join(corpus, "node_modules")
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		switch filepath.Ext(p) {
		case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx":
			info, err := d.Info()
			if err != nil {
				return err
			}
			bytesTotal += info.Size()
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	script := filepath.Join(t.TempDir(), "pre.js")
	if err := os.WriteFile(script, []byte(preProcessScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--max-old-space-size=4096", script, tsDir)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	ref := map[refTriple]int{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r struct {
			File string
			Line int
			Spec string
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		ref[refTriple{r.File, r.Line, r.Spec}]++
	}
	got := map[refTriple]int{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ts := strings.Contains(filepath.Ext(f), "ts")
		sites, _ := extractJS(src, ts)
		for _, s := range sites {
			got[refTriple{f, s.Line, s.Spec}]++
		}
	}
	match, nRef, nGot := 0, 0, 0
	var missed, extra []string
	for k, n := range ref {
		nRef += n
		m := min(n, got[k])
		match += m
		if n > m {
			missed = append(missed, fmt.Sprintf("%s:%d %q", k.file, k.line, k.spec))
		}
	}
	for k, n := range got {
		nGot += n
		if n > ref[k] {
			extra = append(extra, fmt.Sprintf("%s:%d %q", k.file, k.line, k.spec))
		}
	}
	sort.Strings(missed)
	sort.Strings(extra)
	recall := float64(match) / float64(max(nRef, 1))
	precision := float64(match) / float64(max(nGot, 1))
	t.Logf("%d files, %.1f MB; reference %d imports, ours %d, matching %d; recall %.4f precision %.4f",
		len(files), float64(bytesTotal)/1e6, nRef, nGot, match, recall, precision)
	for i, m := range missed {
		if i == 40 {
			break
		}
		t.Logf("missed: %s", m)
	}
	for i, m := range extra {
		if i == 40 {
			break
		}
		t.Logf("extra: %s", m)
	}
	if recall < 0.995 || precision < 0.995 {
		t.Errorf("recall %.4f / precision %.4f below the 0.995 floor", recall, precision)
	}
}
