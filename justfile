# vouch development recipes. `just` installs with `npm install -g rust-just`;
# nothing in the README needs it.

# Build the vouch binary into ./vouch (static, no cgo).
build:
    CGO_ENABLED=0 go build -o vouch ./cmd/vouch

# Vet and run every test, including fuzz seed corpora and CLI scripts.
test:
    go vet ./...
    go test ./...

# Run the benchmarks (figures are per operation on this machine).
bench:
    go test -run '^$' -bench . -benchmem ./...

# Fuzz each parser for a while (`just fuzz 2m` for longer).
fuzz fuzztime="30s":
    go test -run '^$' -fuzz FuzzParse -fuzztime {{fuzztime}} ./selectors/
    go test -run '^$' -fuzz FuzzSelect -fuzztime {{fuzztime}} ./selectors/
    go test -run '^$' -fuzz FuzzParse -fuzztime {{fuzztime}} ./envelope/
    go test -run '^$' -fuzz FuzzParse -fuzztime {{fuzztime}} ./rulespec/
    go test -run '^$' -fuzz FuzzQuoteString -fuzztime {{fuzztime}} ./compile/
    go test -run '^$' -fuzz FuzzProgramRoundTrip -fuzztime {{fuzztime}} ./verify/

# Regenerate golden files and testscript expectations.
update:
    go test ./... -update
    VOUCH_UPDATE_SCRIPTS=1 go test ./cmd/vouch/

# Everything CI runs.
ci:
    bash .ci/run
