package guard

import (
	"os"
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
