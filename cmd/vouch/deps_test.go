package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoCgoPackages: with cgo available (a plain `go install` on a machine
// with a C compiler), os/user and net link the C library and make vouch a
// dynamically linked binary, whose loader and extra threads every hook
// process pays for. vouch links neither.
func TestNoCgoPackages(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		switch p {
		case "os/user", "net", "runtime/cgo", "plugin":
			t.Errorf("vouch links %s, which needs cgo when it is available; see canonpath.UserHome for os/user", p)
		}
	}
}
