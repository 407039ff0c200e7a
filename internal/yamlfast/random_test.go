package yamlfast

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// scalars are plain and quoted scalars of every resolved type, and some
// that sit on the edges of the subset.
var scalars = []string{
	"a", "b c", "x-y", "-1", "-x", "+1", "0", "007", "0x1F", "0o17", "0b101", "1_000", "1.5", ".5", "-.5", "1e3",
	".inf", "-.Inf", ".nan", "true", "False", "yes", "no", "on", "null", "Null", "~", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
	"'s'", "''", "'it''s'", "' x '", "\"d\"", "\"\"", "\"a\\tb\"", "\"\\u00e9\"", "\"\\x41\"", "\"\\\\\"", "é", "😀", "a#b", "a:b",
	"http://x/y", "50%", "a,b", "a[b]", "<<", "a b  c", "C#",
}

// genBlock writes a random block node at indentation ind.
func genBlock(r *rand.Rand, b *strings.Builder, ind, depth int) {
	pad := strings.Repeat(" ", ind)
	n := 1 + r.IntN(3)
	if depth > 3 || r.IntN(4) == 0 {
		// A sequence.
		for i := 0; i < n; i++ {
			b.WriteString(pad + "-" + strings.Repeat(" ", 1+r.IntN(2)))
			genValue(r, b, ind, depth, true)
		}
		return
	}
	for i := 0; i < n; i++ {
		b.WriteString(pad + scalars[r.IntN(len(scalars))] + ":")
		genValue(r, b, ind, depth, false)
	}
}

// genValue writes the rest of a line after a key's ':' or an entry's '-'.
func genValue(r *rand.Rand, b *strings.Builder, ind, depth int, entry bool) {
	switch k := r.IntN(8); {
	case k < 3 || depth > 4:
		if !entry {
			b.WriteString(" ")
		}
		b.WriteString(scalars[r.IntN(len(scalars))] + strings.Repeat(" ", r.IntN(2)) + "\n")
	case k < 5:
		if !entry {
			b.WriteString(" ")
		}
		genFlow(r, b, depth)
		b.WriteString("\n")
	case k == 5 && !entry:
		// A sequence at the key's own indentation.
		b.WriteString("\n")
		for i := 0; i <= r.IntN(2); i++ {
			b.WriteString(strings.Repeat(" ", ind) + "- " + scalars[r.IntN(len(scalars))] + "\n")
		}
	default:
		b.WriteString(strings.Repeat("\n", 1+r.IntN(2)))
		genBlock(r, b, ind+1+r.IntN(3), depth+1)
	}
}

// genFlow writes a random flow collection.
func genFlow(r *rand.Rand, b *strings.Builder, depth int) {
	isMap := r.IntN(2) == 0
	open, close := "[", "]"
	if isMap {
		open, close = "{", "}"
	}
	b.WriteString(open + strings.Repeat(" ", r.IntN(2)))
	for i := range r.IntN(4) {
		if i > 0 {
			b.WriteString("," + strings.Repeat(" ", r.IntN(2)))
		}
		if isMap {
			b.WriteString(scalars[r.IntN(len(scalars))] + ": ")
		}
		if depth < 4 && r.IntN(4) == 0 {
			genFlow(r, b, depth+1)
		} else {
			b.WriteString(scalars[r.IntN(len(scalars))])
		}
	}
	b.WriteString(strings.Repeat(" ", r.IntN(2)) + close)
}

// mutations are small edits that push a generated document to the edges
// of the subset and past them.
var mutations = []string{" ", "  ", "\n", "-", "- ", ":", ": ", "#", " #", "'", "\"", "\\", ",", "[", "]", "{", "}", "?", "&a ", "*a", "!x ", "|", ">", "---", "...", "\t", "\r", "é", "~"}

// TestRandomDocuments compares Parse with yaml.v3 on generated documents
// and on mutations of them, which a byte-level fuzzer seldom reaches.
func TestRandomDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	iterations := 20000
	if testing.Short() {
		iterations = 2000
	}
	var answered, mutatedAnswered int
	for range iterations {
		var b strings.Builder
		genBlock(r, &b, 0, 0)
		doc := b.String()
		if check(t, []byte(doc)) {
			answered++
		}
		for range 3 {
			i := r.IntN(len(doc) + 1)
			cut := i + r.IntN(3)
			if cut > len(doc) {
				cut = len(doc)
			}
			m := doc[:i] + mutations[r.IntN(len(mutations))] + doc[cut:]
			if check(t, []byte(m)) {
				mutatedAnswered++
			}
		}
	}
	t.Logf("Parse answered for %d of %d generated documents and %d of %d mutations", answered, iterations, mutatedAnswered, 3*iterations)
	// The generator must reach the subset, or this test checks nothing.
	if answered < iterations/4 || mutatedAnswered < iterations/4 {
		t.Errorf("too few documents in the subset: %d, %d mutated", answered, mutatedAnswered)
	}
}
