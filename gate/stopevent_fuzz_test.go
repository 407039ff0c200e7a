package gate

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzReadStopEvent: whatever the harness (or anything else) writes on
// the gate's stdin, reading the Stop event never panics, and a document
// whose stop_hook_active is true is always read as active, whatever else
// it holds: reading it as inactive would make the gate block again and
// the agent loop.
func FuzzReadStopEvent(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"s1","hook_event_name":"Stop","stop_hook_active":true}`,
		`{"session_id":"s1","stop_hook_active":false}`,
		`{"session_id":1,"stop_hook_active":true}`,
		`{"stop_hook_active":"yes"}`,
		``, `null`, `[]`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev := ReadStopEvent(bytes.NewReader(data))
		var v struct {
			Active *bool `json:"stop_hook_active"`
		}
		if json.Unmarshal(data, &v) == nil && v.Active != nil && *v.Active && !ev.Active {
			t.Fatalf("stop_hook_active true read as inactive from %q", data)
		}
	})
}
