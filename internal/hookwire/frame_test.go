package hookwire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		req  Request
	}{
		{"minimal", Request{Dir: "/"}},
		{"full", Request{Dir: "/work/repo", Args: []string{"--policy", "p.yaml", "--harness=codex"},
			Env: []string{"HOME=/home/u", "VOUCH_PRINCIPAL={\"role\":\"dev\"}", "EMPTY="}, Stdin: []byte(`{"tool_name":"Bash"}`)}},
		{"binary stdin", Request{Dir: "/x", Stdin: []byte{0, 1, 2, 255}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteRequest(&b, &tt.req); err != nil {
				t.Fatal(err)
			}
			got, err := ReadRequest(&b)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.req
			if want.Args == nil {
				want.Args = []string{}
			}
			if want.Env == nil {
				want.Env = []string{}
			}
			if want.Stdin == nil {
				want.Stdin = []byte{}
			}
			if d := cmp.Diff(&want, got); d != "" {
				t.Errorf("round trip (-want +got):\n%s", d)
			}
		})
	}
}

func TestReplyRoundTrip(t *testing.T) {
	for _, rep := range []Reply{
		{Stdout: []byte{}, Stderr: []byte{}},
		{Stdout: []byte(`{"decision":"deny"}` + "\n"), Stderr: []byte("vouch guard: no\n"), Exit: 2},
		{Stdout: []byte{}, Stderr: []byte{}, Exit: 255},
	} {
		var b bytes.Buffer
		if err := WriteReply(&b, &rep); err != nil {
			t.Fatal(err)
		}
		got, err := ReadReply(&b)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(&rep, got); d != "" {
			t.Errorf("round trip (-want +got):\n%s", d)
		}
	}
}

func TestRequestCheck(t *testing.T) {
	many := func(n int, s string) []string {
		l := make([]string, n)
		for i := range l {
			l[i] = s
		}
		return l
	}
	tests := []struct {
		name string
		req  Request
		want string // "" for valid
	}{
		{"valid", Request{Dir: "/r", Args: []string{"-p", "x"}, Env: []string{"A=1"}}, ""},
		{"relative dir", Request{Dir: "repo"}, "not an absolute path"},
		{"empty dir", Request{}, "not an absolute path"},
		{"NUL in dir", Request{Dir: "/r\x00x"}, "not an absolute path"},
		{"long dir", Request{Dir: "/" + strings.Repeat("d", MaxDirBytes)}, "longer than"},
		{"too many args", Request{Dir: "/", Args: many(MaxArgs+1, "-x")}, "arguments"},
		{"long arg", Request{Dir: "/", Args: []string{strings.Repeat("a", MaxArgBytes+1)}}, "argument"},
		{"NUL in arg", Request{Dir: "/", Args: []string{"a\x00"}}, "NUL"},
		{"env without =", Request{Dir: "/", Env: []string{"PATH"}}, "KEY=VALUE"},
		{"env with empty name", Request{Dir: "/", Env: []string{"=x"}}, "KEY=VALUE"},
		{"too many env", Request{Dir: "/", Env: many(MaxEnv+1, "A=1")}, "environment entries"},
		{"env too large", Request{Dir: "/", Env: many(2, "A="+strings.Repeat("v", MaxEnvBytes/2))}, "environment larger"},
		{"stdin too large", Request{Dir: "/", Stdin: make([]byte, MaxStdin+1)}, "stdin larger"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.req.Check()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Check() = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrFrame)):
				t.Fatalf("Check() = %v, want an ErrFrame containing %q", err, tt.want)
			}
			if tt.want != "" {
				if err := WriteRequest(&bytes.Buffer{}, &tt.req); err == nil {
					t.Fatal("WriteRequest wrote a request Check refuses")
				}
			}
		})
	}
}

// frame builds a raw frame from parts: strings as is, uint32s big-endian.
func frame(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			b = append(b, v...)
		case uint32:
			b = binary.BigEndian.AppendUint32(b, v)
		}
	}
	return b
}

func TestReadRequestRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "magic"},
		{"wrong magic", frame("VHR1"), "magic"},
		{"truncated dir", frame("VHQ1", uint32(10), "/ab"), "working directory"},
		{"dir length past bound", frame("VHQ1", uint32(MaxDirBytes+1)), "passes the bound"},
		{"huge arg count", frame("VHQ1", uint32(1), "/", uint32(1<<31)), "pass the bound"},
		{"huge stdin length", frame("VHQ1", uint32(1), "/", uint32(0), uint32(0), uint32(MaxStdin+1)), "passes the bound"},
		{"relative dir", frame("VHQ1", uint32(1), "r", uint32(0), uint32(0), uint32(0)), "absolute"},
		{"bad env entry", frame("VHQ1", uint32(1), "/", uint32(0), uint32(1), uint32(1), "A", uint32(0)), "KEY=VALUE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadRequest(bytes.NewReader(tt.in))
			if err == nil || !errors.Is(err, ErrFrame) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ReadRequest = %v, want an ErrFrame containing %q", err, tt.want)
			}
		})
	}
}

func TestReadReplyRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"request magic", frame("VHQ1"), "magic"},
		{"no exit code", frame("VHR1"), "exit code"},
		{"stdout past bound", frame("VHR1", "\x00", uint32(MaxOutput+1)), "passes the bound"},
		{"truncated stderr", frame("VHR1", "\x02", uint32(0), uint32(5), "ab"), "stderr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadReply(bytes.NewReader(tt.in))
			if err == nil || !errors.Is(err, ErrFrame) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ReadReply = %v, want an ErrFrame containing %q", err, tt.want)
			}
		})
	}
	if err := WriteReply(&bytes.Buffer{}, &Reply{Exit: 256}); err == nil {
		t.Error("WriteReply wrote exit code 256")
	}
}

func TestLookupEnv(t *testing.T) {
	r := &Request{Env: []string{"A=1", "B=x=y", "A=2", "E="}}
	look := r.LookupEnv()
	for _, tt := range []struct {
		key, val string
		ok       bool
	}{{"A", "2", true}, {"B", "x=y", true}, {"E", "", true}, {"M", "", false}} {
		if v, ok := look(tt.key); v != tt.val || ok != tt.ok {
			t.Errorf("LookupEnv(%q) = %q, %v; want %q, %v", tt.key, v, ok, tt.val, tt.ok)
		}
	}
}

// FuzzReadRequest: no input panics the server's frame reader or makes it
// accept a request Check refuses, and an accepted request writes back to
// the same frame.
func FuzzReadRequest(f *testing.F) {
	var b bytes.Buffer
	_ = WriteRequest(&b, &Request{Dir: "/r", Args: []string{"-p", "x"}, Env: []string{"A=1"}, Stdin: []byte("{}")})
	f.Add(b.Bytes())
	f.Add(frame("VHQ1", uint32(1), "/", uint32(0), uint32(0), uint32(0)))
	f.Add(frame("VHQ1", uint32(1<<31)))
	f.Add([]byte("VHR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := ReadRequest(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := req.Check(); err != nil {
			t.Fatalf("accepted a request Check refuses: %v", err)
		}
		var out bytes.Buffer
		if err := WriteRequest(&out, req); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, out.Bytes()) {
			t.Fatalf("re-encoded %q, read from %q", out.Bytes(), data)
		}
	})
}

// FuzzReadReply: no input panics the client's frame reader.
func FuzzReadReply(f *testing.F) {
	var b bytes.Buffer
	_ = WriteReply(&b, &Reply{Stdout: []byte("out"), Stderr: []byte("err"), Exit: 2})
	f.Add(b.Bytes())
	f.Add(frame("VHR1", "\x00", uint32(1<<31)))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := ReadReply(bytes.NewReader(data))
		if err == nil && (rep.Exit < 0 || rep.Exit > 255) {
			t.Fatalf("exit code %d", rep.Exit)
		}
	})
}

// The wire format, byte for byte: magic, then big-endian u32 lengths and
// counts before each field (the reply's exit code a single byte).
func TestFrameBytes(t *testing.T) {
	var b bytes.Buffer
	req := &Request{Dir: "/r", Args: []string{"-x"}, Env: []string{"A=1", "B="}, Stdin: []byte("{}")}
	if err := WriteRequest(&b, req); err != nil {
		t.Fatal(err)
	}
	want := "VHQ1" + "\x00\x00\x00\x02/r" + "\x00\x00\x00\x01" + "\x00\x00\x00\x02-x" +
		"\x00\x00\x00\x02" + "\x00\x00\x00\x03A=1" + "\x00\x00\x00\x02B=" + "\x00\x00\x00\x02{}"
	if b.String() != want {
		t.Errorf("request frame %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := WriteReply(&b, &Reply{Stdout: []byte("out"), Stderr: nil, Exit: 2}); err != nil {
		t.Fatal(err)
	}
	if want := "VHR1\x02" + "\x00\x00\x00\x03out" + "\x00\x00\x00\x00"; b.String() != want {
		t.Errorf("reply frame %q, want %q", b.String(), want)
	}
}

// A request is built in one buffer allocated at its final size: a hook
// process pays a fresh page for each size class a growing buffer passes.
func TestWriteRequestAllocs(t *testing.T) {
	env := make([]string, 40)
	for i := range env {
		env[i] = fmt.Sprintf("VAR%d=%s", i, strings.Repeat("v", 40))
	}
	req := &Request{Dir: "/work/repo", Args: []string{"--policy", "policy.yaml"}, Env: env, Stdin: bytes.Repeat([]byte("e"), 300)}
	if n := testing.AllocsPerRun(20, func() { WriteRequest(io.Discard, req) }); n > 1 {
		t.Errorf("WriteRequest made %v allocations, want 1", n)
	}
}
