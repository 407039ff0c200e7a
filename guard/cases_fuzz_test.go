package guard

import (
	"testing"
)

// FuzzLoadCases: a guard test file either loads or is refused with
// positioned errors; it never panics, and a loaded file's cases all carry
// a name, a tool and an expected decision of allow, deny or ask.
func FuzzLoadCases(f *testing.F) {
	for _, s := range []string{
		"cases:\n  - name: rm\n    tool: Bash\n    args: {command: rm -rf /}\n    expect: deny\n",
		"policy: p.yaml\ncases:\n  - {name: env, tool: Read, args: {file_path: .env}, expect: deny, rules: [no-env]}\n",
		"cases:\n  - name: post\n    tool: Bash\n    phase: post\n    result: {ok: true}\n    counters: {attempts: 3}\n    expect: allow\n    rules: []\n",
		"cases: &a [*a]\n",
		"cases:\n  - tools: Bash\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, err := LoadCases("cases.yaml", data)
		if err != nil {
			if cf != nil {
				t.Fatalf("an error (%v) came with a case file", err)
			}
			return
		}
		for i, c := range cf.Cases {
			if c.Name == "" || c.Call.Tool == "" || (c.Expect != Allow && c.Expect != Deny && c.Expect != Ask) {
				t.Fatalf("case %d loaded without a name, a tool or a valid expected decision: %+v", i, c)
			}
		}
	})
}
