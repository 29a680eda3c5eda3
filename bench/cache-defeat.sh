#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Does the default cache defeat cost writes anything, and do reads still
# start cold?  On a disk with a known limit, arraybench's default (--cache
# cgroup -r RAM: the workers in a memory cgroup, whose writers write behind
# in a v1 group) against --cache none (nothing capped, nothing evicted),
# with the default run twice per round as the A/A pair.  The disk: an image
# of this script's own, written in full before the first round (no first
# write pays for the host's allocation), on a loop device with direct I/O
# (the host's cache does not hold it a second time), its reads and writes
# throttled by the v1 blkio controller to LIMIT bytes/s, the limit every
# rate is read against.  Rounds take bench/rounds.py's order (a Williams
# design of the three runs); -L N puts N CPU hogs (stress-ng --cpu N)
# beside every run.
#
# Prints, per phase: cgroup / none with the A/A floor (rounds.py's rows),
# each run's median as a fraction of the limit, and the largest share of
# the file cached as each read phase of a default run started
# (resident_at_start; cold means under 0.05).
#
# Options
#   -l BPS      the disk's limit, reads and writes alike (k/m/g)   [40m]
#   -f FS       file system on it: xfs, ext4 or btrfs             [xfs]
#   -s MIB      file size                                          [512]
#   -r MIB      -r of the default runs                             [64]
#   -R N        rounds (a multiple of 6 balances the design)       [6]
#   -L N        N CPU hogs beside every run (stress-ng --cpu N)    [0]
#   -p LIST     phases                      [block-write,rewrite,block-read]
#   -d DIR      where the image goes ($TMPDIR, else /var/tmp)
#   -o DIR      keep every run's JSON, orders.tsv and results.tsv there
#   -h          this help
# Root only (loop device, blkio, memory cgroup).  Leaves nothing behind.
set -u
prog=cache-defeat
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bps=40m fs=xfs size=512 ram=64 nrounds=6 hogs=0 phases=block-write,rewrite,block-read keep=
workdir=${TMPDIR:-/var/tmp}
while getopts l:f:s:r:R:L:p:d:o:h opt; do
	case $opt in
	l) bps=$OPTARG ;; f) fs=$OPTARG ;; s) size=$OPTARG ;; r) ram=$OPTARG ;; R) nrounds=$OPTARG ;;
	L) hogs=$OPTARG ;; p) phases=$OPTARG ;; d) workdir=$OPTARG ;; o) keep=$OPTARG ;;
	*) bench_other_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
bench_no_operands "$@"
for v in "$size" "$ram" "$nrounds" "$hogs"; do
	case $v in '' | *[!0-9]*) bad "'$v' is not a whole number" ;; esac
done
limit=$(numfmt --from=iec "${bps^^}" 2>/dev/null) || bad "-l '$bps': bytes per second, k/m/g allowed"
case $fs in xfs | ext4 | btrfs) ;; *) bad "-f '$fs': xfs, ext4 or btrfs" ;; esac
[ "$(id -u)" = 0 ] || bad "root only (a loop device, the blkio throttle, the memory cgroup)"
throttle=/sys/fs/cgroup/blkio
[ -w "$throttle/blkio.throttle.write_bps_device" ] || bad "no v1 blkio throttling at $throttle"
[ "$hogs" = 0 ] || command -v stress-ng >/dev/null || bad "-L needs stress-ng (apt-get install stress-ng)"
ab=${AB:-$here/../arraybench}
[ -x "$ab" ] || bad "no arraybench at $ab (make, or set AB)"
tools=(cgroup cgroup2 none)
design=$(python3 "$here/rounds.py" length ${#tools[@]}) || bad "cannot run $here/rounds.py"
[ $((nrounds % design)) -eq 0 ] || echo "$prog: warning: $nrounds rounds is not a multiple of $design: positions and orders are not balanced" >&2

majmin= hog=
cache_defeat_cleanup() {
	local st=$?
	if [ -n "$hog" ]; then kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null; fi
	if [ -n "$majmin" ]; then
		echo "$majmin 0" >"$throttle/blkio.throttle.read_bps_device"
		echo "$majmin 0" >"$throttle/blkio.throttle.write_bps_device"
	fi
	(exit "$st")
	bench_cleanup # exits with the status it finds
}
bench_work_dirs
trap cache_defeat_cleanup EXIT
bench_copy_arraybench
img=$work/disk.img mnt=$work/mnt
mkdir "$mnt"
# Room for the file, the file system's own, and slack: written in full.
img_mib=$((size * 2 + 512))
dd if=/dev/zero of="$img" bs=1M count="$img_mib" conv=fsync status=none || die "cannot write the image"
dev=$(losetup --find --show --direct-io=on "$img") || die "cannot attach $img"
majmin=$(lsblk -n -d -o MAJ:MIN "$dev" | tr -d ' ')
"mkfs.$fs" -q $([ "$fs" = ext4 ] && echo -F || echo -f) "$dev" >/dev/null || die "mkfs.$fs failed"
mount "$dev" "$mnt" || die "cannot mount $dev"
echo "$majmin $limit" >"$throttle/blkio.throttle.read_bps_device" || die "cannot throttle $dev's reads"
echo "$majmin $limit" >"$throttle/blkio.throttle.write_bps_device" || die "cannot throttle $dev's writes"
if [ "$hogs" != 0 ]; then
	stress-ng --cpu "$hogs" --timeout 0 >/dev/null 2>&1 &
	hog=$!
fi
log "$(bench_arraybench_words)"
log "$fs on $dev ($img_mib MiB image written in full, direct I/O), reads and writes throttled to $limit B/s; -s ${size}m; default -r $ram; ${hogs} CPU hogs; $nrounds rounds"
: >"$out/orders.tsv"
for r in $(seq 1 "$nrounds"); do
	order=$(python3 "$here/rounds.py" order "$r" "${tools[@]}") || die "cannot run $here/rounds.py"
	p=0
	for who in $order; do
		p=$((p + 1))
		printf '%s\t%s\t%s\n' "$r" "$p" "$who" >>"$out/orders.tsv"
		case $who in
		none) cache=(--cache none -r 0) ;;
		*) cache=(--cache cgroup -r "$ram") ;;
		esac
		run_waited "$ab" run -d "$mnt" -s "${size}m" -n 0 -f --phases "$phases" "${cache[@]}" -q \
			--json "$out/$who.$r.json" >/dev/null 2>"$out/$who.$r.err" ||
			die "round $r, $who failed: $(tail -1 "$out/$who.$r.err")"
	done
	log "round $r done ($order)"
done
python3 - "$here" "$out" "$nrounds" "$limit" <<'EOF'
import json, os, statistics, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import rounds
out, n, limit_kib = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) / 1024
phases, rates, resident = [], {}, {}
with open(os.path.join(out, "results.tsv"), "w") as res:
    for r in range(1, n + 1):
        for who in ("cgroup", "cgroup2", "none"):
            o = json.load(open(os.path.join(out, "%s.%d.json" % (who, r))))
            for p in o["phases"]:
                name = p["name"]
                if name not in phases:
                    phases.append(name)
                res.write("%d\t%s\t%s\t%s\n" % (r, who, name, p.get("rate") or "NA"))
                rates.setdefault((who, name), []).append(p["rate"])
                share = p.get("resident_at_start")
                if who != "none" and isinstance(share, (int, float)):
                    resident.setdefault(name, []).append(share)
values = rounds.read_results(os.path.join(out, "results.tsv"))
positions = rounds.read_orders(os.path.join(out, "orders.tsv"))
print(rounds.HEADER.replace("ab 1st", "cg 1st").replace("ab 2nd", "cg 2nd"))
cs = [rounds.Comparison(values, positions, "cgroup", "none", ph, "cgroup2") for ph in phases]
for c in cs:
    print(rounds.format_row(c, label="cgroup/none"))
print("cgroup: the default cache defeat (--cache cgroup); none: --cache none; A/A: cgroup against its")
print("second run in the same rounds; floor: median |A/A - 1|")
for c in cs:
    print(rounds.aa_line(c))
print("\nphase          limit KiB/s  cgroup/limit  none/limit  cgroup max/limit  resident at start (cgroup, max)")
for ph in phases:
    cg = rates.get(("cgroup", ph), []) + rates.get(("cgroup2", ph), [])
    no = rates.get(("none", ph), [])
    res = resident.get(ph)
    print("%-14s %11.0f  %12.3f  %10.3f  %16.3f  %s" % (
        ph, limit_kib, statistics.median(cg) / limit_kib, statistics.median(no) / limit_kib,
        max(cg) / limit_kib, "%.3f" % max(res) if res else "-"))
EOF
