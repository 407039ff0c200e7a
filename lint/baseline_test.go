package lint

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/arch"
)

func cyc(rule string, members ...string) Finding {
	return Finding{Rule: rule, Type: string(arch.ForbidCycles), Severity: arch.SeverityError, From: members[0], Cycle: &Cycle{Members: members}}
}

// TestApplyBaseline: cycles are keyed by their member set; partly stale
// entries report recorded and found counts; configuration findings are
// never baselined.
func TestApplyBaseline(t *testing.T) {
	deny := Finding{Rule: "d", Type: "deny", Severity: arch.SeverityError, File: "a.go", From: "a", To: "b"}
	inert := Finding{Rule: "i", Type: TypeInert, Severity: arch.SeverityWarn, File: "architecture.yaml"}
	unused := Finding{Rule: "d", Type: TypeExemptionUnused, Severity: arch.SeverityWarn, File: "architecture.yaml"}
	tests := []struct {
		name      string
		recorded  []Finding
		now       []Finding
		baselined []bool
		stale     []string
	}{
		{"same cycle", []Finding{cyc("nc", "svc", "ui")}, []Finding{cyc("nc", "ui", "svc")}, []bool{true}, []string{}},
		{"grown cycle", []Finding{cyc("nc", "svc", "ui")}, []Finding{cyc("nc", "svc", "ui", "zz")}, []bool{false},
			[]string{"stale baseline entry nc:forbid_cycles::::svc,ui: no longer occurs; remove it from the baseline"}},
		{"partly stale", []Finding{deny, deny, deny}, []Finding{deny, deny}, []bool{true, true},
			[]string{"stale baseline entry d:deny:a.go:a:b: count 3 → 2; lower it in the baseline"}},
		{"more than recorded", []Finding{deny}, []Finding{deny, deny}, []bool{true, false}, []string{}},
		{"config findings", []Finding{inert, unused}, []Finding{inert, unused}, []bool{false, false}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			entries := MakeBaseline(tc.recorded)
			fs := append([]Finding(nil), tc.now...)
			stale := ApplyBaseline(fs, entries)
			var got []bool
			for _, f := range fs {
				got = append(got, f.Baseline)
			}
			if diff := cmp.Diff(tc.baselined, got); diff != "" {
				t.Errorf("baselined (-want +got):\n%s", diff)
			}
			desc := []string{}
			for _, s := range stale {
				desc = append(desc, s.Describe())
			}
			if diff := cmp.Diff(tc.stale, desc); diff != "" {
				t.Errorf("stale (-want +got):\n%s", diff)
			}
		})
	}
	if got := MakeBaseline([]Finding{inert, unused, {Rule: "d", Type: TypeExemptionExpired}}); len(got) != 0 {
		t.Errorf("MakeBaseline recorded configuration findings: %v", got)
	}
}

// TestStaleFailsStrict: stale entries fail only with strict.
func TestStaleFailsStrict(t *testing.T) {
	r := &Report{Stale: []StaleEntry{{BaselineEntry: BaselineEntry{Rule: "d", Type: "deny", Count: 1}}}}
	r.Count()
	if r.Fails(false) {
		t.Error("stale entry failed without strict")
	}
	if !r.Fails(true) {
		t.Error("stale entry passed with strict")
	}
}

// TestTextGroupMarker: a rule group's marker is ✗ when any of its
// findings fails as an error, whatever sorts first.
func TestTextGroupMarker(t *testing.T) {
	warn := Finding{Rule: "r", Type: TypeExemptionExpired, Severity: arch.SeverityWarn, Message: "expired"}
	errF := Finding{Rule: "r", Type: "deny", Severity: arch.SeverityError, Message: "a imports b"}
	tests := []struct {
		name     string
		findings []Finding
		want     string
	}{
		{"warning first, then error", []Finding{warn, errF}, "✗ r"},
		{"warnings only", []Finding{warn}, "! r"},
		{"error in the baseline", []Finding{warn, func() Finding { f := errF; f.Baseline = true; return f }()}, "! r"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{Findings: tc.findings}
			r.Count()
			var b bytes.Buffer
			if err := r.WriteText(&b, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), "\n"+tc.want+"\n") {
				t.Errorf("want header %q in:\n%s", tc.want, b.String())
			}
		})
	}
}
