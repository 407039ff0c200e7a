//go:build linux

package hookd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/vouch-dev/vouch/guard"
	"github.com/vouch-dev/vouch/internal/hookclient"
	"github.com/vouch-dev/vouch/internal/hookd"
	"github.com/vouch-dev/vouch/internal/hookwire"
)

// asGuard makes the test binary act as vouch-guard when the client falls
// back to running it.
const asGuard = "VOUCH_HOOKD_TEST_AS_GUARD"

func TestMain(m *testing.M) {
	if os.Getenv(asGuard) != "" {
		os.Exit(hookd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv, "test"))
	}
	os.Exit(m.Run())
}

func TestBoundsMatchGuard(t *testing.T) {
	if hookwire.MaxStdin != guard.MaxEventBytes {
		t.Fatalf("hookwire.MaxStdin = %d, guard.MaxEventBytes = %d", hookwire.MaxStdin, guard.MaxEventBytes)
	}
}

const policy = `apiVersion: vouch/v1
kind: Ruleset
rules:
  - id: no-rm-rf
    type: pre
    tools: [Bash, Shell, run_shell_command, bash]
    when:
      args.command: {matches: '\brm\s+-rf\b'}
    then: {action: deny, message: "Recursive delete refused."}
  - id: ask-deploy
    type: pre
    tool: "*"
    when:
      args.command: {starts_with: "kubectl apply"}
    then: {action: ask, message: "Deploys need approval."}
  - id: no-env
    type: pre
    tool: "*"
    when:
      args.file_path: {ends_with: ".env"}
    then: {action: block, message: "No .env reads."}
  - id: prod-freeze
    type: pre
    tool: Bash
    when:
      all:
        - env.DEPLOY_ENV: {equals: prod}
        - args.command: {starts_with: "make"}
    then: {action: deny, message: "Frozen in {env.DEPLOY_ENV}."}
  - id: interns-no-push
    type: pre
    tool: Bash
    when:
      all:
        - principal.role: {equals: intern}
        - args.command: {starts_with: "git push"}
    then: {action: deny, message: "Interns do not push."}
`

// other is a second policy, named by a relative --policy from a
// subdirectory: it denies everything.
const other = `apiVersion: vouch/v1
kind: Ruleset
rules:
  - id: nothing
    type: pre
    tool: "*"
    when:
      args.file_path: {ends_with: ".go"}
    then: {action: deny, message: "Subdirectory policy says no."}
`

type fixture struct {
	repo, sub string
	exe       string
	env       []string
	requests  *atomic.Int64
}

// setup makes a repository and runs a server for the test binary, whose
// requests it counts.
func setup(t testing.TB) *fixture {
	t.Helper()
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	sub := filepath.Join(repo, "sub")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, ".vouch"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(repo, ".vouch", "guard.yaml"), policy)
	write(t, filepath.Join(sub, "p.yaml"), other)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(base, "tmp")
	os.Mkdir(tmp, 0o755)
	f := &fixture{repo: repo, sub: sub, exe: exe, requests: &atomic.Int64{},
		env: []string{"TMPDIR=" + tmp, "HOME=" + base, "PATH=" + os.Getenv("PATH"), asGuard + "=1"}}
	f.serve(t, exe)
	return f
}

// serve runs a server named for the binary at bin (its socket is where a
// client whose vouch-guard is bin looks), until the test ends.
func (f *fixture) serve(t testing.TB, bin string) {
	t.Helper()
	id, err := hookwire.IdentityOf(bin)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := hookwire.SocketDir(envGet(f.env), os.Getuid(), true)
	if err != nil {
		t.Fatal(err)
	}
	e, err := guard.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	h := hookd.GuardHandler(e, "test")
	s := &hookd.Server{Dir: dir, Identity: id, Idle: time.Minute, UID: os.Getuid(), Handle: func(r *hookwire.Request) *hookwire.Reply {
		f.requests.Add(1)
		return h(r)
	}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
	})
	waitAccepting(t, hookwire.SocketPath(dir, id))
}

// waitAccepting waits for a connection to sock to succeed, not for the
// socket file: the file exists from bind(), and a client connecting
// before listen() is refused and runs vouch-guard itself, so a loaded
// machine (CI runs test binaries side by side) made the first call of a
// test miss the server.
func waitAccepting(t testing.TB, sock string) {
	t.Helper()
	for i := 0; ; i++ {
		if c, err := hookwire.Dial(sock); err == nil {
			c.Close()
			return
		}
		if i == 2000 {
			t.Fatal("server did not listen")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func write(t testing.TB, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func envGet(env []string) func(string) string { return hookwire.Getenv(hookwire.EnvLookup(env)) }

func envLookup(env []string) func(string) (string, bool) { return hookwire.EnvLookup(env) }

type result struct {
	stdout, stderr string
	exit           int
}

// client runs vouch-hook's client in dir against the test binary.
func (f *fixture) client(dir string, env []string, args []string, stdin string) result {
	var out, errb bytes.Buffer
	// A loaded machine (go test ./... runs packages side by side) can
	// keep the server from being scheduled past the client's default
	// waits, and the call would go to the direct run: these tests are
	// about the server's answer, so they wait for it.
	c := &hookclient.Client{Guard: f.exe, Dir: dir, Env: env, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, UID: os.Getuid(), Wait: time.Minute}
	code := c.Run(args)
	return result{out.String(), errb.String(), code}
}

// direct runs guard.Main as a vouch-guard process in dir with env would.
func direct(t *testing.T, dir string, env []string, args []string, stdin string) result {
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code := hookd.Main(args, strings.NewReader(stdin), &out, &errb, envLookup(env), "test")
	return result{out.String(), errb.String(), code}
}

// TestRoundTripMatchesDirect: through the server, every harness's allow,
// deny and ask answers are the bytes and exit code of a direct run, with
// relative paths taken in the client's directory and the principal and
// env.* selectors read from the client's environment.
func TestRoundTripMatchesDirect(t *testing.T) {
	f := setup(t)
	principal := append(append([]string{}, f.env...), `VOUCH_PRINCIPAL={"role":"intern"}`)
	prod := append(append([]string{}, f.env...), "DEPLOY_ENV=prod")
	tests := []struct {
		name  string
		dir   string
		env   []string
		args  []string
		event string
		// want is a substring of stdout+stderr the answer must hold,
		// so a case cannot pass by two runs failing alike.
		want string
	}{
		{"claude deny", f.repo, f.env, nil, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd b && rm -rf /"},"tool_use_id":"t1"}`, "Recursive delete refused"},
		{"claude ask", f.repo, f.env, []string{"--harness", "claude-code"}, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"kubectl apply -f x.yaml"},"tool_use_id":"t2"}`, `"permissionDecision":"ask"`},
		{"claude allow", f.repo, f.env, nil, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t3"}`, ""},
		{"claude post", f.repo, f.env, nil, `{"session_id":"s","cwd":"/repo","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a"},"tool_use_id":"t3"}`, ""},
		{"codex deny", f.repo, f.env, []string{"--harness", "codex"}, `{"session_id":"c1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x"},"tool_use_id":"call_1"}`, "Recursive delete refused"},
		{"codex ask", f.repo, f.env, []string{"--harness=codex"}, `{"session_id":"c1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"kubectl apply -f x.yaml"},"tool_use_id":"call_2"}`, "Deploys need approval"},
		{"gemini deny", f.repo, f.env, []string{"--harness", "gemini"}, `{"session_id":"g1","cwd":"/repo","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build"}}`, "Recursive delete refused"},
		{"gemini allow", f.repo, f.env, []string{"--harness", "gemini"}, `{"session_id":"g1","cwd":"/repo","hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/repo/a.go"}}`, ""},
		{"cursor deny", f.repo, f.env, []string{"--harness", "cursor"}, `{"conversation_id":"k1","generation_id":"gen1","hook_event_name":"beforeShellExecution","command":"rm -rf node_modules","cwd":"/repo","workspace_roots":["/repo"]}`, "deny"},
		{"cursor read", f.repo, f.env, []string{"--harness", "cursor"}, `{"conversation_id":"k1","generation_id":"gen2","hook_event_name":"beforeReadFile","file_path":"/repo/.env","content":"A=1","workspace_roots":["/repo"]}`, "No .env reads"},
		{"copilot deny", f.repo, f.env, []string{"--harness", "copilot"}, `{"timestamp":1763900000000,"cwd":"/repo","toolName":"bash","toolArgs":"{\"command\":\"rm -rf dist\"}"}`, "deny"},
		{"copilot allow", f.repo, f.env, []string{"--harness", "copilot"}, `{"timestamp":1763900000000,"cwd":"/repo","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`, ""},
		{"json", f.repo, f.env, []string{"--harness", "json"}, `{"phase":"pre","session_id":"p1","call_id":"1","cwd":"/repo","tool":"Read","args":{"file_path":"/repo/.env"}}`, `"decision":"deny"`},
		{"json bad event", f.repo, f.env, []string{"--harness", "json"}, `{"phase":`, "bad hook event"},
		{"relative --policy from a subdirectory", f.sub, f.env, []string{"--policy", "p.yaml"}, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/repo/a.go"},"tool_use_id":"t4"}`, "Subdirectory policy says no"},
		{"default policy from a subdirectory", f.sub, f.env, nil, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf x"},"tool_use_id":"t5"}`, "Recursive delete refused"},
		{"missing relative --policy", f.sub, f.env, []string{"-p", "missing.yaml"}, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t6"}`, "missing.yaml"},
		{"principal from the client", f.repo, principal, nil, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin main"},"tool_use_id":"t7"}`, "Interns do not push"},
		{"no principal", f.repo, f.env, nil, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin main"},"tool_use_id":"t8"}`, ""},
		{"env selector from the client", f.repo, prod, nil, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make release"},"tool_use_id":"t9"}`, "Frozen in prod"},
		{"env selector unset", f.repo, f.env, nil, `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make release"},"tool_use_id":"t10"}`, ""},
		{"flag error", f.repo, f.env, []string{"--polcy", "x"}, `{}`, "did you mean --policy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.requests.Load()
			got := f.client(tt.dir, tt.env, tt.args, tt.event)
			if f.requests.Load() != before+1 {
				t.Fatal("the server did not answer the call")
			}
			want := direct(t, tt.dir, tt.env, tt.args, tt.event)
			if got != want {
				t.Fatalf("through the server:\n%+v\ndirect:\n%+v", got, want)
			}
			if tt.want != "" && !strings.Contains(got.stdout+got.stderr, tt.want) {
				t.Fatalf("answer %+v does not hold %q", got, tt.want)
			}
			if tt.want == "" && got.exit != 0 {
				t.Fatalf("answer %+v, want an allow", got)
			}
		})
	}
	// --version decides no call: the client answers it from vouch-guard
	// without the server, with the same bytes.
	t.Run("version", func(t *testing.T) {
		before := f.requests.Load()
		got := f.client(f.repo, f.env, []string{"--version"}, "")
		if f.requests.Load() != before {
			t.Fatal("the server was asked for what decides no call")
		}
		if want := direct(t, f.repo, f.env, []string{"--version"}, ""); got != want || !strings.Contains(got.stdout, "vouch-guard") {
			t.Fatalf("client %+v, direct %+v", got, want)
		}
	})
}

// TestRefusedPeerFallsBack: a server that does not run the client's
// vouch-guard (here: the test binary listening where a copy of it would
// be served) is never asked; the client runs vouch-guard itself and gives
// its answer.
func TestRefusedPeerFallsBack(t *testing.T) {
	f := setup(t)
	cp := filepath.Join(t.TempDir(), "vouch-guard")
	data, err := os.ReadFile(f.exe)
	if err != nil {
		t.Fatal(err)
	}
	write(t, cp, string(data))
	os.Chmod(cp, 0o755)
	f.serve(t, cp) // listens at cp's socket, but runs f.exe
	ev := `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`
	before := f.requests.Load()
	var out, errb bytes.Buffer
	c := &hookclient.Client{Guard: cp, Dir: f.repo, Env: f.env, Stdin: strings.NewReader(ev), Stdout: &out, Stderr: &errb, UID: os.Getuid()}
	code := c.Run(nil)
	if f.requests.Load() != before {
		t.Fatal("the client sent its call to a server that does not run its vouch-guard")
	}
	want := direct(t, f.repo, f.env, nil, ev)
	if got := (result{out.String(), errb.String(), code}); got != want || code != 2 {
		t.Fatalf("fallback answered %+v, direct %+v", got, want)
	}
}

// TestNoServerFallsBack: without a server, and with a stdin that is not
// complete before --timeout, the client still gives vouch-guard's answer.
func TestNoServerFallsBack(t *testing.T) {
	f := setup(t)
	env := []string{"TMPDIR=" + t.TempDir(), "HOME=/nonexistent", asGuard + "=1"}
	ev := `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`
	before := f.requests.Load()
	got := f.client(f.repo, env, nil, ev)
	want := direct(t, f.repo, env, nil, ev)
	if got != want || f.requests.Load() != before {
		t.Fatalf("no server: %+v, direct %+v", got, want)
	}
	// A stdin still open at the deadline: the direct run reads what was
	// read and the rest, and denies at its own deadline.
	pr, pw, _ := os.Pipe()
	defer pw.Close()
	pw.WriteString(`{"session_id":`)
	var out, errb bytes.Buffer
	c := &hookclient.Client{Guard: f.exe, Dir: f.repo, Env: f.env, Stdin: pr, Stdout: &out, Stderr: &errb, UID: os.Getuid()}
	start := time.Now()
	code := c.Run([]string{"--timeout", "300ms"})
	if code != 2 || !strings.Contains(errb.String(), "took longer than 300ms") {
		t.Fatalf("open stdin: exit %d, stderr %q", code, errb.String())
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("open stdin took %v", d)
	}
}

// TestConcurrentSessionCounts: 20 clients at once on one session through
// one server count every attempt once: with max_attempts 10, exactly ten
// are allowed.
func TestConcurrentSessionCounts(t *testing.T) {
	f := setup(t)
	write(t, filepath.Join(f.repo, ".vouch", "guard.yaml"), `apiVersion: vouch/v1
kind: Ruleset
rules:
  - id: cap
    type: session
    limits: {max_attempts: 10}
    then: {action: block, message: "Attempt limit reached."}
`)
	ev := `{"session_id":"busy","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}`
	var wg sync.WaitGroup
	exits := make(chan int, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			exits <- f.client(f.repo, f.env, nil, ev).exit
		}()
	}
	wg.Wait()
	close(exits)
	count := map[int]int{}
	for e := range exits {
		count[e]++
	}
	if count[0] != 10 || count[2] != 10 {
		t.Fatalf("exit codes %v, want ten 0 and ten 2", count)
	}
	if n := f.requests.Load(); n != 20 {
		t.Fatalf("the server answered %d calls, want 20", n)
	}
	logs, _ := filepath.Glob(filepath.Join(f.repo, ".vouch", "guard", "sessions", "*.log"))
	data, _ := os.ReadFile(logs[0])
	if n := strings.Count(string(data), `"kind":"attempt"`); n != 20 {
		t.Fatalf("%d attempts in the session log, want 20", n)
	}
}

// TestSecondServerExits: of two servers for one binary, the second finds
// the lock held and returns ErrRunning.
func TestSecondServerExits(t *testing.T) {
	f := setup(t)
	id, _ := hookwire.IdentityOf(f.exe)
	dir, _ := hookwire.SocketDir(envGet(f.env), os.Getuid(), false)
	s := &hookd.Server{Dir: dir, Identity: id, Idle: time.Minute, UID: os.Getuid(), Handle: func(*hookwire.Request) *hookwire.Reply { return nil }}
	if err := s.Run(context.Background()); err != hookd.ErrRunning {
		t.Fatalf("second server: %v, want ErrRunning", err)
	}
	// The first still answers.
	if got := f.client(f.repo, f.env, []string{"--version"}, ""); got.stdout != "vouch-guard test\n" {
		t.Fatalf("after a second start: %+v", got)
	}
}

// TestIdleExit: a server with no requests for its idle time exits and
// removes its socket.
func TestIdleExit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	os.Mkdir(dir, 0o700)
	id := hookwire.Identity{Ino: 42}
	s := &hookd.Server{Dir: dir, Identity: id, Idle: 100 * time.Millisecond, UID: os.Getuid(), Handle: func(*hookwire.Request) *hookwire.Reply { return nil }}
	// A stale socket from a killed server is replaced.
	write(t, hookwire.SocketPath(dir, id), "")
	start := time.Now()
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 100*time.Millisecond || d > 5*time.Second {
		t.Fatalf("idle exit after %v", d)
	}
	if _, err := os.Stat(hookwire.SocketPath(dir, id)); !os.IsNotExist(err) {
		t.Fatalf("socket left behind: %v", err)
	}
}

func TestServeFlags(t *testing.T) {
	tests := []struct {
		args []string
		env  string
		want string // stderr substring; "" for a start
	}{
		{[]string{"--serve", "--idle"}, "", "--idle needs a value"},
		{[]string{"--serve", "--idle", "soon"}, "", "not a positive duration"},
		{[]string{"--serve", "--idle=-1s"}, "", "not a positive duration"},
		{[]string{"--serve", "extra"}, "", "takes only --idle"},
		{[]string{"--serve"}, "never", "VOUCH_GUARD_IDLE"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.args, tt.env), func(t *testing.T) {
			var errb bytes.Buffer
			env := []string{}
			if tt.env != "" {
				env = append(env, hookd.IdleEnv+"="+tt.env)
			}
			code := hookd.Main(tt.args, strings.NewReader(""), &bytes.Buffer{}, &errb, envLookup(env), "test")
			if code != 2 || !strings.Contains(errb.String(), tt.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errb.String(), tt.want)
			}
		})
	}
}

// BenchmarkRoundTrip is one hook call through the server, in process:
// the client's request and the server's whole vouch-guard run (policy
// from the cache, decision, session and audit writes) and reply. A whole
// vouch-hook process adds its own start-up (testdata/bench/vs-edictum.sh).
func BenchmarkRoundTrip(b *testing.B) {
	f := setup(b)
	ev := `{"session_id":"bench","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_use_id":"t"}`
	for b.Loop() {
		if got := f.client(f.repo, f.env, nil, ev); got.exit != 0 {
			b.Fatalf("%+v", got)
		}
	}
	if n := f.requests.Load(); n < int64(b.N) {
		b.Fatalf("the server answered %d of %d calls", n, b.N)
	}
}

// TestPolicyEditSeen: the server keeps compiled policies in memory, by
// the policy's bytes: an edit between two calls is the next call's
// policy, as it is for a direct run.
func TestPolicyEditSeen(t *testing.T) {
	f := setup(t)
	ev := `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make all"},"tool_use_id":"t"}`
	if got := f.client(f.repo, f.env, nil, ev); got.exit != 0 {
		t.Fatalf("before the edit: %+v", got)
	}
	write(t, filepath.Join(f.repo, ".vouch", "guard.yaml"), strings.Replace(policy, "starts_with: \"kubectl apply\"", "starts_with: \"make\"", 1))
	before := f.requests.Load()
	got := f.client(f.repo, f.env, nil, ev)
	if f.requests.Load() != before+1 {
		// A direct run would read the edit whatever the server keeps.
		t.Fatal("the server did not answer the call after the edit")
	}
	if want := direct(t, f.repo, f.env, nil, ev); got != want || !strings.Contains(got.stdout, "Deploys need approval") {
		t.Fatalf("after the edit: %+v, direct %+v", got, want)
	}
}

// TestPanicFallsBack: a request whose run panics in the server is not
// answered; the client runs vouch-guard itself, and the server lives on.
func TestPanicFallsBack(t *testing.T) {
	f := setup(t)
	id, _ := hookwire.IdentityOf(f.exe)
	// A second server, whose handler panics once, in a socket directory
	// of its own (the fixture's server holds the lock of the first).
	var once atomic.Bool
	var handled atomic.Int64
	e, _ := guard.NewEngine()
	h := hookd.GuardHandler(e, "test")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	panicky := &hookd.Server{Identity: id, Idle: time.Minute, UID: os.Getuid(), Handle: func(r *hookwire.Request) *hookwire.Reply {
		handled.Add(1)
		if once.CompareAndSwap(false, true) {
			panic("boom")
		}
		return h(r)
	}}
	env2 := []string{"TMPDIR=" + t.TempDir(), "HOME=/nonexistent", asGuard + "=1"}
	dir2, err := hookwire.SocketDir(envGet(env2), os.Getuid(), true)
	if err != nil {
		t.Fatal(err)
	}
	panicky.Dir = dir2
	done := make(chan error, 1)
	go func() { done <- panicky.Run(ctx) }()
	waitAccepting(t, hookwire.SocketPath(dir2, id))
	ev := `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`
	for i := range 2 {
		got := f.client(f.repo, env2, nil, ev)
		if want := direct(t, f.repo, env2, nil, ev); got != want || got.exit != 2 {
			t.Fatalf("call %d: %+v, direct %+v", i, got, want)
		}
	}
	// The first call reached the handler and panicked (its client ran
	// vouch-guard itself); the server lived on and answered the second.
	if n := handled.Load(); n != 2 {
		t.Errorf("the panicking server handled %d calls, want 2", n)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestDiskCacheNotShared: the server never serves a compiled policy read
// from a repository's .vouch/cache, which an agent working there can
// edit: a poisoned entry in one repository changes no answer in another
// with the same policy bytes, whichever asks first.
func TestDiskCacheNotShared(t *testing.T) {
	deny := `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`
	tests := []struct {
		name  string
		order []string
	}{
		{"poisoned repository first", []string{"evil", "real"}},
		{"real repository first", []string{"real", "evil", "real"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := setup(t)
			evil := filepath.Join(t.TempDir(), "evil")
			for _, d := range []string{filepath.Join(evil, ".git"), filepath.Join(evil, ".vouch")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write(t, filepath.Join(evil, ".vouch", "guard.yaml"), policy)
			// A direct run fills evil's disk cache; the agent then
			// empties the rules of the compiled entry.
			direct(t, evil, f.env, nil, `{"session_id":"x","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t0"}`)
			entries, _ := filepath.Glob(filepath.Join(evil, ".vouch", "cache", "guard-*.json"))
			if len(entries) != 1 {
				t.Fatalf("disk cache entries %v, want one", entries)
			}
			b, err := os.ReadFile(entries[0])
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			m["rules"] = []any{}
			b, _ = json.Marshal(m)
			write(t, entries[0], string(b))
			for i, r := range tt.order {
				dir := map[string]string{"evil": evil, "real": f.repo}[r]
				got := f.client(dir, f.env, nil, deny)
				if !strings.Contains(got.stdout+got.stderr, "Recursive delete refused") || got.exit != 2 {
					t.Fatalf("call %d from %s: %+v, want the policy's deny", i, r, got)
				}
				if r == "real" {
					if want := direct(t, dir, f.env, nil, deny); got != want {
						t.Fatalf("call %d from %s: %+v, direct %+v", i, r, got, want)
					}
				}
			}
		})
	}
}

// TestServerEnvironmentUnused: the server decides with the client's
// TMPDIR, not its own: a server started with TMPDIR=$HOME (as an agent
// could start one) does not count writes to ~/.bashrc as scratch work.
func TestServerEnvironmentUnused(t *testing.T) {
	f := setup(t)
	home := envGet(f.env)("HOME")
	ctmp := envGet(f.env)("TMPDIR")
	repo := filepath.Join(home, "outside")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, ".vouch")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(repo, ".vouch", "guard.yaml"), "apiVersion: vouch/v1\nkind: Ruleset\nbuiltins: [writes-outside-repo]\nrules: []\n")
	tests := []struct {
		name, event string
		wantExit    int
	}{
		{"Write ~/.bashrc", `{"session_id":"s","cwd":"` + repo + `","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"~/.bashrc","content":"x"},"tool_use_id":"t1"}`, 2},
		{"append to ~/.bashrc", `{"session_id":"s","cwd":"` + repo + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo evil >> ~/.bashrc"},"tool_use_id":"t2"}`, 2},
		{"write in the client's TMPDIR", `{"session_id":"s","cwd":"` + repo + `","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` + ctmp + `/x","content":"x"},"tool_use_id":"t3"}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The server runs in this process: its TMPDIR is the home
			// directory, the client's is ctmp.
			t.Setenv("TMPDIR", home)
			before := f.requests.Load()
			got := f.client(repo, f.env, nil, tt.event)
			if f.requests.Load() != before+1 {
				t.Fatal("the server did not answer the call")
			}
			// A direct run is a process with the client's environment.
			t.Setenv("TMPDIR", ctmp)
			t.Setenv("HOME", home)
			if want := direct(t, repo, f.env, nil, tt.event); got != want || got.exit != tt.wantExit {
				t.Fatalf("through the server %+v, direct %+v, want exit %d", got, want, tt.wantExit)
			}
		})
	}
}

// TestDeadlineRecordsNothing: a call whose decision passes its deadline
// waiting for the audit log's lock is answered with the deadline deny,
// as a direct run answers it, and neither records anything once the
// lock is released (the direct run's process has exited by then; the
// server's goroutine must not outlive its answer to record an allow).
func TestDeadlineRecordsNothing(t *testing.T) {
	f := setup(t)
	ev := `{"session_id":"dl","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}`
	audit := filepath.Join(f.repo, ".vouch", "guard", "audit.jsonl")
	tests := []struct {
		name string
		run  func(t *testing.T, args []string) result
	}{
		{"through the server", func(t *testing.T, args []string) result {
			before := f.requests.Load()
			r := f.client(f.repo, f.env, args, ev)
			if f.requests.Load() != before+1 {
				t.Fatal("the server was not asked")
			}
			return r
		}},
		{"direct", func(t *testing.T, args []string) result { return direct(t, f.repo, f.env, args, ev) }},
	}
	if got := f.client(f.repo, f.env, nil, ev); got.exit != 0 {
		t.Fatalf("first call: %+v", got)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(audit)
			lf, err := os.OpenFile(audit, os.O_RDWR|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
				t.Fatal(err)
			}
			got := tt.run(t, []string{"--timeout", "300ms"})
			time.Sleep(100 * time.Millisecond)
			lf.Close()
			if got.exit != 2 || !strings.Contains(got.stdout+got.stderr, "deadline") {
				t.Fatalf("answer %+v, want the deadline deny", got)
			}
			time.Sleep(400 * time.Millisecond)
			if after, _ := os.ReadFile(audit); !bytes.Equal(after, before) {
				t.Fatalf("the audit log grew after the deadline deny:\n%s", after[len(before):])
			}
		})
	}
}
