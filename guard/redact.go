package guard

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/vouch-dev/vouch/internal/lazyre"
)

// Redacted replaces a secret in the audit log and in messages.
const Redacted = "[REDACTED]"

// pattern is one redaction pattern with the literal text any match must
// contain. The pattern is compiled only when a text holds one of those
// literals: every hook process redacts its audit record, and compiling all
// the patterns up front was about a twelfth of a hook's CPU time while
// ordinary commands hold none of them.
type pattern struct {
	// any lists literals of which a match contains at least one; all, a
	// literal every match contains. fold compares them with the text
	// lowered (for case-insensitive patterns, whose literals are
	// written in lower case).
	any  []string
	all  string
	fold bool
	re   func() *regexp.Regexp
}

func newPattern(expr string, fold bool, all string, any ...string) *pattern {
	return &pattern{any: any, all: all, fold: fold, re: lazyre.New(expr)}
}

// may reports whether text (and lower, text in lower case) can hold a
// match.
func (p *pattern) may(text, lower string) bool {
	t := text
	if p.fold {
		// (?i) also folds non-ASCII letters onto ASCII ones (the long s
		// onto s, the Kelvin sign onto k), which lowering does not.
		for i := 0; i < len(text); i++ {
			if text[i] >= 0x80 {
				return true
			}
		}
		t = lower
	}
	if p.all != "" && !strings.Contains(t, p.all) {
		return false
	}
	if len(p.any) == 0 {
		return true
	}
	for _, lit := range p.any {
		if strings.Contains(t, lit) {
			return true
		}
	}
	return false
}

// replace applies the pattern to s when s can hold a match.
func (p *pattern) replace(s, repl string) string {
	if !p.may(s, strings.ToLower(s)) {
		return s
	}
	return p.re().ReplaceAllString(s, repl)
}

// The literals keyword patterns share: a secret-named key, flag, header or
// variable contains one of them, in any letter case.
var secretWords = []string{"pass", "secret", "token", "key", "auth", "cookie", "credential", "bearer"}

// secretKey matches argument names whose values are secrets.
var secretKey = newPattern(`(?i)(pass(word|wd)?|secret|token|api[_-]?key|apikey|auth(orization)?|credential|private[_-]?key|session[_-]?key|cookie|bearer)`, true, "", secretWords...)

// secretValues match secrets inside text: private key blocks, provider key
// formats (Stripe, GitLab, npm, Hugging Face, Google OAuth, SendGrid, AWS,
// Slack webhooks, OpenAI-style and Anthropic keys, GitHub, Slack tokens,
// Google API keys, JWTs) and bearer or basic credentials.
var secretValues = []*pattern{
	newPattern(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`, false, "PRIVATE KEY-----", "-----BEGIN "),
	newPattern(`-----BEGIN PGP PRIVATE KEY BLOCK-----[\s\S]*?(-----END PGP PRIVATE KEY BLOCK-----|$)`, false, "", "-----BEGIN PGP PRIVATE KEY BLOCK-----"),
	newPattern(`\b(sk|rk)_(live|test)_[A-Za-z0-9]{16,}`, false, "", "_live_", "_test_"),
	newPattern(`\bglpat-[A-Za-z0-9_-]{20,}`, false, "", "glpat-"),
	newPattern(`\bnpm_[A-Za-z0-9]{36}\b`, false, "", "npm_"),
	newPattern(`\bhf_[A-Za-z0-9]{30,}`, false, "", "hf_"),
	newPattern(`\bya29\.[A-Za-z0-9_-]{20,}`, false, "", "ya29."),
	newPattern(`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`, false, "", "SG."),
	newPattern(`\bASIA[0-9A-Z]{16}\b`, false, "", "ASIA"),
	newPattern(`https://hooks\.slack\.com/services/[A-Za-z0-9/]+`, false, "", "https://hooks.slack.com/services/"),
	newPattern(`\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}`, false, "", "sk-", "pk-", "rk-"),
	newPattern(`\bsk-ant-[A-Za-z0-9_-]{10,}`, false, "", "sk-ant-"),
	newPattern(`\b(ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}`, false, "", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
	newPattern(`\bxox[abprs]-[A-Za-z0-9-]{10,}`, false, "", "xox"),
	newPattern(`\bAKIA[0-9A-Z]{16}\b`, false, "", "AKIA"),
	newPattern(`\bAIza[0-9A-Za-z_-]{35}\b`, false, "", "AIza"),
	newPattern(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, false, "", "eyJ"),
	newPattern(`(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}`, true, "", "bearer", "basic"),
}

// Inline secrets keep their key and lose their value.
var (
	// jsonSecret: JSON text ("password": "x"), inside strings too.
	jsonSecret = newPattern(`(?i)("[a-z0-9_-]*(?:pass(?:word|wd)?|secret|token|api[_-]?key|apikey|authorization|cookie|credentials?)[a-z0-9_-]*"\s*:\s*)"(?:[^"\\]|\\.)*"`, true, `"`, secretWords...)
	// headerSecret: "Name: value" lines (HTTP headers in curl -H, YAML,
	// tool output) lose everything after the colon up to a quote or the
	// end of the line, as a header value can hold spaces.
	headerSecret = newPattern(`(?i)\b((?:[a-z0-9-]*-)?(?:authorization|proxy-authorization|cookie|set-cookie|api-?key|token|secret|password|passwd)(?:-[a-z0-9-]*)?:[ \t]*)([^\r\n"']+)`, true, ":", secretWords...)
	// userFlag: curl -u user:pass / --user=user:pass.
	userFlag = newPattern(`((?:^|\s)(?:-u|--user)[ =]?["']?[^\s:"'@/]+:)([^\s"']+)`, false, ":", "-u")
	// mysqlPass and loginPass: programs whose -p takes the password
	// itself (mysql -pSECRET, docker login -p SECRET).
	mysqlPass = newPattern(`(?i)(\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^|;&\n]*?\s-p)([^\s"']+)`, true, "-p", "mysql", "mariadb")
	loginPass = newPattern(`(?i)(\b(?:docker|podman|buildah|skopeo|helm|oras|nerdctl)\b[^|;&\n]*?\blogin\b[^|;&\n]*?\s-p[ =]?)([^\s"']+)`, true, "login", "-p")
	// urlPassword: URL userinfo.
	urlPassword = newPattern(`([a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]+:)[^@\s/]+@`, false, "@", "://")
	// flagSecret: --password=x / --token x.
	flagSecret = newPattern(`(?i)(--?[a-z0-9-]*(pass(word|wd)?|secret|token|api[_-]?key|auth)[a-z0-9-]*[= ])("[^"]*"|'[^']*'|\S+)`, true, "-", secretWords...)
	// assignment: KEY=value.
	assignment = newPattern(`(?i)\b([A-Z0-9_]*(PASS(WORD|WD)?|SECRET|TOKEN|API_?KEY|CREDENTIALS?)[A-Z0-9_]*=)("[^"]*"|'[^']*'|\S+)`, true, "=", secretWords...)
	// token finds candidates for bare high-entropy secrets (an AWS secret
	// access key, a random API token with no known prefix); tokenRun
	// checks for a long enough run before the pattern is compiled.
	token = lazyre.New(`[A-Za-z0-9+/=_-]{32,}`)
)

// tokenRun reports whether s holds 32 or more token characters in a row.
func tokenRun(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' || c == '_' || c == '-' {
			if n++; n >= 32 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// RedactText removes secret-looking values from text.
func RedactText(s string) string {
	for _, p := range secretValues {
		s = p.replace(s, Redacted)
	}
	s = jsonSecret.replace(s, "${1}\""+Redacted+"\"")
	s = headerSecret.replace(s, "${1}"+Redacted)
	s = userFlag.replace(s, "${1}"+Redacted)
	s = mysqlPass.replace(s, "${1}"+Redacted)
	s = loginPass.replace(s, "${1}"+Redacted)
	s = urlPassword.replace(s, "${1}"+Redacted+"@")
	s = flagSecret.replace(s, "${1}"+Redacted)
	s = assignment.replace(s, "${1}"+Redacted)
	if tokenRun(s) {
		s = token().ReplaceAllStringFunc(s, func(t string) string {
			if randomLooking(t) {
				return Redacted
			}
			return t
		})
	}
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
	if wordy(t) {
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

// wordy reports whether every run of letters and digits in t, between
// punctuation, is one word: all digits, all lowercase, all uppercase or
// capitalized (NODE_OPTIONS=--max-old-space-size=4096, an option list or
// an identifier spelled with separators). A generated secret mixes cases
// and digits inside its runs; a run of one kind would be a name.
func wordy(t string) bool {
	for _, run := range strings.FieldsFunc(t, func(c rune) bool {
		return !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9')
	}) {
		rest := run
		if c := run[0]; c >= 'A' && c <= 'Z' {
			rest = run[1:] // capitalized, or all uppercase below
		}
		if strings.Trim(run, "0123456789") != "" && strings.ToLower(rest) != rest && strings.ToUpper(run) != run {
			return false
		}
		if strings.Trim(run, "0123456789") != "" && strings.Trim(run, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return false // letters and digits mixed
		}
	}
	return true
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
			if secretKey.may(k, strings.ToLower(k)) && secretKey.re().MatchString(k) && !strings.EqualFold(k, "author") {
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
