package imports

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/vouch-dev/vouch/internal/gensrc/synth"
)

// benchRepo generates the synthetic repository once per benchmark into
// b.TempDir(): VOUCH_BENCH_FILES files in total (default 20,000, split
// evenly across the five languages) of about 10 KB each.
func benchRepo(b *testing.B) (string, synth.Stats) {
	b.Helper()
	total := 20000
	if v, err := strconv.Atoi(os.Getenv("VOUCH_BENCH_FILES")); err == nil && v > 0 {
		total = v
	}
	dir := b.TempDir()
	st, err := synth.Generate(dir, synth.Options{FilesPerLang: total / 5, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return dir, st
}

func reportFiles(b *testing.B, res *Result) {
	b.ReportMetric(float64(res.Stats.Files)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(float64(len(res.Records)), "records")
}

// BenchmarkScanCold measures a full run with an empty cache (walk, read,
// hash, extract, resolve, write the cache).
func BenchmarkScanCold(b *testing.B) {
	dir, st := benchRepo(b)
	b.SetBytes(st.Bytes)
	var res *Result
	for b.Loop() {
		b.StopTimer()
		os.RemoveAll(cacheDir(dir))
		b.StartTimer()
		var err error
		if res, err = Scan(context.Background(), dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if res.Stats.Extracted != res.Stats.Files {
		b.Fatalf("cold run served %d files from cache", res.Stats.Cached)
	}
	reportFiles(b, res)
}

// BenchmarkScanWarm measures a run with nothing changed since the last.
func BenchmarkScanWarm(b *testing.B) {
	dir, st := benchRepo(b)
	if _, err := Scan(context.Background(), dir, Options{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Bytes)
	var res *Result
	for b.Loop() {
		var err error
		if res, err = Scan(context.Background(), dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if res.Stats.Extracted != 0 {
		b.Fatalf("warm run re-extracted %d files", res.Stats.Extracted)
	}
	reportFiles(b, res)
}
