#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Built targets on loop images: file systems, btrfs arrays, dry run, safety
# refusals, teardown on success, SIGINT, kill -9 + cleanup.  Root only.
. "$(dirname "$0")/lib.sh"
is_root && [ -e /dev/loop-control ] || skip_all "built targets need root and loop devices"
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
small="-s 32m -r 16 --cache cgroup -n 1 -f -q"

left_behind() { # what of ours is still attached, mounted, on disk or journaled
	{ loops "$T/"; mounts "$T/"; ls -A "$TMPDIR"; ls -A "$ARRAYBENCH_STATE_DIR" 2>/dev/null; } | tr '\n' ' '
}

# --dry-run prints the plan and touches nothing.
"$AB" run --loop 4:256m --array raid10 --fs btrfs $small --dry-run >"$T/plan" 2>&1
is $? 0 "--dry-run exits 0"
grep -q 'mkfs.btrfs -f -q -K -d raid10 -m raid10 LOOP0 LOOP1 LOOP2 LOOP3' "$T/plan"; ok $? "the plan shows mkfs.btrfs on the four members"
grep -q 'undo: umount MOUNT_DIR' "$T/plan"; ok $? "the plan shows each undo"
is "$(left_behind)" "" "--dry-run leaves nothing"

for fs in ext4 ext3 xfs btrfs; do
	"$AB" run --loop 1:320m --fs "$fs" --mount-opts noatime $small --json "$T/$fs.json" >"$T/$fs.csv" 2>"$T/$fs.err"
	is $? 0 "$fs on one loop image exits 0"
	is "$(cut -d, -f3 "$T/$fs.csv")" "$fs-noatime" "the CSV name field is the target label"
	is "$(python3 -c "import json;t=json.load(open('$T/$fs.json'))['target'];print(t['backend'],t['fs'],'noatime' in t['mount_options_effective'])")" \
		"device $fs True" "JSON records the target and the options in effect"
	is "$(left_behind)" "" "$fs: everything is torn down"
done

for level in raid1 raid10; do
	"$AB" run --loop 4:256m --array $level --fs btrfs $small --json "$T/$level.json" >"$T/$level.csv" 2>"$T/$level.err"
	is $? 0 "btrfs $level on four loop images exits 0"
	is "$(python3 -c "import json;t=json.load(open('$T/$level.json'))['target'];print(t['backend'],t['level'],len(t['members']))")" \
		"btrfs $level 4" "JSON records backend, level and four members"
	is "$(python3 -c "
import json
p = [p for p in json.load(open('$T/$level.json'))['phases'] if p['name'] == 'block-write'][0]
print(len(p['devices']), sum(d['written_bytes'] for d in p['devices']) >= 32 << 20)")" "4 True" \
		"block-write records per-member I/O: all four members, at least the file size written"
	is "$(python3 -c "
import json
q = json.load(open('$T/$level.json'))['target']['queues']
print(len(q), all(x['logical_block_size'] > 0 and x['scheduler'] for x in q))")" "4 True" \
		"JSON records each member's queue settings"
	is "$(left_behind)" "" "btrfs $level: everything is torn down"
done

# --cache remount: the file system is mounted afresh before each phase, so
# block-read reads the whole file from the device.
# (stat stays warm only if no other job drops the cache meanwhile: run again if one does)
warm_run '"$AB" run --loop 1:320m --fs ext4 $small -r 0 --cache remount --json "$T/rm.json" >/dev/null 2>"$T/rm.err"' "$T/rm.json"
is $? 0 "--cache remount on a built ext4 exits 0"
is "$(python3 -c "
import json
o = json.load(open('$T/rm.json'))
p = [p for p in o['phases'] if p['name'] == 'block-read'][0]
print(o['cache']['mode'], p['devices'][0]['read_bytes'] >= 32 << 20)")" "remount True" \
	"block-read after a remount reads the whole file from the device"
# Only the phases bonnie++ reads from disk are remounted: stat stays warm
# (nothing read from the device), unless --cold-metadata.
"$AB" run --loop 1:320m --fs ext4 $small -r 0 --cache remount --cold-metadata --json "$T/rmc.json" >/dev/null 2>"$T/rmc.err"
is $? 0 "--cache remount --cold-metadata exits 0"
stat_reads() { python3 -c "
import json
o = json.load(open('$1'))
p = {p['name']: p for p in o['phases']}
print(p['rewrite']['cache_state'], p['block-read']['cache_state'], p['seq-stat']['cache_state'],
      p['seq-stat']['devices'][0]['read_bytes'] > 0)"; }
is "$(stat_reads "$T/rm.json")" "cold cold warm False" "remount: rewrite and block-read cold; seq-stat warm, reads no inode"
is "$(stat_reads "$T/rmc.json")" "cold cold cold True" "remount --cold-metadata: seq-stat reads its inodes from the device"
# Under the cgroup too: a drop would leave ext4's fresh metadata pinned by
# its journal, so a built target is remounted before stat and delete.
"$AB" run --loop 1:320m --fs ext4 $small --cold-metadata --json "$T/cgm.json" >/dev/null 2>"$T/cgm.err"
is $? 0 "--cache cgroup --cold-metadata on a built ext4 exits 0"
is "$(stat_reads "$T/cgm.json")" "cold cold cold True" "cgroup --cold-metadata: seq-stat reads its inodes from the device"
# --cache none evicts nothing, not even after the untimed layout: the
# block read that follows is warm and reads (almost) nothing from the device.
warm_run '"$AB" run --loop 1:320m --fs ext4 $small -r 0 --cache none --phases block-read --json "$T/none.json" >/dev/null 2>&1' \
	"$T/none.json"
is "$(python3 -c "
import json
p = json.load(open('$T/none.json'))['phases'][0]
print(p['cache_state'], p['laid_out_untimed'], p['devices'][0]['read_bytes'] < 4 << 20)")" "warm True True" \
	"--cache none: block-read after the layout is warm, as it says"
"$AB" run -d "$T" --cache remount -s 32m -r 16 >/dev/null 2>"$T/rmd.err"
is $? 1 "--cache remount with -d is bad input"

# mdadm where the kernel has no md: a clear error, and the images go.
if [ ! -e /proc/mdstat ]; then
	"$AB" run --loop 4:256m --array raid10 --fs xfs --backend mdadm $small >/dev/null 2>"$T/md.err"
	is $? 3 "an mdadm array on a kernel without md exits 3"
	grep -q 'md RAID is not in this kernel.*--backend btrfs' "$T/md.err"; ok $? "and names the ways forward"
else
	"$AB" run --loop 4:256m --array raid10 --fs xfs --backend mdadm $small >/dev/null 2>"$T/md.err"
	is $? 0 "an mdadm raid10 on loop images exits 0"; ok 0 "(md is in this kernel)"
fi
is "$(left_behind)" "" "mdadm attempt: nothing left"

# Safety: a device of our own with an ext4 signature, then mounted.
truncate -s 64m "$T/victim.img"; mkfs.ext4 -q -F "$T/victim.img"
dev=$(losetup --find --show "$T/victim.img"); cleanup_add "losetup -d $dev"
"$AB" run --device "$dev" --fs ext4 $small >/dev/null 2>"$T/sig.err"
is $? 4 "a device with an ext4 signature is refused with exit 4"
grep -q "refusing '$dev': it holds an ext4 file system" "$T/sig.err"; ok $? "naming the device and the reason"
"$AB" run --device "$dev" --fs ext4 --yes-destroy "$dev" $small >/dev/null 2>"$T/yes.err"
is $? 0 "--yes-destroy naming it lets it through"
mkdir "$T/m"; mount "$dev" "$T/m"; cleanup_add "umount $T/m"
"$AB" run --device "$dev" --fs ext4 --yes-destroy "$dev" $small --dry-run >/dev/null 2>"$T/mnt.err"
is $? 4 "a mounted device is refused even when confirmed"
grep -q "refusing '$dev': it is mounted at '$T/m'" "$T/mnt.err"; ok $? "naming where it is mounted"
umount "$T/m"
root_src=
# findmnt exits 1 when / is no mount point of this root (a chroot's).
if need findmnt; then root_src=$(findmnt -n -o SOURCE /) || [ $? = 1 ] || unseen "findmnt -n -o SOURCE / failed"; fi
if [ -b "$root_src" ]; then
	"$AB" run --device "$root_src" --fs ext4 --yes-destroy "$root_src" $small --dry-run >/dev/null 2>"$T/root.err"
	is $? 4 "the device behind / is refused (dry run)"
	grep -q "backs the root file system\|is mounted at '/'" "$T/root.err"; ok $? "saying it backs /"
else
	skip "/ is not on a block device here"; skip "/ is not on a block device here"
fi
losetup -d "$dev"
"$AB" run --device "$T/victim.img" --fs ext4 $small >/dev/null 2>"$T/nb.err"
is $? 1 "a regular file as --device is bad input (exit 1)"
"$AB" run --loop 1:320m --fs zfs $small >/dev/null 2>"$T/fs.err"
is $? 1 "--fs zfs is bad input"
is "$(left_behind)" "" "refusals leave nothing"

# Images on tmpfs would make the array RAM: refused unless asked for; the
# default directory is $TMPDIR, else /var/tmp (not /tmp).
mkdir "$T/ram"; mount -t tmpfs -o size=64m tmpfs "$T/ram"; cleanup_add "umount $T/ram"
"$AB" run --loop "1:320m:$T/ram" --fs ext4 $small --dry-run >/dev/null 2>"$T/ram.err"
is "$? $(cat "$T/ram.err")" "1 arraybench: error: refusing --loop directory '$T/ram': it is on tmpfs, so the array would be RAM, not disks; give a directory on a disk (--loop N:SIZE:DIR) or --images-in-ram" \
	"--loop on tmpfs is refused in one line naming the directory"
"$AB" run --loop "1:320m:$T/ram" --images-in-ram --fs ext4 $small --dry-run >/dev/null 2>&1
is $? 0 "--images-in-ram lets the plan use tmpfs"
env -u TMPDIR "$AB" run --loop 1:320m --fs ext4 $small --dry-run 2>&1 | grep -q " /var/tmp/arraybench-.*\.img"
ok $? "without TMPDIR the images go to /var/tmp"
umount "$T/ram"
mkdir "$T/ramfs"; mount -t ramfs ramfs "$T/ramfs"
"$AB" run --loop "1:320m:$T/ramfs" --images-in-ram --fs ext4 $small --dry-run >/dev/null 2>"$T/ramfs.err"
is "$? $(grep -c "it is on ramfs, which cannot hold loop images" "$T/ramfs.err")" "1 1" "ramfs is refused even with --images-in-ram"
umount "$T/ramfs"

# A run on a built btrfs raid1, in its phase; sets $pid.  200 MiB of
# one-byte writes last minutes: once the phase is said to run, it runs
# when the test acts, however loaded the machine.
start_slow_run() { # stderr-file
	: >"$1" # before the fork: a reused file's old line is no sign of this run
	"$AB" run --loop 2:256m --array raid1 --fs btrfs -s 64m -r 16 --cache cgroup -n 0 -f200 \
		--phases per-char-write >/dev/null 2>"$1" &
	pid=$!
	await "grep -q \"phase 'per-char-write'\" '$1' || ended $pid" && grep -q "phase 'per-char-write'" "$1" ||
		unseen "the run never started per-char-write: $(tail -2 "$1" | tr '\n' ' ')"
}

# SIGINT mid-phase on a built target: exit 130, all torn down.
start_slow_run "$T/int.err"
kill -INT $pid; wait $pid
is $? 130 "SIGINT on a built target exits 130"
is "$(left_behind)" "" "SIGINT: everything is torn down"

# SIGINT while the target is being built: held as the first image is
# created, signalled, then let go.
rid=setup-$$
ARRAYBENCH_RUN_ID=$rid hold "$T/setup.trace" exit openat 1 "$(realpath "$TMPDIR")/arraybench-$rid-0.img" \
	"$AB" run --loop 4:256m --array raid10 --fs btrfs $small >/dev/null 2>"$T/setup.err"
hold_reached && kill -INT $held
hold_release
wait $held
is $? 130 "SIGINT during set-up exits 130"
grep -q "phase '" "$T/setup.err"; is $? 1 "the signal came during set-up (no phase had started)"
is "$(left_behind)" "" "SIGINT during set-up: everything is torn down"

# kill -9: the journal stays, and cleanup finishes the job.
start_slow_run "$T/k9.err"
kill9 $pid
[ -n "$(left_behind)" ]; ok $? "kill -9 leaves the target behind (as expected)"
cgroups() {
	memcg_root >/dev/null && ls -d /sys/fs/cgroup/memory/arraybench.*-"$1"-* /sys/fs/cgroup/arraybench.*-"$1"-* 2>/dev/null
}
[ -n "$(cgroups $pid)" ]; ok $? "and its memory cgroup"
ls "$ARRAYBENCH_STATE_DIR"/journal-*-$pid-* >/dev/null 2>&1; ok $? "with its journal, named by its run id"
"$AB" cleanup >"$T/cleanup.out" 2>&1
is $? 0 "arraybench cleanup exits 0"
grep -q "undone: umount" "$T/cleanup.out" && grep -q "undone: loop-detach" "$T/cleanup.out" &&
	grep -q "undone: unlink" "$T/cleanup.out"; ok $? "and reports what it undid"
is "$(left_behind)" "" "after cleanup nothing is left"
is "$(cgroups $pid)" "" "not even the memory cgroup"
"$AB" cleanup >"$T/cleanup2.out" 2>&1
grep -q "nothing to undo" "$T/cleanup2.out"; ok $? "a second cleanup has nothing to undo"
done_testing
