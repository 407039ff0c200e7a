package main

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// runnableInfo is the info string that marks a shell block in README.md or
// docs/*.md as one to run: ```sh runnable. Such a block must exit 0 when
// run with sh -e from the clone root with vouch on PATH.
const runnableInfo = "sh runnable"

// docBlock is one runnable block: where it starts and its script.
type docBlock struct {
	File   string
	Line   int
	Script string
}

// runnableBlocks extracts the runnable blocks of a Markdown file.
func runnableBlocks(name string, r io.Reader) ([]docBlock, error) {
	var out []docBlock
	sc := bufio.NewScanner(r)
	line := 0
	var cur *docBlock
	fence := ""
	for sc.Scan() {
		line++
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		switch {
		case fence == "" && strings.HasPrefix(trimmed, "```"):
			fence = "```"
			if strings.TrimSpace(strings.TrimPrefix(trimmed, "```")) == runnableInfo {
				cur = &docBlock{File: name, Line: line}
			}
		case fence != "" && trimmed == fence:
			if cur != nil {
				out = append(out, *cur)
			}
			fence, cur = "", nil
		case cur != nil:
			cur.Script += text + "\n"
		}
	}
	if fence != "" {
		return nil, fmt.Errorf("%s: a code block is not closed", name)
	}
	return out, sc.Err()
}

func TestRunnableBlocks(t *testing.T) {
	in := "text\n```sh runnable\nvouch check\n# a comment\n```\n```sh\nnot run\n```\n```sh runnable\na\nb\n```\n"
	got, err := runnableBlocks("R.md", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []docBlock{{"R.md", 2, "vouch check\n# a comment\n"}, {"R.md", 9, "a\nb\n"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("runnableBlocks = %v, want %v", got, want)
	}
	if _, err := runnableBlocks("U.md", strings.NewReader("```sh runnable\nx\n")); err == nil {
		t.Error("an unclosed block was accepted")
	}
}

// cmdDocs runs every runnable block of README.md and docs/*.md in a copy of
// the clone: docs [DIR]. Each block runs with sh -e in a fresh copy, so one
// block's files do not help the next.
func cmdDocs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: docs")
	}
	repo := ts.Getenv("REPO")
	files := []string{filepath.Join(repo, "README.md")}
	more, err := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	ts.Check(err)
	sort.Strings(more)
	files = append(files, more...)
	var blocks []docBlock
	for _, f := range files {
		fh, err := os.Open(f)
		ts.Check(err)
		rel, _ := filepath.Rel(repo, f)
		bs, err := runnableBlocks(rel, fh)
		fh.Close()
		ts.Check(err)
		blocks = append(blocks, bs...)
	}
	if len(blocks) == 0 {
		ts.Fatalf("no %q blocks in README.md or docs/", runnableInfo)
	}
	for i, b := range blocks {
		dir := ts.MkAbs(fmt.Sprintf("clone%d", i))
		ts.Check(copyClone(repo, dir))
		ts.Check(ts.Chdir(dir))
		ts.Logf("%s:%d", b.File, b.Line)
		if err := ts.Exec("sh", "-e", "-c", b.Script); err != nil {
			ts.Fatalf("%s:%d: the runnable block failed: %v", b.File, b.Line, err)
		}
	}
	fmt.Fprintf(ts.Stdout(), "%d runnable blocks passed\n", len(blocks))
}

// copyClone copies the clone's files (not .git, not vouch's outputs) to
// dst, so blocks that write artifacts leave the real clone untouched.
func copyClone(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if rel == "vouch" {
			return nil // a binary built in the clone
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".vouch") && rel != "." {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
}
