package lint

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/internal/sariftest"
)

// writeRepo writes files under a fresh directory (no git: the walk lists
// them) and returns it.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestUnreadableSource: a source file vouch could not read fully is an
// error finding of its own, whatever the rules, unless the architecture's
// scope leaves the file out; it is never accepted by a baseline.
func TestUnreadableSource(t *testing.T) {
	const rules = "rules:\n  - name: no-child-process\n    forbid_import: {from: \"web/**\", to: \"child_process\"}\n"
	deep := strings.Repeat("`${", 501) + "1" + strings.Repeat("}`", 501) + "\nrequire('child_process')\n"
	tests := []struct {
		name  string
		arch  string
		files map[string]string
		want  []string // short(findings)
		msg   string   // the first finding's message
	}{
		{
			name:  "invalid UTF-8",
			arch:  rules,
			files: map[string]string{"web/evil.js": "// caf\xe9\nrequire(\"child_process\").execSync(\"id\")\n", "web/ok.js": "require('fs')\n"},
			want:  []string{"unreadable-source:unreadable_source:error:web/evil.js:::"},
			msg:   "source file not read (skipped: not valid UTF-8): its imports are not checked",
		},
		{
			name:  "NUL byte",
			arch:  rules,
			files: map[string]string{"web/evil.js": "require(\"child_process\")\n\x00\n", "web/ok.js": "require('fs')\n"},
			want:  []string{"unreadable-source:unreadable_source:error:web/evil.js:::"},
			msg:   "source file not read (skipped: binary file): its imports are not checked",
		},
		{
			name:  "over the size limit",
			arch:  rules,
			files: map[string]string{"web/evil.js": "require(\"child_process\")\n" + strings.Repeat("x\n", 2<<20), "web/ok.js": "require('fs')\n"},
			want:  []string{"unreadable-source:unreadable_source:error:web/evil.js:::"},
			msg:   "source file not read (skipped: 4194329 bytes is over the 4194304-byte size limit): its imports are not checked",
		},
		{
			name:  "extraction stopped",
			arch:  rules,
			files: map[string]string{"web/evil.js": deep, "web/ok.js": "require('fs')\n"},
			want:  []string{"unreadable-source:unreadable_source:error:web/evil.js:1::"},
			msg:   "source file read only up to line 1 (syntax error: template literals nested too deeply; the rest of the file is not read): imports after it are not checked",
		},
		{
			name:  "scoped out",
			arch:  "scope: {exclude: ['^web/evil']}\n" + rules,
			files: map[string]string{"web/evil.js": "// caf\xe9\n", "web/ok.js": "require('child_process')\n"},
			want:  []string{"no-child-process:forbid_import:error:web/ok.js:1:web/ok.js:child_process"},
		},
		{
			name:  "not a source file",
			arch:  rules,
			files: map[string]string{"web/notes.txt": "caf\xe9\x00\n", "web/ok.js": "require('child_process')\n"},
			want:  []string{"no-child-process:forbid_import:error:web/ok.js:1:web/ok.js:child_process"},
		},
		{
			name:  "readable",
			arch:  rules,
			files: map[string]string{"web/evil.js": "require('child_process')\n"},
			want:  []string{"no-child-process:forbid_import:error:web/evil.js:1:web/evil.js:child_process"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.files["architecture.yaml"] = tt.arch
			// Outside the rule's from glob, it keeps the rule live.
			tt.files["tools/t.js"] = "require('child_process')\n"
			root := writeRepo(t, tt.files)
			rep, err := Check(context.Background(), root, Config{NoCache: true, Out: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, short(rep.Findings)); diff != "" {
				t.Fatalf("findings (-want +got):\n%s", diff)
			}
			if tt.msg != "" && rep.Findings[0].Message != tt.msg {
				t.Errorf("message = %q, want %q", rep.Findings[0].Message, tt.msg)
			}
			if got, want := rep.Fails(false), len(tt.want) > 0; got != want {
				t.Errorf("Fails = %v, want %v", got, want)
			}
		})
	}
}

// TestUnreadableNotBaselined: neither a baseline nor --new-from-rev may
// accept an unreadable file, whose imports can change unseen.
func TestUnreadableNotBaselined(t *testing.T) {
	f := Finding{Rule: RuleUnreadable, Type: TypeUnreadable, Severity: "error", File: "web/evil.js"}
	if Baselinable(f) {
		t.Fatal("an unreadable-source finding is baselinable")
	}
	fs := []Finding{f}
	e := entryOf(f)
	e.Count = 1
	stale := ApplyBaseline(fs, []BaselineEntry{e})
	if fs[0].Baseline {
		t.Error("the baseline accepted an unreadable-source finding")
	}
	if len(stale) != 1 {
		t.Errorf("stale = %v, want the entry reported stale", stale)
	}
}

// TestUnreadableNoRules: without rules nothing is checked, so an
// unreadable file misses nothing and is not a finding.
func TestUnreadableNoRules(t *testing.T) {
	root := writeRepo(t, map[string]string{"web/evil.js": "// caf\xe9\n"})
	rep, err := Check(context.Background(), root, Config{NoCache: true, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 {
		t.Errorf("findings = %v, want none", short(rep.Findings))
	}
}

// TestUnreadableFormats: every format reports the unreadable file as a
// failure, and the SARIF log describes the rule and stays valid.
func TestUnreadableFormats(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"architecture.yaml": "rules:\n  - name: no-child-process\n    forbid_import: {from: \"web/**\", to: \"child_process\"}\n",
		"web/evil.js":       "// caf\xe9\nrequire(\"child_process\")\n",
		"web/ok.js":         "require('child_process')\n",
	})
	rep, err := Check(context.Background(), root, Config{NoCache: true, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteSARIF(&b, "test"); err != nil {
		t.Fatal(err)
	}
	sariftest.Validate(t, b.Bytes())
	for _, want := range []string{`"id": "unreadable-source"`, `"ruleId": "unreadable-source"`, `"uri": "web/evil.js"`} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("SARIF lacks %s:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := rep.WritePorcelain(&b); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "no-child-process:forbid_import:error:web/ok.js:1:web/ok.js:child_process\nunreadable-source:unreadable_source:error:web/evil.js:::\n"; got != want {
		t.Errorf("porcelain = %q, want %q", got, want)
	}
	b.Reset()
	if err := rep.WriteGitHub(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "::error file=web/evil.js,title=unreadable-source::source file not read (skipped: not valid UTF-8)") {
		t.Errorf("github output lacks the unreadable file:\n%s", b.String())
	}
	b.Reset()
	if err := rep.WriteJUnit(&b, false); err != nil {
		t.Fatal(err)
	}
	if _, after, ok := strings.Cut(b.String(), `<testcase name="unreadable-source"`); !ok || !strings.Contains(after, "<failure message=\"web/evil.js: source file not read (skipped: not valid UTF-8)") {
		t.Errorf("junit lacks the failing unreadable-source case:\n%s", b.String())
	}
	b.Reset()
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"rule": "unreadable-source",
      "type": "unreadable_source",
      "severity": "error",
      "file": "web/evil.js"`) {
		t.Errorf("json lacks the finding:\n%s", b.String())
	}
}
