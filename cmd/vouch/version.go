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
		Description: `Prints the version: the one set at link time, else the module version go install
recorded (a tag or a pseudo-version), else devel-<commit> for a build from a checkout, else dev.`,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fail(exitError, fmt.Errorf("version takes no arguments, got %q", c.Args().First()))
			}
			_, err := fmt.Fprintf(c.App.Writer, "vouch version %s\n", c.App.Version)
			return err
		},
	}
}
