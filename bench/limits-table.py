#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/limits-table.py: bench/limits.sh's parsers and tables.

  limits-table.py parse DIR      DIR/results.tsv (ROUND TOOL METRIC VALUE, for
                                 bench/rounds.py) from the raw files the guest
                                 left in DIR
  limits-table.py table DIR...   each level's figures as fractions of its limit
  limits-table.py probe DIR...   the CPU-limit probe: block write and read of
                                 raid0 against N x the member limit
  limits-table.py seekers DIR LIST N IOPS
                                 the seekers curve: arraybench's seeks and fio's
                                 8k random read at each count of LIST against
                                 raid0's read limit, N x IOPS

The limit of a level (KiB/s, or per second for seeks) from N members whose
limit is m bytes/s and i I/O per second each (the slowest member's, when
they differ: a stripe waits for its slowest member), for ONE sequential
writer or reader, as the tools run them:

  write  raid0 N m; md raid1 m (every member takes every write); raid10 n2
         and f2 N/2 m (two copies); raid5 (N-1) m, raid6 (N-2) m (full
         stripes: parity is the rest); btrfs raid1 and raid10 N/2 m (two
         copies)
  read   raid0 N m; md raid1 m (md's read balancing keeps one sequential
         reader on the member where its last read ended); raid10 f2 N m
         (the far layout's first copies are striped like raid0 over the
         first half of every member, and md reads them); raid10 n2 N/2 m
         (a chunk's two copies sit side by side on adjacent members, a
         sequential reader is kept on the nearer one: about one member of
         each pair works); raid5 and raid6 N m: md reads no parity and
         qemu's throttle charges only the bytes moved, so all N members
         carry data (a disk that passes over the parity chunks would give
         (N-1) m and (N-2) m; measured on raid5 of 4: every tool at
         1.24-1.35 x (N-1) m, so (N-1) m is no upper bound here); btrfs
         raid1 m (a reader's pid picks the copy), btrfs raid10 N/2 m
  rewrite each byte read, then written: 1 / (1/read + 1/write)
  seeks  N i: the reads of 5 seekers (or fio's 5 jobs) reach every member
         at once.  A seek also writes about a tenth of its blocks back, which
         costs P member I/O each (P the level's write penalty: raid0 1, md
         raid1 N, raid10 and btrfs 2, raid5 4, raid6 6), so with every
         write-back on the disks inside the clock the seeks would be held to
         N i / (1 + P/10) (printed beside the limit; arraybench's seeks end
         with a timed fsync, so theirs are inside).  But the seekers draw
         their blocks with replacement (8192 of a 256 MiB file's 32768
         chunks: about one in eight drawn before), and a block read before
         may come from the page cache, so that is no upper bound; N i,
         with every read from a member, is the one used.
The sweep's 1m write and read cells share block write's and read's limits;
fio's 1m write and read are their peers.
"""
import json
import math
import os
import statistics
import sys

METRICS = ["block-write", "sweep-write-1m", "rewrite", "block-read", "sweep-read-1m", "seeks"]
TOOLS = ["arraybench", "arraybench-aa", "fio", "bonnie++"]
BONNIE = {11: "block-write", 13: "rewrite", 17: "block-read", 19: "seeks"}


def setup(d):
    s = {}
    for line in open(os.path.join(d, "setup.txt")):
        for word in line.split():
            if "=" in word:
                k, v = word.split("=", 1)
                s[k] = v
    lim = []
    for spec in s["limits"].split(","):
        dev, bi = spec.split("=")
        b, i = bi.split(":")
        lim.append((dev, int(b), int(i)))
    s["member_limits"] = lim
    return s


def limits(level, n, bps, iops):
    """{metric: limit} for one sequential writer or reader (module doc)."""
    m = bps / 1024.0 if bps else math.nan
    i = float(iops) if iops else math.nan
    w = {"raid0": n, "raid1": 1, "raid10-n2": n / 2, "raid10-f2": n / 2, "raid5": n - 1,
         "raid6": n - 2, "btrfs-raid1": n / 2, "btrfs-raid10": n / 2}[level] * m
    r = {"raid0": n, "raid1": 1, "raid10-n2": n / 2, "raid10-f2": n, "raid5": n,
         "raid6": n, "btrfs-raid1": 1, "btrfs-raid10": n / 2}[level] * m
    p = {"raid0": 1, "raid1": n, "raid10-n2": 2, "raid10-f2": 2, "raid5": 4, "raid6": 6,
         "btrfs-raid1": 2, "btrfs-raid10": 2}[level]
    return {"block-write": w, "sweep-write-1m": w, "rewrite": 1 / (1 / r + 1 / w),
            "block-read": r, "sweep-read-1m": r, "seeks": n * i,
            "seeks-with-writebacks": n * i / (1 + p / 10.0)}


def level_limits(s):
    ml = s["member_limits"]
    n = len(ml)
    bps = min(b for _, b, _ in ml) if all(b for _, b, _ in ml) else 0
    iops = min(i for _, _, i in ml) if all(i for _, _, i in ml) else 0
    return n, bps, iops, limits(s["level"], n, bps, iops)


# ---- parse --------------------------------------------------------------------
def ab_rows(path):
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path):
        if not line.strip():
            continue
        for ph in json.loads(line)["phases"]:
            name = ph["name"]
            if name == "sweep":
                k = ph.get("key", {})
                rec = k.get("record_kib") or k.get("record")
                name = "sweep-%s-1m" % k.get("test")
            if not ph.get("measurable", True):
                continue
            rows[name] = ph["rate"]
    return rows


def fio_rate(path, what):
    if not os.path.exists(path):
        return None
    try:
        d = json.load(open(path))
    except ValueError:
        return None
    j = d["jobs"][0]
    if j.get("error"):
        return None
    if what == "iops":
        r = j["read"]
        return r["total_ios"] / (r["runtime"] / 1000.0) if r["runtime"] else None
    x = j[what]
    return x["bw_bytes"] / 1024.0


def bonnie_rows(path):
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path):
        if line.startswith("1.98,") or line.startswith("1.97,"):
            f = line.rstrip("\n").split(",")
            for idx, name in BONNIE.items():
                v = f[idx] if idx < len(f) else ""
                if v and not v.startswith("+"):
                    rows[name] = float(v)
    return rows


def parse(d):
    rounds = sorted({int(l.split("\t")[0]) for l in open(os.path.join(d, "orders.tsv")) if l.strip()})
    out = []
    for r in rounds:
        for tool in ("arraybench", "arraybench-aa"):
            for k, v in ab_rows(os.path.join(d, "%s.r%d.json" % (tool, r))).items():
                out.append((r, tool, k, v))
        w = fio_rate(os.path.join(d, "fio.r%d.write.json" % r), "write")
        rd = fio_rate(os.path.join(d, "fio.r%d.read.json" % r), "read")
        rr = fio_rate(os.path.join(d, "fio.r%d.randread.json" % r), "iops")
        for k, v in (("block-write", w), ("sweep-write-1m", w), ("block-read", rd),
                     ("sweep-read-1m", rd), ("seeks", rr)):
            out.append((r, "fio", k, "NA" if v is None else v))
        for k, v in bonnie_rows(os.path.join(d, "bonnie.r%d.csv" % r)).items():
            out.append((r, "bonnie++", k, v))
    with open(os.path.join(d, "results.tsv"), "w") as f:
        for row in out:
            f.write("\t".join(str(x) for x in row) + "\n")


# ---- tables -------------------------------------------------------------------
def read_results(d):
    vals = {}
    for line in open(os.path.join(d, "results.tsv")):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 4 and f[3] not in ("", "NA"):
            vals[(int(f[0]), f[1], f[2])] = float(f[3])
    return vals


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, nd=3):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else "%.*f" % (nd, x)


HEAD = "| level | fs | metric | limit | arraybench/limit | fio/limit | bonnie++/limit | ab/best-peer | A/A floor | ab max/limit | rounds |"


def table(dirs):
    print(HEAD)
    print("|" + "---|" * (HEAD.count("|") - 1))
    flagged = []
    for d in dirs:
        s = setup(d)
        n, bps, iops, lim = level_limits(s)
        vals = read_results(d)
        rounds = sorted({r for (r, t, m) in vals})
        for m in METRICS:
            L = lim[m]
            Lfio = L

            def frac(tool, LL):
                return med([vals[(r, tool, m)] / LL for r in rounds if (r, tool, m) in vals])
            ab_all = [vals[(r, t, m)] / L for r in rounds for t in TOOLS[:2] if (r, t, m) in vals]
            best, aa = [], []
            for r in rounds:
                a = vals.get((r, "arraybench", m))
                peers = [vals[(r, t, m)] for t in ("fio", "bonnie++") if (r, t, m) in vals]
                if a and peers:
                    best.append(a / max(peers))
                t = vals.get((r, "arraybench-aa", m))
                if a and t:
                    aa.append(abs(a / t - 1))
            nr = len([r for r in rounds if (r, "arraybench", m) in vals])
            unit = "/s" if m == "seeks" else " KiB/s"
            lim_txt = "%.0f%s" % (L, unit)
            if m == "seeks":
                lim_txt += " (%.0f/s with write-backs)" % lim["seeks-with-writebacks"]
            mx = max(ab_all) if ab_all else None
            print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |" % (
                s["level"], s["fs"], m, lim_txt, fmt(frac("arraybench", L)), fmt(frac("fio", Lfio)),
                fmt(frac("bonnie++", L)), fmt(med(best)), fmt(med(aa)), fmt(mx), nr))
            if mx is not None and mx > 1.02:
                flagged.append("%s %s %s: arraybench reached %.3f of the limit (%d of %d runs above 1.02)" % (
                    s["level"], s["fs"], m, mx, sum(1 for x in ab_all if x > 1.02), len(ab_all)))
    print()
    print("members: %s; limits %s" % (s["members"], s["limits"]))
    print("fractions are medians over the rounds; ab max/limit is the highest of both arraybench runs;")
    print("seeks: fio's figure is its 8k random read (reads only, 5 jobs); all against N x member IOPS")
    for f in flagged:
        print("ABOVE 1.02 x LIMIT: " + f)


def probe(dirs):
    print("| member limit | array limit (raid0, N x m) | block-write KiB/s | /limit | block-read KiB/s | /limit |")
    print("|---|---|---|---|---|---|")
    for d in dirs:
        s = setup(d)
        n, bps, iops, lim = level_limits(s)
        rows = ab_rows(os.path.join(d, "arraybench.r1.json"))
        w, r = rows.get("block-write"), rows.get("block-read")
        L = lim["block-write"]
        ml = "%d MiB/s" % (bps // 1048576) if bps else "none"
        print("| %s | %s | %s | %s | %s | %s |" % (
            ml, "%.0f KiB/s" % L if bps else "none", fmt(w, 0), fmt(w / L if w and bps else None),
            fmt(r, 0), fmt(r / L if r and bps else None)))


def seekers(d, counts, n, iops):
    limit = n * iops
    print("seekers curve, raid0 of %d members at %d IOPS each: read limit %d/s" % (n, iops, limit))
    print("| seekers | arraybench seeks/s | /limit | fio 8k random read IOPS | /limit | arraybench/fio |")
    print("|---|---|---|---|---|---|")
    for c in counts.split(","):
        ab = ab_rows(os.path.join(d, "seeks.r%s.json" % c)).get("seeks")
        fio = None
        try:
            fio = json.load(open(os.path.join(d, "fio.randread.%s.json" % c)))["jobs"][0]["read"]["iops"]
        except (OSError, ValueError, KeyError, IndexError):
            pass
        print("| %s | %s | %s | %s | %s | %s |" % (c, fmt(ab, 0), fmt(ab / limit if ab else None), fmt(fio, 0),
                                                 fmt(fio / limit if fio else None),
                                                 fmt(ab / fio if ab and fio else None)))


def main(argv):
    if len(argv) >= 6 and argv[1] == "seekers":
        seekers(argv[2], argv[3], int(argv[4]), int(argv[5]))
        return 0
    if len(argv) < 3 or argv[1] not in ("parse", "table", "probe"):
        raise SystemExit(__doc__.split("\n\n")[1])
    if argv[1] == "parse":
        parse(argv[2])
    elif argv[1] == "table":
        table(argv[2:])
    else:
        probe(argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
