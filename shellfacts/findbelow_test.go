package shellfacts

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFindXargsWrites: a writer given find -exec's {} writes below find's
// starting points (WritesBelow, with the -name tests in BelowFilters); one
// fed by xargs or parallel writes a target only known at run time, while
// its static operands stay plain paths.
func TestFindXargsWrites(t *testing.T) {
	for _, tc := range []struct {
		cmd        string
		below      []string // WritesBelow
		delBelow   []string // DeletesBelow
		filters    []BelowFilter
		writes     []string
		unresolved []string // WritesUnresolved
	}{
		{cmd: `find . -name '*.yaml' -exec sed -i s/a/b/ {} \;`, below: []string{"/w"}, filters: []BelowFilter{{"/w", [][]string{{"*.yaml"}}}}},
		{cmd: `find /etc -name "*.conf" -exec sed -i s/a/b/ {} +`, below: []string{"/etc"}, filters: []BelowFilter{{"/etc", [][]string{{"*.conf"}}}}},
		{cmd: `find . -type f -exec truncate -s0 {} +`, below: []string{"/w"}},
		{cmd: `find . -name a -o -name b -exec cp x {} \;`, below: []string{"/w"}},
		{cmd: `find . -name '*.o' -delete`, delBelow: []string{"/w"}, filters: []BelowFilter{{"/w", [][]string{{"*.o"}}}}},
		{cmd: `find . -iname '*.O' -type f -exec rm {} +`, delBelow: []string{"/w"}, filters: []BelowFilter{{"/w", [][]string{{"*.O"}}}}},
		{cmd: `find . ! -name '*.o' -delete`, delBelow: []string{"/w"}},
		{cmd: `find "$D" -name x -exec sed -i d {} +`, unresolved: []string{`"$D"`}},
		{cmd: `find . -name x -exec cat {} +`},
		{cmd: `ls | xargs sed -i d`, unresolved: []string{"{arguments from input}"}},
		{cmd: `echo f | xargs sed -i d`, writes: []string{"/w/f"}}, // static input
		{cmd: `ls | xargs -I% cp x %`, unresolved: []string{"%"}},
		{cmd: `ls | parallel truncate -s0 {}`, unresolved: []string{"{}"}},
		{cmd: `ls | parallel truncate -s0 {.}.bak`, unresolved: []string{"{.}.bak"}},
		{cmd: `ls | parallel sed -i 's/{a}/b/'`, unresolved: []string{"{arguments from input}"}},
		{cmd: `xargs -a list cp -t /etc`, writes: []string{"/etc"}},
		{cmd: `ls | xargs grep x`},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			f, err := Parse(tc.cmd, Options{Cwd: "/w"})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what      string
				got, want any
			}{
				{"writes below", f.WritesBelow, tc.below},
				{"deletes below", f.DeletesBelow, tc.delBelow},
				{"filters", f.BelowFilters, tc.filters},
				{"writes", f.Writes, tc.writes},
				{"unresolved writes", f.WritesUnresolved, tc.unresolved},
			} {
				if d := cmp.Diff(c.want, c.got); d != "" {
					t.Errorf("%s (-want +got):\n%s", c.what, d)
				}
			}
		})
	}
}

func TestFindNameFilter(t *testing.T) {
	for expr, want := range map[string][]string{
		"-name *.go":                      {"*.go"},
		"-type f -name *.go -iname x*":    {"*.go", "x*"},
		"-name *.go -o -name *.py":        nil,
		"! -name *.go":                    nil,
		"-not -name *.go":                 nil,
		"( -name a )":                     nil,
		"-type f":                         nil,
		"-name a -exec rm {} ; -name b":   {"a", "b"},
		"-maxdepth 2 -name *.pyc -delete": {"*.pyc"},
		"-newerXY x -name a":              nil,
		"-name a , -name b":               nil,
	} {
		var fs []field
		for _, s := range strings.Split(expr, " ") {
			fs = append(fs, field{s: s, static: true, raw: s})
		}
		if got := findNameFilter(fs); !cmp.Equal(got, want) {
			t.Errorf("%q: %q, want %q", expr, got, want)
		}
	}
}
