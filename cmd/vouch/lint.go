package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/config"
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
else derives one node per source directory. vouch.yaml's architecture: section (config,
baseline, strict, new_from) supplies defaults; flags override it. Without PATH the root is the
directory of vouch.yaml when one is found, else the git top level, else the working directory. Imports are extracted as by 'vouch imports'.
The program and an evaluation trace are written to --out (default PATH/.vouch/lint).
--new-from-rev REF reports only findings introduced since REF, as golangci-lint does: the
current rules are also checked on REF's tree and findings already found there are left out;
a REF that is not a commit (or no git) is exit 2.
No rules found is exit 2 when rules were asked for (--config, or an architecture: section),
else a warning that nothing was checked (exit 1 with --strict).

Exit codes: 0 no error findings (warnings fail only with --strict), 1 findings,
2 configuration or input error. See docs/lint.md.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, json, porcelain, github or sarif"},
			outputFlag(),
			colorFlag(),
			&cli.BoolFlag{Name: "strict", Usage: "warnings and inert rules fail the run"},
			&cli.StringFlag{Name: "config", Usage: "architecture file (architecture.yaml, or a .beadloom/_graph directory or its rules.yml)"},
			&cli.StringFlag{Name: "baseline", Usage: "JSON file of accepted findings: only new findings fail"},
			&cli.StringFlag{Name: "new-from-rev", Usage: "report only findings introduced since this git revision (default: architecture.new_from in vouch.yaml)"},
			&cli.BoolFlag{Name: "update-baseline", Usage: "write today's findings to --baseline and exit 0"},
			&cli.StringFlag{Name: "out", Usage: "directory for architecture.compiled.dl and lint_evaluation.txt (default PATH/.vouch/lint)"},
			&cli.StringFlag{Name: "today", Usage: "the date exemptions are checked against, YYYY-MM-DD (default: today, UTC)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "neither read nor write the import cache"},
			&cli.StringSliceFlag{Name: "python-root", Usage: "Python package root, relative to PATH (repeatable); replaces python_roots and auto-detection"},
		},
		Action: runLint,
	}
}

func runLint(c *cli.Context) error {
	format := c.String("format")
	if err := output.CheckFormat(format, lint.Formats()); err != nil {
		return fail(exitError, fmt.Errorf("lint: %w", err))
	}
	out, errOut := c.App.Writer, c.App.ErrWriter
	color, err := output.Color(c.String("color"), out)
	if err != nil {
		return fail(exitError, fmt.Errorf("lint: %w", err))
	}
	targets, err := output.ParseTargets(c.StringSlice("output"), lint.Formats())
	if err != nil {
		return fail(exitError, fmt.Errorf("lint: %w", err))
	}
	if err := output.CheckOutDir(c.String("out")); err != nil {
		return fail(exitError, fmt.Errorf("lint: %w", err))
	}
	// Configuration errors are rendered in the chosen format (and into
	// every --output file), so a SARIF consumer always receives a valid
	// log.
	configFail := func(errs []*lint.ConfigError) error {
		r := lint.ErrorReport(errs)
		render := func(format string, w io.Writer) error {
			switch format {
			case "sarif":
				return r.WriteSARIF(w, c.App.Version)
			case "json":
				return r.WriteJSON(w)
			case "github":
				return r.WriteGitHub(w)
			}
			return nil
		}
		_ = output.WriteTargets(targets, render)
		_ = render(format, out)
		for _, e := range errs {
			fmt.Fprintln(errOut, "vouch: lint: "+e.Error())
		}
		return fail(exitError, nil)
	}
	one := func(err error) error { return configFail([]*lint.ConfigError{{Msg: err.Error()}}) }

	if c.NArg() > 1 {
		return one(errors.New("at most one PATH argument"))
	}
	root := "."
	if c.NArg() == 1 {
		root = c.Args().First()
	}
	// vouch.yaml's architecture: section supplies defaults; flags override.
	arc, cfgRoot, section, err := lintConfig(c)
	if err != nil {
		var cl config.ErrorList
		if errors.As(err, &cl) {
			return configFail(cl)
		}
		return one(err)
	}
	if c.NArg() == 0 {
		// The root every command uses: vouch.yaml's directory, else the
		// git top level, else the working directory.
		root = cfgRoot
	}
	archConfig := pick(c.String("config"), arc.Config)
	baselineFile := pick(c.String("baseline"), arc.Baseline)
	strict := arc.Strict
	if c.IsSet("strict") {
		strict = c.Bool("strict")
	}
	if c.Bool("update-baseline") && baselineFile == "" {
		return one(errors.New("--update-baseline needs --baseline FILE (or architecture.baseline in vouch.yaml)"))
	}
	var today time.Time
	if s := c.String("today"); s != "" {
		if today, err = time.Parse("2006-01-02", s); err != nil {
			return one(fmt.Errorf("--today %q is not a date; want YYYY-MM-DD", s))
		}
	}
	cfg := lint.Config{File: archConfig, Baseline: baselineFile, SkipBaseline: c.Bool("update-baseline"),
		Strict: strict, Today: today, NoCache: c.Bool("no-cache"), Out: c.String("out")}
	if ref := c.String("new-from-rev"); ref != "" {
		cfg.NewFromRev, cfg.NewFromFrom = ref, "--new-from-rev"
	} else if c.IsSet("new-from-rev") {
		return one(errors.New("--new-from-rev needs a revision (a branch, tag or commit)"))
	} else if arc.NewFrom != "" {
		cfg.NewFromRev, cfg.NewFromFrom = arc.NewFrom, arc.NewFromAt
	}
	if cfg.NewFromRev != "" && c.Bool("update-baseline") {
		return one(errors.New("--update-baseline records every finding; it cannot be combined with --new-from-rev or architecture.new_from"))
	}
	if c.IsSet("python-root") {
		cfg.PythonRoots = c.StringSlice("python-root")
	}
	// No rules: an error when they were asked for (--config, or vouch.yaml's
	// architecture: section), else a notice that nothing was checked.
	switch {
	case c.String("config") != "":
		cfg.RequiredBy, cfg.Remedy = "--config", "point --config at a file with rules"
	case section:
		cfg.RequiredBy, cfg.Remedy = "vouch.yaml's architecture: section", "remove the section to turn the check off"
	}
	rep, err := lint.Check(c.Context, root, cfg)
	var ce *lint.ConfigErrors
	switch {
	case errors.As(err, &ce):
		return configFail(ce.List)
	case err != nil:
		return one(err)
	}
	for _, n := range rep.Notices {
		fmt.Fprintln(errOut, "vouch: lint: warning: "+n.Error())
	}
	if cfg.NewFromRev != "" {
		fmt.Fprintf(errOut, "vouch: lint: %s already present at %s left out (%s)\n",
			lint.Plural(rep.Preexisting, "finding"), cfg.NewFromRev, cfg.NewFromFrom)
	}
	if c.Bool("update-baseline") {
		entries := lint.MakeBaseline(rep.Findings)
		if err := lint.WriteBaseline(baselineFile, entries); err != nil {
			return one(err)
		}
		n := 0
		for _, e := range entries {
			n += e.Count
		}
		fmt.Fprintf(errOut, "vouch: lint: recorded %s in %s\n", lint.Plural(n, "finding"), baselineFile)
		if left := len(rep.Findings) - n; left > 0 {
			fmt.Fprintf(errOut, "vouch: lint: %d inert-rule or exemption findings are configuration problems and were not recorded; fix the configuration\n", left)
		}
		return nil
	}
	render := func(format string, w io.Writer) error {
		switch format {
		case "json":
			return rep.WriteJSON(w)
		case "porcelain":
			return rep.WritePorcelain(w)
		case "github":
			return rep.WriteGitHub(w)
		case "sarif":
			return rep.WriteSARIF(w, c.App.Version)
		}
		// Colour only on standard output, never in a report file.
		return rep.WriteText(w, lint.TextOptions{Color: color && w == out})
	}
	if err := output.WriteTargets(targets, render); err != nil {
		return fail(exitError, fmt.Errorf("lint: %w", err))
	}
	if err := render(format, out); err != nil {
		return fail(exitError, fmt.Errorf("lint: writing output: %w", err))
	}
	if rep.Fails(strict) {
		return fail(exitFail, nil)
	}
	return nil
}

// lintConfig reads vouch.yaml for vouch lint: PATH/vouch.yaml when PATH is
// given, else the one found upward from the working directory (whose
// directory then becomes the root scanned). It returns the architecture
// settings (empty when there is no section) and the root of the vouch.yaml
// read, "" when none was read, and whether the section is present.
func lintConfig(c *cli.Context) (*config.Architecture, string, bool, error) {
	none := &config.Architecture{}
	at := ""
	if c.NArg() == 1 {
		at = c.Args().First()
		if st, err := os.Stat(at); err != nil || !st.IsDir() {
			return none, "", false, nil // the scan reports a bad PATH
		}
	}
	cfg, err := config.Load(".", at)
	if err != nil {
		return none, "", false, err
	}
	if cfg.File == "" {
		return none, cfg.Root, false, nil
	}
	if cfg.Architecture != nil {
		return cfg.Architecture, cfg.Root, true, nil
	}
	return none, cfg.Root, false, nil
}
