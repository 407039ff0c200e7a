package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/schema"
)

// schemaCommand is `vouch schema KIND`: print a file kind's JSON Schema.
func schemaCommand() *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "print the JSON Schema of a rulespec, envelope or rulespec test file",
		ArgsUsage: "rulespec|envelope|rulespec-test",
		Description: `Prints a JSON Schema (draft 2020-12) for editors. Save it and point yaml-language-server
at it with a first line such as:

  # yaml-language-server: $schema=../.vouch/rulespec.schema.json

Exit codes: 0 printed, 2 unknown kind.`,
		Action: runSchema,
	}
}

func runSchema(c *cli.Context) error {
	if c.NArg() != 1 {
		return fail(exitError, fmt.Errorf("schema needs exactly one KIND argument: %s", strings.Join(schema.Kinds(), ", ")))
	}
	data, err := schema.Lookup(c.Args().First())
	if err != nil {
		return fail(exitError, err)
	}
	if _, err := c.App.Writer.Write(data); err != nil {
		return fail(exitError, fmt.Errorf("write schema: %w", err))
	}
	return nil
}
