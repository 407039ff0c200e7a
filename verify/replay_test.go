package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/analysis"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/engine"
	"github.com/google/mangle/factstore"
	"github.com/google/mangle/parse"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/rulespec"
)

// examples lists every (rulespec, envelope) pair shipped under
// testdata/examples: each example directory has analysis/rulespec.yaml and
// one or more envelope*.yaml files.
func examples(t *testing.T) [][2]string {
	t.Helper()
	dirs, err := filepath.Glob("../testdata/examples/*")
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, d := range dirs {
		envs, _ := filepath.Glob(filepath.Join(d, "envelope*.yaml"))
		for _, e := range envs {
			out = append(out, [2]string{filepath.Join(d, "analysis", "rulespec.yaml"), e})
		}
	}
	if len(out) == 0 {
		t.Fatal("no examples found under testdata/examples")
	}
	return out
}

// replay evaluates a written .dl file with stock Mangle alone (parse,
// analyse, stratify, evaluate) and returns its verdict facts, sorted.
func replay(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	unit, err := parse.Unit(bytes.NewReader(src))
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	info, err := analysis.AnalyzeOneUnit(unit, nil)
	if err != nil {
		t.Fatalf("analyse %s: %v", path, err)
	}
	strata, p2s, err := analysis.Stratify(analysis.Program{EdbPredicates: info.EdbPredicates, IdbPredicates: info.IdbPredicates, Rules: info.Rules})
	if err != nil {
		t.Fatalf("stratify %s: %v", path, err)
	}
	store := factstore.NewMultiIndexedArrayInMemoryStore()
	if _, err := engine.EvalStratifiedProgramWithStats(info, strata, p2s, store, engine.WithCreatedFactLimit(1_000_000)); err != nil {
		t.Fatalf("evaluate %s: %v", path, err)
	}
	var got []string
	for _, pred := range []ast.PredicateSym{{Symbol: "verdict", Arity: 2}, {Symbol: "vacuous", Arity: 1}, {Symbol: "run_verdict", Arity: 1}} {
		store.GetFacts(ast.NewQuery(pred), func(a ast.Atom) error {
			got = append(got, a.String())
			return nil
		})
	}
	sort.Strings(got)
	return got
}

func reported(o *Outcome) []string {
	var want []string
	for _, p := range o.Report.Predicates {
		want = append(want, "verdict("+itoa(p.Index)+",/"+string(p.Status)+")")
		if p.Vacuous {
			want = append(want, "vacuous("+itoa(p.Index)+")")
		}
	}
	want = append(want, "run_verdict(/"+o.Report.Verdict+")")
	sort.Strings(want)
	return want
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestReplayWrittenProgram proves the .dl artifact is self-contained: stock
// Mangle evaluating the file alone gives exactly the verdicts vouch reported,
// in normal and strict mode, for every shipped example.
func TestReplayWrittenProgram(t *testing.T) {
	for _, ex := range examples(t) {
		for _, strict := range []bool{false, true} {
			name := ex[1]
			if strict {
				name += "/strict"
			}
			t.Run(name, func(t *testing.T) {
				o, err := Run(Input{RulespecPath: ex[0], EnvelopePath: ex[1], Limits: envelope.DefaultLimits(), Strict: strict})
				if err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				if err := o.WriteArtifacts(dir); err != nil {
					t.Fatal(err)
				}
				got := replay(t, filepath.Join(dir, ProgramFile))
				if diff := cmp.Diff(reported(o), got); diff != "" {
					t.Errorf("replayed verdicts differ from reported (-reported +replayed):\n%s", diff)
				}
			})
		}
	}
}

// TestArtifactsDeterministic runs each example twice and requires
// byte-identical program, JSON and trace, ignoring only timing lines.
func TestArtifactsDeterministic(t *testing.T) {
	for _, ex := range examples(t) {
		t.Run(ex[1], func(t *testing.T) {
			var progs, traces, jsons [2]string
			for i := range 2 {
				o, err := Run(Input{RulespecPath: ex[0], EnvelopePath: ex[1], Limits: envelope.DefaultLimits()})
				if err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				if err := o.WriteArtifacts(dir); err != nil {
					t.Fatal(err)
				}
				p, _ := os.ReadFile(filepath.Join(dir, ProgramFile))
				tr, _ := os.ReadFile(filepath.Join(dir, TraceFile))
				o.Report.Artifacts = Artifacts{}
				var js bytes.Buffer
				if err := o.Report.WriteJSON(&js); err != nil {
					t.Fatal(err)
				}
				progs[i], traces[i], jsons[i] = string(p), withoutTimings(string(tr)), js.String()
			}
			if diff := cmp.Diff(progs[0], progs[1]); diff != "" {
				t.Errorf("program differs between runs:\n%s", diff)
			}
			if diff := cmp.Diff(traces[0], traces[1]); diff != "" {
				t.Errorf("trace differs between runs:\n%s", diff)
			}
			if diff := cmp.Diff(jsons[0], jsons[1]); diff != "" {
				t.Errorf("JSON differs between runs:\n%s", diff)
			}
		})
	}
}

func withoutTimings(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "timing:") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestTraceDeterministicMultiSolution covers proofs whose body has several
// solutions (any_of over a multi-element array, aggregated member hits): the
// engine hands solutions back in map order, so the trace must pick one by a
// fixed order. Twenty runs must give one trace, whether the trace's
// proofs run on one worker or several (GOMAXPROCS 1, 2 and 8 in turn).
func TestTraceDeterministicMultiSolution(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rs, err := rulespec.Parse("r.yaml", []byte(`
claims:
  - {name: arr, selector: arr}
  - {name: s, selector: s}
predicates:
  - {claim: arr, rule: any_of, value: [a, b, c, d]}
  - {claim: arr, rule: contains, value: b}
  - {claim: arr, rule: none_of, value: [x, y]}
  - {claim: s, rule: exists, when: {claim: arr, rule: min_length, value: 2}}
`))
	if err != nil {
		t.Fatal(err)
	}
	env, err := envelope.Parse("e.yaml", []byte("facts: {arr: [a, b, c, d, a], s: x}\n"), envelope.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for i := range 20 {
		runtime.GOMAXPROCS([]int{1, 2, 8}[i%3])
		o, err := RunLoaded(rs, env, false, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var dl bytes.Buffer
		if err := o.Program.WriteDL(&dl, o.header()); err != nil {
			t.Fatal(err)
		}
		trace := withoutTimings(string(o.Trace(dl.Bytes())))
		if i == 0 {
			first = trace
			continue
		}
		if diff := cmp.Diff(first, trace); diff != "" {
			t.Fatalf("run %d: trace differs (-first +now):\n%s", i, diff)
		}
	}
}
