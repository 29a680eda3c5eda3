#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT in the middle of each phase: the phase's workers stop within 2 s,
# the run exits 130 and leaves nothing behind.  (The 2 s are for the phase
# to stop, which takes CPU only; removing its files takes I/O, which a disk
# shared with other jobs makes as slow as it likes.)
. "$(dirname "$0")/lib.sh"
read -r -a cache <<<"$(cache_args)"

# The file phases run on a fresh ext4 as root: a file system mounted with
# discard can take seconds to remove the 1024 stat files after the kill.  With
# direct I/O on the loop device, fsync and cold reads reach the disk.
files_top=$T
if is_root; then
	make_loop_fs "$T/fs" 1400 && losetup --direct-io=on "$(losetup -j "$T/fs.img" | cut -d: -f1)"
	ok $? "the file phases get a fresh ext4 on a loop device with direct I/O"
	files_top=$T/fs
else
	skip "a fresh ext4 for the file phases needs root"
fi

# Sizes that keep each phase busy for seconds, with little untimed preparation
# and little to remove after the kill.  Per-char: one-byte calls.  Block and
# seeks: O_DIRECT 4k transfers, so no dirty page cache to wait for.  Create:
# two fsyncs per file.  Stat: 1024 1m files read 256 bytes at a time (few
# files, so quick to remove).  Delete: an fsync per unlink, on hard links,
# which cost about as much to make untimed.
args_for() {
	case $1 in
	per-char-write | per-char-read) echo "-s 64m -f64 -n 0" ;;
	block-write) echo "-s 512m:4k -f -n 0 --direct" ;;
	rewrite | block-read) echo "-s 256m:4k -f -n 0 --direct" ;;
	seeks) echo "-s 64m:4k -f -n 0 --direct --seeks 2000000" ;;
	seq-create | rand-create) echo "-s 0 -n 64 -b" ;;
	seq-stat | rand-stat) echo "-s 0 -n 1:1m:1m:1:256" ;;
	seq-delete | rand-delete) echo "-s 0 -n 8:-1 -b" ;;
	esac
}

now_us() { echo "${EPOCHREALTIME/./}"; }
# A worker of the run has had CPU time (a tick, 10 ms): the phase's loop is
# under way.  A state, not a moment: each phase is sized to last seconds.
worker_ran() { # pid
	local c
	for c in $(procs -P "$1"); do
		[ "$(sed -n 's/^.*) \(.*\)/\1/p' "/proc/$c/stat" 2>/dev/null | awk '{print $12 + $13}')" -gt 0 ] 2>/dev/null && return 0
	done
	return 1
}

for p in per-char-write block-write rewrite per-char-read block-read seeks seq-create seq-stat \
	seq-delete rand-create rand-stat rand-delete; do
	case $p in *-create | *-stat | *-delete) d=$files_top/int-$p ;; *) d=$T/int-$p ;; esac
	mkdir "$d"
	read -r -a a <<<"$(args_for "$p")"
	: >"$T/err"
	sync -f "$d" # the last round's write-back and discards must not slow this one's cleanup
	"$AB" run -d "$d" "${a[@]}" "${cache[@]}" --phases "$p" >"$T/out" 2>"$T/err" &
	pid=$!
	# The progress line comes once the untimed preparation is done; then
	# the signal comes once a worker has run.
	await "grep -qF \"arraybench: phase '$p'...\" '$T/err' || ended $pid"
	grep -qF "arraybench: phase '$p'..." "$T/err"; ok $? "$p: the phase started (its progress line)"
	await "worker_ran $pid || ended $pid"
	grep -q "phase '$p'\.\.\. done" "$T/err" || ! worker_ran "$pid"; is $? 1 "$p: the signal comes while the phase runs"
	t0=$(now_us)
	kill -INT "$pid"
	await "[ -z \"\$(procs -P $pid)\" ]" 5
	stopped=$(($(now_us) - t0))
	await "ended $pid" "$HANG_AFTER"
	took=$(($(now_us) - t0))
	if ! ended "$pid"; then
		diag "$p: still running $((took / 1000)) ms after SIGINT; killing it"
		kill9 "$pid"
		rmdir /sys/fs/cgroup/memory/arraybench.*-"$pid"-* /sys/fs/cgroup/arraybench.*-"$pid"-* 2>/dev/null
	fi
	wait "$pid"
	is $? 130 "$p: SIGINT mid-phase exits 130"
	[ "$stopped" -lt 2000000 ]
	ok $? "$p: its workers were gone $((stopped / 1000)) ms after SIGINT (under 2 s; the run exited after $((took / 1000)) ms)"
	tail -1 "$T/err" | grep -qxF "arraybench: error: interrupted during phase '$p'"
	ok $? "$p: the last stderr line says the phase was interrupted"
	dir_is_empty "$d"; ok $? "$p: nothing is left in DIR"
	left=$(pgrep -f -- "-d $d ")
	is "$left" "" "$p: no worker process is left"
	is "$(ls -d /sys/fs/cgroup/memory/arraybench.*-"$pid"-* /sys/fs/cgroup/arraybench.*-"$pid"-* 2>/dev/null)" "" \
		"$p: no memory cgroup of run pid $pid is left"
	is "$(head -c 300 "$T/out")" "" "$p: nothing on stdout (no partial result)"
	dir_is_empty "$d" || diag "$p: left: $(ls -A "$d" | head -3 | tr '\n' ' ')"
	tail -1 "$T/err" | grep -q "interrupted during phase '$p'" || diag "$p: stderr: $(tail -3 "$T/err")"
	[ -n "$left" ] && kill -KILL $left
	rm -rf "$d"
done
done_testing
