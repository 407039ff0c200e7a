// Command vouch-guard is `vouch guard` alone: the hook an agent harness
// runs on every tool call, in a binary that links only the guard and so
// starts several milliseconds faster than vouch (docs/guard.md). It reads
// the same flags, policy, session state and audit log as `vouch guard`.
// `vouch-guard --serve` runs it as a warm server for vouch-hook instead
// (docs/guard.md, "Fast mode").
package main

import (
	"os"

	"github.com/vouch-dev/vouch/internal/buildinfo"
	"github.com/vouch-dev/vouch/internal/hookd"
	"github.com/vouch-dev/vouch/internal/hugeheap"
)

// version may be set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	hugeheap.First()
	os.Exit(hookd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv, buildinfo.Version(version)))
}
