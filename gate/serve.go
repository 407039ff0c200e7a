package gate

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vouch-dev/vouch/output"
)

// ServeOptions are where one `vouch gate` invocation answers: a terminal
// or CI log, or a harness hook that reads the answer in its protocol.
type ServeOptions struct {
	// Sink receives the report; its claude-hook format answers Claude
	// Code's Stop hook protocol.
	Sink *output.Sink
	// Stdin carries the Stop hook's event; it is read only under
	// claude-hook.
	Stdin io.Reader
	// Stdout and Stderr are where the watchdog answers when the deadline
	// passes, and Stderr the progress counter and a released Stop hook.
	Stdout, Stderr io.Writer
	// Timeout is --timeout: past it the gate fails closed (ArmDeadline).
	Timeout time.Duration
	// Progress is the --progress mode of the architecture scan's file
	// counter.
	Progress string
}

// Answer is how a served gate ended, for the caller's exit code.
type Answer struct {
	// Result is what the gate decided; it has been rendered unless
	// Released.
	Result *Result
	// Err is the error that stopped the run (bad input, an evaluation
	// error); the rendered report already carries it.
	Err error
	// Released is set when the Stop hook let the agent stop rather than
	// block again (RepeatBlock); Stderr said why, and nothing was
	// rendered.
	Released bool
}

// Serve runs the gate as a harness or CI calls it: under a deadline that
// fails closed, with the Stop hook's loop guard, rendering the result in
// the Sink's formats. The error is non-nil only when there is no answer
// to give: a bad --progress, or a report that could not be written. When
// the watchdog has already answered, Serve never returns: the watchdog
// is ending the process, and a second answer must not be printed.
func Serve(ctx context.Context, o Options, so ServeOptions) (Answer, error) {
	claudeHook := so.Sink.Format == "claude-hook"
	meter, err := output.NewProgress(so.Progress, so.Stderr, "vouch gate: scanning")
	if err != nil {
		return Answer{}, err
	}
	if meter != nil {
		o.Progress = meter.Update
	}
	stopActive := false
	if claudeHook {
		// The harness, not the agent, writes the Stop event: its
		// session_id is the session whose audit records from: audit
		// claims read, unless --session named one.
		ev := ReadStopEvent(so.Stdin)
		stopActive = ev.Active
		o.AuditSession = pick(o.AuditSession, ev.SessionID)
	}
	ctx, dl, cancel := ArmDeadline(ctx, so.Timeout, DeadlineOptions{ClaudeHook: claudeHook, Stdout: so.Stdout, Stderr: so.Stderr})
	defer cancel()
	g, runErr := Run(ctx, o)
	meter.Done()
	if !dl.Answer() {
		select {} // the watchdog has answered and is exiting the process
	}
	if msg, block := RepeatBlock(g, stopActive); !block {
		fmt.Fprintln(so.Stderr, msg)
		return Answer{Result: g, Err: runErr, Released: true}, nil
	}
	if err := so.Sink.Render(func(w io.Writer, format string, p output.Painter) error {
		return Render(w, format, g, RenderOptions{Color: p.On})
	}); err != nil {
		return Answer{}, err
	}
	return Answer{Result: g, Err: runErr}, nil
}
