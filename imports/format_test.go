package imports

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/analysis"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/parse"

	"github.com/vouch-dev/vouch/output"
)

// update rewrites golden files instead of comparing against them; it is
// shared by every golden test in the package.
var update = flag.Bool("update", false, "rewrite golden files")

// formatFixture is a small repository exercising every output field:
// aliases, names, constraints, unresolved reasons, escapes and a warning.
var formatFixture = map[string]string{
	"go.mod":          "module example.com/fx\n\nrequire github.com/pkg/errors v0.9.1\n",
	"cmd/main.go":     "//go:build linux\n\npackage main\n\nimport (\n\t\"fmt\"\n\terrs \"github.com/pkg/errors\"\n\t_ \"example.com/fx/lib\"\n\t\"example.com/fx/gone\"\n)\n",
	"lib/lib.go":      "package lib\n\nimport \"caf\u00e9/\\\"q\"\n",
	"app/__init__.py": "",
	"app/core.py":     "from . import util as u, helpers\nimport numpy.linalg\nfrom ...far import x\n",
	"app/util.py":     "import app.core\nfrom x imp y\n",
	"web/a.ts":        "import { b } from './b';\n",
	"web/b.ts":        "export const b = 1;\n",
}

func TestWriteFormatsGolden(t *testing.T) {
	root := writeTree(t, formatFixture)
	res := mustScan(t, root, Options{NoCache: true})
	// Through Render, so the golden files also prove each format name
	// picks its writer.
	for _, tc := range []struct{ name, format string }{
		{"imports.txt", "text"},
		{"imports.json", "json"},
		{"imports.dl", "dl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Render(&buf, tc.format, res, output.Painter{}); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "format", tc.name)
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", golden, diff)
			}
		})
	}
}

func TestRenderUnknownFormat(t *testing.T) {
	var buf bytes.Buffer
	err := Render(&buf, "sarif", &Result{}, output.Painter{})
	if err == nil || !strings.Contains(err.Error(), `unknown format "sarif"`) || buf.Len() != 0 {
		t.Errorf("Render(sarif) = %v, wrote %q; want an unknown-format error and nothing written", err, buf.String())
	}
}

// TestDatalogParses proves the dl output is a valid Mangle unit whose
// facts carry the values the records hold, escapes included.
func TestDatalogParses(t *testing.T) {
	root := writeTree(t, formatFixture)
	res := mustScan(t, root, Options{NoCache: true})
	res.Records = append(res.Records, Record{
		File: "odd\x01\t\n\"'\\\u00e9\U0001F600.py", Line: 1, Column: 1, Lang: Python, Kind: KindTypeOnly,
		Spec: "\x7f\xff", Resolution: Resolution{Kind: Unresolved, Reason: "why"},
	})
	var buf bytes.Buffer
	if err := WriteDatalog(&buf, res); err != nil {
		t.Fatal(err)
	}
	unit, err := parse.Unit(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatalf("parse.Unit: %v\n%s", err, buf.String())
	}
	if _, err := analysis.AnalyzeOneUnit(unit, nil); err != nil {
		t.Fatalf("analysis: %v", err)
	}
	sites := map[string]bool{}
	for _, cl := range unit.Clauses {
		if cl.Head.Predicate.Symbol != "import_site" {
			continue
		}
		file, _ := cl.Head.Args[0].(ast.Constant).StringValue()
		spec, _ := cl.Head.Args[5].(ast.Constant).StringValue()
		line, _ := cl.Head.Args[1].(ast.Constant).NumberValue()
		col, _ := cl.Head.Args[2].(ast.Constant).NumberValue()
		sites[fmt.Sprintf("%s|%d|%d|%s", file, line, col, spec)] = true
	}
	for _, r := range res.Records {
		spec := r.Spec
		if spec == "\x7f\xff" {
			spec = "\x7f\uFFFD" // invalid UTF-8 cannot be a Mangle string
		}
		if !sites[fmt.Sprintf("%s|%d|%d|%s", r.File, r.Line, r.Column, spec)] {
			t.Errorf("no import_site fact for %q %q", r.File, spec)
		}
	}
	if len(sites) != len(res.Records) {
		t.Errorf("%d distinct import_site facts for %d records", len(sites), len(res.Records))
	}
}

func TestDLString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain/path", `"plain/path"`},
		{"q\"s'b\\", `"q\"s\'b\\"`},
		{"\n\t\r\x00\x7f", `"\n\t\x0d\x00\x7f"`},
		{"é😀", `"\u{00e9}\u{1f600}"`},
		{"\xff", `"\u{fffd}"`},
	}
	for _, tt := range tests {
		if got := dlString(tt.in); got != tt.want {
			t.Errorf("dlString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if got := dlName("type-only"); got != "/type-only" {
		t.Errorf("dlName = %s", got)
	}
}
