package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/receipt"
)

func receiptCommand() *cli.Command {
	return &cli.Command{
		Name:  "receipt",
		Usage: "check the verification.json a passing gate wrote",
		Subcommands: []*cli.Command{{
			Name:      "verify",
			Usage:     "prove the envelope passed under exactly this rulespec",
			ArgsUsage: "[RECEIPT]",
			Description: `Recomputes the sha256 of the rulespec, the envelope and the compiled program from the
files on disk (paths are relative to the receipt) and, with --key-file or VOUCH_KEY, checks the
receipt's HMAC-SHA256. RECEIPT defaults to verification.json in vouch.yaml's out directory, else
beside the default envelope.

Exit codes: 0 the receipt holds, 1 something changed (every change is listed), 2 the receipt
cannot be read, or it is signed and no key was given.`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "key-file", Usage: "check the MAC with the key in `FILE` (else $VOUCH_KEY)"},
				&cli.StringFlag{Name: "root", Usage: "repository `DIR`, for the default RECEIPT"},
			},
			Action: runReceiptVerify,
		}},
	}
}

func runReceiptVerify(c *cli.Context) error {
	if c.NArg() > 1 {
		return fail(exitError, fmt.Errorf("receipt verify takes at most one RECEIPT, got %d", c.NArg()))
	}
	path := c.Args().First()
	if path == "" {
		cfg, err := loadConfig(c)
		if err != nil {
			return fail(exitError, err)
		}
		dir := cfg.Out
		if dir == "" {
			dir = filepath.Dir(cfg.Envelope)
		}
		path = filepath.Join(dir, receipt.FileName)
	}
	key, err := receiptKey(c)
	if err != nil {
		return fail(exitError, err)
	}
	r, probs, err := receipt.Verify(path, key)
	if err != nil {
		if errors.Is(err, receipt.ErrMalformed) {
			return fail(exitFail, err)
		}
		return fail(exitError, err)
	}
	w := c.App.Writer
	if len(probs) > 0 {
		for _, p := range probs {
			fmt.Fprintf(w, "FAIL %s: %s\n", p.Subject, p.Msg)
		}
		return fail(exitFail, fmt.Errorf("receipt %s does not hold: %d problem(s)", path, len(probs)))
	}
	how := "hashes match; unsigned, so the receipt itself is not authenticated"
	if key != nil {
		how = "hashes match and the HMAC-SHA256 is valid"
	}
	var ids []string
	for _, p := range r.Predicates {
		ids = append(ids, fmt.Sprintf("%d:%s", p.Index, p.Status))
	}
	fmt.Fprintf(w, "OK %s: %s\n  rulespec %s sha256:%s\n  envelope %s sha256:%s\n  program  %s sha256:%s\n  verdict %s (%s), vouch %s, %s\n",
		path, how, r.Rulespec.Path, r.Rulespec.SHA256, r.Envelope.Path, r.Envelope.SHA256, r.Program.Path, r.Program.SHA256,
		r.Verdict, strings.Join(ids, " "), r.Vouch, r.Created)
	return nil
}
