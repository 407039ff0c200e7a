package guard

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"testing"

	"github.com/google/mangle/ast"
)

// TestFlatAgreesWithTree evaluates every all/any of up to four leaves,
// each true, false or an error, both ways guard.dl can meet it: as a flat
// node (flat and flat_operand facts, read by guard.dl alone) and as a tree
// evaluated by conditions.dl (node_value facts). The rule must fire, and
// count as a policy error, the same way in both, and as Edictum's
// left-to-right short-circuit says.
func TestFlatAgreesWithTree(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	values := []leafResult{leafFalse, leafTrue, leafError}
	var seqs [][]leafResult
	var grow func(prefix []leafResult)
	grow = func(prefix []leafResult) {
		if len(prefix) > 0 {
			seqs = append(seqs, append([]leafResult(nil), prefix...))
		}
		if len(prefix) == 4 {
			return
		}
		for _, v := range values {
			grow(append(prefix, v))
		}
	}
	grow(nil)
	checked := 0
	for _, op := range []string{"all", "any"} {
		for _, seq := range seqs {
			// What Edictum's evaluation gives: the first operand that
			// settles the node (false for all, true for any) or is an
			// error; else true for all, false for any.
			want := truth(op == "all")
			for _, v := range seq {
				if v == leafError || v == truth(op == "any") {
					want = v
					break
				}
			}
			flat := e.flatFacts(op, seq)
			tree, err := e.treeFacts(op, seq)
			if err != nil {
				t.Fatalf("%s %v: conditions program: %v", op, seq, err)
			}
			for name, facts := range map[string][]ast.Atom{"flat": flat, "tree": tree} {
				fires, perr, err := e.firesOn(facts)
				if err != nil {
					t.Fatalf("%s %s %v: %v", name, op, seq, err)
				}
				if fires != (want != leafFalse) || perr != (want == leafError) {
					t.Errorf("%s %s %v: fires %v, policy error %v; want value %s", name, op, seq, fires, perr, want.name())
				}
				checked++
			}
		}
	}
	if checked != 2*2*len(seqs) {
		t.Fatalf("checked %d cases", checked)
	}
}

// ruleFacts are the facts of one enforced pre deny rule r on node 1.
func ruleFacts() []ast.Atom {
	id := ast.String("r")
	return []ast.Atom{
		atom("phase", mname("/pre")),
		atom("rule_mode", id, mname("/enforced")),
		atom("rule_action", id, mname("/deny")),
		atom("rule_selects_tool", id),
		atom("rule", id, mname("/pre"), ast.Number(bandRules)),
		atom("rule_when", id, ast.Number(1)),
	}
}

func (e *Engine) flatFacts(op string, seq []leafResult) []ast.Atom {
	facts := ruleFacts()
	facts = append(facts, atom("flat", ast.Number(1), mname("/"+op)))
	for i, v := range seq {
		facts = append(facts, atom("flat_operand", ast.Number(1), mname("/"+op), ast.Number(int64(i)), mname(v.name())))
	}
	return facts
}

func (e *Engine) treeFacts(op string, seq []leafResult) ([]ast.Atom, error) {
	tree := []ast.Atom{
		atom("node", ast.Number(1), mname("/"+op)),
		atom("node_children", ast.Number(1), ast.Number(int64(len(seq)))),
	}
	for i, v := range seq {
		leaf := ast.Number(int64(i + 2))
		tree = append(tree,
			atom("node_child", ast.Number(1), ast.Number(int64(i)), leaf),
			atom("node", leaf, mname("/leaf")),
			atom("leaf_value", leaf, mname(v.name())))
	}
	vals, err := e.conds().values(tree, 1)
	if err != nil {
		return nil, err
	}
	return append(ruleFacts(), vals...), nil
}

// firesOn evaluates guard.dl on facts and reports whether rule r fired
// and whether it counts as a policy error.
func (e *Engine) firesOn(facts []ast.Atom) (fires, perr bool, err error) {
	store, err := e.guard.run(facts, false)
	if err != nil {
		return false, false, err
	}
	for _, a := range query(store, "fires", 4) {
		if a.Args[0].(ast.Constant).Symbol != "r" {
			return false, false, fmt.Errorf("fires %v", a)
		}
		fires = true
	}
	perr = store.Contains(atom("policy_error", ast.String("r")))
	return fires, perr, nil
}

// TestNodeGroupKeysDistinct checks what guard.dl's flat_first relies on:
// Mangle v0.4.0's group_by files rows under the FNV-32 hash of the key's
// 8-byte Hash() and never compares keys, so two node numbers with one
// hash would share a minimum. A policy holds fewer nodes than it has
// bytes (MaxPolicyBytes), and no two numbers below that share a hash.
func TestNodeGroupKeysDistinct(t *testing.T) {
	hashes := make([]uint32, MaxPolicyBytes)
	var b [8]byte
	for n := range hashes {
		binary.LittleEndian.PutUint64(b[:], ast.Number(int64(n)).Hash())
		h := fnv.New32()
		h.Write(b[:])
		hashes[n] = h.Sum32()
	}
	slices.Sort(hashes)
	for i := 1; i < len(hashes); i++ {
		if hashes[i] == hashes[i-1] {
			t.Fatalf("two node numbers below %d share the group hash %#x", len(hashes), hashes[i])
		}
	}
}
