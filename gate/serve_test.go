package gate_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/gate"
	"github.com/vouch-dev/vouch/output"
)

// Serve answers each way a gate invocation can end: a rendered verdict,
// a Stop hook released rather than looped, and no answer at all.
func TestServe(t *testing.T) {
	tests := []struct {
		name, envelope, format, stdin, progress string
		wantErr, wantVerdict                    string
		wantReleased                            bool
		wantStdout, wantStderr                  string // substrings; "" for wantStdout means empty
	}{
		{name: "pass", envelope: "pass.yaml", format: "json", wantVerdict: "pass", wantStdout: `"verdict": "pass"`},
		{name: "fail", envelope: "fail.yaml", format: "text", wantVerdict: "fail", wantStdout: "fail"},
		{name: "Stop hook blocks", envelope: "fail.yaml", format: "claude-hook", stdin: `{"stop_hook_active": false}`,
			wantVerdict: "fail", wantStdout: `"decision": "block"`},
		{name: "Stop hook does not block twice", envelope: "fail.yaml", format: "claude-hook", stdin: `{"stop_hook_active": true}`,
			wantVerdict: "fail", wantReleased: true, wantStderr: "not blocking again"},
		{name: "stop_hook_active outside the hook is ignored", envelope: "fail.yaml", format: "text", stdin: `{"stop_hook_active": true}`,
			wantVerdict: "fail", wantStdout: "fail"},
		{name: "bad progress answers nothing", envelope: "pass.yaml", format: "text", progress: "bogus", wantErr: `unknown --progress "bogus"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range map[string]string{
				"vouch.yaml":    "rulespec: rulespec.yaml\nout: out\n",
				"rulespec.yaml": "claims:\n  - {name: ok, selector: ok}\npredicates:\n  - {claim: ok, rule: equals, value: true}\n",
				"pass.yaml":     "facts:\n  ok: true\n",
				"fail.yaml":     "facts:\n  ok: false\n",
			} {
				if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(root)
			var stdout, stderr bytes.Buffer
			sink, err := output.NewSink(&stdout, gate.Formats(), tt.format, "never", nil)
			if err != nil {
				t.Fatal(err)
			}
			progress := tt.progress
			if progress == "" {
				progress = "never"
			}
			a, err := gate.Serve(context.Background(),
				gate.Options{Root: root, RootSet: true, Envelope: tt.envelope, NoCache: true},
				gate.ServeOptions{Sink: sink, Stdin: strings.NewReader(tt.stdin), Stdout: &stdout, Stderr: &stderr,
					Timeout: gate.DefaultTimeout, Progress: progress})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Serve error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || a.Err != nil {
				t.Fatalf("Serve = %+v, %v", a, err)
			}
			if a.Result.Verdict != tt.wantVerdict || a.Released != tt.wantReleased {
				t.Errorf("verdict %q, released %v; want %q, %v", a.Result.Verdict, a.Released, tt.wantVerdict, tt.wantReleased)
			}
			if (tt.wantStdout == "") != (stdout.Len() == 0) || !strings.Contains(stdout.String(), tt.wantStdout) {
				t.Errorf("stdout %q, want %q", stdout.String(), tt.wantStdout)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}
