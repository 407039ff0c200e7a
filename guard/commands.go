package guard

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/internal/safeopen"
	"github.com/vouch-dev/vouch/output"
)

// exitBadInput is the exit code of `--harness json` when the call was
// denied because vouch could not decide it (bad event, policy or
// evaluation), as every vouch command exits on bad input.
const exitBadInput = 2

// HookRequest is what one `vouch guard` hook invocation is given besides
// the event on stdin.
type HookRequest struct {
	// Policy is the --policy flag ("" for the configured default).
	Policy string
	// Harness names the wire protocol (ClaudeCode, Codex, ...).
	Harness string
	// TraceDir, when set, receives the decision's programs and trace.
	TraceDir string
	// Timeout bounds the decision, reading stdin included.
	Timeout time.Duration
}

// Invocation is where one hook invocation runs: its working directory,
// its environment and the engine that decides it. A hook process runs in
// its own directory and environment; the hook server (vouch-guard
// --serve) answers each client in the client's, with one engine for all.
type Invocation struct {
	// Dir is the working directory relative paths (--policy, --trace,
	// the repository root found from it) are taken against; "" is this
	// process's own.
	Dir string
	// LookupEnv reads the environment: VOUCH_PRINCIPAL, HOME (with Dir
	// set) and the env.* selectors.
	LookupEnv func(string) (string, bool)
	// Engine decides the call; nil prepares one for it.
	Engine *Engine
	// Policies, when set, keeps compiled policies in memory across
	// invocations (the server's; a hook process has one call).
	Policies *PolicyCache
}

// Hook runs one hook invocation end to end: it resolves the setup,
// decides the event read from stdin and renders the answer in the
// harness's protocol. Every failure is answered as a deny in that
// protocol; the error is non-nil only when there is no protocol to answer
// in (an unknown harness), which is a usage error.
func Hook(req HookRequest, stdin io.Reader, lookupEnv func(string) (string, bool)) (Answer, error) {
	return Invocation{LookupEnv: lookupEnv}.Hook(req, stdin)
}

// Hook is the package's Hook run as inv says.
func (inv Invocation) Hook(req HookRequest, stdin io.Reader) (Answer, error) {
	if err := CheckHarness(req.Harness); err != nil {
		return Answer{}, err
	}
	s, err := LoadSetupAt(inv.Dir, req.Policy, inv.LookupEnv)
	if err != nil {
		return Render(req.Harness, Pre, "", ErrorDecision(err)), nil
	}
	e := inv.Engine
	if e == nil {
		if e, err = NewEngine(); err != nil {
			return Render(req.Harness, Pre, "", ErrorDecision(err)), nil
		}
	}
	out := RunHook(context.Background(), e, stdin, HookOptions{
		Harness: req.Harness, Policy: s.Policy, Root: s.Root, Env: s.Env, Home: s.Home,
		Timeout: req.Timeout, TraceDir: req.TraceDir, Dir: inv.Dir, Policies: inv.Policies,
	})
	a := Render(req.Harness, out.Phase, out.Event, out.Decision)
	if out.Err != nil && req.Harness != ClaudeCode {
		// Claude Code shows stderr as the deny reason already; the
		// others get the error on stderr for whoever reads hook logs.
		a.Stderr = append(a.Stderr, []byte("vouch guard: "+out.Err.Error()+"\n")...)
	}
	if out.Err != nil && req.Harness == JSON {
		a.Exit = exitBadInput
	}
	return a, nil
}

// Check decides one event for `vouch guard check`: like the hook, but
// with zero session counters, no session or audit write, and an error
// (bad input) instead of a fail-closed deny.
func Check(policy, harness, traceDir string, stdin io.Reader, lookupEnv func(string) (string, bool)) (*Decision, error) {
	if err := CheckHarness(harness); err != nil {
		return nil, err
	}
	s, err := LoadSetup(policy, lookupEnv)
	if err != nil {
		return nil, err
	}
	e, err := NewEngine()
	if err != nil {
		return nil, err
	}
	out := RunHook(context.Background(), e, stdin, HookOptions{
		Harness: harness, Policy: s.Policy, Root: s.Root, Env: s.Env, Home: s.Home,
		NoState: true, TraceDir: traceDir,
	})
	if out.Err != nil {
		return nil, out.Err
	}
	return out.Decision, nil
}

// Validate loads the policy for `vouch guard validate` (policy is the
// --policy flag) and returns its summary line and its warnings.
func Validate(policy string) (summary string, warnings []string, err error) {
	cfg, err := config.Load(".", "")
	if err != nil {
		return "", nil, fmt.Errorf("invalid configuration:\n%w", err)
	}
	path := PolicyPath(cfg, policy)
	if err := CheckPolicyLocation(path, cfg.Root); err != nil {
		return "", nil, fmt.Errorf("invalid guard policy:\n%w", err)
	}
	p, err := LoadPolicyFile(path, "")
	if err != nil {
		return "", nil, fmt.Errorf("invalid guard policy:\n%w", err)
	}
	return PolicySummary(path, p), p.Warnings, nil
}

// ReplayAudit decides every call of an audit log again under a policy
// (policy is the --policy flag; audit "" is the repository's own log).
// The log is read as a stream (ReplayLog), so its size bounds the time a
// replay takes, not the memory.
func ReplayAudit(policy, audit string, lookupEnv func(string) (string, bool)) (*ReplayReport, error) {
	s, err := LoadSetup(policy, lookupEnv)
	if err != nil {
		return nil, err
	}
	// Opened as untrusted input: a named pipe planted at the log's path
	// must not hang the replay, nor a huge file exhaust memory. The
	// repository's own log is opened as from: audit opens it, confined to
	// the root: a symbolic or hard link planted there (to a clean log, or
	// to any file outside the repository) is refused, not followed. A
	// path typed on the command line is the user's choice and followed.
	var f *os.File
	var st fs.FileInfo
	if audit == "" {
		root := s.Root
		if root == "" {
			root = "."
		}
		audit = AuditPath(s.Root)
		f, st, err = safeopen.OpenOwn(root, auditName)
	} else {
		f, st, err = safeopen.Open(audit, safeopen.Options{})
	}
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	defer f.Close()
	if st.Size() > DefaultMaxAuditBytes {
		return nil, fmt.Errorf("audit log %s: %d bytes is over the %d-byte limit; replay a part of it (split it by lines)", audit, st.Size(), DefaultMaxAuditBytes)
	}
	p, err := LoadPolicyFile(s.Policy, "")
	if err != nil {
		return nil, fmt.Errorf("invalid guard policy:\n%w", err)
	}
	e, err := NewEngine()
	if err != nil {
		return nil, err
	}
	rep, err := ReplayLog(e, p, &capReader{r: f, left: DefaultMaxAuditBytes}, audit, s.Env, s.Home, s.Root)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: %w", audit, err)
	}
	return rep, nil
}

// maxCaseFileBytes bounds a `vouch guard test` file: cases are written
// by hand, and a larger file is a mistake to report, not to load.
const maxCaseFileBytes = 64 << 20

// TestCases runs the cases of a `vouch guard test` file. policy is the
// --policy flag; without it, the file's own policy: key, else the
// configured policy, is used.
func TestCases(policy, file string, lookupEnv func(string) (string, bool)) (*CaseReport, error) {
	s, err := LoadSetup(policy, lookupEnv)
	if err != nil {
		return nil, err
	}
	in, err := safeopen.Read(file, safeopen.Options{MaxBytes: maxCaseFileBytes})
	if err != nil {
		return nil, fmt.Errorf("guard test file: %w", err)
	}
	cf, err := LoadCases(file, in.Data)
	if err != nil {
		return nil, fmt.Errorf("invalid guard test file:\n%w", err)
	}
	path := s.Policy
	if cf.Policy != "" && policy == "" {
		path = cf.Policy
	}
	p, err := LoadPolicyFile(path, "")
	if err != nil {
		return nil, fmt.Errorf("invalid guard policy:\n%w", err)
	}
	e, err := NewEngine()
	if err != nil {
		return nil, err
	}
	results, cov := RunCases(e, p, cf, s.Env, s.Home, s.Root)
	return NewCaseReport(file, path, results, cov), nil
}

// WriteJSON prints the decision document of `vouch guard check`.
func (d *Decision) WriteJSON(w io.Writer) error { return output.WriteJSON(w, d) }
