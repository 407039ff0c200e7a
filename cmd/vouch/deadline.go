package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// defaultGateTimeout stays well under the 120 s timeout that the Stop hook
// scaffolded by 'vouch init' gives Claude Code: a hook that times out lets the
// agent stop, so vouch must answer (and fail closed) before the harness gives up.
const defaultGateTimeout = 60 * time.Second

// deadline fails a command closed when it has not answered in time. The
// context ends the work that checks it; the watchdog covers code that cannot
// be interrupted (a hung read, a long evaluation) and exits the process itself.
type deadline struct {
	mu    sync.Mutex
	done  bool
	timer *time.Timer
}

// armDeadline returns a context that ends after d and starts the watchdog,
// which at d plus a short grace prints the fail-closed answer and exits: for
// the Claude Code Stop hook a block decision (exit 0, as its protocol wants),
// otherwise a message on stderr and exit 2. d <= 0 disables both.
func armDeadline(parent context.Context, d time.Duration, claudeHook bool, stdout, stderr io.Writer) (context.Context, *deadline, context.CancelFunc) {
	dl := &deadline{}
	if d <= 0 {
		ctx, cancel := context.WithCancel(parent)
		return ctx, dl, cancel
	}
	ctx, cancel := context.WithTimeout(parent, d)
	const grace = 2 * time.Second
	dl.timer = time.AfterFunc(d+grace, func() {
		dl.mu.Lock()
		if dl.done {
			dl.mu.Unlock()
			return
		}
		// Hold the lock until exit so the command cannot print a second answer.
		reason := fmt.Sprintf("vouch gate did not finish within %s (--timeout); failing closed: nothing was verified", d)
		if claudeHook {
			b, _ := json.Marshal(map[string]string{"decision": "block", "reason": reason})
			fmt.Fprintf(stdout, "%s\n", b)
			os.Exit(exitPass)
		}
		fmt.Fprintln(stderr, "vouch: "+reason)
		os.Exit(exitError)
	})
	return ctx, dl, cancel
}

// answer claims the right to print the command's answer; after it the
// watchdog stays silent. It reports false when the watchdog already answered
// (then the process is exiting).
func (dl *deadline) answer() bool {
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
