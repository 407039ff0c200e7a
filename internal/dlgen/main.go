// Command dlgen writes Go code that builds a fixed Mangle program's parsed
// unit and analysis, so vouch never parses or analyses it at run time:
//
//	go run github.com/vouch-dev/vouch/internal/dlgen -pkg compile -func semantics -o semantics_gen.go semantics.dl
//
// Packages embedding a .dl program run it from a //go:generate line; a test
// in each fails when the checked-in output is stale.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vouch-dev/vouch/internal/dlgen/astgo"
)

func main() {
	pkg := flag.String("pkg", "", "Go package of the output file")
	fn := flag.String("func", "", "stem of the generated functions (STEMUnit, STEMAnalysis)")
	out := flag.String("o", "", "output file")
	flag.Parse()
	if *pkg == "" || *fn == "" || *out == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: dlgen -pkg PACKAGE -func STEM -o OUT.go PROGRAM.dl")
		os.Exit(2)
	}
	src, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "dlgen:", err)
		os.Exit(2)
	}
	code, err := astgo.Generate(astgo.Config{Package: *pkg, Source: filepath.Base(flag.Arg(0)), Func: *fn}, string(src))
	if err != nil {
		fmt.Fprintln(os.Stderr, "dlgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "dlgen:", err)
		os.Exit(1)
	}
}
