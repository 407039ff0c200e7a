package receipt

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/vouch-dev/vouch/output"
)

// DefaultPath is the receipt `vouch receipt verify` reads when none is
// named: FileName in the gate's out directory, else beside the envelope.
func DefaultPath(outDir, envelope string) string {
	if outDir == "" {
		outDir = filepath.Dir(envelope)
	}
	return filepath.Join(outDir, FileName)
}

// WriteProblems lists every way a receipt does not hold, one FAIL line each.
func WriteProblems(w io.Writer, probs []Problem, paint output.Painter) error {
	var b strings.Builder
	for _, p := range probs {
		fmt.Fprintf(&b, "%s %s: %s\n", paint.Fail("FAIL"), p.Subject, p.Msg)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteOK describes a receipt that holds: how it was checked (opts.Key
// set means the MAC was), the files it covers, the verdict, and notes on
// what was accepted rather than checked. path is the receipt's file.
func (r *Receipt) WriteOK(w io.Writer, path string, opts Options, paint output.Painter) error {
	var b strings.Builder
	how := "hashes match; unsigned, so the receipt itself is not authenticated"
	if opts.Key != nil {
		how = "hashes match and the HMAC-SHA256 is valid"
	}
	var ids []string
	for _, p := range r.Predicates {
		ids = append(ids, fmt.Sprintf("%d:%s", p.Index, p.Status))
	}
	fmt.Fprintf(&b, "%s %s: %s\n  rulespec %s sha256:%s\n  envelope %s sha256:%s\n  program  %s sha256:%s\n",
		paint.Pass("OK"), path, how, r.Rulespec.Path, r.Rulespec.SHA256, r.Envelope.Path, r.Envelope.SHA256, r.Program.Path, r.Program.SHA256)
	if r.Config != nil {
		fmt.Fprintf(&b, "  config   %s sha256:%s\n", r.Config.Path, r.Config.SHA256)
	}
	if r.Root != nil {
		fmt.Fprintf(&b, "  root     %s, %s rehashed\n", *r.Root, output.Count(len(r.Evidence), "evidence file"))
	}
	fmt.Fprintf(&b, "  verdict %s (%s), vouch %s, %s\n", r.Verdict, strings.Join(ids, " "), r.Vouch, r.Created)
	if r.PassedOnObserved() {
		b.WriteString("  observed: the pass relied on observed failures (accepted with --allow-observed)\n")
	}
	if opts.Rulespec == "" {
		fmt.Fprintf(&b, "  note: no vouch.yaml and no --rulespec, so the rulespec was not checked against an expected one; this receipt covers %s\n",
			filepath.Join(filepath.Dir(path), filepath.FromSlash(r.Rulespec.Path)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
