package verify

import "testing"

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"héllo 😀", "héllo 😀"},
		{"cr\rhere", `cr\x0dhere`},
		{"esc\x1b[31mred", `esc\x1b[31mred`},
		{"nl\n", `nl\x0a`},
		{"c1\u0085", `c1\x85`},
	}
	for _, tt := range tests {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
