#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-sweep-pairs.sh: each sweep test of each cell on its own,
# arraybench and fio back to back in alternating pairs, on one loop-backed
# ext4.  bench/compare-sweep.sh runs a whole cell (write, read, random-read,
# random-write) per tool per round; on this VM the state one run leaves
# (pages handed back to the host, writeback still going) made one cell's
# ratio swing 0.5x-3x from round to round.  Here every measured run starts
# from the same state: the test directory emptied, sync, 3 s idle, the
# file the test needs laid out by the tool itself, evicted right before
# the clock for the cold reads (arraybench's parent before it forks; for
# fio its exec_prerun, after its set-up, with the same fdatasync +
# POSIX_FADV_DONTNEED), nothing evicted before writes.
#
#   bench/compare-sweep-pairs.sh [-c FILE:RECORD,...] [-t TEST,...] [-n PAIRS]
#                                [-R lfsr|tausworthe] [-A READ_AHEAD_KB] [-o DIR]
#
# Timing is the same on both sides (bench/RESULTS.md, "Timing"): writes
# time their fsync (fio end_fsync=1), reads only the reads; one pread or
# pwrite per record (fio psync, fadvise_hint=0, fallocate=none); random
# tests visit every record once: arraybench in a shuffled permutation (as
# iozone), fio by default (-R lfsr) with random_generator=lfsr, which also
# visits every block once with no map.  fio's own default (-R tausworthe,
# with its random map) is not a uniform order: once most blocks are taken,
# a pick that lands on a used block takes the next free one after it, so
# the end of the run reads long sequential stretches, which readahead turns
# into fewer, larger I/Os.  Measured at 2g/64k: fio randread 610-621 MiB/s
# with its default, 456-540 with lfsr, 512-604 with norandommap
# (bench/RESULTS.md).  Prints per cell and
# test the ratios arraybench / fio of every pair and their median.
# Exit 0 when every median at records of 64k and up is 0.95-1.10.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
prog=compare-sweep-pairs.sh
. "$here/lib.sh" # log, bench_fio
cells_arg=2g:64k,2g:1m,2g:16m pairs=5 keep="" ab="$here/../arraybench" gen=lfsr ra_kb=""
tests_arg=write,read,random-read,random-write
while getopts ":c:n:o:b:R:t:A:" opt; do
	case $opt in
	c) cells_arg=$OPTARG ;; n) pairs=$OPTARG ;; o) keep=$OPTARG ;; b) ab=$OPTARG ;;
	R) gen=$OPTARG ;; t) tests_arg=$OPTARG ;; A) ra_kb=$OPTARG ;;
	*) echo "usage: $0 [-c FILE:RECORD,...] [-t TEST,...] [-n PAIRS] [-R lfsr|tausworthe] [-o DIR] [-b ARRAYBENCH]" >&2
	   exit 2 ;;
	esac
done
command -v fio >/dev/null || { echo "compare-sweep-pairs.sh: fio is missing (apt-get install fio)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "compare-sweep-pairs.sh: run as root (loop device, mount)" >&2; exit 2; }

work=$(mktemp -d /var/tmp/abpairs.XXXXXX) || exit 3
out=${keep:-$work/out}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 3 # absolute: fio runs in $work
dev="" mnt=$work/mnt
cleanup() {
	local st=$?
	[ -n "$dev" ] && { umount "$mnt" 2>/dev/null; losetup -d "$dev" 2>/dev/null; }
	rm -rf "$work/mnt" "$work/disk.img" "$work/evict.py" "$work"/*.prerun.txt
	[ -n "$keep" ] && rmdir "$work" 2>/dev/null || rm -rf "$work"
	exit "$st"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

truncate -s 8g "$work/disk.img" &&
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$work/disk.img" &&
	dev=$(losetup --direct-io=on -f --show "$work/disk.img") && mkdir "$mnt" && mount "$dev" "$mnt" || exit 3
# -A: the loop device's readahead (its default here is 2560 KiB: a random
# 1 MiB read then brings 2.5 MiB, and how much of it a later read uses
# depends on the order of the reads).
[ -z "$ra_kb" ] || echo "$ra_kb" >"/sys/block/${dev#/dev/}/queue/read_ahead_kb" || exit 3
log "$dev read_ahead_kb $(cat "/sys/block/${dev#/dev/}/queue/read_ahead_kb")"
# The host allocates the sparse image on first write: paid once, here.
dd if=/dev/zero of="$mnt/fill" bs=16M oflag=direct status=none 2>/dev/null
rm -f "$mnt/fill" && sync
cp "$ab" "$work/arraybench" || exit 3
ab=$work/arraybench
t=$mnt/test
mkdir "$t"
cat >"$work/evict.py" <<'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.fdatasync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)
EOF
settle() { find "$t" -mindepth 1 -delete; sync; sleep 3; }

# MiB/s of one arraybench run of TEST alone (its file laid out untimed).
run_ab() { # FILE RECORD TEST
	"$ab" run -d "$t" --phases sweep --sweep-file-sizes "$1" --sweep-records "$2" --sweep-tests "$3" \
		-q --json "$out/ab.json" >/dev/null 2>>"$out/ab.err" || return 1
	python3 -c 'import json, sys
o = json.loads(open(sys.argv[1]).readlines()[-1])
print("%.1f" % (o["phases"][-1]["rate"] / 1024))' "$out/ab.json"
}

# MiB/s of fio's job for TEST, its file written first (untimed, a job of its own).
# fio runs in $work (bench_fio), where its exec_prerun output goes.
run_fio() { # FILE RECORD TEST
	local f=$t/fio.dat c=(--filename="$t/fio.dat" --bs="$2" --size="$1" --ioengine=psync --direct=0
		--fallocate=none --fadvise_hint=0 --invalidate=0 --output-format=json)
	if [ "$3" != write ]; then
		bench_fio "${c[@]}" --name=layout --rw=write --end_fsync=1 >/dev/null || return 1
	fi
	local job
	case $3 in
	write) job=(--name=write --rw=write --end_fsync=1) ;;
	read) job=(--name=read --rw=read --exec_prerun="python3 $work/evict.py $f") ;;
	random-read) job=(--name=randread --rw=randread --randrepeat=0 --random_generator="$gen"
		--exec_prerun="python3 $work/evict.py $f") ;;
	random-write) job=(--name=randwrite --rw=randwrite --randrepeat=0 --random_generator="$gen" --end_fsync=1) ;;
	esac
	bench_fio "${c[@]}" "${job[@]}" --output="$out/fio.json" >/dev/null || return 1
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("%.1f" % ((j["read"]["bw"] + j["write"]["bw"]) / 1024))' "$out/fio.json"
}

: >"$out/pairs.tsv"
IFS=, read -r -a cells <<<"$cells_arg"
IFS=, read -r -a tests <<<"$tests_arg"
log "fio random_generator=$gen; cells $cells_arg; tests $tests_arg; $pairs pairs"
for cell in "${cells[@]}"; do
	file=${cell%%:*} rec=${cell#*:}
	for test in "${tests[@]}"; do
		for ((p = 1; p <= pairs; p++)); do
			if [ $((p % 2)) -eq 1 ]; then order=(ab fio); else order=(fio ab); fi
			for tool in "${order[@]}"; do
				settle
				v=$("run_$tool" "$file" "$rec" "$test") || { log "$cell $test pair $p: $tool failed"; exit 1; }
				printf -v "rate_$tool" '%s' "$v"
			done
			log "$cell $test pair $p: arraybench $rate_ab fio $rate_fio MiB/s"
			printf '%s\t%s\t%s\t%s\t%s\n' "$cell" "$test" "$p" "$rate_ab" "$rate_fio" >>"$out/pairs.tsv"
		done
	done
done

python3 - "$out/pairs.tsv" <<'EOF' | tee "$out/report.txt"
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
cells = {}
for cell, test, p, ab, fio in rows:
    cells.setdefault((cell, test), []).append((float(ab), float(fio)))
bad = 0
print("%-10s %-13s %-34s %7s %9s %9s  %s" % ("cell", "test", "ratios arraybench/fio per pair", "median", "ab MiB/s", "fio MiB/s", "verdict"))
for (cell, test), v in cells.items():
    ratios = [a / f for a, f in v]
    m = statistics.median(ratios)
    rec_kib = cell.split(":")[1]
    small = rec_kib.endswith("k") and int(rec_kib[:-1]) < 64
    verdict = "INFO" if small else "PASS" if 0.95 <= m <= 1.10 else "HIGH" if m > 1.10 else "FAIL"
    bad += verdict in ("FAIL", "HIGH")
    print("%-10s %-13s %-34s %7.3f %9.0f %9.0f  %s" % (cell, test, " ".join("%.2f" % r for r in ratios), m,
          statistics.median(a for a, _ in v), statistics.median(f for _, f in v), verdict))
sys.exit(1 if bad else 0)
EOF
