#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The ratio arithmetic of bench/rounds.py on made-up rounds: one line per
# check, "ok DESCRIPTION" or "not ok DESCRIPTION: what was seen", read by
# t0005-bench-rounds.sh.  Planted: an order effect the harness must find, a
# tool difference it must not call order-bound, and the design's balance.
import itertools, os, sys, tempfile
sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import rounds

def check(cond, what, seen=""):
    print("ok %s" % what if cond else "not ok %s: %s" % (what, seen))

# The design: every tool in every position equally often, and every pair of
# tools each way round in half the rows, for 2 to 6 tools.
for k in range(2, 7):
    rows = rounds.design(k)
    perms_ok = all(sorted(r) == list(range(k)) for r in rows)
    pos_ok = all(sorted(r[p] for r in rows) == sorted(list(range(k)) * (len(rows) // k)) for p in range(k))
    pair_ok = all(sum(r.index(a) < r.index(b) for r in rows) * 2 == len(rows)
                  for a, b in itertools.permutations(range(k), 2))
    check(perms_ok and pos_ok and pair_ok and len(rows) == (k if k % 2 == 0 else 2 * k),
          "design of %d tools: %d rows, each position and each pair's order balanced" % (k, len(rows)), rows)
check(rounds.order(["A", "B"], 1) == ["A", "B"] and rounds.order(["A", "B"], 2) == ["B", "A"]
      and rounds.order(["A", "B"], 3) == ["A", "B"], "two tools alternate", [rounds.order(["A", "B"], r) for r in (1, 2, 3)])

def plant(n_rounds, tools, rate, effect, noise):
    """Rounds in the design's order; a tool's value is its rate times
    (1 + effect) when it runs right after another tool (the machine's
    order effect) times a fixed per-round noise factor."""
    orders, results = [], []
    for r in range(1, n_rounds + 1):
        for pos, t in enumerate(rounds.order(tools, r), 1):
            orders.append((r, pos, t))
            v = rate[t] * (1 + (effect if pos > 1 else 0)) * noise[(r + pos) % len(noise)]
            results.append((r, t, "block-write", v))
    d = tempfile.mkdtemp()
    po, pr = os.path.join(d, "orders.tsv"), os.path.join(d, "results.tsv")
    with open(po, "w") as f:
        f.writelines("%d\t%d\t%s\n" % o for o in orders)
    with open(pr, "w") as f:
        f.writelines("%d\t%s\t%s\t%r\n" % x for x in results)
    return rounds.read_results(pr), rounds.read_orders(po)

noise = [1.0, 1.01, 0.99, 1.005, 0.995]
tools = ["arraybench", "arraybench-aa", "bonnie++"]
# 1. A planted order effect (+20 % for whoever runs second or later), the
#    tools equal: the overall median sits near 1 but the positions disagree.
v, p = plant(6, tools, {"arraybench": 100.0, "arraybench-aa": 100.0, "bonnie++": 100.0}, 0.20, noise)
c = rounds.Comparison(v, p, "arraybench", "bonnie++", "block-write", "arraybench-aa")
check(c.n == 6 and len(c.before) == 3 and len(c.after) == 3, "six rounds: arraybench before bonnie++ in three, after in three",
      (c.n, c.before, c.after))
check(c.med_before is not None and c.med_before < 0.9 and c.med_after > 1.1,
      "per-position medians show the planted effect (first < 0.9, second > 1.1)", (c.med_before, c.med_after))
check(c.floor is not None and c.floor > 0.1, "the A/A floor carries the order effect too when the twin moves (floor > 0.1)", c.floor)
check(c.order_bound is True, "order-bound when the positions differ by more than the floor",
      (c.med_before, c.med_after, c.floor))
check("ORDER-BOUND" in rounds.format_row(c), "the report's row says ORDER-BOUND", rounds.format_row(c))
# 2. A small planted effect, a real tool difference, and quiet A/A: not
#    order-bound, and the median is the tool difference.
v, p = plant(6, tools, {"arraybench": 86.0, "arraybench-aa": 86.0, "bonnie++": 100.0}, 0.0, noise)
c = rounds.Comparison(v, p, "arraybench", "bonnie++", "block-write", "arraybench-aa")
check(abs(c.median - 0.86) < 0.02, "a real difference of 0.86 is found as the median", c.median)
check(c.order_bound is False, "no order effect planted: not order-bound", (c.med_before, c.med_after, c.floor))
check(c.verdict(0.97) == "FAIL" and c.verdict(0.80) == "PASS", "verdict against a target (0.86: FAIL at 0.97, PASS at 0.80)",
      (c.verdict(0.97), c.verdict(0.80)))
check(c.floor < 0.03 and abs(c.aa_median - 1) < 0.02, "quiet A/A: the floor is the planted noise (< 0.03)", (c.floor, c.aa_median))
# 3. An order effect beyond the floor where the A/A pair itself is quiet:
#    the effect acts on bonnie++ only when it runs last (say a cache left by
#    the others); the twin and arraybench are unaffected.
orders, res = [], []
for r in range(1, 7):
    o = rounds.order(tools, r)
    for pos, t in enumerate(o, 1):
        orders.append((r, pos, t))
        val = 100.0 * noise[r % len(noise)]
        if t == "bonnie++" and pos == 3:
            val *= 1.3
        res.append((r, t, "seeks", val))
d = tempfile.mkdtemp()
open(os.path.join(d, "o"), "w").writelines("%d\t%d\t%s\n" % x for x in orders)
open(os.path.join(d, "r"), "w").writelines("%d\t%s\t%s\t%r\n" % x for x in res)
c = rounds.Comparison(rounds.read_results(os.path.join(d, "r")), rounds.read_orders(os.path.join(d, "o")),
                      "arraybench", "bonnie++", "seeks", "arraybench-aa")
check(c.floor == 0 and c.order_bound is True, "an order effect on the peer alone is order-bound over a zero floor",
      (c.floor, c.med_before, c.med_after))
# 4. Missing values: an NA run leaves its round out, and says so.
open(os.path.join(d, "r2"), "w").writelines("%d\t%s\t%s\t%s\n" % (r, t, m, "NA" if (r, t) == (2, "bonnie++") else v)
                                          for r, t, m, v in res)
c = rounds.Comparison(rounds.read_results(os.path.join(d, "r2")), rounds.read_orders(os.path.join(d, "o")),
                      "arraybench", "bonnie++", "seeks", "arraybench-aa")
check(c.n == 5 and "(5 of 6 rounds)" in rounds.format_row(c), "a missing run leaves its round out and the row says 5 of 6",
      rounds.format_row(c))
