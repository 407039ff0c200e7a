package yamldoc

import "testing"

func TestErrorString(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{Msg: "bad"}, "bad"},
		{Error{Pos: Pos{Line: 3, Col: 7}, Msg: "bad"}, "3:7: bad"},
		{Error{File: "a.toml", Msg: "bad"}, "a.toml: bad"},
		{Error{File: "a.toml", Pos: Pos{Line: 3}, Msg: "bad"}, "a.toml:3: bad"},
		{Error{File: "a.toml", Pos: Pos{Line: 3, Col: 7}, Msg: "bad"}, "a.toml:3:7: bad"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q, want %q", tt.e, got, tt.want)
		}
	}
}
