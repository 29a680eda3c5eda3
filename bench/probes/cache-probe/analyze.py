#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# analyze.py PROBE.tsv: for each phase start seen in a probe.py trace, what
# the tool's cgroup held of its test file just before (the previous sample).
# Phases are told apart by the I/O counters between samples: 5 or more
# tasks doing reads = seeks; reads and writes alike = rewrite; reads of under
# 64 bytes per call = per-char read; larger = block read.
import sys
rows = []
for l in open(sys.argv[1]):
    if l.startswith("#"):
        continue
    t, procs, tasks, syscr, syscw, rchar, wchar, cache, active, name, fc, regs = (l.rstrip("\n").split("\t") + [""] * 12)[:12]
    rows.append({"t": float(t), "procs": int(procs), "tasks": int(tasks),
                 "io": {"syscr": int(syscr), "syscw": int(syscw), "rchar": int(rchar), "wchar": int(wchar)},
                 "cache_mib": int(cache), "active_file_mib": int(active),
                 "file_mib": int(fc) if fc else 0, "regions": [int(x) for x in regs.split(",")] if regs else []})
prev = None
lab_prev = None
for s in rows:
    if prev is None:
        prev = s
        continue
    d = {k: s["io"][k] - prev["io"][k] for k in s["io"]}
    many = (s["tasks"] >= 6 or s["procs"] >= 6) and (prev["tasks"] >= 6 or prev["procs"] >= 6)
    if many and d["syscr"] > 0:
        lab = "seeks"
    elif s["tasks"] >= 6 or s["procs"] >= 6:
        lab = "idle"
    elif d["syscr"] > 0 and d["syscw"] > 0 and d["syscr"] > d["syscw"] / 4 and d["syscw"] > d["syscr"] / 4:
        lab = "rewrite"
    elif d["syscw"] > 0 and d["syscr"] < d["syscw"] / 4:
        lab = "pc-write" if d["wchar"] < 64 * d["syscw"] else "blk-write"
    elif d["syscr"] > 0:
        lab = "pc-read" if d["rchar"] < 64 * d["syscr"] else "blk-read"
    else:
        lab = "idle"
    if lab != lab_prev and lab in ("blk-read", "seeks", "rewrite", "pc-read"):
        print("%-9s starts ~%6.2f s: file %4d MiB cached before it, by 1/16 of the file: %s (cgroup cache %d MiB, active %d)" % (
            lab, s["t"], prev["file_mib"], prev["regions"], prev["cache_mib"], prev["active_file_mib"]))
    if lab != "idle":
        lab_prev = lab
    prev = s
