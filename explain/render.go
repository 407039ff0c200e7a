package explain

import (
	"fmt"
	"io"
	"strings"

	"github.com/vouch-dev/vouch/output"
)

// WriteJSON writes the explanation as indented JSON; the same inputs give
// the same bytes.
func (e *Explanation) WriteJSON(w io.Writer) error {
	if err := output.WriteJSON(w, e); err != nil {
		return fmt.Errorf("explanation: %w", err)
	}
	return nil
}

// WriteText writes the explanation for a person: per predicate, the
// sentence, its provenance, selectors, and with an envelope the outcome and
// its derivation, then the clauses it compiled to. p colours the outcome
// (PASS, FAIL, an observed failure) and warnings.
func (e *Explanation) WriteText(w io.Writer, p output.Painter) error {
	var b strings.Builder
	for _, warn := range e.Warnings {
		b.WriteString(p.Warn("warning:") + " " + warn + "\n")
	}
	for i, pr := range e.Predicates {
		p, paint := pr, p
		if i > 0 {
			b.WriteString("\n")
		}
		name := fmt.Sprintf("[%d]", p.Index)
		if p.ID != "" {
			name = fmt.Sprintf("[%d %s]", p.Index, p.ID)
		}
		head := name + " " + p.Sentence
		if p.Outcome != nil {
			status := strings.ToUpper(p.Outcome.Status)
			if status == "SKIPPED" {
				status = "SKIP"
			}
			if p.Outcome.Vacuous {
				status += " (vacuous)"
			}
			switch {
			case p.Outcome.Observed:
				status = paint.Warn(status + " (observed: reported, not enforced)")
			case p.Outcome.Status == "fail":
				status = paint.Fail(status)
			case p.Outcome.Status == "pass" && !p.Outcome.Vacuous:
				status = paint.Pass(status)
			case p.Outcome.Vacuous:
				status = paint.Warn(status)
			}
			head = status + " " + head
		}
		b.WriteString(head + "\n")
		if p.Source != "" {
			b.WriteString("  source: " + p.Source + "\n")
		}
		if p.Notes != "" {
			b.WriteString("  notes: " + p.Notes + "\n")
		}
		for _, s := range p.Selectors {
			fmt.Fprintf(&b, "  selector %s: %s\n", s.Claim, s.Text)
			b.WriteString("    reads " + s.Reads + "\n")
			if s.Present != nil {
				if *s.Present {
					b.WriteString("    found " + short(string(s.Found)) + "\n")
				} else {
					b.WriteString("    found nothing (absent)\n")
				}
			}
		}
		if o := p.Outcome; o != nil {
			if o.Message != "" {
				b.WriteString("  why: " + o.Message + "\n")
			}
			for _, d := range o.Diagnosis {
				b.WriteString("  hint: " + d + "\n")
			}
			if len(o.Citations) > 0 {
				b.WriteString("  cited paths (ref_* facts of the evaluated program):\n")
			}
			for _, c := range o.Citations {
				pad := "    "
				if strings.HasPrefix(c.Check, "w") {
					pad += "when: "
				}
				b.WriteString(pad + c.Describe() + "\n")
			}
			if o.CitationsOmitted > 0 {
				fmt.Fprintf(&b, "    ... and %d more cited paths\n", o.CitationsOmitted)
			}
			b.WriteString("  derivation:\n")
			writeProof(&b, o.Derivation, "    ")
			if o.VacuousBecause != nil {
				b.WriteString("  checked nothing because:\n")
				writeProof(&b, o.VacuousBecause, "    ")
			}
			for _, ev := range o.Evidence {
				b.WriteString("  evidence: " + ev + "\n")
			}
		}
		b.WriteString("  compiled to:\n")
		for _, f := range p.Facts {
			b.WriteString("    " + f + "\n")
		}
		for _, c := range p.Clauses {
			b.WriteString("    " + c + "\n")
		}
	}
	if e.Verdict != "" {
		fmt.Fprintf(&b, "\nrun verdict: %s\n", e.Verdict)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeProof(b *strings.Builder, p *Proof, pad string) {
	if p == nil {
		return
	}
	if p.Clause == "" {
		fmt.Fprintf(b, "%s%s  [fact]\n", pad, p.Fact)
		return
	}
	fmt.Fprintf(b, "%s%s  because\n", pad, p.Fact)
	fmt.Fprintf(b, "%s  by %s\n", pad, p.Clause)
	for _, l := range p.Body {
		switch l.Kind {
		case "derived":
			writeProof(b, l.Proof, pad+"  ")
		case "absent":
			fmt.Fprintf(b, "%s  %s  [no such fact]\n", pad, l.Text)
		case "builtin":
			fmt.Fprintf(b, "%s  %s  [holds]\n", pad, l.Text)
		default:
			fmt.Fprintf(b, "%s  %s  [fact]\n", pad, l.Text)
		}
	}
}
