package lint

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/gensrc/synth"
)

// benchArchitecture is a 200-node graph over the synthetic repository:
// one node per language tree plus 49 sub-packages of each, part_of edges,
// random depends_on/uses edges, and 20 rules covering every rule type.
func benchArchitecture() string {
	var b strings.Builder
	tops := []struct{ id, src, sub string }{{"py", "src/synth", "p"}, {"go", "pkg", "p"}, {"web", "web", "c"}, {"rust", "crates", "c"}}
	kinds := []string{"domain", "service", "feature", "component"}
	b.WriteString("nodes:\n")
	var ids []string
	for t, top := range tops {
		fmt.Fprintf(&b, "  - {ref_id: %s, kind: service, source: %s, tags: [layer-%d]}\n", top.id, top.src, t)
		ids = append(ids, top.id)
		for i := range 49 {
			id := fmt.Sprintf("%s-%d", top.id, i)
			fmt.Fprintf(&b, "  - {ref_id: %s, kind: %s, source: %s/%s%d}\n", id, kinds[i%4], top.src, top.sub, i)
			ids = append(ids, id)
		}
	}
	b.WriteString("edges:\n")
	for t, top := range tops {
		for i := range 49 {
			fmt.Fprintf(&b, "  - {src: %s-%d, dst: %s, kind: part_of}\n", top.id, i, top.id)
		}
		_ = t
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		a, c := ids[r.IntN(len(ids))], ids[r.IntN(len(ids))]
		if a != c {
			fmt.Fprintf(&b, "  - {src: %s, dst: %s, kind: %s}\n", a, c, []string{"depends_on", "uses"}[r.IntN(2)])
		}
	}
	b.WriteString(`rules:
  - {name: deny-1, reason: events only, deny: {from: {kind: domain}, to: {kind: service}, unless_edge: [uses]}}
  - {name: deny-2, deny: {from: {ref_id: "py-*"}, to: {ref_id: "go-*"}}}
  - {name: deny-3, severity: warn, deny: {from: {kind: feature}, to: {kind: feature}, unless_edge: [depends_on]}}
  - {name: deny-4, deny: {from: {kind: component}, to: {ref_id: rust}}}
  - {name: require-1, require: {for: {kind: feature}, has_edge_to: {kind: service}, edge_kind: part_of}}
  - {name: require-2, require: {for: {kind: domain}, has_edge_to: {kind: component}, edge_kind: depends_on}}
  - {name: require-3, severity: warn, require: {for: {kind: service, exclude: [py]}, has_edge_to: {}}}
  - {name: forbid-1, forbid: {from: {kind: domain}, to: {kind: feature}, edge_kind: uses}}
  - {name: forbid-2, forbid: {from: {ref_id: "web-*"}, to: {ref_id: "go-*"}}}
  - {name: forbid-3, forbid: {from: {kind: component}, to: {kind: component}, edge_kind: depends_on}}
  - {name: fi-1, forbid_import: {from: "src/**", to: "pkg/**"}}
  - {name: fi-2, forbid_import: {from: "web/c1*/**", to: "web/c2*/**"}}
  - {name: fi-3, forbid_import: {from: "crates/**", to: "serde/**"}}
  - {name: fi-4, severity: warn, forbid_import: {from: "pkg/p1/**", to: "fmt/**"}}
  - {name: cycles-graph, forbid_cycles: {edge_kind: depends_on}}
  - {name: cycles-all, forbid_cycles: {}}
  - name: layers-1
    layers: [{name: l0, tag: layer-0}, {name: l1, tag: layer-1}, {name: l2, tag: layer-2}, {name: l3, tag: layer-3}]
    edge_kind: depends_on
  - name: layers-2
    layers: {layers: [{name: top, tag: layer-3}, {name: bottom, tag: layer-0}], allow_skip: false}
  - {name: deny-5, deny: {from: {tag: layer-1}, to: {tag: layer-2}}}
  - {name: deny-6, deny: {from: {}, to: {ref_id: web-7}}}
`)
	return b.String()
}

// indirectRules are import-linter-style rules over the same graph: deny
// and layers rules that also fail on chains of imports.
const indirectRules = `  - {name: ind-deny-1, deny: {from: {ref_id: "py-*"}, to: {ref_id: "py-4*"}, indirect: true}}
  - {name: ind-deny-2, deny: {from: {kind: feature}, to: {ref_id: web-7}, indirect: true}}
  - {name: ind-deny-3, deny: {from: {ref_id: "go-1*"}, to: {kind: domain}, indirect: true, max_chains: 5}}
  - name: ind-layers
    layers: {layers: [{name: l0, tag: layer-0}, {name: l1, tag: layer-1}, {name: l2, tag: layer-2}, {name: l3, tag: layer-3}], indirect: true}
`

func benchRepo(b *testing.B) string {
	return benchRepoWith(b, "")
}

// benchRepoWith writes the architecture with extra rules appended.
func benchRepoWith(b *testing.B, extra string) string {
	b.Helper()
	total := 20000
	if v, err := strconv.Atoi(os.Getenv("VOUCH_BENCH_FILES")); err == nil && v > 0 {
		total = v
	}
	dir := os.Getenv("VOUCH_BENCH_REPO") // reuse a generated tree across runs
	if dir == "" {
		dir = b.TempDir()
		if _, err := synth.Generate(dir, synth.Options{FilesPerLang: total / 5, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, arch.FileName), []byte(benchArchitecture()+extra), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// lintOnce is what `vouch lint` does, minus printing.
func lintOnce(b *testing.B, dir string) *Outcome {
	m, err := arch.Load(dir, "")
	if err != nil {
		b.Fatal(err)
	}
	scan, err := imports.Scan(context.Background(), dir, imports.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := m.Finish(scan.Files); err != nil {
		b.Fatal(err)
	}
	o, err := Run(m, scan, nil, Options{Today: 20000})
	if err != nil {
		b.Fatal(err)
	}
	var dl bytes.Buffer
	if err := o.WriteDL(&dl); err != nil {
		b.Fatal(err)
	}
	o.Trace(dl.Bytes())
	return o
}

// reportCPU reports the CPU time per iteration since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}

func report(b *testing.B, o *Outcome) {
	b.ReportMetric(float64(o.Stats.Files), "files")
	b.ReportMetric(float64(o.Stats.Facts), "facts")
	b.ReportMetric(float64(len(o.Findings)), "findings")
}

// BenchmarkLintCold: extraction with an empty cache, then everything else.
func BenchmarkLintCold(b *testing.B) {
	dir := benchRepo(b)
	var o *Outcome
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		os.RemoveAll(filepath.Join(dir, ".vouch", "cache"))
		c0 := cpuTime()
		b.StartTimer()
		o = lintOnce(b, dir)
		cpu += cpuTime() - c0
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	report(b, o)
}

// BenchmarkLintWarm: nothing changed since the last run.
func BenchmarkLintWarm(b *testing.B) {
	dir := benchRepo(b)
	lintOnce(b, dir)
	var o *Outcome
	c0 := cpuTime()
	for b.Loop() {
		o = lintOnce(b, dir)
	}
	reportCPU(b, c0)
	report(b, o)
}

// BenchmarkLintIndirectCold is BenchmarkLintCold with four indirect
// rules added (issue 15: within 2x of the plain rules).
func BenchmarkLintIndirectCold(b *testing.B) {
	dir := benchRepoWith(b, indirectRules)
	var o *Outcome
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		os.RemoveAll(filepath.Join(dir, ".vouch", "cache"))
		c0 := cpuTime()
		b.StartTimer()
		o = lintOnce(b, dir)
		cpu += cpuTime() - c0
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	report(b, o)
}

// BenchmarkLintIndirectWarm is BenchmarkLintWarm with the indirect rules.
func BenchmarkLintIndirectWarm(b *testing.B) {
	dir := benchRepoWith(b, indirectRules)
	lintOnce(b, dir)
	var o *Outcome
	c0 := cpuTime()
	for b.Loop() {
		o = lintOnce(b, dir)
	}
	reportCPU(b, c0)
	report(b, o)
}

// BenchmarkLintEvaluate isolates fact preparation and evaluation (both
// rounds) from extraction.
func BenchmarkLintEvaluate(b *testing.B) {
	dir := benchRepo(b)
	m, err := arch.Load(dir, "")
	if err != nil {
		b.Fatal(err)
	}
	scan, err := imports.Scan(context.Background(), dir, imports.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := m.Finish(scan.Files); err != nil {
		b.Fatal(err)
	}
	var o *Outcome
	for b.Loop() {
		if o, err = Run(m, scan, nil, Options{Today: 20000}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(o.Timing.Prepare.Microseconds())/1000, "prepare-ms")
	b.ReportMetric(float64(o.Timing.Evaluate.Microseconds())/1000, "evaluate-ms")
	report(b, o)
}

// BenchmarkCycles is forbid_cycles over a random node graph of 5,000 nodes
// and 50,000 edges: one large strongly connected component, one pivot.
func BenchmarkCycles(b *testing.B) {
	m := cycleModel(5000, 50000)
	var o *Outcome
	for b.Loop() {
		var err error
		if o, err = Run(m, &imports.Result{}, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if len(o.Findings) == 0 || o.Findings[0].Cycle == nil {
		b.Fatal("no cycle found in a random dense graph")
	}
	b.ReportMetric(float64(len(o.Findings[0].Cycle.Members)), "members")
	b.ReportMetric(float64(len(o.Findings[0].Cycle.Witness)-1), "witness-len")
}

func cycleModel(n, e int) *arch.Model {
	m := &arch.Model{Layout: "vouch"}
	for i := range n {
		m.Nodes = append(m.Nodes, arch.Node{ID: "n" + strconv.Itoa(i), Kind: "component"})
	}
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[[2]int]bool{}
	for len(m.Edges) < e {
		a, c := r.IntN(n), r.IntN(n)
		if a == c || seen[[2]int{a, c}] {
			continue
		}
		seen[[2]int{a, c}] = true
		m.Edges = append(m.Edges, arch.Edge{Src: "n" + strconv.Itoa(a), Dst: "n" + strconv.Itoa(c), Kind: "depends_on"})
	}
	m.Rules = []arch.Rule{{Name: "no-cycles", Type: arch.ForbidCycles, Severity: arch.SeverityError, EdgeKind: "depends_on"}}
	return m
}

// depcruiseRules are the dependency-cruiser rules of the issue-15 speed
// figures: a plain circular rule, a circular rule filtered by dependency
// type and viaNot, a cross-folder rule with a $1 group, and orphans.
var depcruiseRules = map[string]string{
	"no-circular":         `{"name": "no-circular", "severity": "error", "from": {}, "to": {"circular": true}}`,
	"no-runtime-circular": `{"name": "no-runtime-circular", "severity": "warn", "from": {}, "to": {"circular": true, "dependencyTypesNot": ["type-only"], "viaNot": "^web/c0/"}}`,
	"no-cross":            `{"name": "no-cross", "severity": "error", "from": {"path": "^web/([^/]+)/"}, "to": {"path": "^web/", "pathNot": "^web/$1/"}}`,
	"no-orphans":          `{"name": "no-orphans", "severity": "info", "from": {"orphan": true}, "to": {}}`,
}

// BenchmarkDepcruise lints a synthetic repository (VOUCH_BENCH_FILES
// files, default 4,000; VOUCH_BENCH_REPO reuses a generated tree) with a
// dependency-cruiser configuration: each rule alone, then all four. The
// import cache is warm: this measures fact preparation and evaluation.
func BenchmarkDepcruise(b *testing.B) {
	total := 4000
	if v, err := strconv.Atoi(os.Getenv("VOUCH_BENCH_FILES")); err == nil && v > 0 {
		total = v
	}
	dir := os.Getenv("VOUCH_BENCH_REPO")
	if dir == "" {
		dir = b.TempDir()
		if _, err := synth.Generate(dir, synth.Options{FilesPerLang: total / 5, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	names := []string{"no-circular", "no-runtime-circular", "no-cross", "no-orphans", "all"}
	for _, name := range names {
		b.Run(name, func(b *testing.B) {
			var rules []string
			for _, n := range names[:4] {
				if name == "all" || n == name {
					rules = append(rules, depcruiseRules[n])
				}
			}
			cfg := filepath.Join(b.TempDir(), "dc.json")
			conf := `{"forbidden": [` + strings.Join(rules, ",") + `], "options": {"tsPreCompilationDeps": true}}`
			if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
				b.Fatal(err)
			}
			out := b.TempDir()
			check := func() *Report {
				rep, err := Check(context.Background(), dir, Config{File: cfg, Out: out})
				if err != nil {
					b.Fatal(err)
				}
				return rep
			}
			check() // warm the import cache
			var rep *Report
			c0 := cpuTime()
			for b.Loop() {
				rep = check()
			}
			reportCPU(b, c0)
			b.ReportMetric(float64(len(rep.Findings)), "findings")
		})
	}
}
