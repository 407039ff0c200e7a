package guard

import "testing"

// TestBuiltinGhTextFiles pins the files whose text gh posts: to a
// repository the command names it is an upload, refused as any is; to
// the checkout's own repository it is a read, refused only for a secret.
func TestBuiltinGhTextFiles(t *testing.T) {
	const post = "exfiltration-post-files"
	checkBuiltins(t, []bypassCase{
		{`gh issue create -F body.md -R other/repo`, Deny, post},
		{`gh -R other/repo issue comment 1 --body-file body.md`, Deny, post},
		{`GH_REPO=o/r gh pr create -F body.md`, Deny, post},
		{`gh release create v1 --notes-file notes.md --repo o/r`, Deny, post},
		{`gh pr create -F .env`, Deny, "sensitive-reads-files"},
		{`gh release edit v1 --notes-file .env`, Deny, "sensitive-reads-files"},
		{`gh pr create -F PR_BODY.md`, Allow, ""},
		{`gh issue comment 1 -F body.md`, Allow, ""},
		{`gh release create v1 --notes-file notes.md`, Allow, ""},
		{`gh issue list -R o/r`, Allow, ""},
	})
}
