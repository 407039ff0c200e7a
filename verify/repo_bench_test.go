package verify

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/vouch-dev/vouch/envelope"
)

// BenchmarkVerifyRepoFacts times a whole verification (load, repository
// facts from git, compile, evaluate) with the rulespec of
// docs/repository-facts.md, in a repository of 20,000 files (Go, a third
// of them with imports) where `changed` files were edited, half of them
// dropping an exported function. The repository is built once per size.
//
//	go test ./verify -run '^$' -bench VerifyRepoFacts -benchtime 10x
func BenchmarkVerifyRepoFacts(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	for _, changed := range []int{50, 1000} {
		b.Run(fmt.Sprintf("files=20000/changed=%d", changed), func(b *testing.B) {
			dir := benchRepo(b, 20000)
			var said []byte
			for i := range changed {
				p := benchFile(i)
				if err := os.WriteFile(filepath.Join(dir, p), []byte(fmt.Sprintf("package p%d\n\nimport \"strings\"\n\nfunc F%d() string { return strings.ToUpper(\"x\") }\n", i/100, i)), 0o644); err != nil {
					b.Fatal(err)
				}
				said = fmt.Appendf(said, "    - %s\n", p)
			}
			env := filepath.Join(dir, ".vouch", "envelope.yaml")
			if err := os.WriteFile(env, append([]byte("facts:\n  api_changes: {breaking: true}\n  files_changed:\n"), said...), 0o644); err != nil {
				b.Fatal(err)
			}
			rs := filepath.Join(dir, "analysis", "rulespec.yaml")
			wd, _ := os.Getwd()
			if err := os.Chdir(dir); err != nil {
				b.Fatal(err)
			}
			defer os.Chdir(wd)
			b.ResetTimer()
			for b.Loop() {
				o, err := Run(Input{RulespecPath: rs, EnvelopePath: env, Limits: envelope.DefaultLimits(), Root: "."})
				if err != nil {
					b.Fatal(err)
				}
				if o.Report.Verdict != "pass" {
					b.Fatalf("verdict %s: %+v", o.Report.Verdict, o.Report.Predicates)
				}
			}
		})
	}
}

func benchFile(i int) string { return fmt.Sprintf("pkg/p%d/f%d.go", i/100, i) }

// benchRepo builds a committed repository of n Go files under b's temp
// directory.
func benchRepo(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	for i := range n {
		p := filepath.Join(dir, benchFile(i))
		if i%100 == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		src := fmt.Sprintf("package p%d\n\n// F%d is exported.\nfunc F%d() int { return %d }\n\n// G%d goes away.\nfunc G%d() {}\n", i/100, i, i, i, i, i)
		if i%3 == 0 {
			src = fmt.Sprintf("package p%d\n\nimport \"fmt\"\n\n// F%d is exported.\nfunc F%d() string { return fmt.Sprint(%d) }\n\n// G%d goes away.\nfunc G%d() {}\n", i/100, i, i, i, i, i)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	files := map[string]string{
		"go.mod":                 "module example.com/bench\n\ngo 1.22\n",
		"analysis/rulespec.yaml": string(docExample(b)),
		".vouch/.gitignore":      "*\n!.gitignore\n", // committed, as vouch init writes it
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "gc.auto=0", "-c", "user.name=b", "-c", "user.email=b@example.com", "commit", "-q", "-m", "base"}} {
		c := exec.Command("git", args...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}
