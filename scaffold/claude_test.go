package scaffold

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var stop = ClaudeHook{Event: "Stop", Command: "/usr/local/bin/vouch gate --format claude-hook", Timeout: 120}

func TestMergeClaudeHook(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		want      string
		installed bool
	}{
		{
			name: "empty file",
			in:   "",
			want: `{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/vouch gate --format claude-hook",
            "timeout": 120
          }
        ]
      }
    ]
  }
}
`,
		},
		{
			name: "keeps other settings in order",
			in:   `{"z": 1, "permissions": {"allow": ["Bash(go test:*)"]}, "a": "x && y"}`,
			want: `{
  "z": 1,
  "permissions": {
    "allow": [
      "Bash(go test:*)"
    ]
  },
  "a": "x && y",
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/vouch gate --format claude-hook",
            "timeout": 120
          }
        ]
      }
    ]
  }
}
`,
		},
		{
			name: "appends to other Stop hooks and keeps other events",
			in:   `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]}], "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}`,
			want: `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "guard"
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "say done"
          }
        ]
      },
      {
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/vouch gate --format claude-hook",
            "timeout": 120
          }
        ]
      }
    ]
  }
}
`,
		},
		{
			name:      "already installed by another path",
			in:        `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "vouch gate --format claude-hook"}]}]}}`,
			want:      `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "vouch gate --format claude-hook"}]}]}}`,
			installed: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, installed, err := MergeClaudeHook("settings.json", []byte(tt.in), stop, IsGateCommand)
			if err != nil {
				t.Fatal(err)
			}
			if installed != tt.installed {
				t.Errorf("installed = %v, want %v", installed, tt.installed)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("merged settings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMergeClaudeHookErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"[]", "settings.json:1:2: the top level must be a JSON object; fix it, then run vouch init again"},
		{"{\n  \"a\": 1,\n}", "settings.json:3:1: not valid JSON: invalid character '}' looking for beginning of object key string; fix it, then run vouch init again"},
		{`{"a": 1, "a": 2}`, `settings.json:1:13: duplicate key "a"; fix it, then run vouch init again`},
		{`{"a": 1} {}`, "settings.json:1:11: data after the top-level object; fix it, then run vouch init again"},
		{`{"a": `, "settings.json:1:7: not valid JSON: unexpected end of file; fix it, then run vouch init again"},
		{`{"hooks": []}`, `settings.json: "hooks" must be an object of event names: the top level must be a JSON object`},
		{`{"hooks": {"Stop": {}}}`, "settings.json: hooks.Stop must be an array of {matcher, hooks} entries: json: cannot unmarshal object into Go value of type []json.RawMessage"},
		{`{"hooks": {"Stop": [1]}}`, "settings.json: hooks.Stop[0] is not a {matcher, hooks} entry: json: cannot unmarshal number into Go value of type struct { Hooks []struct { Command string \"json:\\\"command\\\"\" } \"json:\\\"hooks\\\"\" }"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, _, err := MergeClaudeHook("settings.json", []byte(tt.in), stop, IsGateCommand)
			var se *SettingsError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *SettingsError", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestIsGateCommand(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"vouch gate --format claude-hook", true},
		{"/opt/bin/vouch gate", true},
		{"'/my dir/vouch' gate --format claude-hook", true},
		{"'/opt/vouch' gate", true},
		{"exec /usr/bin/vouch gate --format text", true},
		{"run: vouch gate --format github", true},
		{"vouch lint", false},
		{"notvouch gate", false},
		{"vouch", false},
	}
	for _, tt := range tests {
		if got := IsGateCommand(tt.cmd); got != tt.want {
			t.Errorf("IsGateCommand(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// FuzzMergeClaudeHook: any input either merges into valid JSON that holds
// the hook, or is refused with a SettingsError; never a panic.
func FuzzMergeClaudeHook(f *testing.F) {
	for _, s := range []string{"", "{}", "[]", `{"hooks": {"Stop": []}}`, `{"a": {"b": [1, 2, {"c": null}]}}`, `{"hooks": {"Stop": [{"hooks": [{"command": "vouch gate"}]}]}}`, "{\"a\":1,}", `{"a":"\u2028"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, installed, err := MergeClaudeHook("s.json", []byte(in), stop, IsGateCommand)
		if err != nil {
			var se *SettingsError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SettingsError", err)
			}
			return
		}
		if installed {
			return
		}
		var v struct {
			Hooks map[string][]struct {
				Hooks []struct{ Command string } `json:"hooks"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("merged output is not JSON: %v\n%s", err, out)
		}
		stops := v.Hooks["Stop"]
		if len(stops) == 0 || len(stops[len(stops)-1].Hooks) != 1 || !strings.Contains(stops[len(stops)-1].Hooks[0].Command, "vouch gate") {
			t.Fatalf("merged output lacks the hook:\n%s", out)
		}
	})
}
