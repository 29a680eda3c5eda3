#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The memory cgroup's cache defeat on a disk slower than the writer: a
# loop device of the test's own, its writes throttled to 8 MiB/s by the v1
# blkio controller (a disk with a known limit).  In a v1 memory group the
# kernel's dirty limits are the machine's, so without write-behind the
# group's page cache fills with dirty pages and pages under writeback, and
# the write path's own allocations, which may not wait for writeback, call
# the group's out-of-memory killer.  The one-pass phases (block write,
# rewrite) run outside the group and write behind there too, with the
# window they would have in it.  Checks: they never join the group, and
# their dirty and in-flight pages (in a group of the test's own around the
# run, with no limit) stay within half of -r, where without write-behind
# (the test-only switch) the machine's dirty limits let the whole file be
# dirty; the write rates are the disk's limit either way (write-behind
# costs nothing); oltp+wal's log lay-out, in the group, keeps the group's
# dirty and in-flight pages within half its limit, and fills it without
# write-behind; four runs at once at the smallest -r all end well.  Root, a
# v1 memory hierarchy and v1 blkio only.
. "$(dirname "$0")/lib.sh"
is_root && [ -e /dev/loop-control ] || skip_all "needs root and loop devices"
memcg=/sys/fs/cgroup/memory
throttle=/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device
[ -w "$memcg/cgroup.procs" ] || skip_all "no writable v1 memory hierarchy at $memcg (write-behind is for v1 groups only)"
[ -w "$throttle" ] || skip_all "no v1 blkio throttling at $throttle to give the disk a known limit"
need losetup mkfs.ext4 python3 || { ok 1 "the tools this test needs"; done_testing; exit; }
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
limit_kib=8192 r_mib=16

make_loop_fs "$T/mnt" 512 || { ok 1 "a loop device with ext4 of the test's own"; done_testing; exit; }
dev=$(findmnt -n -o SOURCE "$T/mnt")
majmin=$(lsblk -n -d -o MAJ:MIN "$dev" | tr -d ' ')
echo "$majmin $((limit_kib * 1024))" >"$throttle"
cleanup_add "echo '$majmin 0' >$throttle"
grep -q "^$majmin $((limit_kib * 1024))\$" "$throttle"
ok $? "$dev's writes are throttled to $limit_kib KiB/s"

# The pages of group G dirty or under writeback, in KiB.
dirty_of() { awk '$1 == "dirty" { d = $2 } $1 == "writeback" { b = $2 } END { print int((d + b) / 1024) }' \
	"$1/memory.stat" 2>/dev/null; }
# Polls until the run PID ends: the most the pages of the memory group
# holding its workers (arraybench's, children of PID in it) were dirty or
# under writeback, in KiB (-1: no worker was ever seen in it), and the most
# those of OUTER (a group of the test's own that the run started in) were.
peak_of() { # pid outer
	local pid=$1 outer=$2 most=-1 omost=-1 g w v
	while kill -0 "$pid" 2>/dev/null; do
		for g in "$memcg"/arraybench.*/; do
			for w in $(cat "$g/cgroup.procs" 2>/dev/null); do
				[ "$(cut -d' ' -f4 "/proc/$w/stat" 2>/dev/null)" = "$pid" ] || continue
				v=$(dirty_of "$g")
				[ -n "$v" ] && [ "$v" -gt "$most" ] && most=$v
				break
			done
		done
		v=$(dirty_of "$outer")
		[ -n "$v" ] && [ "$v" -gt "$omost" ] && omost=$v
		sleep 0.02
	done
	echo "$most $omost"
}
rate() { # json phase
	js "$1" "[p for p in o['phases'] if p['name'] == '$2'][0]['rate']"
}
# Each run starts in a v1 memory group of the test's own with no limit, so
# that what its workers outside arraybench's group dirty is counted there
# and nowhere else (the machine's own figures hold other jobs' pages).
outer=$memcg/ab-t2008.$$
mkdir "$outer" && cleanup_add "rmdir $outer"
[ -w "$outer/cgroup.procs" ]
ok $? "a memory group of the test's own around each run ($outer)"
measure() { # label "phase options" [env...]: one run at -r $r_mib; LABEL.peak: "group outer"
	local label=$1 pid
	local -a what
	read -r -a what <<<"$2"
	shift 2
	(echo $BASHPID >"$outer/cgroup.procs" && exec env "$@" "$AB" run -d "$T/mnt" -s 32m -r $r_mib --cache cgroup \
		-n 0 "${what[@]}" -q --json "$T/$label.json" >/dev/null 2>"$T/$label.err") &
	pid=$!
	peak_of "$pid" "$outer" >"$T/$label.peak"
	wait "$pid"
}

measure wb '--phases block-write,rewrite'
st=$?
is $st 0 "a run at -r $r_mib on the throttled disk ends well"
[ $st = 0 ] || sed 's/^/# /' "$T/wb.err"
read -r wb_group wb_peak <"$T/wb.peak"
diag "write-behind: the one-pass writers' pages dirty or under writeback peaked at $wb_peak KiB (-r $((r_mib * 1024)) KiB)"
is "$wb_group" -1 "block write and rewrite, one pass each, never join arraybench's memory group"
[ "$wb_peak" -ge 0 ]
ok $? "the test's own group was read while they wrote"
[ "$wb_peak" -ge 0 ] && [ "$wb_peak" -le $((r_mib * 1024 / 2)) ]
ok $? "with write-behind their dirty and in-flight pages stay within half of -r ($wb_peak KiB)"
is "$(js "$T/wb.json" "[p['cache_mode'].endswith('outside the group, writing behind') for p in o['phases']]")" \
	"[true, true]" "each phase records that it wrote behind, outside the group"

measure nowb '--phases block-write,rewrite' ARRAYBENCH_TEST_NO_WRITE_BEHIND=1
nowb_status=$?
read -r _ nowb_peak <"$T/nowb.peak"
diag "without write-behind (exit $nowb_status): the peak was $nowb_peak KiB"
[ "$nowb_peak" -gt $((r_mib * 1024 / 2)) ]
ok $? "without it (the test-only switch) the machine's dirty limits let more be dirty ($nowb_peak KiB): the bound above can fail"

if [ "$nowb_status" = 0 ]; then
	for p in block-write rewrite; do
		a=$(rate "$T/wb.json" $p) b=$(rate "$T/nowb.json" $p)
		diag "$p: $a KiB/s with write-behind, $b without, the disk's limit $limit_kib"
		python3 -c "import sys; sys.exit(not (0.8 * $limit_kib <= $a <= 1.05 * $limit_kib))"
		ok $? "$p with write-behind writes at the disk's limit ($a KiB/s of $limit_kib)"
		python3 -c "import sys; sys.exit(not ($a >= 0.9 * $b))"
		ok $? "$p: write-behind costs nothing ($a KiB/s against $b without it)"
	done
else
	# The out-of-memory killer struck the run without write-behind: what
	# the write-behind is there for, but no rate to compare with.
	skip "no rates to compare: the run without write-behind failed (exit $nowb_status)"
	skip "no rates to compare: the run without write-behind failed (exit $nowb_status)"
	skip "no rates to compare: the run without write-behind failed (exit $nowb_status)"
	skip "no rates to compare: the run without write-behind failed (exit $nowb_status)"
fi

# oltp+wal's committers lay out their 16 MiB logs inside the group, as
# large as the whole group: those writes go behind too.
measure walwb '--phases oltp+wal --oltp-procs 1 --oltp-seconds 1'
st=$?
is $st 0 "oltp+wal at -r $r_mib on the throttled disk ends well"
[ $st = 0 ] || sed 's/^/# /' "$T/walwb.err"
read -r wal_peak _ <"$T/walwb.peak"
[ "$wal_peak" -ge 0 ] && [ "$wal_peak" -le $((r_mib * 1024 / 2)) ]
ok $? "oltp+wal: the logs' lay-out keeps the group's dirty and in-flight pages within half its limit ($wal_peak KiB)"
is "$(js "$T/walwb.json" "o['cache']['description']")" \
	"cgroup-v1 limit ${r_mib}M write-behind" "the run records that its writers in the group wrote behind"
measure walnowb '--phases oltp+wal --oltp-procs 1 --oltp-seconds 1' ARRAYBENCH_TEST_NO_WRITE_BEHIND=1
read -r wal_nowb _ <"$T/walnowb.peak"
[ "$wal_nowb" -gt $((r_mib * 1024 / 2)) ]
ok $? "oltp+wal without it (the test-only switch) fills the group ($wal_nowb KiB): the bound above can fail"

# Four runs at once at the smallest -r, each its own group, sharing the
# slow disk: every one ends well, none meets the out-of-memory killer.
pids=()
for k in 1 2 3 4; do
	mkdir -p "$T/mnt/$k"
	"$AB" run -d "$T/mnt/$k" -s 32m -r $r_mib --cache cgroup -n 0 --phases block-write,rewrite,block-read -q \
		>/dev/null 2>"$T/four.$k.err" &
	pids+=($!)
done
failed=0
for k in 1 2 3 4; do
	wait "${pids[k - 1]}" || { failed=$((failed + 1)); sed 's/^/# /' "$T/four.$k.err"; }
done
is "$failed" 0 "four runs at once at -r $r_mib on the throttled disk all end well"
! grep -q "out-of-memory" "$T"/four.*.err
ok $? "none met the memory group's out-of-memory killer"
done_testing
