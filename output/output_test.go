package output

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnnotationString(t *testing.T) {
	tests := []struct {
		name string
		a    Annotation
		want string
	}{
		{"unpositioned", Annotation{Level: "error", Title: "vouch", Message: "boom"}, "::error title=vouch::boom\n"},
		{"file line col title", Annotation{Level: "warning", File: "a.yaml", Line: 3, Col: 7, Title: "t", Message: "m"}, "::warning file=a.yaml,line=3,col=7,title=t::m\n"},
		{"col without line dropped", Annotation{Level: "error", File: "a.yaml", Col: 7, Message: "m"}, "::error file=a.yaml::m\n"},
		{"line without file dropped", Annotation{Level: "error", Line: 3, Message: "m"}, "::error::m\n"},
		{"default level", Annotation{Message: "m"}, "::error::m\n"},
		{"escaping", Annotation{Level: "error", File: "a,b:c.yaml", Title: "x%y", Message: "line1\nline2 100%\r"},
			"::error file=a%2Cb%3Ac.yaml,title=x%25y::line1%0Aline2 100%25%0D\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWriteAnnotations(t *testing.T) {
	var b bytes.Buffer
	if err := WriteAnnotations(&b, []Annotation{{Message: "a"}, {Level: "warning", Message: "b"}}); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "::error::a\n::warning::b\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestEncodeJSONKeepsHTMLCharacters(t *testing.T) {
	got, err := EncodeJSON(map[string]string{"edge": "a -> b & <c>"})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"edge\": \"a -> b & <c>\"\n}\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := EncodeJSON(func() {}); err == nil {
		t.Error("encoding a func succeeded, want an error")
	}
}

func TestColor(t *testing.T) {
	var buf bytes.Buffer // never a terminal
	tests := []struct {
		mode, noColor string
		want          bool
		wantErr       string
	}{
		{mode: "always", noColor: "1", want: true},
		{mode: "never", want: false},
		{mode: "auto", noColor: "", want: false},
		{mode: "auto", noColor: "1", want: false},
		{mode: "", want: false},
		{mode: "alway", wantErr: `unknown --color "alway" (did you mean "always"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.noColor, func(t *testing.T) {
			t.Setenv("NO_COLOR", tt.noColor)
			got, err := Color(tt.mode, &buf)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Color(%q) = %v, %v; want %v", tt.mode, got, err, tt.want)
			}
		})
	}
}

func TestSARIFBuilder(t *testing.T) {
	b := NewSARIF("1.2.3", "")
	b.AddRule(SARIFRule{ID: "r1", DefaultConfiguration: SARIFConfig{Level: "error"}, Properties: map[string]string{"vouch_type": "x"}})
	b.AddRule(SARIFRule{ID: "r2", DefaultConfiguration: SARIFConfig{Level: "warning"}})
	b.AddRule(SARIFRule{ID: "r1", DefaultConfiguration: SARIFConfig{Level: "note"}}) // duplicate: ignored
	if !b.AddResult(SARIFResult{RuleID: "r2", Level: "warning", Message: SARIFMessage{Text: "m"}, Locations: []SARIFLocation{FileLocation("a.go", 4, 0)}}) {
		t.Error("AddResult of a known rule reported false")
	}
	if b.AddResult(SARIFResult{RuleID: "nope"}) {
		t.Error("AddResult of an unknown rule reported true")
	}
	b.Notify("error", "bad config", "arch.yaml", 2, 5)
	b.Failed()
	log := b.Log()
	run := log.Runs[0]
	if got := len(run.Tool.Driver.Rules); got != 2 {
		t.Fatalf("%d rules, want 2", got)
	}
	if run.Tool.Driver.Rules[0].DefaultConfiguration.Level != "error" {
		t.Error("the duplicate rule replaced the first")
	}
	if diff := cmp.Diff([]SARIFResult{{RuleID: "r2", RuleIndex: 1, Level: "warning", Message: SARIFMessage{Text: "m"},
		Locations: []SARIFLocation{{Physical: &SARIFPhysical{Artifact: SARIFArtifact{URI: "a.go", URIBaseID: SRCRoot}, Region: &SARIFRegion{StartLine: 4}}}}}}, run.Results); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	inv := run.Invocations[0]
	if inv.ExecutionSuccessful || len(inv.Notifications) != 1 || inv.Notifications[0].Locations[0].Physical.Region.StartColumn != 5 {
		t.Errorf("invocation = %+v", inv)
	}
	if log.Version != "2.1.0" || run.Tool.Driver.Version != "1.2.3" || run.Tool.Driver.SemanticVersion != "1.2.3" {
		t.Errorf("versions = %q, %q, %q", log.Version, run.Tool.Driver.Version, run.Tool.Driver.SemanticVersion)
	}
	if base := run.OriginalURIBaseIDs[SRCRoot]; base.URI != "" || base.Description == nil {
		t.Errorf("root unknown: %s base = %+v, want a description and no uri", SRCRoot, base)
	}
}

func TestSARIFRootURI(t *testing.T) {
	root := filepath.Join(t.TempDir(), "my repo")
	got := NewSARIF("dev", root).Log().Runs[0].OriginalURIBaseIDs[SRCRoot].URI
	want := "file://" + strings.ReplaceAll(filepath.ToSlash(root), " ", "%20") + "/"
	if !strings.HasPrefix(filepath.ToSlash(root), "/") {
		want = "file:///" + strings.ReplaceAll(filepath.ToSlash(root), " ", "%20") + "/"
	}
	if got != want {
		t.Errorf("%s uri = %q, want %q", SRCRoot, got, want)
	}
}

func TestSARIFVersions(t *testing.T) {
	for _, tt := range []struct{ in, numeric, semantic string }{
		{"v1.2.3", "1.2.3", "1.2.3"},
		{"1.2.3", "1.2.3", "1.2.3"},
		{"v1.2.3-rc.1", "1.2.3", "1.2.3-rc.1"},
		{"v0.0.0-20240102150405-abcdef123456", "0.0.0", "0.0.0-20240102150405-abcdef123456"},
		{"v1.2.3+dirty", "1.2.3", "1.2.3+dirty"},
		{"v1.2.3_odd", "1.2.3", "1.2.3"},
		{"dev", "0.0.0", "0.0.0-dev"},
		{"devel-abc123", "0.0.0", "0.0.0-devel-abc123"},
		{"(devel)", "0.0.0", "0.0.0-devel"},
		{"", "0.0.0", "0.0.0"},
	} {
		n, s := SARIFVersions(tt.in)
		if n != tt.numeric || s != tt.semantic {
			t.Errorf("SARIFVersions(%q) = %q, %q; want %q, %q", tt.in, n, s, tt.numeric, tt.semantic)
		}
	}
}

func TestFileLocation(t *testing.T) {
	for _, tt := range []struct {
		file      string
		line, col int
		uri       string
		wantLine  int
	}{
		{"src/a.go", 3, 2, "src/a.go", 3},
		{"a b/c%.go", 0, 0, "a%20b/c%25.go", 1},
		{"c:d.go", 5, 0, "./c:d.go", 5},
	} {
		l := FileLocation(tt.file, tt.line, tt.col)
		p := l.Physical
		if p.Artifact.URI != tt.uri || p.Artifact.URIBaseID != SRCRoot || p.Region.StartLine != tt.wantLine || p.Region.StartColumn != tt.col {
			t.Errorf("FileLocation(%q, %d, %d) = %+v %+v", tt.file, tt.line, tt.col, p.Artifact, *p.Region)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 errors"}, {1, "1 error"}, {2, "2 errors"}, {-1, "-1 errors"}} {
		if got := Count(tt.n, "error"); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestParseTargets(t *testing.T) {
	formats := []string{"text", "json", "sarif", "junit"}
	tests := []struct {
		specs   []string
		want    []Target
		wantErr string
	}{
		{specs: []string{"json=r.json", "sarif=out/x"}, want: []Target{{"json", "r.json"}, {"sarif", "out/x"}}},
		{specs: []string{"report.sarif", "junit.xml", "a.JSON"}, want: []Target{{"sarif", "report.sarif"}, {"junit", "junit.xml"}, {"json", "a.JSON"}}},
		{specs: []string{"report.html"}, wantErr: "--output report.html: say which format to write, as --output FORMAT=report.html (FORMAT one of text, json, sarif, junit)"},
		{specs: []string{"jsno=r.json"}, wantErr: `--output jsno=r.json: unknown format "jsno" (did you mean "json"?); use one of text, json, sarif, junit`},
		{specs: []string{"json="}, wantErr: "--output json=: give a file name (standard output takes --format)"},
		{specs: []string{"json=a", "text=./a"}, wantErr: "--output text=./a: ./a is named twice"},
	}
	for _, tt := range tests {
		got, err := ParseTargets(tt.specs, formats)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("ParseTargets(%q) error = %v, want %s", tt.specs, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("ParseTargets(%q): %v", tt.specs, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseTargets(%q) (-want +got):\n%s", tt.specs, diff)
		}
	}
}

func TestCheckOutDir(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "build.json")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		dir, wantErr string
	}{
		{"", ""},
		{".vouch", ""},
		{"build/vouch", ""},
		{existing, ""},
		{"results.sarif", "--out is the directory for the program and trace, and results.sarif looks like a report file: write a report with --output sarif=results.sarif"},
		{"report.JSON", "--out is the directory for the program and trace, and report.JSON looks like a report file: write a report with --output json=report.JSON"},
	} {
		err := CheckOutDir(tt.dir)
		if (err == nil) != (tt.wantErr == "") || (err != nil && err.Error() != tt.wantErr) {
			t.Errorf("CheckOutDir(%q) = %v, want %q", tt.dir, err, tt.wantErr)
		}
	}
}

func TestPainter(t *testing.T) {
	on, off := Painter{On: true}, Painter{}
	if got := on.Fail("FAIL"); got != "\x1b[31;1mFAIL\x1b[0m" {
		t.Errorf("Fail = %q", got)
	}
	if got := on.Pass("ok") + on.Warn("w"); got != "\x1b[32mok\x1b[0m\x1b[33mw\x1b[0m" {
		t.Errorf("Pass+Warn = %q", got)
	}
	if got := off.Fail("FAIL") + on.Pass(""); got != "FAIL" {
		t.Errorf("off or empty = %q", got)
	}
	t.Setenv("NO_COLOR", "1")
	if p, err := NewPainter("always", &bytes.Buffer{}); err != nil || !p.On {
		t.Errorf("NewPainter(always) = %+v, %v", p, err)
	}
	if p, err := NewPainter("auto", os.Stdout); err != nil || p.On {
		t.Errorf("NewPainter(auto) with NO_COLOR = %+v, %v", p, err)
	}
	if _, err := NewPainter("blue", os.Stdout); err == nil {
		t.Error("NewPainter(blue) succeeded")
	}
}
