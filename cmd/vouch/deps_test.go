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
// The hook binaries, vouch-guard and vouch-hook, start on every tool call
// and are held to the same rule (hookwire speaks Unix sockets without
// package net for this reason).
func TestNoCgoPackages(t *testing.T) {
	for _, pkg := range []string{".", "../vouch-guard", "../vouch-hook"} {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
		if err != nil {
			t.Skipf("go list: %v", err)
		}
		for _, p := range strings.Fields(string(out)) {
			switch p {
			case "os/user", "net", "runtime/cgo", "plugin":
				t.Errorf("%s links %s, which needs cgo when it is available; see canonpath.UserHome for os/user", pkg, p)
			}
		}
	}
}

// TestHookClientStdlibOnly: vouch-hook's start-up is what the fast mode
// costs on top of the server's decision, so it links only the standard
// library and its own two small packages, never the guard (Mangle,
// yaml.v3, mvdan/sh initialise for milliseconds).
func TestHookClientStdlibOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "../vouch-hook").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		switch p {
		case "github.com/vouch-dev/vouch/cmd/vouch-hook", "github.com/vouch-dev/vouch/internal/hookclient", "github.com/vouch-dev/vouch/internal/hookwire":
		default:
			t.Errorf("vouch-hook links %s", p)
		}
	}
}
