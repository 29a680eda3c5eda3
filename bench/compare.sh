#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2015,SC2317
#
# bench/compare.sh: arraybench side by side with fio and bonnie++ 2.00a on one
# ext4 file system, under one page-cache rule, in interleaved rounds whose
# order follows bench/rounds.py's balanced (Williams) design, with an A/A
# twin of arraybench in every round as the noise floor.
#
# Run as root from anywhere:   bench/compare.sh [OPTION...]
#
# What it does, in one go:
#  1. A sparse image (-i) under -w, mkfs.ext4 -E nodiscard,lazy_itable_init=0,
#     lazy_journal_init=0 (plus -N, as -n needs more inodes than the default),
#     attached with losetup --direct-io=on, mounted.  Before any timing the
#     free space is written once with O_DIRECT zeros and deleted, so that no
#     tool pays for the host allocating the sparse image under it.  All tools
#     run in one directory made once (ext4 puts new files near their
#     directory, so all start from the same place), emptied after each run.
#     What this measures: with dio=1 the loop device reads and writes the
#     image with O_DIRECT, so the image is not in this machine's page cache,
#     but the image sits on the VM's virtual disk, whose reads may be served
#     from the hypervisor host's cache (bench/RESULTS.md has what was
#     measured).  The ratios compare the tools' CPU cost and code paths on one
#     stack, not disks; the absolute MB/s mean little.
#  2. Cache rule, the same for all three tools, as bonnie++ 2.00a has it: each
#     tool's whole I/O run (all its I/O phases, one process tree) runs in one
#     fresh memory cgroup v1, /sys/fs/cgroup/memory/abbench.$$, limited to -r
#     MiB, entered by a subshell before it execs the tool, and NOTHING is
#     evicted between phases: arraybench --cache none -r RAM; fio's three jobs
#     one after the other in the same group with invalidate=0; bonnie++ never
#     evicts.  So each tool's read and seek phases begin with whatever tail
#     its own earlier phases left under the same limit (measured: 440-510
#     MiB at the end of the 4 GiB file for every tool), never with a file
#     evicted by one tool and not by another.  The ratio table says so per
#     row ("tail"); arraybench's JSON must say cache_state "warm" and
#     cache_mode "none" for every I/O phase, or the row shows what it said.
#     File runs: no memory cgroup and nothing dropped for either tool
#     ("warm"): on cgroup v1 the limit also counts dentries and inodes, and
#     both tools got OOM-killed under 512 MiB at the file counts a stat phase
#     needs to last about 2 s.
#  3. I/O rounds (-x), each with, back to back, arraybench, arraybench-aa,
#     fio, bonnie++ and any -e variants in the order of that round of
#     rounds.py's design over them (each tool in each position, and before
#     each other tool, equally often over a full design: 4 rounds for the
#     four tools, 10 with one variant, 6 with two; a warning when -x is not
#     a multiple), written to orders-io.tsv (ROUND POSITION TOOL):
#       arraybench -s SIZE -fPERCHAR -n 0 --seeks SEEKS --seekers SEEKERS
#                  --cache none -r RAM (per-char, block write, rewrite,
#                  block read, seeks in one run); with -P bonnie
#                  --phases block-write,rewrite,block-read,seeks instead of
#                  -fPERCHAR (bonnie++'s own order, no per-char)
#       arraybench-aa  the same binary and command again: the A/A twin,
#                  placed by the design like any other tool
#       VARIANT    (-e NAME=ARGS) the arraybench command with ARGS appended
#                  (e.g. --data zeros), or another binary (bin=PATH, copied
#                  into the work directory as the main one is)
#       fio        three invocations in one group, bs=8k size=SIZE
#                  ioengine=psync end_fsync=1 fallocate=none invalidate=0:
#         write    rw=write, file removed first (a fresh file, as arraybench's
#                  O_EXCL create; one invocation per job so fio never lays the
#                  file out before the write job)
#         read     rw=read
#         seeks    rw=randrw numjobs=SEEKERS, all on one file, norandommap,
#                  group_reporting, rwmixread=91, number_ios =
#                  ceil(1.1 x SEEKS / SEEKERS) per job.  An arraybench seek is
#                  one 8k read plus, for 1 seek in 10, an 8k write of that
#                  block: 1.1 x SEEKS I/Os, writes/reads = 0.10 (91/9 gives
#                  0.099; rwmixread=90 would give 0.111).  arraybench seeks/s
#                  is compared with fio's READ IOPS: the reads are the seeks.
#         fadvise_hint=0 (-H) so that fio makes the same system calls as
#                  arraybench and bonnie++ (no FADV_SEQUENTIAL/FADV_RANDOM).
#       bonnie++   -s SIZE:8k:SEEKS:SEEKERS -r RAM -n 0 -fPERCHAR -u root -q
#                  (per-char: bonnie++ 2.00's 1-byte write()/read(), as
#                  arraybench's default --per-char syscall); with -P bonnie
#                  -f (no per-char)
#     File rounds (-y), right after the I/O tools, each with, back to back in
#     the design's order over arraybench, arraybench-aa and bonnie++ (6
#     rounds), written to orders-files.tsv, arraybench -s 0 -n NUM --cache
#     none -r RAM (twice) and bonnie++ -s 0 -n NUM -r RAM -u root -q (0-byte
#     files), no cgroup.  Every ratio is arraybench / peer within one round.
#  4. Seek-gap rounds (-g), each with, back to back in the order of rounds.py's
#     design over the runs below (8 runs with -O: 8 rounds; 7 without: 14),
#     written to orders-gap.tsv, the seeks alone after a block write
#     (--phases block-write,seeks; fio: its write job, then its seeks job),
#     SEEKS seeks by SEEKERS:
#       ab new tail    this arraybench, in the group, --cache none (as in 3)
#       ab new tail aa the same again: the A/A twin, whose floor every
#                      seek-gap ratio is set against
#       ab old tail    the -O binary (seekers with fixed shares, 72dfef8),
#                      the same way; left out without -O
#       ab new evicted this arraybench --cache cgroup -r RAM: its own group,
#                      the file evicted and the group emptied before seeks
#       fio tail       write + seeks in the group, invalidate=0 (as in 3)
#       fio evicted    write + seeks in the group, seeks with invalidate=1
#       ab bonnie seq  this arraybench, in the group, --cache none, --phases
#                      block-write,rewrite,block-read,seeks: bonnie++'s order
#       bonnie++ -f    bonnie++ -s SIZE:8k:SEEKS:SEEKERS -r RAM -n 0 -f in the
#                      group (block write, rewrite, block read, seeks)
#     so that (a) shared queue vs fixed shares and (b) tail vs evicted are
#     each measured alone, each against fio in the same state, and the seeks
#     against bonnie++'s after the same phases without the per-char ones.
#  5. Peak RSS: arraybench --phases block-write,block-read,seeks at the two
#     -R sizes (its own --cache cgroup); worker_max_rss_kib of each phase must
#     not grow with the file.
#  6. Prints the ratio table (bench/rounds.py's Comparison) with the cache
#     state, the target, the median of the per-round ratios, min-max, the
#     medians of the rounds where arraybench ran before / after the peer,
#     the A/A median (arraybench / arraybench-aa), the floor (median
#     |A/A - 1|), and the verdict next to each: PASS, FAIL (under target) or
#     HIGH (median above 1.10, or above the range: arraybench over-reporting
#     is a defect too, so HIGH fails the run until explained), marked
#     ORDER-BOUND when the two positions' medians differ by more than the
#     floor; -P bonnie leaves the per-char rows out (rewrite stays, as
#     information).  Then the A/A pair by position, each -e variant's ratio
#     to bonnie++ and fio per phase and to arraybench (the floor there is
#     arraybench's A/A), each ratio per round, the median absolute rates and
#     the shortest time of every phase, the seek-gap tables (ratios with the
#     same columns), and the stall share (PSI) of each run.  results.tsv
#     (ROUND TOOL PHASE VALUE ...), the orders-*.tsv, gap.tsv and psi.tsv
#     stay in -o DIR.
#
# Options (defaults in brackets; sizes take MiB or a k/m/g/t suffix):
#   -s SIZE        I/O file size for every tool                    [4g]
#   -k SEEKS       random seeks in all                             [100000]
#   -p SEEKERS     seeker processes = fio numjobs                  [5]
#   -c MIB         per-char size, -fMIB on both sides              [20]
#   -r MIB         memory cgroup limit of the I/O runs             [512]
#   -x ROUNDS      I/O rounds (0 skips them; 4 or 8 balance the design,
#                  10 with one -e, 6 or 12 with two)               [5]
#   -n NUM         files x 1024 for the file phases (0-byte files) [1024]
#   -y ROUNDS      file rounds (0 skips them; 6 balances)          [4]
#   -g ROUNDS      seek-gap rounds (0 skips them; 8 balances with -O,
#                  14 without)                                     [5]
#   -P PHASES      I/O phases of arraybench and bonnie++: all (per-char,
#                  block write, rewrite, block read, seeks) or bonnie
#                  (bonnie++ -f's: block write, rewrite, block read, seeks;
#                  fio unchanged)                                  [all]
#   -e NAME=ARGS   one more arraybench in the I/O rounds, labelled NAME, ARGS
#                  (split at blanks, no quoting) appended to its run
#                  command; ARGS may begin "bin=PATH "
#                  for another binary; repeatable (e.g. -e zeros='--data zeros')
#                  [none]
#   -O PATH        old arraybench (fixed seek shares) for the seek-gap rounds
#                  [none: "ab old tail" is left out]
#   -R SMALL,BIG   file sizes of the two peak-RSS runs, or none    [1g,8g]
#   -i SIZE        sparse image size                               [12g]
#   -w DIR         directory for the image and mount point         [/var/tmp]
#   -o DIR         keep the raw outputs (JSON, CSV, logs, report) in DIR
#                  [a temporary directory, removed at exit]
#   -b PATH        arraybench binary                    [../arraybench from here]
#   -d KIND        arraybench --data random|zeros                  [random]
#   -H 0|1         fio fadvise_hint                                [0]
#   -h             this help
# With the defaults every phase but the two stat phases (1.5 to 1.8 s) lasts
# over 2 s on a 2-core VM.  Wall time on a quiet machine (from the runs of
# 2026-12-03: an I/O run 10-24 s, a file run 78 s, a seek-gap run 6-16 s):
# the defaults about 30 minutes (I/O 7, files 16, seek gap 6); the balanced
# -x 8 -y 6 -g 8 -O PATH about 47 (I/O 11, files 24, seek gap 11); each -e
# variant about 25 s more per I/O round.
#
# Exit status: 0 every check passed, 1 at least one FAIL, HIGH or unmeasured
# check, 2 bad usage or a missing tool, 3 set-up failed.  The image, loop
# device, mount and cgroups go away on exit, error, Ctrl-C or TERM.

set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
size=4g seeks=100000 seekers=5 perchar=20 ram=512 rounds=5 files=1024 frounds=4 grounds=5
rss_sizes=1g,8g image_size=12g workdir=/var/tmp keep="" data=random fadvise_hint=0
ab="$here/../arraybench" ab_old="" phases=all
extra_names=() extra_bins=() extra_args=()

prog=compare.sh
. "$here/lib.sh"

while getopts ":s:k:p:n:c:r:x:y:g:O:R:i:w:o:b:d:H:P:e:h" opt; do
	case $opt in
	s) size=$OPTARG ;; k) seeks=$OPTARG ;; p) seekers=$OPTARG ;; n) files=$OPTARG ;;
	c) perchar=$OPTARG ;; r) ram=$OPTARG ;; x) rounds=$OPTARG ;; R) rss_sizes=$OPTARG ;;
	y) frounds=$OPTARG ;; g) grounds=$OPTARG ;; O) ab_old=$OPTARG ;;
	i) image_size=$OPTARG ;; w) workdir=$OPTARG ;; o) keep=$OPTARG ;; b) ab=$OPTARG ;;
	d) data=$OPTARG ;; H) fadvise_hint=$OPTARG ;; P) phases=$OPTARG ;;
	e) extra_names+=("${OPTARG%%=*}") extra_args+=("${OPTARG#*=}")
	   [[ $OPTARG == *=* ]] || bad "invalid -e '$OPTARG': want NAME=ARGS" ;;
	*) bench_other_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
bench_no_operands "$@"

# SIZE (MiB, or k/m/g/t) -> whole MiB.
to_mib() {
	local v=${1,,} n unit
	[[ $v =~ ^([0-9]+)([kmgt]?)$ ]] || return 1
	n=${BASH_REMATCH[1]} unit=${BASH_REMATCH[2]}
	case $unit in
	k) [ $((n % 1024)) -eq 0 ] || return 1; echo $((n / 1024)) ;;
	""|m) echo "$n" ;;
	g) echo $((n * 1024)) ;;
	t) echo $((n * 1024 * 1024)) ;;
	esac
}
isnum() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -gt 0 ]; }

size_mib=$(to_mib "$size") && [ "$size_mib" -gt 0 ] || bad "invalid -s '$size'"
image_mib=$(to_mib "$image_size") && [ "$image_mib" -gt 0 ] || bad "invalid -i '$image_size'"
if [ "$rss_sizes" = none ]; then
	rss_small_mib=0 rss_big_mib=0
else
	rss_small_mib=$(to_mib "${rss_sizes%%,*}") && rss_big_mib=$(to_mib "${rss_sizes#*,}") &&
		[ "$rss_small_mib" -gt 0 ] && [ "$rss_big_mib" -gt "$rss_small_mib" ] ||
		bad "invalid -R '$rss_sizes': want SMALL,BIG with SMALL < BIG, or none"
fi
for v in seeks seekers files perchar ram; do
	isnum "${!v}" || bad "invalid value '${!v}' for $v: a whole number above 0"
done
[[ $rounds =~ ^[0-9]+$ ]] || bad "invalid -x '$rounds'"
[[ $frounds =~ ^[0-9]+$ ]] || bad "invalid -y '$frounds'"
[[ $grounds =~ ^[0-9]+$ ]] || bad "invalid -g '$grounds'"
case $data in random|zeros) ;; *) bad "invalid -d '$data': random or zeros" ;; esac
case $fadvise_hint in 0|1) ;; *) bad "invalid -H '$fadvise_hint': 0 or 1" ;; esac
case $phases in all|bonnie) ;; *) bad "invalid -P '$phases': all or bonnie" ;; esac
# -e NAME=[bin=PATH ]ARGS: NAME a label of its own, PATH an arraybench binary.
for ((i = 0; i < ${#extra_names[@]}; i++)); do
	name=${extra_names[$i]} args=${extra_args[$i]} bin=""
	[[ $name =~ ^[a-z0-9][a-z0-9_.-]*$ ]] || bad "invalid -e name '$name': lower-case letters, digits, _ . -"
	case $name in arraybench|arraybench-aa|fio|bonnie++|arraybench-old)
		bad "invalid -e name '$name': taken by a tool of the design" ;; esac
	for ((j = 0; j < i; j++)); do
		[ "${extra_names[$j]}" = "$name" ] && bad "invalid -e name '$name': given twice"
	done
	if [[ $args == bin=* ]]; then
		bin=${args%% *} args=${args#"$bin"} args=${args# }
		bin=${bin#bin=}
		[ -x "$bin" ] || bad "invalid -e $name: no arraybench binary at '$bin'"
		bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
	fi
	extra_bins+=("$bin") extra_args[i]=$args
done
[ "$ram" -ge 16 ] || bad "-r must be at least 16 (arraybench --cache cgroup)"
[ "$size_mib" -ge $((2 * ram)) ] || bad "-s must be at least twice -r (bonnie++ and arraybench refuse less)"
[ "$rss_sizes" = none ] || [ "$rss_small_mib" -ge $((2 * ram)) ] || bad "the small -R size must be at least twice -r"
[ "$perchar" -le "$size_mib" ] || bad "-c must not exceed -s"
[ "$seekers" -le "$seeks" ] || bad "more seekers than seeks"
big=$((size_mib > rss_big_mib ? size_mib : rss_big_mib))
[ $((big + big / 10 + 512)) -le "$image_mib" ] || bad "-i $image_size is too small for a ${big} MiB file"
[ "$size_mib" -ge 1024 ] || echo "compare.sh: note: -s under 1g gives phases well under 2 s" >&2

# The tools of each kind of round, in the order rounds.py's design places
# them: arraybench's A/A twin (the same binary run again) is one of them.
io_tools=(arraybench arraybench-aa fio bonnie++ "${extra_names[@]}")
file_tools=(arraybench arraybench-aa bonnie++)
gap_tools=(ab-new-tail ab-new-tail-aa ab-new-evict fio-tail fio-evict ab-new-bseq bonnie-bseq)
[ -n "$ab_old" ] && gap_tools=(ab-new-tail ab-new-tail-aa ab-old-tail ab-new-evict fio-tail fio-evict ab-new-bseq bonnie-bseq)
# design_warn OPTION ROUNDS TOOLS...: a full design balances positions and
# pairs; a part of one does not (the script still runs what was asked).
design_warn() {
	local opt=$1 n=$2 len
	shift 2
	[ "$n" -gt 0 ] || return 0
	len=$(python3 "$here/rounds.py" length $#) || bad "cannot run $here/rounds.py"
	[ $((n % len)) -eq 0 ] ||
		echo "compare.sh: warning: $opt $n is not a multiple of $len (the design of its $# tools: $*): positions and orders are not balanced; $len or $((2 * len)) would be" >&2
}
design_warn -x "$rounds" "${io_tools[@]}"
design_warn -y "$frounds" "${file_tools[@]}"
design_warn -g "$grounds" "${gap_tools[@]}"

[ "$(id -u)" = 0 ] || bad "must run as root (loop device, mount, cgroup)"
for t in fio bonnie++ mkfs.ext4 losetup mount umount python3 truncate dd; do
	command -v "$t" >/dev/null || bad "missing tool '$t' (apt-get install fio bonnie++ e2fsprogs util-linux python3)"
done
[ -x "$ab" ] || bad "no arraybench binary at '$ab' (run make, or -b PATH)"
ab=$(cd "$(dirname "$ab")" && pwd)/$(basename "$ab")
if [ -n "$ab_old" ]; then
	[ -x "$ab_old" ] || bad "no arraybench binary at '$ab_old' (-O)"
	ab_old=$(cd "$(dirname "$ab_old")" && pwd)/$(basename "$ab_old")
fi
cgroot=/sys/fs/cgroup/memory
[ -w "$cgroot/cgroup.procs" ] && [ -e "$cgroot/memory.limit_in_bytes" ] ||
	bad "no writable cgroup v1 memory hierarchy at $cgroot"
[ -d "$workdir" ] || bad "no directory '$workdir'"

# ---- set-up and teardown ---------------------------------------------------
# (bench/lib.sh: $work, $out, and a teardown that leaves nothing behind)
bench_work_dirs

bench_copy_arraybench
log "$(bench_arraybench_words)," \
	"$(fio --version), bonnie++ $(dpkg-query -W -f '${Version}' bonnie++ 2>/dev/null)"
if [ -n "$ab_old" ]; then
	cp "$ab_old" "$work/arraybench-old" || die "cannot copy $ab_old"
	old_rev=$(git -C "$(dirname "$ab_old")" rev-parse --short HEAD 2>/dev/null)
	log "old binary (-O): ${old_rev:-no git}, $ab_old, sha256 $(sha256sum "$ab_old" | cut -c1-12), built $(date -u -r "$ab_old" '+%F %T UTC')"
	ab_old=$work/arraybench-old
fi
# Each -e variant's binary: this arraybench, or its bin=PATH copied as the
# main one is (a rebuild meanwhile changes nothing).
extra_runs=()
for ((i = 0; i < ${#extra_names[@]}; i++)); do
	if [ -n "${extra_bins[$i]}" ]; then
		mkdir -p "$work/variants" && cp "${extra_bins[$i]}" "$work/variants/${extra_names[$i]}" ||
			die "cannot copy ${extra_bins[$i]}"
		log "variant ${extra_names[$i]}: binary ${extra_bins[$i]}, sha256 $(sha256sum "${extra_bins[$i]}" | cut -c1-12), built $(date -u -r "${extra_bins[$i]}" '+%F %T UTC'); arguments: ${extra_args[$i]:-none}"
		extra_runs+=("$work/variants/${extra_names[$i]}")
	else
		log "variant ${extra_names[$i]}: this arraybench; arguments: ${extra_args[$i]:-none}"
		extra_runs+=("$ab")
	fi
done
log "-s ${size_mib}M -k $seeks -p $seekers -c $perchar -r $ram -x $rounds -n $files -y $frounds -g $grounds -R $rss_sizes -i ${image_mib}M -d $data -H $fadvise_hint -P $phases$(for ((i = 0; i < ${#extra_names[@]}; i++)); do printf " -e '%s=%s'" "${extra_names[$i]}" "${extra_args[$i]}"; done)"

img=$(cd "$work" && pwd -P)/disk.img
truncate -s "${image_mib}M" "$img" || die "cannot create the image $img"
inodes_default=$((image_mib * 1024 / 16))   # mke2fs default: one inode per 16 KiB
need_inodes=$(((frounds > 0 ? files : 0) * 1280 + 16384))
mkfs_extra=()
[ "$need_inodes" -gt "$inodes_default" ] && mkfs_extra=(-N "$need_inodes")
mkfs.ext4 -q -F "${mkfs_extra[@]}" -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$img" ||
	die "mkfs.ext4 failed"
dev=$(losetup --find --show --direct-io=on "$img") || { dev=""; die "losetup failed"; }
[ "$(cat "/sys/block/${dev#/dev/}/loop/dio" 2>/dev/null)" = 1 ] ||
	die "$dev did not get direct I/O on its backing file"
mkdir "$work/mnt" && mount -t ext4 "$dev" "$work/mnt" || die "cannot mount $dev"
mnt=$work/mnt
log "ext4 ${mkfs_extra[*]} on $dev (image $img, ${image_mib} MiB sparse, dio=1), mounted at $mnt"

# Each tool's I/O run (fio: its three jobs) gets one fresh cgroup, limited to
# $1 MiB: same limit, same empty start, nothing evicted inside it.
cg_make() {
	cg=$cgroot/abbench.$$
	mkdir "$cg" || { cg=""; die "cannot create cgroup $cgroot/abbench.$$"; }
	echo $(($1 * 1024 * 1024)) >"$cg/memory.limit_in_bytes" || die "cannot set the limit of $cg"
}
cg_remove() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.5; done
	[ -d "$cg" ] && die "cannot remove cgroup $cg"
	cg=""
}
cg_make "$ram" && cg_remove || die "cannot use a cgroup v1 memory limit under $cgroot"
log "every I/O run goes in $cgroot/abbench.$$, made afresh for each tool's run, limited to $ram MiB"

bench_prefill

# Only under run_waited, between cg_make and cg_remove: moves the background
# subshell into the cgroup and becomes "$@".
cgroup_exec() {
	echo "$BASHPID" >"$cg/cgroup.procs" && exec "$@"
}

settle() { sync; sleep 1; }

results=$out/results.tsv failures=$out/failures.tsv
: >"$results"
: >"$failures"
python_helper=$work/helper.py
# The parsers and the report (bench/compare-helper.py), and the design and
# ratio arithmetic it imports (bench/rounds.py), copied as the binary is.
cp "$here/compare-helper.py" "$python_helper" && cp "$here/rounds.py" "$work/rounds.py" ||
	die "cannot copy $here/compare-helper.py or $here/rounds.py"

# ---- the tools -----------------------------------------------------------------
# The I/O phases of arraybench and bonnie++ (-P): all of them, per-char
# included, or bonnie++'s own order without per-char (block write, rewrite,
# block read, seeks: what bonnie++ -f runs).
if [ "$phases" = all ]; then
	ab_io_phases=(-f"$perchar") bonnie_io_phases=(-f"$perchar")
else
	# shellcheck disable=SC2054 # one argument, a comma-separated list
	ab_io_phases=(--phases block-write,rewrite,block-read,seeks) bonnie_io_phases=(-f)
fi

# run_arraybench ROUND io|files [LABEL]: LABEL arraybench (the default),
# arraybench-aa (the A/A twin: the same binary and arguments again) or a -e
# variant's name (its binary, its arguments appended).
run_arraybench() {
	local r=$1 kind=$2 label=${3:-arraybench} st bin=$ab i
	local base=$out/$label.$kind.r$r more=()
	for ((i = 0; i < ${#extra_names[@]}; i++)); do
		if [ "${extra_names[$i]}" = "$label" ]; then
			bin=${extra_runs[$i]}
			read -r -a more <<<"${extra_args[$i]}"
		fi
	done
	rm -f "$base.json"
	log "round $r: $label ($kind)"
	if [ "$kind" = io ]; then
		# In the group like the peers, evicting nothing (as bonnie++).
		cg_make "$ram"
		run_waited cgroup_exec "$bin" run -d "$tdir" -s "${size_mib}m" "${ab_io_phases[@]}" -n 0 --seeks "$seeks" \
			--seekers "$seekers" -r "$ram" --cache none --data "$data" -m compare -q \
			--json "$base.json" "${more[@]}" >"$base.csv" 2>"$base.txt"
		st=$?
		cg_remove
	else
		run_waited "$bin" run -d "$tdir" -s 0 -n "$files" -r "$ram" --cache none --data "$data" -m compare -q \
			--json "$base.json" >"$base.csv" 2>"$base.txt"
		st=$?
	fi
	tdir_clear
	if [ "$st" -ne 0 ]; then
		failed "$r" "$label ($kind)" "status $st: $(grep -m1 error "$base.txt")"
		return 0
	fi
	python3 "$python_helper" ab "$r" "$base.json" "$label" >>"$results" || log "round $r: cannot parse $base.json"
}

# fio_jobs BASE SEEKS_INVALIDATE PHASE...: fio's jobs one invocation each, all
# in one fresh group; sets fio_ran to the phases that ran and fio_err to why
# the next one failed.  (In this shell, not in a $(...): the traps must see
# its cgroup and child.)
fio_ran=() fio_err=""
fio_jobs() {
	local base=$1 inval=$2 nios phase st spec
	shift 2
	local common=(--output-format=json --directory="$tdir" --filename=fio.dat --bs=8k
		--size="${size_mib}m" --ioengine=psync --direct=0 --end_fsync=1 --fallocate=none
		--fadvise_hint="$fadvise_hint" --group_reporting)
	nios=$(((seeks * 11 + seekers * 10 - 1) / (seekers * 10)))
	# A fresh file for the write job, as arraybench's O_EXCL create; one fio
	# invocation per job so fio never lays the file out ahead of the write.
	rm -f "$tdir/fio.dat"
	fio_ran=() fio_err=""
	cg_make "$ram"
	for phase in "$@"; do
		case $phase in
		block-write) spec=(--name=write --rw=write --invalidate=0) ;;
		block-read) spec=(--name=read --rw=read --invalidate=0) ;;
		seeks) spec=(--name=seeks --rw=randrw --rwmixread=91 --numjobs="$seekers"
			--number_ios="$nios" --norandommap=1 --randrepeat=0 --invalidate="$inval") ;;
		esac
		run_waited cgroup_exec fio "${common[@]}" --output="$base.$phase.json" "${spec[@]}" \
			>/dev/null 2>"$base.$phase.err"
		st=$?
		if [ "$st" -ne 0 ]; then
			fio_err="fio $phase: status $st: $(head -c 300 "$base.$phase.err" | tr '\n' ' ')"
			break
		fi
		fio_ran+=("$phase")
		[ -s "$base.$phase.err" ] || rm -f "$base.$phase.err"
	done
	cg_remove
	tdir_clear
}

run_fio() {
	local r=$1 base=$out/fio.r$1 phase
	log "round $r: fio write, read, seeks"
	fio_jobs "$base" 0 block-write block-read seeks
	for phase in "${fio_ran[@]}"; do
		python3 "$python_helper" fio "$r" "$phase" "$base.$phase.json" >>"$results" ||
			log "round $r: cannot parse $base.$phase.json"
	done
	[ -n "$fio_err" ] && failed "$r" fio "$fio_err"
	return 0
}

# run_bonnie ROUND io|files
run_bonnie() {
	local r=$1 kind=$2 base=$out/bonnie.$2.r$1 st
	log "round $r: bonnie++ ($kind)"
	if [ "$kind" = io ]; then
		cg_make "$ram"
		run_waited cgroup_exec bonnie++ -d "$tdir" -s "$size_mib:8k:$seeks:$seekers" -r "$ram" \
			-n 0 "${bonnie_io_phases[@]}" -u root -q -m compare >"$base.csv" 2>"$base.txt"
		st=$?
		cg_remove
	else
		# Outside any memory cgroup, as arraybench's file phases.
		run_waited bonnie++ -d "$tdir" -s 0 -n "$files" -r "$ram" -u root -q -m compare \
			>"$base.csv" 2>"$base.txt"
		st=$?
	fi
	tdir_clear
	if [ "$st" -ne 0 ]; then
		failed "$r" "bonnie++ ($kind)" "status $st$([ "$st" = 137 ] && echo ' (SIGKILL: OOM-killed in the cgroup?)'): $(tail -n 2 "$base.txt" | tr '\n' ' ')"
		return 0
	fi
	python3 "$python_helper" bonnie "$r" "$base.csv" >>"$results" || log "round $r: cannot parse $base.csv"
}

# ---- the seek-gap runs -------------------------------------------------------
gap_file=$out/gap.tsv
: >"$gap_file"
# run_gap ROUND JOB: one seeks run after a block write (see the header).
run_gap() {
	local r=$1 job=$2 base=$out/gap.$2.r$1 st bin=$ab
	local args=(-s "${size_mib}m" -n 0 --phases "block-write,seeks" --seeks "$seeks" --seekers "$seekers"
		-r "$ram" --data "$data" -m compare -q)
	log "gap round $r: $job"
	rm -f "$base.json"
	case $job in
	ab-new-tail|ab-new-tail-aa|ab-old-tail)
		[ "$job" = ab-old-tail ] && bin=$ab_old
		cg_make "$ram"
		run_waited cgroup_exec "$bin" run -d "$tdir" "${args[@]}" --cache none --json "$base.json" \
			>"$base.csv" 2>"$base.txt"
		st=$?
		cg_remove
		;;
	ab-new-evict)
		run_waited "$ab" run -d "$tdir" "${args[@]}" --cache cgroup --json "$base.json" \
			>"$base.csv" 2>"$base.txt"
		st=$?
		;;
	ab-new-bseq)
		# bonnie++'s sequence without per-char, to set against bonnie++ -f.
		cg_make "$ram"
		run_waited cgroup_exec "$ab" run -d "$tdir" -s "${size_mib}m" -n 0 \
			--phases "block-write,rewrite,block-read,seeks" --seeks "$seeks" --seekers "$seekers" \
			-r "$ram" --data "$data" -m compare -q --cache none --json "$base.json" >"$base.csv" 2>"$base.txt"
		st=$?
		cg_remove
		;;
	bonnie-bseq)
		cg_make "$ram"
		run_waited cgroup_exec bonnie++ -d "$tdir" -s "$size_mib:8k:$seeks:$seekers" -r "$ram" \
			-n 0 -f -u root -q -m compare >"$base.csv" 2>"$base.txt"
		st=$?
		cg_remove
		;;
	fio-tail|fio-evict)
		fio_jobs "$base" "$([ "$job" = fio-tail ] && echo 0 || echo 1)" block-write seeks
		st=0
		[ "${#fio_ran[@]}" = 2 ] || { st=1; echo "$fio_err" >"$base.txt"; }
		rm -f "$base.block-write.json" "$base.block-write.err" "$base.seeks.err"
		[ -e "$base.seeks.json" ] && mv "$base.seeks.json" "$base.json"
		;;
	esac
	tdir_clear
	if [ "$st" -ne 0 ]; then
		failed "gap $r" "$job" "status $st: $(grep -m1 -i -e error -e status "$base.txt")"
		return 0
	fi
	case $job in
	ab-*) python3 "$python_helper" gap-ab "$r" "$job" "$base.json" ;;
	fio-*) python3 "$python_helper" gap-fio "$r" "$job" "$base.json" ;;
	bonnie-*) python3 "$python_helper" gap-bonnie "$r" "$job" "$base.csv" ;;
	esac >>"$gap_file" || log "gap round $r: cannot parse the output of $job"
	case $job in bonnie-*) ;; *) rm -f "$base.csv" ;; esac
	[ -s "$base.txt" ] || rm -f "$base.txt"
}

# Microseconds some task stalled on the CPU and on I/O, machine-wide
# (pressure stall information; "0 0" without it).
psi_now() {
	local c=0 i=0
	[ -r /proc/pressure/cpu ] && c=$(sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/cpu)
	[ -r /proc/pressure/io ] && i=$(sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/io)
	echo "${c:-0} ${i:-0}"
}

# timed ROUND LABEL CMD...: runs CMD and notes its wall time and the stall
# share during it in psi.tsv.
timed() {
	local r=$1 label=$2 c0 i0 c1 i1 t0
	shift 2
	read -r c0 i0 <<<"$(psi_now)"
	t0=$(date +%s.%N)
	"$@"
	read -r c1 i1 <<<"$(psi_now)"
	python3 -c "import sys; w=$(date +%s.%N)-$t0; print('$r\t$label\t%.1f\t%.1f\t%.1f' % (w, ($c1-$c0)/1e4/w, ($i1-$i0)/1e4/w))" >>"$psi_file"
}

# Round r runs the I/O tools (r <= -x) back to back, then the file tools
# (r <= -y) back to back, so compared runs are minutes apart at most; then
# the seek-gap rounds.  Each kind's order in round r is round r of
# rounds.py's Williams design over its tools (each tool in each position,
# and before each other tool, equally often over a full design), noted in
# orders-io.tsv, orders-files.tsv and orders-gap.tsv (ROUND POSITION TOOL).
# Every run's wall time and the machine's CPU and I/O stall share during it
# go to psi.tsv: the machine is shared.
psi_file=$out/psi.tsv
: >"$psi_file"
for kind in io files gap; do : >"$out/orders-$kind.tsv"; done
# round_order KIND ROUND TOOLS...: the round's order, one tool a line, noted
# in orders-KIND.tsv.
round_order() {
	local kind=$1 r=$2 t p=0
	shift 2
	for t in $(python3 "$work/rounds.py" order "$r" "$@") ; do
		p=$((p + 1))
		printf '%s\t%s\t%s\n' "$r" "$p" "$t" >>"$out/orders-$kind.tsv"
		echo "$t"
	done
}
# run_tool ROUND io|files TOOL
run_tool() {
	case $3 in
	fio) run_fio "$1" ;;
	bonnie++) run_bonnie "$1" "$2" ;;
	*) run_arraybench "$1" "$2" "$3" ;;
	esac
}
t_start=$(date +%s)
nr=$((rounds > frounds ? rounds : frounds))
for ((r = 1; r <= nr; r++)); do
	jobs=()
	if [ "$r" -le "$rounds" ]; then
		for t in $(round_order io "$r" "${io_tools[@]}"); do jobs+=("io $t"); done
	fi
	if [ "$r" -le "$frounds" ]; then
		for t in $(round_order files "$r" "${file_tools[@]}"); do jobs+=("files $t"); done
	fi
	for job in "${jobs[@]}"; do
		read -r kind tool <<<"$job"
		settle
		timed "$r" "$tool $kind" run_tool "$r" "$kind" "$tool"
	done
	log "round $r done after $(($(date +%s) - t_start)) s"
done

for ((r = 1; r <= grounds; r++)); do
	for job in $(round_order gap "$r" "${gap_tools[@]}"); do
		settle
		timed "$r" "gap $job" run_gap "$r" "$job"
	done
	log "gap round $r done after $(($(date +%s) - t_start)) s"
done

# ---- peak RSS at two file sizes -------------------------------------------
rss_file=$out/rss.tsv
: >"$rss_file"
for mib in $([ "$rss_sizes" = none ] || echo "$rss_small_mib $rss_big_mib"); do
	base=$out/arraybench.rss${mib}M
	rm -f "$base.json"
	settle
	log "peak RSS: arraybench -s ${mib}m --phases block-write,block-read,seeks"
	if run_waited "$ab" run -d "$tdir" -s "${mib}m" --phases block-write,block-read,seeks --seeks "$seeks" \
		--seekers "$seekers" --cache cgroup -r "$ram" --data "$data" -m compare -q \
		--json "$base.json" >"$base.csv" 2>"$base.txt"; then
		python3 "$python_helper" rss "${mib}M" "$base.json" >>"$rss_file"
	else
		failed rss arraybench "-s ${mib}m: $(grep -m1 error "$base.txt")"
		for p in block-write block-read seeks; do printf '%s\t%s\tNA\n' "${mib}M" "$p" >>"$rss_file"; done
	fi
	tdir_clear
done
log "all runs done after $(($(date +%s) - t_start)) s"

# ---- report -----------------------------------------------------------------
{
	echo "bench/compare.sh  $(date -u '+%Y-%m-%d %H:%M UTC')  $(uname -r)  $(nproc) CPUs  $(free -g | awk '/^Mem:/{print $2}') GiB RAM"
	echo "ext4 on $dev (loop, dio=1); I/O: $rounds rounds, each tool's I/O run in one fresh $ram MiB memory cgroup," \
		"nothing evicted (arraybench --cache none, fio invalidate=0), -s ${size_mib}M bs 8k," \
		"$seeks seeks by $seekers seekers, per-char $perchar MiB, arraybench --data $data," \
		"fio fadvise_hint=$fadvise_hint; files: $frounds rounds, -n $files (x1024, 0 bytes)," \
		"no memory cgroup for either tool; seek gap: $grounds rounds; I/O phases: -P $phases" \
		"$(for ((i = 0; i < ${#extra_names[@]}; i++)); do printf "; variant %s: %s%s" "${extra_names[$i]}" \
			"${extra_bins[$i]:+${extra_bins[$i]} }" "${extra_args[$i]}"; done)"
	echo "orders: rounds.py's design, in orders-io.tsv, orders-files.tsv, orders-gap.tsv"
	echo
	python3 "$python_helper" report "$out" "$ram" "$rounds" "$frounds" "$grounds" "$phases" "${extra_names[@]}"
} >"$out/report.txt"
status=$?
cat "$out/report.txt"
[ -n "$keep" ] && log "raw outputs in $out"
exit $((status == 0 ? 0 : 1))
