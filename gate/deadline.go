package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// DefaultTimeout stays well under the 120 s timeout that the Stop hook
// scaffolded by 'vouch init' gives Claude Code: a hook that times out
// lets the agent stop, so the gate must answer (and fail closed) before
// the harness gives up.
const DefaultTimeout = 60 * time.Second

// watchdogGrace is how long past the deadline the watchdog waits, by
// default, for the work to notice its context before answering itself.
const watchdogGrace = 2 * time.Second

// Deadline fails a gate closed when it has not answered in time. Its
// context ends the work that checks it; its watchdog covers code that
// cannot be interrupted (a hung read, a long evaluation) and answers and
// ends the process itself.
type Deadline struct {
	mu    sync.Mutex
	done  bool
	timer *time.Timer
}

// DeadlineOptions say how the watchdog answers when the deadline passes.
type DeadlineOptions struct {
	// ClaudeHook answers as Claude Code's Stop hook wants: a block
	// decision on Stdout, then Exit(0). Otherwise a message goes to
	// Stderr, then Exit(2).
	ClaudeHook     bool
	Stdout, Stderr io.Writer
	// Exit ends the process; nil is os.Exit.
	Exit func(code int)
	// Grace is how long past the deadline the watchdog waits; zero is
	// two seconds.
	Grace time.Duration
}

// ArmDeadline returns a context that ends after d and starts the
// watchdog, which at d plus a short grace prints the fail-closed answer
// and exits. d <= 0 disables both.
func ArmDeadline(parent context.Context, d time.Duration, o DeadlineOptions) (context.Context, *Deadline, context.CancelFunc) {
	dl := &Deadline{}
	if d <= 0 {
		ctx, cancel := context.WithCancel(parent)
		return ctx, dl, cancel
	}
	if o.Exit == nil {
		o.Exit = os.Exit
	}
	if o.Grace <= 0 {
		o.Grace = watchdogGrace
	}
	ctx, cancel := context.WithTimeout(parent, d)
	dl.timer = time.AfterFunc(d+o.Grace, func() {
		dl.mu.Lock()
		if dl.done {
			dl.mu.Unlock()
			return
		}
		// Keep the lock until the process is gone: the command must not
		// print a second answer meanwhile. (Exit returns only in tests.)
		defer dl.mu.Unlock()
		dl.done = true
		reason := fmt.Sprintf("vouch gate did not finish within %s (--timeout); failing closed: nothing was verified", d)
		if o.ClaudeHook {
			b, _ := json.Marshal(map[string]string{"decision": "block", "reason": reason})
			fmt.Fprintf(o.Stdout, "%s\n", b)
			o.Exit(0)
			return
		}
		fmt.Fprintln(o.Stderr, "vouch: "+reason)
		o.Exit(2)
	})
	return ctx, dl, cancel
}

// Answer claims the right to print the gate's answer; after it the
// watchdog stays silent. It reports false when the watchdog already
// answered (the process is then exiting).
func (dl *Deadline) Answer() bool {
	dl.mu.Lock()
	defer dl.mu.Unlock()
	if dl.done {
		return false
	}
	dl.done = true
	if dl.timer != nil {
		dl.timer.Stop()
	}
	return true
}

// StopEvent is what the gate reads of a Claude Code Stop hook event.
type StopEvent struct {
	// Active is stop_hook_active: Claude Code is already continuing
	// because of this hook's last block, and its protocol asks hooks not
	// to block again, or the agent loops.
	Active bool `json:"stop_hook_active"`
	// SessionID is the session that is stopping, written by the harness
	// rather than the agent: the session claims from: audit read.
	SessionID string `json:"session_id"`
}

// ReadStopEvent reads a Claude Code Stop hook event from r. Anything else
// (a terminal, no input, not JSON) is the zero event: the gate blocks as
// usual and reads every session of the audit log.
func ReadStopEvent(r io.Reader) StopEvent {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice != 0 {
			return StopEvent{}
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return StopEvent{}
	}
	// Each field is read on its own, so an odd session_id never turns
	// stop_hook_active off (the agent would loop).
	var active struct {
		Active bool `json:"stop_hook_active"`
	}
	var session struct {
		SessionID string `json:"session_id"`
	}
	var ev StopEvent
	if json.Unmarshal(data, &active) == nil {
		ev.Active = active.Active
	}
	if json.Unmarshal(data, &session) == nil {
		ev.SessionID = session.SessionID
	}
	return ev
}

// StopHookActive reads a Claude Code Stop hook event from r and reports
// its stop_hook_active field (ReadStopEvent).
func StopHookActive(r io.Reader) bool { return ReadStopEvent(r).Active }

// RepeatBlock is the Stop hook's answer when Claude Code is already
// continuing because of this hook's last block (stopActive): blocking
// again would loop the agent forever, so when the work still does not
// pass the hook lets it stop (block is false) and says why on stderr
// (msg). The run kept no receipt, so 'vouch receipt verify' in CI still
// fails. Otherwise the hook answers as usual (block is true).
func RepeatBlock(g *Result, stopActive bool) (msg string, block bool) {
	if !stopActive || g.Verdict == "pass" {
		return "", true
	}
	return "vouch gate: not blocking again (stop_hook_active); the work still does not pass and has no receipt: " + Reason(g), false
}
