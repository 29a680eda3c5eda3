#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2317
#
# bench/compare-sweep.sh: arraybench's record-size sweep (--phases sweep)
# side by side with the equivalent fio 3.33 jobs, cell by cell, on one ext4
# file system, under one cache rule, in interleaved rounds.
#
# On this VM prefer bench/compare-sweep-pairs.sh: it measures each test on
# its own, from the same state, and gives fio random_generator=lfsr (fio's
# default random map reads long sequential stretches at the end of a run,
# which this script's random rows still compare against; bench/RESULTS.md).
#
# Run as root from anywhere:   bench/compare-sweep.sh [OPTION...]
#
# What it does, in one go:
#  1. The same target as bench/compare.sh (see its header for why): a sparse
#     image under -w, mkfs.ext4 -E nodiscard,lazy_itable_init=0,
#     lazy_journal_init=0, losetup --direct-io=on, mounted, its free space
#     written once with O_DIRECT zeros and deleted (so the host's first-touch
#     allocation lands on nobody), one test directory for both tools,
#     emptied after each run.
#  2. Cells.  Each cell (-c, FILE:RECORD) runs the sweep tests write, read,
#     random-read and random-write, in that order, once per tool per round:
#       arraybench run --phases sweep --sweep-file-sizes FILE
#                  --sweep-records RECORD --sweep-tests write,read,random-read,
#                  random-write (one run per cell: a fresh test file, as the
#                  first cell of any sweep; the default timing, fsync timed on
#                  writes; the default --cache, so the reads are evicted)
#       fio        four invocations, one job each, ioengine=psync bs=RECORD
#                  size=FILE fallocate=none fadvise_hint=0 invalidate=0:
#         write    rw=write end_fsync=1, the file removed and sync'ed first.
#                  arraybench's write opens with O_TRUNC and fsyncs untimed
#                  before its clock starts, so its blocks are freed and the
#                  free committed outside the timing; fio on a removed file
#                  creates it empty in its (untimed) set-up.  Never let fio
#                  find the old file: a file already as large as size= is
#                  overwritten in place (no block allocation at all), which
#                  is not what O_TRUNC gives.
#         read     rw=read, the file evicted by fio's exec_prerun
#         random-read  rw=randread (randommap on: every block once,
#                  randrepeat=0: a new order each run, as arraybench's seed),
#                  the file evicted by fio's exec_prerun
#         random-write rw=randwrite end_fsync=1, randrepeat=0, nothing evicted
#                  (arraybench evicts nothing before it either: both start
#                  with what random-read left cached)
#     Why this script evicts for fio instead of fio's invalidate=1: fio opens
#     the file, and so calls posix_fadvise(DONTNEED), inside its timed region
#     (thread_main() takes td->start, then do_io() opens the file lazily;
#     strace shows the fadvise 57 ms into a 2.41 s run whose runtime counts
#     from before it, bench/RESULTS.md).  arraybench evicts in the parent
#     before it forks the worker, untimed.  The eviction here is
#     arraybench's own (fdatasync, then posix_fadvise(0, 0, DONTNEED)), run
#     by fio's exec_prerun, which fio runs after its set-up and before it
#     takes td->start: untimed, and right before the first read, as
#     arraybench's worker reads right after its parent evicts.  That gap
#     matters on this VM: pages freed more than 2 s before the read are
#     handed back to the host (free page reporting) and cost a host fault
#     when the read allocates again; a read 3 s after its eviction ran at
#     half the rate of one right after it (bench/RESULTS.md).  The same
#     prerun then records with fincore(1) the share of the file resident as
#     fio's clock starts (beside arraybench's resident_at_start).  With -I 1 a fifth fio
#     job, read with invalidate=1 on the warm file (what a plain fio run
#     does), runs after the read, for the record: its ratio is shown apart.
#     Timing: fio's reported bandwidth for a write job with end_fsync=1
#     includes the fsync (do_io() ends with it, before update_runtime()),
#     and arraybench's default sweep timing times the fsync: same region.
#  3. Rounds (-x): in round r the cells run in an order rotated by r-1, and
#     in each cell three runs, arraybench, arraybench-aa (the same binary a
#     second time: the A/A pair, whose ratio is the machine's noise floor)
#     and fio, in the order bench/rounds.py gives round r (a Williams
#     design: 6 rounds to a full one, in which each run takes each position
#     twice and runs before each other run in half the rounds; this VM
#     hands freed memory back to its host, so a fixed or merely alternating
#     order measures the order).  -x not a multiple of 6 is warned about
#     and run.  orders.tsv (ROUND POSITION TOOL) holds the orders,
#     rounds-results.tsv (ROUND TOOL CELL/TEST KiB/s) the rates in the form
#     bench/rounds.py reads (results.tsv: every run's rate, seconds and
#     cache state).  No memory cgroup: the
#     sweep's cache rule is explicit (writes timed to stable storage, cold
#     reads evicted per file, random-write after random-read's pages), and
#     arraybench's sweep workers do not join a cgroup anyway.
#  4. Prints per cell and test every round's arraybench / fio ratio, the
#     median, its spread (min-max), both tools' median MiB/s and seconds,
#     the cache state each tool started from, and a verdict: PASS (median
#     0.95 to 1.10), FAIL (under 0.95), HIGH (over 1.10: over-reporting is
#     a defect too), INFO for records under 64 KiB (no target); NOMEAS when
#     a cold read did not start cold on either side.  Then per cell and
#     test the same ratio by position (bench/rounds.py): median, min-max,
#     the medians of the rounds where arraybench ran before / after fio,
#     the A/A median and floor (median |A/A - 1|), and ORDER-BOUND when the
#     two positions' medians differ by more than the floor; then the A/A
#     pair by position.
#
# Options (defaults in brackets; sizes take a k/m/g suffix):
#   -c CELLS   comma-separated FILE:RECORD cells  [2g:64k,2g:1m,2g:16m,256m:4k]
#   -x ROUNDS  rounds (6 to a full design)                    [6]
#   -I 0|1     also run fio's read with invalidate=1 (for the record) [1]
#   -i SIZE    sparse image size                              [8g]
#   -w DIR     directory for the image and mount point        [/var/tmp]
#   -D 0|1     loop device direct I/O (losetup --direct-io)   [1]
#   -W MIB     right before each tool's run of a cell, touch MIB of
#              memory and free it (0: not), so that the page cache the tool
#              fills comes from pages the guest used a moment ago rather
#              than pages this VM handed back to its host (a host fault
#              each; see settle() and bench/RESULTS.md)          [0]
#              -w /dev/shm -D 0 puts the image in RAM (tmpfs): the host's
#              disk and cache drop out, and what is left is the tools' code
#              paths, the page cache and this VM's memory
#   -o DIR     keep the raw outputs (JSON, logs, report) in DIR
#              [a temporary directory, removed at exit]
#   -b PATH    arraybench binary                  [../arraybench from here]
#   -h         this help
# With the defaults a round (three runs of each cell) takes 3 to 4 minutes
# on the 2-core VM of bench/RESULTS.md, 6 rounds about 20-25 minutes.
#
# Exit status: 0 every targeted cell passed, 1 at least one FAIL, HIGH or
# unmeasured cell, 2 bad usage or a missing tool, 3 set-up failed.  The
# image, loop device and mount go away on exit, error, Ctrl-C or TERM.

set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
cells_arg=2g:64k,2g:1m,2g:16m,256m:4k rounds=6 fio_inval=1 image_size=8g workdir=/var/tmp keep="" loop_dio=1 warm_mib=0
ab="$here/../arraybench"

prog=compare-sweep.sh
. "$here/lib.sh"

while getopts ":c:x:I:i:w:D:o:b:W:h" opt; do
	case $opt in
	c) cells_arg=$OPTARG ;; x) rounds=$OPTARG ;; I) fio_inval=$OPTARG ;;
	i) image_size=$OPTARG ;; w) workdir=$OPTARG ;; o) keep=$OPTARG ;; b) ab=$OPTARG ;;
	D) loop_dio=$OPTARG ;; W) warm_mib=$OPTARG ;;
	*) bench_other_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
bench_no_operands "$@"

# SIZE (k/m/g, or KiB without a suffix, as --sweep-file-sizes) -> KiB.
to_kib() {
	local v=${1,,}
	[[ $v =~ ^([0-9]+)([kmg]?)$ ]] || return 1
	case ${BASH_REMATCH[2]} in
	""|k) echo "${BASH_REMATCH[1]}" ;;
	m) echo $((BASH_REMATCH[1] * 1024)) ;;
	g) echo $((BASH_REMATCH[1] * 1024 * 1024)) ;;
	esac
}
cells=() max_file_kib=0
IFS=, read -r -a cell_list <<<"$cells_arg"
for c in "${cell_list[@]}"; do
	[[ $c =~ ^([^:]+):([^:]+)$ ]] || bad "invalid cell '$c': want FILE:RECORD"
	f=$(to_kib "${BASH_REMATCH[1]}") && rk=$(to_kib "${BASH_REMATCH[2]}") || bad "invalid cell '$c'"
	[ "$rk" -ge 4 ] && [ $((rk & (rk - 1))) -eq 0 ] && [ "$rk" -le 16384 ] ||
		bad "record of '$c': a power of two from 4k to 16m"
	[ "$f" -ge "$rk" ] && [ $((f % rk)) -eq 0 ] || bad "file of '$c': a multiple of its record"
	cells+=("$f:$rk")
	[ "$f" -gt "$max_file_kib" ] && max_file_kib=$f
done
[ ${#cells[@]} -gt 0 ] || bad "no cells"
[[ $rounds =~ ^[0-9]+$ ]] && [ "$rounds" -ge 1 ] || bad "invalid -x '$rounds'"
case $fio_inval in 0|1) ;; *) bad "invalid -I '$fio_inval': 0 or 1" ;; esac
case $loop_dio in 0|1) ;; *) bad "invalid -D '$loop_dio': 0 or 1" ;; esac
image_kib=$(to_kib "$image_size") || bad "invalid -i '$image_size'"
[ $((max_file_kib * 2 + 524288)) -le "$image_kib" ] || bad "-i $image_size is too small for a $((max_file_kib / 1024)) MiB file"

[ "$(id -u)" = 0 ] || bad "must run as root (loop device, mount)"
for t in fio fincore mkfs.ext4 losetup mount umount python3 truncate dd; do
	command -v "$t" >/dev/null || bad "missing tool '$t' (apt-get install fio e2fsprogs util-linux python3)"
done
[ -x "$ab" ] || bad "no arraybench binary at '$ab' (run make, or -b PATH)"
ab=$(cd "$(dirname "$ab")" && pwd)/$(basename "$ab")
[ -d "$workdir" ] || bad "no directory '$workdir'"

# ---- set-up and teardown ---------------------------------------------------
# (bench/lib.sh: $work, $out, and a teardown that leaves nothing behind)
bench_work_dirs

bench_copy_arraybench
log "$(bench_arraybench_words), $(fio --version)"
log "-c $cells_arg -x $rounds -I $fio_inval -i $image_size"

img=$(cd "$work" && pwd -P)/disk.img
truncate -s "${image_kib}K" "$img" || die "cannot create the image $img"
mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$img" || die "mkfs.ext4 failed"
dio_word=$([ "$loop_dio" = 1 ] && echo on || echo off)
dev=$(losetup --find --show --direct-io="$dio_word" "$img") || { dev=""; die "losetup failed"; }
[ "$(cat "/sys/block/${dev#/dev/}/loop/dio" 2>/dev/null)" = "$loop_dio" ] ||
	die "$dev did not get direct I/O $dio_word on its backing file"
mkdir "$work/mnt" && mount -t ext4 "$dev" "$work/mnt" || die "cannot mount $dev"
mnt=$work/mnt
log "ext4 on $dev (image $img, $((image_kib / 1024)) MiB sparse, dio=$loop_dio, read_ahead_kb $(cat "/sys/block/${dev#/dev/}/queue/read_ahead_kb")), mounted at $mnt"

bench_prefill

# Written back, then 3 s idle before each tool's run.  Why 3 s and not 1:
# this VM (Firecracker, virtio-balloon with free page reporting) hands free
# guest memory back to the host 2 s after it is freed, and the next touch
# of such a page costs a host fault (bench/RESULTS.md: a 2 GiB write into
# the page cache took 0.45 s on pages freed 1 s before, 3.7-5.9 s on pages
# freed 3 s before).  Waiting past the 2 s makes every write start from
# the same (handed back) memory for both tools, whichever ran before.
settle() { sync; sleep 3; }
# -W: touch every page of MIB and let them go, untimed, just before a run.
# The host faults of handed-back memory are paid here, by neither tool.
warm() {
	[ "$warm_mib" -gt 0 ] 2>/dev/null || return 0
	python3 -c 'import sys
n = int(sys.argv[1]) << 20
b = bytearray(n)
b[::4096] = b"\x01" * len(range(0, n, 4096))' "$warm_mib"
}

results=$out/results.tsv failures=$out/failures.tsv
: >"$results"
: >"$failures"

python_helper=$work/helper.py
cat >"$python_helper" <<'PYEOF'
import json, os, statistics, subprocess, sys

TESTS = ["write", "read", "random-read", "random-write"]

def out(*fields):
    print("\t".join(str(f) for f in fields))

def evict(path, res_path):
    # arraybench's own eviction (src/suite/sweep-run.c evict()): write back, then
    # drop this file's pages; then the share still resident (fincore, as
    # arraybench's mincore) into res_path.
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fdatasync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    r = subprocess.run(["fincore", "-b", "-n", "-r", "-o", "RES,SIZE", path], capture_output=True, text=True)
    res, size = (int(x) for x in r.stdout.split())
    with open(res_path, "w") as f:
        f.write("%.4f\n" % (res / size if size else 0))

def ab(rnd, cell, path, tool="arraybench"):
    # One JSON line per run; the sweep's cells are phases named "sweep".
    for line in open(path):
        if not line.strip():
            continue
        for ph in json.loads(line)["phases"]:
            if ph["name"] != "sweep":
                continue
            k = ph["key"]
            res = ph.get("resident_at_start")
            out(rnd, cell, k["test"], tool, ph["rate"], round(ph["elapsed_s"], 4),
                "" if res is None else round(res, 4), ph.get("cache_state", "?"),
                "+".join(ph.get("timed") or []))

def fio(rnd, cell, test, tool, path, resident):
    d = json.load(open(path))
    jobs = d["jobs"]
    if len(jobs) != 1:
        raise SystemExit("fio %s: expected one job, got %d" % (path, len(jobs)))
    j = jobs[0]
    if j.get("error"):
        raise SystemExit("fio %s: job error %s" % (path, j["error"]))
    dd = j["write"] if "write" in test else j["read"]
    # bw_bytes = io_bytes * 1000 / runtime, runtime in whole ms (rounded up).
    out(rnd, cell, test, tool, dd["bw_bytes"] / 1024.0, dd["runtime"] / 1000.0,
        resident, "fio", "io=%d" % dd["io_bytes"])

def balanced(rows, cells, orders_path, kib_label):
    """The ratios by position, with the A/A floor (bench/rounds.py).  Also
    writes rounds-results.tsv (ROUND TOOL CELL/TEST KiB/s) beside orders.tsv,
    so that `rounds.py report` reads the same figures."""
    sys.dont_write_bytecode = True  # no __pycache__ beside the copy
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import rounds
    positions = rounds.read_orders(orders_path)
    values = {}
    with open(os.path.join(os.path.dirname(orders_path), "rounds-results.tsv"), "w") as f:
        for (cell, test, tool, rnd), v in sorted(rows.items(), key=lambda kv: (kv[0][3], kv[0][0], kv[0][1])):
            if tool == "fio-inval1":
                continue
            values[(rnd, tool, "%s/%s" % (cell, test))] = v[0] if v[0] > 0 else None
            f.write("%d\t%s\t%s/%s\t%.1f\n" % (rnd, tool, cell, test, v[0]))
    print()
    print("by position (bench/rounds.py): arraybench / fio, and arraybench / arraybench-aa (A/A)")
    print("%-9s %s" % ("cell", rounds.HEADER.replace("metric", "test  ", 1)))
    for cell in cells:
        fkib, rkib = cell.split(":")
        label = "%s/%s" % (kib_label(fkib), kib_label(rkib))
        lo, hi = (0.95, 1.10) if int(rkib) >= 64 else (None, None)
        for test in TESTS:
            c = rounds.Comparison(values, positions, "arraybench", "fio", "%s/%s" % (cell, test), "arraybench-aa")
            c.metric = test
            print("%-9s %s" % (label, rounds.format_row(c, lo, hi)))
    print(rounds.LEGEND)
    for cell in cells:
        fkib, rkib = cell.split(":")
        label = "%s/%s" % (kib_label(fkib), kib_label(rkib))
        for test in TESTS:
            c = rounds.Comparison(values, positions, "arraybench", "arraybench-aa", "%s/%s" % (cell, test),
                                  "arraybench-aa")
            c.metric = test
            print("%-9s %s" % (label, rounds.aa_line(c)))

def report(path, failures_path, rounds, orders_path):
    rows = {}
    for line in open(path):
        rnd, cell, test, tool, rate, el, res, cs, note = line.rstrip("\n").split("\t")
        rows[(cell, test, tool, int(rnd))] = (float(rate), float(el), res, cs, note)
    cells = []
    for (cell, _, _, _) in rows:
        if cell not in cells:
            cells.append(cell)
    # Targeted cells first (by file, then record), records under 64 KiB last.
    cells.sort(key=lambda c: (int(c.split(":")[1]) < 64, int(c.split(":")[0]), int(c.split(":")[1])))
    failed = False
    def fmt(x):
        return "%.3f" % x if x is not None else "n/a"
    def kib_label(k):
        k = int(k)
        return "%dg" % (k >> 20) if k % (1 << 20) == 0 else ("%dm" % (k >> 10) if k % 1024 == 0 else "%dk" % k)
    print("arraybench / fio per round, median, spread; medians of both tools; cache state as each began")
    print("(ab cache: its JSON cache_state/resident_at_start min-max; fio res: fincore share as the job began, min-max)")
    hdr = "%-9s %-13s" % ("cell", "test") + "".join("%7s" % ("r%d" % r) for r in range(1, rounds + 1))
    hdr += "%8s %13s %9s %9s %7s %7s %-19s %-10s %s" % ("median", "min-max", "ab MiB/s", "fio MiB/s", "ab s",
                                                       "fio s", "ab cache", "fio res", "verdict")
    print(hdr)
    inv = []
    for cell in cells:
        fkib, rkib = cell.split(":")
        label = "%s/%s" % (kib_label(fkib), kib_label(rkib))
        for test in TESTS:
            rs, abv, fiov, abel, fioel, abres, abcs, fres = [], [], [], [], [], [], set(), []
            for r in range(1, rounds + 1):
                a, f = rows.get((cell, test, "arraybench", r)), rows.get((cell, test, "fio", r))
                rs.append(a[0] / f[0] if a and f and f[0] else None)
                if a:
                    abv.append(a[0]); abel.append(a[1]); abcs.add(a[3])
                    if a[2] != "":
                        abres.append(float(a[2]))
                if f:
                    fiov.append(f[0]); fioel.append(f[1])
                    if f[2] != "":
                        fres.append(float(f[2]))
            got = [x for x in rs if x is not None]
            med = statistics.median(got) if got else None
            cold = test in ("read", "random-read")
            abc = "/".join(sorted(abcs)) + ("/%.2f-%.2f" % (min(abres), max(abres)) if abres else "")
            fr = "%.2f-%.2f" % (min(fres), max(fres)) if fres else "-"
            targeted = int(rkib) >= 64
            if med is None:
                verdict = "NOMEAS"
            elif cold and (abcs != {"cold"} or not abres or max(abres) > 0.01 or not fres or max(fres) > 0.01):
                verdict = "NOMEAS (cache)"
            elif med > 1.10:
                verdict = "HIGH"
            elif not targeted:
                verdict = "INFO"
            elif med < 0.95:
                verdict = "FAIL"
            else:
                verdict = "PASS"
            if targeted and verdict != "PASS":
                failed = True
            if verdict == "HIGH" and not targeted:
                inv.append("%s %s" % (label, test))
            print("%-9s %-13s" % (label, test) + "".join("%7s" % (("%.3f" % x) if x else "n/a") for x in rs)
                  + "%8s %13s %9.0f %9.0f %7.2f %7.2f %-19s %-10s %s" % (
                      fmt(med), ("%.3f-%.3f" % (min(got), max(got))) if got else "n/a",
                      statistics.median(abv) / 1024 if abv else 0, statistics.median(fiov) / 1024 if fiov else 0,
                      statistics.median(abel) if abel else 0, statistics.median(fioel) if fioel else 0,
                      abc, fr, verdict))
    # fio's own invalidate=1 read, for the record.
    if any(k[2] == "fio-inval1" for k in rows):
        print()
        print("for the record: fio read with invalidate=1 (fio evicts the warm file itself, inside its timing)")
        print("%-9s %-24s" % ("cell", "ratio") + "".join("%7s" % ("r%d" % r) for r in range(1, rounds + 1))
              + "%8s %10s" % ("median", "fio res"))
        for cell in cells:
            fkib, rkib = cell.split(":")
            label = "%s/%s" % (kib_label(fkib), kib_label(rkib))
            for num, den, what in (("arraybench", "fio-inval1", "arraybench / fio inval=1"),
                                   ("fio", "fio-inval1", "fio inval=0 / inval=1")):
                rs, res = [], []
                for r in range(1, rounds + 1):
                    a, f = rows.get((cell, "read", num, r)), rows.get((cell, "read", den, r))
                    rs.append(a[0] / f[0] if a and f and f[0] else None)
                    g = rows.get((cell, "read", "fio-inval1", r))
                    if g and g[2] != "":
                        res.append(float(g[2]))
                got = [x for x in rs if x is not None]
                print("%-9s %-24s" % (label, what) + "".join("%7s" % (("%.3f" % x) if x else "n/a") for x in rs)
                      + "%8s %10s" % (fmt(statistics.median(got)) if got else "n/a",
                                      "%.3f" % min(res) if res else "-"))
    balanced(rows, cells, orders_path, kib_label)
    fails = [l.rstrip("\n").split("\t") for l in open(failures_path) if l.strip()]
    if fails:
        failed = True
        print()
        print("failed runs (their ratios are n/a):")
        for rnd, tool, why in fails:
            print("  round %s: %s: %s" % (rnd, tool, why))
    if inv:
        print()
        print("HIGH outside the targets (records under 64 KiB), to explain: " + "; ".join(inv))
    print()
    print("overall: %s" % ("FAIL (a cell at 64 KiB or more missed 0.95, was HIGH or was not measured)"
                           if failed else "PASS"))
    return 1 if failed else 0

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "evict":
        evict(sys.argv[2], sys.argv[3])
    elif cmd == "ab":
        ab(*sys.argv[2:6])
    elif cmd == "fio":
        fio(*sys.argv[2:8])
    elif cmd == "report":
        sys.exit(report(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]))
PYEOF

# Share of FILE in the page cache now (fincore: mincore(2) over the file).
resident() {
	local res size
	read -r res size < <(fincore -b -n -r -o RES,SIZE "$1" 2>/dev/null) || { echo ""; return; }
	python3 -c "print(round($res / $size, 4) if $size else 0)"
}

# ---- the two tools -----------------------------------------------------------
# run_arraybench ROUND FILE_KIB:RECORD_KIB [LABEL]: LABEL arraybench-aa is
# the A/A twin, the same binary run again.
run_arraybench() {
	local r=$1 cell=$2 tool=${3:-arraybench} base st
	base=$out/$tool.${cell/:/-}.r$r
	rm -f "$base.json"
	log "round $r: $tool ${cell%%:*}k file, ${cell#*:}k records"
	warm
	run_waited "$ab" run -d "$tdir" --phases sweep --sweep-file-sizes "${cell%%:*}" \
		--sweep-records "${cell#*:}k" --sweep-tests write,read,random-read,random-write \
		-m compare-sweep -q --json "$base.json" >"$base.txt" 2>&1
	st=$?
	tdir_clear
	if [ "$st" -ne 0 ]; then
		failed "$r" "$tool $cell" "status $st: $(grep -m1 -i error "$base.txt")"
		return 0
	fi
	python3 "$python_helper" ab "$r" "$cell" "$base.json" "$tool" >>"$results" || log "round $r: cannot parse $base.json"
	[ -s "$base.txt" ] || rm -f "$base.txt"
}

# fio in a directory of its own: exec_prerun leaves JOBNAME.prerun.txt there.
fio_in_cwd() { cd "$work/fiocwd" && exec fio "$@"; }
mkdir "$work/fiocwd" || die "cannot create $work/fiocwd"

# run_fio ROUND FILE_KIB:RECORD_KIB: the four jobs, one invocation each, with
# the untimed steps between them that arraybench takes untimed.
run_fio() {
	local r=$1 cell=$2 base=$out/fio.${2/:/-}.r$1 test tool st res spec
	local f=$tdir/fio.dat resf=$work/fiocwd/resident
	local common=(--output-format=json --filename="$f" --bs="${cell#*:}k" --size="${cell%%:*}k"
		--ioengine=psync --direct=0 --fallocate=none --fadvise_hint=0 --numjobs=1)
	log "round $r: fio ${cell%%:*}k file, ${cell#*:}k records"
	# arraybench's O_TRUNC + untimed fsync: the old blocks freed, committed.
	rm -f "$f" && sync
	warm # once per cell, as for arraybench: its four tests follow as fio's jobs do
	local steps=(write read)
	[ "$fio_inval" = 1 ] && steps+=(read-inval1)
	steps+=(random-read random-write)
	for test in "${steps[@]}"; do
		tool=fio res=""
		case $test in
		write) spec=(--name=write --rw=write --end_fsync=1 --invalidate=0) ;;
		read) spec=(--name=read --rw=read --invalidate=0) ;;
		read-inval1) spec=(--name=read --rw=read --invalidate=1) tool=fio-inval1 ;;
		random-read) spec=(--name=randread --rw=randread --randrepeat=0 --invalidate=0) ;;
		random-write) spec=(--name=randwrite --rw=randwrite --randrepeat=0 --end_fsync=1 --invalidate=0) ;;
		esac
		rm -f "$resf"
		case $test in
		read|random-read) spec+=(--exec_prerun="python3 $python_helper evict $f $resf") ;;
		write) ;;
		*) resident "$f" >"$resf" ;;
		esac
		run_waited fio_in_cwd "${common[@]}" --output="$base.$test.json" "${spec[@]}" >/dev/null 2>"$base.$test.err"
		st=$?
		[ -s "$resf" ] && res=$(cat "$resf")
		[ "$test" = write ] || [ -n "$res" ] || { failed "$r" "fio $cell $test" "no resident share (eviction failed?)"; break; }
		if [ "$st" -ne 0 ]; then
			failed "$r" "fio $cell $test" "status $st: $(head -c 300 "$base.$test.err" | tr '\n' ' ')"
			break
		fi
		[ -s "$base.$test.err" ] || rm -f "$base.$test.err"
		python3 "$python_helper" fio "$r" "$cell" "${test%-inval1}" "$tool" "$base.$test.json" "$res" >>"$results" ||
			log "round $r: cannot parse $base.$test.json"
	done
	tdir_clear
}

# ---- rounds ------------------------------------------------------------------
# The three runs of a round, in the order bench/rounds.py gives round r; the
# copy beside the helper is the one the report imports.
tools=(arraybench arraybench-aa fio)
cp "$here/rounds.py" "$work/rounds.py" || die "cannot copy $here/rounds.py"
design_len=$(python3 "$work/rounds.py" length ${#tools[@]}) || die "rounds.py length failed"
[ $((rounds % design_len)) -eq 0 ] ||
	log "warning: $rounds rounds is not a multiple of $design_len (a full design of ${#tools[@]} runs): positions are not balanced"
orders=$out/orders.tsv
: >"$orders"
t_start=$(date +%s)
n=${#cells[@]}
for ((r = 1; r <= rounds; r++)); do
	read -r -a order < <(python3 "$work/rounds.py" order "$r" "${tools[@]}") || die "rounds.py order failed"
	for i in "${!order[@]}"; do printf '%s\t%s\t%s\n' "$r" $((i + 1)) "${order[$i]}" >>"$orders"; done
	log "round $r: ${order[*]}"
	for ((k = 0; k < n; k++)); do
		cell=${cells[$(((r - 1 + k) % n))]}
		for tool in "${order[@]}"; do
			settle
			case $tool in
			fio) run_fio "$r" "$cell" ;;
			*) run_arraybench "$r" "$cell" "$tool" ;;
			esac
		done
	done
	log "round $r done after $(($(date +%s) - t_start)) s"
done

# ---- report -----------------------------------------------------------------
{
	echo "bench/compare-sweep.sh  $(date -u '+%Y-%m-%d %H:%M UTC')  $(uname -r)  $(nproc) CPUs  $(free -g | awk '/^Mem:/{print $2}') GiB RAM"
	echo "ext4 on $dev (loop, dio=$loop_dio, image in $workdir); $rounds rounds of ${tools[*]} in rounds.py's orders; cells $cells_arg; tests write, read, random-read, random-write;" \
		"arraybench default timing (fsync timed on writes) and cache (reads evicted); fio psync, invalidate=0 after" \
		"eviction by exec_prerun for read and random-read, end_fsync=1 on writes, fadvise_hint=0, fallocate=none"
	echo
	python3 "$python_helper" report "$results" "$failures" "$rounds" "$orders"
} >"$out/report.txt"
status=$?
cat "$out/report.txt"
[ -n "$keep" ] && log "raw outputs in $out"
exit $((status == 0 ? 0 : 1))
