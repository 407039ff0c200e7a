package compile

import (
	"errors"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/rulespec"
)

// TestMaxElements: a claim selecting more elements than the limit stops
// compiling at that claim, before anything is built per element, and says
// which claim.
func TestMaxElements(t *testing.T) {
	rs, err := rulespec.Parse("r.yaml", []byte("claims:\n  - {name: few, selector: few}\n  - {name: many, selector: \"many[*]\"}\npredicates:\n  - {claim: few, rule: any_of, value: [a]}\n  - {claim: many, rule: any_of, value: [a]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	facts := gjson.Parse(`{"few": ["a", "b"], "many": ["a", "b", "c", "d"]}`)
	tests := []struct {
		max      int
		wantErr  string
		wantSecs bool
	}{
		{0, "", true},
		{4, "", true},
		{3, `claim "many" (selector many[*]) selects more than 3 array elements`, false},
		{1, `claim "few" (selector few) selects more than 1 array elements`, false},
	}
	for _, tt := range tests {
		p := Compile(rs, facts, Options{MaxElements: tt.max})
		var ee *ElementsError
		switch {
		case tt.wantErr == "" && p.ElementsErr != nil:
			t.Errorf("max %d: unexpected %v", tt.max, p.ElementsErr)
		case tt.wantErr != "" && (!errors.As(p.ElementsErr, &ee) || !strings.Contains(p.ElementsErr.Error(), tt.wantErr)):
			t.Errorf("max %d: error %v, want one containing %q", tt.max, p.ElementsErr, tt.wantErr)
		}
		if got := len(p.Sections) > 0; got != tt.wantSecs {
			t.Errorf("max %d: program has sections %v, want %v", tt.max, got, tt.wantSecs)
		}
	}
}
