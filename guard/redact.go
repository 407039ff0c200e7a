package guard

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Redacted replaces a secret in the audit log and in messages.
const Redacted = "[REDACTED]"

// redactors are the patterns that find secrets. They are compiled on
// first use: every vouch process links this package, and compiling them
// at package init was a third of the instructions of a small 'vouch
// verify', which never redacts anything.
type redactors struct {
	// secretKey matches argument names whose values are secrets.
	secretKey *regexp.Regexp
	// secretValues match secrets inside text: provider key formats,
	// bearer tokens, passwords in URLs and in flags, private key blocks.
	secretValues []*regexp.Regexp
	// Inline secrets keep their key and lose their value: URL userinfo,
	// --password=x / --token x flags, KEY=value assignments.
	urlPassword, flagSecret, assignment *regexp.Regexp
	// Header-style "Name: value" lines (HTTP headers in curl -H, YAML,
	// tool output) lose everything after the colon up to a quote or the
	// end of the line: a header value can hold spaces ("token abc").
	headerSecret *regexp.Regexp
	// JSON text ("password": "x") is redacted inside strings too.
	jsonSecret *regexp.Regexp
	// curl -u user:pass / --user=user:pass.
	userFlag *regexp.Regexp
	// Programs whose -p takes the password itself: mysql -pSECRET,
	// docker login -p SECRET.
	mysqlPass, loginPass *regexp.Regexp
	// token finds candidates for bare high-entropy secrets (an AWS secret
	// access key, a random API token with no known prefix).
	token *regexp.Regexp
}

var secrets = sync.OnceValue(func() *redactors {
	return &redactors{
		secretKey: regexp.MustCompile(`(?i)(pass(word|wd)?|secret|token|api[_-]?key|apikey|auth(orization)?|credential|private[_-]?key|session[_-]?key|cookie|bearer)`),
		secretValues: []*regexp.Regexp{
			regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`),
			regexp.MustCompile(`-----BEGIN PGP PRIVATE KEY BLOCK-----[\s\S]*?(-----END PGP PRIVATE KEY BLOCK-----|$)`),
			// Stripe, GitLab, npm, Hugging Face, Google OAuth, SendGrid,
			// AWS temporary key ids, Slack webhooks.
			regexp.MustCompile(`\b(sk|rk)_(live|test)_[A-Za-z0-9]{16,}`),
			regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`),
			regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`),
			regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`),
			regexp.MustCompile(`\bya29\.[A-Za-z0-9_-]{20,}`),
			regexp.MustCompile(`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`),
			regexp.MustCompile(`\bASIA[0-9A-Z]{16}\b`),
			regexp.MustCompile(`https://hooks\.slack\.com/services/[A-Za-z0-9/]+`),
			regexp.MustCompile(`\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}`),
			regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{10,}`),
			regexp.MustCompile(`\b(ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}`),
			regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`),
			regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`),
			regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`),
			regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
			regexp.MustCompile(`(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}`),
		},
		urlPassword:  regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]+:)[^@\s/]+@`),
		flagSecret:   regexp.MustCompile(`(?i)(--?[a-z0-9-]*(pass(word|wd)?|secret|token|api[_-]?key|auth)[a-z0-9-]*[= ])("[^"]*"|'[^']*'|\S+)`),
		assignment:   regexp.MustCompile(`(?i)\b([A-Z0-9_]*(PASS(WORD|WD)?|SECRET|TOKEN|API_?KEY|CREDENTIALS?)[A-Z0-9_]*=)("[^"]*"|'[^']*'|\S+)`),
		headerSecret: regexp.MustCompile(`(?i)\b((?:[a-z0-9-]*-)?(?:authorization|proxy-authorization|cookie|set-cookie|api-?key|token|secret|password|passwd)(?:-[a-z0-9-]*)?:[ \t]*)([^\r\n"']+)`),
		jsonSecret:   regexp.MustCompile(`(?i)("[a-z0-9_-]*(?:pass(?:word|wd)?|secret|token|api[_-]?key|apikey|authorization|cookie|credentials?)[a-z0-9_-]*"\s*:\s*)"(?:[^"\\]|\\.)*"`),
		userFlag:     regexp.MustCompile(`((?:^|\s)(?:-u|--user)[ =]?["']?[^\s:"'@/]+:)([^\s"']+)`),
		mysqlPass:    regexp.MustCompile(`(?i)(\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^|;&\n]*?\s-p)([^\s"']+)`),
		token:        regexp.MustCompile(`[A-Za-z0-9+/=_-]{32,}`),
		loginPass:    regexp.MustCompile(`(?i)(\b(?:docker|podman|buildah|skopeo|helm|oras|nerdctl)\b[^|;&\n]*?\blogin\b[^|;&\n]*?\s-p[ =]?)([^\s"']+)`),
	}
})

// RedactText removes secret-looking values from text.
func RedactText(s string) string {
	p := secrets()
	for _, re := range p.secretValues {
		s = re.ReplaceAllString(s, Redacted)
	}
	s = p.jsonSecret.ReplaceAllString(s, "${1}\""+Redacted+"\"")
	s = p.headerSecret.ReplaceAllString(s, "${1}"+Redacted)
	s = p.userFlag.ReplaceAllString(s, "${1}"+Redacted)
	s = p.mysqlPass.ReplaceAllString(s, "${1}"+Redacted)
	s = p.loginPass.ReplaceAllString(s, "${1}"+Redacted)
	s = p.urlPassword.ReplaceAllString(s, "${1}"+Redacted+"@")
	s = p.flagSecret.ReplaceAllString(s, "${1}"+Redacted)
	s = p.assignment.ReplaceAllString(s, "${1}"+Redacted)
	s = p.token.ReplaceAllStringFunc(s, func(t string) string {
		if randomLooking(t) {
			return Redacted
		}
		return t
	})
	return s
}

// randomLooking reports whether a word of 32 or more characters looks
// like a generated secret rather than a name, a path or a hash: upper- and
// lowercase letters and digits all present, few path separators, and a
// character entropy above 4.3 bits (random base64 of that length measures
// about 4.6-5; identifiers and words stay below 4.2). Hex digests (no
// uppercase), UUIDs and paths are left alone, so the audit keeps what a
// reader needs.
func randomLooking(t string) bool {
	var upper, lower, digit, slash bool
	nslash := 0
	counts := map[rune]int{}
	for _, c := range t {
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		case c == '/':
			slash = true
			nslash++
		}
		counts[c]++
	}
	if !upper || !lower || !digit || (slash && (nslash > 3 || t[0] == '/')) {
		return false
	}
	h := 0.0
	n := float64(len(t))
	for _, k := range counts {
		p := float64(k) / n
		h -= p * math.Log2(p)
	}
	return h > 4.3
}

// Audit-size caps.
const (
	maxAuditString = 2048
	maxAuditItems  = 64
	maxAuditDepth  = 8
)

// RedactValue copies v with secret-named keys and secret-looking strings
// redacted, long strings cut and large containers trimmed, for the audit
// log.
func RedactValue(v any) any { return redactValue(v, 0) }

func redactValue(v any, depth int) any {
	if depth > maxAuditDepth {
		return "[TRUNCATED]"
	}
	switch t := v.(type) {
	case string:
		s := RedactText(t)
		if len(s) > maxAuditString {
			s = s[:maxAuditString] + "...[TRUNCATED]"
		}
		return s
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(t))
		for i, k := range keys {
			if i >= maxAuditItems {
				out["[TRUNCATED]"] = len(keys) - maxAuditItems
				break
			}
			if secrets().secretKey.MatchString(k) && !strings.EqualFold(k, "author") {
				out[k] = Redacted
				continue
			}
			out[k] = redactValue(t[k], depth+1)
		}
		return out
	case []any:
		n := min(len(t), maxAuditItems)
		out := make([]any, 0, n+1)
		for _, x := range t[:n] {
			out = append(out, redactValue(x, depth+1))
		}
		if len(t) > n {
			out = append(out, "[TRUNCATED]")
		}
		return out
	}
	return v
}
