package hookclient

import (
	"slices"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/internal/hookwire"
)

// TestServerEnv: a server vouch-hook starts gets only the variables that
// say where it listens and how long it lives, never the rest of the
// client's environment (TMPDIR included only for the socket directory).
func TestServerEnv(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want []string
	}{
		{"empty", nil, []string{}},
		{"nothing it reads", []string{"HOME=/h", "PATH=/bin", "VOUCH_PRINCIPAL={}", "LD_PRELOAD=/x.so"}, []string{}},
		{"socket and idle", []string{"HOME=/h", "XDG_RUNTIME_DIR=/run/user/1", "TMPDIR=/t", "VOUCH_GUARD_IDLE=30s", "GODEBUG=x=1"},
			[]string{"TMPDIR=/t", "VOUCH_GUARD_IDLE=30s", "XDG_RUNTIME_DIR=/run/user/1"}},
		{"last entry wins", []string{"TMPDIR=/a", "TMPDIR=/b"}, []string{"TMPDIR=/b"}},
		{"empty values left out", []string{"TMPDIR=", "XDG_RUNTIME_DIR="}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := serverEnv(tt.env)
			if got == nil || !slices.Equal(got, tt.want) {
				t.Fatalf("serverEnv(%q) = %#v, want %#v", tt.env, got, tt.want)
			}
		})
	}
}

// envLookup answers as the server's hookwire.EnvLookup does, for every
// name of every environment: the last entry of a name wins, a name is
// matched whole (TMP is not TMPDIR), an entry without '=' is a name with
// an empty value.
func TestEnvLookupMatchesServer(t *testing.T) {
	envs := [][]string{
		nil,
		{"TMPDIR=/a", "TMPDIR=/b"},
		{"TMPDIR=/a", "TMPDIRX=/x", "TMP=/t", "XDG_RUNTIME_DIR=/run/user/1"},
		{"A==b", "A=", "B"},
		{"TMPDIR=/a", "TMPDIR"},
	}
	names := []string{"TMPDIR", "TMP", "TMPDIRX", "XDG_RUNTIME_DIR", "A", "B", "C", ""}
	for _, env := range envs {
		want := hookwire.Getenv(hookwire.EnvLookup(env))
		got := envLookup(env)
		for _, k := range names {
			if got(k) != want(k) {
				t.Errorf("env %q: envLookup(%q) = %q, server's %q", env, k, got(k), want(k))
			}
		}
	}
}

func TestInfoOnly(t *testing.T) {
	for args, want := range map[string]bool{
		"--help": true, "-h": true, "help": true, "--version": true, "version": true, "-version": true,
		"--policy p.yaml": false, "--help --policy p.yaml": false, "": false, "--harness claude-code": false,
	} {
		if got := infoOnly(strings.Fields(args)); got != want {
			t.Errorf("infoOnly(%q) = %v, want %v", args, got, want)
		}
	}
}
