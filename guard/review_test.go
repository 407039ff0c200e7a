package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reviewCase is one command the adversarial review of the built-in sets
// found allowed, or a common command the fixes must keep allowed, decided
// by every built-in set as the starter policy enables them.
type reviewCase struct {
	command  string
	decision string
	rule     string // "" for any rule
	strict   string // the decision with strict: true, when it differs
}

// decideReview runs cases against all built-in sets, without and with
// strict: true, in a call at /repo.
func decideReview(t *testing.T, tests []reviewCase) {
	t.Helper()
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	load := func(strict bool) *Policy {
		src := "apiVersion: vouch/v1\nkind: Ruleset\ndefaults: {mode: enforce}\nbuiltins: [sensitive-reads, destructive-commands, writes-outside-repo, network-exfiltration, protect-vouch]\n"
		if strict {
			src += "strict: true\n"
		}
		p, err := LoadPolicy("review.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	normal, strict := load(false), load(true)
	for _, tt := range tests {
		c := Call{Phase: Pre, Tool: "Bash", Cwd: "/repo", Args: map[string]any{"command": tt.command}}
		for _, strictMode := range []bool{false, true} {
			p, want := normal, tt.decision
			if strictMode {
				p = strict
				if tt.strict != "" {
					want = tt.strict
				}
			}
			f := Derive(&c, "/home/u", "/repo")
			d, _, err := e.Decide(p, &c, Counters{}, Env{}, f)
			if err != nil {
				t.Fatal(err)
			}
			if d.Decision != want || (tt.rule != "" && d.Rule() != tt.rule) {
				cmd := tt.command
				if len(cmd) > 200 {
					cmd = cmd[:100] + "..." + cmd[len(cmd)-100:]
				}
				t.Errorf("%q (strict %v): %s by %q, want %s by %q", cmd, strictMode, d.Decision, d.Rule(), want, tt.rule)
			}
		}
	}
}

// TestReviewLongCommands: a command past what shellfacts analyses must not
// pass because its tail was never looked at; a big file written through a
// quoted here-document is analysed whole.
func TestReviewLongCommands(t *testing.T) {
	pad := strings.Repeat(strings.Repeat("x", 69)+"\n", 1000)
	quoted := "cat > notes.txt <<'EOF'\n" + pad + "EOF\n"
	unquoted := "cat > notes.txt <<EOF\n" + pad + "EOF\n"
	decideReview(t, []reviewCase{
		{quoted + "git push --force origin main", Deny, "destructive-force-push", ""},
		{quoted + "rm -rf /etc", Deny, "", ""},
		{quoted + "cat ~/.ssh/id_rsa", Deny, "sensitive-reads-files", ""},
		{quoted + "go test ./...", Allow, "", ""},
		{unquoted + "git push --force origin main", Ask, "", Deny},
		{unquoted + "go test ./...", Ask, "", Deny},
		{"echo '" + strings.Repeat("y", 70000) + "'; rm -rf /etc", Ask, "", Deny},
		{"cat > big.txt <<'EOF'\n" + strings.Repeat(pad, 16) + "EOF\nrm -rf /etc", Ask, "", Deny},
	})
}

// TestReviewTruncatedRule: the rule vouch/v1 policies get for a command
// too long to analyse asks, with no built-in set enabled, and denies under
// strict: true.
func TestReviewTruncatedRule(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	cmd := "echo '" + strings.Repeat("y", 70000) + "'; git push --force origin main"
	rule := "rules:\n  - {id: no-curl, type: pre, tool: Bash, when: {derived.commands: {contains: curl}}, then: {action: deny, message: no}}\n"
	for src, want := range map[string]string{
		"apiVersion: vouch/v1\nkind: Ruleset\n" + rule:               Ask,
		"apiVersion: vouch/v1\nkind: Ruleset\nstrict: true\n" + rule: Deny,
	} {
		p, err := LoadPolicy("t.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		c := Call{Phase: Pre, Tool: "Bash", Cwd: "/repo", Args: map[string]any{"command": cmd}}
		d, _, err := e.Decide(p, &c, Counters{}, Env{}, Derive(&c, "/home/u", "/repo"))
		if err != nil {
			t.Fatal(err)
		}
		if d.Decision != want || d.Rule() != "vouch-truncated-shell" {
			t.Errorf("%q: %s by %q, want %s by vouch-truncated-shell", src, d.Decision, d.Rule(), want)
		}
	}
}

// TestReviewProtectedBranches: main and master by their full ref names,
// and git switch -C / checkout -B, which reset a branch as branch -f does.
func TestReviewProtectedBranches(t *testing.T) {
	decideReview(t, []reviewCase{
		{"git push origin :refs/heads/main", Deny, "destructive-history-rewrite", ""},
		{"git push origin :refs/heads/master", Deny, "destructive-history-rewrite", ""},
		{"git push origin --delete refs/heads/main", Deny, "destructive-history-rewrite", ""},
		{"git push -d origin refs/heads/main", Deny, "destructive-history-rewrite", ""},
		{"git push origin :main", Deny, "destructive-history-rewrite", ""},
		{"git push origin +refs/heads/main", Deny, "destructive-force-push", ""},
		{"git push origin +HEAD:refs/heads/main", Deny, "destructive-force-push", ""},
		{"git push --force origin HEAD:refs/heads/main", Deny, "destructive-force-push", ""},
		{"git switch -C main", Deny, "destructive-history-rewrite", ""},
		{"git switch --force-create main", Deny, "destructive-history-rewrite", ""},
		{"git checkout -B master origin/x", Deny, "destructive-history-rewrite", ""},
		{"git branch --force main HEAD~1", Deny, "destructive-history-rewrite", ""},
		{"git update-ref -d refs/heads/main", Deny, "destructive-history-rewrite", ""},
		// Ordinary pushes and branch work are no history rewrite (a
		// branch switch rewrites the work tree, which protect-vouch asks
		// about).
		{"git push origin main", Allow, "", ""},
		{"git push origin HEAD:refs/heads/main", Allow, "", ""},
		{"git push origin HEAD:main", Allow, "", ""},
		{"git push origin :refs/heads/old-feature", Allow, "", ""},
		{"git switch -c feature main", Ask, "protect-vouch-trees", Deny},
		{"git checkout -B feature main", Ask, "protect-vouch-trees", Deny},
		{"git switch main", Ask, "protect-vouch-trees", Deny},
	})
}

// TestReviewEnvDumps: every way of printing the environment the review
// found, and commands that only look like one.
func TestReviewEnvDumps(t *testing.T) {
	decideReview(t, []reviewCase{
		{"env FOO=bar", Deny, "sensitive-reads-env-dump", ""},
		{"env --", Deny, "sensitive-reads-env-dump", ""},
		{"env -v", Deny, "sensitive-reads-env-dump", ""},
		{"env --debug", Deny, "sensitive-reads-env-dump", ""},
		{"env -C /", Deny, "sensitive-reads-env-dump", ""},
		{"env --unset HOME", Deny, "sensitive-reads-env-dump", ""},
		{"env --unset=HOME -0", Deny, "sensitive-reads-env-dump", ""},
		{"env 'A=x y'", Deny, "sensitive-reads-env-dump", ""},
		{"env", Deny, "sensitive-reads-env-dump", ""},
		{"cat /proc/$PPID/environ", Deny, "sensitive-reads-files", ""},
		{"cat /proc/$$/environ", Deny, "sensitive-reads-files", ""},
		{`tr '\0' '\n' < "/proc/$PID/environ"`, Deny, "sensitive-reads-files", ""},
		{"head /proc/thread-self/environ", Deny, "sensitive-reads-files", ""},
		{"strings /proc/self/task/*/environ", Deny, "sensitive-reads-files", ""},
		{"cat /proc/1/task/1/environ", Deny, "sensitive-reads-files", ""},
		{"ps eww", Deny, "sensitive-reads-env-dump", ""},
		{"ps auxe", Deny, "sensitive-reads-env-dump", ""},
		{"compgen -v", Deny, "sensitive-reads-env-dump", ""},
		{"env FOO=1 make", Allow, "", ""},
		{"env -u HOME go test ./...", Allow, "", ""},
		{"env -S 'go test ./...'", Allow, "", ""},
		{"ps aux", Allow, "", ""},
		{"ps -ef", Allow, "", ""},
		{"ps -e -o pid,user", Allow, "", ""},
		{"printenv HOME", Allow, "", ""},
		{"cat /proc/$$/status", Allow, "", ""},
		{"compgen -c", Allow, "", ""},
	})
}

// TestReviewGitConfigEnv: git configuration given through the environment
// is read as the git -c options it amounts to.
func TestReviewGitConfigEnv(t *testing.T) {
	hooks := "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null"
	alias := `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0="push --force"`
	decideReview(t, []reviewCase{
		{hooks + " git commit -m x", Deny, "destructive-no-verify", ""},
		{"export " + hooks + "; git commit -m x", Deny, "destructive-no-verify", ""},
		{"env " + hooks + " git commit -m x", Deny, "destructive-no-verify", ""},
		{hooks + " sudo git -C sub commit -m x", Deny, "destructive-no-verify", ""},
		{alias + " git p", Deny, "destructive-force-push", ""},
		{"export " + alias + " && git p origin main", Deny, "destructive-force-push", ""},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.ci GIT_CONFIG_VALUE_0="commit --no-verify" git ci -m x`, Deny, "destructive-no-verify", ""},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.mirror GIT_CONFIG_VALUE_0=true git push`, Deny, "destructive-force-push", ""},
		{`GIT_CONFIG_PARAMETERS="'alias.p'='push --force'" git p`, Deny, "destructive-force-push", ""},
		{`GIT_CONFIG_PARAMETERS="'core.hooksPath'='/dev/null'" git commit -m x`, Deny, "destructive-no-verify", ""},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=bot git commit -m x`, Allow, "", ""},
	})
}

// TestReviewFindXargsWriters: a writer fed by xargs, parallel or find
// -exec's {}, and a find that removes entries below a directory, may
// change vouch's own files or files outside the repository; a find whose
// -name tests cannot match them does not ask.
func TestReviewFindXargsWriters(t *testing.T) {
	decideReview(t, []reviewCase{
		{"grep -rl enforce . | xargs sed -i s/enforce/observe/", Ask, "protect-vouch-unresolved-writes", Deny},
		{"git ls-files | xargs sed -i s/enforce/observe/", Ask, "protect-vouch-unresolved-writes", Deny},
		{"ls | parallel truncate -s0 {}", Ask, "protect-vouch-unresolved-writes", Deny},
		{"ls | xargs -I% cp evil %", Ask, "protect-vouch-unresolved-writes", Deny},
		{`find . -name "*.yaml" -exec sed -i s/enforce/observe/ {} \;`, Ask, "protect-vouch-trees", Deny},
		{`find . -name guard.yaml -exec truncate -s0 {} +`, Ask, "protect-vouch-trees", Deny},
		{`find . -name "*.yaml" -exec cp evil {} \;`, Ask, "protect-vouch-trees", Deny},
		{`find . -iname 'GUARD.*' -exec sed -i d {} +`, Ask, "protect-vouch-trees", Deny},
		{`find . -type f -exec sed -i s/a/b/ {} +`, Ask, "protect-vouch-trees", Deny},
		{`find . -name '*.yaml' -o -name '*.go' -exec sed -i s/a/b/ {} +`, Ask, "protect-vouch-trees", Deny},
		{`find /etc -name "*.conf" -exec sed -i s/a/b/ {} +`, Deny, "writes-outside-repo", ""},
		{"echo /etc/passwd | xargs sed -i d", Deny, "writes-outside-repo", ""}, // static input: the target is known
		{"echo .vouch/guard.yaml | xargs sed -i d", Ask, "protect-vouch-writes", Deny},
		{"ls /etc/*.conf | xargs truncate -s0", Ask, "protect-vouch-unresolved-writes", Deny},
		{"xargs -a list cp -t /etc", Deny, "writes-outside-repo", ""},
		{"find .vouch -type f -delete", Ask, "protect-vouch-trees", Deny},
		{"find . -name audit.jsonl -delete", Ask, "protect-vouch-trees", Deny},
		{"find . -name '*.json' -delete", Ask, "protect-vouch-trees", Deny},
		{"find . -name .claude -exec rm -rf {} +", Ask, "protect-vouch-trees", Deny},
		{"find . -name guard.yaml -exec mv {} /repo/x \\;", Ask, "protect-vouch-trees", Deny},
		{"find .. -name repo -exec rm -rf {} +", Deny, "", ""},
		{"find . -type f -exec rm {} +", Ask, "protect-vouch-trees", Deny},
		// A bracket class matches guard.yaml as bash reads it.
		{"find . -name '[[:alpha:]]*.yaml' -delete", Ask, "protect-vouch-trees", Deny},
		{"find . -name '[!0-9]uard.yaml' -delete", Ask, "protect-vouch-trees", Deny},
		// Common commands that cannot reach vouch's files stay allowed.
		{"find . -name '*.pyc' -delete", Allow, "", ""},
		{"find . -name '__pycache__' -prune -exec rm -rf {} +", Allow, "", ""},
		{"find . -name '*.go' -exec gofmt -w {} +", Allow, "", ""},
		{"find . -name '*.go' -exec sed -i s/a/b/ {} +", Allow, "", ""},
		{"find src -type f -exec sed -i s/a/b/ {} +", Allow, "", ""},
		{"find . -name '*.o' -delete", Allow, "", ""},
		{"git ls-files | xargs grep -n TODO", Allow, "", ""},
		{"find . -name '*.go' | xargs gofmt -l", Allow, "", ""},
		{"find . -name '*.tmp' -exec cat {} +", Allow, "", ""},
	})
}

// TestReviewRepositoryAndInPlace: deleting what a repository cannot lose
// (.git's contents through a glob, its object store, every tracked file by
// git rm -r), and in-place writers (yq -i, sponge, rename, ed) on vouch's
// files. The repository is real, so .git/* expands.
func TestReviewRepositoryAndInPlace(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	p, err := LoadPolicy("review.yaml", []byte("apiVersion: vouch/v1\nkind: Ruleset\ndefaults: {mode: enforce}\nbuiltins: [sensitive-reads, destructive-commands, writes-outside-repo, network-exfiltration, protect-vouch]\n"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".git/objects/pack", ".git/refs/heads", ".vouch", "src"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/HEAD", ".vouch/guard.yaml"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ command, decision, rule string }{
		{"rm -rf .git/*", Deny, "destructive-rm-repository"},
		{"rm -rf .git/objects", Deny, "destructive-rm-repository"},
		{"rm -rf .git/refs/heads", Deny, "destructive-rm-repository"},
		{"git rm -rf .", Deny, "destructive-rm-repository"},
		{"git rm -r --cached .", Allow, ""},
		{"rm -rf .git/rebase-merge", Allow, ""},
		{"rm -f .git/index.lock", Allow, ""},
		{"git rm -r src", Allow, ""},
		{"yq -i '.defaults.mode = \"observe\"' .vouch/guard.yaml", Ask, "protect-vouch-writes"},
		{"yq e -i '.a = 1' .vouch/guard.yaml", Ask, "protect-vouch-writes"},
		{"yq '.a' .vouch/guard.yaml", Allow, ""},
		{"sed s/enforce/observe/ .vouch/guard.yaml | sponge .vouch/guard.yaml", Ask, "protect-vouch-writes"},
		{"rename 's/guard/old/' .vouch/guard.yaml", Ask, ""},
		{"ed .vouch/guard.yaml", Ask, "protect-vouch-writes"},
		{"yq -i '.a = 1' src/x.yaml", Allow, ""},
	} {
		c := Call{Phase: Pre, Tool: "Bash", Cwd: root, Args: map[string]any{"command": tt.command}}
		f := Derive(&c, "/home/u", root)
		d, _, err := e.Decide(p, &c, Counters{}, Env{}, f)
		if err != nil {
			t.Fatal(err)
		}
		if d.Decision != tt.decision || (tt.rule != "" && d.Rule() != tt.rule) {
			t.Errorf("%q: %s by %q, want %s by %q (deletes %q, writes %q)", tt.command, d.Decision, d.Rule(), tt.decision, tt.rule, f.Deletes, f.Writes)
		}
	}
}
