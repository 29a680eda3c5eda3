#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Ratios of the wal phase's commits/s to pg_test_fsync's ops/sec per method,
# from the raw outputs compare-wal.sh keeps, in the balanced-rounds report
# of bench/rounds.py (found beside this file): per pair the median of the
# per-round ratios, min-max, the medians when arraybench ran before / after
# pg_test_fsync, the A/A median (arraybench against its twin run in the
# same round), the floor and the ORDER-BOUND mark.
#   compare-wal.py OUT ROUNDS
# Writes OUT/results.tsv from the raw files; reads OUT/orders.tsv (the
# order each round ran in).  A directory from before the balanced rounds
# (no orders.tsv, no twin) is read, writing nothing into it, with the order
# it had: pg_test_fsync first in odd rounds, arraybench first in even ones;
# its A/A is n/a.
import json, os, re, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds as R  # noqa: E402

SUBJECT, TWIN, PEER = "arraybench", "arraybench-aa", "pg_test_fsync"
out, nrounds = sys.argv[1], int(sys.argv[2])
# metric -> (pg_test_fsync section, its label), (arraybench test, bytes per commit)
PAIRS = [
    ("1w open_datasync", ("one", "open_datasync"), ("open_datasync", 8192)),
    ("1w fdatasync", ("one", "fdatasync"), ("fdatasync", 8192)),
    ("1w fsync", ("one", "fsync"), ("fsync", 8192)),
    ("1w open_sync", ("one", "open_sync"), ("open_sync", 8192)),
    ("2w open_datasync", ("two", "open_datasync"), ("open_datasync 2x8k", 16384)),
    ("2w fdatasync", ("two", "fdatasync"), ("fdatasync 2x8k", 16384)),
    ("2w fsync", ("two", "fsync"), ("fsync 2x8k", 16384)),
    ("2w open_sync", ("two", "open_sync"), ("open_sync 2x8k", 16384)),
    ("16k open_sync", ("sizes", "1 * 16kB open_sync write"), ("open_sync", 16384)),
    ("2x8k open_sync", ("sizes", "2 *  8kB open_sync writes"), ("open_sync 2x8k", 16384)),
]
LO, HI = 0.95, 1.05  # the flags this comparison has always used


def pg_rates(path):
    rates, section = {}, None
    for line in open(path):
        if "using one" in line:
            section = "one"
        elif "using two" in line:
            section = "two"
        elif "different write sizes" in line:
            section = "sizes"
        elif line.startswith("Test if") or line.startswith("Non-sync"):
            section = None
        m = re.match(r"^\s+(.+?)\s{2,}([0-9.]+) ops/sec", line)
        if section and m:
            rates[(section, m.group(1).strip())] = float(m.group(2))
    return rates


def ab_rates(path):
    rates = {}
    for line in open(path):
        o = json.loads(line)
        for p in o["phases"]:
            if p["name"] == "wal":
                # --wal-rewrite runs (WAL_PATTERN=rewrite) name the same methods.
                test = p["key"]["test"].removesuffix(" rewrite")
                rates[(test, p["key"]["record_size_bytes"])] = p["rate"]
    return rates


def maybe(fn, path):
    try:
        return fn(path)
    except (OSError, ValueError, KeyError):
        return {}


# results.tsv from the raw files (a missing or broken file: NA).
files = {SUBJECT: ("ab.r%d.json", ab_rates), TWIN: ("aa.r%d.json", ab_rates), PEER: ("pg.r%d.txt", pg_rates)}
rows = []
for r in range(1, nrounds + 1):
    for tool, (name, fn) in files.items():
        path = f"{out}/{name % r}"
        if tool == TWIN and not os.path.exists(path):
            continue
        rates = maybe(fn, path)
        for metric, pgk, abk in PAIRS:
            v = rates.get(pgk if tool == PEER else abk)
            rows.append("%d\t%s\t%s\t%s\n" % (r, tool, metric, "NA" if v is None else repr(v)))
if os.path.exists(f"{out}/orders.tsv"):
    with open(f"{out}/results.tsv", "w") as f:
        f.writelines(rows)
    values, positions = R.read_results(f"{out}/results.tsv"), R.read_orders(f"{out}/orders.tsv")
else:
    # An old directory, read as it is (nothing written into it).
    print("(no orders.tsv: a run from before the balanced rounds, read with its alternating order)")
    values = {}
    for line in rows:
        r, tool, metric, v = line.rstrip("\n").split("\t")
        values[(int(r), tool, metric)] = None if v == "NA" else float(v)
    positions = {}
    for r in range(1, nrounds + 1):
        for pos, tool in enumerate([PEER, SUBJECT] if r % 2 else [SUBJECT, PEER], 1):
            positions[(r, tool)] = pos

print(f"{'metric':16} {'pg_test_fsync':32} {'arraybench wal':22} {'pg ops/s':>9} {'ab commits/s':>12}  ratios per round")
comps = []
for metric, pgk, abk in PAIRS:
    c = R.Comparison(values, positions, SUBJECT, PEER, metric, TWIN)
    comps.append(c)
    pgv = [values.get((r, PEER, metric)) for r in c.rounds]
    abv = [values.get((r, SUBJECT, metric)) for r in c.rounds]
    med = lambda xs: R.fmt(R.median([x for x in xs if x]), 1)
    print(f"{metric:16} {pgk[0] + ': ' + pgk[1]:32} {abk[0] + ' ' + str(abk[1] // 1024) + 'k':22} "
          f"{med(pgv):>9} {med(abv):>12}  {' '.join(R.fmt(x) for x in c.ratios)}")
print()
print(R.HEADER)
for c in comps:
    print(R.format_row(c, LO, HI))
print(R.LEGEND)
print(f"verdict: PASS {LO}-{HI}, FAIL under {LO}, HIGH over {HI} (over-reporting?)")
for metric, _, _ in PAIRS:
    print(R.aa_line(R.Comparison(values, positions, SUBJECT, TWIN, metric, TWIN)))
allr = [x for c in comps for x in c.ratios if x is not None]
if allr:
    import math
    print(f"all pairs: median ratio {statistics.median(allr):.3f}, geometric mean "
          f"{math.exp(statistics.mean(math.log(r) for r in allr)):.3f} over {len(allr)} pairs")
