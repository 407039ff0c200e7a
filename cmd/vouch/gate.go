package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/mangle/ast"
	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/evidence"
	"github.com/vouch-dev/vouch/output"
	"github.com/vouch-dev/vouch/receipt"
	"github.com/vouch-dev/vouch/rulespec"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/verify"
)

var gateFormats = []string{"claude-hook", "github", "json", "text"}

func gateCommand() *cli.Command {
	return &cli.Command{
		Name:      "gate",
		Usage:     "decide whether an agent's work is done: envelope present, well formed, and passing",
		ArgsUsage: " ",
		Description: `The one command a harness or CI calls at plan completion. It requires the envelope
(default from vouch.yaml, else .vouch/envelope.yaml), verifies it against the rulespec with
evidence checked under the repository root, writes the program and trace, and on a pass writes
verification.json (a receipt, signed with --key-file or VOUCH_KEY) beside them; any other
outcome removes an earlier receipt. A pass that relied on observed failures (--observe, mode:
observe) records "observed": true, which 'vouch receipt verify' refuses without
--allow-observed. When vouch.yaml
has an architecture: section (or with --lint) the architecture rules of 'vouch lint' are
evaluated too, and their error findings block the gate like failing predicates.

Exit codes: 0 pass, 1 fail (including a missing envelope), 2 bad input or evaluation error.
With --format claude-hook the exit code is always 0 and the decision is in the JSON, as Claude
Code's Stop hook protocol expects: {"decision": "block", "reason": ...} on anything but a pass,
nothing on a pass.

Examples:
  vouch gate
  vouch gate --format claude-hook        # in .claude/settings.json, hooks.Stop
  vouch gate --format github --observe   # in CI, while rolling out new rules`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "envelope", Aliases: []string{"e"}, Usage: "envelope `FILE` (default: vouch.yaml's envelope, else .vouch/envelope.yaml)"},
			&cli.StringFlag{Name: "rulespec", Aliases: []string{"r"}, Usage: "rulespec `FILE` (default: vouch.yaml's rulespec, else analysis/rulespec.yaml)"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text, json, claude-hook or github"},
			&cli.BoolFlag{Name: "observe", Usage: "report failures without failing the gate (roll out rules safely)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write artifacts and the receipt into `DIR` (default: vouch.yaml's out, else the envelope's directory)"},
			&cli.StringFlag{Name: "root", Usage: "repository `DIR` (default: where vouch.yaml is, else the git top level, else the working directory)"},
			&cli.StringFlag{Name: "key-file", Usage: "sign the receipt with the key in `FILE` (else $VOUCH_KEY)"},
			&cli.BoolFlag{Name: "strict", Usage: "fail predicates that pass only vacuously, and architecture warnings"},
			&cli.BoolFlag{Name: "lint", Usage: "also evaluate the architecture rules (the default when vouch.yaml has an architecture: section)"},
			&cli.BoolFlag{Name: "no-lint", Usage: "do not evaluate the architecture rules ('receipt verify' refuses the receipt when vouch.yaml has an architecture: section)"},
		},
		Action: runGate,
	}
}

// gateResult is everything a gate run decided, for the renderers.
type gateResult struct {
	Verdict  string
	Envelope string
	Rulespec string
	Root     string
	Observe  bool
	Receipt  string
	Signed   bool
	// PassedOnObserved is set when the pass relied on observed failures;
	// the receipt records it and 'receipt verify' refuses it by default.
	PassedOnObserved bool
	// Missing is set when there is no envelope; Report is nil then.
	Missing bool
	// Err is an input or evaluation error; Report is nil then.
	Err    error
	Report *verify.Report
	// Lint is the architecture half, nil when the rules were not evaluated.
	Lint *gateLint
}

// gateJSON is the JSON output: the verify report's fields plus "gate".
type gateJSON struct {
	*verify.Report
	Gate gateFields `json:"gate"`
	// Lint is present when the architecture rules were evaluated.
	Lint *gateLintJSON `json:"lint,omitempty"`
}

type gateFields struct {
	Verdict  string `json:"verdict"`
	Observe  bool   `json:"observe"`
	Root     string `json:"root"`
	Rulespec string `json:"rulespec"`
	Envelope string `json:"envelope"`
	Receipt  string `json:"receipt"`
	Signed   bool   `json:"signed"`
	// PassedOnObserved: the pass relied on observed failures.
	PassedOnObserved bool `json:"passed_on_observed"`
	// Problem says why there is no report: missing_envelope or error.
	Problem string `json:"problem,omitempty"`
	Message string `json:"message,omitempty"`
}

func runGate(c *cli.Context) error {
	format := c.String("format")
	if !slices.Contains(gateFormats, format) {
		return fail(exitError, fmt.Errorf("unknown --format %q%s; use %s", format, suggest.Hint(format, gateFormats), strings.Join(gateFormats, ", ")))
	}
	if c.NArg() > 0 {
		return fail(exitError, fmt.Errorf("gate takes no arguments, got %q; give the envelope with --envelope", c.Args().First()))
	}
	g := gate(c)
	return renderGate(c, format, g)
}

// gate runs the whole decision. It never returns a pass on an error, and
// no receipt survives a run that does not pass (exit 1 or 2): one from an
// earlier pass would otherwise vouch for work this run rejected.
func gate(c *cli.Context) *gateResult {
	g := &gateResult{Verdict: "fail", Observe: c.Bool("observe")}
	path := g.decide(c)
	if g.Verdict == "pass" {
		return g
	}
	g.Receipt = ""
	if path == "" {
		return g
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		err = fmt.Errorf("remove the stale receipt: %w", err)
		if g.Err != nil {
			g.Err = errors.Join(g.Err, err)
		} else {
			g.Err = err
		}
		g.Report = nil
	}
	return g
}

// decide fills g and returns where the receipt goes, so gate can remove a
// stale one on any outcome but a pass.
func (g *gateResult) decide(c *cli.Context) string {
	cfg, err := loadConfig(c)
	if err != nil {
		g.Err = err
		return fallbackReceipt(c)
	}
	g.Root = cfg.Root
	g.Envelope = pick(c.String("envelope"), cfg.Envelope)
	g.Rulespec = pick(c.String("rulespec"), cfg.Rulespec)
	dir := pick(c.String("out"), cfg.Out)
	if dir == "" {
		dir = filepath.Dir(g.Envelope)
	}
	path := filepath.Join(dir, receipt.FileName)
	key, err := receiptKey(c)
	if err != nil {
		g.Err = err
		return path
	}
	withLint, err := lintWanted(c, cfg)
	if err != nil {
		g.Err = err
		return path
	}
	if _, err := os.Stat(g.Envelope); errors.Is(err, fs.ErrNotExist) {
		g.Missing = true
		return path
	}
	// vouch.yaml may set strict; --strict=false on the command line wins.
	strict := cfg.Strict
	if c.IsSet("strict") {
		strict = c.Bool("strict")
	}
	out, err := verify.Run(verify.Input{
		OutDir:       evidenceOutDir(pick(c.String("out"), cfg.Out), cfg.Root),
		RulespecPath: g.Rulespec,
		EnvelopePath: g.Envelope,
		Limits:       cfg.Limits,
		Strict:       strict,
		Observe:      g.Observe,
		Root:         cfg.Root,
	})
	if err != nil {
		var ie *verify.InputError
		if errors.As(err, &ie) {
			err = fmt.Errorf("invalid input:\n%w", err)
		}
		g.Err = err
		return path
	}
	if err := out.WriteArtifacts(dir); err != nil {
		g.Err = err
		return path
	}
	verdict := out.Report.GateVerdict
	if withLint {
		gl, err := runGateLint(c, cfg, g.Observe, c.Bool("strict"), dir)
		g.Lint = gl
		if err == nil {
			// The gate program decides: the rulespec's verdict and the
			// architecture findings, combined in datalog.
			verdict, err = gl.combineGate(out.Report.GateVerdict, dir)
		}
		if err != nil {
			g.Err = err
			return path
		}
	}
	g.Report = out.Report
	if verdict != "pass" {
		return path
	}
	if key == nil {
		// An unsigned pass never silently replaces a signed receipt:
		// whoever checks it with --require-signed would find it gone.
		// The signed one stays (it no longer matches the files, so
		// receipt verify refuses it) and the run is an error.
		if prev, err := receipt.Read(path); err == nil && prev.MAC != nil {
			g.Err = fmt.Errorf("%s is a signed receipt and this run has no key, so it is not replaced by an unsigned one: "+
				"set VOUCH_KEY (or --key-file) to sign, or delete %s to accept unsigned receipts", path, path)
			g.Report = nil
			return ""
		}
	}
	r, err := writeReceipt(path, cfg.File, out, g.Lint, key, c.App.Version)
	if err != nil {
		g.Err = err
		g.Report = nil
		return path
	}
	g.Receipt = path
	g.Signed = key != nil
	g.PassedOnObserved = r.Observed
	g.Verdict = "pass"
	return path
}

// fallbackReceipt is where the receipt would be when vouch.yaml cannot be
// loaded: --out, else the directory of --envelope, else what a lenient
// read of vouch.yaml's out and envelope says, else the default. A receipt
// elsewhere still fails 'vouch receipt verify', which hashes vouch.yaml.
func fallbackReceipt(c *cli.Context) string {
	if d := c.String("out"); d != "" {
		return filepath.Join(d, receipt.FileName)
	}
	if e := c.String("envelope"); e != "" {
		return filepath.Join(filepath.Dir(e), receipt.FileName)
	}
	root := c.String("root")
	if root == "" {
		var err error
		if root, _, err = config.Discover("."); err != nil {
			return ""
		}
	}
	out, env := lenientConfig(filepath.Join(root, config.FileName))
	switch {
	case out != "":
		return filepath.Join(root, out, receipt.FileName)
	case env != "":
		return filepath.Join(root, filepath.Dir(env), receipt.FileName)
	}
	return filepath.Join(root, filepath.Dir(filepath.FromSlash(config.DefaultEnvelope)), receipt.FileName)
}

// lenientConfig reads out and envelope from a vouch.yaml that did not
// load, ignoring every other problem; paths that leave the root are
// dropped.
func lenientConfig(file string) (out, env string) {
	defer func() { _ = recover() }() // yaml.v3 has panicked on hostile input
	data, err := os.ReadFile(file)
	if err != nil || len(data) > config.MaxBytes {
		return "", ""
	}
	var v struct {
		Out      any `yaml:"out"`
		Envelope any `yaml:"envelope"`
	}
	_ = yaml.Unmarshal(data, &v)
	local := func(x any) string {
		s, ok := x.(string)
		if !ok || s == "" || !filepath.IsLocal(filepath.FromSlash(s)) {
			return ""
		}
		return filepath.FromSlash(s)
	}
	return local(v.Out), local(v.Envelope)
}

func writeReceipt(path, configFile string, out *verify.Outcome, gl *gateLint, key []byte, version string) (*receipt.Receipt, error) {
	r, err := receipt.New(path, receipt.Inputs{
		Rulespec: out.Rulespec.File,
		Envelope: out.Envelope.File,
		Program:  out.Report.Artifacts.Program,
		Config:   configFile,
		Trace:    out.Report.Artifacts.Trace,
		Root:     out.Root,
		Evidence: evidenceFiles(out),
	}, version, time.Now())
	if err != nil {
		return nil, err
	}
	r.Strict, r.Observe, r.Verdict = out.Strict, out.Observe, out.Report.GateVerdict
	for _, p := range out.Report.Predicates {
		r.Predicates = append(r.Predicates, receipt.Predicate{Index: p.Index, ID: p.ID, Status: string(p.Status), Observed: p.Observed})
	}
	if gl != nil {
		in := receipt.ArchInputs{Files: gl.Files, Program: gl.Report.Artifacts.Program, Gate: gl.GateProgram, Trace: gl.Report.Artifacts.Trace}
		if err := r.AddArchitecture(path, in, gl.Strict, gl.Observe, gl.Verdict); err != nil {
			return nil, err
		}
		r.Architecture.ObservedFindings = len(gl.Observed)
		// The receipt's verdict is the gate's: both programs passed.
		r.Verdict = "pass"
	}
	// A pass that relied on observed failures says so, and 'receipt
	// verify' refuses it without --allow-observed.
	r.Observed = r.PassedOnObserved()
	if key != nil {
		if err := r.Sign(key); err != nil {
			return nil, err
		}
	}
	return r, r.Write(path)
}

// evidenceFiles are the cited paths the program's evidence facts found:
// every citation with ref_exists(R, /file) and nothing marking it invalid
// or inside .git, by its path without the line suffix. The receipt hashes
// them, so deleting or editing one after the gate breaks it.
func evidenceFiles(out *verify.Outcome) []string {
	str := func(t ast.BaseTerm) (string, bool) {
		c, ok := t.(ast.Constant)
		return c.Symbol, ok && c.Type == ast.StringType
	}
	files := map[string]bool{}
	bad := map[string]bool{}
	for _, f := range out.Program.Facts() {
		if len(f.Args) == 0 {
			continue
		}
		ref, ok := str(f.Args[0])
		if !ok {
			continue
		}
		switch f.Predicate.Symbol {
		case "ref_exists":
			if c, ok := f.Args[len(f.Args)-1].(ast.Constant); ok && c.Type == ast.NameType && c.Symbol == "/file" {
				files[ref] = true
			}
		case "ref_invalid", "ref_git", "ref_root":
			bad[ref] = true
		}
	}
	var paths []string
	for ref := range files {
		if bad[ref] {
			continue
		}
		r, err := evidence.ParseRef(ref)
		if err != nil {
			continue
		}
		paths = append(paths, r.Path)
	}
	slices.Sort(paths)
	return paths
}

// loadConfig reads vouch.yaml (found from the working directory, or under
// --root).
func loadConfig(c *cli.Context) (*config.Config, error) {
	root := ""
	if c.IsSet("root") {
		root = c.String("root")
		if root == "" {
			return nil, errors.New("--root is empty")
		}
	}
	cfg, err := config.Load(".", root)
	if err != nil {
		return nil, fmt.Errorf("invalid configuration:\n%w", err)
	}
	return cfg, nil
}

// receiptKey reads the MAC key from --key-file or VOUCH_KEY; nil means
// unsigned receipts.
func receiptKey(c *cli.Context) ([]byte, error) {
	var key []byte
	switch {
	case c.String("key-file") != "":
		b, err := os.ReadFile(c.String("key-file"))
		if err != nil {
			return nil, fmt.Errorf("--key-file: %w", err)
		}
		key = bytes.TrimRight(b, "\r\n")
	case os.Getenv("VOUCH_KEY") != "":
		key = []byte(os.Getenv("VOUCH_KEY"))
	default:
		return nil, nil
	}
	if len(key) < receipt.MinKeyBytes {
		return nil, fmt.Errorf("the receipt key is %d bytes; use at least %d random bytes (e.g. openssl rand -hex 32)", len(key), receipt.MinKeyBytes)
	}
	return key, nil
}

func pick(flag, fallback string) string {
	if flag != "" {
		return flag
	}
	return fallback
}

// missingMessage tells the agent exactly how to produce the envelope.
func missingMessage(path string) string {
	return fmt.Sprintf("no envelope at %s: the work is not done until it has one. Write the facts of what you did "+
		"as YAML under a top-level facts: mapping, then save it with\n  vouch envelope write %s < envelope.yaml\n"+
		"(or write the file directly) and finish again. The rulespec's claims name the facts it checks.", path, path)
}

func renderGate(c *cli.Context, format string, g *gateResult) error {
	w := c.App.Writer
	var err error
	switch format {
	case "claude-hook":
		// The Stop hook protocol: exit 0 always; block with a reason on
		// anything but a pass, print nothing on a pass.
		if g.Verdict == "pass" {
			return nil
		}
		if err := output.WriteJSON(w, map[string]string{"decision": "block", "reason": "vouch gate: " + gateReason(g)}); err != nil {
			return fail(exitError, err)
		}
		return nil
	case "json":
		j := gateJSON{Report: g.Report, Gate: gateFields{Verdict: g.Verdict, Observe: g.Observe, Root: g.Root,
			Rulespec: g.Rulespec, Envelope: g.Envelope, Receipt: g.Receipt, Signed: g.Signed, PassedOnObserved: g.PassedOnObserved}}
		if g.Report == nil {
			j.Report = &verify.Report{Verdict: "fail", Predicates: []verify.PredicateReport{}, Warnings: []string{}}
			j.Gate.Problem, j.Gate.Message = "error", errText(g.Err)
			if g.Missing {
				j.Gate.Problem, j.Gate.Message = "missing_envelope", missingMessage(g.Envelope)
			}
		}
		if g.Lint != nil && g.Lint.Report != nil {
			j.Lint = g.Lint.json()
		}
		err = output.WriteJSON(w, j)
	case "github":
		err = writeGitHub(w, g)
	default:
		err = writeGateText(c, g)
	}
	if err != nil {
		return fail(exitError, err)
	}
	switch {
	case g.Err != nil:
		return fail(exitError, g.Err)
	case g.Verdict != "pass":
		return fail(exitFail, nil)
	}
	return nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// gateReason is the text an agent reads when the gate blocks it.
func gateReason(g *gateResult) string {
	switch {
	case g.Missing:
		return missingMessage(g.Envelope)
	case g.Err != nil:
		return "the gate could not verify the work, so it is not done (fail closed): " + g.Err.Error()
	}
	var b strings.Builder
	if g.Report.GateVerdict != "pass" {
		fmt.Fprintf(&b, "the envelope %s does not pass the rulespec %s. ", g.Envelope, g.Rulespec)
		_ = g.Report.WriteFixes(&b)
	} else {
		fmt.Fprintf(&b, "the envelope %s passes the rulespec %s, but the repository breaks its architecture rules (%s). ", g.Envelope, g.Rulespec, g.Lint.Source)
	}
	if g.Lint != nil {
		g.Lint.writeLintFixes(&b)
	}
	return b.String()
}

func writeGateText(c *cli.Context, g *gateResult) error {
	w := c.App.Writer
	if g.Missing {
		_, err := fmt.Fprintf(w, "FAIL gate: %s\n", missingMessage(g.Envelope))
		return err
	}
	if g.Report == nil {
		return nil // the error goes to stderr
	}
	color, err := output.Color("auto", w)
	if err != nil {
		return err
	}
	if err := g.Report.WriteText(w, verify.TextOptions{Color: color}); err != nil {
		return err
	}
	if g.Lint != nil {
		if err := g.Lint.writeText(w); err != nil {
			return err
		}
	}
	if g.Verdict == "pass" {
		signed := "unsigned"
		if g.Signed {
			signed = "signed"
		}
		if g.PassedOnObserved {
			signed += "; observed: it passed only because failures were observed, so 'vouch receipt verify' refuses it without --allow-observed"
		}
		_, err = fmt.Fprintf(w, "gate: PASS; receipt %s (%s)\n", g.Receipt, signed)
		return err
	}
	if _, err := fmt.Fprintf(w, "gate: FAIL\n"); err != nil {
		return err
	}
	if g.Report.GateVerdict != "pass" {
		if err := g.Report.WriteFixes(w); err != nil {
			return err
		}
	}
	if g.Lint != nil {
		var b strings.Builder
		g.Lint.writeLintFixes(&b)
		_, err = io.WriteString(w, b.String())
	}
	return err
}

// writeGitHub prints GitHub Actions workflow commands: an error annotation
// per enforced failure and a warning per observed one, on the predicate's
// line in the rulespec.
func writeGitHub(w io.Writer, g *gateResult) error {
	var as []output.Annotation
	switch {
	case g.Missing:
		as = append(as, output.Annotation{Level: "error", File: g.Envelope, Title: "vouch: missing envelope", Message: missingMessage(g.Envelope)})
	case g.Err != nil:
		as = errorAnnotations(g.Err)
	default:
		for _, p := range g.Report.Predicates {
			if p.Status != verify.Fail {
				continue
			}
			level := "error"
			if p.Observed {
				level = "warning"
			}
			name := fmt.Sprintf("[%d]", p.Index)
			if p.ID != "" {
				name = fmt.Sprintf("[%d %s]", p.Index, p.ID)
			}
			msg := fmt.Sprintf("%s %s %s failed: %s", name, p.Claim, p.Rule, p.Message)
			if p.Notes != "" {
				msg += " (note: " + p.Notes + ")"
			}
			if p.Observed {
				msg += " [observed: not blocking]"
			}
			as = append(as, output.Annotation{Level: level, File: g.Rulespec, Line: p.Line, Col: p.Col, Title: "vouch " + name, Message: msg})
		}
		if g.Lint != nil {
			as = append(as, g.Lint.annotations()...)
		}
	}
	if err := output.WriteAnnotations(w, as); err != nil {
		return err
	}
	if g.Missing || g.Err != nil {
		return nil
	}
	s := g.Report.Summary
	line := fmt.Sprintf("vouch gate: %s, %d/%d passed, %d failed (%d observed), %d skipped", strings.ToUpper(g.Verdict), s.Passed, s.Total, s.Failed, s.Observed, s.Skipped)
	if g.Lint != nil {
		line += "; architecture " + g.Lint.summary()
	}
	_, err := io.WriteString(w, line+"\n")
	return err
}

// errorAnnotations turns positioned input errors into annotations on their
// files; anything else becomes one unpositioned annotation.
func errorAnnotations(err error) []output.Annotation {
	var out []output.Annotation
	var rl rulespec.ErrorList
	var cl config.ErrorList
	var ee *envelope.Error
	var ae *archConfigError
	at := func(file string, line, col int, msg string) output.Annotation {
		return output.Annotation{Level: "error", File: file, Line: line, Col: col, Message: msg}
	}
	switch {
	case errors.As(err, &ae):
		for _, e := range ae.errs {
			out = append(out, at(e.File, e.Line, e.Column, e.Message))
		}
	case errors.As(err, &rl):
		for _, e := range rl {
			out = append(out, at(e.File, e.Line, e.Col, e.Msg))
		}
	case errors.As(err, &cl):
		for _, e := range cl {
			out = append(out, at(e.File, e.Line, e.Col, e.Msg))
		}
	case errors.As(err, &ee):
		out = append(out, at(ee.File, ee.Line, ee.Col, ee.Msg))
	default:
		out = append(out, output.Annotation{Level: "error", Title: "vouch", Message: err.Error()})
	}
	return out
}
