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
