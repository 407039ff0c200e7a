// Command gensrc writes a synthetic repository for benchmarking vouch:
//
//	go run ./internal/gensrc -n N -out DIR
//
// writes N files in each of Go, Python, JavaScript, TypeScript and Rust.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/vouch-dev/vouch/internal/gensrc/synth"
)

func main() {
	n := flag.Int("n", 1000, "files per language")
	out := flag.String("out", "", "directory to write into (created if missing)")
	size := flag.Int("size", 10<<10, "approximate bytes per file")
	seed := flag.Uint64("seed", 1, "random seed; the same seed writes the same repository")
	flag.Parse()
	if *out == "" || *n < 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gensrc -n N -out DIR [-size BYTES] [-seed S]")
		os.Exit(2)
	}
	st, err := synth.Generate(*out, synth.Options{FilesPerLang: *n, TargetSize: *size, Seed: *seed})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensrc:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d files, %d bytes, to %s\n", st.Files, st.Bytes, *out)
}
