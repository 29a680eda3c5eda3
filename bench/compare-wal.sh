#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The wal phase against PostgreSQL's pg_test_fsync on one file system:
# ext4 on a loop device with direct I/O on (losetup --direct-io=on), so a
# sync reaches the host's disk rather than the host's page cache.  ROUNDS
# rounds [6] of three runs each: arraybench, its twin arraybench-aa (the
# same binary again, the A/A pair whose ratio is the noise floor) and
# pg_test_fsync, in the order bench/rounds.py gives each round (a Williams
# design of 6 rounds: each in each position, and each before each other in
# half the rounds; other ROUNDS run, with a warning).  SECONDS [3] per
# test; every raw output is kept in OUT, with orders.tsv (ROUND POSITION
# TOOL) and results.tsv (ROUND TOOL METRIC VALUE); the report
# (compare-wal.py, also OUT/ratios.txt) gives per method the median ratio
# arraybench/pg_test_fsync, min-max, the medians when arraybench ran before
# / after pg_test_fsync, the A/A median, floor and ORDER-BOUND mark, and
# the verdict PASS 0.95-1.05 / FAIL / HIGH.
#   bench/compare-wal.sh [ROUNDS [SECONDS [OUT [IMAGE_DIR]]]]
# A "run" of arraybench is its three invocations (buffered fdatasync,fsync;
# --direct open_datasync,open_sync; --direct open_sync 16k) back to back,
# against pg_test_fsync's one run of all its methods.
# WAL_PATTERN=rewrite runs arraybench with --wal-rewrite: every commit at
# the log's start, pg_test_fsync's pattern (default: append, a real WAL's).
# Like with like: pg_test_fsync writes open_datasync and open_sync with
# O_DIRECT ("O_DIRECT supported on this platform for open_datasync and
# open_sync") and fdatasync and fsync buffered, so arraybench runs those two
# buffered and the open_* methods with --direct.  pg_test_fsync rewrites the
# same 8 KiB block(s) at offset 0 of its 16 MB file; the wal phase appends
# through its 16 MiB log: both overwrite allocated, written blocks.
set -eu
rounds=${1:-6}
secs=${2:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
case $rounds in '' | *[!0-9]* | 0) echo "compare-wal: invalid ROUNDS '$rounds'" >&2; exit 2 ;; esac
tools=(arraybench arraybench-aa pg_test_fsync)
design=$(python3 "$top/bench/rounds.py" length ${#tools[@]})
[ $((rounds % design)) = 0 ] ||
	echo "compare-wal: warning: $rounds rounds is not a multiple of the design's $design: positions unbalanced" >&2
out=${3:-$top/bench/results/wal}
imgdir=${4:-/var/tmp}
AB=${AB:-$top/arraybench}
pgtf=$(ls /usr/lib/postgresql/*/bin/pg_test_fsync | sort -V | tail -1)
mkdir -p "$out"
work=$(mktemp -d /tmp/compare-wal.XXXXXX)
img=$(mktemp "$imgdir/compare-wal.XXXXXX.img")
mnt=$work/mnt
loop=
cleanup() {
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$loop" ] && losetup -d "$loop"
	rm -f "$img"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# The report's helpers, copied: a change to the tree meanwhile changes nothing.
cp "$top/bench/compare-wal.py" "$top/bench/rounds.py" "$work/"
truncate -s 2G "$img"
loop=$(losetup --direct-io=on -f --show "$img")
mkfs.ext4 -q -F "$loop"
mkdir -p "$mnt"
mount "$loop" "$mnt"
mkdir -p "$mnt/pg" "$mnt/ab"
export ARRAYBENCH_STATE_DIR=$work/state
{
	echo "date: $(date -u)"
	echo "uptime: $(uptime)"
	echo "kernel: $(uname -r)"
	echo "pg_test_fsync: $pgtf ($("$pgtf" --version))"
	echo "arraybench: $("$AB" --version) ($(git -C "$top" rev-parse --short HEAD)), pattern ${WAL_PATTERN:-append}"
	echo "loop: $(losetup -l -O NAME,DIO,LOG-SEC,BACK-FILE "$loop" | tail -1)"
	echo "image on: $(df -T "$imgdir" | tail -1)"
	echo "fs: ext4 (mkfs.ext4 defaults), mounted at $mnt: $(findmnt -no OPTIONS "$mnt")"
} >"$out/conditions.txt"
pg() { # round
	"$pgtf" -f "$mnt/pg/test.out" -s "$secs" >"$out/pg.r$1.txt" 2>&1
	rm -f "$mnt/pg/test.out"
}
ab() { # round file-prefix (ab: arraybench, aa: its twin)
	# --cache fadvise: the log's pages dropped after its layout, as
	# PostgreSQL drops a closed segment's and as pg_test_fsync's file is
	# by the time it syncs (with the whole log cached, fdatasync was a
	# third slower here).
	local common=(run -d "$mnt/ab" --phases wal --cache fadvise -r 0 --wal-seconds "$secs" -q)
	[ "${WAL_PATTERN:-append}" = rewrite ] && common+=(--wal-rewrite)
	"$AB" "${common[@]}" --wal-sync fdatasync,fsync --wal-records 8k,2x8k --json "$out/$2.r$1.json" \
		>/dev/null 2>"$out/$2.r$1.buffered.txt"
	"$AB" "${common[@]}" --direct --wal-sync open_datasync,open_sync --wal-records 8k,2x8k \
		--json "$out/$2.r$1.json" >/dev/null 2>"$out/$2.r$1.direct.txt"
	"$AB" "${common[@]}" --direct --wal-sync open_sync --wal-records 16k \
		--json "$out/$2.r$1.json" >/dev/null 2>"$out/$2.r$1.direct16k.txt"
}
: >"$out/orders.tsv"
for r in $(seq 1 "$rounds"); do
	rm -f "$out/ab.r$r.json" "$out/aa.r$r.json"
	order=$(python3 "$work/rounds.py" order "$r" "${tools[@]}")
	pos=0
	for t in $order; do
		pos=$((pos + 1))
		printf '%s\t%s\t%s\n' "$r" "$pos" "$t" >>"$out/orders.tsv"
		case $t in
		arraybench) ab "$r" ab ;;
		arraybench-aa) ab "$r" aa ;;
		pg_test_fsync) pg "$r" ;;
		esac
	done
	echo "round $r done ($order): $(uptime)" >&2
done
echo "after: $(uptime)" >>"$out/conditions.txt"
# Does the pattern itself matter here (same block vs appends)?
python3 "$top/bench/wal-pattern-probe.py" "$mnt/pg" 8 1 >"$out/pattern-probe.txt"
python3 "$work/compare-wal.py" "$out" "$rounds" | tee "$out/ratios.txt"
