package shellfacts

import "testing"

// TestParseHardLinks pins hard links: a hard link is another name for its
// source, so the source is read and written where it is still named by
// its real path (the new name may be written or read later, in this
// command line or the next call). A symbolic link only names its target.
func TestParseHardLinks(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	tests := []struct {
		name    string
		command string
		want    want
	}{
		{"ln", "ln .env n", want{reads: []string{"ROOT/repo/.env"}, writes: []string{"ROOT/repo/.env", "ROOT/repo/n"}}},
		{"ln then write", "ln .vouch/guard.yaml n && echo x > n", want{
			reads:  []string{"ROOT/repo/.vouch/guard.yaml"},
			writes: []string{"ROOT/repo/.vouch/guard.yaml", "ROOT/repo/n"}}},
		{"ln one operand", "ln ../home/.ssh/id_rsa", want{reads: []string{"ROOT/home/.ssh/id_rsa"}, writes: []string{"ROOT/home/.ssh/id_rsa", "ROOT/repo/id_rsa"}}},
		{"ln -t", "ln -t dist .env src/a.go", want{
			reads:  []string{"ROOT/repo/.env", "ROOT/repo/src/a.go"},
			writes: []string{"ROOT/repo/.env", "ROOT/repo/dist/.env", "ROOT/repo/dist/a.go", "ROOT/repo/src/a.go"}}},
		{"ln --target-directory=", "ln --target-directory=dist .env", want{
			reads:  []string{"ROOT/repo/.env"},
			writes: []string{"ROOT/repo/.env", "ROOT/repo/dist/.env"}}},
		{"ln several into a dir", "ln -f .env .envrc dist", want{
			reads:  []string{"ROOT/repo/.env", "ROOT/repo/.envrc"},
			writes: []string{"ROOT/repo/.env", "ROOT/repo/.envrc", "ROOT/repo/dist/.env", "ROOT/repo/dist/.envrc"}}},
		{"ln home", "ln ~/.ssh/id_rsa k", want{reads: []string{"ROOT/home/.ssh/id_rsa"}, writes: []string{"ROOT/home/.ssh/id_rsa", "ROOT/repo/k"}}},
		{"ln through a link", "ln link/key k", want{reads: []string{"ROOT/secret/key"}, writes: []string{"ROOT/repo/k", "ROOT/secret/key"}}},
		{"ln -L", "ln -L -- link/key k", want{reads: []string{"ROOT/secret/key"}, writes: []string{"ROOT/repo/k", "ROOT/secret/key"}}},
		{"link", "link .env n", want{reads: []string{"ROOT/repo/.env"}, writes: []string{"ROOT/repo/.env", "ROOT/repo/n"}}},
		{"cp -l", "cp -l .env n", want{reads: []string{"ROOT/repo/.env"}, writes: []string{"ROOT/repo/.env", "ROOT/repo/n"}}},
		{"cp --link", "cp --link .env n", want{reads: []string{"ROOT/repo/.env"}, writes: []string{"ROOT/repo/.env", "ROOT/repo/n"}}},
		{"cp --li abbreviated", "cp --li .env n", want{reads: []string{"ROOT/repo/.env"}, writes: []string{"ROOT/repo/.env", "ROOT/repo/n"}}},
		{"cp -al tree", "cp -al src s2", want{
			reads:  []string{"ROOT/repo/src"},
			writes: []string{"ROOT/repo/s2", "ROOT/repo/src"},
			trees:  []string{"ROOT/repo/s2", "ROOT/repo/src"}}},
		// Symbolic links and copies do not make the source writable.
		{"ln -s", "ln -s .env n", want{writes: []string{"ROOT/repo/n"}}},
		{"ln --symbolic", "ln --symbolic .env n", want{writes: []string{"ROOT/repo/n"}}},
		{"ln --sym abbreviated", "ln --sym -f .env n", want{writes: []string{"ROOT/repo/n"}}},
		{"ln -sf", "ln -sfn ../x y", want{writes: []string{"ROOT/repo/y"}}},
		{"cp", "cp .env n", want{reads: []string{"ROOT/repo/.env"}, writes: []string{"ROOT/repo/n"}}},
		{"cp --rec abbreviated", "cp --rec src s2", want{reads: []string{"ROOT/repo/src"}, writes: []string{"ROOT/repo/s2"}, trees: []string{"ROOT/repo/s2"}}},
		{"install -l is not a link", "install -m 644 .env /tmp/n", want{reads: []string{"ROOT/repo/.env"}, writes: []string{"/tmp/n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.command, opts)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.cmds = nil
			for _, c := range f.Commands {
				tt.want.cmds = append(tt.want.cmds, render(c))
			}
			tt.want.incomplete = f.Incomplete
			check(t, root, tt.command, opts, tt.want)
		})
	}
}
