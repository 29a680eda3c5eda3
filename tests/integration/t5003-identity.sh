#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Undo entries name objects, not numbers: cleanup after kill -9 leaves a
# loop device that a later attach reused, finds images given by a relative
# --loop directory from anywhere, treats a journal whose pid now belongs to
# another process as dead, and removes a -d run's test files; names that
# exist already (a planted test directory, files named like an old run's)
# are never touched.  Root only.
. "$(dirname "$0")/lib.sh"
plan 33
if ! is_root || [ ! -e /dev/loop-control ]; then
	for i in $(seq 33); do skip "needs root and loop devices"; done
	exit 0
fi
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
tmp=$(realpath "$TMPDIR")

# Start a run that is busy for seconds in per-char-write; sets $pid once the
# phase runs.  Extra arguments go to arraybench.
start_slow_run() { # stderr-file args...
	local err=$1; shift
	"$AB" run "$@" -s 64m -r 16 --cache cgroup -n 0 -f200 --phases per-char-write >/dev/null 2>"$err" &
	pid=$!
	for _ in $(seq 200); do grep -q "phase 'per-char-write'" "$err" && break; sleep 0.05; done
}
kill9() { kill -KILL "$1"; wait "$1" 2>/dev/null; sleep 0.3; }

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
is "$(losetup -a | grep -cF "$T/images")" 0 "no loop device is left"

# 3. Pid reuse: the journal's pid now belongs to another process.
start_slow_run "$T/c.err" --loop 1:256m --fs ext4
kill9 "$pid"
sleep 600 & other_pid=$!
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
for _ in $(seq 200); do grep -q "phase 'seq-create'" "$T/e.err" && break; sleep 0.05; done
sleep 0.5
kill9 "$pid"
run_dir=$(ls -d "$d"/arraybench.*-*-*)
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
if id nobody >/dev/null 2>&1 && command -v strace >/dev/null; then
	chmod 711 "$T"
	d3=$T/dir3; mkdir -m 777 "$d3"
	echo secret >"$T/victim"; chmod 600 "$T/victim"
	rid=swap-$$
	ARRAYBENCH_RUN_ID=$rid strace -f -o /dev/null -P "$d3/arraybench.$rid" -e trace=mkdir \
		-e inject=mkdir:delay_exit=1500000:when=1 \
		"$AB" run -d "$d3" -u nobody -s 32m -r 16 --cache cgroup -n 1 -f -q >/dev/null 2>"$T/swap.err" &
	tracer=$!
	for _ in $(seq 100); do [ -d "$d3/arraybench.$rid" ] && break; sleep 0.02; done
	mv "$d3/arraybench.$rid" "$d3/moved" && ln -s "$T/victim" "$d3/arraybench.$rid"
	wait $tracer
	is $? 4 "a test directory swapped for a symlink is refused: exit 4"
	is "$(stat -c %U "$T/victim")" root "the symlink's target still belongs to root"
	is "$(cat "$T/victim")" secret "and is intact"
else
	for i in 1 2 3; do skip "needs the user nobody and strace"; done
fi

# 8. The same for the mount point: in a TMPDIR where anyone may rename, the
# mount point swapped for a symlink after its mkdir must not carry the
# mount elsewhere.
if command -v strace >/dev/null; then
	open_tmp=$T/open-tmp; mkdir -m 777 "$open_tmp"; mkdir "$T/elsewhere-mnt"
	rid=mswap-$$
	mnt=$open_tmp/arraybench-mnt.$rid
	TMPDIR=$open_tmp ARRAYBENCH_RUN_ID=$rid strace -f -o /dev/null -P "$mnt" -e trace=mkdir \
		-e inject=mkdir:delay_exit=1500000:when=1 \
		"$AB" run --loop 1:300m:"$T" --fs ext4 -s 32m -r 16 --cache cgroup -n 1 -f -q >/dev/null 2>"$T/mswap.err" &
	tracer=$!
	for _ in $(seq 100); do [ -d "$mnt" ] && break; sleep 0.02; done
	mv "$mnt" "$open_tmp/moved" && ln -s "$T/elsewhere-mnt" "$mnt"
	wait $tracer
	is $? 4 "a mount point swapped for a symlink is refused: exit 4"
	mountpoint -q "$T/elsewhere-mnt"; is $? 32 "nothing was mounted where the symlink points (mountpoint: 32, not one)"
	is "$(losetup -a | grep -cF "arraybench-$rid")$(ls "$T" | grep -c "arraybench-$rid")" 00 \
		"the run's image and loop device are gone"
else
	for i in 1 2 3; do skip "needs strace"; done
fi
