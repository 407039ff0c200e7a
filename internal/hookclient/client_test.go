package hookclient

import (
	"slices"
	"testing"
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
