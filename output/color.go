package output

import (
	"fmt"
	"io"
	"os"

	"github.com/vouch-dev/vouch/suggest"
)

// colorModes are the values of every --color flag.
var colorModes = []string{"always", "auto", "never"}

// ColorModes lists the values a --color flag accepts.
func ColorModes() []string { return append([]string(nil), colorModes...) }

// Color decides whether text written to w is coloured. mode is a --color
// value: "always", "never", or "auto" (also ""), which colours only a
// terminal and never when NO_COLOR is set to a non-empty value, as
// https://no-color.org asks.
func Color(mode string, w io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		if os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		return isTerminal(w), nil
	}
	return false, fmt.Errorf("unknown --color %q%s; use auto, always or never", mode, suggest.Hint(mode, colorModes))
}

// isTerminal reports whether w is a character device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Painter colours words of a text report with ANSI escapes, the same
// colours in every command: green for a pass, red for a failure, yellow
// for a warning or an observed failure. Its zero value paints nothing, so
// a report written to a file or a pipe stays plain.
type Painter struct {
	// On turns colour on; NewPainter decides it from --color.
	On bool
}

// NewPainter is the painter for text written to w under a --color mode
// (see Color).
func NewPainter(mode string, w io.Writer) (Painter, error) {
	on, err := Color(mode, w)
	return Painter{On: on}, err
}

// Paint wraps s in the SGR code, when on.
func (p Painter) Paint(code, s string) string {
	if !p.On || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// Pass paints s green.
func (p Painter) Pass(s string) string { return p.Paint("32", s) }

// Fail paints s bold red.
func (p Painter) Fail(s string) string { return p.Paint("31;1", s) }

// Warn paints s yellow.
func (p Painter) Warn(s string) string { return p.Paint("33", s) }
