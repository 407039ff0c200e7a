package imports

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

type rustRefKey struct {
	file string
	line int
	kind string
	spec string
}

// TestRustReference compares extractRust with the syn-based tool in
// testdata/rust/synref (built with cargo; its path in $VOUCH_SYNREF) over
// the .rs files under $VOUCH_RUST_CORPUS. It only runs with
// VOUCH_REFERENCE=1. syn does not look inside macro invocations, so sites
// found there by extractRust are reported apart and not held against it.
func TestRustReference(t *testing.T) {
	if os.Getenv("VOUCH_REFERENCE") != "1" {
		t.Skip("set VOUCH_REFERENCE=1, VOUCH_RUST_CORPUS and VOUCH_SYNREF to compare with syn")
	}
	corpus, tool := os.Getenv("VOUCH_RUST_CORPUS"), os.Getenv("VOUCH_SYNREF")
	if corpus == "" || tool == "" {
		t.Skip("VOUCH_RUST_CORPUS or VOUCH_SYNREF unset")
	}
	var files []string
	err := filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rs") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	cmd := exec.Command(tool)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	skip := map[string]bool{} // files syn cannot parse
	for _, l := range strings.Split(stderr.String(), "\n") {
		if f := strings.Split(l, "\t"); len(f) >= 2 && f[0] == "PARSEFAIL" {
			skip[f[1]] = true
		}
	}
	ref := map[rustRefKey]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			t.Fatalf("bad reference line %q", sc.Text())
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatal(err)
		}
		ref[rustRefKey{f[0], n, f[2], f[3]}]++
	}
	got := map[rustRefKey]int{}
	inMacro := 0
	for _, f := range files {
		if skip[f] {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sites, _ := extractRust(src)
		spans := rustMacroSpans(src)
		for _, s := range sites {
			if inRustSpans(spans, s) {
				inMacro++
				continue
			}
			got[rustRefKey{f, s.Line, string(s.Kind), s.Spec}]++
		}
	}
	match, nRef, nGot := 0, 0, 0
	var missed, extra []string
	for k, n := range ref {
		nRef += n
		m := min(n, got[k])
		match += m
		if n > m {
			missed = append(missed, fmt.Sprintf("%s:%d %s %s", k.file, k.line, k.kind, k.spec))
		}
	}
	for k, n := range got {
		nGot += n
		if n > ref[k] {
			extra = append(extra, fmt.Sprintf("%s:%d %s %s", k.file, k.line, k.kind, k.spec))
		}
	}
	sort.Strings(missed)
	sort.Strings(extra)
	t.Logf("%d files (%d syn cannot parse); reference %d sites, ours %d outside macro invocations (+%d inside, which syn does not parse), matching %d; recall %.4f precision %.4f",
		len(files), len(skip), nRef, nGot, inMacro, match, float64(match)/float64(max(nRef, 1)), float64(match)/float64(max(nGot, 1)))
	for i, m := range missed {
		if i < 40 {
			t.Logf("missed: %s", m)
		}
	}
	for i, m := range extra {
		if i < 60 {
			t.Logf("extra: %s", m)
		}
	}
	recall, precision := float64(match)/float64(max(nRef, 1)), float64(match)/float64(max(nGot, 1))
	if recall < 0.995 || precision < 0.995 {
		t.Errorf("recall %.4f / precision %.4f below the 0.995 floor", recall, precision)
	}
}

type rustPos struct{ line, col int }

// rustMacroSpans returns the extent of every macro invocation's delimited
// body (name!(...), name![...], name!{...}), from its opening delimiter to
// its closing one.
func rustMacroSpans(src []byte) [][2]rustPos {
	toks, _ := lexRust(src)
	var spans [][2]rustPos
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].kind != rustIdent || toks[i+1].kind != rustPunct || string(rustTokText(src, toks[i+1])) != "!" {
			continue
		}
		j := i + 2
		if toks[j].kind == rustIdent { // macro_rules! name { ... }
			j++
		}
		if j >= len(toks) || toks[j].kind != rustPunct || !strings.Contains("([{", string(rustTokText(src, toks[j]))) {
			continue
		}
		depth, k := 0, j
		for ; k < len(toks); k++ {
			if toks[k].kind != rustPunct {
				continue
			}
			switch string(rustTokText(src, toks[k])) {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
			if depth == 0 {
				break
			}
		}
		k = min(k, len(toks)-1)
		spans = append(spans, [2]rustPos{{toks[j].line, toks[j].col}, {toks[k].line, toks[k].col}})
		i = k
	}
	return spans
}

func inRustSpans(spans [][2]rustPos, s Site) bool {
	after := func(a, b rustPos) bool { return a.line > b.line || a.line == b.line && a.col > b.col }
	p := rustPos{s.Line, s.Column}
	for _, sp := range spans {
		if after(p, sp[0]) && after(sp[1], p) {
			return true
		}
	}
	return false
}
