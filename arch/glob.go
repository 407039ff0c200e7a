package arch

import (
	"fmt"
	"path"
	"strings"
)

// Glob is a compiled path pattern. Patterns are '/'-separated; "**" as a
// whole segment matches any number of segments (zero included), every other
// segment is a path.Match pattern, so "*" never crosses a '/'. Because "**"
// may match zero segments, "pkg/**" matches "pkg" itself: a bare package
// import such as "requests" is caught by a rule on "requests/**". A class
// is negated with "[!...]" (fnmatch) or "[^...]".
type Glob struct {
	pattern string
	segs    []string
	// prefix is the leading literal segments joined by '/': every name
	// the pattern matches starts with it, which rejects most names
	// without splitting them.
	prefix string
}

// CompileGlob checks a pattern's syntax.
func CompileGlob(pattern string) (Glob, error) {
	if pattern == "" {
		return Glob{}, fmt.Errorf("empty glob")
	}
	p := strings.TrimPrefix(pattern, "./")
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if s == "**" {
			continue
		}
		// fnmatch (the seed's tool is Python) negates a class with "[!";
		// path.Match with "[^".
		s = strings.ReplaceAll(s, "[!", "[^")
		segs[i] = s
		if _, err := path.Match(s, ""); err != nil {
			return Glob{}, fmt.Errorf("bad glob %q: %w", pattern, err)
		}
	}
	var lit []string
	for _, s := range segs {
		if s == "**" || strings.ContainsAny(s, "*?[\\") {
			break
		}
		lit = append(lit, s)
	}
	return Glob{pattern: pattern, segs: segs, prefix: strings.Join(lit, "/")}, nil
}

// String is the pattern as written.
func (g Glob) String() string { return g.pattern }

// Prefix is the pattern's leading literal segments joined by '/': every
// name it matches starts with Prefix.
func (g Glob) Prefix() string { return g.prefix }

// IsLiteral reports whether the pattern has no wildcard, so it names
// exactly one path.
func (g Glob) IsLiteral() bool { return !strings.ContainsAny(g.pattern, "*?[\\") }

// Match reports whether name (a '/'-separated path or dotted module turned
// into one) matches the pattern.
func (g Glob) Match(name string) bool {
	if len(g.segs) == 0 {
		return false
	}
	name = strings.TrimPrefix(name, "./")
	if !strings.HasPrefix(name, g.prefix) {
		return false
	}
	return matchSegs(g.segs, strings.Split(name, "/"))
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			// Collapse runs of "**" so the backtracking below stays linear
			// in the number of segments per "**".
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
