// Package cliapp holds the parts of a urfave/cli application that are
// plumbing rather than any one command: flags written after arguments,
// usage errors as one line with a did-you-mean, and shell completion
// scripts. cmd/vouch maps flags to options; this package makes the
// command line behave as go, conftest and golangci-lint users expect.
package cliapp
