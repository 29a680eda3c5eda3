#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-oltp.sh: arraybench's oltp phase side by side with fio's
# randrw job of the same shape, on one ext4 file system on a loop device
# with direct I/O to its image (losetup --direct-io=on, so the guest's page
# cache does not answer for the image a second time), in interleaved rounds.
#
# Run as root:   bench/compare-oltp.sh [OPTION...]
#
# Each configuration (-c, PROCS:MODE, MODE buffered or direct) runs once per
# tool per round, the tool that goes first alternating by round:
#   arraybench run -d MNT --phases oltp --oltp-procs PROCS --oltp-size SIZE
#              --oltp-seconds S [--direct] --cache fadvise -r 0 --json
#       (70:30, 8k, uniform block-aligned offsets; its data file laid out
#       untimed, then written back and evicted before the processes start)
#   fio        --ioengine=psync --rw=randrw --rwmixread=70 --bs=8k
#              --numjobs=PROCS --size=SIZE --filename=F (one file shared by
#              the jobs, as the processes share arraybench's, in the same
#              directory as arraybench's, removed after the run) --time_based
#              --runtime=S --norandommap --randrepeat=0 (uniform offsets, a
#              block may come twice, as arraybench's) --fallocate=none
#              --invalidate=0 --fadvise_hint=0 [--direct=1] --group_reporting,
#       its file laid out anew before each run (1 MiB writes of random
#       data, fsync'ed: arraybench lays its file out in each run) and, by exec_prerun
#       (after fio's set-up, before its clock), written back and evicted
#       exactly as arraybench evicts (fdatasync, posix_fadvise DONTNEED).
# The figure compared is total IOPS (reads + writes): arraybench's "all"
# row, fio's read.iops + write.iops.  Prints every round's ratio
# arraybench/fio, the median ratio and both medians, and a verdict: PASS
# (median 0.95 to 1.10), FAIL (under 0.95), HIGH (over 1.10).
#
# Options (defaults in brackets):
#   -c CONFIGS  comma-separated PROCS:MODE     [8:buffered,8:direct,32:direct]
#   -x ROUNDS   interleaved rounds                              [5]
#   -s SIZE     data file size (fio/arraybench syntax, e.g. 1g) [1g]
#   -t SECONDS  timed seconds per run                           [10]
#   -i SIZE     sparse image size                               [4g]
#   -w DIR      directory for the image and mount point         [/var/tmp]
#   -o DIR      keep the raw outputs in DIR   [a temporary directory, removed]
#   -b PATH     arraybench binary                  [../arraybench from here]
#   -h          this help
# Exit status: 0 all PASS, 1 a FAIL or HIGH, 2 bad usage, 3 set-up failed.
# The image, loop device and mount go away on exit, error, Ctrl-C or TERM.

set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
configs=8:buffered,8:direct,32:direct rounds=5 size=1g seconds=10 image_size=4g workdir=/var/tmp keep=""
ab="$here/../arraybench"

prog=compare-oltp.sh
. "$here/lib.sh" # usage, die, bad

while getopts ":c:x:s:t:i:w:o:b:h" opt; do
	case $opt in
	c) configs=$OPTARG ;; x) rounds=$OPTARG ;; s) size=$OPTARG ;; t) seconds=$OPTARG ;;
	i) image_size=$OPTARG ;; w) workdir=$OPTARG ;; o) keep=$OPTARG ;; b) ab=$OPTARG ;;
	*) bench_other_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
bench_no_operands "$@"
[ "$(id -u)" = 0 ] || bad "must run as root (it makes a loop device)"
for c in fio losetup mkfs.ext4 python3 dd; do command -v $c >/dev/null || bad "'$c' is missing"; done
[ -x "$ab" ] || bad "no arraybench at '$ab' (make arraybench, or -b PATH)"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || bad "invalid -x '$rounds'"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || bad "invalid -t '$seconds'"
[[ ${size,,} =~ ^[1-9][0-9]*[mg]$ ]] || bad "invalid -s '$size': a size in m or g"
IFS=, read -r -a cfgs <<<"$configs"
for c in "${cfgs[@]}"; do [[ $c =~ ^[1-9][0-9]*:(buffered|direct)$ ]] || bad "invalid -c entry '$c'"; done

tmp=$(mktemp -d "$workdir/compare-oltp.XXXXXX") || die "cannot make a directory in '$workdir'"
out=${keep:-$tmp/out}
mkdir -p "$out" || die "cannot make '$out'"
img=$tmp/fs.img mnt=$tmp/mnt dev=""
cleanup() {
	mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

truncate -s "$image_size" "$img" || die "cannot make the image"
mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$img" || die "mkfs failed"
dev=$(losetup --find --show --direct-io=on "$img") || die "losetup failed"
mkdir -p "$mnt" && mount "$dev" "$mnt" || die "mount failed"
mkdir "$mnt/ab" "$tmp/state" || die "cannot make the test directories"

# fio's data file: laid out anew before each fio run, as arraybench lays its
# own out in each run (its run directory goes at the end): the same 1 MiB
# writes of incompressible data just before the timed region, so both
# start with the device as busy as a fresh gigabyte leaves it.
# In arraybench's own directory, and removed after each run: ext4 places a
# directory's files in its block group, and an earlier run of this script
# with fio's file in a directory of its own had arraybench's 8-process
# O_DIRECT rows 8 % behind with every latency 25 us longer, which the same
# file placement took away (bench/RESULTS.md).
ffile=$mnt/ab/fio.data
size_mib=${size%[mMgG]}
case ${size: -1} in g|G) size_mib=$((size_mib * 1024)) ;; esac
head -c 64M /dev/urandom >"$tmp/pool" || die "cannot make the data pool"
lay_out_fio() {
	rm -f "$ffile"
	local i
	for ((i = 0; i < size_mib; i += 64)); do cat "$tmp/pool"; done | head -c $((size_mib * 1048576)) |
		dd of="$ffile" bs=1M iflag=fullblock conv=fsync status=none
}
cat >"$tmp/evict" <<PY
#!/usr/bin/python3
import os
fd = os.open("$ffile", os.O_RDONLY)
os.fdatasync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
PY
chmod +x "$tmp/evict"

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "uptime: $(uptime)"
	echo "kernel: $(uname -r)  fio: $(fio --version)  arraybench: $("$ab" --version)"
	echo "loop: $(losetup -l -O NAME,DIO,BACK-FILE "$dev" | tail -1)  image on: $(df -T "$workdir" | awk 'NR == 2 { print $1, $2 }')"
	echo "configs: $configs  rounds: $rounds  size: $size  seconds: $seconds"
} | tee "$out/header.txt"

run_ab() { # procs mode tag
	local d=""; [ "$2" = direct ] && d=--direct
	ARRAYBENCH_STATE_DIR=$tmp/state "$ab" run -d "$mnt/ab" --phases oltp --oltp-procs "$1" --oltp-size "$size" \
		--oltp-seconds "$seconds" $d --cache fadvise -r 0 -q --json "$out/$3.ab.json" >"$out/$3.ab.txt" 2>&1 ||
		{ echo "arraybench failed: $(tail -1 "$out/$3.ab.txt")" >&2; return 1; }
	python3 -c '
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])][-1]
r = [p for p in o["phases"] if p["name"] == "oltp" and p["key"]["test"] == "all"][0]
print("%.1f %s %.3f" % (r["rate"], r["cache_state"], r["resident_at_start"]))' "$out/$3.ab.json"
}
run_fio() { # procs mode tag
	local d=0; [ "$2" = direct ] && d=1
	lay_out_fio || { echo "cannot lay out '$ffile'" >&2; return 1; }
	# In $tmp: fio writes its exec_prerun's output to NAME.prerun.txt in
	# the working directory.
	(cd "$tmp" && fio --name=oltp --ioengine=psync --rw=randrw --rwmixread=70 --bs=8k --numjobs="$1" --size="$size" \
		--filename="$ffile" --time_based --runtime="$seconds" --norandommap --randrepeat=0 --fallocate=none \
		--invalidate=0 --fadvise_hint=0 --direct=$d --group_reporting --exec_prerun="$tmp/evict" \
		--output-format=json --output="$out/$3.fio.json" >/dev/null 2>"$out/$3.fio.err") ||
		{ echo "fio failed: $(tail -1 "$out/$3.fio.err")" >&2; return 1; }
	rm -f "$ffile"
	python3 -c '
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
print("%.1f" % (j["read"]["iops"] + j["write"]["iops"]))' "$out/$3.fio.json"
}

: >"$out/rows.txt"
for ((r = 1; r <= rounds; r++)); do
	for c in "${cfgs[@]}"; do
		p=${c%%:*} m=${c#*:} tag="r$r.$p.$m"
		if (( r % 2 )); then a=$(run_ab "$p" "$m" "$tag") || exit 3; f=$(run_fio "$p" "$m" "$tag") || exit 3
		else f=$(run_fio "$p" "$m" "$tag") || exit 3; a=$(run_ab "$p" "$m" "$tag") || exit 3; fi
		echo "$r $p $m $a $f" | tee -a "$out/rows.txt"
	done
done

python3 - "$out/rows.txt" <<'PY' | tee "$out/report.txt"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
# round procs mode ab_iops ab_cache ab_resident fio_iops
worst = 0
print("%-14s %-44s %8s %10s %10s  %s" % ("config", "ratios arraybench/fio by round", "median", "ab IOPS", "fio IOPS", "verdict"))
for key in dict.fromkeys((r[1], r[2]) for r in rows):
    sel = [r for r in rows if (r[1], r[2]) == key]
    ratios = [float(r[3]) / float(r[6]) for r in sel]
    med = statistics.median(ratios)
    v = "PASS" if 0.95 <= med <= 1.10 else ("FAIL" if med < 0.95 else "HIGH")
    worst = max(worst, v != "PASS")
    print("%-14s %-44s %8.3f %10.0f %10.0f  %s" % ("%s %s" % key, " ".join("%.2f" % x for x in ratios), med,
          statistics.median(float(r[3]) for r in sel), statistics.median(float(r[6]) for r in sel), v))
sys.exit(worst)
PY
