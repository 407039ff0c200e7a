package suggest

import "testing"

func TestClosest(t *testing.T) {
	rules := []string{"exists", "not_exists", "equals", "contains", "not_contains", "any_of", "none_of",
		"greater_than", "less_than", "min_length", "max_length", "matches"}
	tests := []struct {
		word   string
		want   string
		wantOK bool
	}{
		{"min_len", "min_length", true},
		{"exist", "exists", true},
		{"greaterthan", "greater_than", true},
		{"anyof", "any_of", true},
		{"regex", "", false},
		{"zzzzzzzzzzzz", "", false},
	}
	for _, tt := range tests {
		got, ok := Closest(tt.word, rules)
		if ok != tt.wantOK || (ok && got != tt.want) {
			t.Errorf("Closest(%q) = %q, %v; want %q, %v", tt.word, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestClosestEmpty(t *testing.T) {
	if got, ok := Closest("x", nil); ok || got != "" {
		t.Errorf("Closest with no candidates = %q, %v; want \"\", false", got, ok)
	}
}

func TestHint(t *testing.T) {
	if got, want := Hint("predicate", []string{"predicates", "claims"}), ` (did you mean "predicates"?)`; got != want {
		t.Errorf("Hint = %q, want %q", got, want)
	}
	if got := Hint("zzz", []string{"predicates", "claims"}); got != "" {
		t.Errorf("Hint for a far word = %q, want empty", got)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"héllo", "hello", 1},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
