package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/lint"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/suggest"
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
baseline, strict) supplies defaults; flags override it. Without PATH the root is the
directory of vouch.yaml when one is found, else the git top level, else the working directory. Imports are extracted as by 'vouch imports'.
The program and an evaluation trace are written to --out (default PATH/.vouch/lint).
No rules found is exit 2 when rules were asked for (--config, or an architecture: section),
else a warning that nothing was checked (exit 1 with --strict).

Exit codes: 0 no error findings (warnings fail only with --strict), 1 findings,
2 configuration or input error. See docs/lint.md.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, json, porcelain, github or sarif"},
			&cli.BoolFlag{Name: "strict", Usage: "warnings and inert rules fail the run"},
			&cli.StringFlag{Name: "config", Usage: "architecture file (architecture.yaml, or a .beadloom/_graph directory or its rules.yml)"},
			&cli.StringFlag{Name: "baseline", Usage: "JSON file of accepted findings: only new findings fail"},
			&cli.BoolFlag{Name: "update-baseline", Usage: "write today's findings to --baseline and exit 0"},
			&cli.StringFlag{Name: "out", Usage: "directory for architecture.compiled.dl and lint_evaluation.txt (default PATH/.vouch/lint)"},
			&cli.StringFlag{Name: "today", Usage: "the date exemptions are checked against, YYYY-MM-DD (default: today, UTC)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "neither read nor write the import cache"},
		},
		Action: runLint,
	}
}

func runLint(c *cli.Context) error {
	start := time.Now()
	format := c.String("format")
	if !slices.Contains(lint.Formats(), format) {
		return fail(exitError, fmt.Errorf("lint: unknown --format %q%s; want one of %s",
			format, suggest.Hint(format, lint.Formats()), strings.Join(lint.Formats(), ", ")))
	}
	out, errOut := c.App.Writer, c.App.ErrWriter
	// Configuration errors are rendered in the chosen format, so a SARIF
	// consumer always receives a valid log.
	configFail := func(errs []lint.ConfigError) error {
		r := &lint.Report{Version: lint.ReportVersion, Findings: []lint.Finding{}, Stale: []lint.StaleEntry{}, Skipped: []lint.SkippedRule{}, Errors: errs}
		switch format {
		case "sarif":
			_ = r.WriteSARIF(out, c.App.Version)
		case "json":
			_ = r.WriteJSON(out)
		case "github":
			_ = r.WriteGitHub(out)
		}
		for _, e := range errs {
			fmt.Fprintln(errOut, "vouch: lint: "+e.String())
		}
		return fail(exitError, nil)
	}
	one := func(err error) error { return configFail([]lint.ConfigError{{Message: err.Error()}}) }

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
			errs := make([]lint.ConfigError, 0, len(cl))
			for _, e := range cl {
				errs = append(errs, lint.ConfigError{File: e.File, Line: e.Line, Column: e.Col, Message: e.Msg})
			}
			return configFail(errs)
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
	today := arch.Day(time.Now())
	if s := c.String("today"); s != "" {
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return one(fmt.Errorf("--today %q is not a date; want YYYY-MM-DD", s))
		}
		today = arch.Day(d)
	}
	model, err := arch.Load(root, archConfig)
	if err != nil {
		return configFail(configErrors(err))
	}
	// No rules: an error when they were asked for (--config, or vouch.yaml's
	// architecture: section), else a warning that nothing was checked.
	var notices []lint.ConfigError
	if len(model.Rules) == 0 {
		switch {
		case c.String("config") != "":
			return configFail([]lint.ConfigError{noRulesError(model, root, archConfig, "--config", "point --config at a file with rules")})
		case section:
			return configFail([]lint.ConfigError{noRulesError(model, root, archConfig, "vouch.yaml's architecture: section", "remove the section to turn the check off")})
		}
		notices = append(notices, noRulesNotice(model, root))
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		// Same soft limit as vouch imports: extraction outpaces the
		// collector on large trees.
		debug.SetMemoryLimit(256 << 20)
		if _, set := os.LookupEnv("GOGC"); !set {
			// Evaluation allocates many short-lived substitutions; under
			// the limit above, collecting less often saves ~10% of a warm
			// run without raising the peak.
			debug.SetGCPercent(400)
		}
	}
	scan, err := imports.Scan(c.Context, root, imports.Options{NoCache: c.Bool("no-cache")})
	if err != nil {
		return one(err)
	}
	var annot map[string][]string
	if model.Annotations {
		annot = readAnnotations(root, scan.Files)
	}
	if err := model.Finish(scan.Files); err != nil {
		return configFail(configErrors(err))
	}
	var baseline []lint.BaselineEntry
	if b := baselineFile; b != "" && !c.Bool("update-baseline") {
		if baseline, err = lint.ReadBaseline(b); err != nil {
			return one(err)
		}
	}
	o, err := lint.Run(model, scan, annot, lint.Options{Today: today})
	if err != nil {
		return one(err)
	}
	dir := c.String("out")
	if dir == "" {
		dir = filepath.Join(root, ".vouch", "lint")
	}
	arts, err := writeLintArtifacts(o, dir)
	if err != nil {
		return one(err)
	}
	rep := lint.NewReport(o, strict)
	rep.Artifacts = arts
	rep.Notices = notices
	for _, n := range notices {
		fmt.Fprintln(errOut, "vouch: lint: warning: "+n.String())
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
		fmt.Fprintf(errOut, "vouch: lint: recorded %d findings in %s\n", n, baselineFile)
		if left := len(rep.Findings) - n; left > 0 {
			fmt.Fprintf(errOut, "vouch: lint: %d inert-rule or exemption findings are configuration problems and were not recorded; fix the configuration\n", left)
		}
		return nil
	}
	if baseline != nil {
		rep.Stale = lint.ApplyBaseline(rep.Findings, baseline)
	}
	rep.Time = time.Since(start)
	rep.Count()
	switch format {
	case "json":
		err = rep.WriteJSON(out)
	case "porcelain":
		err = rep.WritePorcelain(out)
	case "github":
		err = rep.WriteGitHub(out)
	case "sarif":
		err = rep.WriteSARIF(out, c.App.Version)
	default:
		var color bool
		if color, err = output.Color("auto", out); err == nil {
			err = rep.WriteText(out, lint.TextOptions{Color: color})
		}
	}
	if err != nil {
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

// noRulesNotice warns that plain vouch lint found no rules, so checked
// nothing: where it looked, and how to add rules.
func noRulesNotice(model *arch.Model, root string) lint.ConfigError {
	if model.Layout == "none" {
		return lint.ConfigError{Message: fmt.Sprintf(
			"no architecture rules found (neither %s nor %s exists): nothing was checked; create %s with rules (docs/lint.md)",
			filepath.Join(root, arch.FileName), filepath.Join(root, filepath.FromSlash(arch.BeadloomDir)), filepath.Join(root, arch.FileName))}
	}
	e := noRulesError(model, root, "", "", "")
	e.Message = "defines no rules vouch evaluates: nothing was checked; add rules to it (docs/lint.md)"
	return e
}

func configErrors(err error) []lint.ConfigError {
	var el arch.ErrorList
	if errors.As(err, &el) {
		out := make([]lint.ConfigError, 0, len(el))
		for _, e := range el {
			out = append(out, lint.ConfigError{File: e.Pos.File, Line: e.Pos.Line, Column: e.Pos.Col, Message: e.Msg})
		}
		return out
	}
	return []lint.ConfigError{{Message: err.Error()}}
}

// readAnnotations reads `beadloom:key=value` annotations from every source
// file; unreadable files simply have none (the import scan already warned).
func readAnnotations(root string, files []string) map[string][]string {
	out := map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil || !bytes.Contains(data, []byte("beadloom:")) {
			continue
		}
		if ids := arch.Annotations(data); len(ids) > 0 {
			out[f] = ids
		}
	}
	return out
}

func writeLintArtifacts(o *lint.Outcome, dir string) (*lint.Artifacts, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create output directory: %w", err)
	}
	var dl bytes.Buffer
	if err := o.WriteDL(&dl); err != nil {
		return nil, fmt.Errorf("render program: %w", err)
	}
	prog := filepath.Join(dir, lint.ProgramFile)
	trace := filepath.Join(dir, lint.TraceFile)
	if err := atomicfile.Write(prog, dl.Bytes(), 0o644); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(trace, o.Trace(dl.Bytes()), 0o644); err != nil {
		return nil, err
	}
	return &lint.Artifacts{Program: filepath.ToSlash(prog), Trace: filepath.ToSlash(trace)}, nil
}
