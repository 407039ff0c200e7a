package shellfacts

import "testing"

// TestParseGhTextFiles pins the files whose text gh posts (-F/--body-file
// of issues, pull requests and comments, --notes-file of releases): sent
// away when the command names the repository (-R, --repo, GH_REPO), only
// read when it posts to the checkout's own.
func TestParseGhTextFiles(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	body := []string{"ROOT/repo/body.md"}
	tests := []struct {
		name    string
		command string
		want    want
		more    more
	}{
		{"issue create -R", `gh issue create -F body.md -R other/repo`, want{anyCmds: true, reads: body, urls: []string{"github.com"}}, more{uploads: body}},
		{"gh -R issue create", `gh -R other/repo issue create -F body.md`, want{anyCmds: true, reads: body, urls: []string{"github.com"}}, more{uploads: body}},
		{"--repo=", `gh pr create --repo=o/r --body-file body.md`, want{anyCmds: true, reads: body, urls: []string{"github.com"}}, more{uploads: body}},
		{"GH_REPO", `GH_REPO=o/r gh issue comment 1 -F body.md`, want{anyCmds: true, reads: body, urls: []string{"github.com"}}, more{uploads: body}},
		{"stdin to a named repository", `gh issue create -R o/r -F - < body.md`, want{anyCmds: true, reads: body, urls: []string{"github.com"}}, more{uploads: body}},
		{"release notes -R", `gh release create v1 --notes-file body.md -R o/r`, want{anyCmds: true, reads: body, urls: []string{"github.com"}}, more{uploads: body}},
		{"release edit notes", `gh release edit v1 --notes-file body.md`, want{anyCmds: true, reads: body}, more{}},
		{"own repository", `gh pr create -F body.md`, want{anyCmds: true, reads: body}, more{}},
		{"own repository comment", `gh issue comment 1 --body-file body.md`, want{anyCmds: true, reads: body}, more{}},
		{"text in the command line", `gh issue create -R o/r -t x -b y`, want{anyCmds: true}, more{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkMore(t, root, tt.command, opts, tt.want, tt.more)
		})
	}
}
