#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench-mpi on one machine: 4 ranks, oversubscribed, shared memory
# only, every mpirun under timeout.  One run written by rank 0 with per-rank
# rows that add up to the aggregate; a barrier that is real (a rank made
# late shows in the others' waits, and with the barrier switched off in the
# start spread); figures that need no common clock; a failing rank, a stop
# and a killed rank that every rank survives with nothing left; --reorder;
# ranks that differ in binary or arguments refused; one rank as plain
# arraybench.  The test-only switches are ARRAYBENCH_TEST_* of
# src/mpi/cluster-mpi.c.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi-lib.sh"

# 1. The model: one run, 4 per-rank rows per result adding up.
mpi -np 4 "$ABM" run -d "$D" -s 48m -n 1 -f $cache --phases block-write,block-read,seq-create \
	--json "$T/model.json" >"$T/out" 2>"$T/err"
ran $? "4 ranks run block-write, block-read and seq-create"
is "$(wc -l <"$T/model.json")" 1 "rank 0 alone writes: one JSON run"
is "$(python3 "$check" model "$T/model.json" 4)" ok \
	"per-rank rows: work, operations and workers add up to the aggregate, whose rate is the work over the ranks' span"
is "$(grep -c '^block-write .*KiB/s' "$T/out")" 1 "one table on standard output"
is "$(sed -n '/^per rank: block-read/,/^  all /p' "$T/out" | grep -c '^ *[0-3] ')" 4 "the table shows a row per rank for each result"
is "$(python3 "$check" bound "$T/model.json" 0.01)" ok "the clock bound is recorded, under 10 ms on one machine"
is "$(python3 "$check" spread "$T/model.json" block-read 0.05 0)" ok "the barrier's start spread is under 50 ms"
left; ok $? "nothing is left in DIR or the state directory, no process"

# 2. The barrier is real: rank 2 comes 1.5 s late to every meeting.
ARRAYBENCH_TEST_DELAY_S=2:1.5 mpi -np 4 "$ABM" run -d "$D" -s 48m -n 0 -f $cache --phases block-write \
	--json "$T/late.json" >/dev/null 2>"$T/err"
ran $? "a run with rank 2 late"
is "$(python3 "$check" waits "$T/late.json" block-write 2 1.3)" ok "every other rank waited for it at the barrier"
is "$(python3 "$check" spread "$T/late.json" block-write 0.05 0)" ok "and they still started within 50 ms"
ARRAYBENCH_TEST_DELAY_S=2:1.5 ARRAYBENCH_TEST_NO_BARRIER=1 mpi -np 4 "$ABM" run -d "$D" -s 48m -n 0 -f $cache \
	--phases block-write --json "$T/nobarrier.json" >/dev/null 2>"$T/err"
ran $? "the same with the barrier switched off"
is "$(python3 "$check" spread "$T/nobarrier.json" block-write 100 1.3)" ok \
	"the start spread is then at least 1.3 s: the check can fail"

# 3. No common clock: ranks whose clocks are 5 s ahead and 7 s behind.
ARRAYBENCH_TEST_CLOCK_OFFSET_NS=1:5000000000,3:-7000000000 mpi -np 4 "$ABM" run -d "$D" -s 48m -n 1 -f $cache \
	--phases block-write,block-read,seq-create --json "$T/clocks.json" >/dev/null 2>"$T/err"
ran $? "a run with two ranks' clocks off by +5 s and -7 s"
is "$(python3 "$check" model "$T/clocks.json" 4)" ok "the aggregates still add up over the ranks' span"
is "$(python3 "$check" spread "$T/clocks.json" block-read 0.05 0)" ok "and the starts still lie within 50 ms"

# 4. A failing rank: a worker of rank 2 killed mid-phase.
mpi -np 4 "$ABM" run -d "$D" -s 64m -n 0 $cache --phases per-char-write >/dev/null 2>"$T/err" &
pid=$!
kill_at_exit $pid
await 'w=$(worker_of_rank 2)'; ok $? "rank 2's worker is running"
kill -KILL "$w"
start=$SECONDS
wait $pid
rc=$?
ok "$([ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ]; echo $?)" "every rank stops and exits non-zero, before the timeout (mpirun: $rc)"
# The phase has half a minute to go: the others stop their own steps on
# hearing of rank 2's failure, not at their end.
ok "$([ $((SECONDS - start)) -le 10 ]; echo $?)" "every rank stopped within 10 s of the failure ($((SECONDS - start)) s)"
grep -q "error: rank 2: phase 'per-char-write': a worker was killed by signal 9" "$T/err"
ok $? "rank 0 names rank 2 and what happened to it"
await left 30; ok $? "nothing is left"

# 5. SIGINT to mpirun: every rank stops and removes its files.
mpi -np 4 "$ABM" run -d "$D" -s 64m -n 0 $cache --phases per-char-write >/dev/null 2>"$T/err" &
pid=$!
kill_at_exit $pid
await 'worker_of_rank 3 >/dev/null'; ok $? "the run is in its phase"
for p in $(descendants $pid); do [ "$(cat "/proc/$p/comm" 2>/dev/null)" = mpirun ] && kill -INT "$p"; done
wait $pid
ok "$([ $? -ne 0 ]; echo $?)" "SIGINT to mpirun: the ranks exit non-zero"
await left 30; ok $? "no process, file or journal is left"

# 6. kill -9 of a rank: the others leave within seconds; cleanup removes the rest.
mpi -np 4 "$ABM" run -d "$D" -s 64m -n 0 $cache --phases per-char-write >/dev/null 2>"$T/err" &
pid=$!
kill_at_exit $pid
await 'w=$(worker_of_rank 1)'; ok $? "the run is in its phase"
r1=$(awk '{print $4}' "/proc/$w/stat")
kill -KILL "$r1"
start=$SECONDS
wait $pid
ok "$([ $((SECONDS - start)) -le 30 ]; echo $?)" "the other ranks are gone within 30 s ($((SECONDS - start)) s)"
await '[ -z "$(procs -f "$ABM run")" ]' 30; ok $? "no rank or worker is left running"
"$AB" cleanup >"$T/cleanup" 2>&1
ran $? "arraybench cleanup finishes the journals"
left; ok $? "and nothing is left"

# 7. --reorder: with two nodes of two ranks, rank r reads rank r+2's file.
if need strace; then
	mkdir -p "$T/st"
	ARRAYBENCH_TEST_FAKE_NODES=2 mpi -np 4 sh -c 'exec strace -f -q -e trace=openat -o "$0/rank-$OMPI_COMM_WORLD_RANK" "$@"' \
		"$T/st" "$ABM" run -d "$D" -s 48m -n 0 -f $cache --reorder --phases block-write,block-read \
		--json "$T/reorder.json" >/dev/null 2>"$T/err"
	ran $? "--reorder with a fake node count of 2"
	own() { sed -n 's/.*openat([0-9]*, "\(arraybench\.[^"]*\.io\)", [^)]*O_CREAT|O_EXCL.*/\1/p' "$T/st/rank-$1" | head -1; }
	read_by() { grep 'O_RDONLY' "$T/st/rank-$1" | sed -n 's/.*openat([0-9]*, "\(arraybench\.[^"]*\.io\)".*/\1/p' | sort -u; }
	for r in 0 1 2 3; do
		traced_whole "$T/st/rank-$r"
		is "$(read_by $r)" "$(own $(((r + 2) % 4)))" "rank $r reads the file of rank $(((r + 2) % 4)), never its own"
	done
	is "$(js "$T/reorder.json" 'o["mpi"]["reorder"]')" true "the run records --reorder"
else
	skip "strace is missing (make deps installs it)"
fi
"$AB" run -d "$D" -s 48m -n 0 -f --reorder >/dev/null 2>"$T/err"
is $? 1 "plain arraybench refuses --reorder: exit 1"

# 8. Ranks that differ are refused on every rank, naming the difference.
cp "$ABM" "$T/other-mpi"; printf x >>"$T/other-mpi"
mpi -np 2 "$ABM" run -d "$D" -s 48m -n 0 -f $cache : -np 2 "$T/other-mpi" run -d "$D" -s 48m -n 0 -f $cache \
	>/dev/null 2>"$T/err"
ok "$([ $? -ne 0 ]; echo $?)" "two binaries in one job: refused"
grep -q "rank 2 runs another binary" "$T/err"; ok $? "naming the rank and the binary's digest"
mpi -np 2 "$ABM" run -d "$D" -s 48m -n 0 -f $cache : -np 2 "$ABM" run -d "$D" -s 64m -n 0 -f $cache \
	>/dev/null 2>"$T/err"
ok "$([ $? -ne 0 ]; echo $?)" "other arguments on two ranks: refused"
grep -q "rank 2 has other arguments than rank 0: argument 5 is '64m' where rank 0 has '48m'" "$T/err"
ok $? "naming the first argument that differs"
PMI_SIZE=2 "$ABM" run -d "$D" -s 48m -n 0 -f $cache >/dev/null 2>"$T/err"
is $? 1 "a launcher of another MPI (it says 2 processes, MPI sees 1): refused, exit 1"
grep -q "the launcher started 2 processes but MPI sees one" "$T/err"; ok $? "saying so"
mpi -np 2 "$ABM" run --loop 2:64m --array 1 --fs ext4 -s 48m -n 0 -f $cache >/dev/null 2>"$T/err"
rc=$?
is $rc 1 "building a target is refused: exit 1"
[ $rc = 1 ] || sed 's/^/# /' "$T/err"
grep -q "arraybench-mpi runs on a directory every rank reaches" "$T/err"; ok $? "with a clear line"
left; ok $? "nothing is left"

# 9. The stonewall across ranks: rank 2's stream held still until another
# rank's stream has ended.  Direct writes, so that a stream's progress is
# its disk's, not the page cache's.  Rank 2's stream also sleeps 2 ms after
# each record (the test-only ARRAYBENCH_TEST_STREAM_DELAY_US, stream 2 of
# the cell: rank 2's only), so it writes for 8 s at least and the poll
# below finds it writing however fast the disk; a hold of a fixed time was
# not enough on a loaded machine, where every rank's write took so long
# that 2 s were under a tenth of it.
ARRAYBENCH_TEST_STREAM_DELAY_US=2:2000 mpi -np 4 "$ABM" run -d "$D" -s 0 -n 0 $cache --direct --phases sweep \
	--sweep-file-sizes 256m --sweep-records 64k --sweep-tests write --streams 1 --json "$T/sw.json" >/dev/null \
	2>"$T/err" &
pid=$!
kill_at_exit $pid
# Held once it is writing: a hold during its set-up would only delay the
# barrier, which every rank waits for.
await 'w=$(worker_of_rank 2) && [ -n "$(find "$D" -path "*rank-00002/*" -type f -size +1M)" ]'
ok $? "rank 2's stream is writing"
other_ended() { # another rank's stream wrote its whole file and its worker is gone
	local r
	for r in 0 1 3; do
		[ -n "$(find "$D" -path "*rank-0000$r/*" -type f -size 262144k)" ] && ! worker_of_rank $r >/dev/null &&
			return 0
	done 2>/dev/null
	return 1
}
kill -STOP "$w"
await other_ended
ok $? "another rank's stream ended while rank 2's was held"
kill -CONT "$w"
wait $pid
ran $? "the sweep with one stream on each of 4 ranks"
is "$(python3 "$check" stonewall "$T/sw.json" 2)" ok \
	"the stonewall falls at the first end on any rank: the held stream had done only part of its work then"
left; ok $? "nothing is left"

# 10. The database families on 2 ranks: wal, oltp, oltp+wal, the latency curve.
mpi -np 2 "$ABM" run -d "$D" -s 64m -n 0 $cache --phases wal,oltp,oltp+wal,latency-curve --wal-seconds 1 \
	--oltp-seconds 1 --oltp-procs 1 --curve-seconds 1 --curve-steps 3 --rate-start 100 --rate-factor 2 \
	--json "$T/db.json" >/dev/null 2>"$T/err"
ran $? "wal, oltp, oltp+wal and the latency curve on 2 ranks"
is "$(python3 "$check" families "$T/db.json" 2 100 2)" ok \
	"each row's per-rank rows add up to it; each curve step offered the sum of the ranks' rates"
left; ok $? "nothing is left"

# 11. Room for every rank: the ranks' files share one file system.
if is_root && [ -e /dev/loop-control ]; then
	make_loop_fs "$T/small" 160
	chmod 1777 "$T/small"
	mpi -np 4 "$ABM" run -d "$T/small" -s 48m -n 0 -f $cache --phases block-write >/dev/null 2>"$T/err"
	is $? 3 "4 ranks' 48M test files on a 160M file system: refused before any phase, exit 3"
	grep -q "4 ranks share the room, each the free space over 4: not enough space" "$T/err"
	ok $? "saying the ranks share the room"
	ok "$(ls -A "$T/small" | grep -v lost+found | wc -l)" "nothing is left on it"
else
	skip "needs root and loop devices: the room shared by the ranks"
	skip "needs root and loop devices: its message"
	skip "needs root and loop devices: nothing left"
fi

# 12. One rank is plain arraybench.
mpi -np 1 "$ABM" run -d "$D" -s 48m -n 1 -f $cache --json "$T/one.json" >/dev/null 2>"$T/err"
ran $? "one rank"
"$AB" run -d "$D" -s 48m -n 1 -f $cache --json "$T/plain.json" >/dev/null 2>"$T/err"
ran $? "plain arraybench, the same options"
is "$(python3 "$check" one-rank "$T/one.json" "$T/plain.json")" ok \
	"the same phases; one per-rank row each, the aggregate's own figures"
left; ok $? "nothing is left"
done_testing
