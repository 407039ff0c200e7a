package selectors

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// bigItems builds {"items":[{"id":0,"name":"n0"},...]} with n elements.
func bigItems(n int) string {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"n%d"}`, i, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

func benchSelect(b *testing.B, selText string, wantLen int) {
	facts := gjson.Parse(bigItems(100_000))
	sel := MustParse(selText)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := sel.Select(facts)
		if !r.Present {
			b.Fatal("absent")
		}
	}
	b.StopTimer()
	if n := len(sel.Select(facts).Value.Array()); n != wantLen {
		b.Fatalf("matched %d values, want %d", n, wantLen)
	}
}

func BenchmarkSelectWildcard100k(b *testing.B) { benchSelect(b, "items[*]", 100_000) }

func BenchmarkSelectWildcardField100k(b *testing.B) { benchSelect(b, "items[*].id", 100_000) }

// BenchmarkSelectManyKeys runs 1,000 different selectors against an object
// of 10,000 keys; one iteration evaluates all 1,000.
// BenchmarkSelectManyKeys runs 1,000 selectors over a 10,000-key object,
// each a fresh Select (scanning) or all through one Doc (key maps), as
// compile does.
func BenchmarkSelectManyKeys(b *testing.B) {
	for _, useDoc := range []bool{false, true} {
		name := "Select"
		if useDoc {
			name = "Doc"
		}
		b.Run(name, func(b *testing.B) { benchManyKeys(b, useDoc) })
	}
}

func benchManyKeys(b *testing.B, useDoc bool) {
	var sb strings.Builder
	sb.WriteByte('{')
	for i := 0; i < 10_000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"key%d":{"v":%d}`, i, i)
	}
	sb.WriteByte('}')
	facts := gjson.Parse(sb.String())
	sels := make([]*Selector, 1000)
	for i := range sels {
		sels[i] = MustParse(fmt.Sprintf("key%d.v", i*10+7))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		doc := NewDoc(facts)
		for _, s := range sels {
			var r Result
			if useDoc {
				r = s.SelectDoc(doc)
			} else {
				r = s.Select(facts)
			}
			if !r.Present {
				b.Fatalf("%s absent", s)
			}
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(`items[*].tags[0]["odd.key"].b[12]`); err != nil {
			b.Fatal(err)
		}
	}
}
