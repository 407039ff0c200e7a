package envelope

import (
	"testing"

	"github.com/vouch-dev/vouch/yamldoc"
)

func TestLocate(t *testing.T) {
	src := "facts:\n  csv:\n    caps: [a, b]\n    file: x.go\n  list:\n    - name: one\n    - name: two\n"
	e, err := Parse("e.yaml", []byte(src), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	paths := [][]string{
		{"csv", "caps"}, {"csv", "caps", "1"},
		{"csv", "missing"}, // the nearest enclosing value
		{"list", "1", "name"}, {"nowhere"}, nil,
	}
	want := []yamldoc.Pos{{Line: 3, Col: 5}, {Line: 3, Col: 15}, {Line: 2, Col: 3}, {Line: 7, Col: 7}, {}, {}}
	got := e.Locate(paths)
	for i := range paths {
		if got[i] != want[i] {
			t.Errorf("Locate(%q) = %v, want %v", paths[i], got[i], want[i])
		}
	}
	j, err := Parse("e.json", []byte(`{"facts": {"a": 1}}`), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if got := j.Locate([][]string{{"a"}}); got[0] != (yamldoc.Pos{}) {
		t.Errorf("a JSON envelope has no positions, got %v", got[0])
	}
}
