package verify

import (
	"fmt"
	"os"
	"testing"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/internal/benchgen/workload"
	"github.com/vouch-dev/vouch/rulespec"
)

// BenchmarkSeedExample is the seed's complete example, loaded from disk and
// verified end to end (without writing artifacts).
func BenchmarkSeedExample(b *testing.B) {
	in := Input{
		RulespecPath: "../testdata/examples/csv-importer/analysis/rulespec.yaml",
		EnvelopePath: "../testdata/examples/csv-importer/envelope.yaml",
		Limits:       envelope.DefaultLimits(),
	}
	for b.Loop() {
		o, err := Run(in)
		if err != nil || o.Report.Verdict != "pass" {
			b.Fatalf("verdict %v, err %v", o, err)
		}
	}
}

// wideInputs loads the workload of keys envelope keys in groups of ten
// fields and preds predicates cycling through the rule types
// (internal/benchgen/workload, shared with the whole-process comparison).
func wideInputs(b *testing.B, keys, preds int) (*rulespec.Rulespec, *envelope.Envelope) {
	b.Helper()
	return loadWorkload(b, workload.Wide(keys, preds))
}

func loadWorkload(b *testing.B, w workload.Workload) (*rulespec.Rulespec, *envelope.Envelope) {
	b.Helper()
	r, err := rulespec.Parse("bench.yaml", []byte(w.Rulespec))
	if err != nil {
		b.Fatal(err)
	}
	e, err := envelope.Parse(w.EnvelopeName, []byte(w.Envelope), envelope.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	return r, e
}

// BenchmarkWide is 1,000 predicates over an envelope with 10,000 keys (and
// the same doubled, to show how time grows).
func BenchmarkWide(b *testing.B) {
	for _, size := range []struct{ keys, preds int }{{10_000, 1_000}, {20_000, 2_000}} {
		b.Run(fmt.Sprintf("keys=%d/preds=%d", size.keys, size.preds), func(b *testing.B) {
			rs, env := wideInputs(b, size.keys, size.preds)
			for b.Loop() {
				o, err := RunLoaded(rs, env, false, 0, 0)
				if err != nil {
					b.Fatal(err)
				}
				if o.Report.Summary.Failed != 0 {
					b.Fatalf("unexpected failures: %+v", o.Report.Summary)
				}
			}
		})
	}
}

// arrayInputs loads the workload of an items array of n objects and five
// predicates reading it through [*].
func arrayInputs(b *testing.B, n int) (*rulespec.Rulespec, *envelope.Envelope) {
	b.Helper()
	return loadWorkload(b, workload.Array(n))
}

// BenchmarkLargeArray is five predicates over a 100,000-element array read
// through [*] (and the same doubled).
func BenchmarkLargeArray(b *testing.B) {
	for _, n := range []int{100_000, 200_000} {
		b.Run(fmt.Sprintf("elements=%d", n), func(b *testing.B) {
			rs, env := arrayInputs(b, n)
			for b.Loop() {
				o, err := RunLoaded(rs, env, false, 0, 0)
				if err != nil {
					b.Fatal(err)
				}
				if o.Report.Verdict != "pass" {
					b.Fatalf("verdict %s: %+v", o.Report.Verdict, o.Report.Predicates)
				}
			}
		})
	}
}

// BenchmarkTraceWide renders the evaluation trace (a proof for every
// predicate) of the 1,000-predicate run, the part of writing artifacts that
// grows with the rulespec. Each iteration traces a fresh evaluation, since
// a Result shares proofs between calls.
func BenchmarkTraceWide(b *testing.B) {
	rs, env := wideInputs(b, 10_000, 1_000)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		o, err := RunLoaded(rs, env, false, 0, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if len(o.Trace(nil)) == 0 {
			b.Fatal("empty trace")
		}
	}
}

// BenchmarkWideEndToEnd is what one `vouch verify` process of the
// 1,000-predicate workload does after startup: load both files from disk
// (YAML decoding included), compile, evaluate, and render both artifacts
// (the .dl program and the trace with a proof per predicate).
func BenchmarkWideEndToEnd(b *testing.B) {
	w := workload.Wide(10_000, 1_000)
	dir := b.TempDir()
	rsPath, envPath := dir+"/rulespec.yaml", dir+"/"+w.EnvelopeName
	if err := os.WriteFile(rsPath, []byte(w.Rulespec), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(envPath, []byte(w.Envelope), 0o644); err != nil {
		b.Fatal(err)
	}
	in := Input{RulespecPath: rsPath, EnvelopePath: envPath, RulespecExplicit: true, EnvelopeExplicit: true, Limits: envelope.DefaultLimits()}
	for b.Loop() {
		o, err := Run(in)
		if err != nil {
			b.Fatal(err)
		}
		if o.Report.Summary.Failed != 0 {
			b.Fatalf("unexpected failures: %+v", o.Report.Summary)
		}
		if err := o.WriteArtifacts(dir + "/out"); err != nil {
			b.Fatal(err)
		}
	}
}
