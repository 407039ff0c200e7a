package guard

import "unicode/utf8"

// toolGlob reports whether a tool name matches a rule's tool selector the
// way Edictum's rulesets mean it (Python's fnmatch): `*` matches any run of
// characters and `?` any one character, slashes included, and `[...]` a
// character class (`[!...]` or `[^...]` negated, `a-z` ranges). path.Match
// stops `*` at a slash, so a deny rule on `mcp_*` missed a tool named
// `mcp_../../etc/passwd`. A malformed class matches nothing.
func toolGlob(pattern, name string) bool {
	p, n := chars(pattern), chars(name)
	// Iterative matching with one backtrack point: the last star.
	pi, ni := 0, 0
	star, mark := -1, 0
	for ni < len(n) {
		if pi < len(p) {
			switch p[pi] {
			case '*':
				star, mark = pi, ni
				pi++
				continue
			case '?':
				pi++
				ni++
				continue
			case '[':
				ok, next, valid := matchClass(p, pi, n[ni])
				if !valid {
					return false
				}
				if ok {
					pi, ni = next, ni+1
					continue
				}
			default:
				if p[pi] == n[ni] {
					pi++
					ni++
					continue
				}
			}
		}
		if star < 0 {
			return false
		}
		pi, mark = star+1, mark+1
		ni = mark
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// matchClass matches c against the class starting at p[i] ('['). It
// returns whether c is in it, the index after the class, and false when
// the class is not closed.
func matchClass(p []rune, i int, c rune) (in bool, next int, valid bool) {
	j := i + 1
	neg := false
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		neg = true
		j++
	}
	first := true
	for j < len(p) && (first || p[j] != ']') {
		first = false
		lo := p[j]
		hi := lo
		if j+2 < len(p) && p[j+1] == '-' && p[j+2] != ']' {
			hi = p[j+2]
			j += 2
		}
		if lo <= c && c <= hi {
			in = true
		}
		j++
	}
	if j >= len(p) {
		return false, 0, false
	}
	return in != neg, j + 1, true
}

// chars splits s into characters: its runes, or its bytes when s is not
// valid UTF-8 (so two different invalid bytes never compare equal as
// U+FFFD).
func chars(s string) []rune {
	if utf8.ValidString(s) {
		return []rune(s)
	}
	out := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = rune(s[i])
	}
	return out
}
