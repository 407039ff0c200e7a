// Command vouch-hook is the fast-mode hook (docs/guard.md, "Fast mode"):
// a small client, linking only the standard library, that hands each tool
// call to a warm `vouch-guard --serve` and falls back to running
// vouch-guard itself, so every answer is vouch-guard's. It takes
// vouch-guard's flags and passes them through; vouch-guard must be
// installed beside it.
package main

import (
	"os"

	"github.com/vouch-dev/vouch/internal/hookclient"
)

func main() {
	os.Exit(hookclient.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
