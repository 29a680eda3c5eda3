#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Undo entries name objects, not numbers: cleanup after kill -9 leaves a
# loop device that a later attach reused, finds images given by a relative
# --loop directory from anywhere, treats a journal whose pid now belongs to
# another process as dead, and removes a -d run's test files; names that
# exist already (a planted test directory, files named like an old run's)
# are never touched.  Root only.
. "$(dirname "$0")/lib.sh"
is_root && [ -e /dev/loop-control ] || skip_all "needs root and loop devices"
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
tmp=$(realpath "$TMPDIR")

# Start a run and wait until it is in per-char-write; sets $pid.  Extra
# arguments go to arraybench.  Its 200 MiB of one-byte writes last minutes,
# so once the phase's line is there the run is in the phase when the test
# kills it, however loaded the machine: a state to wait for, not a moment.
start_slow_run() { # stderr-file args...
	local err=$1; shift
	# Emptied here, before the fork: the run's own redirection empties it
	# only once its process is under way, and until then in_phase could
	# read an earlier run's line from a reused file and take the new run
	# for one in its phase (seen twice under load: checks 38 and 59).
	: >"$err"
	"$AB" run "$@" -s 64m -r 16 --cache cgroup -n 0 -f200 --phases per-char-write >/dev/null 2>"$err" &
	pid=$!
	in_phase "$err" per-char-write
}
in_phase() { # stderr-file phase: wait until the run ($pid) says it started PHASE
	await "grep -q \"phase '$2'\" '$1' || ended $pid" && grep -q "phase '$2'" "$1" && return 0
	unseen "the run never started $2: $(tail -2 "$1" | tr '\n' ' ')"
}
files_made() { # dir: a -d run in DIR has made files in its file-phase directory
	[ -n "$(find "$1"/arraybench.*-*-*/files -mindepth 1 -print -quit 2>/dev/null)" ]
}

# 1. A loop number reused by an unrelated attach after the run died.
start_slow_run "$T/a.err" --loop 1:256m --fs ext4
kill9 "$pid"
loop=$(losetup -j "$tmp"/arraybench-*-0.img | cut -d: -f1)
[ -n "$loop" ]; ok $? "the killed run left its image on a loop device ($loop)"
umount "$tmp"/arraybench-mnt.* && losetup -d "$loop" # as someone else might
truncate -s 16m "$T/other.img"
losetup "$loop" "$T/other.img" && other=$loop && cleanup_add "losetup -d $other"
is "$(losetup -n -O BACK-FILE "$loop")" "$T/other.img" "an unrelated image now sits on the same loop device"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 0 "cleanup exits 0"
is "$(losetup -n -O BACK-FILE "$other")" "$T/other.img" "cleanup left the unrelated image attached"
is "$(ls -A "$TMPDIR" "$ARRAYBENCH_STATE_DIR" | grep -c arraybench)" 0 "and removed the run's image, mount point and journal"
losetup -d "$other"

# 2. A relative --loop directory, cleanup from elsewhere.
mkdir "$T/images" "$T/elsewhere"
(cd "$T/images" && start_slow_run "$T/b.err" --loop 2:256m:. --array raid1 --fs btrfs && kill9 "$pid")
is "$(ls "$T/images" | grep -c '\.img$')" 2 "the killed run left two images in the relative directory"
touch "$T/elsewhere/$(ls "$T/images" | head -1)" # a file by the same name where cleanup runs
(cd "$T/elsewhere" && "$AB" cleanup >"$T/cleanup" 2>&1)
is $? 0 "cleanup from another directory exits 0"
is "$(ls -A "$T/images")" "" "the images were found by their absolute paths and removed"
is "$(ls -A "$T/elsewhere" | wc -l)" 1 "the file of the same name where cleanup ran is untouched"
is "$(loops "$T/images" | grep -c .)" 0 "no loop device is left"

# 3. Pid reuse: the journal's pid now belongs to another process.
start_slow_run "$T/c.err" --loop 1:256m --fs ext4
kill9 "$pid"
sleep 3600 & other_pid=$!; kill_at_exit "$other_pid"
journal=$(ls "$ARRAYBENCH_STATE_DIR"/journal-*)
sed -i "1s/\tpid=[0-9]*\t/\tpid=$other_pid\t/" "$journal"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 0 "cleanup of a journal whose pid is another, live process exits 0"
grep -q "(pid $other_pid, gone)" "$T/cleanup"; ok $? "it is seen as gone: the start time differs"
is "$(ls -A "$TMPDIR" "$ARRAYBENCH_STATE_DIR" | grep -c arraybench)" 0 "and its run's objects are removed"
kill "$other_pid"

# 4. A run id that is taken: refused before anything, the first run's
# journal untouched, then cleaned.
export ARRAYBENCH_RUN_ID=taken-$$
start_slow_run "$T/d.err" --loop 1:256m --fs ext4
kill9 "$pid"
sum=$(md5sum <"$ARRAYBENCH_STATE_DIR/journal-taken-$$")
"$AB" run --loop 1:256m --fs ext4 -s 32m -r 16 --cache cgroup -n 0 -f -q >/dev/null 2>"$T/clash"
is $? 1 "a second run with the same run id exits 1"
grep -q "run id 'taken-$$' is taken" "$T/clash"; ok $? "saying the run id is taken"
is "$(md5sum <"$ARRAYBENCH_STATE_DIR/journal-taken-$$")" "$sum" "the first run's journal is untouched"
unset ARRAYBENCH_RUN_ID
"$AB" cleanup >/dev/null 2>&1
is "$(ls -A "$TMPDIR" "$ARRAYBENCH_STATE_DIR" | grep -c arraybench)" 0 "cleanup then removes the first run's objects"

# 5. -d: kill -9 mid-phase leaves the test files, cleanup removes them and
# nothing else in DIR.
d=$T/dir; mkdir "$d"
mkdir "$d/arraybench.1234.d"; echo mine >"$d/arraybench.1234"; echo mine >"$d/arraybench.1234.d/keep"
"$AB" run -d "$d" -s 0 -n 8:-1 -b --cache none >/dev/null 2>"$T/e.err" &
pid=$!
in_phase "$T/e.err" seq-create && await "files_made '$d' || ended $pid"
kill9 "$pid"
run_dir=$(find "$d" -maxdepth 1 -type d -name 'arraybench.*-*-*')
[ -n "$(ls -A "$run_dir/files" 2>/dev/null)" ]; ok $? "kill -9 of a -d run leaves its files in $run_dir"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 0 "cleanup exits 0"
[ ! -e "$run_dir" ]; ok $? "the run's test directory is gone"
is "$(cat "$d/arraybench.1234" "$d/arraybench.1234.d/keep")" "mine
mine" "files named like another run's are untouched"

# 6. The old names of this very process (pid), planted before it starts:
# untouched, and a planted test directory of the run id is a clash.
d2=$T/dir2; mkdir "$d2"
bash -c 'echo $$ >"$2"; echo data >"$0/arraybench.$$"; mkdir "$0/arraybench.$$.d"; echo data >"$0/arraybench.$$.d/f";
	echo data >"$0/.arraybench-probe.$$"; exec "$1" run -d "$0" -s 32m -r 16 --cache cgroup -n 1 -f -q' \
	"$d2" "$AB" "$T/pid" >/dev/null 2>"$T/f.err"
is $? 0 "a run whose pid names planted files runs"
p=$(cat "$T/pid")
is "$(cat "$d2/arraybench.$p" "$d2/arraybench.$p.d/f" "$d2/.arraybench-probe.$p" | tr '\n' ' ')" "data data data " \
	"and leaves them all as they were"
mkdir "$d2/arraybench.planted-$$"; echo data >"$d2/arraybench.planted-$$/io"
ARRAYBENCH_RUN_ID=planted-$$ "$AB" run -d "$d2" -s 32m -r 16 --cache cgroup -n 1 -f -q >/dev/null 2>"$T/g.err"
is $? 1 "a test directory that exists already is a clash: exit 1"
grep -q "cannot create the test directory '$d2/arraybench.planted-$$': it exists already" "$T/g.err"
ok $? "saying so before any phase"
is "$(cat "$d2/arraybench.planted-$$/io")" "data" "the planted directory is untouched"
is "$(ls -A "$ARRAYBENCH_STATE_DIR")" "" "no journal is left"

# 7. -u USER may write in DIR, so it could swap the test directory's name
# for a symlink between its mkdir and its chown; root must not follow.
# The swap happens while strace holds the run right after the mkdir.
if ! command -v strace >/dev/null; then
	for i in 1 2 3 4; do ok 1 "strace is missing: it holds the run for the swap (make deps installs it)"; done
elif id nobody >/dev/null 2>&1; then
	chmod 711 "$T"
	d3=$T/dir3; mkdir "$d3"; chown nobody "$d3"
	echo secret >"$T/victim"; chmod 600 "$T/victim"
	rid=swap-$$
	ARRAYBENCH_RUN_ID=$rid hold -f "$T/swap.trace" exit mkdirat 1 "arraybench.$rid" \
		"$AB" run -d "$d3" -u nobody -s 32m -r 16 --cache cgroup -n 1 -f -q >/dev/null 2>"$T/swap.err"
	hold_reached && mv "$d3/arraybench.$rid" "$d3/moved" && ln -s "$T/victim" "$d3/arraybench.$rid"
	ok $? "the swap was made while the run was held after its mkdir"
	hold_release
	wait $held
	is $? 4 "a test directory swapped for a symlink is refused: exit 4"
	is "$(stat -c %U "$T/victim")" root "the symlink's target still belongs to root"
	is "$(cat "$T/victim")" secret "and is intact"
else
	skip "needs the user nobody"
fi

# 8. The same for the mount point: root mounts only in a TMPDIR where no
# other user can rename (every component root's or ours, writable ones
# sticky), or a swapped name could carry the mount elsewhere.  A mode 777
# TMPDIR, and one owned by the -u user (the helper's attack), are refused
# before anything is made.
open_tmp=$T/open-tmp; mkdir -m 777 "$open_tmp"
TMPDIR=$open_tmp "$AB" run --loop 1:300m:"$T" --fs ext4 -s 32m -r 16 --cache cgroup -n 1 -f -q >/dev/null 2>"$T/mswap.err"
is $? 4 "a TMPDIR where others may rename is refused for the mount point: exit 4"
grep -q "refusing TMPDIR '$open_tmp' for the mount point: others may rename in '$open_tmp' (mode 0777, not sticky)" \
	"$T/mswap.err"; ok $? "naming why"
user_tmp=$T/user-tmp; mkdir "$user_tmp"; chown nobody "$user_tmp" 2>/dev/null
TMPDIR=$user_tmp "$AB" run --loop 1:300m:"$T" --fs ext4 -u nobody -s 32m -r 16 --cache cgroup -n 1 -f -q \
	>/dev/null 2>"$T/utmp.err"
is $? 4 "a TMPDIR that belongs to the -u user is refused too: exit 4"
is "$(ls "$T" "$open_tmp" "$user_tmp" | grep -c arraybench)$(loops "$T/arraybench" | grep -c .)" 00 \
	"nothing was made"

# 9. The image deleted by hand after the kill, and its inode number reused by
# an unrelated image that someone attached: cleanup must not detach that.
# The reuse is made certain by writing the other image's device and inode
# into the dead run's journal; once with the attach it recorded (device and
# disk sequence number), once as if killed before recording it.
for form in recorded unrecorded; do
	start_slow_run "$T/h.err" --loop 1:256m --fs ext4
	kill9 "$pid"
	journal=$(ls "$ARRAYBENCH_STATE_DIR"/journal-*)
	umount "$tmp"/arraybench-mnt.*; rmdir "$tmp"/arraybench-mnt.*
	losetup -d "$(losetup -j "$tmp"/arraybench-*-0.img | cut -d: -f1)"; rm "$tmp"/arraybench-*-0.img
	truncate -s 16m "$T/reuse.img"
	reuse=$(losetup --find --show "$T/reuse.img")
	id=$(stat -c '%Hd:%Ld	%i' "$T/reuse.img")
	sed -i "s|^\(intent\tloop-detach\t[^\t]*\t[^\t]*\t\).*|\1$id|" "$journal"
	[ $form = unrecorded ] && sed -i '/^detail\t/d' "$journal"
	grep -q "^intent	loop-detach	.*	$id\$" "$journal"; ok $? "$form: the journal now names the other image's inode"
	"$AB" cleanup >"$T/cleanup" 2>&1
	is "$(losetup -n -O BACK-FILE "$reuse")" "$T/reuse.img" "$form: cleanup left the other image's loop device attached"
	losetup -d "$reuse"; rm -f "$T/reuse.img"
	"$AB" cleanup >/dev/null 2>&1
done

# 10. The mount point is busy when the run ends: the teardown fails (exit
# 3), the journal keeps the umount and the mount point for cleanup, which
# finishes both once the mount is free.  The run is held as it is about to
# unmount (umount2 entered, not yet done) while a process moves into the
# mount point, which it leaves only once the run is over.
rid=busy-$$
mnt=$tmp/arraybench-mnt.$rid
ARRAYBENCH_RUN_ID=$rid hold "$T/busy.trace" enter umount2 1 "$mnt" \
	"$AB" run --loop 1:300m --fs ext4 -s 32m -r 16 --cache cgroup -n 0 -f --phases block-write >/dev/null 2>"$T/busy.err"
hold_reached
(cd "$mnt" && exec sleep 3600) &
busy=$!
kill_at_exit "$busy"
await "[ \"\$(readlink /proc/$busy/cwd)\" = '$mnt' ] || ended $busy" && [ "$(readlink "/proc/$busy/cwd")" = "$mnt" ]
ok $? "a process is in the mount point while the run is held at its unmount"
hold_release
wait "$held"
is $? 3 "a mount kept busy past the run's end: exit 3"
grep -q "'arraybench cleanup' retries it" "$T/busy.err"; ok $? "saying cleanup will retry"
ls "$ARRAYBENCH_STATE_DIR"/journal-* >/dev/null 2>&1; ok $? "the journal is kept"
kill "$busy"; wait "$busy" 2>/dev/null
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 0 "once free, cleanup exits 0"
is "$(ls -A "$tmp" "$ARRAYBENCH_STATE_DIR" | grep -c arraybench)$(mounts "$tmp/" | grep -c .)" 00 \
	"and leaves neither mount nor mount point nor journal"

# 11. A -d run on a file system that is unmounted after the kill: cleanup
# must not call its files gone and forget them; it keeps the journal until
# the file system is back, then removes them.
make_loop_fs "$T/fs" 64; ok $? "a 64 MiB ext4 is mounted for the unmount case"
"$AB" run -d "$T/fs" -s 0 -n 8:-1 -b --cache none >/dev/null 2>"$T/u.err" &
pid=$!
in_phase "$T/u.err" seq-create && await "files_made '$T/fs' || ended $pid"
kill9 "$pid"
need findmnt && fsdev=$(findmnt -n -o SOURCE "$T/fs") || unseen "findmnt found no mount at '$T/fs'"
umount "$T/fs"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 3 "cleanup with the test directory's file system unmounted: exit 3"
grep -q "is not on the file system that held it" "$T/cleanup"; ok $? "saying its file system is not there"
mount "$fsdev" "$T/fs"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 0 "with the file system back, cleanup exits 0"
is "$(ls -A "$T/fs" | grep -v lost+found)$(ls -A "$ARRAYBENCH_STATE_DIR")" "" "and removes the run's files and journal"

# 11b. The same with DIR a directory below the mount point: while the file
# system is away, DIR itself is missing, which is no proof either.
mkdir "$T/fs/sub"
"$AB" run -d "$T/fs/sub" -s 32m -r 16 --cache cgroup -n 0 -f200 --phases per-char-write >/dev/null 2>"$T/s.err" &
pid=$!
in_phase "$T/s.err" per-char-write
kill9 "$pid"
umount "$T/fs"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 3 "with DIR below the unmounted file system: cleanup exits 3, keeping the journal"
mount "$fsdev" "$T/fs"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 0 "with it back, cleanup exits 0"
is "$(ls -A "$T/fs/sub")$(ls -A "$ARRAYBENCH_STATE_DIR")" "" "and removes the test file, the run's directory and the journal"

# 12. A loop device of the run still open elsewhere (someone mounted it):
# its detach is only deferred, which is not "undone".
start_slow_run "$T/l.err" --loop 1:300m --fs ext4
kill9 "$pid"
loop=$(losetup -j "$tmp"/arraybench-*-0.img | cut -d: -f1)
umount "$tmp"/arraybench-mnt.*
mkdir "$T/held"; mount "$loop" "$T/held"; cleanup_add "umount $T/held"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 3 "cleanup of a loop device mounted elsewhere: exit 3"
grep -q "failed: loop-detach .*still open elsewhere" "$T/cleanup"; ok $? "saying it is still open elsewhere"
ls "$ARRAYBENCH_STATE_DIR"/journal-* >/dev/null 2>&1; ok $? "the journal is kept"
umount "$T/held"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 0 "once it is closed, cleanup exits 0"
is "$(loops "$tmp/arraybench" | grep -c .)$(ls -A "$tmp" "$ARRAYBENCH_STATE_DIR" | grep -c arraybench)" 00 \
	"and nothing of the run is left"

# 13. A -d run on btrfs, killed; the file system unmounted and mounted again
# after another btrfs, so it comes back with another device number (btrfs's
# are anonymous).  Identity by inode and the file system's fsid still holds.
truncate -s 300m "$T/bt.img" "$T/bt2.img"; mkfs.btrfs -q -f "$T/bt.img" >/dev/null; mkfs.btrfs -q -f "$T/bt2.img" >/dev/null
bt=$(losetup --find --show "$T/bt.img"); cleanup_add "losetup -d $bt"
bt2=$(losetup --find --show "$T/bt2.img"); cleanup_add "losetup -d $bt2"
mkdir "$T/bt" "$T/bt2"; mount "$bt" "$T/bt"; cleanup_add "umount $T/bt"; mkdir "$T/bt/d"
: >"$T/bt.err"
"$AB" run -d "$T/bt/d" -s 32m -r 16 --cache cgroup -n 0 -f200 --phases per-char-write >/dev/null 2>"$T/bt.err" &
pid=$!
in_phase "$T/bt.err" per-char-write
kill9 "$pid"
before=$(stat -c %d "$T/bt/d")
umount "$T/bt"; mount "$bt2" "$T/bt2"; cleanup_add "umount $T/bt2"; mount "$bt" "$T/bt"
after=$(stat -c %d "$T/bt/d")
[ "$before" != "$after" ]; ok $? "the file system came back with another device number ($before, now $after)"
"$AB" cleanup >"$T/cleanup" 2>&1
is $? 0 "cleanup exits 0"
is "$(ls -A "$T/bt/d")$(ls -A "$ARRAYBENCH_STATE_DIR")" "" "and removes the run's directory, test file and journal"
done_testing
