package shellfacts

import "strings"

// setOptions reads the shell options set turns on, for the one that
// changes what later commands get: -a (allexport) exports every
// variable assigned after it, so set -a; F=~/.ssh/id_rsa; tool hands
// tool the path as export F=... would. Options come in clusters (-ea,
// -euo pipefail), -o and +o take a name; the first word that is no
// option, or -- or -, starts the positional parameters. A word only
// known at run time may be -a.
func setOptions(w *walker, c *call) {
	for i := 0; i < len(c.args); i++ {
		f := c.args[i]
		if !f.known() {
			w.allexport = true
			continue
		}
		s := f.s
		if s == "--" || s == "-" || len(s) < 2 || (s[0] != '-' && s[0] != '+') {
			return
		}
		on := s[0] == '-'
		takesName := strings.Count(s[1:], "o")
		if on && strings.ContainsRune(s[1:], 'a') {
			w.allexport = true
		}
		for ; takesName > 0 && i+1 < len(c.args); takesName-- {
			i++
			n := c.args[i]
			if !n.known() || (on && n.s == "allexport") {
				w.allexport = true
			}
		}
	}
}
