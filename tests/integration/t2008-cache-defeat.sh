#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The memory cgroup's cache defeat on a disk slower than the writer: a
# loop device of the test's own, its writes throttled to 8 MiB/s by the v1
# blkio controller (a disk with a known limit).  In a v1 memory group the
# kernel's dirty limits are the machine's, so without write-behind the
# group's page cache fills with dirty pages and pages under writeback, and
# the write path's own allocations, which may not wait for writeback, call
# the group's out-of-memory killer.  Checks: with write-behind the group's
# dirty and in-flight pages stay within half its limit (without it, as the
# test-only switch shows, they fill it); the write rates are the disk's
# limit either way (write-behind costs nothing); four runs at once at the
# smallest -r all end well.  Root, a v1 memory hierarchy and v1 blkio only.
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

# Polls the memory group holding the run's workers (children of PID) until
# the run ends: the most its pages were dirty or under writeback, in KiB,
# and whether the group was ever seen.
peak_of() { # pid
	local pid=$1 most=-1 g w v
	while kill -0 "$pid" 2>/dev/null; do
		for g in "$memcg"/arraybench.*/; do
			for w in $(cat "$g/cgroup.procs" 2>/dev/null); do
				[ "$(cut -d' ' -f4 "/proc/$w/stat" 2>/dev/null)" = "$pid" ] || continue
				v=$(awk '$1 == "dirty" { d = $2 } $1 == "writeback" { b = $2 } END { print int((d + b) / 1024) }' \
					"$g/memory.stat" 2>/dev/null)
				[ -n "$v" ] && [ "$v" -gt "$most" ] && most=$v
				break
			done
		done
		sleep 0.02
	done
	echo "$most"
}
rate() { # json phase
	js "$1" "[p for p in o['phases'] if p['name'] == '$2'][0]['rate']"
}
measure() { # label "phase options" [env...]: one run at -r $r_mib, prints the peak
	local label=$1 pid
	local -a what
	read -r -a what <<<"$2"
	shift 2
	env "$@" "$AB" run -d "$T/mnt" -s 32m -r $r_mib --cache cgroup -n 0 "${what[@]}" -q \
		--json "$T/$label.json" >/dev/null 2>"$T/$label.err" &
	pid=$!
	peak_of "$pid" >"$T/$label.peak"
	wait "$pid"
}

measure wb '--phases block-write,rewrite'
st=$?
is $st 0 "a run at -r $r_mib on the throttled disk ends well"
[ $st = 0 ] || sed 's/^/# /' "$T/wb.err"
wb_peak=$(cat "$T/wb.peak")
diag "write-behind: the group's pages dirty or under writeback peaked at $wb_peak KiB of $((r_mib * 1024))"
[ "$wb_peak" -ge 0 ]
ok $? "the workers' memory group was seen while they wrote"
[ "$wb_peak" -ge 0 ] && [ "$wb_peak" -le $((r_mib * 1024 / 2)) ]
ok $? "with write-behind the group's dirty and in-flight pages stay within half its limit ($wb_peak KiB)"
is "$(js "$T/wb.json" "o['cache']['description']")" \
	"cgroup-v1 limit ${r_mib}M write-behind" "the run records that its writers wrote behind"

measure nowb '--phases block-write,rewrite' ARRAYBENCH_TEST_NO_WRITE_BEHIND=1
nowb_status=$?
nowb_peak=$(cat "$T/nowb.peak")
diag "without write-behind (exit $nowb_status): the peak was $nowb_peak KiB"
[ "$nowb_peak" -gt $((r_mib * 1024 / 2)) ]
ok $? "without it (the test-only switch) they fill the group ($nowb_peak KiB): the bound above can fail"

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
wal_peak=$(cat "$T/walwb.peak")
[ "$wal_peak" -ge 0 ] && [ "$wal_peak" -le $((r_mib * 1024 / 2)) ]
ok $? "oltp+wal: the logs' lay-out keeps the group's dirty and in-flight pages within half its limit ($wal_peak KiB)"
measure walnowb '--phases oltp+wal --oltp-procs 1 --oltp-seconds 1' ARRAYBENCH_TEST_NO_WRITE_BEHIND=1
wal_nowb=$(cat "$T/walnowb.peak")
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
