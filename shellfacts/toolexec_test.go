package shellfacts

import (
	"testing"
)

// TestParseToolPrograms pins the programs build tools run on the command
// line's say (go -exec, -toolexec, -vettool, GOFLAGS, cargo's runners,
// linkers and rustc wrappers): analysed one level deeper as exactly the
// words given, with the tool's own arguments after them only known at
// run time, or unknown code when not static or not shown in full.
func TestParseToolPrograms(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	tests := []commandsCase{
		{`go test -exec 'sudo -E' ./...`, []string{"go test -exec sudo -E ./...", "^1 sudo> built-program ?"}, []string{"go -exec sudo -E"}},
		{`go test -exec="qemu 'a b'" .`, []string{"go test -exec=qemu 'a b' .", "^1 qemu a b ? ?"}, nil},
		{`go build -toolexec 'rm -rf ~' ./...`, []string{"go build -toolexec rm -rf ~ ./...", "^1 rm -rf ~ ? ?"}, nil},
		{`go test -exec 'a "b' .`, []string{`go test -exec a "b .`}, []string{`go -exec 'a "b'`}},
		{`go vet -vettool=/opt/a b ./...`, []string{"go vet -vettool=/opt/a b ./...", "^1 a ?"}, nil},
		{`go vet -vettool "$T" ./...`, []string{"go vet -vettool ? ./..."}, []string{`go -vettool "$T"`}},
		{`go run -exec x example.com/m/cmd/y@v1`, []string{"go> y", "^1 x ? ?"}, []string{"go run example.com/m/cmd/y@v1"}},
		{`go test -run X ./... -args -exec y`, []string{"go test -run X ./... -args -exec y", "^1 y ? ?"}, nil},
		{`GOFLAGS='-mod=mod -toolexec=t' go build`, []string{"^1 t ? ?", "GOFLAGS=-mod=mod -toolexec=t go build"}, nil},
		{`go env -w GOFLAGS=-exec=t`, []string{"go env -w GOFLAGS=-exec=t", "^1 t ? ?"}, nil},
		{`go test -count=1 ./...`, []string{"go test -count=1 ./..."}, nil},
		{`CARGO_TARGET_X_RUNNER='qemu -L /l' cargo run`, []string{"^1 qemu -L /l ? ?", "CARGO_TARGET_X_RUNNER=qemu -L /l cargo run"}, nil},
		{`RUSTC_WRAPPER='a b' cargo build`, []string{"^1 a b ? ?", "RUSTC_WRAPPER=a b cargo build"}, nil},
		{`cargo --config 'target.x.runner="r"' run`, []string{`cargo --config target.x.runner="r" run`, "^1 r ? ?"}, nil},
		{`cargo --config 'target.x.runner=["r"]' run`, []string{`cargo --config target.x.runner=["r"] run`}, []string{`cargo --config 'target.x.runner=["r"]'`}},
		{`cargo build --config=x.toml`, []string{"cargo build --config=x.toml"}, []string{"cargo --config --config=x.toml"}},
		{`cargo --config net.retry=3 build -- --config x`, []string{"cargo --config net.retry=3 build -- --config x"}, nil},
		{`CARGO_ALIAS_B=run cargo b`, []string{"CARGO_ALIAS_B=run cargo b"}, []string{"CARGO_ALIAS_B=run"}},
	}
	checkCommands(t, tests, opts, root)
}
