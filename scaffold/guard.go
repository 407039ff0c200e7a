package scaffold

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vouch-dev/vouch/internal/atomicfile"
)

// GuardHookTimeout is the Claude Code timeout init writes for the guard
// hooks, in seconds. A hook that times out does not block (the tool runs),
// so it stays well above the guard's own deadline (5 s by default), which
// denies instead.
const GuardHookTimeout = 30

// GuardPolicyPath is where init scaffolds the starter guard policy.
const GuardPolicyPath = ".vouch/guard.yaml"

// LeanGuard is the name of the lean hook binary (cmd/vouch-guard).
const LeanGuard = "vouch-guard"

// HookClient is the name of the fast-mode hook client (cmd/vouch-hook),
// which asks a warm vouch-guard --serve and falls back to vouch-guard.
const HookClient = "vouch-hook"

// guardCommand is the hook command for the guard: with daemon, vouch-hook
// (it needs vouch-guard beside it, so both must be installed beside bin);
// else the lean vouch-guard when it is installed beside bin (it starts
// faster on every tool call), else bin's own `guard` command.
func guardCommand(bin string, daemon bool) (string, error) {
	dir := filepath.Dir(bin)
	if daemon {
		for _, name := range []string{HookClient, LeanGuard} {
			if !executable(filepath.Join(dir, name)) {
				return "", fmt.Errorf("--daemon runs %s, which needs %s and %s installed beside vouch in %s; %s is missing: install both (go install github.com/vouch-dev/vouch/cmd/vouch-hook@VERSION github.com/vouch-dev/vouch/cmd/vouch-guard@VERSION, docs/install.md), or drop --daemon", HookClient, HookClient, LeanGuard, dir, name)
			}
		}
		return shellQuote(filepath.Join(dir, HookClient)) + " --harness claude-code", nil
	}
	if lean := filepath.Join(dir, LeanGuard); executable(lean) {
		return shellQuote(lean) + " --harness claude-code", nil
	}
	return shellQuote(bin) + " guard --harness claude-code", nil
}

// executable reports whether path is a regular file someone may run.
func executable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// runsHookClient reports whether a hook command runs vouch-hook, the
// fast mode's client.
func runsHookClient(command string) bool {
	for _, f := range strings.Fields(command) {
		bin := strings.Trim(f, `'"`)
		if bin == HookClient || strings.HasSuffix(bin, "/"+HookClient) {
			return true
		}
	}
	return false
}

// IsGuardCommand reports whether a hook command runs `vouch guard`,
// vouch-guard or vouch-hook, by whatever path.
func IsGuardCommand(command string) bool {
	fields := strings.Fields(command)
	for i, f := range fields {
		bin := strings.Trim(f, `'"`)
		for _, name := range []string{LeanGuard, HookClient} {
			if bin == name || strings.HasSuffix(bin, "/"+name) {
				return true
			}
		}
		if (bin == "vouch" || strings.HasSuffix(bin, "/vouch")) && i+1 < len(fields) && fields[i+1] == "guard" {
			return true
		}
	}
	return false
}

// RunGuard sets up `vouch guard` at opts.Root: a starter policy in
// observe mode (kept when one exists, unless opts.Force) and the
// PreToolUse and PostToolUse hooks merged into .claude/settings.json
// (never overwritten; "already installed" when a hook there runs vouch
// guard). Nothing is written when the settings cannot be merged.
func RunGuard(opts Options) (*Result, error) {
	if opts.Binary == "" {
		return nil, errors.New("scaffold: no vouch binary path for the hooks")
	}
	res := &Result{}
	if err := res.plan(opts, File{Path: GuardPolicyPath, content: []byte(guardPolicyYAML), perm: 0o644}); err != nil {
		return nil, err
	}
	f := File{Path: filepath.Join(opts.Root, ".claude", "settings.json"), Hook: true, perm: 0o644}
	data, err := os.ReadFile(f.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.Action = Wrote
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", f.Path, err)
	default:
		f.Action = Merged
	}
	cmd, err := guardCommand(opts.Binary, opts.Daemon)
	if err != nil {
		return nil, err
	}
	// A guard hook of the other mode (direct, or --daemon's vouch-hook) is
	// switched to this one rather than joined by a second: both would run
	// on every call, and going back to the direct hook must be possible.
	otherMode := func(c string) bool { return IsGuardCommand(c) && runsHookClient(c) != opts.Daemon }
	switched := false
	installed := 0
	for _, event := range []string{"PreToolUse", "PostToolUse"} {
		out, sw, err := SwitchClaudeHookCommand(f.Path, data, event, otherMode, cmd)
		if err != nil {
			return nil, err
		}
		data, switched = out, switched || sw
		out, already, err := MergeClaudeHook(f.Path, data, ClaudeHook{Event: event, Command: cmd, Timeout: GuardHookTimeout}, IsGuardCommand)
		if err != nil {
			return nil, err
		}
		if already {
			installed++
		}
		data = out
	}
	switch {
	case switched:
		f.Action = Switched
		f.Command = cmd
	case installed == 2:
		f.Action = Installed
	}
	f.content = data
	res.Files = append(res.Files, f)
	if tmp := os.TempDir(); strings.HasPrefix(opts.Binary, filepath.Join(tmp, "go-build")) {
		res.Notes = append(res.Notes, fmt.Sprintf("the hooks run %s, a temporary build that go run deletes; install vouch (docs/install.md) and run vouch init --guard again", opts.Binary))
	}
	for i := range res.Files {
		f := &res.Files[i]
		if f.Action != Wrote && f.Action != Merged && f.Action != Switched {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return res, fmt.Errorf("write %s: %w", f.Path, err)
		}
		if err := atomicfile.Write(f.Path, f.content, f.perm); err != nil {
			return res, fmt.Errorf("write %s: %w", f.Path, err)
		}
	}
	return res, nil
}

// WriteGuardText prints what init --guard did.
func (r *Result) WriteGuardText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Files {
		switch f.Action {
		case Wrote:
			fmt.Fprintf(&b, "wrote %s\n", f.Path)
		case Merged:
			fmt.Fprintf(&b, "merged the vouch guard PreToolUse and PostToolUse hooks into %s\n", f.Path)
		case Installed:
			fmt.Fprintf(&b, "%s: the vouch guard hooks are already installed\n", f.Path)
		case Switched:
			fmt.Fprintf(&b, "switched the vouch guard hooks in %s to run %s\n", f.Path, f.Command)
		case Kept:
			fmt.Fprintf(&b, "kept %s: it exists (use --force to overwrite)\n", f.Path)
		}
	}
	// Only a policy written now is known to be the starter in observe
	// mode; a kept one may enforce.
	if len(r.Files) > 0 && r.Files[0].Action == Wrote {
		b.WriteString("\nThe starter policy is in observe mode: decisions are recorded in .vouch/guard/audit.jsonl\n" +
			"and nothing is blocked. Review them (vouch guard replay), then set defaults.mode: enforce.\n")
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	_, err := w.Write([]byte(b.String()))
	return err
}

const guardPolicyYAML = `# vouch guard policy (docs/guard.md). vouch/v1 is Edictum's ruleset format
# (apiVersion: edictum/v1 files work unchanged) plus vouch's extensions.
apiVersion: vouch/v1
kind: Ruleset
metadata:
  name: starter
defaults:
  # observe: would-be denials are recorded in .vouch/guard/audit.jsonl and
  # the call proceeds. Switch to enforce once the audit looks right.
  mode: observe
# Built-in rule sets: secret reads (shell reads included), destructive
# commands, writes outside the repository, network exfiltration, and
# changes to vouch's own control files (this policy, the guard's logs,
# vouch.yaml, .claude/settings.json), which ask a person.
builtins: [sensitive-reads, destructive-commands, writes-outside-repo, network-exfiltration, protect-vouch]
rules:
  - id: session-limits
    type: session
    limits:
      max_attempts: 500
      max_tool_calls: 300
      max_consecutive_failures: 20
    then:
      action: block
      message: "Session limit reached; stop and summarise what is left to do."
`
