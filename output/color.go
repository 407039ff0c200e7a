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
