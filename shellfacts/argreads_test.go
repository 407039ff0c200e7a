package shellfacts

import "testing"

// TestParseUnmodelledArgs pins the arguments of programs vouch does not
// model, and of the scripts and code interpreters and shells run: each one
// that names an existing file or directory, or an option's attached value
// that does, is read; words naming nothing on disk and the arguments of
// programs that only look at names (ls, test, echo) are not.
func TestParseUnmodelledArgs(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	env := []string{"ROOT/repo/.env"}
	tests := []struct {
		name    string
		command string
		want    want
	}{
		{"script argument", `python3 x.py .env`, want{anyCmds: true, reads: []string{"ROOT/repo/.env", "ROOT/repo/x.py"}}},
		{"node script argument", `node s.js ~/.ssh/id_rsa`, want{anyCmds: true, reads: []string{"ROOT/home/.ssh/id_rsa", "ROOT/repo/s.js"}}},
		{"python -c argument", `python3 -c 'import sys; print(open(sys.argv[1]).read())' .env`, want{anyCmds: true, reads: env}},
		{"python -m argument", `python3 -m json.tool .env`, want{anyCmds: true, reads: env}},
		{"interpreter option value", `node --env-file=.env app.js`, want{anyCmds: true, reads: []string{"ROOT/repo/.env", "ROOT/repo/app.js"}}},
		{"option value word", `docker run --env-file .env img`, want{anyCmds: true, reads: env}},
		{"long option with =", `docker compose --env-file=.env up`, want{anyCmds: true, reads: env}},
		{"short option attached", `mytool -f.env`, want{anyCmds: true, reads: env}},
		{"directory", `mytool ~/.ssh`, want{anyCmds: true, reads: []string{"ROOT/home/.ssh"}}},
		{"through a link", `mytool link/key`, want{anyCmds: true, reads: []string{"ROOT/secret/key"}}},
		{"glob", `mytool .env*`, want{anyCmds: true, reads: []string{"ROOT/repo/.env", "ROOT/repo/.envrc"}, incomplete: true}},
		{"static tail", `mytool "$D/.env"`, want{anyCmds: true, reads: []string{"/{unknown directory}/.env"}, incomplete: true}},
		{"shell script argument", `bash x.sh .env`, want{anyCmds: true, reads: []string{"ROOT/repo/.env", "ROOT/repo/x.sh"}}},
		{"shell -c positional", `bash -c 'cat "$1"' sh .env`, want{anyCmds: true, reads: env, incomplete: true}},
		{"shell stdin script argument", `sh -s .env < x.sh`, want{anyCmds: true, reads: []string{"ROOT/repo/.env", "ROOT/repo/x.sh"}}},
		{"sourced script argument", `source x.sh .env`, want{anyCmds: true, reads: []string{"ROOT/repo/.env", "ROOT/repo/x.sh"}}},
		{"words naming nothing", `kubectl get pods -n prod`, want{anyCmds: true}},
		{"ls", `ls -la .env ~/.ssh`, want{anyCmds: true}},
		{"test", `test -f .env && [ -r ~/.ssh/id_rsa ]`, want{anyCmds: true}},
		{"echo", `echo .env >> .gitignore`, want{anyCmds: true, writes: []string{"ROOT/repo/.gitignore"}}},
		{"wrapper without a command", `sudo -l`, want{anyCmds: true}},
		{"a file made later", `mytool -o out.bin`, want{anyCmds: true}},
		{"a key used, not shown", `ssh-add ~/.ssh/id_rsa && ssh-keygen -y -f ~/.ssh/id_rsa`, want{anyCmds: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, root, tt.command, opts, tt.want)
		})
	}
}
