package shellfacts

import "testing"

// TestParseBuildFlags pins the programs compilers and linkers are told to
// run through the environment and through build flags (CC, CGO_LDFLAGS,
// RUSTFLAGS, go build -ldflags, cargo --config): a program analysed as
// the words given, a plugin or a program named in a way that is not
// shown in full unknown code, and ordinary flags nothing.
func TestParseBuildFlags(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	tests := []commandsCase{
		{`CC='rm -rf ~' go build`, []string{"^1 rm -rf ~ ?", "^1 rm -rf ROOT/home ?", "CC=rm -rf ~ go build"}, nil},
		{`CC='gcc;x' make`, []string{"^1 gcc;x ?", "^1 gcc", "^1 x ?", "CC=gcc;x make"}, nil},
		{`CC=$(which clang) go build`, []string{"^1 which clang", "^1 clang ?", "CC= go build"}, nil},
		{`CC="$X" go build`, []string{"CC= go build"}, []string{"CC=\"$X\""}},
		{`CC=gcc make`, []string{"^1 gcc ?", "CC=gcc make"}, nil},
		{`CXX="ccache g++" go build`, []string{"^1 ccache g++ ?", "CXX=ccache g++ go build"}, nil},
		{`CC_x86_64_unknown_linux_gnu=./cc cargo build`, []string{"^1 cc ?", "CC_x86_64_unknown_linux_gnu=./cc cargo build"}, nil},
		{`go env -w CC=/opt/cc`, []string{"go env -w CC=/opt/cc", "^1 cc ?"}, nil},
		{`CGO_LDFLAGS=-fplugin=./p.so go build`, []string{"CGO_LDFLAGS=-fplugin=./p.so go build"}, []string{"CGO_LDFLAGS=-fplugin=./p.so"}},
		{`CGO_CFLAGS='-O2 -Wl,-plugin,./p.so' go build`, []string{"CGO_CFLAGS=-O2 -Wl,-plugin,./p.so go build"}, []string{"CGO_CFLAGS='-O2 -Wl,-plugin,./p.so'"}},
		{`LDFLAGS='-Wl,-rpath,/opt/lib -Wl,-Bstatic -L/opt/lib' make`, []string{"LDFLAGS=-Wl,-rpath,/opt/lib -Wl,-Bstatic -L/opt/lib make"}, nil},
		{`CFLAGS="$CFLAGS -O2 -fPIC" ./configure`, []string{"CFLAGS= configure"}, nil},
		{`CFLAGS="$CFLAGS $EXTRA" ./configure`, []string{"CFLAGS= configure"}, []string{"CFLAGS=\"$CFLAGS $EXTRA\""}},
		{`CFLAGS="-B/tmp/x" make`, []string{"CFLAGS=-B/tmp/x make"}, []string{"CFLAGS=\"-B/tmp/x\""}},
		{`LDFLAGS=-fuse-ld=lld make`, []string{"LDFLAGS=-fuse-ld=lld make"}, nil},
		{`LDFLAGS=-fuse-ld=/tmp/ld make`, []string{"LDFLAGS=-fuse-ld=/tmp/ld make"}, []string{"LDFLAGS=-fuse-ld=/tmp/ld"}},
		{`RUSTFLAGS='-C linker=./ld' cargo build`, []string{"^1 ld ?", "RUSTFLAGS=-C linker=./ld cargo build"}, nil},
		{`RUSTFLAGS=-Clinker=/opt/ld cargo build`, []string{"^1 ld ?", "RUSTFLAGS=-Clinker=/opt/ld cargo build"}, nil},
		{`RUSTFLAGS='-Dwarnings -C target-cpu=native -C linker-flavor=ld.lld' cargo build`, []string{"RUSTFLAGS=-Dwarnings -C target-cpu=native -C linker-flavor=ld.lld cargo build"}, nil},
		{`RUSTFLAGS='-C link-arg=-fuse-ld=/tmp/ld' cargo build`, []string{"RUSTFLAGS=-C link-arg=-fuse-ld=/tmp/ld cargo build"}, []string{"RUSTFLAGS='-C link-arg=-fuse-ld=/tmp/ld'"}},
		{`RUSTFLAGS='-Zcodegen-backend=./b.so' cargo build`, []string{"RUSTFLAGS=-Zcodegen-backend=./b.so cargo build"}, []string{"RUSTFLAGS='-Zcodegen-backend=./b.so'"}},
		{`RUSTFLAGS='--extern m=./m.so' cargo build`, []string{"RUSTFLAGS=--extern m=./m.so cargo build"}, []string{"RUSTFLAGS='--extern m=./m.so'"}},
		{"CARGO_ENCODED_RUSTFLAGS=$'-Clinker=./ld\\x1f-Dwarnings' cargo build", []string{"^1 ld ?", "CARGO_ENCODED_RUSTFLAGS=-Clinker=./ld\x1f-Dwarnings cargo build"}, nil},
		{`RUSTDOCFLAGS='--runtool valgrind' cargo test --doc`, []string{"^1 valgrind> built-program ?", "RUSTDOCFLAGS=--runtool valgrind cargo test --doc"}, nil},
		{`go build -ldflags=-extld=./ld`, []string{"go build -ldflags=-extld=./ld", "^1 ld ?"}, nil},
		{`go build -ldflags 'all=-extld=ld -s'`, []string{"go build -ldflags all=-extld=ld -s", "^1 ld ?"}, nil},
		{`go build -ldflags '-extld "a b"'`, []string{"go build -ldflags -extld \"a b\"", "^1 a b ?"}, nil},
		{`go build -ldflags='-extld="a'`, []string{"go build -ldflags=-extld=\"a"}, []string{"go -ldflags='-extld=\"a'"}},
		{`go build -ldflags '-extldflags=-fplugin=./p.so'`, []string{"go build -ldflags -extldflags=-fplugin=./p.so"}, []string{"go -ldflags '-extldflags=-fplugin=./p.so'"}},
		{`go build -ldflags '-extldflags "-static -Wl,-rpath,/x"'`, []string{"go build -ldflags -extldflags \"-static -Wl,-rpath,/x\""}, nil},
		{`go build -ldflags '-s -w -X main.v=1'`, []string{"go build -ldflags -s -w -X main.v=1"}, nil},
		{`go build -ldflags "-X main.v=$(git describe)"`, []string{"^1 git describe", "go build -ldflags ?"}, nil},
		{`go build -ldflags "$LDFLAGS"`, []string{"go build -ldflags ?"}, []string{"go -ldflags \"$LDFLAGS\""}},
		{`go build "-ldflags=-s $EXTRA"`, []string{"go build ?"}, []string{"go \"-ldflags=-s $EXTRA\""}},
		{`GOFLAGS=-ldflags=-extld=/opt/ld go build`, []string{"^1 ld ?", "GOFLAGS=-ldflags=-extld=/opt/ld go build"}, nil},
		{`go build -gccgoflags=-fplugin=./p.so`, []string{"go build -gccgoflags=-fplugin=./p.so"}, []string{"go -gccgoflags=-fplugin=./p.so"}},
		{`GOENV=/tmp/env go build`, []string{"GOENV=/tmp/env go build"}, []string{"GOENV=/tmp/env"}},
		{`GOENV=off go build`, []string{"GOENV=off go build"}, nil},
		{`go test -exec "$(which valgrind)" ./...`, []string{"^1 which valgrind", "go test -exec ? ./...", "^1 valgrind> built-program ?"}, nil},
		{`cargo build --config "env.FOO='bar'"`, []string{"cargo build --config env.FOO='bar'"}, nil},
		{`cargo build --config "env.LD_PRELOAD='./x.so'"`, []string{"cargo build --config env.LD_PRELOAD='./x.so'"}, []string{"\"env.LD_PRELOAD='./x.so'\""}},
		{`cargo build --config 'build.rustflags="-Clinker=./ld"'`, []string{"cargo build --config build.rustflags=\"-Clinker=./ld\"", "^1 ld ?"}, nil},
		{`cargo build --config 'build.rustflags=["-Clink-arg=-B/tmp"]'`, []string{"cargo build --config build.rustflags=[\"-Clink-arg=-B/tmp\"]"}, []string{"cargo --config 'build.rustflags=[\"-Clink-arg=-B/tmp\"]'"}},
		{`cargo build --config 'target.x.linker="./ld"'`, []string{"cargo build --config target.x.linker=\"./ld\"", "^1 ld ?"}, nil},
		{`cargo build --config 'build.rustc-wrapper="sccache"'`, []string{"cargo build --config build.rustc-wrapper=\"sccache\"", "^1 sccache ? ?"}, nil},
	}
	checkCommands(t, tests, opts, root)
}
