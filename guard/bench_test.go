package guard

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkNewEngine measures a hook process's fixed start-up cost:
// analysing the two fixed programs (they are never parsed at run time).
func BenchmarkNewEngine(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := NewEngine(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecide measures one PreToolUse decision with the 12-rule
// policy of testdata/bench12.yaml (10 preconditions with regexes, a path
// sandbox, a session limit), facts derivation included.
func BenchmarkDecide(b *testing.B) {
	e, err := NewEngine()
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile("testdata/bench12.yaml")
	if err != nil {
		b.Fatal(err)
	}
	p, err := LoadPolicy("bench12.yaml", data)
	if err != nil {
		b.Fatal(err)
	}
	calls := []Call{
		{Phase: Pre, Tool: "Bash", Cwd: "/work/repo", Args: map[string]any{"command": "git status && go test ./..."}},
		{Phase: Pre, Tool: "Bash", Cwd: "/work/repo", Args: map[string]any{"command": "cd x && rm -rf /"}},
		{Phase: Pre, Tool: "Write", Cwd: "/work/repo", Args: map[string]any{"file_path": "/work/repo/main.go", "content": "package main\n"}},
	}
	b.ReportAllocs()
	b.ResetTimer()
	stop := reportCPU(b)
	for i := 0; i < b.N; i++ {
		c := calls[i%len(calls)]
		if _, _, err := e.Decide(p, &c, Counters{Attempts: 3, Execs: 2}, Env{}, Derive(&c, "", "")); err != nil {
			b.Fatal(err)
		}
	}
	stop()
}

// BenchmarkLoadPolicy measures compiling the 12-rule policy from YAML
// (what the content-hash cache saves).
func BenchmarkLoadPolicy(b *testing.B) {
	data, err := os.ReadFile("testdata/bench12.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := LoadPolicy("bench12.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHook measures what one `vouch guard` hook process does after
// start-up (package initialisation excluded): resolve the setup, prepare
// the engine, read the event, load the policy through the cache, open the
// session, decide, append to the session and audit logs, render the
// answer. testdata/bench/guard-process.sh measures the whole process.
func BenchmarkHook(b *testing.B) {
	data, err := os.ReadFile("testdata/bench12.yaml")
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "vouch.yaml"), []byte("strict: false\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".vouch"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, DefaultPolicy), data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Chdir(root)
	// A session of bench12.yaml is capped at 1,000 attempts; each gets
	// at most 500 so that a long run measures decisions, not the cap.
	event := func(i int) []byte {
		return []byte(fmt.Sprintf(`{"session_id":"bench-%d","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status && go test ./..."},"tool_use_id":"t1"}`, i/500, root))
	}
	b.ReportAllocs()
	b.ResetTimer()
	stop := reportCPU(b)
	for i := 0; i < b.N; i++ {
		s, err := LoadSetup("", func(string) (string, bool) { return "", false })
		if err != nil {
			b.Fatal(err)
		}
		e, err := NewEngine()
		if err != nil {
			b.Fatal(err)
		}
		out := RunHook(context.Background(), e, bytes.NewReader(event(i)), HookOptions{
			Harness: ClaudeCode, Policy: s.Policy, Root: s.Root, Env: s.Env, Home: s.Home,
		})
		if out.Err != nil || out.Decision.Decision != Allow {
			b.Fatalf("decision %+v, error %v", out.Decision, out.Err)
		}
		Render(ClaudeCode, out.Phase, out.Event, out.Decision)
	}
	stop()
}

// BenchmarkSessionOpen measures opening a session at several lengths: a
// hook reads the log from its last checkpoint, so the cost must not grow
// with the session.
func BenchmarkSessionOpen(b *testing.B) {
	for _, calls := range []int{500, 5000} {
		b.Run(fmt.Sprintf("calls=%d", calls), func(b *testing.B) {
			s := &Store{Dir: b.TempDir()}
			for i := 0; i < calls/2; i++ {
				sess, err := s.Open("bench")
				if err != nil {
					b.Fatal(err)
				}
				if err := sess.Append(sessionRecord{Kind: "attempt", Tool: "Bash", Decision: Allow}); err != nil {
					b.Fatal(err)
				}
				if err := sess.Append(sessionRecord{Kind: "exec", Tool: "Bash", OK: i%7 != 0}); err != nil {
					b.Fatal(err)
				}
				sess.Close()
			}
			b.ReportAllocs()
			b.ResetTimer()
			stop := reportCPU(b)
			for i := 0; i < b.N; i++ {
				sess, err := s.Open("bench")
				if err != nil {
					b.Fatal(err)
				}
				if c := sess.Counters("Bash"); c.Attempts != calls/2 || c.Execs != calls/2 {
					b.Fatalf("counters %+v", c)
				}
				sess.Close()
			}
			stop()
		})
	}
}
