package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Init finds what the flags leave out (the root, the binary), picks the
// gate or the guard set-up, and prints what it did even when it fails.
func TestInit(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		opts       InitOptions
		settings   string // .claude/settings.json before, if any
		wantFile   string // relative to the root
		wantOutput string
		wantErr    string
	}{
		{name: "gate, found root", opts: InitOptions{Options: Options{Binary: "/opt/bin/vouch"}},
			wantFile: "vouch.yaml", wantOutput: "/opt/bin/vouch"},
		{name: "gate, the running binary", opts: InitOptions{Argv0: os.Args[0]},
			wantFile: "vouch.yaml", wantOutput: exe},
		{name: "guard", opts: InitOptions{Options: Options{Binary: "/opt/bin/vouch"}, Guard: true},
			wantFile: GuardPolicyPath, wantOutput: "wrote " + GuardPolicyPath},
		{name: "guard, broken settings", opts: InitOptions{Options: Options{Binary: "/opt/bin/vouch"}, Guard: true},
			settings: `{"hooks": [`, wantErr: "settings.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			t.Chdir(root)
			if tt.settings != "" {
				if err := os.MkdirAll(".claude", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(".claude", "settings.json"), []byte(tt.settings), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var out strings.Builder
			err := Init(tt.opts, &out)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Init error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(root, tt.wantFile)); err != nil {
				t.Errorf("%s not written: %v", tt.wantFile, err)
			}
			if !strings.Contains(out.String(), tt.wantOutput) {
				t.Errorf("output lacks %q:\n%s", tt.wantOutput, out.String())
			}
		})
	}
}
