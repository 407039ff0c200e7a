package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// versionCommand is `vouch version`, the same line as `vouch --version`,
// for people and scripts that expect a command (go version, kubectl version).
func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print vouch's version",
		Description: `Prints the version: the one set at link time, else the module version the Go
toolchain recorded (a tag or a pseudo-version; Go 1.24 and later also give a build from a git
checkout a pseudo-version naming its commit, with +dirty for uncommitted changes), else
devel-<commit> for a checkout build with an older Go, else dev.`,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fail(exitError, fmt.Errorf("version takes no arguments, got %q", c.Args().First()))
			}
			_, err := fmt.Fprintf(c.App.Writer, "vouch version %s\n", c.App.Version)
			return err
		},
	}
}
