package arch

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/vouch-dev/vouch/internal/lazyre"
)

// CompileDepRegex compiles a dependency-cruiser path pattern. Patterns are
// JavaScript regular expressions; vouch runs them as Go's RE2, which has
// no lookaround and no back-references, so those are refused with a clear
// error rather than silently meaning something else. With groups, $0..$9
// placeholders (references to the from path's groups) are allowed and
// checked with a stand-in value.
func CompileDepRegex(s string, groups bool) (*regexp.Regexp, error) {
	if s == "" {
		return nil, fmt.Errorf("empty regular expression")
	}
	for _, bad := range []struct{ tok, what string }{
		{"(?=", "lookahead (?=...)"}, {"(?!", "negative lookahead (?!...)"},
		{"(?<=", "lookbehind (?<=...)"}, {"(?<!", "negative lookbehind (?<!...)"},
	} {
		if strings.Contains(s, bad.tok) {
			return nil, fmt.Errorf("regular expression %q uses %s, which Go's RE2 engine does not support; rewrite it without it (for a path to avoid, use path_not/pathNot)", s, bad.what)
		}
	}
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' {
			if c := s[i+1]; c >= '1' && c <= '9' {
				return nil, fmt.Errorf("regular expression %q uses the back-reference \\%c, which Go's RE2 engine does not support", s, c)
			}
			if s[i+1] == 'k' && i+2 < len(s) && s[i+2] == '<' {
				return nil, fmt.Errorf("regular expression %q uses a named back-reference, which Go's RE2 engine does not support", s)
			}
			i++
		}
	}
	if !groups && groupRef().MatchString(s) {
		return nil, fmt.Errorf("regular expression %q refers to a group ($1...), which only a to path or path_not may do", s)
	}
	// A $1 left in the pattern compiles (end of text, then "1"), as it
	// does in JavaScript, so the pattern is checked as written.
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q: %v", s, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

var groupRef = lazyre.New(`\$[0-9]`)

// ExpandGroups replaces $0..$9 in a to-side pattern with the from path's
// match and groups, as dependency-cruiser does: the text is inserted as it
// is (not quoted), and a placeholder without a group stays in the pattern.
func ExpandGroups(pattern string, groups []string) string {
	return groupRef().ReplaceAllStringFunc(pattern, func(m string) string {
		i, _ := strconv.Atoi(m[1:])
		if i < len(groups) {
			return groups[i]
		}
		return m
	})
}
