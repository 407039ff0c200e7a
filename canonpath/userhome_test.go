package canonpath

import (
	"strings"
	"testing"
)

func TestLookupHome(t *testing.T) {
	const passwd = "root:x:0:0:root:/root:/bin/bash\n# comment\nbad:line\nalice:x:1000:1000:Alice,,,:/home/alice:/bin/sh\nal:x:1001:1001::/home/al:/bin/sh\n"
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"root", "/root", true},
		{"alice", "/home/alice", true},
		{"al", "/home/al", true}, // not alice: the name is a whole field
		{"bad", "", false},
		{"nobody", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := lookupHome(strings.NewReader(passwd), tt.name)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("lookupHome(%q) = %q, %v; want %q (found %v)", tt.name, got, err, tt.want, tt.ok)
		}
	}
}
