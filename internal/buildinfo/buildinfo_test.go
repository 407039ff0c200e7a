package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromInfo(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}
	dirty := append(append([]debug.BuildSetting{}, rev...), debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	tests := []struct {
		name    string
		ldflags string
		info    *debug.BuildInfo
		want    string
		wantRef string
	}{
		{"ldflags win", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}}, "v1.2.3", "v1.2.3"},
		{"module version", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123101010-0123456789ab"}}, "v0.0.0-20261123101010-0123456789ab", "v0.0.0-20261123101010-0123456789ab"},
		{"dirty checkout, Go 1.24 stamping", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261126131126-64f3b0099bce+dirty"}, Settings: dirty}, "v0.0.0-20261126131126-64f3b0099bce+dirty", "v0.0.0-20261126131126-64f3b0099bce"},
		{"checkout build", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "devel-0123456789ab", "0123456789abcdef0123"},
		{"dirty checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: dirty}, "devel-0123456789ab-dirty", "0123456789abcdef0123"},
		{"nothing known", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev", ""},
		{"no build info", "", nil, "dev", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fromInfo(tt.ldflags, tt.info); got != tt.want {
				t.Errorf("fromInfo = %q, want %q", got, tt.want)
			}
			if got := installRef(tt.ldflags, tt.info); got != tt.wantRef {
				t.Errorf("installRef = %q, want %q", got, tt.wantRef)
			}
		})
	}
}
