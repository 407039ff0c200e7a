package hookclient

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStartServerEnvironment: the server vouch-hook starts runs with
// serverEnv's environment, not the client's (here a stand-in vouch-guard
// writes the environment it was given).
func TestStartServerEnvironment(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	guard := filepath.Join(dir, "vouch-guard")
	script := "#!/bin/sh\n/usr/bin/env > " + out + ".tmp && mv " + out + ".tmp " + out + "\n"
	if err := os.WriteFile(guard, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &Client{Guard: guard, Env: []string{"HOME=/h", "PATH=/usr/bin:/bin", "TMPDIR=" + dir, "SECRET=1"}}
	c.startServer()
	var b []byte
	for i := 0; ; i++ {
		var err error
		if b, err = os.ReadFile(out); err == nil {
			break
		}
		if i == 500 {
			t.Fatal("the stand-in server did not run")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		// The shell adds PWD (and some shells SHLVL, _) of its own.
		if name, _, _ := strings.Cut(l, "="); name != "PWD" && name != "SHLVL" && name != "_" && l != "" {
			got = append(got, l)
		}
	}
	if want := []string{"TMPDIR=" + dir}; !slices.Equal(got, want) {
		t.Fatalf("server environment %q, want %q", got, want)
	}
}
