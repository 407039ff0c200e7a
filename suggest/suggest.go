// Package suggest finds the closest known word to a misspelt one, for the
// "did you mean" hints that vouch attaches to its error messages.
package suggest

import "sort"

// Closest returns the candidate nearest to word by edit distance, and whether
// it is near enough to be worth suggesting. Ties go to the candidate that
// sorts first, so the hint is the same on every run.
func Closest(word string, candidates []string) (string, bool) {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestDist := "", -1
	for _, c := range sorted {
		if c == word {
			continue
		}
		d := Distance(word, c)
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist < 0 {
		return "", false
	}
	// Allow roughly one edit in three characters: "min_len" -> "min_length"
	// (3 edits, 10 letters) is a typo, "foo" -> "matches" is not.
	limit := max(len([]rune(word)), len([]rune(best)))/3 + 1
	return best, bestDist <= limit
}

// Hint formats Closest as a message suffix: ` (did you mean "x"?)`, or "" when
// nothing is close.
func Hint(word string, candidates []string) string {
	if c, ok := Closest(word, candidates); ok {
		return ` (did you mean "` + c + `"?)`
	}
	return ""
}

// Distance is the Levenshtein edit distance between a and b, counted in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
