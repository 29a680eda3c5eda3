#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Ratios of the wal phase's commits/s to pg_test_fsync's ops/sec per method,
# from the raw outputs compare-wal.sh keeps: per round, then the median.
import json, re, statistics, sys

out, rounds = sys.argv[1], int(sys.argv[2])
# (pg_test_fsync section, its label) -> (arraybench test, bytes per commit)
PAIRS = [
    (("one", "open_datasync"), ("open_datasync", 8192)),
    (("one", "fdatasync"), ("fdatasync", 8192)),
    (("one", "fsync"), ("fsync", 8192)),
    (("one", "open_sync"), ("open_sync", 8192)),
    (("two", "open_datasync"), ("open_datasync 2x8k", 16384)),
    (("two", "fdatasync"), ("fdatasync 2x8k", 16384)),
    (("two", "fsync"), ("fsync 2x8k", 16384)),
    (("two", "open_sync"), ("open_sync 2x8k", 16384)),
    (("sizes", "1 * 16kB open_sync write"), ("open_sync", 16384)),
    (("sizes", "2 *  8kB open_sync writes"), ("open_sync 2x8k", 16384)),
]

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

per = {pair: [] for pair, _ in PAIRS}
rows = []
for r in range(1, rounds + 1):
    pg, ab = pg_rates(f"{out}/pg.r{r}.txt"), ab_rates(f"{out}/ab.r{r}.json")
    for pgk, abk in PAIRS:
        if pgk in pg and abk in ab:
            per[pgk].append((pg[pgk], ab[abk], ab[abk] / pg[pgk]))
print(f"{'pg_test_fsync':34} {'arraybench wal':22} {'pg ops/s':>9} {'ab commits/s':>12} {'ratios per round':40} median")
for pgk, abk in PAIRS:
    v = per[pgk]
    if not v:
        continue
    med = statistics.median(x[2] for x in v)
    flag = "  <0.95" if med < 0.95 else ("  >1.05 (over-reporting?)" if med > 1.05 else "")
    print(f"{pgk[0] + ': ' + pgk[1]:34} {abk[0] + ' ' + str(abk[1] // 1024) + 'k':22} "
          f"{statistics.median(x[0] for x in v):9.1f} {statistics.median(x[1] for x in v):12.1f} "
          f"{' '.join(f'{x[2]:.3f}' for x in v):40} {med:.3f}{flag}")

# The noise floor: the same tool against itself, round r against round
# r + 1 (pg_test_fsync's ops/sec; the wal phase's commits/s), the median of
# |log ratio| shown as a factor.
import math
def spread(values):
    logs = [abs(math.log(b / a)) for a, b in zip(values, values[1:]) if a > 0 and b > 0]
    return math.exp(statistics.median(logs)) if logs else float("nan")
print()
print("noise floor, each tool against its own next round (median factor between consecutive rounds):")
for pgk, abk in PAIRS:
    v = per[pgk]
    if len(v) < 2:
        continue
    print(f"  {pgk[0] + ': ' + pgk[1]:34} pg x{spread([x[0] for x in v]):.2f}   arraybench x{spread([x[1] for x in v]):.2f}")
allr = [x[2] for pgk, _ in PAIRS for x in per[pgk]]
if allr:
    print(f"all pairs: median ratio {statistics.median(allr):.3f}, geometric mean "
          f"{math.exp(statistics.mean(math.log(r) for r in allr)):.3f} over {len(allr)} pairs")
