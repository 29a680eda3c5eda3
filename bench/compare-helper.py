#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/compare-helper.py: bench/compare.sh's parsers of each tool's output
# (one TSV line per phase) and its report; compare.sh copies it into its
# work directory at the start and runs the copy.
import json, math, statistics, sys

def out(*fields):
    print("\t".join(str(f) for f in fields))

def ab_runs(path):
    # One JSON object per line (one run); these files hold exactly one.
    for line in open(path):
        if line.strip():
            yield json.loads(line)

def ab_cache(ph):
    # "warm/none" when arraybench evicted nothing before the phase.
    return "%s/%s" % (ph.get("cache_state", "?"), ph.get("cache_mode", "?").split(",")[0])

def ab(rnd, path):
    for run in ab_runs(path):
        for ph in run["phases"]:
            val = ph["rate"] if ph["measurable"] else "NA"
            out(rnd, "arraybench", ph["name"], val, round(ph["elapsed_s"], 3),
                ph["worker_max_rss_kib"], "" if ph["measurable"] else "+++++", ab_cache(ph))

def fio_job(path):
    d = json.load(open(path))
    jobs = d["jobs"]
    if len(jobs) != 1:
        raise SystemExit("fio %s: expected one (group-reported) job, got %d" % (path, len(jobs)))
    j = jobs[0]
    if j.get("error"):
        raise SystemExit("fio %s: job error %s" % (path, j["error"]))
    opts = dict(d.get("global options", {}))
    opts.update(j.get("job options", {}))
    return j, "invalidate=%s" % opts.get("invalidate", "?")

def fio(rnd, phase, path):
    j, cache = fio_job(path)
    r, w = j["read"], j["write"]
    if phase == "block-write":
        out(rnd, "fio", phase, w["bw_bytes"] / 1024.0, w["runtime"] / 1000.0, "",
            "io=%d" % w["io_bytes"], cache)
    elif phase == "block-read":
        out(rnd, "fio", phase, r["bw_bytes"] / 1024.0, r["runtime"] / 1000.0, "",
            "io=%d" % r["io_bytes"], cache)
    else:
        rt = max(r["runtime"], w["runtime"]) / 1000.0
        out(rnd, "fio", phase, r["total_ios"] / rt, rt, "",
            "reads=%d writes=%d total_iops=%.0f" % (r["total_ios"], w["total_ios"],
                                                   (r["total_ios"] + w["total_ios"]) / rt), cache)

BONNIE = {9: "per-char-write", 11: "block-write", 13: "rewrite", 15: "per-char-read",
          17: "block-read", 19: "seeks", 26: "seq-create", 28: "seq-stat", 30: "seq-delete",
          32: "rand-create", 34: "rand-stat", 36: "rand-delete"}

def bonnie(rnd, path):
    lines = [l for l in open(path) if l.startswith("1.98,") or l.startswith("1.97,")]
    if len(lines) != 1:
        raise SystemExit("bonnie++ %s: expected one CSV line, got %d" % (path, len(lines)))
    f = lines[0].rstrip("\n").split(",")
    for idx, name in sorted(BONNIE.items()):
        v = f[idx] if idx < len(f) else ""
        if v == "":
            continue
        if v.startswith("+"):
            out(rnd, "bonnie++", name, "NA", "", "", "+++++", "")
        else:
            out(rnd, "bonnie++", name, float(v), "", "", "", "")

# Seek-gap runs: one line per run, its seeks/s.
def gap_ab(rnd, job, path):
    for run in ab_runs(path):
        for ph in run["phases"]:
            if ph["name"] == "seeks":
                cpu = sum(w["cpu_s"] for w in ph.get("per_worker", [])) or (ph["user_s"] + ph["sys_s"])
                out(rnd, job, ph["rate"], round(ph["elapsed_s"], 3), ab_cache(ph),
                    "cpu_us_per_seek=%.1f" % (1e6 * cpu / ph["ops"]))

def gap_fio(rnd, job, path):
    j, cache = fio_job(path)
    r, w = j["read"], j["write"]
    rt = max(r["runtime"], w["runtime"]) / 1000.0
    out(rnd, job, r["total_ios"] / rt, rt, cache, "reads=%d writes=%d" % (r["total_ios"], w["total_ios"]))

def gap_bonnie(rnd, job, path):
    lines = [l for l in open(path) if l.startswith("1.98,")]
    if len(lines) != 1:
        raise SystemExit("bonnie++ %s: expected one CSV line, got %d" % (path, len(lines)))
    v = lines[0].split(",")[19]
    if v and not v.startswith("+"):
        out(rnd, job, float(v), "", "tail", "")

# ---- the report -------------------------------------------------------------
HIGH = 1.10   # a median above this is flagged: over-reporting is a defect too
CHECKS = [
    # phase, peer tool, peer label, lo, hi, target text
    ("block-write", "fio", "fio rw=write", 0.97, None, ">= 0.97"),
    ("block-read", "fio", "fio rw=read", 0.97, None, ">= 0.97"),
    ("seeks", "fio", "fio randrw read IOPS", 0.95, None, ">= 0.95"),
    ("seeks", "bonnie++", "bonnie++ seeks", 0.95, None, ">= 0.95"),
    ("per-char-write", "bonnie++", "bonnie++ putc", 0.90, 1.10, "0.90..1.10"),
    ("per-char-read", "bonnie++", "bonnie++ getc", 0.90, 1.10, "0.90..1.10"),
    ("seq-create", "bonnie++", "bonnie++ seq_create", 0.95, None, ">= 0.95"),
    ("seq-stat", "bonnie++", "bonnie++ seq_stat", 0.95, None, ">= 0.95"),
    ("seq-delete", "bonnie++", "bonnie++ seq_del", 0.95, None, ">= 0.95"),
    ("rand-create", "bonnie++", "bonnie++ ran_create", 0.95, None, ">= 0.95"),
    ("rand-stat", "bonnie++", "bonnie++ ran_stat", 0.95, None, ">= 0.95"),
    ("rand-delete", "bonnie++", "bonnie++ ran_del", 0.95, None, ">= 0.95"),
]
INFO = [
    ("block-write", "bonnie++", "bonnie++ put_block"),
    ("rewrite", "bonnie++", "bonnie++ rewrite"),
    ("block-read", "bonnie++", "bonnie++ get_block"),
]
MIN_S = 2.0

def fmt(x, nd=3):
    return "n/a" if x is None else ("%.*f" % (nd, x))

FILE_PHASES = {"seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat", "rand-delete"}

def report(path, rss_path, io_rounds, file_rounds, failures_path, psi_path, gap_path, gap_rounds):
    rounds = max(io_rounds, file_rounds, 1)
    vals, elapsed, caches = {}, {}, {}
    for line in open(path):
        rnd, tool, phase, val, el, rss, note, cache = (line.rstrip("\n").split("\t") + [""] * 8)[:8]
        rnd = int(rnd)
        vals[(tool, phase, rnd)] = None if val == "NA" else float(val)
        caches.setdefault((tool, phase), set()).add(cache)
        if el:
            elapsed.setdefault((tool, phase), []).append(float(el))
    failed = False
    investigate = []

    def cache_label(phase, tool):
        # What each tool's cache held when the phase began; arraybench's own
        # JSON must agree (nothing evicted), and fio must have run with
        # invalidate=0, or the row shows what they said instead.
        want = "warm" if phase in FILE_PHASES else "tail"
        odd = []
        a = caches.get(("arraybench", phase), set())
        if a and a != {"warm/none"}:
            odd.append("ab:" + "+".join(sorted(a)))
        p = caches.get((tool, phase), set())
        if tool == "fio" and p and p != {"invalidate=0"}:
            odd.append("fio:" + "+".join(sorted(p)))
        return "!" + ";".join(odd) if odd else want

    hdr = "%-15s %-21s %-5s %-11s" % ("phase", "peer", "cache", "target")
    hdr += "".join("%8s" % ("r%d" % r) for r in range(1, rounds + 1))
    hdr += "%9s %11s  %s" % ("median", "min-max", "result")
    print("arraybench / peer, per round and median of the per-round ratios")
    print(hdr)
    print("-" * len(hdr))

    def row(phase, tool, label, target, lo, hi):
        nonlocal failed
        ratios = []
        own = file_rounds if phase in FILE_PHASES else io_rounds
        for r in range(1, own + 1):
            a, p = vals.get(("arraybench", phase, r)), vals.get((tool, phase, r))
            ratios.append(a / p if a is not None and p else None)
        got = [x for x in ratios if x is not None]
        cl = cache_label(phase, tool)
        if own == 0:
            print("%-15s %-21s %-5s %-11s  not run" % (phase, label, cl, target))
            return
        med = statistics.median(got) if got else None
        high = med is not None and med > (hi if hi is not None else HIGH)
        if lo is None:
            verdict = "info HIGH" if high else "info"
        elif med is None:
            verdict = "NOMEAS"
        elif med < lo:
            verdict = "FAIL"
        elif high:
            verdict = "HIGH"
        else:
            verdict = "PASS"
        if cl.startswith("!") and lo is not None:
            verdict = "NOMEAS (cache)"
        if lo is not None and verdict != "PASS":
            failed = True
        if high:
            investigate.append("%s vs %s %.3f" % (phase, label, med))
        s = "%-15s %-21s %-5s %-11s" % (phase, label, cl, target)
        s += "".join("%8s" % fmt(x) for x in ratios) + "%8s" % "" * (rounds - own)
        s += "%9s %11s  %s" % (fmt(med), "%.2f-%.2f" % (min(got), max(got)) if got else "", verdict)
        if med is not None and len(got) < own:
            s += " (%d of %d rounds)" % (len(got), own)
        print(s)

    for phase, tool, label, lo, hi, target in CHECKS:
        row(phase, tool, label, target, lo, hi)

    # Peak RSS of the workers: the same at both file sizes.
    rss = {}
    for line in open(rss_path):
        label, phase, kib = line.rstrip("\n").split("\t")
        rss.setdefault(phase, {})[label] = None if kib == "NA" else int(kib)
    labels = sorted({l for d in rss.values() for l in d}, key=lambda l: int(l.rstrip("M")))
    for phase in ("block-write", "block-read", "seeks") if rss else ():
        d = rss.get(phase, {})
        if len(labels) != 2 or any(d.get(l) is None for l in labels):
            print("%-15s %-21s %-5s %-11s  %s  NOMEAS" % ("rss " + phase, "itself at 1 size", "", "+-512 KiB", d))
            failed = True
            continue
        small, big = d[labels[0]], d[labels[1]]
        diff = big - small
        ok = abs(diff) <= 512
        failed |= not ok
        print("%-15s %-21s %-5s %-11s %s KiB at %s, %s KiB at %s: %+d KiB  %s" % (
            "rss " + phase, "same at %s" % labels[0], "", "+-512 KiB", big, labels[1], small, labels[0],
            diff, "PASS" if ok else "FAIL"))

    print()
    print("information only (no target):")
    for phase, tool, label in INFO:
        row(phase, tool, label, "-", None, None)
    print("cache: tail = each tool's whole I/O run in one fresh memory cgroup, nothing evicted:")
    print("       a phase begins with what the tool's own earlier phases left cached under the limit;")
    print("       warm = file phases, no cgroup, nothing dropped (bonnie++'s own rule for both)")

    print()
    print("median absolute rates (KiB/s; seeks/s; files/s) and shortest phase time")
    print("%-15s %14s %14s %14s %10s %10s" % ("phase", "arraybench", "fio", "bonnie++", "ab min s", "fio min s"))
    phases = ["per-char-write", "block-write", "rewrite", "per-char-read", "block-read", "seeks",
              "seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat", "rand-delete"]
    short = []
    for phase in phases:
        cells = []
        for tool in ("arraybench", "fio", "bonnie++"):
            xs = [vals[(tool, phase, r)] for r in range(1, rounds + 1)
                  if vals.get((tool, phase, r)) is not None]
            plus = any((tool, phase, r) in vals and vals[(tool, phase, r)] is None
                       for r in range(1, rounds + 1))
            cells.append("%.0f" % statistics.median(xs) if xs else ("+++++" if plus else "-"))
        mins = []
        for tool in ("arraybench", "fio"):
            e = elapsed.get((tool, phase))
            mins.append("%.2f" % min(e) if e else "-")
            if e and min(e) < MIN_S:
                short.append("%s %s %.2f s" % (tool, phase, min(e)))
        print("%-15s %14s %14s %14s %10s %10s" % (phase, cells[0], cells[1], cells[2], mins[0], mins[1]))
    if short:
        print("warning: phases under %.0f s: %s" % (MIN_S, ", ".join(short)))

    gap = {}
    for line in open(gap_path):
        rnd, job, val, el, cache, note = (line.rstrip("\n").split("\t") + [""] * 6)[:6]
        gap[(job, int(rnd))] = (float(val), cache, note)
    if gap_rounds and gap:
        print()
        print("seek gap, seeks/s: seeks right after a block write (fio: its write job, then its seeks job);")
        print("'bonnie seq': block write, rewrite, block read, seeks in one run, as bonnie++ -f does")
        print("%-24s %-12s" % ("run", "cache") + "".join("%8s" % ("r%d" % r) for r in range(1, gap_rounds + 1))
              + "%9s" % "median")
        jobs = [("ab-new-tail", "arraybench (queue)"), ("ab-old-tail", "arraybench 72dfef8"),
                ("ab-new-evict", "arraybench (queue)"), ("fio-tail", "fio"), ("fio-evict", "fio"),
                ("ab-new-bseq", "arraybench, bonnie seq"), ("bonnie-bseq", "bonnie++ -f")]
        for job, label in jobs:
            xs = [gap.get((job, r)) for r in range(1, gap_rounds + 1)]
            if not any(xs):
                continue
            cs = {x[1] for x in xs if x}
            ok = {"ab-new-tail": {"warm/none"}, "ab-old-tail": {"?/none"}, "ab-new-evict": {"cold/cgroup-v1 limit %sM" % RAM},
                  "fio-tail": {"invalidate=0"}, "fio-evict": {"invalidate=1"}, "ab-new-bseq": {"warm/none"},
                  "bonnie-bseq": {"tail"}}[job]
            if job == "ab-old-tail":
                cl = "tail" if all(c.endswith("/none") for c in cs) else "!" + "+".join(sorted(cs))
            else:
                cl = ("evicted" if "evict" in job else "tail") if cs == ok else "!" + "+".join(sorted(cs))
            med = statistics.median([x[0] for x in xs if x])
            print("%-24s %-12s" % (label, cl) + "".join("%8s" % ("%.0f" % x[0] if x else "n/a") for x in xs)
                  + "%9.0f" % med)
        print("ratios, per round and median")
        for num, den, label in (("ab-new-tail", "ab-old-tail", "(a) queue / fixed shares, tail"),
                                ("ab-new-tail", "ab-new-evict", "(b) tail / evicted, arraybench"),
                                ("fio-tail", "fio-evict", "    tail / evicted, fio"),
                                ("ab-new-tail", "fio-tail", "arraybench / fio, tail"),
                                ("ab-old-tail", "fio-tail", "72dfef8 / fio, tail"),
                                ("ab-new-evict", "fio-evict", "arraybench / fio, evicted"),
                                ("ab-new-bseq", "bonnie-bseq", "arraybench / bonnie++ -f, tail")):
            rs = []
            for r in range(1, gap_rounds + 1):
                a, b = gap.get((num, r)), gap.get((den, r))
                rs.append(a[0] / b[0] if a and b and b[0] else None)
            got = [x for x in rs if x is not None]
            if not got:
                continue
            med = statistics.median(got)
            if med > HIGH and ("/ fio" in label or "/ bonnie" in label):
                investigate.append("seek gap %s %.3f" % (label, med))
            print("%-37s" % label + "".join("%8s" % fmt(x) for x in rs) + "%9s" % fmt(med))
        cpu = {}
        for (job, r), (v, c, note) in gap.items():
            if note.startswith("cpu_us_per_seek="):
                cpu.setdefault(job, []).append(float(note.split("=")[1]))
        if cpu:
            print("arraybench CPU per seek (workers' timed region, us): " + ", ".join(
                "%s %.1f" % (j, statistics.median(v)) for j, v in sorted(cpu.items())))

    psi = {}
    for line in open(psi_path):
        rnd, job, wall, cpu, io = line.rstrip("\n").split("\t")
        psi.setdefault(job, {})[int(rnd)] = (float(wall), float(cpu), float(io))
    if psi:
        nr = max(r for d in psi.values() for r in d)
        print()
        print("machine-wide stall share while each run ran, PSI 'some' in % of its wall time, cpu/io")
        print("(both include the run's own stalls: compare a run with the same run in other rounds)")
        print("%-17s" % "run" + "".join("%12s" % ("r%d" % r) for r in range(1, nr + 1)))
        for job in sorted(psi, key=lambda j: (j.startswith("gap"), ORDER.get(j, 99), j)):
            print("%-17s" % job + "".join(
                "%12s" % ("%.0f/%.0f" % psi[job][r][1:] if r in psi[job] else "")
                for r in range(1, nr + 1)))
    fails = [l.rstrip("\n").split("\t") for l in open(failures_path) if l.strip()]
    if fails:
        print()
        print("failed runs (their ratios are n/a):")
        for rnd, tool, why in fails:
            print("  round %s: %s: %s" % (rnd, tool, why))
    if investigate:
        print()
        print("HIGH, to investigate (median above %.2f, or above its range): %s" % (HIGH, "; ".join(investigate)))
    print()
    print("overall: %s" % ("FAIL (at least one ratio missed its target, was HIGH or was not measured)"
                           if failed else "PASS"))
    return 1 if failed else 0

ORDER = {"arraybench io": 0, "fio io": 1, "bonnie io": 2, "arraybench files": 3, "bonnie files": 4}
RAM = "?"

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "ab":
        ab(sys.argv[2], sys.argv[3])
    elif cmd == "fio":
        fio(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "bonnie":
        bonnie(sys.argv[2], sys.argv[3])
    elif cmd == "gap-ab":
        gap_ab(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "gap-fio":
        gap_fio(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "gap-bonnie":
        gap_bonnie(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "rss":
        for line in open(sys.argv[3]):
            run = json.loads(line)
            for ph in run["phases"]:
                out(sys.argv[2], ph["name"], ph["worker_max_rss_kib"])
    elif cmd == "report":
        RAM = sys.argv[10]
        sys.exit(report(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6],
                        sys.argv[7], sys.argv[8], int(sys.argv[9])))
