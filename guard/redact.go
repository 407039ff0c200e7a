package guard

import (
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
}

var secrets = sync.OnceValue(func() *redactors {
	return &redactors{
		secretKey: regexp.MustCompile(`(?i)(pass(word|wd)?|secret|token|api[_-]?key|apikey|auth(orization)?|credential|private[_-]?key|session[_-]?key|cookie|bearer)`),
		secretValues: []*regexp.Regexp{
			regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`),
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
	return s
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
