// Package hookclient is vouch-hook: the small client an agent harness runs
// on every tool call in fast mode. It hands the call to the warm
// `vouch-guard --serve` of its own user and its own vouch-guard binary, and
// when that cannot answer for any reason it runs vouch-guard itself, so
// the answer is always the one vouch-guard gives (docs/guard.md, "Fast
// mode"). It links only the standard library: its start-up is what a hook
// call costs on top of the server's decision.
package hookclient

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vouch-dev/vouch/internal/hookwire"
)

const (
	// defaultTimeout is vouch-guard's own --timeout default
	// (guard.DefaultReadTimeout).
	defaultTimeout = 5 * time.Second
	// maxReplyWait bounds the wait for the server: a wedged server costs
	// at most this before the direct run.
	maxReplyWait = 2 * time.Second
	// childWaitDelay bounds how long the direct run waits, once
	// vouch-guard has exited, for its stdout and stderr copies (when they
	// are not files) to finish: a grandchild holding them open must not
	// hold vouch-hook.
	childWaitDelay = 200 * time.Millisecond
)

// Client is one vouch-hook invocation.
type Client struct {
	// Guard is the vouch-guard binary: the server must run it and the
	// fallback runs it.
	Guard string
	// ID, when set, is Guard's identity, found when Guard was looked up:
	// otherwise it is stat'd again for each call.
	ID *hookwire.Identity
	// Dir is the working directory, Env the environment (KEY=VALUE),
	// both sent to the server and given to the direct run.
	Dir string
	Env []string
	// Stdin, Stdout and Stderr are the invocation's own.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Start starts a server in the background when none answered, so
	// later calls are fast.
	Start bool
	// UID is the user the server must run as (os.Getuid()).
	UID int
	// Wait, when set, replaces both waits for the server: for it to
	// accept the connection (hookwire.HolderWait) and to answer (2 s, or
	// --timeout if shorter). Tests that need the server's answer on a
	// loaded machine set it long; vouch-hook leaves it 0.
	Wait time.Duration
}

// Main is vouch-hook's entry point: args are its arguments without the
// program name, which it passes to vouch-guard. It returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "--serve" || args[0] == "-serve") {
		fmt.Fprintf(stderr, "vouch-hook: --serve is vouch-guard's flag; run 'vouch-guard --serve'\n")
		return 2
	}
	guardBin, id, err := findGuard()
	if err != nil {
		// Exit 2 with the reason on stderr blocks the call in Claude
		// Code: a broken install fails closed.
		fmt.Fprintf(stderr, "vouch-hook: %v\n", err)
		return 2
	}
	dir, _ := os.Getwd()
	c := &Client{Guard: guardBin, ID: id, Dir: dir, Env: os.Environ(), Stdin: stdin, Stdout: stdout, Stderr: stderr, Start: true, UID: os.Getuid()}
	return c.Run(args)
}

// findGuard is the vouch-guard installed beside the running vouch-hook,
// and its identity when the platform gives one (the stat that finds it
// is the one the call's server is named by).
func findGuard() (string, *hookwire.Identity, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("cannot find its own binary to find %s beside it: %w", hookwire.GuardBinary, err)
	}
	p := filepath.Join(filepath.Dir(exe), hookwire.GuardBinary)
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
		return "", nil, fmt.Errorf("%s is not installed beside vouch-hook (looked for %s); install both from the same vouch release (docs/install.md)", hookwire.GuardBinary, p)
	}
	if id, err := hookwire.IdentityOfInfo(p, st); err == nil {
		return p, &id, nil
	}
	return p, nil, nil
}

// Run answers one call with args: through the server when it answers in
// time, else by running vouch-guard.
func (c *Client) Run(args []string) int {
	if infoOnly(args) {
		// --help and --version decide no call: no stdin to read, no
		// server to ask or start.
		return c.direct(args, strings.NewReader(""))
	}
	timeout := timeoutFlag(args)
	in := readInput(c.Stdin, hookwire.MaxStdin, timeout)
	if in.complete {
		wait := min(timeout, maxReplyWait)
		if c.Wait > 0 {
			wait = c.Wait
		}
		rep, absent, err := c.ask(args, in.data, wait)
		if err == nil {
			// A failed write has no one to tell: the harness reads what
			// arrived, as it would from vouch-guard.
			// An empty one is not written: a write of nothing has no
			// effect but a system call.
			if len(rep.Stdout) > 0 {
				_, _ = c.Stdout.Write(rep.Stdout)
			}
			if len(rep.Stderr) > 0 {
				_, _ = c.Stderr.Write(rep.Stderr)
			}
			return rep.Exit
		}
		if absent && c.Start {
			c.startServer()
		}
	}
	return c.direct(args, in.reader())
}

// ask sends the call to the server. absent reports that no server was
// listening (so one may be started); any error means the caller runs
// vouch-guard itself.
func (c *Client) ask(args []string, stdin []byte, wait time.Duration) (rep *hookwire.Reply, absent bool, err error) {
	if c.Dir == "" {
		return nil, false, errors.New("no working directory")
	}
	var id hookwire.Identity
	if c.ID != nil {
		id = *c.ID
	} else if id, err = hookwire.IdentityOf(c.Guard); err != nil {
		return nil, false, err
	}
	getenv := envLookup(c.Env)
	dir, err := hookwire.SocketDir(getenv, c.UID, false)
	if err != nil {
		// A missing directory is a server never started; one that is
		// someone else's is refused, and starting a server would not
		// help: it refuses the directory too.
		return nil, errors.Is(err, os.ErrNotExist), err
	}
	deadline := time.Now().Add(wait)
	uc, err := hookwire.Dial(hookwire.SocketPath(dir, id))
	if err != nil {
		return nil, true, err
	}
	defer uc.Close()
	if err := hookwire.CheckServer(uc, c.UID, id, c.Wait); err != nil {
		return nil, false, err
	}
	if err := uc.SetDeadline(deadline); err != nil {
		return nil, false, err
	}
	req := &hookwire.Request{Dir: c.Dir, Args: args, Env: c.Env, Stdin: stdin}
	if err := hookwire.WriteRequest(uc, req); err != nil {
		return nil, false, err
	}
	rep, err = hookwire.ReadReply(uc)
	if err != nil {
		return nil, false, err
	}
	return rep, false, nil
}

// direct runs vouch-guard with args and stdin, the invocation's own
// stdout and stderr, and returns its exit code.
func (c *Client) direct(args []string, stdin io.Reader) int {
	cmd := exec.Command(c.Guard, args...)
	cmd.Dir, cmd.Env = c.Dir, c.Env
	cmd.Stdout, cmd.Stderr = c.Stdout, c.Stderr
	cmd.WaitDelay = childWaitDelay
	// vouch-guard reads its stdin from a pipe of ours, fed by a goroutine
	// nobody waits for: exec's own copy would be waited for, and a stdin
	// that never closes would then hold vouch-hook past vouch-guard's
	// deadline.
	pr, pw, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(c.Stderr, "vouch-hook: running %s: %v\n", c.Guard, err)
		return 2
	}
	cmd.Stdin = pr
	go func() {
		_, _ = io.Copy(pw, stdin)
		pw.Close()
	}()
	err = cmd.Run()
	pr.Close()
	if cmd.ProcessState != nil && cmd.ProcessState.Exited() {
		return cmd.ProcessState.ExitCode()
	}
	// Not started, or killed by a signal: no answer from vouch-guard,
	// so block the call with the reason.
	fmt.Fprintf(c.Stderr, "vouch-hook: running %s: %v\n", c.Guard, err)
	return 2
}

// timeoutFlag is the --timeout vouch-guard will use, read as vouch-guard
// reads it; anything it would refuse counts as the default (vouch-guard
// reports the flag error itself).
func timeoutFlag(args []string) time.Duration {
	for i, a := range args {
		name, value, inline := strings.Cut(a, "=")
		if name != "--timeout" && name != "-timeout" {
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				break
			}
			value = args[i+1]
		}
		if d, err := time.ParseDuration(value); err == nil && d > 0 {
			return d
		}
		break
	}
	return defaultTimeout
}

// serverEnv is the environment of a server started from a client whose
// environment is env. It holds only what the server reads for itself:
// where it listens (XDG_RUNTIME_DIR, TMPDIR, read by hookwire.SocketDir
// as the client reads them, so it listens where the client looks) and
// how long it lives (VOUCH_GUARD_IDLE). Every decision takes its
// environment from the request; whatever else the first client's
// environment holds stays out of the server's, so nothing of it can reach
// a later client's decision. The result is never nil: exec gives a nil
// environment the parent's whole.
func serverEnv(env []string) []string {
	get := envLookup(env)
	out := []string{}
	for _, k := range [...]string{"TMPDIR", "VOUCH_GUARD_IDLE", "XDG_RUNTIME_DIR"} {
		if v := get(k); v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// envLookup is os.Getenv over env (the last entry of a name wins, as
// in hookwire.EnvLookup, which the server uses). It scans env on each
// call rather than building hookwire.EnvLookup's map: the client looks up
// two or three names, and a map of the whole environment is a hook
// process's fresh pages.
func envLookup(env []string) func(string) string {
	return func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			name, v, _ := strings.Cut(env[i], "=")
			if name == k {
				return v
			}
		}
		return ""
	}
}

// input is stdin as far as it was read before the deadline.
type input struct {
	data []byte
	// complete: data is all of stdin (it ended, within the bound).
	complete bool
	// more reads what follows data when not complete.
	more io.Reader
}

type chunk struct {
	data []byte
	err  error
}

// readInput reads r until it ends, passes max bytes or the deadline
// passes, as vouch-guard would read it. Reading continues in the
// background when it stopped early, for the direct run. A file (the
// hook's own stdin) is read without a goroutine (readFileInput).
func readInput(r io.Reader, max int, timeout time.Duration) input {
	if f, ok := r.(*os.File); ok {
		if in, ok := readFileInput(f, max, timeout); ok {
			return in
		}
	}
	ch := make(chan chunk, 4)
	go func() {
		defer close(ch)
		for {
			buf := make([]byte, 64<<10)
			n, err := r.Read(buf)
			if n > 0 {
				ch <- chunk{data: buf[:n]}
			}
			if err != nil {
				if err != io.EOF {
					ch <- chunk{err: err}
				}
				return
			}
		}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var in input
	for {
		select {
		case ck, ok := <-ch:
			switch {
			case !ok:
				in.complete = true
				return in
			case ck.err != nil:
				// Let vouch-guard meet the same error.
				in.more = &chanReader{ch: prepend(ck, ch)}
				return in
			}
			in.data = append(in.data, ck.data...)
			if len(in.data) > max {
				in.more = &chanReader{ch: ch}
				return in
			}
		case <-timer.C:
			in.more = &chanReader{ch: ch}
			return in
		}
	}
}

// prepend is ch with ck first.
func prepend(ck chunk, ch <-chan chunk) <-chan chunk {
	out := make(chan chunk, 1)
	go func() {
		defer close(out)
		out <- ck
		for c := range ch {
			out <- c
		}
	}()
	return out
}

// reader is the whole of stdin again: what was read, then the rest.
func (in input) reader() io.Reader {
	if in.complete || in.more == nil {
		return bytes.NewReader(in.data)
	}
	return io.MultiReader(bytes.NewReader(in.data), in.more)
}

// chanReader reads the chunks of a background read.
type chanReader struct {
	ch  <-chan chunk
	buf []byte
}

func (r *chanReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		ck, ok := <-r.ch
		if !ok {
			return 0, io.EOF
		}
		if ck.err != nil {
			return 0, ck.err
		}
		r.buf = ck.data
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// infoOnly reports whether args only ask vouch-guard for its usage or
// version (the words guard.Invocation.Main answers without a call).
func infoOnly(args []string) bool {
	if len(args) != 1 {
		return false
	}
	switch args[0] {
	case "-h", "-help", "--help", "help", "-version", "--version", "version":
		return true
	}
	return false
}
