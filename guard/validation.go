package guard

import (
	"fmt"
	"io"

	"github.com/vouch-dev/vouch/output"
)

// WriteValidation prints what `vouch guard validate` found (Validate):
// the summary on stdout, where scripts read it, and each warning on
// stderr, painted as every vouch warning is.
func WriteValidation(stdout, stderr io.Writer, summary string, warnings []string, paint output.Painter) error {
	if _, err := fmt.Fprintln(stdout, summary); err != nil {
		return err
	}
	for _, w := range warnings {
		if _, err := fmt.Fprintln(stderr, paint.Warn("warning:")+" "+w); err != nil {
			return err
		}
	}
	return nil
}
