package main

import (
	"errors"
	"fmt"
	"io"

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
directory of vouch.yaml when one is found, else the git top level, else the working directory. Imports are extracted as by 'vouch imports'.
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
			outputFlag(),
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
	out, errOut := c.App.Writer, c.App.ErrWriter
	if err := output.CheckOutDir(c.String("out")); err != nil {
		return fail(exitError, fmt.Errorf("lint: %w", err))
	}
	ropts := lint.RenderOptions{Version: c.App.Version}
	// Configuration errors are rendered in the chosen format (and into
	// every --output file), so a SARIF consumer always receives a valid
	// log.
	configFail := func(err error) error {
		list := lint.ErrorsOf(err)
		_ = sink.Render(func(w io.Writer, format string, _ output.Painter) error {
			return lint.RenderErrors(w, format, list, ropts)
		})
		for _, e := range list {
			fmt.Fprintln(errOut, "vouch: lint: "+e.Error())
		}
		return fail(exitError, nil)
	}
	if c.NArg() > 1 {
		return configFail(errors.New("at most one PATH argument"))
	}
	opts := lint.Request{Path: c.Args().First(), Config: c.String("config"), Baseline: c.String("baseline"),
		UpdateBaseline: c.Bool("update-baseline"), NewFromRev: c.String("new-from-rev"), NewFromRevSet: c.IsSet("new-from-rev"),
		Today: c.String("today"), NoCache: c.Bool("no-cache"), Out: c.String("out"), Strict: setBool(c, "strict")}
	if c.IsSet("python-root") {
		opts.PythonRoots = c.StringSlice("python-root")
	}
	root, cfg, err := lint.Resolve(opts)
	if err != nil {
		return configFail(err)
	}
	if c.Bool("explain-config") {
		if err := lint.ExplainConfig(root, cfg, out); err != nil {
			return configFail(err)
		}
		return nil
	}
	meter, err := progress(c, "vouch lint: scanning")
	if err != nil {
		return fail(exitError, err)
	}
	if meter != nil {
		cfg.Progress = meter.Update
	}
	rep, err := lint.Check(c.Context, root, cfg)
	meter.Done()
	if err != nil {
		return configFail(err)
	}
	rep.WriteNotes(errOut, cfg)
	if opts.UpdateBaseline {
		if err := lint.RecordBaseline(errOut, cfg, rep); err != nil {
			return configFail(err)
		}
		return nil
	}
	ropts.Strict = cfg.Strict
	if err := sink.Render(func(w io.Writer, format string, p output.Painter) error {
		o := ropts
		o.Color = p.On
		return rep.Render(w, format, o)
	}); err != nil {
		return fail(exitError, fmt.Errorf("lint: %w", err))
	}
	if rep.Fails(cfg.Strict) {
		return fail(exitFail, nil)
	}
	return nil
}
