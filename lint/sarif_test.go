package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vouch-dev/vouch/internal/sariftest"
	"github.com/vouch-dev/vouch/yamldoc"
)

func TestSARIFValidates(t *testing.T) {
	o := lintYAML(t, seedGraph+`rules:
  - {name: d, description: no service imports, deny: {from: {kind: service}, to: {}}}
  - {name: c, forbid_cycles: {}}
  - {name: r, severity: warn, require: {for: {kind: service}, has_edge_to: {kind: adr}}}
`, seedFiles, seedImports)
	full := NewReport(o, false)
	full.Count()
	failed := &Report{Version: ReportVersion, Errors: []*ConfigError{{File: "architecture.yaml", Pos: yamldoc.Pos{Line: 3, Col: 5}, Msg: `unknown key "frm"`}, {Msg: "no line"}}}
	for name, r := range map[string]*Report{"findings": full, "config errors": failed, "empty": {}} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := r.WriteSARIF(&b, "test"); err != nil {
				t.Fatal(err)
			}
			sariftest.Validate(t, b.Bytes())
			var log struct {
				Runs []struct {
					Results     []json.RawMessage
					Invocations []struct{ ToolExecutionNotifications []json.RawMessage }
				}
			}
			_ = json.Unmarshal(b.Bytes(), &log)
			if got, want := len(log.Runs[0].Results), len(r.Findings); got != want {
				t.Errorf("results = %d, want %d", got, want)
			}
			if got, want := len(log.Runs[0].Invocations[0].ToolExecutionNotifications), len(r.Errors); got != want {
				t.Errorf("notifications = %d, want %d", got, want)
			}
		})
	}
}

// TestCLISARIFValidates runs the built vouch binary with --format sarif on
// testdata/lint/basic (findings, exit 1), on the same repository with
// rules that pass (exit 0) and with a broken architecture.yaml (exit 2),
// and validates each log against the schema: what CI uploads is the
// command's output, not WriteSARIF's.
func TestCLISARIFValidates(t *testing.T) {
	for _, tc := range []struct {
		name    string
		arch    string // replaces the fixture's architecture.yaml when set
		code    int
		results int
	}{
		{name: "findings", code: 1, results: 5},
		{name: "clean", arch: "nodes:\n  - {ref_id: cli, kind: service, source: src/cli}\n  - {ref_id: auth, kind: domain, source: src/auth}\n" +
			"rules:\n  - {name: cli-not-auth, deny: {from: {ref_id: cli}, to: {ref_id: auth}}}\n", code: 0},
		{name: "config error", arch: "rules:\n  - {name: x, deny: {frm: {}}}\n", code: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fixture(t, "basic")
			if tc.arch != "" {
				if err := os.WriteFile(filepath.Join(dir, "architecture.yaml"), []byte(tc.arch), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, code := runVouch(t, dir, "lint", "--format", "sarif", "--today", "2025-01-01", "--no-cache")
			if code != tc.code {
				t.Fatalf("exit code = %d, want %d\n%s", code, tc.code, out)
			}
			sariftest.Validate(t, out)
			var log struct {
				Version string
				Runs    []struct {
					Tool struct {
						Driver struct{ Rules []struct{ ID string } }
					}
					Results []struct {
						RuleID    string
						Locations []struct {
							PhysicalLocation *struct {
								ArtifactLocation struct{ URI string }
								Region           *struct{ StartLine int }
							}
						}
					}
					Invocations []struct{ ExecutionSuccessful bool }
				}
			}
			if err := json.Unmarshal(out, &log); err != nil {
				t.Fatal(err)
			}
			if log.Version != "2.1.0" || len(log.Runs) != 1 {
				t.Fatalf("version %q, %d runs; want 2.1.0, 1 run", log.Version, len(log.Runs))
			}
			run := log.Runs[0]
			if got, want := run.Invocations[0].ExecutionSuccessful, tc.code != 2; got != want {
				t.Errorf("executionSuccessful = %v, want %v", got, want)
			}
			if len(run.Results) != tc.results {
				t.Errorf("results = %d, want %d", len(run.Results), tc.results)
			}
			if tc.name != "findings" {
				return
			}
			var ids []string
			for _, r := range run.Tool.Driver.Rules {
				ids = append(ids, r.ID)
			}
			if want := []string{"billing-auth-boundary", "no-cycles", "adr-required", "no-cli-from-auth"}; !slices.Equal(ids, want) {
				t.Errorf("reportingDescriptors = %q, want one per rule %q", ids, want)
			}
			// The deny finding is at its import; the cycle at the import
			// that closes it, never only at a logical location.
			for _, rule := range []string{"billing-auth-boundary", "no-cycles"} {
				found := false
				for _, r := range run.Results {
					for _, l := range r.Locations {
						if p := l.PhysicalLocation; r.RuleID == rule && p != nil && p.Region != nil &&
							p.ArtifactLocation.URI == "src/billing/invoice.py" && p.Region.StartLine == 1 {
							found = true
						}
					}
				}
				if !found {
					t.Errorf("no %s result at src/billing/invoice.py line 1:\n%s", rule, out)
				}
			}
		})
	}
}
