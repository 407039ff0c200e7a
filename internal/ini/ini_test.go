package ini

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	src := "; comment\n[metadata]\nname = demo\n\n[options]\nPackage_Dir =\n    =lib\n    # note\n\n    extra = src\npackages: find:\n[importlinter:contract:1]\nlayers=\n  a | b\n  c # trailing\n"
	f, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	opt := f.Section("options")
	e, ok := opt.Get("package_dir")
	if !ok {
		t.Fatal("package_dir missing")
	}
	if diff := cmp.Diff(Entry{Key: "package_dir", Value: "=lib\nextra = src", Line: 6, Lines: []int{7, 10}}, e); diff != "" {
		t.Errorf("entry (-want +got):\n%s", diff)
	}
	if e, _ := opt.Get("packages"); e.Value != "find:" {
		t.Errorf("packages = %q", e.Value)
	}
	items, lines := f.Section("importlinter:contract:1").Entries[0].List()
	if diff := cmp.Diff([]string{"a | b", "c"}, items); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{14, 15}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"key = v\n", "1:1: entry before the first [section] header"},
		{"[a]\n[a]\n", "2:1: section [a] appears twice"},
		{"[a]\nk=1\nK=2\n", `3:1: key "k" appears twice in [a]`},
		{"[a\n", "1:1: section header has no closing ]"},
		{"[a]\n  = v\n", `2:3: want key = value, found "= v"`},
	} {
		_, err := Parse([]byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v, want %s", tc.src, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"[a]\nk = v\n  w\n", "[importlinter]\nroot_package = x\n", "k\n", "[x]\n;c\n#c\nk: v\n", strings.Repeat("[s]\n", 3)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if err != nil {
			var e *Error
			if !asError(err, &e) || e.Line < 1 || e.Col < 1 {
				t.Fatalf("unpositioned error %v", err)
			}
			return
		}
		for _, s := range file.Sections {
			for _, e := range s.Entries {
				items, lines := e.List()
				if len(items) != len(lines) {
					t.Fatalf("items %d lines %d", len(items), len(lines))
				}
			}
		}
	})
}

func asError(err error, e **Error) bool {
	x, ok := err.(*Error)
	*e = x
	return ok
}
