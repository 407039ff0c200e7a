package shellfacts

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestParseCodexPatch pins which files a Codex apply_patch patch names,
// and that text which is not such a patch is an error, never "no files".
func TestParseCodexPatch(t *testing.T) {
	tests := []struct {
		patch string
		want  []PatchFile
		err   string
	}{
		{"*** Begin Patch\n*** Add File: /etc/cron.d/evil\n+* * * * * root sh\n*** End Patch\n",
			[]PatchFile{{PatchAdd, "/etc/cron.d/evil"}}, ""},
		{"*** Begin Patch\n*** Update File: .vouch/guard.yaml\n@@\n-a\n+b\n*** End Patch",
			[]PatchFile{{PatchUpdate, ".vouch/guard.yaml"}}, ""},
		{"*** Begin Patch\n*** Update File: a.go\n*** Move to: ../../x.go\n@@ func f\n ctx\n-a\n+b\n*** End of File\n*** Delete File: b.go\n*** Add File: c.go\n+x\n*** End Patch",
			[]PatchFile{{PatchUpdate, "a.go"}, {PatchMove, "../../x.go"}, {PatchDelete, "b.go"}, {PatchAdd, "c.go"}}, ""},
		// A context line that looks like a header is content; a header
		// after an Add's body, indented, is a header (Codex trims it).
		{"*** Begin Patch\n*** Update File: doc.md\n@@\n *** Add File: /etc/x\n+y\n*** End Patch",
			[]PatchFile{{PatchUpdate, "doc.md"}}, ""},
		{"*** Begin Patch\n*** Add File: a\n+x\n  *** Delete File: .vouch/guard.yaml\n*** End Patch",
			[]PatchFile{{PatchAdd, "a"}, {PatchDelete, ".vouch/guard.yaml"}}, ""},
		// Headers in another case, CRLF lines, the heredoc wrapper.
		{"<<'EOF'\r\n*** begin patch\r\n*** ADD FILE: x\r\n+1\r\n*** end patch\r\nEOF",
			[]PatchFile{{PatchAdd, "x"}}, ""},
		{"rm -rf /", nil, "first line"},
		{"*** Begin Patch\n*** Add File: x\n+1\n", nil, "last line"},
		{"*** Begin Patch\n*** End Patch", nil, "names no file"},
		{"*** Begin Patch\n*** Add File: x\n+1\nrm -rf /\n*** End Patch", nil, "not a file header"},
		{"*** Begin Patch\n*** Move to: /etc/x\n*** End Patch", nil, "not a file header"},
		{"*** Begin Patch\n*** Add File:   \n*** End Patch", nil, "names no file"},
		{"*** Begin Patch\n*** Add File: x\n+1\n*** End Patch\n*** Begin Patch\n*** Add File: /etc/y\n*** End Patch", nil, "not a file header"},
	}
	for _, tt := range tests {
		got, err := ParseCodexPatch(tt.patch)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseCodexPatch(%q) = %v, %v; want error %q", tt.patch, got, err, tt.err)
		case tt.err == "" && (err != nil || !reflect.DeepEqual(got, tt.want)):
			t.Errorf("ParseCodexPatch(%q) = %v, %v; want %v", tt.patch, got, err, tt.want)
		}
	}
}

// TestParseApplyPatchCommand pins apply_patch as Codex's shell tool runs
// it (an argument or a here-document): the files of the patch are
// written, updated or deleted, relative to the shell's directory, and a
// patch vouch cannot read is an unresolved write.
func TestParseApplyPatchCommand(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: /etc/cron.d/evil\n+x\n*** Update File: .vouch/guard.yaml\n@@\n-a\n+b\n*** Delete File: old.txt\n*** End Patch\n"
	tests := []struct {
		cmd                    string
		reads, writes, deletes []string
		unresolved             bool
	}{
		{"apply_patch '" + patch + "'", []string{"/r/.vouch/guard.yaml"}, []string{"/etc/cron.d/evil", "/r/.vouch/guard.yaml"}, []string{"/r/old.txt"}, false},
		{"cd sub && applypatch <<'EOF'\n" + patch + "EOF\n", []string{"/r/sub/.vouch/guard.yaml"}, []string{"/etc/cron.d/evil", "/r/sub/.vouch/guard.yaml"}, []string{"/r/sub/old.txt"}, false},
		{"bash -lc \"apply_patch <<'EOF'\n" + patch + "EOF\n\"", []string{"/r/.vouch/guard.yaml"}, []string{"/etc/cron.d/evil", "/r/.vouch/guard.yaml"}, []string{"/r/old.txt"}, false},
		{"apply_patch \"$P\"", nil, nil, nil, true},
		{"apply_patch < p.txt", []string{"/r/p.txt"}, nil, nil, true},
		{"apply_patch 'not a patch'", nil, nil, nil, true},
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := func(l []string) []string {
		out := slices.Clone(l)
		for i, p := range out {
			if r, ok := strings.CutPrefix(p, "/r/"); ok {
				out[i] = filepath.Join(dir, r)
			}
		}
		return out
	}
	for _, tt := range tests {
		f, err := Parse(tt.cmd, Options{Cwd: dir})
		if err != nil {
			t.Fatal(err)
		}
		tt.reads, tt.writes, tt.deletes = in(tt.reads), in(tt.writes), in(tt.deletes)
		if !slices.Equal(f.Reads, tt.reads) || !slices.Equal(f.Writes, tt.writes) || !slices.Equal(f.Deletes, tt.deletes) || (len(f.WritesUnresolved) > 0) != tt.unresolved {
			t.Errorf("Parse(%q): reads %q writes %q deletes %q unresolved %q; want %q %q %q unresolved %v",
				tt.cmd, f.Reads, f.Writes, f.Deletes, f.WritesUnresolved, tt.reads, tt.writes, tt.deletes, tt.unresolved)
		}
	}
}

// FuzzParseCodexPatch: any text either is refused or names at least one
// file, each with a known operation and a non-empty path that the text
// holds, and the same text always gives the same answer.
func FuzzParseCodexPatch(f *testing.F) {
	for _, seed := range []string{
		"*** Begin Patch\n*** Add File: /etc/cron.d/evil\n+x\n*** End Patch\n",
		"*** Begin Patch\n*** Update File: a.go\n*** Move to: ../../x.go\n@@ func f\n ctx\n-a\n+b\n*** End of File\n*** Delete File: b.go\n*** End Patch",
		"<<'EOF'\r\n*** begin patch\r\n*** ADD FILE: x\r\n+1\r\n*** end patch\r\nEOF",
		"*** Begin Patch\n*** Add File: a\n+x\n  *** Delete File: .vouch/guard.yaml\n*** End Patch",
		"*** Begin Patch\n*** Update File: doc.md\n@@\n *** Add File: /etc/x\n+y\n*** End Patch",
		"*** Begin Patch\n*** Move to: /etc/x\n*** End Patch",
		"*** Begin Patch\n*** End Patch",
		"rm -rf /",
		"",
	} {
		f.Add(seed)
	}
	ops := map[PatchOp]bool{PatchAdd: true, PatchUpdate: true, PatchDelete: true, PatchMove: true}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := ParseCodexPatch(text)
		again, err2 := ParseCodexPatch(text)
		if (err == nil) != (err2 == nil) || !reflect.DeepEqual(got, again) {
			t.Fatalf("two parses differ: %v, %v and %v, %v", got, err, again, err2)
		}
		if err != nil {
			if got != nil {
				t.Fatalf("error %v with files %v", err, got)
			}
			return
		}
		if len(got) == 0 {
			t.Fatal("a patch that names no file parsed without error")
		}
		for _, pf := range got {
			if !ops[pf.Op] {
				t.Errorf("unknown operation %q", pf.Op)
			}
			if strings.TrimSpace(pf.Path) == "" || !strings.Contains(text, pf.Path) {
				t.Errorf("path %q is empty or not in the text", pf.Path)
			}
		}
	})
}
