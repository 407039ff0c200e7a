package output

import "testing"

func TestCheckFormat(t *testing.T) {
	tests := []struct {
		format  string
		formats []string
		want    string
	}{
		{"json", []string{"text", "json"}, ""},
		{"yaml", []string{"text", "json"}, `unknown --format "yaml"; use text or json`},
		{"jsn", []string{"text", "json"}, `unknown --format "jsn" (did you mean "json"?); use text or json`},
		{"xml", []string{"a", "b", "c"}, `unknown --format "xml"; use a, b, c`},
	}
	for _, tt := range tests {
		err := CheckFormat(tt.format, tt.formats)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckFormat(%q) = %q, want %q", tt.format, got, tt.want)
		}
	}
}
