package guard

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionRunsWrittenScript pins the session's written set: a script
// file an earlier call of the session wrote (a pre call not denied, or a
// post event) is read when a later call runs it, and decided as its text
// would be in bash -c; a file the session did not write is not read.
func TestSessionRunsWrittenScript(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo, home := filepath.Join(base, "repo"), filepath.Join(base, "home")
	for _, d := range []string{filepath.Join(repo, ".vouch"), filepath.Join(repo, "scripts"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pol := filepath.Join(repo, ".vouch", "guard.yaml")
	policy := "apiVersion: vouch/v1\nkind: Ruleset\nbuiltins: [sensitive-reads, destructive-commands, writes-outside-repo, network-exfiltration, protect-vouch]\n"
	if err := os.WriteFile(pol, []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	const rm = "rm -rf ~\n"
	type call struct {
		phase, tool, args string
	}
	write := func(name, content string) call {
		b, _ := json.Marshal(map[string]string{"file_path": filepath.Join(repo, name), "content": content})
		return call{"pre", "Write", string(b)}
	}
	bash := func(cmd string) call {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return call{"pre", "Bash", string(b)}
	}
	tests := []struct {
		name   string
		files  map[string]string // on disk, below repo, before the calls
		writes string            // the session's .writes file, when set
		before []call
		run    string
		want   string
	}{
		{name: "Write then bash", files: map[string]string{"s.sh": rm}, before: []call{write("s.sh", rm)}, run: "bash s.sh", want: Deny},
		{name: "Write then ./", files: map[string]string{"s.sh": "#!/bin/sh\n" + rm}, before: []call{write("s.sh", rm)}, run: "./s.sh", want: Deny},
		{name: "Write then source", files: map[string]string{"s.sh": rm}, before: []call{write("s.sh", rm)}, run: "source s.sh", want: Deny},
		{name: "post event only", files: map[string]string{"s.sh": rm}, before: []call{{"post", "Write", `{"file_path":"s.sh"}`}}, run: "sh s.sh", want: Deny},
		{name: "Bash redirection then bash", files: map[string]string{"s.sh": rm}, before: []call{bash(`printf 'rm -rf ~\n' > s.sh`)}, run: "bash -x s.sh arg", want: Deny},
		{name: "cp then bash", files: map[string]string{"s.sh": rm}, before: []call{bash(`cp x s.sh`)}, run: "bash s.sh", want: Deny},
		{name: "harmless script", files: map[string]string{"s.sh": "go test ./...\n"}, before: []call{write("s.sh", "go test ./...\n")}, run: "bash s.sh", want: Allow},
		{name: "too large", files: map[string]string{"s.sh": strings.Repeat("#", maxScriptBytes+1)}, before: []call{write("s.sh", "x")}, run: "bash s.sh", want: Ask},
		// Not read: the project's own script, a file another session
		// wrote, a write that was denied.
		{name: "project script", files: map[string]string{"scripts/test.sh": rm}, run: "./scripts/test.sh", want: Allow},
		{name: "another file written", files: map[string]string{"scripts/test.sh": rm}, before: []call{write("s.sh", "x")}, run: "bash scripts/test.sh", want: Allow},
		{name: "denied write", files: map[string]string{"s.sh": rm}, before: []call{bash(`rm -rf ~; echo x > s.sh`)}, run: "bash s.sh", want: Allow},
		// Past the bound every script run is read.
		{name: "set past its bound", files: map[string]string{"scripts/test.sh": rm}, writes: `{"all":true}` + "\n", run: "bash scripts/test.sh", want: Deny},
		{name: "set torn", files: map[string]string{"scripts/test.sh": rm}, writes: `"/x`, run: "bash scripts/test.sh", want: Deny},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, text := range tt.files {
				if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o755); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Remove(filepath.Join(repo, name)) })
			}
			session := "s" + string(rune('a'+i))
			if tt.writes != "" {
				st := &Store{Root: repo, Dir: filepath.Join(".vouch", "guard", "sessions")}
				root, name := st.sessionFile(session)
				p := filepath.Join(root, strings.TrimSuffix(name, ".log")+".writes")
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(tt.writes), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := HookOptions{Harness: JSON, Policy: pol, Root: repo, Home: home, Env: Env{}}
			decide := func(c call) string {
				ev := `{"phase":"` + c.phase + `","session_id":"` + session + `","call_id":"1","cwd":"` + repo + `","tool":"` + c.tool + `","args":` + c.args + `}`
				out := RunHook(context.Background(), e, strings.NewReader(ev), o)
				if out.Err != nil {
					t.Fatalf("%s: %v", c.args, out.Err)
				}
				return out.Decision.Decision
			}
			for _, c := range tt.before {
				decide(c)
			}
			if got := decide(bash(tt.run)); got != tt.want {
				t.Errorf("%s: %s, want %s", tt.run, got, tt.want)
			}
		})
	}
}
