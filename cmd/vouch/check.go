package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/rulecheck"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/suggest"
)

// checkCommand is `vouch check`: static analysis of rulespecs.
func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "analyse rulespecs without an envelope: errors, and warnings about rules that cannot mean what they say",
		ArgsUsage: "[RULESPEC ...]",
		Description: `Loads each RULESPEC (default: vouch.yaml's rulespec, else analysis/rulespec.yaml under the
repository root, found from any subdirectory as every command does) exactly as verify does, then warns
about claims nothing uses, duplicate predicates, contradictions on one claim (including
file_exists with no_file_exists, and any_of lists that share no member), predicates
that can never fail or never pass, selectors with a facts. prefix, and unanchored patterns.
Each warning is file:line:col: warning: message [code]; docs/check.md lists the codes.

Exit codes: 0 no errors (warnings allowed), 1 warnings with --strict, 2 errors.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: text or json"},
			&cli.BoolFlag{Name: "strict", Usage: "exit 1 when there are warnings"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: where vouch.yaml is, else the git top level, else the working directory)"},
		},
		Action: runCheck,
	}
}

// checkReport is the JSON shape of `vouch check --format json`.
type checkReport struct {
	Files    []checkedFile       `json:"files"`
	Warnings []rulecheck.Warning `json:"warnings"`
}

type checkedFile struct {
	File       string `json:"file"`
	Claims     int    `json:"claims"`
	Predicates int    `json:"predicates"`
	Warnings   int    `json:"warnings"`
}

func runCheck(c *cli.Context) error {
	format := c.String("format")
	if format != "text" && format != "json" {
		return fail(exitError, fmt.Errorf("unknown --format %q%s; use text or json", format, suggest.Hint(format, formats)))
	}
	paths := c.Args().Slice()
	if len(paths) == 0 {
		cfg, err := loadConfig(c)
		if err != nil {
			return fail(exitError, err)
		}
		paths = []string{cfg.Rulespec}
	}
	rep := checkReport{Files: []checkedFile{}, Warnings: []rulecheck.Warning{}}
	var errs []string
	for _, p := range paths {
		rs, err := rulespec.Load(p)
		if err != nil {
			var el rulespec.ErrorList
			if errors.As(err, &el) {
				errs = append(errs, el.Error())
			} else {
				errs = append(errs, fmt.Sprintf("%s: %v", p, err))
			}
			continue
		}
		ws := rulecheck.Check(rs)
		rep.Files = append(rep.Files, checkedFile{File: p, Claims: len(rs.Claims), Predicates: len(rs.Predicates), Warnings: len(ws)})
		rep.Warnings = append(rep.Warnings, ws...)
	}
	if len(errs) > 0 {
		return fail(exitError, fmt.Errorf("invalid input:\n%s", strings.Join(errs, "\n")))
	}
	w := c.App.Writer
	if format == "json" {
		if err := output.WriteJSON(w, rep); err != nil {
			return fail(exitError, fmt.Errorf("write report: %w", err))
		}
	} else {
		var b strings.Builder
		for _, wn := range rep.Warnings {
			b.WriteString(wn.String() + "\n")
		}
		for _, f := range rep.Files {
			if f.Warnings == 0 {
				fmt.Fprintf(&b, "ok %s: %s, %s, no warnings\n", f.File, output.Count(f.Claims, "claim"), output.Count(f.Predicates, "predicate"))
			} else {
				fmt.Fprintf(&b, "%s: %s, %s, %s\n", f.File, output.Count(f.Claims, "claim"), output.Count(f.Predicates, "predicate"), output.Count(f.Warnings, "warning"))
			}
		}
		if _, err := fmt.Fprint(w, b.String()); err != nil {
			return fail(exitError, fmt.Errorf("write report: %w", err))
		}
	}
	if c.Bool("strict") && len(rep.Warnings) > 0 {
		return fail(exitFail, nil)
	}
	return nil
}
