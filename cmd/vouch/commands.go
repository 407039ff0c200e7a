package main

import "github.com/urfave/cli/v2"

// commands lists vouch's subcommands.
func commands() []*cli.Command {
	return []*cli.Command{
		verifyCommand(),
		gateCommand(),
		envelopeCommand(),
		receiptCommand(),
		initCommand(),
		importsCommand(),
		lintCommand(),
		explainCommand(),
		checkCommand(),
		guardCommand(),
		testCommand(),
		schemaCommand(),
		versionCommand(),
		completionCommand(),
	}
}
