package guard

import "testing"

// TestBuiltinProgramWrites pins files written by programs through an
// option or the environment rather than an operand: git's --output and
// bundle create, mount points, git's trace files and SSLKEYLOGFILE, and
// the index of a repository git -C names.
func TestBuiltinProgramWrites(t *testing.T) {
	checkBuiltins(t, []bypassCase{
		{`git log -1 --format=%B --output=/home/u/.bashrc`, Deny, "writes-outside-repo"},
		{`git log -p --output /home/u/.bashrc`, Deny, "writes-outside-repo"},
		{`git show --output=/home/u/.bashrc HEAD`, Deny, "writes-outside-repo"},
		{`git diff-tree --output=/home/u/.bashrc HEAD`, Deny, "writes-outside-repo"},
		{`git range-diff --output=/home/u/.bashrc a...b`, Deny, "writes-outside-repo"},
		{`git diff --output=.vouch/guard.yaml`, Ask, "protect-vouch-writes"},
		{`git diff --output=.claude/settings.json`, Ask, "protect-vouch-writes"},
		{`git log --output=.git/hooks/pre-commit`, Ask, "protect-vouch-git-internals"},
		{`git diff --output=out.patch`, Allow, ""},
		{`git diff -- --output=/home/u/.bashrc`, Allow, ""},
		{`git bundle create /home/u/b HEAD`, Deny, "writes-outside-repo"},
		{`git bundle create repo.bundle HEAD`, Allow, ""},
		{`git -C /home/u add .`, Deny, "writes-outside-repo"},
		{`git -C sub add .`, Allow, ""},
		{`mount --bind /tmp/p .vouch`, Ask, "protect-vouch-writes"},
		{`sudo mount -o bind /tmp/p .vouch`, Ask, "protect-vouch-writes"},
		{`mount --bind /tmp/p/guard.yaml .vouch/guard.yaml`, Ask, "protect-vouch-writes"},
		{`mount -t tmpfs none .claude`, Ask, "protect-vouch-writes"},
		{`mount --bind /tmp/p /home/u/.ssh`, Deny, "writes-outside-repo"},
		{`umount .vouch`, Ask, "protect-vouch-writes"},
		{`mount`, Allow, ""},
		{`GIT_TRACE=/home/u/.bashrc git status`, Deny, "writes-outside-repo"},
		{`GIT_TRACE2_EVENT=/home/u/.bashrc git status`, Deny, "writes-outside-repo"},
		{`GIT_TRACE=/repo/.vouch/guard.yaml git status`, Ask, "protect-vouch-writes"},
		{`SSLKEYLOGFILE=/home/u/.bashrc curl https://example.com`, Deny, "writes-outside-repo"},
		{`GIT_TRACE=1 git status`, Allow, ""},
		{`GIT_TRACE=true GIT_TRACE_REDACT=0 git status`, Allow, ""},
		{`trash /home/u`, Deny, "writes-outside-repo"},
		{`gio trash /home/u/x`, Deny, "writes-outside-repo"},
		{`trash build`, Allow, ""},
	})
}

// TestBuiltinProgramCommands pins commands that programs run from their
// options (analysed as sh -c where the program uses a shell, as words
// where it execs), git configuration loaded from elsewhere, and recipes
// of another project.
func TestBuiltinProgramCommands(t *testing.T) {
	checkBuiltins(t, []bypassCase{
		{`tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec='rm -rf /home/u'`, Deny, "destructive-rm-outside-repo"},
		{`tar -cf x.tar -I 'rm -rf /home/u' a.py`, Deny, "destructive-rm-outside-repo"},
		{`tar -cf x.tar --checkpoint=10 --checkpoint-action=dot src`, Allow, ""},
		{`zip x.zip a.py -T -TT 'rm -rf /home/u'`, Deny, "destructive-rm-outside-repo"},
		{`make --eval='x: ; rm -rf /home/u' x`, Ask, "destructive-unknown-command"},
		{`make -C /home/u clean`, Ask, "destructive-unknown-command"},
		{`make -f /home/u/Makefile`, Ask, "destructive-unknown-command"},
		{`just --justfile /home/u/justfile`, Ask, "destructive-unknown-command"},
		{`task -d /home/u`, Ask, "destructive-unknown-command"},
		{`make -C src -j4 test`, Allow, ""},
		{`git difftool -y -x 'rm -rf /home/u'`, Deny, "destructive-rm-outside-repo"},
		{`git difftool -y --extcmd='rm -rf /home/u'`, Deny, "destructive-rm-outside-repo"},
		{`git submodule foreach 'rm -rf /home/u'`, Deny, "destructive-rm-outside-repo"},
		{`git submodule foreach git status`, Allow, ""},
		{`git -c protocol.ext.allow=always fetch 'ext::sh -c touch% x'`, Ask, "destructive-unknown-command"},
		{`git clone 'ext::sh -c touch% x'`, Ask, "destructive-unknown-command"},
		{`git config include.path /tmp/x.cfg`, Ask, "destructive-unknown-command"},
		{`git config --add include.path /tmp/x.cfg`, Ask, "destructive-unknown-command"},
		{`git config includeIf.gitdir:/tmp/.path /tmp/x.cfg`, Ask, "destructive-unknown-command"},
		{`git -c include.path=/tmp/x.cfg status`, Ask, "destructive-unknown-command"},
		{`git --config-env=include.path=CFG status`, Ask, "destructive-unknown-command"},
		{`git config extensions.worktreeConfig true`, Ask, "destructive-unknown-command"},
		{`git config user.name x`, Allow, ""},
		{`vim -es +'!rm -rf /home/u' +q`, Ask, "destructive-unknown-command"},
		{`nvim --headless -c '!rm -rf /home/u' -c q`, Ask, "destructive-unknown-command"},
		{`vim -c 'w! /home/u/.bashrc' -c q a.py`, Ask, "destructive-unknown-command"},
		{`vim +42 a.py`, Allow, ""},
		{`cmake -E rm -rf /home/u`, Deny, "destructive-rm-outside-repo"},
		{`cmake -E remove_directory /home/u`, Deny, "destructive-rm-outside-repo"},
		{`cmake -E copy a.py /home/u/.bashrc`, Deny, "writes-outside-repo"},
		{`cmake -E make_directory build`, Allow, ""},
		{`prlimit --nofile=10 rm -rf /home/u`, Deny, "destructive-rm-outside-repo"},
		{`fakeroot rm -rf /home/u`, Deny, "destructive-rm-outside-repo"},
		{`toybox rm -rf /home/u`, Deny, "destructive-rm-outside-repo"},
		{`rlwrap rm -rf /home/u`, Deny, "destructive-rm-outside-repo"},
		{`perf stat rm -rf /home/u`, Deny, "destructive-rm-outside-repo"},
		{`perf record -- rm -rf /home/u`, Deny, "destructive-rm-outside-repo"},
		{`start-stop-daemon --start --exec /bin/rm -- -rf /home/u`, Deny, "destructive-rm-outside-repo"},
		{`perf stat -e cycles ./a.out`, Allow, ""},
	})
}

// TestBuiltinMoreSecretsAndHooks pins the credential stores, disk tools,
// hook managers' switches and history pruning the built-in sets name,
// and name-only commands on a secret that show nothing of its content.
func TestBuiltinMoreSecretsAndHooks(t *testing.T) {
	checkBuiltins(t, []bypassCase{
		{`cat ~/.claude/.credentials.json`, Deny, "sensitive-reads-files"},
		{`cat ~/.codex/auth.json`, Deny, "sensitive-reads-files"},
		{`sudo cat /etc/shadow`, Deny, "sensitive-reads-files"},
		{`cat ~/.vault-token ~/.pgpass`, Deny, "sensitive-reads-files"},
		{`cat ~/.my.cnf`, Deny, "sensitive-reads-files"},
		{`cat ~/.cargo/credentials.toml`, Deny, "sensitive-reads-files"},
		{`cat ~/.terraform.d/credentials.tfrc.json`, Deny, "sensitive-reads-files"},
		{`cat ~/.gem/credentials`, Deny, "sensitive-reads-files"},
		{`cat ~/.config/hub`, Deny, "sensitive-reads-files"},
		{`cat ~/.m2/settings.xml`, Deny, "sensitive-reads-files"},
		{`cat ~/.password-store/x.gpg`, Deny, "sensitive-reads-files"},
		{`cryptsetup luksFormat /dev/sda`, Deny, "destructive-disk"},
		{`pvcreate /dev/sda`, Deny, "destructive-disk"},
		{`nvme format /dev/nvme0n1`, Deny, "destructive-disk"},
		{`hdparm --security-erase x /dev/sda`, Deny, "destructive-disk"},
		{`sg_format /dev/sda`, Deny, "destructive-disk"},
		{`nvme list`, Allow, ""},
		{`HUSKY=0 git commit -m x`, Deny, "destructive-no-verify"},
		{`SKIP=lint git commit -m x`, Deny, "destructive-no-verify"},
		{`export HUSKY=0; git push`, Deny, "destructive-no-verify"},
		{`HUSKY=1 git commit -m x`, Allow, ""},
		{`git reflog expire --expire=now --all && git gc --prune=now`, Ask, "destructive-unrecoverable-history"},
		{`git gc`, Allow, ""},
		{`git check-ignore -q .env`, Allow, ""},
		{`git ls-files .env`, Allow, ""},
		{`stat .env`, Allow, ""},
		{`realpath .env`, Allow, ""},
	})
}

// TestBuiltinWorktreeConfigWrites pins that git configuration read from
// other places than .git/config (config.worktree, a linked worktree's,
// a submodule's) is guarded as .git/config is, for the Write tool too.
func TestBuiltinWorktreeConfigWrites(t *testing.T) {
	checkBuiltins(t, []bypassCase{
		{`printf '[core]\n\tfsmonitor = touch x\n' > .git/config.worktree`, Ask, "protect-vouch-git-internals"},
		{`echo x > .git/modules/sub/config`, Ask, "protect-vouch-git-internals"},
		{`echo x > .git/worktrees/wt/config.worktree`, Ask, "protect-vouch-git-internals"},
		{`echo 'exit 0' > .git/modules/sub/hooks/pre-commit`, Ask, "protect-vouch-git-internals"},
	})
	e, p := protectVouchEngine(t)
	for _, path := range []string{"/repo/.git/config.worktree", "/repo/.git/modules/sub/config"} {
		c := Call{Phase: Pre, Tool: "Write", Cwd: "/repo", Args: map[string]any{"file_path": path, "content": "[core]\n"}}
		d, _, err := e.Decide(p, &c, Counters{}, Env{}, Derive(&c, "/home/u", "/repo"))
		if err != nil {
			t.Fatal(err)
		}
		if d.Decision != Ask || d.Rule() != "protect-vouch-git-internals" {
			t.Errorf("Write %s: %s by %q, want ask by protect-vouch-git-internals", path, d.Decision, d.Rule())
		}
	}
}
