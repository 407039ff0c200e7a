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
		// NAME=VALUE arguments: the value is the path.
		{"make variable", `make F=.env`, want{anyCmds: true, reads: env}},
		{"make -f and a variable", `make -f Makefile ENVFILE=~/.ssh/id_rsa`, want{anyCmds: true, reads: []string{"ROOT/home/.ssh/id_rsa"}}},
		{"option value NAME=VALUE", `mytool -e F=.env`, want{anyCmds: true, reads: env}},
		{"make variable naming nothing", `make PREFIX=/nonexistent-vouch install CFLAGS=-O2`, want{anyCmds: true}},
		// Bind mounts: the host side is read whole.
		{"docker -v", `docker run -v ~/.ssh:/k img`, want{anyCmds: true, reads: []string{"ROOT/home/.ssh"}}},
		{"docker --volume=", `docker run --volume=$HOME/.ssh:/k:ro img`, want{anyCmds: true, reads: []string{"ROOT/home/.ssh"}}},
		{"docker -v attached", `docker run -v.env:/e img`, want{anyCmds: true, reads: env}},
		{"docker --mount", `docker run --mount type=bind,source=.env,target=/e img`, want{anyCmds: true, reads: env}},
		{"docker --mount src=", `docker create --mount=type=bind,src=link/key,dst=/k,readonly img`, want{anyCmds: true, reads: []string{"ROOT/secret/key"}}},
		{"podman -v", `podman run --rm -v ./src:/src -v ~/.ssh/id_rsa:/k img`, want{anyCmds: true, reads: []string{"ROOT/home/.ssh/id_rsa", "ROOT/repo/src"}}},
		{"docker -v not static", `docker run -v "$D/.ssh:/k" img`, want{anyCmds: true, reads: []string{"/{unknown directory}/.ssh", "/{unknown directory}/.ssh:/k"}, incomplete: true}},
		{"docker -v target not static", `docker run -v "/nonexistent-vouch:$T/x:ro" img`, want{anyCmds: true, reads: []string{"/{unknown directory}/x:ro"}, incomplete: true}},
		{"docker --mount not static", `docker run --mount "type=bind,source=$D/.ssh,target=/k" img`, want{anyCmds: true, reads: []string{"/{unknown directory}/.ssh", "/{unknown directory}/.ssh,target=/k"}, incomplete: true}},
		{"docker named volume", `docker run -v data:/data -v /data --mount type=volume,source=cache,target=/c img`, want{anyCmds: true}},
		{"docker rm -v", `docker rm -v ctr`, want{anyCmds: true}},
		// The environment a program vouch does not model is given.
		{"prefix assignment", `ENV_FILE=.env node app.js`, want{anyCmds: true, reads: []string{"ROOT/repo/.env", "ROOT/repo/app.js"}}},
		{"exported", `export F=~/.ssh/id_rsa; some-tool`, want{anyCmds: true, reads: []string{"ROOT/home/.ssh/id_rsa"}}},
		{"exported later", `F=.env; export F; some-tool`, want{anyCmds: true, reads: env}},
		{"declare -x", `declare -x F=.env; some-tool`, want{anyCmds: true, reads: env}},
		{"env wrapper", `env F=.env some-tool`, want{anyCmds: true, reads: env}},
		{"inherited by a shell's command", `F=.env bash -c 'some-tool'`, want{anyCmds: true, reads: env}},
		{"not exported", `F=.env; some-tool`, want{anyCmds: true}},
		{"set -a", `set -a; F=~/.ssh/id_rsa; some-tool`, want{anyCmds: true, reads: []string{"ROOT/home/.ssh/id_rsa"}}},
		{"set -o allexport", `set -o allexport; F=.env; some-tool`, want{anyCmds: true, reads: env}},
		{"set -a in a cluster", `set -euax; declare F=.env; some-tool`, want{anyCmds: true, reads: env}},
		{"set without -a", `set -eo pipefail; F=.env; some-tool`, want{anyCmds: true}},
		{"a modelled program", `F=.env cat README`, want{anyCmds: true, reads: []string{"ROOT/repo/README"}}},
		{"name only", `export F=.env; ls`, want{anyCmds: true}},
		{"a directory in the environment", `GOPATH=~ CARGO_HOME=~/.ssh some-tool`, want{anyCmds: true}},
		{"not paths", `PATH=/usr/bin:/bin GOFLAGS=-mod=mod some-tool`, want{anyCmds: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, root, tt.command, opts, tt.want)
		})
	}
}
