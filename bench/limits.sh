#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/limits.sh: arraybench, fio and bonnie++ on arrays whose members have
# a known limit (issue 32).  The members are the test guest's virtio disks
# (tests/vm/run-guest.sh, qemu under TCG) throttled by qemu
# (throttling.bps-total, .iops-total), their images written in full before
# boot; so every level's ceiling follows from the member limit and the
# level's arithmetic (bench/limits-table.py says which), and each tool's
# figure is read as a fraction of it.
#
# Per level and file system, one boot: the guest (bench/limits-guest.sh)
# builds the array (md with --assume-clean, or btrfs), makes the file
# system, and on that one mount runs ROUNDS rounds of arraybench (twice: the
# A/A pair), fio and bonnie++ in the order bench/rounds.py gives each round,
# dropping the guest's caches before each tool and between fio's jobs, each
# round after an untimed warm-up write of SIZE MiB, every round's order
# drawn before the first (a round's first writer was its slowest, whichever
# tool it was, when python drew the order just before it):
#   arraybench  run -s SIZE -r RAM -f --phases block-write,rewrite,block-read,
#               seeks,sweep --sweep-file-sizes SIZE --sweep-records 1m
#               --sweep-tests write,read (default cache: its memory cgroup)
#   fio         8k sequential write (end_fsync=1), 8k sequential read (the
#               chunks of arraybench's and bonnie++'s block phases; 1m
#               before 16:25 on 7 December), 8k
#               random read with SEEKERS jobs on one file for 10 s, and the
#               seeks' mix (8k random, 91 % reads, end_fsync=1; its read
#               IOPS is the seeks' peer); psync; the random reads in a
#               memory cgroup of RAM MiB, the 8k write and read outside it,
#               the write with sync_file_range every eighth of RAM (as
#               arraybench's one-pass phases run: outside its group,
#               writing behind; in the group before 23:00 on 7 December);
#               and the 1m write and read outside it, the sweep's peers
#   bonnie++    -s SIZE -r RAM -f -n 0, whole in a cgroup of RAM MiB
# Every raw file comes back from the guest into OUT/LEVEL-FS/ (the run's JSON,
# CSV, fio JSON, the members' diskstats, mdstat, the log); results.tsv and
# orders.tsv there feed bench/rounds.py's report (report.txt) and the table
# (table.txt, all levels: OUT/table.txt).
#
# Options
#   -l LIST     levels, each LEVEL[:FS] (fs xfs by default; btrfs levels
#               use btrfs): raid0 raid1 raid5 raid6 raid10-n2 raid10-f2
#               btrfs-raid1 btrfs-raid10                          [raid0:xfs]
#   -n N        members                                                [4]
#   -b BPS      every member's limit in bytes/s (k/m/g)              [10m]
#   -i IOPS     every member's limit in I/O per second               [200]
#   -L M=B:I    another limit for one member (run-guest.sh -L; repeatable)
#   -s MIB      file size of every tool                              [256]
#   -r MIB      RAM: arraybench -r, bonnie++ -r, the peers' cgroup    [64]
#   -R N        rounds, best a multiple of the design's length (4 for the
#               four runs of a level, 6 for -C's three): round 5 repeats
#               round 1's order, so 5 rounds put one tool first twice,
#               and the first run of a round is often the slowest here  [8]
#   -c KIB      chunk of the md levels                               [512]
#   -p N        seekers (arraybench --seekers, fio numjobs)            [5]
#   -S SIZE     member image size                                     [1G]
#   -m MIB      the guest's RAM (run-guest.sh -m): under it, a file larger
#               than the guest's page cache, so that --cache none reads
#               from the members too                                 [1024]
#   -P LIST     the CPU-limit probe instead: one boot per member limit in
#               LIST (e.g. 10m,20m,40m,80m,0; 0 unlimited), raid0 of -n
#               members, xfs, arraybench block write and read of -s MiB
#   -Q LIST     the seekers curve instead: one boot, raid0 of -n members,
#               xfs, arraybench's seeks and fio's 8k random read at each
#               seeker count of LIST (e.g. 1,2,4,8,16) against N x IOPS
#   -C LOAD     the cache comparison instead: one boot, raid0 of -n
#               members, xfs, -R rounds of arraybench's block write, rewrite
#               and block read with its default cache (twice: the A/A pair)
#               and with --cache none, LOAD busy loops in the guest beside
#               them (0: none); into OUT/cache-load-LOAD
#   -V MODE     with -C: a fourth run each round, arraybench with --cache
#               MODE (fadvise: its writes outside any memory group, its
#               reads made cold by dropping the file), to tell the group's
#               own cost from the rest; into OUT/cache-load-LOAD-MODE
#   -o DIR      where the results go              [bench/results/limits]
#   -t S        each boot's timeout in seconds                     [3000]
#   -h          this help
# Environment: AB (the arraybench binary; ./arraybench by default),
# VMDIR (the guest's kernel, build/vm).
set -u
prog=limits.sh
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
usage() { sed -n '/^# Options/,/^#   -h/p' "$0" | sed 's/^# \{0,1\}//'; }
bad() { echo "$prog: $*" >&2; exit 2; }
levels=raid0:xfs n=4 bps=10m iops=200 size=256 ram=64 nrounds=8 chunk=512 seekers=5
imgsize=1G guestram=1024 probe= curve= cache= variant= out=$top/bench/results/limits timeout=3000 extra=()
while getopts l:n:b:i:L:s:r:R:c:p:S:m:P:Q:C:V:o:t:h o; do
	case $o in
	l) levels=$OPTARG ;; n) n=$OPTARG ;; b) bps=$OPTARG ;; i) iops=$OPTARG ;;
	L) extra+=(-L "$OPTARG") ;; s) size=$OPTARG ;; r) ram=$OPTARG ;; R) nrounds=$OPTARG ;;
	c) chunk=$OPTARG ;; p) seekers=$OPTARG ;; S) imgsize=$OPTARG ;; m) guestram=$OPTARG ;; P) probe=$OPTARG ;; Q) curve=$OPTARG ;; C) cache=$OPTARG ;; V) variant=$OPTARG ;;
	o) out=$OPTARG ;; t) timeout=$OPTARG ;;
	h) usage; exit 0 ;;
	*) bad "unknown option (-h for help)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || bad "unexpected argument '$1'"
for v in "$n" "$size" "$ram" "$nrounds" "$chunk" "$seekers" "$timeout" "$guestram" ${cache:+"$cache"}; do
	case $v in '' | *[!0-9]*) bad "'$v' is not a whole number" ;; esac
done
case $curve in *[!0-9,]* | ,* | *, | *,,*) bad "-Q '$curve': seeker counts separated by commas" ;; esac
[ "$size" -ge $((2 * ram)) ] || bad "-s must be at least twice -r (bonnie++ and arraybench refuse less)"
case $variant in '' | fadvise | drop) ;; *) bad "-V '$variant': fadvise or drop" ;; esac
[ -z "$variant" ] || [ -n "$cache" ] || bad "-V goes with -C"
tools=4
[ -n "$cache" ] && tools=$((3 + ${variant:+1}))
design=$(python3 "$here/rounds.py" length "$tools") || bad "cannot run bench/rounds.py"
[ -n "$curve$probe" ] || [ $((nrounds % design)) = 0 ] ||
	echo "$prog: warning: $nrounds rounds is no multiple of the design's $design: some tools run first more often than others" >&2
[ "$(id -u)" = 0 ] || bad "root only (qemu's images, the guest)"
AB=${AB:-$top/arraybench}
case $AB in /*) ;; *) AB=$PWD/$AB ;; esac
[ -x "$AB" ] || bad "no arraybench at $AB (make, or set AB)"
vmdir=${VMDIR:-$top/build/vm}
export AB ARRAYBENCH_BENCH_ROUNDS_PY=$here/rounds.py
mkdir -p "$out" || bad "cannot create $out"
out=$(cd "$out" && pwd)

# boot NAME LIMIT-ARGS... -- GUEST-ARGS...: one guest; its tar stream
# unpacked into $out/NAME, its console and stderr kept in $out/NAME/guest.
boot() {
	local name=$1 dir st t0 qargs=()
	shift
	while [ "$1" != -- ]; do qargs+=("$1"); shift; done
	shift
	dir=$out/$name
	rm -rf "$dir" && mkdir -p "$dir"
	echo "$(date +%H:%M:%S) $prog: $name: run-guest.sh -n $n -S $imgsize ${qargs[*]} ${extra[*]} -- $*" >&2
	echo "tests/vm/run-guest.sh -d $vmdir -n $n -s $imgsize -F -t $timeout -m $guestram ${qargs[*]} ${extra[*]} bench/limits-guest.sh $*" >"$dir/command.txt"
	t0=$(date +%s)
	"$top/tests/vm/run-guest.sh" -d "$vmdir" -n "$n" -s "$imgsize" -F -t "$timeout" -m "$guestram" -l "$dir/guest" \
		"${qargs[@]}" "${extra[@]}" "$here/limits-guest.sh" "$@" >"$dir/guest.tar"
	st=$?
	tar -C "$dir" -xf "$dir/guest.tar" 2>/dev/null && rm -f "$dir/guest.tar"
	echo "$(date +%H:%M:%S) $prog: $name: guest exit $st after $(($(date +%s) - t0)) s" >&2
	echo "exit $st after $(($(date +%s) - t0)) s" >>"$dir/command.txt"
	return "$st"
}

if [ -n "$cache" ]; then
	name=cache-load-$cache${variant:+-$variant}
	boot "$name" -b "$bps" -i "$iops" -- cache "$nrounds" "$size" "$ram" "$chunk" "$cache" $variant
	python3 "$here/limits-table.py" parse "$out/$name" || exit 1
	python3 "$here/rounds.py" report --orders "$out/$name/orders.tsv" --results "$out/$name/results.tsv" \
		--subject arraybench --twin arraybench-aa --peer arraybench-none \
		--title "$name: default cache / --cache none" >"$out/$name/report.txt"
	python3 "$here/limits-table.py" cache "$out/$name" | tee "$out/$name/table.txt"
	cat "$out/$name/report.txt"
	exit 0
fi
if [ -n "$curve" ]; then
	boot seekers -b "$bps" -i "$iops" -- seekers "$curve" "$size" "$ram" "$chunk"
	python3 "$here/limits-table.py" seekers "$out/seekers" "$curve" "$n" "$iops" | tee "$out/seekers/curve.txt"
	exit 0
fi
if [ -n "$probe" ]; then
	IFS=, read -r -a plist <<<"$probe"
	dirs=()
	for b in "${plist[@]}"; do
		boot "probe-$b" -b "$b" -i 0 -- probe "$size" "$ram" "$chunk"
		dirs+=("$out/probe-$b")
	done
	python3 "$here/limits-table.py" probe "${dirs[@]}" | tee "$out/probe.txt"
	exit 0
fi

IFS=, read -r -a llist <<<"$levels"
dirs=()
for spec in "${llist[@]}"; do
	level=${spec%%:*} fs=xfs
	[ "$spec" != "$level" ] && fs=${spec#*:}
	case $level in btrfs-*) fs=btrfs ;; esac
	name=$level-$fs
	boot "$name" -b "$bps" -i "$iops" -- rounds "$level" "$fs" "$nrounds" "$size" "$ram" "$chunk" "$seekers"
	python3 "$here/limits-table.py" parse "$out/$name" || continue
	python3 "$here/rounds.py" report --orders "$out/$name/orders.tsv" --results "$out/$name/results.tsv" \
		--subject arraybench --twin arraybench-aa --title "$name: arraybench / peer" >"$out/$name/report.txt"
	python3 "$here/limits-table.py" table "$out/$name" >"$out/$name/table.txt"
	cat "$out/$name/table.txt" "$out/$name/report.txt"
	dirs+=("$out/$name")
done
# The table of every level measured into OUT so far (this run's and earlier).
all=()
for d in "$out"/*/; do [ -s "$d/results.tsv" ] && all+=("${d%/}"); done
[ ${#all[@]} -gt 0 ] && python3 "$here/limits-table.py" table "${all[@]}" >"$out/table.txt"
exit 0
