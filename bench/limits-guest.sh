#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/limits-guest.sh: runs INSIDE the test guest (tests/vm/run-guest.sh,
# started by bench/limits.sh): builds one array on the guest's throttled
# members, makes its file system, and runs the rounds on that one mount.
# Everything it measures goes into a directory that it writes to standard
# output as a tar stream at the end (and nothing else goes to standard
# output); its log goes to standard error.
# Usage: limits-guest.sh rounds LEVEL FS ROUNDS SIZE_MIB RAM_MIB CHUNK_KIB SEEKERS
#        limits-guest.sh probe SIZE_MIB RAM_MIB CHUNK_KIB
#        limits-guest.sh seekers LIST SIZE_MIB RAM_MIB CHUNK_KIB
#        limits-guest.sh cache ROUNDS SIZE_MIB RAM_MIB CHUNK_KIB LOAD [MODE]
#   LEVEL: raid0 raid1 raid5 raid6 raid10-n2 raid10-f2 btrfs-raid1 btrfs-raid10
#   rounds: arraybench (twice: the A/A pair), fio and bonnie++ in the order
#     bench/rounds.py gives each round; probe: arraybench's block write and
#     read once (the CPU-limit probe: the host varies the member limit);
#     seekers: raid0 with xfs, arraybench's seeks and fio's 8k random read
#     at each count of LIST (the seekers curve against the IOPS limit);
#     cache: raid0 with xfs, arraybench's block write, rewrite and block read
#     with its default cache (twice: the A/A pair) and with --cache none, in
#     rounds, LOAD busy loops beside them (0: none); MODE: a fourth run
#     each round with --cache MODE.
# Environment: AB, GUEST_MEMBERS, GUEST_LIMITS (run-guest.sh sets them).
set -u
here=$(cd "$(dirname "$0")" 2>/dev/null && pwd)
# The script runs as /out/script: rounds.py comes from the host's tree.
rounds_py=${ARRAYBENCH_BENCH_ROUNDS_PY:-$here/rounds.py}
AB=${AB:?AB is the arraybench binary}
IFS=, read -r -a members <<<"${GUEST_MEMBERS:?}"
res=$(mktemp -d /tmp/limits-res.XXXXXX)
mnt=/mnt/limits
md=/dev/md/limits
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$res/log.txt" >&2; }
emit() { tar -C "$res" -cf - . ; }
trap 'emit' EXIT

drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
# The peers' cache state is arraybench's default cache's (--cache cgroup
# -r RAM): its one-pass phases (block write, rewrite, block read) run
# outside the memory group from an evicted file, its writers writing
# behind an eighth of RAM at a time, and only its seeks inside a group of
# RAM MiB.  So fio's block write and read run outside the group, the write
# with sync_file_range over the same eighth (until 7 December, 23:00 they
# ran in it: fio_block_cache in setup.txt says which), and fio's random
# reads in a group of RAM MiB.  bonnie++ runs whole in the group: it has
# no write-behind, and outside it its read would find the file the rewrite
# left in the guest's cache; -r RAM in a group of RAM is bonnie++ as its
# manual has it run, on a machine of that much memory.
cg=/sys/fs/cgroup/limits-peers
in_cg() { (echo $BASHPID >"$cg/cgroup.procs" && exec "$@"); }
make_cg() {
	mkdir -p "$cg" && echo "$(($1 * 1048576))" >"$cg/memory.max" ||
		{ log "no v2 memory cgroup: fio and bonnie++ run without one"; cg=; }
	[ -n "$cg" ] || in_cg() { "$@"; }
}

build() { # LEVEL FS CHUNK: the array, its file system, mounted at $mnt
	local level=$1 fs=$2 chunk=$3 n=${#members[@]} lv
	mkdir -p "$mnt"
	case $level in
	btrfs-*)
		lv=${level#btrfs-}
		mkfs.btrfs -f -d "$lv" -m "$lv" "${members[@]}" >"$res/mkfs.txt" 2>&1 || return 1
		mount "${members[0]}" "$mnt" || return 1
		;;
	*)
		local args=(--level="${level%%-*}" --raid-devices="$n" --run --assume-clean --metadata=1.2)
		case $level in raid1) ;; *) args+=(--chunk="$chunk") ;; esac
		case $level in raid10-*) args+=(--layout="${level#raid10-}") ;; esac
		# --assume-clean: no initial resync to take the members' limit away
		# from the tools (raid5/6 parity is then wrong until written, which
		# no full-stripe write or read here depends on).
		mdadm --create "$md" "${args[@]}" "${members[@]}" </dev/null >"$res/mdadm.txt" 2>&1 || return 1
		case $fs in
		xfs) mkfs.xfs -f "$md" >"$res/mkfs.txt" 2>&1 ;;
		ext4) mkfs.ext4 -F -E lazy_itable_init=0,lazy_journal_init=0 "$md" >"$res/mkfs.txt" 2>&1 ;;
		*) log "unknown fs $fs"; return 1 ;;
		esac || return 1
		mount "$md" "$mnt" || return 1
		cat /proc/mdstat >"$res/mdstat.txt"
		mdadm --detail "$md" </dev/null >>"$res/mdstat.txt" 2>&1
		;;
	esac
	mkdir -p "$mnt/test"
}
teardown() {
	umount "$mnt" 2>/dev/null
	[ -e "$md" ] && mdadm --stop "$md" </dev/null >/dev/null 2>&1
}

tdir_clear() { find "$mnt/test" -mindepth 1 -delete 2>/dev/null; }
diskstats() { # the members' lines of /proc/diskstats
	local m
	for m in "${members[@]}"; do grep -w "${m#/dev/}" /proc/diskstats; done
}

run_ab() { # ROUND LABEL PHASES...: one arraybench run, its JSON kept
	local r=$1 label=$2 base=$res/$2.r$1 st
	shift 2
	drop
	diskstats >"$base.diskstats.before"
	"$AB" run -d "$mnt/test" -s "${size}m" -r "$ram" -f -q -m limits "$@" \
		--json "$base.json" >"$base.csv" 2>"$base.txt"
	st=$?
	diskstats >"$base.diskstats.after"
	tdir_clear
	[ "$st" = 0 ] || log "round $r: $label: arraybench exit $st: $(tail -2 "$base.txt" | tr '\n' ' ')"
}

# Untimed, before a round's first run: the caches dropped, a write of SIZE
# MiB, fsynced, and its deletion.  Without it the first run of a round wrote slower than the
# rest, in every tool (raid0, raid1, raid6: a median 0.50-0.87 of the limit
# first against 0.58-1.00 otherwise; limits-table.py first).
warm_up() {
	drop
	dd if=/dev/zero of="$mnt/test/warm-up" bs=1M count="$size" conv=fsync status=none ||
		log "warm-up write failed"
	tdir_clear
}

# counted BASE COMMAND...: COMMAND between two copies of the members'
# diskstats lines (BASE.diskstats.before and .after): what a peer made the
# members do, for limits-table.py members (arraybench records its own per
# phase).
counted() {
	local b=$1 st
	shift
	diskstats >"$b.diskstats.before"
	"$@"
	st=$?
	diskstats >"$b.diskstats.after"
	return $st
}

run_fio() { # ROUND
	local r=$1 base=$res/fio.r$1 common
	# arraybench's window, ab_write_behind_window(): an eighth of RAM, in
	# 8 KiB writes.
	local behind_writes=$((ram * 1024 / 8 / 8))
	common=(--directory="$mnt/test" --filename=fio.dat --size="${size}m" --ioengine=psync
		--output-format=json --fadvise_hint=0)
	drop
	# Block write's and read's peers write and read in arraybench's and
	# bonnie++'s 8 KiB chunks: under TCG a system call costs tens of
	# microseconds, so 1 MiB records would spare fio 16 thousand calls in
	# 128 MiB that the others pay (their peers were 1m before 16:25 on 7
	# December: fio_block_bs in setup.txt says which).
	counted "$base.write" fio --name=write "${common[@]}" --rw=write --bs=8k --end_fsync=1 \
		--sync_file_range=wait_before,write:"$behind_writes" \
		--output="$base.write.json" >"$base.write.err" 2>&1 || log "round $r: fio write failed"
	drop
	counted "$base.read" fio --name=read "${common[@]}" --rw=read --bs=8k \
		--output="$base.read.json" >"$base.read.err" 2>&1 || log "round $r: fio read failed"
	# The sweep's peers: the sweep runs outside the memory group (its cells
	# keep iozone's cache: a write is warm, a read evicted first), so its
	# 1m write and read are held against fio outside the group too; in the
	# group, writeback starts after a few MiB and the disks never idle.
	# Made anew, as the sweep's write truncates its file first.
	tdir_clear
	drop
	fio --name=sweepwrite "${common[@]}" --rw=write --bs=1m --end_fsync=1 \
		--output="$base.sweepwrite.json" >"$base.sweepwrite.err" 2>&1 || log "round $r: fio sweep write failed"
	drop
	fio --name=sweepread "${common[@]}" --rw=read --bs=1m \
		--output="$base.sweepread.json" >"$base.sweepread.err" 2>&1 || log "round $r: fio sweep read failed"
	drop
	in_cg fio --name=randread "${common[@]}" --rw=randread --bs=8k --numjobs="$seekers" \
		--group_reporting --time_based --runtime=10 \
		--output="$base.randread.json" >"$base.randread.err" 2>&1 || log "round $r: fio randread failed"
	# The seeks' own mix: 8k random reads with about one in ten written
	# back (91 % reads: 0.099 writes a read), and an fsync at the end, as
	# arraybench's and bonnie++'s seeks do; its read IOPS is their peer.
	drop
	counted "$base.seekmix" in_cg fio --name=seekmix "${common[@]}" --rw=randrw --rwmixread=91 --bs=8k --numjobs="$seekers" \
		--group_reporting --time_based --runtime=10 --end_fsync=1 \
		--output="$base.seekmix.json" >"$base.seekmix.err" 2>&1 || log "round $r: fio seek mix failed"
	tdir_clear
}

run_bonnie() { # ROUND
	local r=$1 base=$res/bonnie.r$1
	drop
	in_cg bonnie++ -d "$mnt/test" -s "$size" -r "$ram" -f -n 0 -u root -q -m limits \
		>"$base.csv" 2>"$base.err" || log "round $r: bonnie++ exit $?"
	tdir_clear
}

# run_tool ROUND TOOL: one run of the mode's TOOL in round ROUND.
run_tool() {
	local r=$1 t=$2
	case $mode:$t in
	cache:arraybench-none) run_ab "$r" "$t" --phases block-write,rewrite,block-read --cache none ;;
	cache:arraybench-"$variant") run_ab "$r" "$t" --phases block-write,rewrite,block-read --cache "$variant" ;;
	cache:arraybench*) run_ab "$r" "$t" --phases block-write,rewrite,block-read ;;
	rounds:arraybench*) run_ab "$r" "$t" --phases block-write,rewrite,block-read,seeks,sweep \
		--seekers "$seekers" --sweep-file-sizes "${size}m" --sweep-records 1m --sweep-tests write,read ;;
	rounds:fio) run_fio "$r" ;;
	rounds:bonnie++) run_bonnie "$r" ;;
	esac
}
# run_rounds TOOL...: the rounds, each in rounds.py's order after a warm-up,
# the orders in orders.tsv.  Every round's order is drawn before the first
# round: python's start-up here is about 5 s of the guest's CPU (TCG, its
# modules over 9p), and between rounds it ran just before each round's
# first tool only, the one run of a round that wrote slower than the rest
# in every tool (limits-table.py first; the slow runs spent 2-3 times the
# kernel time of the others on the same writes).
run_rounds() {
	local r pos t
	local -a orders
	: >"$res/orders.tsv"
	for r in $(seq 1 "$nrounds"); do
		orders[r]=$(python3 "$rounds_py" order "$r" "$@") || { log "rounds.py order failed"; return 1; }
	done
	for r in $(seq 1 "$nrounds"); do
		pos=0
		warm_up
		for t in ${orders[r]}; do
			pos=$((pos + 1))
			printf '%s\t%s\t%s\n' "$r" "$pos" "$t" >>"$res/orders.tsv"
			log "round $r: $pos $t${load:+ (load $load)}"
			run_tool "$r" "$t"
		done
		log "round $r done after $((SECONDS - start)) s"
	done
}

mode=${1:-} variant=
case $mode in
rounds)
	[ $# = 8 ] || { log "usage: rounds LEVEL FS ROUNDS SIZE RAM CHUNK SEEKERS"; exit 1; }
	level=$2 fs=$3 nrounds=$4 size=$5 ram=$6 chunk=$7 seekers=$8
	;;
probe)
	[ $# = 4 ] || { log "usage: probe SIZE RAM CHUNK"; exit 1; }
	level=raid0 fs=xfs nrounds=1 size=$2 ram=$3 chunk=$4 seekers=5
	;;
seekers)
	[ $# = 5 ] || { log "usage: seekers LIST SIZE RAM CHUNK"; exit 1; }
	level=raid0 fs=xfs nrounds=1 counts=$2 size=$3 ram=$4 chunk=$5 seekers=$2
	;;
cache)
	[ $# = 6 ] || [ $# = 7 ] || { log "usage: cache ROUNDS SIZE RAM CHUNK LOAD [MODE]"; exit 1; }
	level=raid0 fs=xfs nrounds=$2 size=$3 ram=$4 chunk=$5 load=$6 variant=${7:-} seekers=5
	case $variant in '' | fadvise | drop) ;; *) log "cache: MODE '$variant' is not fadvise or drop"; exit 1 ;; esac
	case $load in '' | *[!0-9]*) log "cache: LOAD '$load' is not a whole number"; exit 1 ;; esac
	;;
*) log "usage: limits-guest.sh rounds|probe|seekers|cache ..."; exit 1 ;;
esac
{
	echo "level=$level fs=$fs rounds=$nrounds size_mib=$size ram_mib=$ram chunk_kib=$chunk seekers=$seekers load=${load:-0}"
	echo "members=$GUEST_MEMBERS"
	echo "limits=$GUEST_LIMITS"
	echo "guest_ram_mib=${GUEST_RAM_MIB:-}"
	echo "kernel=$(uname -r)"
	echo "arraybench=$("$AB" --version 2>&1 | head -1)"
	echo "fio=$(fio --version) fio_block_bs=8k fio_block_cache=behind"
	echo "bonnie=$(dpkg-query -W -f '${Version}' bonnie++ 2>/dev/null)"
} >"$res/setup.txt"
log "building $level $fs over ${members[*]} (limits $GUEST_LIMITS)"
build "$level" "$fs" "$chunk" || { log "cannot build $level $fs: $(tail -3 "$res/mdadm.txt" "$res/mkfs.txt" 2>/dev/null | tr '\n' ' ')"; teardown; exit 3; }
make_cg "$ram"
start=$SECONDS
if [ "$mode" = probe ]; then
	run_ab 1 arraybench --phases block-write,block-read
elif [ "$mode" = seekers ]; then
	# The seekers curve: arraybench's seeks and fio's 8k random read at
	# each count, on one file each, the two in turn (which goes first
	# alternates from count to count).
	k=0
	for c in ${counts//,/ }; do
		k=$((k + 1))
		for t in $(python3 "$rounds_py" order "$k" arraybench fio); do
			log "seekers $c: $t"
			case $t in
			arraybench) run_ab "$c" seeks --phases seeks --seekers "$c" ;;
			fio)
				drop
				in_cg fio --name=randread --directory="$mnt/test" --filename=fio.dat --size="${size}m" \
					--ioengine=psync --fadvise_hint=0 --rw=randread --bs=8k --numjobs="$c" \
					--group_reporting --time_based --runtime=10 --output-format=json \
					--output="$res/fio.randread.$c.json" >"$res/fio.randread.$c.err" 2>&1 ||
					log "seekers $c: fio failed"
				tdir_clear
				;;
			esac
		done
	done
elif [ "$mode" = cache ]; then
	# The default cache defeat against --cache none, busy loops beside.
	hogs=()
	for _ in $(seq 1 "$load"); do
		sh -c 'while :; do :; done' &
		hogs+=($!)
	done
	run_rounds arraybench arraybench-aa arraybench-none ${variant:+arraybench-$variant}
	[ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null
else
	run_rounds arraybench arraybench-aa fio bonnie++
fi
teardown
[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
log "done after $((SECONDS - start)) s"
exit 0
