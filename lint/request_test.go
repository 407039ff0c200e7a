package lint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vouch-dev/vouch/yamldoc"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	withSection := filepath.Join(dir, "with")
	without := filepath.Join(dir, "without")
	for d, yaml := range map[string]string{
		withSection: "architecture:\n  config: arch.yaml\n  baseline: base.json\n  strict: true\n  new_from: main\n",
		without:     "rulespec: analysis/rulespec.yaml\n",
	} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "vouch.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	no := false
	tests := []struct {
		name                                string
		req                                 Request
		file, baseline, newFrom, requiredBy string
		strict                              bool
		today                               time.Time
		err                                 string
	}{
		{name: "section supplies defaults", req: Request{Path: withSection},
			file: filepath.Join(withSection, "arch.yaml"), baseline: filepath.Join(withSection, "base.json"), newFrom: "main",
			requiredBy: "vouch.yaml's architecture: section", strict: true},
		{name: "flags win", req: Request{Path: withSection, Config: "x.yaml", Baseline: "b.json", Strict: &no, NewFromRev: "v1", NewFromRevSet: true, Today: "2026-01-02"},
			file: "x.yaml", baseline: "b.json", newFrom: "v1", requiredBy: "--config", today: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
		{name: "no section asks for nothing", req: Request{Path: without}},
		{name: "update-baseline without a baseline", req: Request{Path: without, UpdateBaseline: true}, err: "--update-baseline needs --baseline"},
		{name: "update-baseline with new_from", req: Request{Path: withSection, UpdateBaseline: true}, err: "cannot be combined with --new-from-rev"},
		{name: "empty new-from-rev", req: Request{Path: without, NewFromRevSet: true}, err: "--new-from-rev needs a revision"},
		{name: "bad date", req: Request{Path: without, Today: "2026-13-01"}, err: `--today "2026-13-01" is not a date`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, cfg, err := Resolve(tt.req)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if root != tt.req.Path {
				t.Errorf("root = %q, want %q", root, tt.req.Path)
			}
			if cfg.File != tt.file || cfg.Baseline != tt.baseline || cfg.NewFromRev != tt.newFrom || cfg.RequiredBy != tt.requiredBy || cfg.Strict != tt.strict || !cfg.Today.Equal(tt.today) {
				t.Errorf("cfg = %+v", cfg)
			}
		})
	}
}

func TestRenderErrors(t *testing.T) {
	errs := []*ConfigError{{File: "arch.yaml", Msg: "bad rule"}}
	for _, format := range Formats() {
		var b strings.Builder
		if err := RenderErrors(&b, format, errs, RenderOptions{Version: "test"}); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		machine := format == "json" || format == "sarif" || format == "github" || format == "junit"
		if got := strings.Contains(b.String(), "bad rule"); got != machine {
			t.Errorf("%s: output mentions the error = %v, want %v:\n%s", format, got, machine, b.String())
		}
	}
}

func TestErrorsOfAndNotes(t *testing.T) {
	positioned := &ConfigErrors{List: []*ConfigError{{File: "architecture.yaml", Pos: yamldoc.Pos{Line: 3, Col: 5}, Msg: "unknown key"}}}
	if got := ErrorsOf(positioned); len(got) != 1 || got[0] != positioned.List[0] {
		t.Errorf("ErrorsOf(*ConfigErrors) = %v, want its list", got)
	}
	if got := ErrorsOf(fmt.Errorf("lint: %w", positioned)); len(got) != 1 || got[0].Line != 3 {
		t.Errorf("ErrorsOf(wrapped) = %v, want the wrapped list", got)
	}
	if got := ErrorsOf(errors.New("at most one PATH argument")); len(got) != 1 || got[0].Msg != "at most one PATH argument" || got[0].File != "" {
		t.Errorf("ErrorsOf(plain) = %+v, want one error without a position", got)
	}

	var b strings.Builder
	rep := &Report{Preexisting: 2}
	rep.WriteNotes(&b, Config{NewFromRev: "main", NewFromFrom: "--new-from-rev"})
	if want := "vouch: lint: 2 findings already present at main left out (--new-from-rev)\n"; b.String() != want {
		t.Errorf("WriteNotes: %q, want %q", b.String(), want)
	}
	b.Reset()
	rep.WriteNotes(&b, Config{})
	if b.String() != "" {
		t.Errorf("WriteNotes without notices or --new-from-rev: %q, want nothing", b.String())
	}
}
