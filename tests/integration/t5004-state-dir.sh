#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The state directory and its journals are trusted only when they deserve
# it.  Attacks: a state directory nobody owns, with a planted journal that
# would remove a root-owned file and a symlink journal aimed at one; loose,
# foreign, empty, torn and misnamed journals in root's own directory; and a
# fuzz-style pass that replays damaged copies of a real run's journal.
# cleanup must touch nothing outside the run's own objects.  Root only.
. "$(dirname "$0")/lib.sh"
is_root && [ -e /dev/loop-control ] && id nobody >/dev/null 2>&1 || skip_all "needs root, loop devices and the user nobody"
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
chmod 711 "$T"
victim=$T/victim; echo precious >"$victim"; chmod 600 "$victim"
intact() { [ "$(cat "$victim" 2>/dev/null)" = precious ]; }

# 1. A state directory that nobody owns.  The planted journals are in both
# the format of this version and the one before it.
evil=$T/evil; mkdir "$evil"; chown nobody "$evil"
printf 'arraybench-undo 1 pid=999999\npush\tunlink\t%s\n' "$victim" >"$evil/journal-999999"
printf 'arraybench-undo 2\trun=x-1\tpid=999999\tstart=1\tboot=b\tuid=0\nintent\tunlink\t%s\t\n' "$victim" >"$evil/journal-x-1"
chown nobody "$evil"/journal-*; chmod 600 "$evil"/journal-*
ARRAYBENCH_STATE_DIR=$evil "$AB" cleanup >"$T/out" 2>"$T/err"
is $? 4 "cleanup refuses a state directory nobody owns: exit 4"
grep -q "refusing state directory '$evil': it belongs to uid $(id -u nobody), not to uid 0" "$T/err"
ok $? "naming the reason"
intact; ok $? "the root-owned file the planted journal names is intact"
# A symlink where the next run's journal would go (today's run would
# truncate its target); the run refuses the directory before any journal.
ARRAYBENCH_STATE_DIR=$evil bash -c 'ln -s "$1" "$2/journal-$$"; exec "$0" run -d "$3" -s 0 -n 1 -q' "$AB" "$victim" "$evil" "$T" \
	>/dev/null 2>"$T/err"
is $? 4 "a run refuses the same state directory: exit 4"
intact; ok $? "the symlinked journal's target is intact"
ARRAYBENCH_STATE_DIR=$evil "$AB" run -d "$T" -s 0 -n 1 -q >/dev/null 2>&1
is $? 4 "with it named in ARRAYBENCH_STATE_DIR too"
ARRAYBENCH_STATE_DIR=$evil "$AB" run -d "$T" -s 0 -n 1 -q --dry-run >/dev/null 2>&1
is $? 4 "and a dry run refuses it as well"
mkdir "$T/loose"; chmod 777 "$T/loose"
ARRAYBENCH_STATE_DIR=$T/loose "$AB" cleanup >/dev/null 2>"$T/err"
is $? 4 "a world-writable state directory is refused too"
grep -q "group or others may write to it (mode 0777)" "$T/err"; ok $? "naming its mode"
ln -s "$evil" "$T/link"
ARRAYBENCH_STATE_DIR=$T/link "$AB" cleanup >/dev/null 2>"$T/err"
is $? 4 "a symlinked state directory is refused"
ARRAYBENCH_STATE_DIR=$T/link/. "$AB" cleanup >/dev/null 2>"$T/err"
is $? 4 "also when named 'link/.'"

# 2. Root's own directory with hostile journals in it.
export ARRAYBENCH_STATE_DIR=$T/state
mkdir -m 700 "$ARRAYBENCH_STATE_DIR"
plantj() { # name text mode [owner]
	printf '%b' "$2" >"$ARRAYBENCH_STATE_DIR/$1"; chmod "$3" "$ARRAYBENCH_STATE_DIR/$1"
	[ -n "${4:-}" ] && chown "$4" "$ARRAYBENCH_STATE_DIR/$1"
	return 0
}
j="arraybench-undo 2\\trun=RUN\\tpid=999999\\tstart=1\\tboot=b\\tuid=0\\nintent\\tunlink\\t$victim\\t\\n"
plantj journal-loose "${j//RUN/loose}" 644
plantj journal-foreign "${j//RUN/foreign}" 600 nobody
ln -s "$victim" "$ARRAYBENCH_STATE_DIR/journal-symlink"
plantj journal-empty "" 600
plantj journal-torn "arraybench-undo 2\\trun=to" 600
plantj journal-misnamed "${j//RUN/other}" 600
plantj "journal-new
line" "" 644
"$AB" cleanup >"$T/out" 2>&1
is $? 0 "cleanup among hostile journals exits 0"
intact; ok $? "the file they name is intact"
for n in loose foreign symlink; do
	grep -q "ignored: '$ARRAYBENCH_STATE_DIR/journal-$n' is not a journal arraybench wrote" "$T/out"
	ok $? "journal-$n is reported and ignored"
done
for n in empty torn misnamed; do
	[ -e "$ARRAYBENCH_STATE_DIR/torn-journal-$n" ] && grep -q "moved aside: '$ARRAYBENCH_STATE_DIR/journal-$n'" "$T/out"
	ok $? "journal-$n is moved aside with a message"
done
grep -qF "journal-new\nline' is not a journal arraybench wrote" "$T/out"; ok $? "a name holding a newline is shown on one line"
"$AB" cleanup >"$T/out2" 2>&1
is "$(grep -c 'moved aside' "$T/out2")" 0 "a second cleanup does not trip over them again"
rm -f "$ARRAYBENCH_STATE_DIR"/*

# 3. Fuzz-style: a real run killed with its target built; its journal
# replayed in damaged forms (torn at random points, pid reused, foreign,
# loose, symlinked) next to canaries: an unrelated loop device, a mount and
# files in the same directories.  Then the whole journal finishes the job.
truncate -s 16m "$T/canary.img"; canary=$(losetup --find --show "$T/canary.img"); cleanup_add "losetup -d $canary"
mkdir "$T/cmnt"; mount -t tmpfs -o size=1m tmpfs "$T/cmnt"; cleanup_add "umount $T/cmnt"
echo canary >"$TMPDIR/canary"
"$AB" run --loop 2:256m --array raid1 --fs btrfs -s 64m -r 16 --cache cgroup -n 0 -f200 --phases per-char-write \
	>/dev/null 2>"$T/slow.err" &
pid=$!
# (200 MiB of one-byte writes: once the phase is said to run, it runs when killed)
await "grep -q \"phase 'per-char-write'\" '$T/slow.err' || ended $pid" || unseen "the run never started per-char-write"
kill9 $pid
journal=$(ls "$ARRAYBENCH_STATE_DIR"/journal-*)
[ -n "$journal" ] && grep -q "^intent	umount" "$journal"; ok $? "the killed run left a journal with its mount in it"
[ -z "$journal" ] && sed "s/^/#   /" "$T/slow.err"
cp "$journal" "$T/whole"
name=$(basename "$journal")
canaries_fine() {
	[ "$(losetup -n -O BACK-FILE "$canary")" = "$T/canary.img" ] && mountpoint -q "$T/cmnt" &&
		[ "$(cat "$TMPDIR/canary")" = canary ] && intact
}
size=$(stat -c %s "$T/whole")
bad=0 runs=0
for cut in 0 17 $((size / 5)) $((size / 3)) $((size / 2)) $((2 * size / 3)) $((size - 3)); do
	head -c "$cut" "$T/whole" >"$journal"; chmod 600 "$journal"
	"$AB" cleanup >>"$T/fuzz.log" 2>&1 || true
	runs=$((runs + 1)); canaries_fine || bad=$((bad + 1))
	# a moved-aside or finished journal: put the next cut back by its name
	rm -f "$ARRAYBENCH_STATE_DIR"/torn-* "$journal"
done
sleep 3600 & other=$!; kill_at_exit $other
for form in pid-reused foreign loose symlink; do
	cp "$T/whole" "$journal"; chmod 600 "$journal"
	case $form in
	pid-reused) sed -i "1s/\tpid=[0-9]*\t/\tpid=$other\t/" "$journal" ;;
	foreign) chown nobody "$journal" ;;
	loose) chmod 666 "$journal" ;;
	symlink) mv "$journal" "$T/moved"; ln -s "$T/moved" "$journal" ;;
	esac
	"$AB" cleanup >>"$T/fuzz.log" 2>&1 || true
	runs=$((runs + 1)); canaries_fine || bad=$((bad + 1))
	rm -f "$journal" "$T/moved"
done
kill $other
is "$bad" 0 "$runs damaged journals replayed: every canary is intact after each"
cp "$T/whole" "$journal"; chmod 600 "$journal"
"$AB" cleanup >"$T/out" 2>&1
is $? 0 "the whole journal then finishes the job"
none_left "$TMPDIR" && [ "$(ls "$TMPDIR" | grep -c arraybench)" = 0 ]
ok $? "nothing of the run is left: no loop device, mount or file of it under TMPDIR"
canaries_fine; ok $? "and the canaries are still intact"
is "$(ls -A "$ARRAYBENCH_STATE_DIR")" "" "the state directory is empty"
done_testing
