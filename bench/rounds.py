#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/rounds.py: the ratio arithmetic every bench/ script shares.

Why: this machine hands freed memory back to its host, so whichever tool runs
right after a cache drop or a big free pays for it.  A harness that always
runs its tools in one order measures the order.  So every script runs its
tools in rounds whose order changes from round to round (a Williams design:
each tool takes each position equally often and follows each other tool
equally often), runs arraybench twice in every round (the A/A pair, whose
ratio is the noise floor of that machine on that day), and reports each
ratio's median overall, per position (the subject ran before the peer, or
after it) and next to the floor.  A ratio whose per-position medians differ
by more than the floor is marked order-bound: its overall median says more
about the order than about the tools.

Two files feed it, both tab-separated:
  orders:  ROUND  POSITION  TOOL                  (one line per run)
  results: ROUND  TOOL  METRIC  VALUE             (VALUE "NA" when unmeasured)
TOOL is the label the script gave the run ("arraybench", "arraybench-aa",
"fio", ...); the twin of the A/A pair is just another tool in the design.

Command line (what the shell scripts call):
  rounds.py order ROUND NAME...      the order of round ROUND (1-based)
  rounds.py length N                 rounds in one full design of N tools
  rounds.py report --orders F --results F --subject S [--twin T]
                   [--peer P]... [--metric M]... [--target METRIC:PEER:LO[:HI]]...
                   [--title TEXT]
"""
import argparse
import math
import statistics
import sys

HIGH = 1.10  # a median above this is flagged: over-reporting is a defect too


# ---- the design ---------------------------------------------------------------
def design(k):
    """The rows of a Williams design for k tools (lists of indices).

    Even k: k rows; odd k: 2k rows (the square and its mirror).  In either,
    each tool sits in each position equally often and, for any two tools,
    each runs before the other in half the rows."""
    if k < 1:
        raise ValueError("a design needs at least one tool")
    first, lo, hi = [0], 1, k - 1
    while len(first) < k:
        first.append(lo)
        lo += 1
        if len(first) < k:
            first.append(hi)
            hi -= 1
    rows = [[(x + r) % k for x in first] for r in range(k)]
    if k % 2:
        rows += [list(reversed(row)) for row in rows]
    return rows


def order(names, rnd):
    """The order of round rnd (1-based) for the tools named."""
    rows = design(len(names))
    return [names[i] for i in rows[(rnd - 1) % len(rows)]]


# ---- reading ------------------------------------------------------------------
def lines_of(path):
    try:
        with open(path) as f:
            return f.readlines()
    except OSError as e:
        raise SystemExit("rounds.py: cannot read '%s': %s" % (path, e.strerror))


def read_orders(path):
    """{(round, tool): position}."""
    pos = {}
    for n, line in enumerate(lines_of(path), 1):
        if not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) != 3:
            raise SystemExit("%s:%d: want ROUND POSITION TOOL, got %r" % (path, n, line))
        if not (f[0].isdigit() and f[1].isdigit()):
            raise SystemExit("%s:%d: round and position must be whole numbers, got %r" % (path, n, line))
        pos[(int(f[0]), f[2])] = int(f[1])
    return pos


def read_results(path):
    """{(round, tool, metric): value or None}."""
    vals = {}
    for n, line in enumerate(lines_of(path), 1):
        if not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) < 4:
            raise SystemExit("%s:%d: want ROUND TOOL METRIC VALUE, got %r" % (path, n, line))
        if not f[0].isdigit():
            raise SystemExit("%s:%d: the round must be a whole number, got %r" % (path, n, f[0]))
        try:
            v = None if f[3] in ("", "NA") else float(f[3])
        except ValueError:
            raise SystemExit("%s:%d: the value must be a number or NA, got %r" % (path, n, f[3]))
        vals[(int(f[0]), f[1], f[2])] = v if v is None or (math.isfinite(v) and v > 0) else None
    return vals


# ---- the arithmetic -----------------------------------------------------------
def median(xs):
    return statistics.median(xs) if xs else None


class Comparison:
    """subject / peer for one metric over the rounds, with the A/A floor.

    ratios:        per round, subject/peer (None when either is missing)
    before/after:  the ratios of the rounds where the subject ran before /
                   after the peer
    aa:            per round, subject/twin; floor = median |aa - 1|
    order_bound:   |median(before) - median(after)| > floor (None when a
                   position has no round or there is no floor)"""

    def __init__(self, values, positions, subject, peer, metric, twin=None):
        self.subject, self.peer, self.metric, self.twin = subject, peer, metric, twin
        rounds = sorted({r for (r, t, m) in values if m == metric} | {r for (r, t) in positions})
        self.rounds = rounds
        self.ratios, self.before, self.after, self.aa = [], [], [], []
        self.aa_before, self.aa_after = [], []
        for r in rounds:
            a, p = values.get((r, subject, metric)), values.get((r, peer, metric))
            ratio = a / p if a and p else None
            self.ratios.append(ratio)
            pa, pp = positions.get((r, subject)), positions.get((r, peer))
            if ratio is not None and pa is not None and pp is not None:
                (self.before if pa < pp else self.after).append(ratio)
            if twin is not None:
                t = values.get((r, twin, metric))
                aa = a / t if a and t else None
                self.aa.append(aa)
                pt = positions.get((r, twin))
                if aa is not None and pa is not None and pt is not None:
                    (self.aa_before if pa < pt else self.aa_after).append(aa)
        got = [x for x in self.ratios if x is not None]
        self.n = len(got)
        self.median = median(got)
        self.min = min(got) if got else None
        self.max = max(got) if got else None
        self.med_before, self.med_after = median(self.before), median(self.after)
        aas = [x for x in self.aa if x is not None]
        self.aa_median = median(aas)
        self.floor = median([abs(x - 1) for x in aas])
        self.aa_med_before, self.aa_med_after = median(self.aa_before), median(self.aa_after)
        if self.med_before is None or self.med_after is None or self.floor is None:
            self.order_bound = None
        else:
            self.order_bound = abs(self.med_before - self.med_after) > self.floor

    def verdict(self, lo=None, hi=None):
        """PASS / FAIL / HIGH against a target; 'info' without one."""
        if self.median is None:
            return "NOMEAS"
        high = self.median > (hi if hi is not None else HIGH)
        if lo is None:
            return "info HIGH" if high else "info"
        if self.median < lo:
            return "FAIL"
        return "HIGH" if high else "PASS"

    def marks(self):
        """The order-bound and floor marks, as words."""
        m = []
        if self.order_bound:
            m.append("ORDER-BOUND")
        elif self.order_bound is None:
            m.append("order n/a")
        if self.floor is not None and self.median is not None and abs(self.median - 1) <= self.floor:
            m.append("within floor")
        return m


def fmt(x, nd=3):
    return "n/a" if x is None else "%.*f" % (nd, x)


HEADER = "%-16s %-14s %8s %11s %8s %8s %8s %7s  %s" % (
    "metric", "peer", "median", "min-max", "ab 1st", "ab 2nd", "A/A", "floor", "verdict")


def format_row(c, lo=None, hi=None, label=None):
    rng = "%.2f-%.2f" % (c.min, c.max) if c.min is not None else ""
    words = [c.verdict(lo, hi)] + c.marks()
    if c.n < len(c.rounds):
        words.append("(%d of %d rounds)" % (c.n, len(c.rounds)))
    return "%-16s %-14s %8s %11s %8s %8s %8s %7s  %s" % (
        c.metric, label or c.peer, fmt(c.median), rng, fmt(c.med_before), fmt(c.med_after),
        fmt(c.aa_median), fmt(c.floor), " ".join(words))


LEGEND = ("ab 1st / ab 2nd: median of the rounds where arraybench ran before / after the peer;\n"
          "A/A: arraybench against itself in the same rounds; floor: median |A/A - 1|;\n"
          "ORDER-BOUND: the two positions' medians differ by more than the floor")


def aa_line(c):
    """The A/A pair by position: an order effect on one binary against itself."""
    return "A/A %-12s %8s  twin ran after: %s  twin ran before: %s  floor %s" % (
        c.metric, fmt(c.aa_median), fmt(c.aa_med_before), fmt(c.aa_med_after), fmt(c.floor))


# ---- command line -------------------------------------------------------------
def parse_target(s):
    f = s.split(":")
    if len(f) not in (3, 4):
        raise argparse.ArgumentTypeError("target '%s': want METRIC:PEER:LO[:HI]" % s)
    lo = float(f[2]) if f[2] else None
    hi = float(f[3]) if len(f) == 4 and f[3] else None
    return f[0], f[1], lo, hi


def main(argv):
    if len(argv) >= 2 and argv[1] == "order":
        if len(argv) < 4 or not argv[2].isdigit() or int(argv[2]) < 1:
            raise SystemExit("usage: rounds.py order ROUND NAME...")
        print(" ".join(order(argv[3:], int(argv[2]))))
        return 0
    if len(argv) >= 2 and argv[1] == "length":
        if len(argv) != 3 or not argv[2].isdigit() or int(argv[2]) < 1:
            raise SystemExit("usage: rounds.py length N")
        print(len(design(int(argv[2]))))
        return 0
    ap = argparse.ArgumentParser(prog="rounds.py report")
    ap.add_argument("cmd", choices=["report"])
    ap.add_argument("--orders", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--subject", required=True)
    ap.add_argument("--twin", help="arraybench's second run in each round (the A/A pair); without it, no floor")
    ap.add_argument("--peer", action="append", default=[])
    ap.add_argument("--metric", action="append", default=[])
    ap.add_argument("--target", action="append", default=[], type=parse_target)
    ap.add_argument("--title")
    a = ap.parse_args(argv[1:])
    values, positions = read_results(a.results), read_orders(a.orders)
    metrics = a.metric or sorted({m for (r, t, m) in values if t == a.subject})
    peers = a.peer or sorted({t for (r, t, m) in values} - {a.subject, a.twin})
    targets = {(m, p): (lo, hi) for m, p, lo, hi in a.target}
    if a.title:
        print(a.title)
    print(HEADER)
    failed = False
    for m in metrics:
        for p in peers:
            if not any(t == p and mm == m for (r, t, mm) in values):
                continue
            c = Comparison(values, positions, a.subject, p, m, a.twin)
            lo, hi = targets.get((m, p), (None, None))
            print(format_row(c, lo, hi))
            failed |= lo is not None and c.verdict(lo, hi) != "PASS"
    print(LEGEND)
    for m in metrics if a.twin else ():
        print(aa_line(Comparison(values, positions, a.subject, a.twin, m, a.twin)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
