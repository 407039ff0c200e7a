package shellfacts

import "testing"

// TestParseReadTails pins reads through a word whose directories are only
// known at run time but whose last components are written out: recorded
// below /{unknown directory}; a tail without a slash, or with a
// wildcard, names no whole file.
func TestParseReadTails(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	tests := []struct {
		name    string
		command string
		want    want
	}{
		{"variable directory", `cat "$D/.env"`, want{anyCmds: true, reads: []string{"/{unknown directory}/.env"}, incomplete: true}},
		{"substitution directory", `cat $(pwd)/.ssh/id_rsa`, want{anyCmds: true, reads: []string{"/{unknown directory}/.ssh/id_rsa"}, incomplete: true}},
		{"quoted tail", `cat "$D"'/.aws/credentials'`, want{anyCmds: true, reads: []string{"/{unknown directory}/.aws/credentials"}, incomplete: true}},
		{"redirection", `wc -l < "${D}/.env"`, want{anyCmds: true, reads: []string{"/{unknown directory}/.env"}, incomplete: true}},
		{"parent", `cat "$D/../.env"`, want{anyCmds: true, reads: []string{"/.env"}, incomplete: true}},
		{"no slash", `cat "$X.env"`, want{anyCmds: true, incomplete: true}},
		{"wildcard", `cat "$D"/.env*`, want{anyCmds: true, incomplete: true}},
		{"dynamic last", `cat "$D/$F"`, want{anyCmds: true, incomplete: true}},
		{"write", `echo x > "$D/.env"`, want{anyCmds: true, incomplete: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, root, tt.command, opts, tt.want)
		})
	}
}
