"""Turns import-linter's text report (stdin) into the lines the parity test compares.

One line per contract with its status, one per illegal chain (its first
importer and last imported module), and one per module an exhaustive
layers contract does not list.
"""
import re
import sys

lines = [l.rstrip() for l in sys.stdin.read().splitlines()]
out = set()
for l in lines:
    m = re.match(r"^(.*) (KEPT|BROKEN)$", l)
    if m:
        out.add(f"{m.group(1)}: {m.group(2)}")
hop = re.compile(r"^(\S+) -> (\S+) \(l\.[0-9, ]+\)$")
contract, first, last, unlisted = None, None, None, False


def flush():
    global first, last
    if first:
        out.add(f"{contract}: {first} -> {last}")
    first = last = None


start = lines.index("Broken contracts") if "Broken contracts" in lines else len(lines)
for i in range(start + 2, len(lines)):
    l = lines[i]
    if i + 1 < len(lines) and lines[i + 1] and set(lines[i + 1]) == {"-"} and len(lines[i + 1]) == len(l):
        flush()
        contract, unlisted = l, False
        continue
    if not l.strip() or set(l) == {"-"}:
        flush()
        continue
    if l.startswith("The following modules are not listed as layers"):
        flush()
        unlisted = True
        continue
    body = l.lstrip("- ").strip() if l.startswith("-") else l.strip()
    m = hop.match(body)
    if m and l.startswith("-"):
        flush()
        first, last = m.group(1), m.group(2)
    elif m:
        last = m.group(2)
    elif unlisted and l.startswith("- "):
        out.add(f"{contract}: not listed as a layer: {body}")
    else:
        flush()
print("\n".join(sorted(out)))
