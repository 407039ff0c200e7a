// Command benchgen writes the whole-process benchmark workloads of
// docs/performance.md into a directory, one subdirectory each with
// rulespec.yaml, the envelope and policy/main.rego:
//
//	go run ./internal/benchgen -out DIR
//
// testdata/bench/vs-conftest.sh runs vouch and conftest on them.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vouch-dev/vouch/internal/benchgen/workload"
)

func main() {
	out := flag.String("out", "", "directory to write into (created if missing)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: benchgen -out DIR")
		os.Exit(2)
	}
	for name, w := range map[string]workload.Workload{
		"wide-1000":  workload.Wide(10_000, 1_000),
		"array-100k": workload.Array(100_000),
	} {
		dir := filepath.Join(*out, name)
		files := map[string]string{
			"rulespec.yaml":                      w.Rulespec,
			w.EnvelopeName:                       w.Envelope,
			filepath.Join("policy", "main.rego"): w.Rego,
		}
		for f, data := range files {
			p := filepath.Join(dir, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				fmt.Fprintln(os.Stderr, "benchgen:", err)
				os.Exit(1)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "benchgen:", err)
				os.Exit(1)
			}
		}
	}
}
