#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2015,SC2317
#
# bench/compare.sh: arraybench side by side with fio and bonnie++ 2.00a on one
# ext4 file system, under one page-cache rule, in interleaved rounds.
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
#  3. I/O rounds (-x), each with, back to back in a rotating order:
#       arraybench -s SIZE -fPERCHAR -n 0 --seeks SEEKS --seekers SEEKERS
#                  --cache none -r RAM (per-char, block write, rewrite,
#                  block read, seeks in one run)
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
#                  arraybench's default --per-char syscall)
#     File rounds (-y), right after the I/O trio, each with, back to back and
#     alternating which goes first, arraybench -s 0 -n NUM --cache none -r RAM
#     and bonnie++ -s 0 -n NUM -r RAM -u root -q (0-byte files), no cgroup.
#     Every ratio is arraybench / peer within one round; the table shows each
#     round's ratio and their median.
#  4. Seek-gap rounds (-g), each with, back to back in a rotating order, the
#     seeks alone after a block write (--phases block-write,seeks; fio: its
#     write job, then its seeks job), SEEKS seeks by SEEKERS:
#       ab new tail    this arraybench, in the group, --cache none (as in 3)
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
#  6. Prints the ratio table with the cache state, the target and the verdict
#     next to each: PASS, FAIL (under target) or HIGH (median above 1.10, or
#     above the range: arraybench over-reporting is a defect too, so HIGH
#     fails the run until explained); then the median absolute rates and the
#     shortest time of every phase, the seek-gap table, and the stall share
#     (PSI) of each run.
#
# Options (defaults in brackets; sizes take MiB or a k/m/g/t suffix):
#   -s SIZE        I/O file size for every tool                    [4g]
#   -k SEEKS       random seeks in all                             [100000]
#   -p SEEKERS     seeker processes = fio numjobs                  [5]
#   -c MIB         per-char size, -fMIB on both sides              [20]
#   -r MIB         memory cgroup limit of the I/O runs             [512]
#   -x ROUNDS      I/O rounds (0 skips them)                       [5]
#   -n NUM         files x 1024 for the file phases (0-byte files) [1024]
#   -y ROUNDS      file rounds, best even (0 skips the file phases) [4]
#   -g ROUNDS      seek-gap rounds (0 skips them)                  [5]
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
# over 2 s on a 2-core VM; the I/O and file rounds take about 17 minutes on
# a quiet machine and the seek-gap rounds about 8 more (-g 0 skips them).
#
# Exit status: 0 every check passed, 1 at least one FAIL, HIGH or unmeasured
# check, 2 bad usage or a missing tool, 3 set-up failed.  The image, loop
# device, mount and cgroups go away on exit, error, Ctrl-C or TERM.

set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
size=4g seeks=100000 seekers=5 perchar=20 ram=512 rounds=5 files=1024 frounds=4 grounds=5
rss_sizes=1g,8g image_size=12g workdir=/var/tmp keep="" data=random fadvise_hint=0
ab="$here/../arraybench" ab_old=""

usage() { sed -n '/^# Options/,/^#   -h/p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "compare.sh: $*" >&2; exit 3; }
bad() { echo "compare.sh: $*" >&2; exit 2; }

while getopts ":s:k:p:n:c:r:x:y:g:O:R:i:w:o:b:d:H:h" opt; do
	case $opt in
	s) size=$OPTARG ;; k) seeks=$OPTARG ;; p) seekers=$OPTARG ;; n) files=$OPTARG ;;
	c) perchar=$OPTARG ;; r) ram=$OPTARG ;; x) rounds=$OPTARG ;; R) rss_sizes=$OPTARG ;;
	y) frounds=$OPTARG ;; g) grounds=$OPTARG ;; O) ab_old=$OPTARG ;;
	i) image_size=$OPTARG ;; w) workdir=$OPTARG ;; o) keep=$OPTARG ;; b) ab=$OPTARG ;;
	d) data=$OPTARG ;; H) fadvise_hint=$OPTARG ;;
	h) usage; exit 0 ;;
	:) bad "option -$OPTARG needs a value (-h for help)" ;;
	*) bad "unknown option -$OPTARG (-h for help)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "unexpected argument '$1' (-h for help)"

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
[ "$ram" -ge 16 ] || bad "-r must be at least 16 (arraybench --cache cgroup)"
[ "$size_mib" -ge $((2 * ram)) ] || bad "-s must be at least twice -r (bonnie++ and arraybench refuse less)"
[ "$rss_sizes" = none ] || [ "$rss_small_mib" -ge $((2 * ram)) ] || bad "the small -R size must be at least twice -r"
[ "$perchar" -le "$size_mib" ] || bad "-c must not exceed -s"
[ "$seekers" -le "$seeks" ] || bad "more seekers than seeks"
big=$((size_mib > rss_big_mib ? size_mib : rss_big_mib))
[ $((big + big / 10 + 512)) -le "$image_mib" ] || bad "-i $image_size is too small for a ${big} MiB file"
[ "$size_mib" -ge 1024 ] || echo "compare.sh: note: -s under 1g gives phases well under 2 s" >&2

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
work="" dev="" img="" mnt="" cg="" out="" child=""
cleanup() {
	local st=$? p
	trap - EXIT INT TERM HUP
	set +e
	if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
		# The tool running now (arraybench cleans up its own cgroup on TERM).
		kill -TERM "$child" 2>/dev/null
		for _ in $(seq 60); do kill -0 "$child" 2>/dev/null || break; sleep 0.5; done
		kill -KILL "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		# Only tools this script started live here.
		while read -r p; do kill -TERM "$p" 2>/dev/null; done <"$cg/cgroup.procs"
		for _ in 1 2 3 4 5 6 7 8 9 10; do [ -z "$(cat "$cg/cgroup.procs" 2>/dev/null)" ] && break; sleep 0.5; done
		while read -r p; do kill -KILL "$p" 2>/dev/null; done <"$cg/cgroup.procs"
	fi
	if [ -n "$mnt" ] && mountpoint -q "$mnt"; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do umount "$mnt" 2>/dev/null && break; sleep 1; done
		mountpoint -q "$mnt" && echo "compare.sh: warning: could not unmount $mnt" >&3
	fi
	if [ -n "$dev" ]; then
		# Only while it is still the device of our image: never another's.
		local back
		back=$(cat "/sys/block/${dev#/dev/}/loop/backing_file" 2>/dev/null)
		if [ "$back" = "$img" ]; then
			losetup -d "$dev" 2>&1 | sed "s|^|compare.sh: warning: detaching $dev: |" >&3
		else
			echo "compare.sh: warning: $dev no longer holds $img (it holds '${back:-nothing}'): left alone" >&3
		fi
	fi
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.5; done
		[ -d "$cg" ] && echo "compare.sh: warning: could not remove cgroup $cg" >&3
	fi
	if [ -n "$mnt" ] && mountpoint -q "$mnt"; then
		echo "compare.sh: left $work in place (still mounted)" >&3
	elif [ -n "$work" ] && [ -d "$work" ]; then
		rm -f "$work/disk.img" "$work/helper.py" "$work/arraybench" "$work/arraybench-old"
		rmdir "$work/mnt" 2>/dev/null
		if [ -n "$keep" ]; then
			rmdir "$work" 2>/dev/null
		else
			rm -rf "$work"
		fi
	fi
	exit "$st"
}
exec 3>&2 # the traps may run while a tool's stderr is redirected
trap cleanup EXIT
trap 'echo "compare.sh: interrupted" >&3; exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

work=$(mktemp -d "$workdir/abcompare.XXXXXX") || die "cannot create a directory in $workdir"
if [ -n "$keep" ]; then
	mkdir -p "$keep" || die "cannot create '$keep'"
	out=$(cd "$keep" && pwd)
else
	out=$work/out
	mkdir "$out"
fi
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$out/log.txt" >&2; }

# One binary for the whole run, even if the tree is rebuilt meanwhile.
src_dir=$(dirname "$ab")
cp "$ab" "$work/arraybench" || die "cannot copy $ab"
src_ab=$ab ab=$work/arraybench
ab_rev=$(git -C "$src_dir" rev-parse --short HEAD 2>/dev/null)
[ -n "$ab_rev" ] && [ -n "$(git -C "$src_dir" status --porcelain --untracked-files=no 2>/dev/null)" ] &&
	ab_rev="$ab_rev+changes"
log "$("$ab" --version 2>/dev/null | head -1) (${ab_rev:-no git}, $src_ab, sha256 $(sha256sum "$ab" | cut -c1-12), built $(date -u -r "$src_ab" '+%F %T UTC'))," \
	"$(fio --version), bonnie++ $(dpkg-query -W -f '${Version}' bonnie++ 2>/dev/null)"
if [ -n "$ab_old" ]; then
	cp "$ab_old" "$work/arraybench-old" || die "cannot copy $ab_old"
	old_rev=$(git -C "$(dirname "$ab_old")" rev-parse --short HEAD 2>/dev/null)
	log "old binary (-O): ${old_rev:-no git}, $ab_old, sha256 $(sha256sum "$ab_old" | cut -c1-12), built $(date -u -r "$ab_old" '+%F %T UTC')"
	ab_old=$work/arraybench-old
fi
log "-s ${size_mib}M -k $seeks -p $seekers -c $perchar -r $ram -x $rounds -n $files -y $frounds -g $grounds -R $rss_sizes -i ${image_mib}M -d $data -H $fadvise_hint"

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

# Allocate the sparse image once, untimed, so the host's first-touch cost
# lands on nobody.
avail_mib=$(($(stat -f -c '%a * %S' "$mnt") / 1048576))
fill_mib=$(((avail_mib - 256) / 4 * 4))
t0=$(date +%s.%N)
dd if=/dev/zero of="$mnt/fill" bs=4M count=$((fill_mib / 4)) oflag=direct status=none ||
	log "warning: pre-fill stopped early"
rm -f "$mnt/fill" && sync
# One test directory for every tool, made once: ext4 places a new file near
# its directory, so all three start from the same place on the image.
tdir=$mnt/test
mkdir "$tdir" || die "cannot create $tdir"
# Empties it after each run (only what the tools left).
tdir_clear() { find "$tdir" -mindepth 1 -delete 2>/dev/null || rm -rf "${tdir:?}"/*; }
log "pre-filled ${fill_mib} MiB of the image in $(python3 -c "print(round($(date +%s.%N)-$t0,1))") s"

# Runs "$@" in the background and waits, so that a signal reaches this script
# at once (a background command ignores SIGINT; cleanup() sends it TERM).
run_waited() {
	"$@" &
	child=$!
	wait "$child"
	local st=$?
	child=""
	return "$st"
}

# Only under run_waited, between cg_make and cg_remove: moves the background
# subshell into the cgroup and becomes "$@".
cgroup_exec() {
	echo "$BASHPID" >"$cg/cgroup.procs" && exec "$@"
}

settle() { sync; sleep 1; }

results=$out/results.tsv failures=$out/failures.tsv
: >"$results"
: >"$failures"
failed() {
	log "round $1: $2 failed: $3"
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$failures"
}
python_helper=$work/helper.py
cat >"$python_helper" <<'PYEOF'
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
PYEOF

# ---- the three tools ---------------------------------------------------------
# run_arraybench ROUND io|files
run_arraybench() {
	local r=$1 kind=$2 base=$out/arraybench.$2.r$1 st
	rm -f "$base.json"
	log "round $r: arraybench ($kind)"
	if [ "$kind" = io ]; then
		# In the group like the peers, evicting nothing (as bonnie++).
		cg_make "$ram"
		run_waited cgroup_exec "$ab" run -d "$tdir" -s "${size_mib}m" -f"$perchar" -n 0 --seeks "$seeks" \
			--seekers "$seekers" -r "$ram" --cache none --data "$data" -m compare -q \
			--json "$base.json" >"$base.csv" 2>"$base.txt"
		st=$?
		cg_remove
	else
		run_waited "$ab" run -d "$tdir" -s 0 -n "$files" -r "$ram" --cache none --data "$data" -m compare -q \
			--json "$base.json" >"$base.csv" 2>"$base.txt"
		st=$?
	fi
	tdir_clear
	if [ "$st" -ne 0 ]; then
		failed "$r" "arraybench ($kind)" "status $st: $(grep -m1 error "$base.txt")"
		return 0
	fi
	python3 "$python_helper" ab "$r" "$base.json" >>"$results" || log "round $r: cannot parse $base.json"
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
			-n 0 -f"$perchar" -u root -q -m compare >"$base.csv" 2>"$base.txt"
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
	ab-new-tail|ab-old-tail)
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

# Round r runs the I/O trio (r <= -x) back to back, then the file pair
# (r <= -y) back to back, so compared runs are minutes apart at most.  The
# trio's order rotates from round to round; the pair alternates which tool
# goes first, right after the trio (an even -y gives each tool that slot
# equally often).  Then the seek-gap rounds, their order rotating too.
# Every run's wall time and the machine's CPU and I/O stall share during it
# go to psi.tsv: the machine is shared.
psi_file=$out/psi.tsv
: >"$psi_file"
t_start=$(date +%s)
nr=$((rounds > frounds ? rounds : frounds))
for ((r = 1; r <= nr; r++)); do
	io=() fs=()
	[ "$r" -le "$rounds" ] && io=("arraybench io" "fio io" "bonnie io")
	[ "$r" -le "$frounds" ] && fs=("arraybench files" "bonnie files")
	jobs=()
	for ((k = 0; k < ${#io[@]}; k++)); do jobs+=("${io[$(((r - 1 + k) % ${#io[@]}))]}"); done
	for ((k = 0; k < ${#fs[@]}; k++)); do jobs+=("${fs[$(((r - 1 + k) % ${#fs[@]}))]}"); done
	for job in "${jobs[@]}"; do
		read -r tool kind <<<"$job"
		settle
		timed "$r" "$tool $kind" "run_$tool" "$r" "$kind"
	done
	log "round $r done after $(($(date +%s) - t_start)) s"
done

gjobs=(ab-new-tail ab-new-evict fio-tail fio-evict ab-new-bseq bonnie-bseq)
[ -n "$ab_old" ] && gjobs=(ab-new-tail ab-old-tail ab-new-evict fio-tail fio-evict ab-new-bseq bonnie-bseq)
for ((r = 1; r <= grounds; r++)); do
	for ((k = 0; k < ${#gjobs[@]}; k++)); do
		job=${gjobs[$(((r - 1 + k) % ${#gjobs[@]}))]}
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
		"no memory cgroup for either tool; seek gap: $grounds rounds"
	echo
	python3 "$python_helper" report "$results" "$rss_file" "$rounds" "$frounds" "$failures" "$psi_file" \
		"$gap_file" "$grounds" "$ram"
} >"$out/report.txt"
status=$?
cat "$out/report.txt"
[ -n "$keep" ] && log "raw outputs in $out"
exit $((status == 0 ? 0 : 1))
