package output

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/suggest"
)

// CheckFormat refuses a --format value that is not one of formats, with a
// did-you-mean and the list to choose from, so every command words the
// error the same way.
func CheckFormat(format string, formats []string) error {
	if slices.Contains(formats, format) {
		return nil
	}
	list := strings.Join(formats, ", ")
	if len(formats) == 2 {
		list = formats[0] + " or " + formats[1]
	}
	return fmt.Errorf("unknown --format %q%s; use %s", format, suggest.Hint(format, formats), list)
}
