#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-oltp.sh: arraybench's oltp phase side by side with fio's
# randrw job of the same shape, on one ext4 file system on a loop device
# with direct I/O to its image (losetup --direct-io=on, so the guest's page
# cache does not answer for the image a second time), in balanced rounds.
#
# Run as root:   bench/compare-oltp.sh [OPTION...]
#
# Each configuration (-c, PROCS:MODE, MODE buffered or direct) runs once per
# tool per round: arraybench, its twin arraybench-aa (the same binary again:
# the A/A pair, whose ratio is the noise floor) and fio, in the order
# bench/rounds.py gives the round (a Williams design of 6 rounds: each tool
# in each position, and before each other in half the rounds; a -x that is
# not a multiple of 6 runs, with a warning):
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
# arraybench/fio and both tools' median IOPS, then per configuration the
# median ratio, min-max, the medians when arraybench ran before / after
# fio, the A/A median (arraybench / its twin), the floor (median |A/A - 1|),
# the ORDER-BOUND mark and a verdict: PASS (median 0.95 to 1.10), FAIL
# (under 0.95), HIGH (over 1.10); then the A/A pair by position.  The
# output directory holds orders.tsv (ROUND POSITION TOOL), results.tsv
# (ROUND TOOL CONFIG IOPS), rows.txt (one line per run, with arraybench's
# cache state) and report.txt.
#
# Options (defaults in brackets):
#   -c CONFIGS  comma-separated PROCS:MODE     [8:buffered,8:direct,32:direct]
#   -x ROUNDS   balanced rounds (a multiple of 6)               [6]
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
configs=8:buffered,8:direct,32:direct rounds=6 size=1g seconds=10 image_size=4g workdir=/var/tmp keep=""
ab="$here/../arraybench"

prog=compare-oltp.sh
. "$here/lib.sh" # usage, die, bad, run_waited

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
tools=(arraybench arraybench-aa fio)
design=$(python3 "$here/rounds.py" length ${#tools[@]}) || die "cannot run $here/rounds.py"
((rounds % design == 0)) || echo "$prog: warning: -x $rounds is not a multiple of the design's $design rounds: positions unbalanced" >&2

tmp=$(mktemp -d "$workdir/compare-oltp.XXXXXX") || die "cannot make a directory in '$workdir'"
out=${keep:-$tmp/out}
mkdir -p "$out" || die "cannot make '$out'"
img=$tmp/fs.img mnt=$tmp/mnt dev="" child=""
cleanup() {
	# The tool running now first (arraybench removes its file on TERM):
	# while it holds the mount, nothing below it can go.
	if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
		kill -TERM "$child" 2>/dev/null
		for _ in $(seq 60); do kill -0 "$child" 2>/dev/null || break; sleep 0.5; done
		kill -KILL "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	if mountpoint -q "$mnt" 2>/dev/null; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do umount "$mnt" 2>/dev/null && break; sleep 1; done
	fi
	mountpoint -q "$mnt" 2>/dev/null && { echo "$prog: could not unmount $mnt: $tmp left in place" >&2; return; }
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$tmp"
}
# The tools run under bench/lib.sh's run_waited, which keeps their pid in
# $child for the teardown above (a tool in $(...) outlived the script).
trap cleanup EXIT
trap 'exit 130' INT TERM

truncate -s "$image_size" "$img" || die "cannot make the image"
mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$img" || die "mkfs failed"
dev=$(losetup --find --show --direct-io=on "$img") || die "losetup failed"
mkdir -p "$mnt" && mount "$dev" "$mnt" || die "mount failed"
mkdir "$mnt/ab" "$tmp/state" || die "cannot make the test directories"
# The report's arithmetic, copied: a change to the tree meanwhile changes nothing.
cp "$here/rounds.py" "$tmp/" || die "cannot copy rounds.py"

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

run_ab() { # procs mode tag [suffix: ab, or aa for the twin]; sets val
	local d="" x=${4:-ab}; [ "$2" = direct ] && d=--direct
	run_waited env ARRAYBENCH_STATE_DIR="$tmp/state" "$ab" run -d "$mnt/ab" --phases oltp --oltp-procs "$1" --oltp-size "$size" \
		--oltp-seconds "$seconds" $d --cache fadvise -r 0 -q --json "$out/$3.$x.json" >"$out/$3.$x.txt" 2>&1 ||
		{ echo "arraybench failed: $(tail -1 "$out/$3.$x.txt")" >&2; return 1; }
	val=$(python3 -c '
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])][-1]
r = [p for p in o["phases"] if p["name"] == "oltp" and p["key"]["test"] == "all"][0]
print("%.1f %s %.3f" % (r["rate"], r["cache_state"], r["resident_at_start"]))' "$out/$3.$x.json")
}
run_fio() { # procs mode tag; sets val
	local d=0; [ "$2" = direct ] && d=1
	lay_out_fio || { echo "cannot lay out '$ffile'" >&2; return 1; }
	# In $tmp: fio writes its exec_prerun's output to NAME.prerun.txt in
	# the working directory.
	run_waited bash -c 'cd "$1" && shift && exec "$@"' sh "$tmp" fio --name=oltp --ioengine=psync --rw=randrw --rwmixread=70 --bs=8k --numjobs="$1" --size="$size" \
		--filename="$ffile" --time_based --runtime="$seconds" --norandommap --randrepeat=0 --fallocate=none \
		--invalidate=0 --fadvise_hint=0 --direct=$d --group_reporting --exec_prerun="$tmp/evict" \
		--output-format=json --output="$out/$3.fio.json" >/dev/null 2>"$out/$3.fio.err" ||
		{ echo "fio failed: $(tail -1 "$out/$3.fio.err")" >&2; return 1; }
	rm -f "$ffile"
	val=$(python3 -c '
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
print("%.1f" % (j["read"]["iops"] + j["write"]["iops"]))' "$out/$3.fio.json")
}

: >"$out/rows.txt"
: >"$out/orders.tsv"
: >"$out/results.tsv"
for ((r = 1; r <= rounds; r++)); do
	order=$(python3 "$tmp/rounds.py" order "$r" "${tools[@]}") || die "rounds.py failed"
	pos=0
	for t in $order; do pos=$((pos + 1)); printf '%s\t%s\t%s\n' "$r" "$pos" "$t" >>"$out/orders.tsv"; done
	for c in "${cfgs[@]}"; do
		p=${c%%:*} m=${c#*:} tag="r$r.$p.$m"
		for t in $order; do
			case $t in
			arraybench) run_ab "$p" "$m" "$tag" || exit 3 ;;
			arraybench-aa) run_ab "$p" "$m" "$tag" aa || exit 3 ;;
			fio) run_fio "$p" "$m" "$tag" || exit 3 ;;
			esac
			v=$val
			# rows.txt: round procs mode tool IOPS [cache resident]
			echo "$r $p $m $t $v" | tee -a "$out/rows.txt"
			printf '%s\t%s\t%s\t%s\n' "$r" "$t" "$p $m" "${v%% *}" >>"$out/results.tsv"
		done
	done
done

PYTHONPATH=$tmp python3 - "$out" "$configs" <<'PY' | tee "$out/report.txt"
import statistics, sys
import rounds as R
out, configs = sys.argv[1], [c.replace(":", " ") for c in sys.argv[2].split(",")]
values, positions = R.read_results(out + "/results.tsv"), R.read_orders(out + "/orders.tsv")
LO, HI = 0.95, 1.10
print("%-14s %-44s %10s %10s" % ("config", "ratios arraybench/fio by round", "ab IOPS", "fio IOPS"))
comps = []
for key in configs:
    c = R.Comparison(values, positions, "arraybench", "fio", key, "arraybench-aa")
    comps.append(c)
    med = lambda t: statistics.median([values[(r, t, key)] for r in c.rounds if values.get((r, t, key))] or [0])
    print("%-14s %-44s %10.0f %10.0f" % (key, " ".join(R.fmt(x, 2) for x in c.ratios), med("arraybench"), med("fio")))
print()
print(R.HEADER)
worst = 0
for c in comps:
    print(R.format_row(c, LO, HI))
    worst = max(worst, c.verdict(LO, HI) != "PASS")
print(R.LEGEND)
print("verdict: PASS %.2f-%.2f, FAIL under %.2f, HIGH over %.2f" % (LO, HI, LO, HI))
for key in configs:
    print(R.aa_line(R.Comparison(values, positions, "arraybench", "arraybench-aa", key, "arraybench-aa")))
sys.exit(worst)
PY
