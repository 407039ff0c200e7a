package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/vouch-dev/vouch/gate"
	"github.com/vouch-dev/vouch/output"
)

func receiptCommand() *cli.Command {
	return &cli.Command{
		Name:  "receipt",
		Usage: "check the verification.json a passing gate wrote",
		Subcommands: []*cli.Command{{
			Name:      "verify",
			Usage:     "prove the envelope passed under exactly this rulespec",
			ArgsUsage: "[RECEIPT]",
			Description: `Recomputes the sha256 of the rulespec, the envelope, the compiled program, the trace,
vouch.yaml and every file the evidence rules found (under the repository root the gate would
use here, which must be the one the receipt records) from the files on disk (paths are relative
to the receipt) and, with --key-file or VOUCH_KEY, checks the receipt's HMAC-SHA256. RECEIPT defaults to verification.json in vouch.yaml's out
directory, else beside the envelope.

The receipt must name the rulespec and envelope the gate would use here: --rulespec and
--envelope, else vouch.yaml's (compared as cleaned absolute paths), and the vouch.yaml found
here. With neither flags nor vouch.yaml any rulespec is accepted, and the output says which
one the receipt covers. A pass that relied on observed failures (observe mode) is refused
unless --allow-observed. --require-signed refuses an unsigned receipt: use it in CI, where a
missing secret (a fork's pull request) must fail, not skip the MAC check. A receipt that
skipped what vouch.yaml asks for is refused: no architecture block while vouch.yaml has an
architecture: section (gate --no-lint), or strict off while vouch.yaml sets strict: true
(gate --strict=false), or architecture.strict likewise.

Exit codes: 0 the receipt holds, 1 something changed or does not match (every problem is
listed), or the receipt is unsigned under --require-signed, 2 the receipt cannot be read (missing,
garbled, not a vouch receipt), or it is signed (or --require-signed is given) and no key was
given.`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "key-file", Usage: "check the MAC with the key in `FILE` (else $VOUCH_KEY)"},
				&cli.BoolFlag{Name: "require-signed", Usage: "refuse an unsigned receipt (exit 1), and exit 2 when no key is given"},
				&cli.BoolFlag{Name: "allow-observed", Usage: "accept a pass that relied on observed (not enforced) failures"},
				&cli.BoolFlag{Name: "allow-unchecked", Usage: "accept a receipt whose gate decided no predicate (every one skipped: it checked nothing)"},
				maxEvidenceBytesFlag(),
				&cli.StringFlag{Name: "rulespec", Aliases: []string{"r"}, Usage: "the rulespec `FILE` the receipt must cover (default: vouch.yaml's)"},
				&cli.StringFlag{Name: "envelope", Aliases: []string{"e"}, Usage: "the envelope `FILE` the receipt must cover (default: vouch.yaml's)"},
				&cli.StringFlag{Name: "root", Usage: "repository `DIR`, for vouch.yaml and the default RECEIPT"},
				&cli.StringFlag{Name: "base", Usage: "the base `REF` the receipt's repository facts must have compared the work with (default: vouch.yaml's base:, else as vouch gate finds it)"},
				colorFlag(),
			},
			Action: runReceiptVerify,
		}},
	}
}

func runReceiptVerify(c *cli.Context) error {
	if c.NArg() > 1 {
		return fail(exitError, fmt.Errorf("receipt verify takes at most one RECEIPT, got %d", c.NArg()))
	}
	paint, err := output.NewPainter(c.String("color"), c.App.Writer)
	if err != nil {
		return fail(exitError, err)
	}
	chk, err := gate.VerifyReceipt(c.Context, gate.ReceiptRequest{
		Path: c.Args().First(), Root: c.String("root"), RootSet: c.IsSet("root"),
		Rulespec: c.String("rulespec"), Envelope: c.String("envelope"),
		KeyFile: c.String("key-file"), KeyEnv: os.Getenv("VOUCH_KEY"),
		RequireSigned: c.Bool("require-signed"), AllowObserved: c.Bool("allow-observed"),
		AllowUnchecked: c.Bool("allow-unchecked"), MaxEvidenceBytes: c.Int64("max-evidence-bytes"),
		Base: c.String("base"),
	})
	if err != nil {
		// A garbled or unreadable receipt, a signed one without a key:
		// nothing could be checked.
		return fail(exitError, err)
	}
	if err := chk.WriteText(c.App.Writer, paint); err != nil {
		return fail(exitError, err)
	}
	if err := chk.Err(); err != nil {
		return fail(exitFail, err)
	}
	return nil
}
