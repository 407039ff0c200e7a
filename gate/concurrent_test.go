package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/vouch-dev/vouch/gate"
	"github.com/vouch-dev/vouch/receipt"
)

// TestConcurrentPassAndFail runs a passing and a failing gate at the same
// time into one output directory, many times. Whatever the interleaving,
// the receipt left behind never verifies for the failing run's envelope,
// and a receipt that is there verifies for the passing run (a pass never
// reports a receipt that the other run then leaves half-replaced).
func TestConcurrentPassAndFail(t *testing.T) {
	iterations := 50
	if testing.Short() {
		iterations = 5
	}
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("vouch.yaml", "envelope: pass.yaml\nrulespec: rulespec.yaml\nout: out\n")
	write("rulespec.yaml", "claims:\n  - {name: ok, selector: ok}\npredicates:\n  - {claim: ok, rule: equals, value: true}\n")
	write("pass.yaml", "facts:\n  ok: true\n")
	write("fail.yaml", "facts:\n  ok: false\n")
	t.Chdir(root)
	out := filepath.Join(root, "out")
	path := filepath.Join(out, receipt.FileName)
	run := func(env string) *gate.Result {
		g, _ := gate.Run(context.Background(), gate.Options{Root: root, RootSet: true, Envelope: env, Out: out, NoCache: true})
		return g
	}
	for i := range iterations {
		var pass, fail *gate.Result
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); pass = run("pass.yaml") }()
		go func() { defer wg.Done(); fail = run("fail.yaml") }()
		wg.Wait()
		if fail.Verdict == "pass" || fail.Receipt != "" {
			t.Fatalf("iteration %d: the failing run passed (%v)", i, fail.Err)
		}
		if pass.Verdict != "pass" {
			t.Fatalf("iteration %d: the passing run did not pass: %v", i, pass.Err)
		}
		if _, err := os.Stat(path); err != nil {
			// The failing run removed the receipt after the pass wrote it.
			continue
		}
		opts := receipt.Options{Rulespec: "rulespec.yaml", Root: root}
		opts.Envelope = "fail.yaml"
		if _, probs, err := receipt.Verify(path, opts); err == nil && len(probs) == 0 {
			t.Fatalf("iteration %d: the receipt verifies for the failing run", i)
		}
		opts.Envelope = "pass.yaml"
		if _, probs, err := receipt.Verify(path, opts); err != nil || len(probs) != 0 {
			t.Fatalf("iteration %d: the passing run reported receipt %s, which does not verify: %v %v", i, pass.Receipt, err, probs)
		}
	}
}
