#!/usr/bin/env bash
# Whole-process comparison of vouch and conftest on the three workloads of
# docs/performance.md: the shipped csv-importer example, 1,000 predicates
# over a 10,000-key envelope, and 5 predicates over a 100,000-element array,
# each with the same rules written in Rego.
#
#   testdata/bench/vs-conftest.sh [ROUNDS]
#   CONFTEST=/path/to/conftest testdata/bench/vs-conftest.sh [ROUNDS]
#
# Needs hyperfine; runs conftest too when $CONFTEST names it or it is on
# PATH (otherwise only vouch is timed). It prints a Markdown table, with
# the command and the machine's load, ready for docs/performance.md. Each round runs every command a few times, alternating
# tools round by round, so load that comes and goes on a shared machine
# hits both alike; the medians over all rounds are printed at the end.
set -euo pipefail

rounds=${1:-5}
runs_per_round=3
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v hyperfine >/dev/null || { echo "vs-conftest: hyperfine is not installed (apt-get install hyperfine)" >&2; exit 2; }
conftest=${CONFTEST:-$(command -v conftest || true)}
have_conftest=false
if [ -n "$conftest" ]; then
	[ -x "$conftest" ] || { echo "vs-conftest: $conftest is not an executable" >&2; exit 2; }
	have_conftest=true
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

echo "building vouch (CGO_ENABLED=0, -tags urfave_cli_no_docs)"
(cd "$root" && CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$work/vouch" ./cmd/vouch)
(cd "$root" && go run ./internal/benchgen -out "$work")

# The csv-importer example, with its rules in Rego.
mkdir -p "$work/csv-importer/policy"
cp "$root/testdata/examples/csv-importer/analysis/rulespec.yaml" "$work/csv-importer/rulespec.yaml"
cp "$root/testdata/examples/csv-importer/envelope.yaml" "$work/csv-importer/envelope.yaml"
cat > "$work/csv-importer/policy/main.rego" <<'REGO'
package main

import rego.v1

caps := input.facts.csv_importer.capabilities

deny contains "p0" if not caps
deny contains "p1" if not "handle_csv" in caps
deny contains "p2" if "legacy_parser" in caps
deny contains "p3" if count(caps) < 2
deny contains "p4" if not regex.match(`^src/.*\.rs$`, input.facts.csv_importer.file)
deny contains "p5" if count(input.facts.csv_importer.tests) < 1
deny contains "p6" if input.facts.breaking_changes != null
deny contains "p7" if {
	input.facts.api_changes.breaking == true
	not "migration_guide" in caps
}
REGO

results="$work/results"
mkdir -p "$results"
for name in csv-importer wide-1000 array-100k; do
	dir="$work/$name"
	env=$(cd "$dir" && ls envelope.*)
	vouch_cmd="$work/vouch verify --root $dir --rulespec $dir/rulespec.yaml --out $dir/out $dir/$env"
	conftest_cmd="$conftest test --no-color -p $dir/policy $dir/$env"
	# Both tools must agree that the workload passes before it is timed.
	$vouch_cmd >/dev/null
	if $have_conftest; then $conftest_cmd >/dev/null; fi
	for ((r = 0; r < rounds; r++)); do
		cmds=("$vouch_cmd")
		if $have_conftest; then
			if ((r % 2)); then cmds=("$conftest_cmd" "$vouch_cmd"); else cmds+=("$conftest_cmd"); fi
		fi
		hyperfine -N --style none --warmup 1 --runs "$runs_per_round" \
			--export-json "$results/$name.$r.json" "${cmds[@]}" >/dev/null
	done
done

python3 - "$results" "$rounds" "$runs_per_round" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" "$($conftest --version 2>/dev/null | tr "\n" " " || true)" <<'PY'
import glob, json, os, statistics, sys
from collections import defaultdict
# Wall time is the median of every run; CPU time (user + system, which a
# loaded machine inflates far less than wall time) is the mean per round,
# averaged, as hyperfine reports only means for it.
results, rounds, runs, load_before, load_after, conftest_version = sys.argv[1:7]
times, cpu = defaultdict(list), defaultdict(list)
for path in sorted(glob.glob(os.path.join(results, "*.json"))):
    name = os.path.basename(path).split(".")[0]
    for r in json.load(open(path))["results"]:
        tool = "vouch" if "vouch verify" in r["command"] else "conftest"
        times[(name, tool)].extend(r["times"])
        cpu[(name, tool)].append(r["user"] + r["system"])
labels = {"csv-importer": "csv-importer example (8 predicates)",
          "wide-1000": "1,000 predicates / 10k keys",
          "array-100k": "5 predicates / 100,000 elements"}
print(f"`testdata/bench/vs-conftest.sh {rounds}`: {rounds} rounds of {runs} runs per tool, order alternating;")
print(f"load average {load_before} before, {load_after} after (2 cores); {conftest_version or 'conftest not installed'}.")
print()
print("| workload | vouch wall (median) | vouch CPU | conftest wall (median) | conftest CPU | ratio wall | ratio CPU |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for name in ["csv-importer", "wide-1000", "array-100k"]:
    v = statistics.median(times[(name, "vouch")]) * 1000
    vc = statistics.mean(cpu[(name, "vouch")]) * 1000
    if times.get((name, "conftest")):
        c = statistics.median(times[(name, "conftest")]) * 1000
        cc = statistics.mean(cpu[(name, "conftest")]) * 1000
        print(f"| {labels[name]} | {v:.1f} ms | {vc:.1f} ms | {c:.1f} ms | {cc:.1f} ms | {v / c:.2f} | {vc / cc:.2f} |")
    else:
        print(f"| {labels[name]} | {v:.1f} ms | {vc:.1f} ms | - | - | - | - |")
PY
