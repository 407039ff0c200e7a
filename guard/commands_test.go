package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// commandRepo makes a repository holding the basic policy at the default
// place and makes it the working directory, as the CLI runs.
func commandRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/basic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, ".vouch"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, DefaultPolicy), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	return repo
}

func noEnv(string) (string, bool) { return "", false }

func event(repo, tool, input string) string {
	return `{"session_id":"s","cwd":"` + repo + `","hook_event_name":"PreToolUse","tool_name":"` + tool + `","tool_input":` + input + `,"tool_use_id":"t1"}`
}

// Hook answers every outcome in the harness's protocol, and fails only
// when there is no protocol to answer in.
func TestHook(t *testing.T) {
	repo := commandRepo(t)
	tests := []struct {
		name     string
		req      HookRequest
		stdin    string
		exit     int
		stdout   string // a substring of stdout; "" for none
		stderr   string // a substring of stderr; "" for none
		usageErr bool
	}{
		{name: "allow", req: HookRequest{Harness: ClaudeCode}, stdin: event(repo, "Bash", `{"command":"ls"}`), exit: 0},
		{name: "deny", req: HookRequest{Harness: ClaudeCode}, stdin: event(repo, "Bash", `{"command":"rm -rf build"}`), exit: 2,
			stdout: `"permissionDecision":"deny"`, stderr: "Recursive delete refused"},
		{name: "bad event denies", req: HookRequest{Harness: ClaudeCode}, stdin: `{"tool_name":`, exit: 2, stderr: "vouch guard"},
		{name: "missing policy denies", req: HookRequest{Harness: ClaudeCode, Policy: "nope.yaml"}, stdin: event(repo, "Bash", `{"command":"ls"}`), exit: 2, stderr: "nope.yaml"},
		{name: "json harness error exits 2", req: HookRequest{Harness: JSON, Policy: "nope.yaml"}, stdin: `{}`, exit: 2, stdout: `"decision":"deny"`, stderr: "vouch guard: "},
		{name: "unknown harness", req: HookRequest{Harness: "claude"}, stdin: `{}`, usageErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Hook(tt.req, strings.NewReader(tt.stdin), noEnv)
			if tt.usageErr {
				if err == nil {
					t.Fatalf("Hook = %+v, want a usage error", a)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Exit != tt.exit {
				t.Errorf("exit %d, want %d (stdout %s, stderr %s)", a.Exit, tt.exit, a.Stdout, a.Stderr)
			}
			if tt.stdout == "" && len(a.Stdout) != 0 && tt.exit == 0 {
				t.Errorf("stdout %q, want nothing", a.Stdout)
			}
			if !strings.Contains(string(a.Stdout), tt.stdout) {
				t.Errorf("stdout %q, want it to hold %q", a.Stdout, tt.stdout)
			}
			if !strings.Contains(string(a.Stderr), tt.stderr) {
				t.Errorf("stderr %q, want it to hold %q", a.Stderr, tt.stderr)
			}
		})
	}
	if _, err := os.Stat(AuditPath(repo)); err != nil {
		t.Errorf("the hook kept no audit log: %v", err)
	}
}

// Check decides without state and reports bad input as an error.
func TestCheck(t *testing.T) {
	repo := commandRepo(t)
	d, err := Check("", ClaudeCode, "", strings.NewReader(event(repo, "Read", `{"file_path":"`+repo+`/.env"}`)), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if d.Decision != Deny || len(d.Findings) == 0 || d.Findings[0].Rule != "no-env-reads" {
		t.Errorf("decision %+v, want a deny by no-env-reads", d)
	}
	if _, err := os.Stat(filepath.Join(repo, ".vouch", "guard")); !os.IsNotExist(err) {
		t.Errorf("check wrote session or audit state: %v", err)
	}
	if _, err := Check("", ClaudeCode, "", strings.NewReader("not json"), noEnv); err == nil {
		t.Error("a bad event gave no error")
	}
	if _, err := Check("", "cursorr", "", strings.NewReader("{}"), noEnv); err == nil || !strings.Contains(err.Error(), "cursor") {
		t.Errorf("unknown harness: %v, want an error naming cursor", err)
	}
}

func TestValidate(t *testing.T) {
	commandRepo(t)
	summary, _, err := Validate("")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary, DefaultPolicy) || !strings.Contains(summary, "edictum/v1") {
		t.Errorf("summary %q, want the policy file and its API", summary)
	}
	if err := os.WriteFile("bad.yaml", []byte("apiVersion: edictum/v1\nkind: Ruleset\nrules:\n  - id: x\n    type: pree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Validate("bad.yaml"); err == nil || !strings.Contains(err.Error(), "bad.yaml:5:") {
		t.Errorf("Validate(bad.yaml) = %v, want an error at bad.yaml:5", err)
	}
}

// Replaying the audit under a stricter policy shows the changed decision.
func TestReplayAudit(t *testing.T) {
	repo := commandRepo(t)
	if _, err := Hook(HookRequest{Harness: ClaudeCode}, strings.NewReader(event(repo, "Bash", `{"command":"git status"}`)), noEnv); err != nil {
		t.Fatal(err)
	}
	strict := "apiVersion: edictum/v1\nkind: Ruleset\nmetadata: {name: strict}\ndefaults: {mode: enforce}\nrules:\n  - id: no-git\n    type: pre\n    tool: Bash\n    when:\n      args.command: {starts_with: git}\n    then: {action: block, message: no git}\n"
	if err := os.WriteFile("strict.yaml", []byte(strict), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := ReplayAudit("strict.yaml", "", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 1 {
		t.Errorf("replay changed %d decisions, want 1: %+v", rep.Changed, rep)
	}
	if _, err := ReplayAudit("strict.yaml", "missing.jsonl", noEnv); err == nil {
		t.Error("a missing audit log gave no error")
	}
}

func TestTestCases(t *testing.T) {
	commandRepo(t)
	cases := "cases:\n  - name: rm\n    tool: Bash\n    args: {command: rm -rf x}\n    expect: deny\n  - name: ls\n    tool: Bash\n    args: {command: ls}\n    expect: deny\n"
	if err := os.WriteFile("cases.yaml", []byte(cases), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := TestCases("", "cases.yaml", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed != 1 {
		t.Errorf("%d cases failed, want 1 (ls is allowed): %+v", rep.Failed, rep)
	}
	if _, err := TestCases("", "none.yaml", noEnv); err == nil || !strings.Contains(err.Error(), "guard test file") {
		t.Errorf("missing cases file: %v", err)
	}
}
