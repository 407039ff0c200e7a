package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/lint"
	"github.com/vouch-dev/vouch/output"
)

// lintCommand is `vouch lint [PATH]`: architecture rules over the
// repository's graph and its imports, decided in datalog.
func lintCommand() *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "check the repository's imports and graph against its architecture rules",
		ArgsUsage: "[PATH]",
		Description: `Reads PATH/architecture.yaml, else PATH/.beadloom/_graph (nodes, edges and rules.yml),
else import-linter's configuration (setup.cfg [importlinter], .importlinter, pyproject.toml
[tool.importlinter]), else .dependency-cruiser.json (or .js/.cjs exporting a plain object
literal); without nodes, derives one node per source directory. vouch.yaml's architecture: section (config,
baseline, strict, new_from) supplies defaults; flags override it. Without PATH the root is the
directory of vouch.yaml when one is found, else the git top level, else the working directory. Imports are extracted as by 'vouch imports',
from git's files; of the .gitignore rules only those HEAD has hide a file (under vouch gate, its
base's): a file only a rule the work added ignores is linted, with a warning.
The program and an evaluation trace are written to --out (default PATH/.vouch/lint).
--new-from-rev REF reports only findings introduced since REF, as golangci-lint does: the
current rules are also checked on REF's tree and findings already found there are left out;
a REF that is not a commit (or no git) is exit 2.
--explain-config prints the rules as vouch understands them, as architecture.yaml (a
foreign file's rules each with the file:line they came from), and exits 0 without linting.
No rules found is exit 2 when rules were asked for (--config, or an architecture: section),
else a warning that nothing was checked (exit 1 with --strict).

Exit codes: 0 no error findings (warnings fail only with --strict; info findings never), 1 findings,
2 configuration or input error. See docs/lint.md.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, json, porcelain, github, sarif or junit"},
			outputFlag(lint.Formats()...),
			colorFlag(),
			progressFlag(),
			&cli.BoolFlag{Name: "strict", Usage: "warnings and inert rules fail the run"},
			&cli.StringFlag{Name: "config", Usage: "architecture file (architecture.yaml, a .beadloom/_graph directory or its rules.yml, import-linter's .importlinter, setup.cfg or pyproject.toml, or a dependency-cruiser configuration)"},
			&cli.StringFlag{Name: "baseline", Usage: "JSON file of accepted findings: only new findings fail"},
			&cli.StringFlag{Name: "new-from-rev", Usage: "report only findings introduced since this git revision (default: architecture.new_from in vouch.yaml)"},
			&cli.BoolFlag{Name: "update-baseline", Usage: "write today's findings to --baseline and exit 0"},
			&cli.StringFlag{Name: "out", Usage: "directory for architecture.compiled.dl and lint_evaluation.txt (default PATH/.vouch/lint)"},
			&cli.StringFlag{Name: "today", Usage: "the date exemptions are checked against, YYYY-MM-DD (default: today, UTC)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "neither read nor write the import cache"},
			&cli.BoolFlag{Name: "explain-config", Usage: "print the rules as vouch understands them (another tool's configuration translated into architecture.yaml, each rule with the file:line it came from) and exit"},
			&cli.StringSliceFlag{Name: "python-root", Usage: "Python package root, relative to PATH (repeatable); replaces python_roots and auto-detection"},
		},
		Action: runLint,
	}
}

func runLint(c *cli.Context) error {
	sink, err := newSink(c, lint.Formats())
	if err != nil {
		return fail(exitError, fmt.Errorf("lint: %w", err))
	}
	if len(sink.Targets) > 0 {
		own := vouchFiles(c.Args().First(), c.Args().First() != "", "", c.String("config"), c.String("baseline"))
		if err := checkOutputs(sink, own); err != nil {
			return fail(exitError, fmt.Errorf("lint: %w", err))
		}
	}
	if err := output.CheckOutDir(c.String("out")); err != nil {
		return fail(exitError, fmt.Errorf("lint: %w", err))
	}
	req := lint.Request{Config: c.String("config"), Baseline: c.String("baseline"),
		UpdateBaseline: c.Bool("update-baseline"), NewFromRev: c.String("new-from-rev"), NewFromRevSet: c.IsSet("new-from-rev"),
		Today: c.String("today"), NoCache: c.Bool("no-cache"), Out: c.String("out"), Strict: setBool(c, "strict")}
	if c.IsSet("python-root") {
		req.PythonRoots = c.StringSlice("python-root")
	}
	failed, err := lint.Command(c.Context, lint.CommandOptions{Request: req, Args: c.Args().Slice(), ExplainConfig: c.Bool("explain-config"),
		Version: c.App.Version, Sink: sink, Stdout: c.App.Writer, Stderr: c.App.ErrWriter, Progress: c.String("progress")})
	switch {
	case errors.Is(err, lint.ErrReported):
		return fail(exitError, nil)
	case err != nil:
		return fail(exitError, err)
	case failed:
		return fail(exitFail, nil)
	}
	return nil
}
