package lint

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/output"
)

// Command owns vouch lint's flow: which errors are reported in the
// report's format and which are left to the caller, when it stops early,
// and whether the findings fail the run.
func TestCommand(t *testing.T) {
	tests := []struct {
		name                 string
		args                 []string
		format, progress     string
		baseline, explain    bool
		wantFailed           bool
		wantErr              string // "" none; "reported" is ErrReported
		wantStdout, wantNote string // substrings; wantStdout "" means empty
	}{
		{name: "findings fail", format: "json", wantFailed: true, wantStdout: `"rule": "billing-auth-boundary"`},
		{name: "two paths: reported in SARIF", args: []string{"a", "b"}, format: "sarif",
			wantErr: "reported", wantStdout: `"at most one PATH argument`, wantNote: "vouch: lint: at most one PATH argument"},
		{name: "two paths: text prints nothing", args: []string{"a", "b"}, format: "text",
			wantErr: "reported", wantNote: "vouch: lint: at most one PATH argument"},
		{name: "explain-config stops before the scan", format: "text", explain: true, progress: "bogus",
			wantStdout: "billing-auth-boundary"},
		{name: "bad progress is the caller's", format: "text", progress: "bogus", wantErr: `unknown --progress "bogus"`},
		{name: "update-baseline records and passes", format: "json", baseline: true, wantNote: "vouch: lint: recorded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "lint", "basic"))); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			sink, err := output.NewSink(&stdout, Formats(), tt.format, "never", nil)
			if err != nil {
				t.Fatal(err)
			}
			progress := tt.progress
			if progress == "" {
				progress = "never"
			}
			o := CommandOptions{Request: Request{Today: "2025-01-01", NoCache: true},
				Args: tt.args, ExplainConfig: tt.explain, Version: "test", Sink: sink,
				Stdout: &stdout, Stderr: &stderr, Progress: progress}
			if tt.args == nil {
				o.Args = []string{dir}
			}
			if tt.baseline {
				o.Baseline, o.UpdateBaseline = filepath.Join(dir, "baseline.json"), true
			}
			failed, err := Command(context.Background(), o)
			switch {
			case tt.wantErr == "reported" && !errors.Is(err, ErrReported):
				t.Fatalf("error %v, want ErrReported", err)
			case tt.wantErr != "reported" && tt.wantErr != "" && (err == nil || errors.Is(err, ErrReported) || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want an unreported one containing %q", err, tt.wantErr)
			case tt.wantErr == "" && err != nil:
				t.Fatalf("error %v\nstderr: %s", err, stderr.String())
			}
			if failed != tt.wantFailed {
				t.Errorf("failed = %v, want %v", failed, tt.wantFailed)
			}
			if tt.wantStdout == "" && stdout.Len() > 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
			if !strings.Contains(stdout.String(), tt.wantStdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.wantStdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.wantNote) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantNote, stderr.String())
			}
		})
	}
}
