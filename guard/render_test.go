package guard

import (
	"strings"
	"testing"
)

// TestRenderClaudeWarnings: a warning reaches the model on an allow and
// beside an ask (the person sees the ask's reason, the model the
// warnings), and is left out where nothing fired.
func TestRenderClaudeWarnings(t *testing.T) {
	warn := Finding{Rule: "w", Action: ActWarn, Message: "careful"}
	ask := Finding{Rule: "a", Action: ActAsk, Message: "confirm"}
	tests := []struct {
		name     string
		d        Decision
		want     []string
		wantNone string
	}{
		{"allow with a warning", Decision{Decision: Allow, Findings: []Finding{warn}},
			[]string{`"additionalContext":"vouch guard warning: careful (rule w)"`}, `"permissionDecision"`},
		{"ask with a warning", Decision{Decision: Ask, Findings: []Finding{warn, ask}},
			[]string{`"permissionDecision":"ask"`, `"additionalContext":"vouch guard warning: careful (rule w)"`}, ""},
		{"ask alone", Decision{Decision: Ask, Findings: []Finding{ask}},
			[]string{`"permissionDecision":"ask"`}, `additionalContext`},
		{"observed warning", Decision{Decision: Ask, Findings: []Finding{{Rule: "w", Action: ActWarn, Message: "x", Observed: true}, ask}},
			[]string{`"permissionDecision":"ask"`}, `additionalContext`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Render(ClaudeCode, Pre, "PreToolUse", &tt.d)
			got := string(a.Stdout)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("answer %s lacks %s", got, w)
				}
			}
			if tt.wantNone != "" && strings.Contains(got, tt.wantNone) {
				t.Errorf("answer %s holds %s", got, tt.wantNone)
			}
			if a.Exit != 0 {
				t.Errorf("exit %d, want 0", a.Exit)
			}
		})
	}
}

// TestCursorReadFile: Cursor's beforeReadFile answers only allow or deny,
// so an ask there is refused rather than sent as a word Cursor does not
// take, while its other before* events keep the ask; and the files
// attached to the read are read too.
func TestCursorReadFile(t *testing.T) {
	ask := Decision{Decision: Ask, Findings: []Finding{{Rule: "a", Action: ActAsk, Message: "confirm"}}}
	tests := []struct {
		event, want string
	}{
		{"beforeReadFile", `"permission":"deny"`},
		{"beforeShellExecution", `"permission":"ask"`},
		{"preToolUse", `"permission":"ask"`},
	}
	for _, tt := range tests {
		if got := string(Render(Cursor, Pre, tt.event, &ask).Stdout); !strings.Contains(got, tt.want) {
			t.Errorf("%s: answer %s lacks %s", tt.event, got, tt.want)
		}
	}
	c, err := ParseEvent(Cursor, []byte(`{"hook_event_name":"beforeReadFile","cwd":"/repo","file_path":"/repo/a.md",
		"attachments":[{"type":"file","file_path":"/root/.ssh/id_rsa"},{"type":"file","filePath":"/repo/.env"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	f := DeriveIn(c, DeriveContext{Home: "/root", Root: "/repo"})
	want := []string{"/repo/.env", "/repo/a.md", "/root/.ssh/id_rsa"}
	if strings.Join(f.Reads, " ") != strings.Join(want, " ") {
		t.Errorf("reads %q, want %q", f.Reads, want)
	}
}
