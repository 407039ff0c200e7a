package guard

import (
	"strings"
	"testing"
)

// TestRedactText pins the secrets that must never reach the audit log,
// and the text around them that must survive.
func TestRedactText(t *testing.T) {
	tests := []struct {
		in      string
		secrets []string // none of these may remain
		keep    []string // all of these must remain
	}{
		{`curl -H "Authorization: Bearer sk-abcdefghijklmnop1234567890" https://x`, []string{"sk-abcdefghijklmnop"}, []string{"curl", "https://x"}},
		{`curl -H "Authorization: token abcdef0123456789abcdef" x`, []string{"abcdef0123456789abcdef"}, []string{"curl"}},
		{`curl -H "X-Api-Key: 9f8e7d6c5b4a39281706abcdef" https://x`, []string{"9f8e7d6c5b4a39281706abcdef"}, []string{"X-Api-Key", "https://x"}},
		{`curl -H 'Cookie: session=abcdef0123456789secret; theme=dark' x`, []string{"abcdef0123456789secret"}, []string{"Cookie"}},
		{`curl -u admin:Sup3rS3cret https://x`, []string{"Sup3rS3cret"}, []string{"admin", "https://x"}},
		{`curl --user=admin:Sup3rS3cret https://x`, []string{"Sup3rS3cret"}, []string{"https://x"}},
		{`mysql -u root -psupersecret123 appdb`, []string{"supersecret123"}, []string{"appdb", "root"}},
		{`docker login -u me -p Passw0rdXYZ registry.example`, []string{"Passw0rdXYZ"}, []string{"registry.example"}},
		{"password: hunter2hunter2\nok", []string{"hunter2hunter2"}, []string{"ok"}},
		{`{"password": "hunter2hunter2", "user": "bob"}`, []string{"hunter2hunter2"}, []string{"bob"}},
		{`curl https://user:hunter2pass@example.com/x`, []string{"hunter2pass"}, []string{"example.com"}},
		{`export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789`, []string{"ghp_abcdef"}, []string{"export"}},
		{`mkdir -p build/out && sort -u list`, nil, []string{"mkdir -p build/out", "sort -u list"}},
		// Bare secrets: the value is the secret, with no key to give it away.
		{`AKIAIOSFODNN7EXAMPLE`, []string{"AKIAIOSFODNN7EXAMPLE"}, nil},
		{`aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, []string{"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}, []string{"aws configure set"}},
		{`ghp_abcdefghijklmnopqrstuvwxyz0123456789`, []string{"ghp_abcdef"}, nil},
		{`sk-proj-Abcdefghijklmnop1234567890`, []string{"Abcdefghijklmnop"}, nil},
		{`sk_live_51HabcdefGHIJKLmnop1234`, []string{"51HabcdefGHIJKL"}, nil},
		{`glpat-abcdefghij0123456789xyz`, []string{"abcdefghij0123456789"}, nil},
		{`npm_abcdefghijklmnopqrstuvwxyz0123456789`, []string{"abcdefghijklmnop"}, nil},
		{`token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456`, []string{"AbCdEfGhIjKlMnOp"}, nil},
		{`eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U`, []string{"dozjgNryP4J3jVmNHl0w5N"}, nil},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", []string{"b3BlbnNzaC1rZXktdjEAAAAA"}, nil},
		{"-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF0AAAAA\n-----END PGP PRIVATE KEY BLOCK-----", []string{"lQOYBF0AAAAA"}, nil},
		{`curl -H "X-Custom: Zx9Qm2Lp8Rt4Vw6Yb1Nc3Kd5Hf7Gj0Ss" https://x`, []string{"Zx9Qm2Lp8Rt4Vw6Yb1Nc3Kd5Hf7Gj0Ss"}, []string{"X-Custom", "https://x"}},
		// What an audit reader needs stays: paths, tool names, hashes, ids.
		{`/home/user/src/github.com/vouch-dev/vouch/guard/BenchmarkDecideWithTwelveRules_test.go`, nil, []string{"BenchmarkDecideWithTwelveRules_test.go", "/home/user/src"}},
		{`e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855`, nil, []string{"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}},
		{`git checkout 9fceb02d0ae598e95dc970b74767f19372d61af8`, nil, []string{"9fceb02d0ae598e95dc970b74767f19372d61af8"}},
		{`mcp__github__create_pull_request_review_comment_reply`, nil, []string{"mcp__github__create_pull_request_review_comment_reply"}},
		{`go test -run TestBuiltinDestructiveMatchesOptions1 ./guard`, nil, []string{"TestBuiltinDestructiveMatchesOptions1"}},
		{`123e4567-e89b-12d3-a456-426614174000`, nil, []string{"123e4567-e89b-12d3-a456-426614174000"}},
		// Option lists and names spelled with separators: each run is
		// one word, no secret.
		{`["NODE_OPTIONS=--max-old-space-size=4096"]`, nil, []string{"NODE_OPTIONS=--max-old-space-size=4096"}},
		{`GRADLE_OPTS=--Dorg.gradle.jvmargs=MAX_HEAP_8192`, nil, []string{"GRADLE_OPTS=--Dorg.gradle.jvmargs=MAX_HEAP_8192"}},
		// A secret behind a name still goes: its runs mix cases and
		// digits.
		{`NODE_OPTIONS=--x=Zx9Qm2Lp8Rt4Vw6Yb1Nc3Kd5Hf7Gj0Ss`, []string{"Zx9Qm2Lp8Rt4Vw6Yb1Nc3Kd5Hf7Gj0Ss"}, nil},
		{`API=wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY`, []string{"wJalrXUtnFEMI"}, nil},
	}
	for _, tt := range tests {
		got := RedactText(tt.in)
		for _, s := range tt.secrets {
			if strings.Contains(got, s) {
				t.Errorf("RedactText(%q) = %q: still holds %q", tt.in, got, s)
			}
		}
		for _, k := range tt.keep {
			if !strings.Contains(got, k) {
				t.Errorf("RedactText(%q) = %q: lost %q", tt.in, got, k)
			}
		}
	}
}

// redactEager is RedactText without the literal prefilters: every pattern
// runs on every text. The prefilters must never change the result.
func redactEager(s string) string {
	for _, p := range secretValues {
		s = p.re().ReplaceAllString(s, Redacted)
	}
	s = jsonSecret.re().ReplaceAllString(s, "${1}\""+Redacted+"\"")
	s = headerSecret.re().ReplaceAllString(s, "${1}"+Redacted)
	s = userFlag.re().ReplaceAllString(s, "${1}"+Redacted)
	s = mysqlPass.re().ReplaceAllString(s, "${1}"+Redacted)
	s = loginPass.re().ReplaceAllString(s, "${1}"+Redacted)
	s = urlPassword.re().ReplaceAllString(s, "${1}"+Redacted+"@")
	s = flagSecret.re().ReplaceAllString(s, "${1}"+Redacted)
	s = assignment.re().ReplaceAllString(s, "${1}"+Redacted)
	return token().ReplaceAllStringFunc(s, func(t string) string {
		if randomLooking(t) {
			return Redacted
		}
		return t
	})
}

// FuzzRedactPrefilter: a pattern is skipped only when the text cannot
// match it, so redaction with and without the prefilters agrees.
func FuzzRedactPrefilter(f *testing.F) {
	for _, s := range []string{
		`curl -H "Authorization: Bearer sk-abcdefghijklmnop1234567890" https://x`,
		`curl -u admin:Sup3rS3cret https://x`, `mysql -u root -psupersecret123 appdb`,
		`docker login -u me -p Passw0rdXYZ registry.example`, "PASSWORD: x\nApi-Key: y",
		`{"Password": "hunter2"}`, `curl https://user:hunter2pass@example.com/x`,
		`export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789`, `AKIAIOSFODNN7EXAMPLE`,
		"-----BEGIN RSA PRIVATE KEY-----\nabc", `BASIC dXNlcjpwYXNzd29yZA==`, `--Api-Key=x`,
		`wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, `git status && go test ./...`,
		`sk_test_51HabcdefGHIJKLmnop1234`, `ya29.a0AfH6SMBabcdefghijklmnopq`,
		"pa\u017fsword=hunter2", "api_\u212aey: abc",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := RedactText(s), redactEager(s); got != want {
			t.Errorf("RedactText(%q) = %q, without prefilters %q", s, got, want)
		}
	})
}
