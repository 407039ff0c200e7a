package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/guard"
)

func TestRunGuard(t *testing.T) {
	root := t.TempDir()
	settings := filepath.Join(root, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/x/vouch gate --format claude-hook"}]}]}}`), 0o644)
	opts := Options{Root: root, Binary: "/opt/bin/vouch"}
	res, err := RunGuard(opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Files[0].Action != Wrote || res.Files[1].Action != Merged {
		t.Fatalf("actions %v %v", res.Files[0].Action, res.Files[1].Action)
	}
	data, _ := os.ReadFile(settings)
	s := string(data)
	for _, want := range []string{`"model": "opus"`, `"Stop"`, `"PreToolUse"`, `"PostToolUse"`, `"command": "/opt/bin/vouch guard --harness claude-code"`, `"timeout": 30`} {
		if !strings.Contains(s, want) {
			t.Errorf("settings lack %s:\n%s", want, s)
		}
	}
	// The starter policy loads.
	if _, err := guard.LoadPolicyFile(filepath.Join(root, GuardPolicyPath), ""); err != nil {
		t.Fatal(err)
	}
	// Twice: already installed, nothing changes.
	res, err = RunGuard(opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Files[0].Action != Kept || res.Files[1].Action != Installed {
		t.Fatalf("second run actions %v %v", res.Files[0].Action, res.Files[1].Action)
	}
	again, _ := os.ReadFile(settings)
	if string(again) != s {
		t.Fatalf("second run changed the settings")
	}
	// A broken settings file stops everything.
	os.WriteFile(settings, []byte(`{"hooks": [`), 0o644)
	os.Remove(filepath.Join(root, GuardPolicyPath))
	if _, err := RunGuard(opts); err == nil {
		t.Fatal("merged into broken JSON")
	}
	if _, err := os.Stat(filepath.Join(root, GuardPolicyPath)); err == nil {
		t.Fatal("wrote the policy although the settings could not be merged")
	}
}

// With vouch-guard installed beside vouch, the hooks run it; a hook that
// already runs either one counts as installed.
func TestRunGuardLean(t *testing.T) {
	root, bin := t.TempDir(), t.TempDir()
	for _, name := range []string{"vouch", LeanGuard} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := RunGuard(Options{Root: root, Binary: filepath.Join(bin, "vouch")}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `"command": "` + filepath.Join(bin, LeanGuard) + ` --harness claude-code"`; !strings.Contains(string(data), want) {
		t.Errorf("settings lack %s:\n%s", want, data)
	}
	for cmd, want := range map[string]bool{
		"/usr/local/bin/vouch-guard --harness claude-code": true,
		"'/a b/vouch-guard'":                 true,
		"vouch guard":                        true,
		"/x/vouch gate --format claude-hook": false,
		"my-vouch-guardian":                  false,
	} {
		if got := IsGuardCommand(cmd); got != want {
			t.Errorf("IsGuardCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// With Daemon the hooks run vouch-hook, which needs vouch-guard beside
// it: a missing one is an error naming what to install, and nothing is
// written.
func TestRunGuardDaemon(t *testing.T) {
	tests := []struct {
		name      string
		installed []string
		want      string // the hook command, or the error's text
		wantErr   bool
	}{
		{"both installed", []string{"vouch", LeanGuard, HookClient}, "/" + HookClient + " --harness claude-code", false},
		{"no vouch-hook", []string{"vouch", LeanGuard}, "vouch-hook is missing", true},
		{"no vouch-guard", []string{"vouch", HookClient}, "vouch-guard is missing", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, bin := t.TempDir(), t.TempDir()
			for _, name := range tt.installed {
				if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			_, err := RunGuard(Options{Root: root, Binary: filepath.Join(bin, "vouch"), Daemon: true})
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "go install") {
					t.Fatalf("RunGuard = %v, want an error containing %q", err, tt.want)
				}
				if _, err := os.Stat(filepath.Join(root, ".claude", "settings.json")); err == nil {
					t.Fatal("settings written despite the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(root, ".claude", "settings.json"))
			if err != nil {
				t.Fatal(err)
			}
			if want := `"command": "` + bin + tt.want + `"`; !strings.Contains(string(data), want) {
				t.Errorf("settings lack %s:\n%s", want, data)
			}
			// A second run sees the vouch-hook hooks as installed.
			res, err := RunGuard(Options{Root: root, Binary: filepath.Join(bin, "vouch"), Daemon: true})
			if err != nil || res.Files[len(res.Files)-1].Action != Installed {
				t.Fatalf("second run: %+v, %v", res, err)
			}
		})
	}
	if !IsGuardCommand("'/opt/vouch/bin/vouch-hook' --harness claude-code") {
		t.Error("IsGuardCommand does not know vouch-hook")
	}
}

func TestSwitchClaudeHookCommand(t *testing.T) {
	isHook := func(c string) bool { return strings.Contains(c, "vouch-hook") }
	tests := []struct {
		name, in, want string
		switched       bool
	}{
		{"empty file", "", "", false},
		{"no hooks", `{"model": "opus"}`, `{"model": "opus"}`, false},
		{"other event only", `{"hooks": {"Stop": [{"hooks": [{"command": "/b/vouch-hook"}]}]}}`, `{"hooks": {"Stop": [{"hooks": [{"command": "/b/vouch-hook"}]}]}}`, false},
		{"no match", `{"hooks": {"PreToolUse": [{"hooks": [{"command": "/b/vouch-guard"}]}]}}`, `{"hooks": {"PreToolUse": [{"hooks": [{"command": "/b/vouch-guard"}]}]}}`, false},
		{"switched, other fields kept in order",
			`{"z": 1, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/b/vouch-hook --harness claude-code", "timeout": 30}, {"type": "command", "command": "other"}]}]}}`,
			"{\n  \"z\": 1,\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"/b/vouch-guard --harness claude-code\",\n            \"timeout\": 30\n          },\n          {\n            \"type\": \"command\",\n            \"command\": \"other\"\n          }\n        ]\n      }\n    ]\n  }\n}\n",
			true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, switched, err := SwitchClaudeHookCommand("settings.json", []byte(tt.in), "PreToolUse", isHook, "/b/vouch-guard --harness claude-code")
			if err != nil {
				t.Fatal(err)
			}
			if switched != tt.switched || string(out) != tt.want {
				t.Errorf("got %v %q, want %v %q", switched, out, tt.switched, tt.want)
			}
		})
	}
	if _, _, err := SwitchClaudeHookCommand("settings.json", []byte(`{"hooks": {"PreToolUse": {}}}`), "PreToolUse", isHook, "x"); err == nil {
		t.Error("a PreToolUse that is not an array was accepted")
	}
}
