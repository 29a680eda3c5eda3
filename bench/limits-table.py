#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/limits-table.py: bench/limits.sh's parsers and tables.

  limits-table.py parse DIR      DIR/results.tsv (ROUND TOOL METRIC VALUE, for
                                 bench/rounds.py) from the raw files the guest
                                 left in DIR
  limits-table.py table DIR...   each level's figures as fractions of its limit
  limits-table.py probe DIR...   the CPU-limit probe: block write and read of
                                 raid0 against N x the member limit
  limits-table.py first DIR...   each tool's median fraction of the limit when it
                                 ran first in its round and when it did not,
                                 per metric (the rig's first-run effect)
  limits-table.py cache DIR      the cache comparison: arraybench's default
                                 cache against --cache none on raid0, each
                                 against the limit, and the read phases'
                                 residency at their start
  limits-table.py members DIR... each arraybench phase against what the
                                 members moved in it (runs whose JSON has
                                 per-device counters: arraybench records
                                 those of the devices under -d DIR since
                                 7 December, 23:00): the members' bound
                                 is the phase's work over the least time the
                                 busiest member needed for its bytes (and
                                 the seeks' read I/Os) at its limit, so a
                                 figure above it
                                 is the clock's fault, and a level whose
                                 arithmetic limit is below it spread its
                                 I/O otherwise (a read from both copies) or
                                 read from the cache (device reads per
                                 seek under 1)
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
         first half of every member, and md reads them); raid10 n2 N m
         (measured: every tool read 1.89-2.05 x N/2 m with ext4 over 4
         members, so md spreads one sequential reader's readahead over
         both copies of each pair); raid5 and raid6 N m: md reads no parity and
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
fio's peer of the seeks is its 8k random read/write mix of 91 % reads (a
tenth written back, as the seeks do) with an fsync at the end, its read
IOPS; older runs without it fall back to its 8k random read.
The sweep's 1m write and read cells share block write's and read's limits;
fio's 1m write and read outside the memory group are their peers (the sweep
runs outside arraybench's group, and a write in a group of 64 MiB has its
writeback started early where one outside it waits for the machine's
dirty limits: not the same cache state).  Older runs without those fio
files fall back to fio's write and read in the group.

The rig's bound over a timed region of T seconds.  qemu's throttle is a
leaky bucket that holds a tenth of a second at the member's limit (its
default when no burst is set) and admits a request while the bucket is not
yet full, so a member that was idle moves up to m/10 + R bytes more than
m T in its first T seconds, R one request (at most the 512 KiB chunk here;
1 I/O for the IOPS limit).  Measured: arraybench's 1m sweep read on raid0 of
4 moved 5.0-5.5 MiB more than 40 MiB/s x T at 64, 256 and 768 MiB files
(1.47, 6.27, 19.1 s), a fixed amount, not a rate.  Every level's limit is
its multiplier times m, so the figure's bound is the limit times
1 + (0.1 s + R/m) / T, whatever the level; ab max/bound uses it, and a
figure above 1.02 of it is flagged.
"""
import json
import math
import os
import statistics
import sys

METRICS = ["block-write", "sweep-write-1m", "rewrite", "block-read", "sweep-read-1m", "seeks"]
TOOLS = ["arraybench", "arraybench-aa", "fio", "bonnie++"]
BONNIE = {11: "block-write", 13: "rewrite", 17: "block-read", 19: "seeks"}
REQUEST_KIB = 512.0  # R: the largest request a member is charged for at once


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
    r = {"raid0": n, "raid1": 1, "raid10-n2": n, "raid10-f2": n, "raid5": n,
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
def ab_rows(path, what="rate"):
    """{metric: the phase's rate} (or its elapsed_s) from one run's JSON."""
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path):
        if not line.strip():
            continue
        for ph in json.loads(line)["phases"]:
            name = ph["name"]
            if name == "sweep":
                name = "sweep-%s-1m" % ph.get("key", {}).get("test")
            if not ph.get("measurable", True):
                continue
            rows[name] = ph[what]
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
    out, elapsed, resident = [], [], []
    for r in rounds:
        for tool in ("arraybench", "arraybench-aa", "arraybench-none", "arraybench-fadvise", "arraybench-drop"):
            path = os.path.join(d, "%s.r%d.json" % (tool, r))
            for k, v in ab_rows(path).items():
                out.append((r, tool, k, v))
            for k, v in ab_rows(path, "elapsed_s").items():
                elapsed.append((r, tool, k, v))
            for k, v in ab_rows(path, "resident_at_start").items():
                if v is not None:
                    resident.append((r, tool, k, v))
        w = fio_rate(os.path.join(d, "fio.r%d.write.json" % r), "write")
        rd = fio_rate(os.path.join(d, "fio.r%d.read.json" % r), "read")
        rr = fio_rate(os.path.join(d, "fio.r%d.randread.json" % r), "iops")
        if os.path.exists(os.path.join(d, "fio.r%d.seekmix.json" % r)):
            rr = fio_rate(os.path.join(d, "fio.r%d.seekmix.json" % r), "iops")
        sw, sr = w, rd
        if os.path.exists(os.path.join(d, "fio.r%d.sweepwrite.json" % r)):
            sw = fio_rate(os.path.join(d, "fio.r%d.sweepwrite.json" % r), "write")
            sr = fio_rate(os.path.join(d, "fio.r%d.sweepread.json" % r), "read")
        for k, v in (("block-write", w), ("sweep-write-1m", sw), ("block-read", rd),
                     ("sweep-read-1m", sr), ("seeks", rr)):
            out.append((r, "fio", k, "NA" if v is None else v))
        for k, v in bonnie_rows(os.path.join(d, "bonnie.r%d.csv" % r)).items():
            out.append((r, "bonnie++", k, v))
    for name, rows in (("results.tsv", out), ("elapsed.tsv", elapsed), ("resident.tsv", resident)):
        with open(os.path.join(d, name), "w") as f:
            for row in rows:
                f.write("\t".join(str(x) for x in row) + "\n")


# ---- tables -------------------------------------------------------------------
def read_results(d, name="results.tsv"):
    vals = {}
    if not os.path.exists(os.path.join(d, name)):
        return vals
    for line in open(os.path.join(d, name)):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 4 and f[3] not in ("", "NA"):
            vals[(int(f[0]), f[1], f[2])] = float(f[3])
    return vals


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, nd=3):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else "%.*f" % (nd, x)


HEAD = ("| level | fs | metric | limit | arraybench/limit | fio/limit | bonnie++/limit | ab/best-peer | A/A floor "
        "| ab max/limit | ab max/bound | rounds |")


def bound(m, T, bps, iops):
    """The rig's bound over T seconds as a multiple of the limit (module doc)."""
    if not T:
        return None
    if m == "seeks":
        return 1 + (0.1 + 1.0 / iops) / T if iops else None
    return 1 + (0.1 + REQUEST_KIB * 1024.0 / bps) / T if bps else None


def fio_kind(d, m):
    """What fio ran as the peer of metric m in DIR, when it is not what the
    current rig runs: older runs had other peers (module doc)."""
    has = lambda name: any(f.endswith(name) for f in os.listdir(d))
    if m == "seeks" and not has(".seekmix.json"):
        return " (rr)"
    if m.startswith("sweep-") and not has(".sweepwrite.json"):
        return " (grp)"
    if m in ("block-write", "block-read"):
        setup_text = open(os.path.join(d, "setup.txt")).read()
        if "fio_block_bs=8k" not in setup_text:
            return " (1m)"
        if "fio_block_cache=behind" not in setup_text:
            return " (grp)"
    return ""


def table(dirs):
    print(HEAD)
    print("|" + "---|" * (HEAD.count("|") - 1))
    flagged = []
    for d in dirs:
        s = setup(d)
        n, bps, iops, lim = level_limits(s)
        vals = read_results(d)
        secs = read_results(d, "elapsed.tsv")
        rounds = sorted({r for (r, t, m) in vals})
        for m in METRICS:
            L = lim[m]
            Lfio = L

            def frac(tool, LL):
                return med([vals[(r, tool, m)] / LL for r in rounds if (r, tool, m) in vals])
            ab_all = [vals[(r, t, m)] / L for r in rounds for t in TOOLS[:2] if (r, t, m) in vals]
            ab_bound = [vals[k] / L / bound(m, secs[k], bps, iops)
                        for k in ((r, t, m) for r in rounds for t in TOOLS[:2])
                        if k in vals and bound(m, secs.get(k), bps, iops)]
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
            mxb = max(ab_bound) if ab_bound else None
            level = "%s, %d x %.0f MiB/s" % (s["level"], n, bps / 1048576.0) if bps else s["level"]
            print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |" % (
                level, s["fs"], m, lim_txt, fmt(frac("arraybench", L)), fmt(frac("fio", Lfio)) + fio_kind(d, m),
                fmt(frac("bonnie++", L)), fmt(med(best)), fmt(med(aa)), fmt(mx), fmt(mxb), nr))
            # Without the runs' times (older runs) the bare limit is the bound.
            over = ab_bound if ab_bound else ab_all
            top = mxb if ab_bound else mx
            if top is not None and top > 1.02:
                flagged.append("%s %s %s: arraybench reached %.3f of the %s (%d of %d runs above 1.02)" % (
                    s["level"], s["fs"], m, top, "rig's bound" if ab_bound else "limit",
                    sum(1 for x in over if x > 1.02), len(over)))
    print()
    print("each level's members and their limits: its setup.txt; every member %d IOPS" % iops)
    print("fio's peer, where older runs had another: (1m) block write and read in 1 MiB records (now 8 KiB,")
    print("the others' chunk); (grp) in the memory group: the sweep's (now outside it, as the sweep runs),")
    print("or block write's and read's (now outside it, the write behind an eighth of -r, as arraybench's);")
    print("(rr) the seeks' its 8k random read, reads only (now the 91/9 mix with an fsync at the end)")
    print("fractions are medians over the rounds; ab max/limit is the highest of both arraybench runs;")
    print("ab max/bound the highest over the rig's bound for the run's timed region, limit x (1 + (0.1 s + R/m) / T);")
    print("seeks: fio's figure is its read IOPS, 5 jobs; all against N x member IOPS")
    for f in flagged:
        print("ABOVE 1.02: " + f)


def first(dirs):
    """Each tool's median fraction of the limit as the first run of a round
    and otherwise: a round's first writer is often its slowest here."""
    print("| level | fs | metric | tool | first: median (rounds) | not first: median (rounds) |")
    print("|---|---|---|---|---|---|")
    for d in dirs:
        s = setup(d)
        n, bps, iops, lim = level_limits(s)
        vals = read_results(d)
        lead = {}
        for line in open(os.path.join(d, "orders.tsv")):
            f = line.split()
            if len(f) == 3 and f[1] == "1":
                lead[int(f[0])] = f[2]
        for m in ("block-write", "rewrite", "block-read"):
            for tool in TOOLS:
                a = [v / lim[m] for (r, t, mm), v in vals.items() if t == tool and mm == m and lead.get(r) == tool]
                b = [v / lim[m] for (r, t, mm), v in vals.items() if t == tool and mm == m and lead.get(r) != tool]
                if a or b:
                    print("| %s | %s | %s | %s | %s (%d) | %s (%d) |" % (s["level"], s["fs"], m, tool, fmt(med(a)),
                                                                    len(a), fmt(med(b)), len(b)))


def member_phases(path, member_limits):
    """[(metric, rate, work, elapsed, per-member (bytes, ios), member
    bound)] of one arraybench JSON's phases that hold the members'
    counters; work is bytes (ops for seeks) and the bound in the rate's
    unit (KiB/s; seeks per second)."""
    out = []
    if not os.path.exists(path):
        return out
    lim = {dev.rsplit("/", 1)[-1]: (b, i) for dev, b, i in member_limits}
    for line in open(path):
        if not line.strip():
            continue
        for ph in json.loads(line)["phases"]:
            devs = {d["name"]: d for d in ph.get("devices") or [] if d["name"] in lim}
            if len(devs) != len(lim) or not ph.get("measurable", True) or not ph.get("elapsed_s"):
                continue
            name = ph["name"]
            if name == "sweep":
                name = "sweep-%s-1m" % ph.get("key", {}).get("test")
            seeks = name == "seeks"
            work = ph["ops"] if seeks else ph["bytes"]
            per, least, least_all = {}, 0.0, 0.0
            for dev, d in devs.items():
                b, i = lim[dev]
                moved = d["read_bytes"] + d["written_bytes"]
                # Only the seeks' reads count as I/Os: they lie apart, so
                # qemu charges each; writes the guest counted one by one
                # may reach the throttle merged (btrfs's copy-on-write
                # lays a seek's random write-backs side by side: counted
                # as 8 KiB writes, the seeks ran up to 1.16 of a bound
                # that charged them one I/O each, every such run, and 0.97-
                # 0.99 where they showed as 14-24 large ones), and a
                # sequential phase's are bound by its bytes.
                ios = d["read_ios"] if seeks else 0
                per[dev] = (moved, ios, d["read_ios"])
                least = max(least, moved / b if b else 0.0, ios / i if i else 0.0)
                # The tighter bound, if every write was charged apart.
                all_ios = d["read_ios"] + d["write_ios"]
                least_all = max(least_all, least, all_ios / i if i else 0.0)
            scale = 1.0 if seeks else 1024.0
            bound_rate = work / least / scale if least else math.nan
            bound_all = work / least_all / scale if least_all else math.nan
            out.append((name, ph["rate"], work, ph["elapsed_s"], per, bound_rate, bound_all))
    return out


def diskstats_delta(base, names):
    """{member: (read_ios, read_bytes, write_ios, written_bytes)} between
    BASE.diskstats.before and .after (limits-guest.sh's counted), or None."""
    try:
        before, after = ({l.split()[2]: l.split() for l in open(base + ".diskstats." + w) if len(l.split()) > 9}
                         for w in ("before", "after"))
    except OSError:
        return None
    out = {}
    for n in names:
        if n not in before or n not in after:
            return None
        a, b = after[n], before[n]
        out[n] = (int(a[3]) - int(b[3]), (int(a[5]) - int(b[5])) * 512,
                  int(a[7]) - int(b[7]), (int(a[9]) - int(b[9])) * 512)
    return out


def fio_member_rows(d, s):
    """{metric: [member bytes per file byte (block write and read), or
    member reads per fio read (the seeks' mix)]} over fio's rounds."""
    names = [dev.rsplit("/", 1)[-1] for dev, _, _ in s["member_limits"]]
    file_bytes = int(s["size_mib"]) << 20
    rows = {}
    for f in sorted(os.listdir(d)):
        for job, metric in (("write", "block-write"), ("read", "block-read"), ("seekmix", "seeks")):
            if not f.endswith(".%s.diskstats.before" % job):
                continue
            base = os.path.join(d, f[:-len(".diskstats.before")])
            delta = diskstats_delta(base, names)
            if delta is None:
                continue
            if metric == "seeks":
                try:
                    reads = json.load(open(base + ".json"))["jobs"][0]["read"]["total_ios"]
                except (OSError, ValueError, KeyError, IndexError):
                    continue
                if reads:
                    rows.setdefault(metric, []).append(sum(v[0] for v in delta.values()) / reads)
            else:
                rows.setdefault(metric, []).append(sum(v[1] + v[3] for v in delta.values()) / file_bytes)
    return rows


def members(dirs):
    """Each arraybench phase against its members' bound (module doc)."""
    print("| level | fs | metric | arraybench/limit | members' bound/limit | arraybench/members' bound "
          "| max over the rig's bound | arraybench/bound, writes charged apart | busiest member's share "
          "| member bytes/file bytes | member reads/seek | runs |")
    print("|" + "---|" * 12)
    flagged, peer = [], []
    for d in dirs:
        s = setup(d)
        n, bps, iops, lim = level_limits(s)
        # The peer's side, where fio's runs have the members' counters.
        fio_rows = fio_member_rows(d, s)
        rows = {}
        for f in sorted(os.listdir(d)):
            if f.startswith("arraybench") and f.endswith(".json"):
                for row in member_phases(os.path.join(d, f), s["member_limits"]):
                    rows.setdefault(row[0], []).append(row)
        for m in METRICS:
            rs = rows.get(m)
            if not rs:
                continue
            L = lim[m]
            frac = med([r[1] / L for r in rs])
            bound_frac = med([r[5] / L for r in rs])
            over = med([r[1] / r[5] for r in rs])
            # The throttle's bucket lets a member move a tenth of a second
            # and a request more than m T in T: the same allowance as the
            # limit's (module doc).
            top = max(r[1] / r[5] / bound(m, r[3], bps, iops) for r in rs)
            over_all = med([r[1] / r[6] for r in rs])
            share = med([max(p[0] for p in r[4].values()) / max(1, sum(p[0] for p in r[4].values())) for r in rs])
            amp = med([sum(p[0] for p in r[4].values()) / r[2] for r in rs]) if m != "seeks" else math.nan
            per_seek = med([sum(p[2] for p in r[4].values()) / r[2] for r in rs]) if m == "seeks" else math.nan
            print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |" % (
                s["level"], s["fs"], m, fmt(frac), fmt(bound_frac), fmt(over), fmt(top), fmt(over_all),
                fmt(share), fmt(amp), fmt(per_seek), len(rs)))
            if top > 1.02:
                flagged.append("%s %s %s: arraybench reached %.3f of its members' bound" % (
                    s["level"], s["fs"], m, top))
            if m in fio_rows:
                peer.append("| %s | %s | %s | %s | %s | %d |" % (
                    s["level"], s["fs"], m, fmt(per_seek if m == "seeks" else amp), fmt(med(fio_rows[m])),
                    len(fio_rows[m])))
    print()
    print("members' bound: the phase's work over the least time its busiest member needed for the bytes")
    print("it moved (read and written: bps-total counts both) at its limit, and for the seeks its read I/Os;")
    print("max over the rig's bound: the highest arraybench/members' bound over the bucket's allowance,")
    print("1 + (0.1 s + R/m) / T (flagged above 1.02); writes charged apart: the bound if every write the")
    print("guest counted cost the throttle an I/O too (tighter; qemu may merge adjacent ones first);")
    print("busiest member's share: of all the bytes the members moved;")
    print("member reads/seek: the members' read I/Os per seek (under 1: seeks served by the cache)")
    for f in flagged:
        print("ABOVE 1.02: " + f)
    if peer:
        print()
        print("| level | fs | metric | arraybench: member bytes per file byte (seeks: member reads per seek) "
              "| fio: the same (seeks: per read of its mix) | fio runs |")
        print("|---|---|---|---|---|---|")
        for line in peer:
            print(line)


def cache(d):
    """The default cache (arraybench, its twin) against --cache none."""
    s = setup(d)
    n, bps, iops, lim = level_limits(s)
    vals = read_results(d)
    res = read_results(d, "resident.tsv")
    rounds = sorted({r for (r, t, m) in vals})
    print("cache comparison, %s %s over %d members of %s, %s busy loops in the guest, %d rounds" % (
        s["level"], s["fs"], n, s["limits"], s.get("load", "0"), len(rounds)))
    print("| phase | default/limit | none/limit | default/none | A/A floor | beyond the floor | "
          "resident at start, default runs (max) |")
    print("|---|---|---|---|---|---|---|")
    for m in ("block-write", "rewrite", "block-read"):
        L = lim[m]

        def frac(tool):
            return med([vals[(r, tool, m)] / L for r in rounds if (r, tool, m) in vals])
        ratio, aa = [], []
        for r in rounds:
            a, t, z = (vals.get((r, x, m)) for x in ("arraybench", "arraybench-aa", "arraybench-none"))
            if a and z:
                ratio.append(a / z)
            if a and t:
                aa.append(abs(a / t - 1))
        q, f = med(ratio), med(aa)
        verdict = "n/a" if q is None or f is None else (
            "within" if abs(q - 1) <= f else ("above" if q > 1 else "BELOW"))
        rs = [v for (r, t, mm), v in res.items() if mm == m and t in ("arraybench", "arraybench-aa")]
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            m, fmt(frac("arraybench")), fmt(frac("arraybench-none")), fmt(q), fmt(f), verdict,
            fmt(max(rs)) if rs else "-"))
    # A fourth mode (limits.sh -V): where the default's gap to none lies.
    for v in sorted({t for (r, t, m) in vals} - {"arraybench", "arraybench-aa", "arraybench-none"}):
        mode = v[len("arraybench-"):]
        print()
        print("| phase | %s/limit | default/%s | %s/none | A/A floor | resident at start, %s runs (max) |" % (
            mode, mode, mode, mode))
        print("|---|---|---|---|---|---|")
        for m in ("block-write", "rewrite", "block-read"):
            L = lim[m]
            fr = med([vals[(r, v, m)] / L for r in rounds if (r, v, m) in vals])
            dv = med([vals[(r, "arraybench", m)] / vals[(r, v, m)] for r in rounds
                      if (r, "arraybench", m) in vals and (r, v, m) in vals])
            vn = med([vals[(r, v, m)] / vals[(r, "arraybench-none", m)] for r in rounds
                      if (r, v, m) in vals and (r, "arraybench-none", m) in vals])
            f = med([abs(vals[(r, "arraybench", m)] / vals[(r, "arraybench-aa", m)] - 1) for r in rounds
                     if (r, "arraybench", m) in vals and (r, "arraybench-aa", m) in vals])
            rs = [x for (r, t, mm), x in res.items() if mm == m and t == v]
            print("| %s | %s | %s | %s | %s | %s |" % (m, fmt(fr), fmt(dv), fmt(vn), fmt(f), fmt(max(rs)) if rs else "-"))


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
    if len(argv) >= 3 and argv[1] == "first":
        first(argv[2:])
        return 0
    if len(argv) >= 3 and argv[1] == "members":
        members(argv[2:])
        return 0
    if len(argv) == 3 and argv[1] == "cache":
        cache(argv[2])
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
