package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/gate"
	"github.com/vouch-dev/vouch/output"
)

// VerifyReceipt checks a gate's receipt the way the gate would run here:
// it holds after a pass, lists the envelope once the envelope changes,
// and fails to check at all when there is no receipt.
func TestVerifyReceipt(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("vouch.yaml", "envelope: env.yaml\nrulespec: rulespec.yaml\nout: out\n")
	write("rulespec.yaml", "claims:\n  - {name: ok, selector: ok}\npredicates:\n  - {claim: ok, rule: equals, value: true}\n")
	write("env.yaml", "facts:\n  ok: true\n")
	t.Chdir(root)
	if _, err := gate.VerifyReceipt(context.Background(), gate.ReceiptRequest{}); err == nil {
		t.Fatal("no receipt yet, but VerifyReceipt gave no error")
	}
	g, err := gate.Run(context.Background(), gate.Options{NoCache: true})
	if err != nil || g.Verdict != "pass" {
		t.Fatalf("gate: %v %v", g.Verdict, err)
	}
	chk, err := gate.VerifyReceipt(context.Background(), gate.ReceiptRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := chk.WriteText(&text, output.Painter{}); err != nil || chk.Err() != nil || text.Len() == 0 {
		t.Fatalf("a holding receipt: text %q, write error %v, Err %v", text.String(), err, chk.Err())
	}
	if len(chk.Problems) != 0 || chk.Path != filepath.Join("out", "verification.json") && !strings.HasSuffix(chk.Path, filepath.Join("out", "verification.json")) {
		t.Fatalf("fresh receipt at %s: problems %+v", chk.Path, chk.Problems)
	}
	write("env.yaml", "facts:\n  ok: true\n  more: 1\n")
	chk, err = gate.VerifyReceipt(context.Background(), gate.ReceiptRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(chk.Problems) == 0 {
		t.Fatal("the envelope changed, but the receipt still holds")
	}
	text.Reset()
	if err := chk.WriteText(&text, output.Painter{}); err != nil || text.Len() == 0 {
		t.Errorf("problems not printed: %q, %v", text.String(), err)
	}
	if err := chk.Err(); err == nil || !strings.HasPrefix(err.Error(), "receipt "+chk.Path+" does not hold: ") {
		t.Errorf("Err() = %v", err)
	}
	if _, err := gate.VerifyReceipt(context.Background(), gate.ReceiptRequest{RootSet: true}); err == nil || !strings.Contains(err.Error(), "--root is empty") {
		t.Errorf("empty --root: %v", err)
	}
}
