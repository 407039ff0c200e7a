package output

import (
	"fmt"
	"io"
)

// Sink is where a command's report goes: in its --format to standard
// output, painted per --color, and into each --output file, plain.
type Sink struct {
	// Format is the --format of standard output.
	Format string
	// Paint colours standard output's text.
	Paint Painter
	// Targets are the --output files.
	Targets []Target
	w       io.Writer
}

// NewSink checks a command's --format, --color and --output values
// against the formats it writes. Commands call it before doing anything,
// so that a bad flag leaves nothing behind.
func NewSink(w io.Writer, formats []string, format, color string, outputs []string) (*Sink, error) {
	if err := CheckFormat(format, formats); err != nil {
		return nil, err
	}
	paint, err := NewPainter(color, w)
	if err != nil {
		return nil, err
	}
	targets, err := ParseTargets(outputs, formats)
	if err != nil {
		return nil, err
	}
	return &Sink{Format: format, Paint: paint, Targets: targets, w: w}, nil
}

// Render writes the report into every --output file (never coloured)
// and then to standard output. render writes it in one format.
func (s *Sink) Render(render func(w io.Writer, format string, paint Painter) error) error {
	if err := WriteTargets(s.Targets, func(format string, w io.Writer) error {
		return render(w, format, Painter{})
	}); err != nil {
		return err
	}
	if err := render(s.w, s.Format, s.Paint); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}
