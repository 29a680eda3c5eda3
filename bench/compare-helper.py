#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/compare-helper.py: bench/compare.sh's parsers of each tool's output
# (one TSV line per phase) and its report; compare.sh copies it into its
# work directory at the start and runs the copy.
import json, math, os, statistics, sys
# rounds.py (the design and the ratio arithmetic) sits beside this copy; no
# __pycache__ left in the work directory.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds

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

def ab(rnd, path, label="arraybench"):
    for run in ab_runs(path):
        for ph in run["phases"]:
            val = ph["rate"] if ph["measurable"] else "NA"
            out(rnd, label, ph["name"], val, round(ph["elapsed_s"], 3),
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
HIGH = rounds.HIGH   # a median above this is flagged: over-reporting is a defect too
AB, TWIN = "arraybench", "arraybench-aa"
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
PEER_LABELS = {("fio", "block-write"): "fio rw=write", ("fio", "block-read"): "fio rw=read",
               ("fio", "seeks"): "fio randrw read IOPS", ("bonnie++", "per-char-write"): "bonnie++ putc",
               ("bonnie++", "block-write"): "bonnie++ put_block", ("bonnie++", "rewrite"): "bonnie++ rewrite",
               ("bonnie++", "per-char-read"): "bonnie++ getc", ("bonnie++", "block-read"): "bonnie++ get_block",
               ("bonnie++", "seeks"): "bonnie++ seeks"}
IO_PHASES = ["per-char-write", "block-write", "rewrite", "per-char-read", "block-read", "seeks"]
PER_CHAR = {"per-char-write", "per-char-read"}
MIN_S = 2.0

def fmt(x, nd=3):
    return "n/a" if x is None else ("%.*f" % (nd, x))

FILE_ORDER = ["seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat", "rand-delete"]
FILE_PHASES = set(FILE_ORDER)

def with_floor(c, aa):
    """c, whose subject has no twin of its own (a -e variant, a seek-gap
    run), given arraybench's A/A and floor from the same rounds: the
    machine's noise, against which c's per-position gap is judged."""
    c.aa, c.aa_median, c.floor = aa.aa, aa.aa_median, aa.floor
    c.aa_med_before, c.aa_med_after = aa.aa_med_before, aa.aa_med_after
    if c.med_before is None or c.med_after is None or c.floor is None:
        c.order_bound = None
    else:
        c.order_bound = abs(c.med_before - c.med_after) > c.floor
    return c

ROW = "%-15s %-21s %-5s %-11s %8s %11s %8s %8s %8s %7s  %s"
HDR = ROW % ("phase", "peer", "cache", "target", "median", "min-max", "ab 1st", "ab 2nd", "A/A", "floor",
             "result")

def row_text(c, label, cl, target, verdict):
    rng = "%.2f-%.2f" % (c.min, c.max) if c.min is not None else ""
    words = [verdict] + c.marks()
    if c.median is not None and c.n < len(c.rounds):
        words.append("(%d of %d rounds)" % (c.n, len(c.rounds)))
    return ROW % (c.metric, label, cl, target, fmt(c.median), rng, fmt(c.med_before), fmt(c.med_after),
                  fmt(c.aa_median), fmt(c.floor), " ".join(words))

def per_round(cs, nr):
    """Each ratio's per-round values, with the subject's position first
    ('<': it ran before the peer, '>': after)."""
    print("%-15s %-30s" % ("phase", "subject / peer") + "".join("%9s" % ("r%d" % r) for r in range(1, nr + 1)))
    for c, label in cs:
        cells = []
        for r in range(1, nr + 1):
            if r not in c.rounds:
                cells.append("")
                continue
            x = c.ratios[c.rounds.index(r)]
            pa, pp = c.pos.get((r, c.subject)), c.pos.get((r, c.peer))
            mark = "" if pa is None or pp is None else ("<" if pa < pp else ">")
            cells.append(mark + fmt(x))
        print("%-15s %-30s" % (c.metric, label) + "".join("%9s" % x for x in cells))

def read_table(path, width):
    if not os.path.exists(path):
        return []
    return [(l.rstrip("\n").split("\t") + [""] * width)[:width] for l in open(path) if l.strip()]

def report(outdir, io_rounds, file_rounds, gap_rounds, phases_mode, extras):
    P = lambda name: os.path.join(outdir, name)
    rounds_all = max(io_rounds, file_rounds, 1)
    values = rounds.read_results(P("results.tsv"))
    pos_io = rounds.read_orders(P("orders-io.tsv")) if io_rounds else {}
    pos_files = rounds.read_orders(P("orders-files.tsv")) if file_rounds else {}
    vals, elapsed, caches = {}, {}, {}
    for rnd, tool, phase, val, el, rss, note, cache in read_table(P("results.tsv"), 8):
        rnd = int(rnd)
        vals[(tool, phase, rnd)] = None if val == "NA" else float(val)
        caches.setdefault((tool, phase), set()).add(cache)
        if el:
            elapsed.setdefault((tool, phase), []).append(float(el))
    failed = False
    investigate = []
    rows_done = []

    def cache_label(phase, tool, subject=AB):
        # What each tool's cache held when the phase began; arraybench's own
        # JSON must agree (nothing evicted), and fio must have run with
        # invalidate=0, or the row shows what they said instead.
        want = "warm" if phase in FILE_PHASES else "tail"
        odd = []
        for who in (subject, TWIN) if subject == AB else (subject,):
            a = caches.get((who, phase), set())
            if a and a != {"warm/none"}:
                odd.append(("ab:" if who == AB else who + ":") + "+".join(sorted(a)))
        p = caches.get((tool, phase), set())
        if tool == "fio" and phase == "block-read" and phases_mode == "bonnie":
            # fio has no rewrite: its read follows its write, where
            # arraybench's and bonnie++'s follow their rewrite, which
            # leaves another cache state (bench/RESULTS.md, issue 22).
            odd.append("fio:no rewrite before")
        if tool == "fio" and p and p != {"invalidate=0"}:
            odd.append("fio:" + "+".join(sorted(p)))
        elif tool not in ("fio", "bonnie++") and p and p != {"warm/none"}:
            odd.append(tool + ":" + "+".join(sorted(p)))
        return "!" + ";".join(odd) if odd else want

    def comparison(subject, peer, phase):
        pos = pos_files if phase in FILE_PHASES else pos_io
        if subject == AB:
            c = rounds.Comparison(values, pos, AB, peer, phase, TWIN)
        else:
            c = with_floor(rounds.Comparison(values, pos, subject, peer, phase),
                           rounds.Comparison(values, pos, AB, TWIN, phase, TWIN))
        c.pos = pos
        return c

    def row(phase, tool, label, target, lo, hi, subject=AB):
        nonlocal failed
        own = file_rounds if phase in FILE_PHASES else io_rounds
        cl = cache_label(phase, tool, subject)
        if own == 0:
            print(ROW % (phase, label, cl, target, "", "", "", "", "", "", "not run"))
            return
        c = comparison(subject, tool, phase)
        verdict = c.verdict(lo, hi)
        high = c.median is not None and c.median > (hi if hi is not None else HIGH)
        if cl.startswith("!") and lo is not None:
            verdict = "NOMEAS (cache)"
        if lo is not None and verdict != "PASS":
            failed = True
        if high:
            investigate.append("%s%s vs %s %.3f" % ("" if subject == AB else subject + " ", phase, label,
                                                    c.median))
        print(row_text(c, label, cl, target, verdict))
        rows_done.append((c, label if subject == AB else subject + "/" + label))

    def skip(phase):
        # -P bonnie runs no per-char phase: no row for it.
        return phases_mode == "bonnie" and phase in PER_CHAR

    print("arraybench / peer: median of the per-round ratios, the rounds in rounds.py's balanced order")
    print(HDR)
    print("-" * len(HDR))
    for phase, tool, label, lo, hi, target in CHECKS:
        if not skip(phase):
            row(phase, tool, label, target, lo, hi)

    # Peak RSS of the workers: the same at both file sizes.
    rss = {}
    for label, phase, kib in read_table(P("rss.tsv"), 3):
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
    print(rounds.LEGEND)
    print("cache: tail = each tool's whole I/O run in one fresh memory cgroup, nothing evicted:")
    print("       a phase begins with what the tool's own earlier phases left cached under the limit;")
    print("       warm = file phases, no cgroup, nothing dropped (bonnie++'s own rule for both)")
    print()
    print("the A/A pair by position (arraybench against its twin, the same binary run again in the round):")
    for phase in IO_PHASES + FILE_ORDER:
        if skip(phase) or not any(t == AB and m == phase for (r, t, m) in values):
            continue
        pos = pos_files if phase in FILE_PHASES else pos_io
        print(rounds.aa_line(rounds.Comparison(values, pos, AB, TWIN, phase, TWIN)))

    # -e variants: each against the peers, per phase, and against arraybench.
    for name in extras:
        print()
        print("variant %s (-e): %s / peer, the same rounds; A/A and floor are arraybench's own" % (name, name))
        print(HDR)
        for phase in IO_PHASES:
            if skip(phase) or not any(t == name and m == phase for (r, t, m) in values):
                continue
            for peer in ("bonnie++", "fio"):
                if (peer, phase) in PEER_LABELS:
                    row(phase, peer, PEER_LABELS[(peer, phase)], "-", None, None, subject=name)
            row(phase, AB, "arraybench", "-", None, None, subject=name)
        print("ab 1st / ab 2nd: here, %s ran before / after the peer" % name)

    print()
    print("per-round ratios ('<': arraybench, or the variant, ran before the peer in that round; '>': after)")
    per_round(rows_done, rounds_all)

    print()
    tools = ["arraybench", TWIN, "fio", "bonnie++"] + list(extras)
    print("median absolute rates (KiB/s; seeks/s; files/s) and shortest phase time")
    print("%-15s" % "phase" + "".join("%14s" % t[:13] for t in tools) + "%10s %10s" % ("ab min s", "fio min s"))
    short = []
    for phase in IO_PHASES + FILE_ORDER:
        cells = []
        for tool in tools:
            xs = [vals[(tool, phase, r)] for r in range(1, rounds_all + 1)
                  if vals.get((tool, phase, r)) is not None]
            plus = any((tool, phase, r) in vals and vals[(tool, phase, r)] is None
                       for r in range(1, rounds_all + 1))
            cells.append("%.0f" % statistics.median(xs) if xs else ("+++++" if plus else "-"))
        mins = []
        for tool in ("arraybench", "fio"):
            e = elapsed.get((tool, phase))
            mins.append("%.2f" % min(e) if e else "-")
            if e and min(e) < MIN_S:
                short.append("%s %s %.2f s" % (tool, phase, min(e)))
        print("%-15s" % phase + "".join("%14s" % c for c in cells) + "%10s %10s" % tuple(mins))
    if short:
        print("warning: phases under %.0f s: %s" % (MIN_S, ", ".join(short)))

    gap = {}
    for rnd, job, val, el, cache, note in read_table(P("gap.tsv"), 6):
        gap[(job, int(rnd))] = (float(val), cache, note)
    if gap_rounds and gap:
        gvalues = {(r, job, "seeks"): v[0] for (job, r), v in gap.items()}
        gpos = rounds.read_orders(P("orders-gap.tsv"))
        print()
        print("seek gap, seeks/s: seeks right after a block write (fio: its write job, then its seeks job);")
        print("'bonnie seq': block write, rewrite, block read, seeks in one run, as bonnie++ -f does")
        print("%-24s %-12s" % ("run", "cache") + "".join("%8s" % ("r%d" % r) for r in range(1, gap_rounds + 1))
              + "%9s" % "median")
        jobs = [("ab-new-tail", "arraybench (queue)"), ("ab-new-tail-aa", "arraybench (queue) A/A"),
                ("ab-old-tail", "arraybench 72dfef8"),
                ("ab-new-evict", "arraybench (queue)"), ("fio-tail", "fio"), ("fio-evict", "fio"),
                ("ab-new-bseq", "arraybench, bonnie seq"), ("bonnie-bseq", "bonnie++ -f")]
        for job, label in jobs:
            xs = [gap.get((job, r)) for r in range(1, gap_rounds + 1)]
            if not any(xs):
                continue
            cs = {x[1] for x in xs if x}
            ok = {"ab-new-tail": {"warm/none"}, "ab-new-tail-aa": {"warm/none"}, "ab-old-tail": {"?/none"},
                  "ab-new-evict": {"cold/cgroup-v1 limit %sM write-behind" % RAM},
                  "fio-tail": {"invalidate=0"}, "fio-evict": {"invalidate=1"}, "ab-new-bseq": {"warm/none"},
                  "bonnie-bseq": {"tail"}}[job]
            if job == "ab-old-tail":
                cl = "tail" if all(c.endswith("/none") for c in cs) else "!" + "+".join(sorted(cs))
            else:
                cl = ("evicted" if "evict" in job else "tail") if cs == ok else "!" + "+".join(sorted(cs))
            med = statistics.median([x[0] for x in xs if x])
            print("%-24s %-12s" % (label, cl) + "".join("%8s" % ("%.0f" % x[0] if x else "n/a") for x in xs)
                  + "%9.0f" % med)
        print("ratios: median of the per-round ratios; A/A and floor: arraybench (queue) against its twin")
        print("%-37s %8s %11s %8s %8s %8s %7s  %s" % ("ratio", "median", "min-max", "1st", "2nd", "A/A", "floor",
                                                      "result"))
        aa = rounds.Comparison(gvalues, gpos, "ab-new-tail", "ab-new-tail-aa", "seeks", "ab-new-tail-aa")
        gcs = []
        for num, den, label in (("ab-new-tail", "ab-old-tail", "(a) queue / fixed shares, tail"),
                                ("ab-new-tail", "ab-new-evict", "(b) tail / evicted, arraybench"),
                                ("fio-tail", "fio-evict", "    tail / evicted, fio"),
                                ("ab-new-tail", "fio-tail", "arraybench / fio, tail"),
                                ("ab-old-tail", "fio-tail", "72dfef8 / fio, tail"),
                                ("ab-new-evict", "fio-evict", "arraybench / fio, evicted"),
                                ("ab-new-bseq", "bonnie-bseq", "arraybench / bonnie++ -f, tail")):
            c = with_floor(rounds.Comparison(gvalues, gpos, num, den, "seeks"), aa)
            if c.median is None:
                continue
            c.pos = gpos
            if c.median > HIGH and ("/ fio" in label or "/ bonnie" in label):
                investigate.append("seek gap %s %.3f" % (label, c.median))
            rng = "%.2f-%.2f" % (c.min, c.max)
            print("%-37s %8s %11s %8s %8s %8s %7s  %s" % (
                label, fmt(c.median), rng, fmt(c.med_before), fmt(c.med_after), fmt(c.aa_median),
                fmt(c.floor), " ".join([c.verdict()] + c.marks())))
            gcs.append((c, label))
        print("1st / 2nd: median of the rounds where the first-named run ran before / after the other")
        print(rounds.aa_line(aa))
        print("per round ('<': the first-named run ran before the other):")
        for c, label in gcs:
            cells = []
            for r in range(1, gap_rounds + 1):
                x = c.ratios[c.rounds.index(r)] if r in c.rounds else None
                pa, pp = gpos.get((r, c.subject)), gpos.get((r, c.peer))
                cells.append(("" if pa is None or pp is None else "<" if pa < pp else ">") + fmt(x))
            print("%-37s" % label + "".join("%9s" % x for x in cells))
        cpu = {}
        for (job, r), (v, c, note) in gap.items():
            if note.startswith("cpu_us_per_seek="):
                cpu.setdefault(job, []).append(float(note.split("=")[1]))
        if cpu:
            print("arraybench CPU per seek (workers' timed region, us): " + ", ".join(
                "%s %.1f" % (j, statistics.median(v)) for j, v in sorted(cpu.items())))

    psi = {}
    for rnd, job, wall, cpu, io in read_table(P("psi.tsv"), 5):
        psi.setdefault(job, {})[int(rnd)] = (float(wall), float(cpu), float(io))
    if psi:
        nr = max(r for d in psi.values() for r in d)
        print()
        print("machine-wide stall share while each run ran, PSI 'some' in % of its wall time, cpu/io")
        print("(both include the run's own stalls: compare a run with the same run in other rounds)")
        print("%-22s" % "run" + "".join("%12s" % ("r%d" % r) for r in range(1, nr + 1)))
        order = {"arraybench io": 0, TWIN + " io": 1, "fio io": 2, "bonnie++ io": 3,
                 "arraybench files": 5, TWIN + " files": 6, "bonnie++ files": 7}
        for job in sorted(psi, key=lambda j: (j.startswith("gap"), order.get(j, 4 if j.endswith(" io") else 99), j)):
            print("%-22s" % job + "".join(
                "%12s" % ("%.0f/%.0f" % psi[job][r][1:] if r in psi[job] else "")
                for r in range(1, nr + 1)))
    fails = read_table(P("failures.tsv"), 3)
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

RAM = "?"

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "ab":
        ab(*sys.argv[2:5])
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
        # report OUTDIR RAM IO_ROUNDS FILE_ROUNDS GAP_ROUNDS all|bonnie [VARIANT...]
        RAM = sys.argv[3]
        sys.exit(report(sys.argv[2], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7],
                        sys.argv[8:]))
