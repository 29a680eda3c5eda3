#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a -u user, who may write in DIR or own DIR's parent, can swap while
# root runs: DIR itself, a file-phase subdirectory, an output's directory,
# the test file's name; and DIR renamed during a run.  Root must keep to the
# directories it opened and touch nothing the swaps point at.  Each swap is
# made while strace holds the run at a known point.  Root only.
. "$(dirname "$0")/lib.sh"
is_root && id nobody >/dev/null 2>&1 || skip_all "needs root and the user nobody"
# strace holds the runs at the swaps: without it, the checks fail (make deps installs it).
if ! command -v strace >/dev/null; then
	ok 1 "strace is missing: it holds the runs for the swaps (make deps installs it)"
	done_testing
	exit 0
fi
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
chmod 711 "$T"
asnobody() { su nobody -s /bin/sh -c "$*"; }
mkdir "$T/u" "$T/rootonly"; chown nobody "$T/u"   # nobody owns DIR's parent
mkdir "$T/u/d"; chown nobody "$T/u/d"
empty() { [ -z "$(ls -A "$1")" ]; }

# 1. DIR swapped for a symlink to a root-only directory after the checks
# (held at the chdir to / that follows them): the run stays in the DIR it
# opened; nothing appears in the root-only directory, not even while the
# phase runs.
rid=dswap-$$
ARRAYBENCH_RUN_ID=$rid hold "$T/trace" exit chdir 1 "" \
	"$AB" run -u nobody -d "$T/u/d" -s 32m -f2 -r 16 --cache none -n 0 --phases per-char-write >/dev/null 2>"$T/err"
hold_reached && asnobody "mv '$T/u/d' '$T/u/d.real' && ln -s '$T/rootonly' '$T/u/d'"
hold_release
# The phase's 2 MiB of one-byte writes last seconds, and its test file
# exists until it ends: once both are seen, the phase runs.
await "grep -q \"phase 'per-char-write'\" '$T/err' && [ -e '$T/u/d.real/arraybench.$rid.io' ] || ended $held" ||
	unseen "the run never reached its phase"
during=$(ls -A "$T/rootonly" | tr '\n' ' ')
wait $held
is $? 0 "a run whose DIR was swapped after the checks exits 0, in the DIR it checked"
is "$during" "" "nothing was made in the directory the symlink points at, during the phase"
empty "$T/rootonly" && empty "$T/u/d.real"; ok $? "and nothing is left there or in the real DIR"
asnobody "rm '$T/u/d' && mv '$T/u/d.real' '$T/u/d'"

# 2. A file-phase subdirectory swapped for a symlink to a directory holding
# files of the same names, before root removes the set (held at its open of
# files/): root removes nothing there.
mkdir "$T/victim"
rid=fswap-$$
ARRAYBENCH_RUN_ID=$rid hold "$T/trace" enter openat 1 files \
	"$AB" run -u nobody -d "$T/u/d" -s 0 -n 1:0:0:2 -q --cache fadvise --phases seq-create >/dev/null 2>"$T/err"
hold_reached
sub=$T/u/d/arraybench.$rid/files/00001
for f in "$sub"/*; do echo data >"$T/victim/$(basename "$f")"; done
n=$(ls "$T/victim" | wc -l)
asnobody "mv '$sub' '$sub.x' && ln -s '$T/victim' '$sub'"
hold_release
wait $held
[ "$n" -gt 0 ] && [ "$(ls "$T/victim" | wc -l)" = "$n" ]; ok $? "the $n root-owned files of the same names are all still there"
asnobody "rm -rf '$T/u/d'/arraybench.$rid*"; rm -f "$ARRAYBENCH_STATE_DIR"/journal-*

# 3. An output under -u whose directory is a symlink the user made.
asnobody "ln -s '$T/rootonly' '$T/u/out'"
"$AB" run -u nobody -d "$T/u/d" -s 0 -n 1 -q --csv "$T/u/out/r.csv" >/dev/null 2>"$T/err"
is $? 4 "-u and an output whose directory the user could redirect: exit 4"
grep -q "refusing --csv '$T/u/out/r.csv'" "$T/err"; ok $? "naming the output"
empty "$T/rootonly"; ok $? "nothing was written where the symlink points"

# 4. A name of the run's taken beforehand: the test file, a hard link to a
# file to keep.  A clash, before any phase; the file is intact.
mkdir "$T/own"; echo precious >"$T/own/keep"; ln "$T/own/keep" "$T/own/arraybench.taken-$$.io"
ARRAYBENCH_RUN_ID=taken-$$ "$AB" run -d "$T/own" -s 32m -r 16 --cache cgroup -n 0 -f -q --phases rewrite \
	>/dev/null 2>"$T/err"
is $? 1 "a test file name that exists (a hard link) is a clash: exit 1"
grep -q "cannot create the test file '$T/own/arraybench.taken-$$.io': it exists already" "$T/err"; ok $? "saying so"
is "$(cat "$T/own/keep")" precious "the linked file is intact"
is "$(ls "$T/own" | wc -l)" 2 "and both names are still there"

# 5. DIR renamed during a run: the run still removes what it made, in the
# renamed directory; and a stranger put in the run's directory is reported.
# Each is held in its phase, after its worker's first write.
mkdir "$T/mv"
rid=mv-$$
ARRAYBENCH_RUN_ID=$rid hold -f "$T/trace" exit write 1 "$T/mv/arraybench.$rid.io" \
	"$AB" run -d "$T/mv" -s 32m -f2 -r 16 --cache none -n 0 --phases per-char-write >/dev/null 2>"$T/err"
hold_reached && mv "$T/mv" "$T/mv.moved" && mkdir "$T/mv"
hold_release
wait $held
is $? 0 "a run whose DIR was renamed during it exits 0"
is "$(ls -A "$T/mv.moved" "$T/mv" | grep -c arraybench)" 0 "and leaves nothing in the renamed DIR or the new one"
rid=strange-$$
mkdir "$T/st"
ARRAYBENCH_RUN_ID=$rid hold -f "$T/trace" exit write 1 "$T/st/arraybench.$rid.io" \
	"$AB" run -d "$T/st" -s 32m -f2 -r 16 --cache none -n 0 --phases per-char-write >/dev/null 2>"$T/err"
hold_reached && touch "$T/st/arraybench.$rid/stranger"
hold_release
wait $held
is $? 0 "a stranger in the run's directory does not fail the run"
grep -q "^arraybench: warning: left alone: remove-test-files $T/st/arraybench.$rid: kept: it holds 'stranger'" "$T/err"
ok $? "it is reported, and kept with its directory"
[ -e "$T/st/arraybench.$rid/stranger" ]; ok $? "the stranger is still there"

# 6. The run's directory swapped between its mkdir and its open, for a
# directory of root's the user has in DIR: with -u the user makes the
# names, so root finds a directory that is not the user's and refuses it;
# root's directory is not handed over.
mkdir "$T/own2"; chown nobody "$T/own2"; mkdir -m 700 "$T/own2/rootdir"; echo secret >"$T/own2/rootdir/secret"
rid=mk-$$
ARRAYBENCH_RUN_ID=$rid hold -f "$T/trace" exit mkdirat 1 "arraybench.$rid" \
	"$AB" run -d "$T/own2" -u nobody -s 0 -n 1 -q --cache fadvise >/dev/null 2>"$T/err"
hold_reached && asnobody "cd '$T/own2' && mv arraybench.$rid gone && mv rootdir arraybench.$rid"
hold_release
wait $held
is $? 4 "a root directory moved into the run directory's place is refused: exit 4"
grep -q "refusing the test directory '$T/own2/arraybench.$rid': it is not the one just made" "$T/err"; ok $? "saying so"
is "$(stat -c %U "$T/own2/arraybench.$rid")" root "root's directory was not handed to the user"
is "$(cat "$T/own2/arraybench.$rid/secret")" secret "and its file is intact"

# 7. "rootlink/..": a root-owned symlink to a directory of the user's; the
# kernel's ".." is the parent of its target, which the user controls.
mkdir -p "$T/ndir/sub"; chown -R nobody "$T/ndir"; ln -s "$T/ndir/sub" "$T/rootlink"
TMPDIR=$T/rootlink/.. "$AB" run --loop 1:300m:"$T" --fs ext4 -s 32m -r 16 --cache cgroup -n 1 -f -q --dry-run \
	>/dev/null 2>"$T/err"
is $? 4 "TMPDIR=rootlink/.. into the user's directory is refused: exit 4"
"$AB" run -u nobody -d "$T/u/d" -s 0 -n 1 -q --csv "$T/rootlink/../out.csv" >/dev/null 2>"$T/err"
is $? 4 "an output at rootlink/.. is refused under -u: exit 4"
[ ! -e "$T/ndir/out.csv" ]; ok $? "and nothing was written there"

# 8. Outputs that would hang or were planted: a FIFO of another user, a
# FIFO of root's with no reader; neither hangs.
mkdir -m 1777 "$T/pub"; asnobody "mkfifo '$T/pub/res.csv'"
timeout -s KILL $HANG_AFTER "$AB" run -d "$T/u/d" -s 0 -n 1 -q --csv "$T/pub/res.csv" >/dev/null 2>"$T/err"
is $? 4 "a FIFO another user planted as --csv is refused: exit 4"
mkfifo "$T/pub/root.csv"
timeout -s KILL $HANG_AFTER "$AB" run -d "$T/u/d" -s 0 -n 1 -q --csv "$T/pub/root.csv" >/dev/null 2>"$T/err"
is $? 1 "a FIFO with no reader fails to open (exit 1), without hanging"

# 9. A DIR that others may rename in (writable, not sticky) is refused to
# root; a sticky one is fine.
mkdir -m 777 "$T/open"
"$AB" run -d "$T/open" -s 0 -n 1 -q >/dev/null 2>"$T/err"
is $? 4 "root in a directory others may rename in: exit 4"
grep -q "refusing directory '$T/open': others may rename in it (mode 0777, not sticky)" "$T/err"; ok $? "saying so"
chmod +t "$T/open"
"$AB" run -d "$T/open" -s 0 -n 1 -q >/dev/null 2>"$T/err"
is $? 0 "the same directory made sticky is fine"

# 10. The test file's name stays held through the write phases: another
# user cannot take it (here while block-write opens it) to fail the run.
# The run is held in block-write, after its worker's first write.
rid=held-$$
ARRAYBENCH_RUN_ID=$rid hold -f "$T/trace" exit write 1 "$T/open/arraybench.$rid.io" \
	"$AB" run -d "$T/open" -s 32m -r 16 --cache cgroup -n 0 -f -q --phases block-write >/dev/null 2>"$T/err"
hold_reached
asnobody "echo mine >'$T/open/arraybench.$rid.io'" 2>/dev/null
taken=$?
hold_release
wait $held
is $? 0 "a run in a shared sticky directory completes"
[ $taken != 0 ]; ok $? "the other user could not take the test file's name meanwhile"
done_testing
