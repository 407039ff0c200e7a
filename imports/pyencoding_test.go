package imports

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPyEncodingProblem: the coding line decides how Python reads a file;
// vouch reads UTF-8 and ASCII-compatible single-byte encodings and calls
// anything else unreadable, found where CPython finds the declaration.
// (Each unreadable case below runs an import under python3 that a UTF-8
// reading sees as a comment.)
func TestPyEncodingProblem(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"no declaration", "import os\n", ""},
		{"no declaration, invalid UTF-8", "# caf\xe9\nimport os\n", "not valid UTF-8"},
		{"utf-8", "# -*- coding: utf-8 -*-\nimport os\n", ""},
		{"utf_8 suffix form", "# coding=UTF_8-unix\nimport os\n", ""},
		{"utf8 alias, invalid bytes", "# coding: utf8\n# caf\xe9\n", "not valid UTF-8"},
		{"latin-1", "# -*- coding: latin-1 -*-\n# caf\xe9\nimport os\n", ""},
		{"iso-8859-15 on line 2", "#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-15 :\n# \xa4\n", ""},
		{"cp1252", "# coding: windows-1252\n# \x93quoted\x94\n", ""},
		{"ascii alias", "# coding: us-ascii\nimport os\n", ""},
		{"utf-7", "# coding: utf-7\n# note +AAo-import subprocess+AAo-print(1)\n",
			"declares encoding utf-7 on line 1, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"utf7 spelled otherwise", "# coding=UTF7\n#+AAo-import subprocess\n",
			"declares encoding UTF7 on line 1, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"unicode_escape", "# coding: unicode_escape\n# note \\nimport subprocess\\n\n",
			"declares encoding unicode_escape on line 1, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"raw_unicode_escape", "# coding: raw-unicode-escape\n", "declares encoding raw-unicode-escape on line 1, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"utf-16", "# coding: utf-16\n", "declares encoding utf-16 on line 1, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"shift_jis", "# coding: shift_jis\n", "declares encoding shift_jis on line 1, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"EBCDIC", "# coding: cp500\n", "declares encoding cp500 on line 1, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"line 2 after a blank line", "\n# coding: utf-7\n", "declares encoding utf-7 on line 2, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"line 2 after CR", "#!/usr/bin/python\r# coding: utf-7\r# +AAo-import subprocess\r", "declares encoding utf-7 on line 2, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"line 2 after code is not a declaration", "x = 1\n# coding: utf-7\n# +AAo-import subprocess\n", ""},
		{"line 3 is not a declaration", "#\n#\n# coding: utf-7\n", ""},
		{"not in a comment", "s = '# coding: utf-7'\n", ""},
		{"first complete coding wins", "# coding: # coding: utf-7\n", "declares encoding utf-7 on line 1, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)"},
		{"BOM and latin-1", "\xef\xbb\xbf# coding: latin-1\n", "declares encoding latin-1 on line 1 after a UTF-8 byte order mark"},
		{"BOM and utf-8", "\xef\xbb\xbf# coding: utf-8\nimport os\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pyEncodingProblem([]byte(tt.src)); got != tt.want {
				t.Errorf("pyEncodingProblem(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

// TestScanPythonEncodings: a declared single-byte file is read (its
// names given in UTF-8); a declared codec vouch does not read leaves the
// file unread.
func TestScanPythonEncodings(t *testing.T) {
	root := writeTree(t, map[string]string{
		"app/latin.py": "# -*- coding: latin-1 -*-\n# caf\xe9\nimport subprocess\nimport caf\xe9\n",
		"app/u7.py":    "# coding: utf-7\n# note +AAo-import subprocess+AAo-print(1)\n",
		"app/ue.py":    "# coding: unicode_escape\n# note \\nimport subprocess\\n\n",
	})
	res := mustScan(t, root, Options{NoCache: true})
	if diff := cmp.Diff([]string{"app/latin.py:3 subprocess -> stdlib subprocess", "app/latin.py:4 café -> external café"}, siteKeys(res.Records)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	var warns []string
	for _, w := range res.Warnings {
		if !w.Unread {
			t.Errorf("warning %v is not marked unread", w)
		}
		warns = append(warns, w.File+": "+strings.SplitN(w.Message, ",", 2)[0])
	}
	want := []string{"app/u7.py: skipped: declares encoding utf-7 on line 1", "app/ue.py: skipped: declares encoding unicode_escape on line 1"}
	if diff := cmp.Diff(want, warns); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
