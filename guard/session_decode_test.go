package guard

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestDecodeRecord checks decodeRecord against encoding/json on the
// lines vouch writes and on the torn and foreign lines a log may hold.
func TestDecodeRecord(t *testing.T) {
	tests := []struct {
		line string
		want sessionRecord
		ok   bool
	}{
		{`{"kind":"attempt","tool":"Bash","decision":"allow"}`, sessionRecord{Kind: "attempt", Tool: "Bash", Decision: "allow"}, true},
		{`{"kind":"exec","tool":"Write","ok":true}`, sessionRecord{Kind: "exec", Tool: "Write", OK: true}, true},
		{`{"kind":"exec","tool":"Write"}`, sessionRecord{Kind: "exec", Tool: "Write"}, true},
		{`{"kind":"exec","tool":"mcp__x__y","ok":false,"extra":[1,{"a":2}]}`, sessionRecord{Kind: "exec", Tool: "mcp__x__y"}, true},
		{`{"kind":"exec","tool":null,"ok":null}`, sessionRecord{Kind: "exec"}, true},
		{`{"kind":"att\u0065mpt","tool":"B\"ash"}`, sessionRecord{Kind: "attempt", Tool: `B"ash`}, true},
		{` {"kind":"attempt"} `, sessionRecord{Kind: "attempt"}, true},
		{`{"kind":"attempt","tool":"Bash","decis`, sessionRecord{}, false}, // torn
		{`{"kind":"exec","ok":"yes"}`, sessionRecord{}, false},             // wrong type
		{`{"kind":7}`, sessionRecord{}, false},
		{`["kind","attempt"]`, sessionRecord{}, false},
		{`"attempt"`, sessionRecord{}, false},
		{``, sessionRecord{}, false},
		{`{"kind":"attempt"}{"kind":"attempt"}`, sessionRecord{}, false},
	}
	for _, tt := range tests {
		got, _, ok := decodeRecord([]byte(tt.line))
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("decodeRecord(%s) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
		var ref sessionRecord
		refOK := json.Unmarshal([]byte(tt.line), &ref) == nil
		if refOK != ok || (ok && ref != got) {
			t.Errorf("decodeRecord(%s) = %+v, %v; encoding/json gives %+v, %v", tt.line, got, ok, ref, refOK)
		}
	}
}

// TestDecodeRecordWrites checks a record's writes against encoding/json:
// a list of strings, which older logs do not have.
func TestDecodeRecordWrites(t *testing.T) {
	tests := []struct {
		line   string
		writes []string
		ok     bool
	}{
		{`{"kind":"attempt","tool":"Write","decision":"allow","writes":["/r/s.sh","/r/\u0074.sh"]}`, []string{"/r/s.sh", "/r/t.sh"}, true},
		{`{"kind":"exec","tool":"Write","writes":["/a",null]}`, []string{"/a", ""}, true},
		{`{"kind":"exec","tool":"Write","writes":["/a"],"writes":null}`, nil, true},
		{`{"kind":"exec","tool":"Write","writes":[]}`, nil, true},
		{`{"kind":"exec","tool":"Write"}`, nil, true},
		{`{"kind":"exec","tool":"Write","writes":"/a"}`, nil, false},
		{`{"kind":"exec","tool":"Write","writes":["/a",1]}`, nil, false},
		{`{"kind":"exec","tool":"Write","writes":{"a":"b"}}`, nil, false},
	}
	for _, tt := range tests {
		_, list, ok := decodeRecord([]byte(tt.line))
		got := writePaths(list)
		if ok != tt.ok || (ok && !slices.Equal(got, tt.writes)) {
			t.Errorf("decodeRecord(%s) writes %q, %v; want %q, %v", tt.line, got, ok, tt.writes, tt.ok)
		}
		var ref writingRecord
		refOK := json.Unmarshal([]byte(tt.line), &ref) == nil
		if refOK != ok || (ok && !slices.Equal(ref.Writes, got)) {
			t.Errorf("decodeRecord(%s) writes %q, %v; encoding/json gives %q, %v", tt.line, got, ok, ref.Writes, refOK)
		}
	}
}

// FuzzDecodeRecord checks that every record vouch can write reads back
// the same, and that no line makes decodeRecord panic or accept what is
// not a JSON object.
func FuzzDecodeRecord(f *testing.F) {
	f.Add("attempt", "Bash", false, "deny", []byte(`{"kind":"attempt","tool":"Bash","decision":"deny"}`))
	f.Add("exec", "mcp__github__create_issue", true, "", []byte(`{"kind":"exec","tool":"Write","ok":true`))
	f.Add("exec", "a\"b\\c\u2028", false, "", []byte(`{"kind":"exec","ok":1}`))
	f.Fuzz(func(t *testing.T, kind, tool string, ok bool, decision string, raw []byte) {
		rec := sessionRecord{Kind: kind, Tool: tool, OK: ok, Decision: decision}
		line, err := json.Marshal(rec)
		if err != nil {
			t.Skip()
		}
		var want sessionRecord
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("encoding/json cannot read its own %s: %v", line, err)
		}
		got, _, gotOK := decodeRecord(line)
		if !gotOK || got != want {
			t.Errorf("decodeRecord(%s) = %+v, %v; want %+v", line, got, gotOK, want)
		}
		if _, _, ok := decodeRecord(raw); ok {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Errorf("decodeRecord accepted %q, which is not a JSON object: %v", raw, err)
			}
		}
	})
}

// FuzzDecodeSnapshot checks that every checkpoint vouch writes reads back
// the same and that no line makes decodeSnapshot panic or accept a count
// that is not a non-negative integer.
func FuzzDecodeSnapshot(f *testing.F) {
	f.Add(3, 2, 1, "Bash", 2, []byte(`{"kind":"snapshot","attempts":3,"execs":2,"consecutive_failures":1,"tools":{"Bash":2}}`))
	f.Add(0, 0, 0, "", 0, []byte(`{"kind":"snapshot","attempts":-1}`))
	f.Add(1, 1, 0, "a\"b", 1, []byte(`{"kind":"snapshot","attempts":1e3,"execs":0,"consecutive_failures":0,"tools":{"x":null}}`))
	f.Fuzz(func(t *testing.T, attempts, execs, failures int, tool string, n int, raw []byte) {
		if attempts >= 0 && execs >= 0 && failures >= 0 && n >= 0 && attempts < 1<<40 && execs < 1<<40 && failures < 1<<40 && n < 1<<40 {
			in := tally{Attempts: attempts, Execs: execs, Failures: failures, Tools: map[string]int{tool: n}}
			line, err := json.Marshal(snapshotRecord{Kind: "snapshot", tally: in})
			if err != nil {
				t.Fatal(err)
			}
			got, ok := decodeSnapshot(line)
			if !ok || got.Attempts != in.Attempts || got.Execs != in.Execs || got.Failures != in.Failures || len(got.Tools) != 1 {
				t.Fatalf("decodeSnapshot(%s) = %+v, %v; want %+v", line, got, ok, in)
			}
			var ref tally
			if err := json.Unmarshal(line, &ref); err != nil || ref.Tools[tool] != got.Tools[tool] {
				t.Fatalf("decodeSnapshot(%s) tools = %v; encoding/json gives %v (%v)", line, got.Tools, ref.Tools, err)
			}
		}
		if got, ok := decodeSnapshot(raw); ok {
			if got.Attempts < 0 || got.Execs < 0 || got.Failures < 0 {
				t.Fatalf("decodeSnapshot(%q) accepted negative counts %+v", raw, got)
			}
			for k, v := range got.Tools {
				if v < 0 {
					t.Fatalf("decodeSnapshot(%q) accepted a negative count for %q", raw, k)
				}
			}
		}
	})
}
