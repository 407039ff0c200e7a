package output

import "strconv"

// Count writes a count with its noun in the right number: "1 error",
// "2 errors", "0 errors". Messages never say "error(s)". noun is the
// singular; every noun vouch counts takes a plain -s.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
