package gate

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// The watchdog answers in the caller's protocol once the deadline and its
// grace pass, and stays silent once the gate has answered.
func TestArmDeadline(t *testing.T) {
	tests := []struct {
		name         string
		claude       bool
		answer       bool
		exit         int
		stdout, errs string
	}{
		{name: "claude hook blocks", claude: true, exit: 0, stdout: `"decision":"block"`},
		{name: "plain fails with exit 2", exit: 2, errs: "failing closed"},
		{name: "silent after the answer", answer: true, exit: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			exited := make(chan int, 1)
			ctx, dl, cancel := ArmDeadline(context.Background(), time.Millisecond, DeadlineOptions{
				ClaudeHook: tt.claude, Stdout: &stdout, Stderr: &stderr, Exit: func(c int) { exited <- c }, Grace: time.Millisecond,
			})
			defer cancel()
			if tt.answer && !dl.Answer() {
				t.Fatal("Answer = false before the watchdog fired")
			}
			<-ctx.Done()
			// An answered gate is given a short while to prove the
			// watchdog silent; an unanswered one as long as a loaded
			// machine may need to fire a timer.
			wait := 10 * time.Second
			if tt.answer {
				wait = 300 * time.Millisecond
			}
			got := -1
			select {
			case got = <-exited:
			case <-time.After(wait):
			}
			if got != tt.exit {
				t.Fatalf("exit %d, want %d", got, tt.exit)
			}
			if !strings.Contains(stdout.String(), tt.stdout) || !strings.Contains(stderr.String(), tt.errs) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", stdout.String(), stderr.String(), tt.stdout, tt.errs)
			}
			if got >= 0 && dl.Answer() {
				t.Error("Answer = true after the watchdog answered")
			}
		})
	}
}

func TestStopHookActive(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{`{"hook_event_name":"Stop","stop_hook_active":true}`, true},
		{`{"hook_event_name":"Stop","stop_hook_active":false}`, false},
		{`{"stop_hook_active":"true"}`, false},
		{`not json`, false},
		{``, false},
	}
	for _, tt := range tests {
		if got := StopHookActive(strings.NewReader(tt.in)); got != tt.want {
			t.Errorf("StopHookActive(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestReadStopEvent: the Stop event names the session the gate's from:
// audit claims read, and an odd session_id never hides stop_hook_active.
func TestReadStopEvent(t *testing.T) {
	tests := []struct {
		in   string
		want StopEvent
	}{
		{`{"hook_event_name":"Stop","session_id":"s9","stop_hook_active":true}`, StopEvent{Active: true, SessionID: "s9"}},
		{`{"hook_event_name":"Stop","session_id":"s9"}`, StopEvent{SessionID: "s9"}},
		{`{"session_id":9,"stop_hook_active":true}`, StopEvent{Active: true}},
		{`not json`, StopEvent{}},
		{``, StopEvent{}},
	}
	for _, tt := range tests {
		if got := ReadStopEvent(strings.NewReader(tt.in)); got != tt.want {
			t.Errorf("ReadStopEvent(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestRepeatBlock(t *testing.T) {
	fail := &Result{Verdict: "fail", Err: errors.New("the rulespec does not load")}
	tests := []struct {
		name       string
		g          *Result
		stopActive bool
		wantBlock  bool
		wantMsg    string
	}{
		{"first stop, failing: block", fail, false, true, ""},
		{"first stop, passing: answer as usual", &Result{Verdict: "pass"}, false, true, ""},
		{"repeated stop, passing: answer as usual", &Result{Verdict: "pass"}, true, true, ""},
		{"repeated stop, failing: let it stop", fail, true, false, "vouch gate: not blocking again (stop_hook_active); the work still does not pass and has no receipt: the gate could not verify the work"},
		{"repeated stop, missing envelope: let it stop", &Result{Verdict: "fail", Missing: true, Envelope: ".vouch/envelope.yaml"}, true, false, "no envelope at .vouch/envelope.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, block := RepeatBlock(tt.g, tt.stopActive)
			if block != tt.wantBlock || !strings.Contains(msg, tt.wantMsg) || (tt.wantBlock && msg != "") {
				t.Errorf("RepeatBlock = %q, %v; want block %v and a message containing %q", msg, block, tt.wantBlock, tt.wantMsg)
			}
		})
	}
}
