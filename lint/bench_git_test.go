package lint

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/gensrc/synth"
	"github.com/vouch-dev/vouch/repofacts"
)

// gitBenchRepo is benchRepo's synthetic repository committed to git, with
// a committed .gitignore that ignores a large node_modules/ (VOUCH_BENCH_
// IGNORED files, default 20,000, in 2,000 packages) and build output,
// and .vouch/ (its own .gitignore, as vouch init writes).
func gitBenchRepo(b *testing.B) string {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	total, ignored := 20000, 20000
	if v, err := strconv.Atoi(os.Getenv("VOUCH_BENCH_FILES")); err == nil && v > 0 {
		total = v
	}
	if v, err := strconv.Atoi(os.Getenv("VOUCH_BENCH_IGNORED")); err == nil && v >= 0 {
		ignored = v
	}
	dir := b.TempDir()
	if _, err := synth.Generate(dir, synth.Options{FilesPerLang: total / 5, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write(arch.FileName, benchArchitecture())
	write(".gitignore", "node_modules/\nbuild/\n*.log\n")
	write(".vouch/.gitignore", "*\n!.gitignore\n")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	for i := range ignored {
		write(fmt.Sprintf("node_modules/p%d/lib/f%d.js", i/10, i), "module.exports = require('child_process')\n")
	}
	for i := range 200 {
		write(fmt.Sprintf("build/out/o%d.js", i), "require('child_process')\n")
		write(fmt.Sprintf("src/synth/l%d.log", i), "x\n")
	}
	return dir
}

// BenchmarkLintGitCold is BenchmarkLintCold in a git work tree with a
// large ignored node_modules/: "worktree" honours the work tree's
// .gitignore rules as they are (how vouch lint listed files before it
// trusted HEAD's only), "head" only HEAD's rules (what vouch lint does,
// imports.ListUnignored).
func BenchmarkLintGitCold(b *testing.B) {
	dir := gitBenchRepo(b)
	for _, mode := range []struct {
		name    string
		trusted imports.TrustedTree
	}{{"worktree", nil}, {"head", repofacts.HeadTree(dir)}} {
		b.Run(mode.name, func(b *testing.B) {
			var o *Outcome
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				os.RemoveAll(filepath.Join(dir, ".vouch", "cache"))
				c0 := cpuTime()
				b.StartTimer()
				o = lintGitOnce(b, dir, mode.trusted)
				cpu += cpuTime() - c0
			}
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
			report(b, o)
		})
	}
}

// BenchmarkListGit measures the file listing alone in the same
// repository (ListRepo, as repository facts resolve imports with it).
func BenchmarkListGit(b *testing.B) {
	dir := gitBenchRepo(b)
	for _, mode := range []struct {
		name    string
		trusted imports.TrustedTree
	}{{"worktree", nil}, {"head", repofacts.HeadTree(dir)}} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := imports.ListRepo(context.Background(), dir, mode.trusted); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// lintGitOnce is lintOnce with a trusted commit.
func lintGitOnce(b *testing.B, dir string, trusted imports.TrustedTree) *Outcome {
	m, err := arch.Load(dir, "")
	if err != nil {
		b.Fatal(err)
	}
	scan, err := imports.Scan(context.Background(), dir, imports.Options{Trusted: trusted})
	if err != nil {
		b.Fatal(err)
	}
	if len(scan.Unignored) != 0 {
		b.Fatalf("unignored %v: HEAD's rules should hide everything ignored", scan.Unignored[:1])
	}
	if err := m.Finish(scan.Files); err != nil {
		b.Fatal(err)
	}
	o, err := Run(m, scan, nil, Options{Today: 20000})
	if err != nil {
		b.Fatal(err)
	}
	var dl bytes.Buffer
	if err := o.WriteDL(&dl); err != nil {
		b.Fatal(err)
	}
	o.Trace(dl.Bytes())
	return o
}
