package guard

import (
	"slices"
	"testing"
)

// TestOutsideRootScratch: writes Claude Code makes in ordinary work
// outside the repository (plans, auto memory) and scratch files under
// /tmp whatever $TMPDIR says are not outside the repository; their
// dangerous neighbours (Claude's settings and hooks, /tmp itself) are.
func TestOutsideRootScratch(t *testing.T) {
	// The home and configuration directories need not exist; neither is
	// below /tmp.
	home, cfg := "/nonexistent-vouch-test/home", "/nonexistent-vouch-test/cfg"
	macTmp := "/nonexistent-vouch-test/var/folders/xy/T/"
	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		tmpdir  string
		cfgDir  string
		outside bool
	}{
		{"plan", "Write", map[string]any{"file_path": home + "/.claude/plans/fuzzy-parser.md"}, "", "", false},
		{"plan edit", "Edit", map[string]any{"file_path": "~/.claude/plans/fuzzy-parser.md"}, "", "", false},
		{"auto memory", "Write", map[string]any{"file_path": home + "/.claude/projects/-w-repo/memory/MEMORY.md"}, "", "", false},
		{"plan under CLAUDE_CONFIG_DIR", "Write", map[string]any{"file_path": cfg + "/plans/p.md"}, "", cfg, false},
		{"memory under CLAUDE_CONFIG_DIR", "Write", map[string]any{"file_path": cfg + "/projects/p/memory/MEMORY.md"}, "", cfg, false},
		{"settings", "Write", map[string]any{"file_path": home + "/.claude/settings.json"}, "", "", true},
		{"settings under CLAUDE_CONFIG_DIR", "Write", map[string]any{"file_path": cfg + "/settings.json"}, "", cfg, true},
		{"CLAUDE_CONFIG_DIR unset", "Write", map[string]any{"file_path": cfg + "/plans/p.md"}, "", "", true},
		{"hook script", "Write", map[string]any{"file_path": home + "/.claude/hooks/pre.sh"}, "", "", true},
		{"command", "Write", map[string]any{"file_path": home + "/.claude/commands/x.md"}, "", "", true},
		{"agent", "Write", map[string]any{"file_path": home + "/.claude/agents/x.md"}, "", "", true},
		{"plans directory itself", "Bash", map[string]any{"command": "rm -rf ~/.claude/plans"}, "", "", true},
		{"delete a plan", "Bash", map[string]any{"command": "rm -rf ~/.claude/plans/x"}, "", "", true},
		{"out of plans by ..", "Write", map[string]any{"file_path": home + "/.claude/plans/../settings.json"}, "", "", true},
		{"project transcript", "Write", map[string]any{"file_path": home + "/.claude/projects/p/s1.jsonl"}, "", "", true},
		{"memory directory name elsewhere", "Write", map[string]any{"file_path": home + "/.claude/projects/memory/x.md"}, "", "", true},
		{"/tmp with macOS TMPDIR", "Bash", map[string]any{"command": "echo hi > /tmp/out.txt"}, macTmp, "", false},
		{"tee to /tmp with macOS TMPDIR", "Bash", map[string]any{"command": "go test ./... 2>&1 | tee /tmp/test-output.log"}, macTmp, "", false},
		{"rm -rf in /tmp with macOS TMPDIR", "Bash", map[string]any{"command": "rm -rf /tmp/build-cache"}, macTmp, "", false},
		{"Write to /tmp with macOS TMPDIR", "Write", map[string]any{"file_path": "/tmp/scratch.py"}, macTmp, "", false},
		{"TMPDIR still counts", "Write", map[string]any{"file_path": macTmp + "x"}, macTmp, "", false},
		{"rm -rf /tmp with macOS TMPDIR", "Bash", map[string]any{"command": "rm -rf /tmp"}, macTmp, "", true},
		{"rm -rf /tmp/ with macOS TMPDIR", "Bash", map[string]any{"command": "rm -rf /tmp/"}, macTmp, "", true},
		{"rm -rf TMPDIR", "Bash", map[string]any{"command": "rm -rf " + macTmp}, macTmp, "", true},
		{"/var/tmp is not scratch", "Write", map[string]any{"file_path": "/var/tmp/x"}, macTmp, "", true},
		{"no temporary directory at all", "Write", map[string]any{"file_path": "/tmp/x"}, "", "", true},
	}
	// A home directory inside the temporary one: its dotfiles are not
	// scratch, the rest of the temporary directory still is.
	tmpHome := "/tmp/vouch-test-home"
	for _, tt := range []struct {
		name    string
		args    map[string]any
		outside bool
	}{
		{"dotfile of a home below /tmp", map[string]any{"command": "echo x >> ~/.bashrc"}, true},
		{"file in a home below /tmp", map[string]any{"command": "cp x " + tmpHome + "/bin/git"}, true},
		{"elsewhere in /tmp", map[string]any{"command": "echo x > /tmp/out.txt"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := Call{Phase: Pre, Tool: "Bash", Cwd: "/repo", Args: tt.args}
			f := DeriveIn(&c, DeriveContext{Home: tmpHome, Root: "/repo", TempDir: "/tmp"})
			if got := len(f.OutsideRoot) > 0; got != tt.outside {
				t.Fatalf("outside_root %v, want outside %v (writes %v)", f.OutsideRoot, tt.outside, f.Writes)
			}
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Call{Phase: Pre, Tool: tt.tool, Cwd: "/repo", Args: tt.args}
			f := DeriveIn(&c, DeriveContext{Home: home, Root: "/repo", TempDir: tt.tmpdir, ClaudeConfigDir: tt.cfgDir})
			if got := len(f.OutsideRoot) > 0; got != tt.outside {
				t.Fatalf("outside_root %v, want outside %v (writes %v, deletes %v)", f.OutsideRoot, tt.outside, f.Writes, f.Deletes)
			}
			if tt.tool == "Bash" && slices.Contains(f.Commands, "rm") && (len(f.DeletesOutsideRoot) > 0) != tt.outside {
				t.Fatalf("deletes_outside_root %v, want outside %v", f.DeletesOutsideRoot, tt.outside)
			}
		})
	}
}
