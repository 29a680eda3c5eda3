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
#  2. Cache control is the same for all three tools: a memory cgroup v1
#     limit, made afresh for every run.  arraybench makes its own (--cache
#     cgroup -r); fio and bonnie++ run in /sys/fs/cgroup/memory/abbench.$$,
#     entered by a subshell before it execs the tool.  Reads start cold:
#     arraybench fdatasync+POSIX_FADV_DONTNEED; fio invalidate=1; bonnie++'s
#     file is twice the limit.
#  3. I/O rounds (-x), each with, back to back in a rotating order:
#       arraybench -s SIZE -fPERCHAR -n 0 --seeks SEEKS --seekers SEEKERS
#                  --cache cgroup -r RAM (per-char, block write, rewrite,
#                  block read, seeks in one run)
#       fio        three invocations in the same limit, bs=8k size=SIZE
#                  ioengine=psync end_fsync=1 fallocate=none invalidate=1:
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
#     alternating which goes first, arraybench -s 0 -n NUM --cache cgroup -r RAM
#     and bonnie++ -s 0 -n NUM -r RAM -u root -q (0-byte files), bonnie++ in
#     no memory cgroup: arraybench runs its file phases outside its cgroup
#     (since commit a64740c), because on cgroup v1 the limit also counts
#     dentries and inodes, which cannot be reclaimed from inside the file
#     system (GFP_NOFS): under 512 MiB both tools got OOM-killed at the file
#     counts a stat phase needs to last about 2 s.
#     Every ratio is arraybench / peer within one round; the table shows each
#     round's ratio and their median.
#  4. Peak RSS: arraybench --phases block-write,block-read,seeks at the two
#     -R sizes; worker_max_rss_kib of each phase must not grow with the file.
#  5. Prints the ratio table with the target and PASS/FAIL next to each, and
#     the median absolute rates and the shortest time of every phase.
#
# Options (defaults in brackets; sizes take MiB or a k/m/g/t suffix):
#   -s SIZE        I/O file size for every tool                    [4g]
#   -k SEEKS       random seeks in all                             [100000]
#   -p SEEKERS     seeker processes = fio numjobs                  [5]
#   -c MIB         per-char size, -fMIB on both sides              [20]
#   -r MIB         memory cgroup limit of the I/O runs             [512]
#   -x ROUNDS      I/O rounds                                      [5]
#   -n NUM         files x 1024 for the file phases (0-byte files) [1024]
#   -y ROUNDS      file rounds, best even (0 skips the file phases) [4]
#   -R SMALL,BIG   file sizes of the two peak-RSS runs             [1g,8g]
#   -i SIZE        sparse image size                               [12g]
#   -w DIR         directory for the image and mount point         [/var/tmp]
#   -o DIR         keep the raw outputs (JSON, CSV, logs, report) in DIR
#                  [a temporary directory, removed at exit]
#   -b PATH        arraybench binary                    [../arraybench from here]
#   -d KIND        arraybench --data random|zeros                  [random]
#   -H 0|1         fio fadvise_hint                                [0]
#   -h             this help
# With the defaults every phase but the two stat phases (1.5 to 1.8 s) lasted
# over 2 s on a 2-core VM, and the script took 15.5 to 17 minutes; -n 1280
# brings the stat phases to about 2 s for about 3 more minutes.
#
# Exit status: 0 every check passed, 1 at least one FAIL or unmeasured
# check, 2 bad usage or a missing tool, 3 set-up failed.  The image, loop
# device, mount and cgroup go away on exit, error, Ctrl-C or TERM.

set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
size=4g seeks=100000 seekers=5 perchar=20 ram=512 rounds=5 files=1024 frounds=4
rss_sizes=1g,8g image_size=12g workdir=/var/tmp keep="" data=random fadvise_hint=0
ab="$here/../arraybench"

usage() { sed -n '/^# Options/,/^#   -h/p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "compare.sh: $*" >&2; exit 3; }
bad() { echo "compare.sh: $*" >&2; exit 2; }

while getopts ":s:k:p:n:c:r:x:y:R:i:w:o:b:d:H:h" opt; do
	case $opt in
	s) size=$OPTARG ;; k) seeks=$OPTARG ;; p) seekers=$OPTARG ;; n) files=$OPTARG ;;
	c) perchar=$OPTARG ;; r) ram=$OPTARG ;; x) rounds=$OPTARG ;; R) rss_sizes=$OPTARG ;;
	y) frounds=$OPTARG ;;
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
rss_small_mib=$(to_mib "${rss_sizes%%,*}") && rss_big_mib=$(to_mib "${rss_sizes#*,}") &&
	[ "$rss_small_mib" -gt 0 ] && [ "$rss_big_mib" -gt "$rss_small_mib" ] ||
	bad "invalid -R '$rss_sizes': want SMALL,BIG with SMALL < BIG"
for v in seeks seekers files perchar ram rounds; do
	isnum "${!v}" || bad "invalid value '${!v}' for $v: a whole number above 0"
done
[[ $frounds =~ ^[0-9]+$ ]] || bad "invalid -y '$frounds'"
case $data in random|zeros) ;; *) bad "invalid -d '$data': random or zeros" ;; esac
case $fadvise_hint in 0|1) ;; *) bad "invalid -H '$fadvise_hint': 0 or 1" ;; esac
[ "$ram" -ge 16 ] || bad "-r must be at least 16 (arraybench --cache cgroup)"
[ "$size_mib" -ge $((2 * ram)) ] || bad "-s must be at least twice -r (bonnie++ and arraybench refuse less)"
[ "$rss_small_mib" -ge $((2 * ram)) ] || bad "the small -R size must be at least twice -r"
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
cgroot=/sys/fs/cgroup/memory
[ -w "$cgroot/cgroup.procs" ] && [ -e "$cgroot/memory.limit_in_bytes" ] ||
	bad "no writable cgroup v1 memory hierarchy at $cgroot"
[ -d "$workdir" ] || bad "no directory '$workdir'"

# ---- set-up and teardown ---------------------------------------------------
work="" dev="" mnt="" cg="" out="" child=""
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
		# Only tools this script started live here (fio, bonnie++).
		while read -r p; do kill -TERM "$p" 2>/dev/null; done <"$cg/cgroup.procs"
		for _ in 1 2 3 4 5 6 7 8 9 10; do [ -z "$(cat "$cg/cgroup.procs" 2>/dev/null)" ] && break; sleep 0.5; done
		while read -r p; do kill -KILL "$p" 2>/dev/null; done <"$cg/cgroup.procs"
	fi
	if [ -n "$mnt" ] && mountpoint -q "$mnt"; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do umount "$mnt" 2>/dev/null && break; sleep 1; done
		mountpoint -q "$mnt" && echo "compare.sh: warning: could not unmount $mnt" >&3
	fi
	if [ -n "$dev" ]; then
		losetup -d "$dev" 2>/dev/null || echo "compare.sh: warning: could not detach $dev" >&3
	fi
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.5; done
		[ -d "$cg" ] && echo "compare.sh: warning: could not remove cgroup $cg" >&3
	fi
	if [ -n "$mnt" ] && mountpoint -q "$mnt"; then
		echo "compare.sh: left $work in place (still mounted)" >&3
	elif [ -n "$work" ] && [ -d "$work" ]; then
		rm -f "$work/disk.img" "$work/helper.py" "$work/arraybench"
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
log "-s ${size_mib}M -k $seeks -p $seekers -c $perchar -r $ram -x $rounds -n $files -y $frounds -R ${rss_small_mib}M,${rss_big_mib}M -i ${image_mib}M -d $data -H $fadvise_hint"

img=$work/disk.img
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

# fio and bonnie++ get a fresh cgroup per invocation, limited to $1 MiB, as
# arraybench makes a fresh one per run: same limit, same empty start.
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
log "fio and bonnie++ (I/O) run in $cgroot/abbench.$$, made afresh for each run, limited to $ram MiB"

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

def ab(rnd, path):
    # One JSON object per line (one run); this file holds exactly one.
    for line in open(path):
        if not line.strip():
            continue
        run = json.loads(line)
        for ph in run["phases"]:
            val = ph["rate"] if ph["measurable"] else "NA"
            out(rnd, "arraybench", ph["name"], val, round(ph["elapsed_s"], 3),
                ph["worker_max_rss_kib"], "" if ph["measurable"] else "+++++")

def fio(rnd, phase, path):
    d = json.load(open(path))
    jobs = d["jobs"]
    if len(jobs) != 1:
        raise SystemExit("fio %s: expected one (group-reported) job, got %d" % (path, len(jobs)))
    j = jobs[0]
    if j.get("error"):
        raise SystemExit("fio %s: job error %s" % (path, j["error"]))
    r, w = j["read"], j["write"]
    if phase == "block-write":
        out(rnd, "fio", phase, w["bw_bytes"] / 1024.0, w["runtime"] / 1000.0, "",
            "io=%d" % w["io_bytes"])
    elif phase == "block-read":
        out(rnd, "fio", phase, r["bw_bytes"] / 1024.0, r["runtime"] / 1000.0, "",
            "io=%d" % r["io_bytes"])
    else:
        rt = max(r["runtime"], w["runtime"]) / 1000.0
        out(rnd, "fio", phase, r["total_ios"] / rt, rt, "",
            "reads=%d writes=%d total_iops=%.0f" % (r["total_ios"], w["total_ios"],
                                                   (r["total_ios"] + w["total_ios"]) / rt))

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
            out(rnd, "bonnie++", name, "NA", "", "", "+++++")
        else:
            out(rnd, "bonnie++", name, float(v), "", "", "")

# ---- the report -------------------------------------------------------------
CHECKS = [
    # phase, peer tool, peer label, lo, hi, target text
    ("block-write", "fio", "fio rw=write", 0.97, None, ">= 0.97"),
    ("block-read", "fio", "fio rw=read", 0.97, None, ">= 0.97"),
    ("seeks", "fio", "fio randrw read IOPS", 0.95, None, ">= 0.95"),
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
    ("seeks", "bonnie++", "bonnie++ seeks"),
]
UNITS = {"seeks": "seeks/s"}
MIN_S = 2.0

def fmt(x, nd=3):
    return "n/a" if x is None else ("%.*f" % (nd, x))

FILE_PHASES = {"seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat", "rand-delete"}

def report(path, rss_path, io_rounds, file_rounds, failures_path, psi_path):
    rounds = max(io_rounds, file_rounds)
    vals, elapsed = {}, {}
    for line in open(path):
        rnd, tool, phase, val, el, rss, note = (line.rstrip("\n").split("\t") + [""] * 7)[:7]
        rnd = int(rnd)
        vals[(tool, phase, rnd)] = None if val == "NA" else float(val)
        if el:
            elapsed.setdefault((tool, phase), []).append(float(el))
    failed = False
    hdr = "%-15s %-21s %-11s" % ("phase", "peer", "target")
    hdr += "".join("%8s" % ("r%d" % r) for r in range(1, rounds + 1))
    hdr += "%9s  %s" % ("median", "result")
    print("arraybench / peer, per round and median of the per-round ratios")
    print(hdr)
    print("-" * len(hdr))

    def row(phase, tool, label, target, lo, hi):
        ratios = []
        own = file_rounds if phase in FILE_PHASES else io_rounds
        for r in range(1, own + 1):
            a, p = vals.get(("arraybench", phase, r)), vals.get((tool, phase, r))
            ratios.append(a / p if a is not None and p else None)
        got = [x for x in ratios if x is not None]
        if own == 0:
            print("%-15s %-21s %-11s  not run" % (phase, label, target))
            return "skipped"
        med = statistics.median(got) if got else None
        if lo is None:
            verdict = "info"
        elif med is None:
            verdict = "NOMEAS"
        elif med >= lo and (hi is None or med <= hi):
            verdict = "PASS"
        else:
            verdict = "FAIL"
        s = "%-15s %-21s %-11s" % (phase, label, target)
        s += "".join("%8s" % fmt(x) for x in ratios) + "%8s" % "" * (rounds - own)
        s += "%9s  %s" % (fmt(med), verdict)
        if med is not None and len(got) < own:
            s += " (%d of %d rounds)" % (len(got), own)
        print(s)
        return verdict

    for phase, tool, label, lo, hi, target in CHECKS:
        v = row(phase, tool, label, target, lo, hi)
        failed |= v in ("FAIL", "NOMEAS")

    # Peak RSS of the workers: the same at both file sizes.
    rss = {}
    for line in open(rss_path):
        label, phase, kib = line.rstrip("\n").split("\t")
        rss.setdefault(phase, {})[label] = None if kib == "NA" else int(kib)
    labels = sorted({l for d in rss.values() for l in d}, key=lambda l: int(l.rstrip("M")))
    for phase in ("block-write", "block-read", "seeks"):
        d = rss.get(phase, {})
        if len(labels) != 2 or any(d.get(l) is None for l in labels):
            print("%-15s %-21s %-11s  %s  NOMEAS" % ("rss " + phase, "itself at 1 size", "+-512 KiB", d))
            failed = True
            continue
        small, big = d[labels[0]], d[labels[1]]
        diff = big - small
        ok = abs(diff) <= 512
        failed |= not ok
        print("%-15s %-21s %-11s %s KiB at %s, %s KiB at %s: %+d KiB  %s" % (
            "rss " + phase, "same at %s" % labels[0], "+-512 KiB", big, labels[1], small, labels[0],
            diff, "PASS" if ok else "FAIL"))

    print()
    print("information only (no target):")
    for phase, tool, label in INFO:
        row(phase, tool, label, "-", None, None)

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
    psi = {}
    for line in open(psi_path):
        rnd, job, wall, cpu, io = line.rstrip("\n").split("\t")
        psi.setdefault(job, {})[int(rnd)] = (float(wall), float(cpu), float(io))
    if psi:
        print()
        print("machine-wide stall share while each run ran, PSI 'some' in % of its wall time, cpu/io")
        print("(both include the run's own stalls: compare a run with the same run in other rounds)")
        print("%-17s" % "run" + "".join("%12s" % ("r%d" % r) for r in range(1, rounds + 1)))
        for job in ("arraybench io", "fio io", "bonnie io", "arraybench files", "bonnie files"):
            if job in psi:
                print("%-17s" % job + "".join(
                    "%12s" % ("%.0f/%.0f" % psi[job][r][1:] if r in psi[job] else "")
                    for r in range(1, rounds + 1)))
    fails = [l.rstrip("\n").split("\t") for l in open(failures_path) if l.strip()]
    if fails:
        print()
        print("failed runs (their ratios are n/a):")
        for rnd, tool, why in fails:
            print("  round %s: %s: %s" % (rnd, tool, why))
    print()
    print("overall: %s" % ("FAIL (at least one ratio missed its target or was not measured)"
                           if failed else "PASS"))
    return 1 if failed else 0

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "ab":
        ab(sys.argv[2], sys.argv[3])
    elif cmd == "fio":
        fio(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "bonnie":
        bonnie(sys.argv[2], sys.argv[3])
    elif cmd == "rss":
        for line in open(sys.argv[3]):
            run = json.loads(line)
            for ph in run["phases"]:
                out(sys.argv[2], ph["name"], ph["worker_max_rss_kib"])
    elif cmd == "report":
        sys.exit(report(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7]))
PYEOF

# ---- the three tools ---------------------------------------------------------
# run_arraybench ROUND io|files
run_arraybench() {
	local r=$1 kind=$2 base=$out/arraybench.$2.r$1 st args
	if [ "$kind" = io ]; then
		args=(-s "${size_mib}m" -f"$perchar" -n 0 --seeks "$seeks" --seekers "$seekers" -r "$ram")
	else
		args=(-s 0 -n "$files" -r "$ram")
	fi
	rm -f "$base.json"
	log "round $r: arraybench ($kind)"
	run_waited "$ab" run -d "$tdir" "${args[@]}" --cache cgroup --data "$data" -m compare -q \
		--json "$base.json" >"$base.csv" 2>"$base.txt"
	st=$?
	tdir_clear
	if [ "$st" -ne 0 ]; then
		failed "$r" "arraybench ($kind)" "status $st: $(grep -m1 error "$base.txt")"
		return 0
	fi
	python3 "$python_helper" ab "$r" "$base.json" >>"$results" || log "round $r: cannot parse $base.json"
}

run_fio() {
	local r=$1 base=$out/fio.r$1 nios phase st job
	local common=(--output-format=json --directory="$tdir" --filename=fio.dat --bs=8k
		--size="${size_mib}m" --ioengine=psync --direct=0 --end_fsync=1 --fallocate=none
		--invalidate=1 --fadvise_hint="$fadvise_hint" --group_reporting)
	nios=$(((seeks * 11 + seekers * 10 - 1) / (seekers * 10)))
	# A fresh file for the write job, as arraybench's O_EXCL create; one fio
	# invocation per job so fio never lays the file out ahead of the write.
	rm -f "$tdir/fio.dat"
	for phase in block-write block-read seeks; do
		log "round $r: fio $phase"
		case $phase in
		block-write) job=(--name=write --rw=write) ;;
		block-read) job=(--name=read --rw=read) ;;
		seeks) job=(--name=seeks --rw=randrw --rwmixread=91 --numjobs="$seekers"
			--number_ios="$nios" --norandommap=1 --randrepeat=0) ;;
		esac
		settle
		cg_make "$ram"
		run_waited cgroup_exec fio "${common[@]}" --output="$base.$phase.json" "${job[@]}" \
			>/dev/null 2>"$base.$phase.err"
		st=$?
		cg_remove
		if [ "$st" -ne 0 ]; then
			failed "$r" "fio $phase" "status $st: $(head -c 300 "$base.$phase.err" | tr '\n' ' ')"
			break
		fi
		python3 "$python_helper" fio "$r" "$phase" "$base.$phase.json" >>"$results" ||
			log "round $r: cannot parse $base.$phase.json"
	done
	tdir_clear
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

# Microseconds some task stalled on the CPU and on I/O, machine-wide
# (pressure stall information; "0 0" without it).
psi_now() {
	local c=0 i=0
	[ -r /proc/pressure/cpu ] && c=$(sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/cpu)
	[ -r /proc/pressure/io ] && i=$(sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/io)
	echo "${c:-0} ${i:-0}"
}

# Round r runs the I/O trio (r <= -x) back to back, then the file pair
# (r <= -y) back to back, so compared runs are minutes apart at most.  The
# trio's order rotates from round to round; the pair alternates which tool
# goes first, right after the trio (an even -y gives each tool that slot
# equally often).  Every run's wall time and the machine's CPU and I/O stall
# share during it go to psi.tsv: the machine is shared.
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
		read -r c0 i0 <<<"$(psi_now)"
		t0=$(date +%s.%N)
		"run_$tool" "$r" "$kind"
		read -r c1 i1 <<<"$(psi_now)"
		python3 -c "import sys; w=$(date +%s.%N)-$t0; print('$r\t$tool $kind\t%.1f\t%.1f\t%.1f' % (w, ($c1-$c0)/1e4/w, ($i1-$i0)/1e4/w))" >>"$psi_file"
	done
	log "round $r done after $(($(date +%s) - t_start)) s"
done

# ---- peak RSS at two file sizes -------------------------------------------
rss_file=$out/rss.tsv
: >"$rss_file"
for mib in "$rss_small_mib" "$rss_big_mib"; do
	base=$out/arraybench.rss${mib}M
	rm -f "$base.json"
	settle
	log "peak RSS: arraybench -s ${mib}m --phases block-write,block-read,seeks"
	if run_waited "$ab" run -d "$tdir" -s "${mib}m" --phases block-write,block-read,seeks --seeks "$seeks" \
		--seekers "$seekers" --cache cgroup -r "$ram" --data "$data" -m compare -q \
		--json "$base.json" >"$base.csv" 2>"$base.txt"; then
		python3 "$python_helper" rss "${mib}M" "$base.json" >>"$rss_file"
		tdir_clear
	else
		failed rss arraybench "-s ${mib}m: $(grep -m1 error "$base.txt")"
		for p in block-write block-read seeks; do printf '%s\t%s\tNA\n' "${mib}M" "$p" >>"$rss_file"; done
	fi
done
log "all runs done after $(($(date +%s) - t_start)) s"

# ---- report -----------------------------------------------------------------
{
	echo "bench/compare.sh  $(date -u '+%Y-%m-%d %H:%M UTC')  $(uname -r)  $(nproc) CPUs  $(free -g | awk '/^Mem:/{print $2}') GiB RAM"
	echo "ext4 on $dev (loop, dio=1); I/O: $rounds rounds, every tool in a $ram MiB memory cgroup," \
		"-s ${size_mib}M bs 8k, $seeks seeks by $seekers seekers, per-char $perchar MiB," \
		"arraybench --data $data, fio fadvise_hint=$fadvise_hint; files: $frounds rounds," \
		"-n $files (x1024, 0 bytes), no memory cgroup for either tool"
	echo
	python3 "$python_helper" report "$results" "$rss_file" "$rounds" "$frounds" "$failures" "$psi_file"
} >"$out/report.txt"
status=$?
cat "$out/report.txt"
[ -n "$keep" ] && log "raw outputs in $out"
exit $((status == 0 ? 0 : 1))
