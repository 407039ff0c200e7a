# vouch development recipes. `just` installs with `npm install -g rust-just`;
# nothing in the README needs it.

# Build the vouch binary into ./vouch (static, no cgo). The tag drops
# urfave/cli's man-page support, whose init work every start paid.
build:
    CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o vouch ./cmd/vouch

# Vet and run every test, including fuzz seed corpora and CLI scripts.
test:
    go vet ./...
    go test ./...

# Run the benchmarks (figures are per operation on this machine).
bench:
    go test -run '^$' -bench . -benchmem ./...

# Whole-process comparison with conftest on the workloads of
# docs/performance.md (needs hyperfine; conftest is timed when installed).
bench-vs-conftest rounds="5":
    testdata/bench/vs-conftest.sh {{rounds}}

# Whole-process comparison of `vouch guard` with Edictum's Go gate on
# guard/testdata/bench12.yaml (docs/guard.md, Latency); set EDICTUM to its
# binary, else only vouch and an empty Go program are timed.
bench-vs-edictum runs="50":
    testdata/bench/vs-edictum.sh {{runs}}

# Fuzz every fuzz target for a while each (`just fuzz 2m` for longer).
fuzz fuzztime="30s":
    #!/usr/bin/env bash
    set -euo pipefail
    for pkg in $(go list ./...); do
        for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
            echo "== $pkg $target"
            go test -run '^$' -fuzz "^${target}\$" -fuzztime {{fuzztime}} "$pkg"
        done
    done

# Regenerate golden files and testscript expectations.
update:
    go test ./imports/ -update
    go test ./lint/ -update
    VOUCH_UPDATE_SCRIPTS=1 go test ./cmd/vouch/

# Everything CI runs.
ci:
    bash .ci/run
