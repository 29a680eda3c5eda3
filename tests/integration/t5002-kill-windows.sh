#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kill -9 at every step of a run on a built target, each window held open by
# lib.sh's hold (strace's delay_exit on the one syscall that makes the
# object, aimed with -P at its path, which the forced run id makes known in
# advance; calls made relative to a directory descriptor name it as they
# pass it).  The window counts only if strace's log shows the call held
# ("(DELAYED)"), so a call that no longer matches cannot pass unnoticed.
# Then `arraybench cleanup` must leave nothing: no journal, image, loop
# device, mount point, mount, test file, test directory or cgroup.
# Root only; strace is the means, so without it the checks fail.
. "$(dirname "$0")/lib.sh"
windows=(
	"openat|.journal-RID|1|-e STATE/.journal-RID|the hidden journal is created"
	"linkat|journal-RID|1|-e STATE/journal-RID|the journal gets its name"
	"openat|IMG|1|-e IMG|the image is created, empty"
	"close|IMG|1|-s IMG|the image is sized"
	"close|IMG|2|-n \"\$(losetup -j IMG)\"|the image is attached to a loop device"
	"mkdirat|arraybench-mnt.RID|1|-d MNT|the mount point is made"
	"openat|MNT|1|-n \"\$(grep -F ' MNT ' /proc/self/mounts)\"|the file system is mounted"
	"mkdirat|arraybench.RID|1|-d MNT/arraybench.RID|the test directory is made"
	"mkdir|CGROUP|1|-d CGROUP|the memory cgroup is made"
	"openat|arraybench.RID.io|1|-e MNT/arraybench.RID.io|a worker creates the I/O file"
	"mkdirat|files|1|-d MNT/arraybench.RID/files|a worker makes the file-phase directory"
)
is_root && [ -e /dev/loop-control ] || skip_rest "needs root and loop devices"
command -v strace >/dev/null || diag "strace is missing: every window check fails"
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
tmp=$(realpath "$TMPDIR")
cgroot=$(memcg_root) || cgroot=/sys/fs/cgroup/memory # the windows' checks then fail

left_behind() { # everything a run with id $1 could leave
	{
		ls -A "$TMPDIR" "$ARRAYBENCH_STATE_DIR" 2>/dev/null | grep -v ':$' | grep .
		loops "$tmp/"
		mounts "$tmp/"
		memcg_root >/dev/null && ls -d "$cgroot/arraybench.$1" 2>/dev/null
	} | tr '\n' ' '
}

i=0
for w in "${windows[@]}"; do
	i=$((i + 1))
	IFS='|' read -r call path when test what <<<"$w"
	rid=kill-$i-$$
	sub() { # the window's placeholders, for this run id
		local s=$1
		s=${s//STATE/$ARRAYBENCH_STATE_DIR}; s=${s//IMG/$tmp/arraybench-$rid-0.img}
		s=${s//MNT/$tmp/arraybench-mnt.$rid}; s=${s//CGROUP/$cgroot/arraybench.$rid}; s=${s//RID/$rid}
		echo "$s"
	}
	path=$(sub "$path"); test=$(sub "$test")
	ARRAYBENCH_RUN_ID=$rid hold -f "$T/trace" exit "$call" "$when" "$path" \
		"$AB" run --loop 1:300m --fs ext4 -s 32m -r 16 --cache cgroup -n 1 -f -q >/dev/null 2>"$T/err"
	hold_reached && eval "[ $test ]"
	reached=$?
	kill9 "$held" # and its workers, held or not
	ok $reached "window $i: killed right after $what"
	[ -n "$(left_behind "$rid")" ]; ok $? "window $i: the kill left something for cleanup"
	# A hidden journal without a header (window 1) is taken for a starting
	# run's for a minute: let the minute pass.
	find "$ARRAYBENCH_STATE_DIR" -name '.journal-*' -exec touch -d '2 minutes ago' {} +
	"$AB" cleanup >"$T/cleanup" 2>&1
	is $? 0 "window $i: arraybench cleanup exits 0"
	is "$(left_behind "$rid")" "" "window $i: after cleanup nothing is left"
	[ -n "$(left_behind "$rid")" ] && sed 's/^/#   /' "$T/cleanup"
	# Clear the way for the next window whatever happened.
	for d in $(losetup -a | grep -F "$tmp/" | cut -d: -f1); do umount "$d" 2>/dev/null; done
	grep -F "$tmp/" /proc/self/mounts | cut -d' ' -f2 | xargs -r umount 2>/dev/null
	for d in $(losetup -a | grep -F "$tmp/" | cut -d: -f1); do losetup -d "$d"; done
	rmdir "$cgroot/arraybench.$rid" 2>/dev/null
	rm -rf "${TMPDIR:?}"/* "$ARRAYBENCH_STATE_DIR"/* "$ARRAYBENCH_STATE_DIR"/.journal-* 2>/dev/null
done

# kill -9 while mkfs runs: the tool dies with arraybench rather than go on
# writing while cleanup undoes the run.  mkfs is held after its execve;
# arraybench is killed, then mkfs let go, and the image shows whether mkfs
# went on to write a file system.
mkfs=$(command -v mkfs.ext4)
rid=mkfs-$$
img=$tmp/arraybench-$rid-0.img
ARRAYBENCH_RUN_ID=$rid hold -f "$T/trace" exit execve 1 "$mkfs" \
	"$AB" run --loop 1:300m --fs ext4 -s 32m -r 16 --cache cgroup -n 1 -f -q >/dev/null 2>"$T/err"
child=
hold_reached && child=$(hold_pid) && [ "$(cat "/proc/$child/comm")" = mkfs.ext4 ]
ok $? "mkfs.ext4 was started and held"
kill9 "$held" # then lets mkfs go: it goes on, or dies with arraybench
need blkid
is "$(blkid -p -s TYPE -o value "$img" 2>/dev/null)" "" "mkfs died with arraybench: no file system was written"
"$AB" cleanup >"$T/cleanup" 2>&1
is "$(left_behind "$rid")" "" "cleanup after a kill during mkfs leaves nothing"
done_testing
