package repofacts_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/vouch-dev/vouch/gate"
	"github.com/vouch-dev/vouch/lint"
	"github.com/vouch-dev/vouch/repofacts"
)

// TestArtifactNamesMatchOutputs keeps ArtifactNames in step with the
// files the gate and verify write into their output directory: a file
// missing from the list would count as work on the next gate.
func TestArtifactNamesMatchOutputs(t *testing.T) {
	names := repofacts.ArtifactNames()
	if !slices.IsSorted(names) {
		t.Errorf("ArtifactNames is not sorted: %v", names)
	}
	for _, p := range gate.Outputs("out") {
		rel, err := filepath.Rel("out", p)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{filepath.ToSlash(rel)}
		if rel == "lint" {
			// The gate's lint directory: its files are listed, not it.
			want = []string{"lint/" + lint.ProgramFile, "lint/" + lint.TraceFile}
		}
		for _, w := range want {
			if !slices.Contains(names, w) {
				t.Errorf("gate.Outputs writes %s, which ArtifactNames lacks", w)
			}
		}
	}
}
