package guard

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vouch-dev/vouch/suggest"
)

// hookFlagNames are the flags a hook invocation takes.
var hookFlagNames = []string{"harness", "policy", "timeout", "trace"}

// ParseHookFlags reads the flags of a hook invocation (what follows
// `vouch guard`, or `vouch-guard`): --policy (-p), --harness, --trace and
// --timeout, each at most once, as `--name value` or `--name=value`, with
// one dash or two. Anything else is an error: an unknown or repeated
// flag, a missing or bad value, an argument that is not a flag (the event
// comes on stdin).
func ParseHookFlags(args []string) (HookRequest, error) {
	req := HookRequest{Harness: ClaudeCode, Timeout: DefaultReadTimeout}
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			return req, fmt.Errorf("unexpected argument %q: the hook takes only flags (the event comes on stdin)", a)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		value, inline := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, inline = k, v, true
		}
		if name == "p" {
			name = "policy"
		}
		switch name {
		case "policy", "harness", "trace", "timeout":
		default:
			hint := ""
			if best, ok := suggest.Closest(name, hookFlagNames); ok {
				hint = " (did you mean --" + best + "?)"
			}
			return req, fmt.Errorf("unknown flag %s%s", a, hint)
		}
		if seen[name] {
			return req, fmt.Errorf("--%s is given twice", name)
		}
		seen[name] = true
		if !inline {
			if i+1 >= len(args) {
				return req, fmt.Errorf("--%s needs a value", name)
			}
			i++
			value = args[i]
		}
		switch name {
		case "policy":
			req.Policy = value
		case "harness":
			req.Harness = value
		case "trace":
			req.TraceDir = value
		case "timeout":
			d, err := time.ParseDuration(value)
			if err != nil {
				return req, fmt.Errorf("--timeout %q is not a duration such as 5s or 500ms", value)
			}
			req.Timeout = d
		}
	}
	return req, nil
}

// hookUsage is what `vouch-guard --help` prints.
const hookUsage = `vouch-guard decides one agent tool call (a hook event on stdin) against a guard policy
and answers in the harness's protocol. It is 'vouch guard' alone, in a binary that links only
the guard, so it starts faster on every tool call; 'vouch guard --help' and docs/guard.md
describe the policy, the harnesses and the audit log.

Usage:
  vouch-guard [--policy FILE] [--harness NAME] [--timeout DURATION] [--trace DIR] < event.json
  vouch-guard --serve [--idle DURATION]

--serve runs the warm server that vouch-hook (the fast mode, Linux) asks instead of starting
vouch-guard on every call; it exits after --idle (default 10m, or $VOUCH_GUARD_IDLE) without a
request. docs/guard.md, "Fast mode", says what it does and why it is safe.

Flags:
  -p, --policy FILE     guard policy (default: guard.policy in vouch.yaml, else .vouch/guard.yaml)
  --harness NAME        hook protocol: claude-code (default), codex, gemini, cursor, copilot or json
  --timeout DURATION    deny when the decision takes longer than this (default 5s)
  --trace DIR           write the decision's .dl programs and trace into DIR
  --version             print the version and exit

Exit codes follow the harness protocol (for claude-code a deny exits 2 with the reason on
stderr); a flag error exits 2.
`

// Main runs the lean hook binary, vouch-guard: args are its arguments
// without the program name. It returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, lookupEnv func(string) (string, bool), version string) int {
	return Invocation{LookupEnv: lookupEnv}.Main(args, stdin, stdout, stderr, version)
}

// Main is the package's Main run as inv says: the hook server runs it for
// each client, so a client gets the bytes and exit code a vouch-guard
// process of its own would have given.
func (inv Invocation) Main(args []string, stdin io.Reader, stdout, stderr io.Writer, version string) int {
	if len(args) == 1 {
		switch args[0] {
		case "-h", "-help", "--help", "help":
			io.WriteString(stdout, hookUsage)
			return 0
		case "-version", "--version", "version":
			fmt.Fprintf(stdout, "vouch-guard %s\n", version)
			return 0
		}
	}
	req, err := ParseHookFlags(args)
	if err == nil {
		err = CheckHarness(req.Harness)
	}
	if err != nil {
		// For Claude Code, exit 2 with a reason on stderr blocks the
		// call: a misconfigured hook fails closed.
		fmt.Fprintf(stderr, "vouch-guard: %v; run 'vouch-guard --help'\n", err)
		return 2
	}
	a, err := inv.Hook(req, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "vouch-guard: %v\n", err)
		return 2
	}
	return a.Write(stdout, stderr)
}
