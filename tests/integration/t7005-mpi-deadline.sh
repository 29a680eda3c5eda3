#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench-mpi's sweep with a deadline (--stonewall-time) and wear-out
# (--wearout) on 4 ranks, oversubscribed, shared memory only, every mpirun
# under timeout: each rank's read reads what its own write wrote; wear-out
# takes every stream of every rank to the largest count any rank's had at
# the deadline (the parents meet; the workers make no MPI call); a rank
# whose worker is killed while the others wait at the wall stops them all.  Rank 2's stream
# is made slow by the test-only ARRAYBENCH_TEST_STREAM_DELAY_US
# (src/suite/sweep-run.c: stream K across ranks, rank x streams + worker).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi-lib.sh"

sweep=(--phases sweep --sweep-file-sizes 16m --sweep-records 16k --sweep-tests write,read --streams 1)
ws='[c for c in cells if c["key"]["test"] == "write"][0]'
rs='[c for c in cells if c["key"]["test"] == "read"][0]'

# 1. The deadline alone: every rank's write cut, each read reads its own.
ARRAYBENCH_TEST_STREAM_DELAY_US='*:2000,2:10000' mpi -np 4 "$ABM" run -d "$D" -s 0 -n 0 $cache "${sweep[@]}" \
	--stonewall-time 0.4 --json "$T/a.json" >"$T/a.out" 2>"$T/err"
ran $? "4 ranks sweep with a 0.4 s deadline"
is "$(js "$T/a.json" "len($ws['per_worker'])")" 4 "a stream on each of 4 ranks"
is "$(js "$T/a.json" "all(0 < w['bytes'] == w['bytes_at_deadline'] < 16 << 20 for w in $ws['per_worker'])")" true \
	"every rank's stream stopped at its deadline, short of its file"
is "$(js "$T/a.json" "min(range(4), key=lambda i: $ws['per_worker'][i]['bytes'])")" 2 "rank 2's slow stream did least"
is "$(js "$T/a.json" "[w['bytes'] for w in $rs['per_worker']] == [w['bytes'] for w in $ws['per_worker']]")" true \
	"each rank's read moved what its own write wrote"
left; ok $? "nothing is left"

# 2. Wear-out: every stream of every rank ends at the largest count.
ARRAYBENCH_TEST_STREAM_DELAY_US='*:2000,2:10000' mpi -np 4 "$ABM" run -d "$D" -s 0 -n 0 $cache "${sweep[@]}" \
	--stonewall-time 0.4 --wearout --json "$T/b.json" >"$T/b.out" 2>"$T/err"
ran $? "the same with --wearout"
is "$(js "$T/b.json" "min(range(4), key=lambda i: $ws['per_worker'][i]['bytes_at_deadline'])")" 2 \
	"rank 2's stream had done least at the deadline"
is "$(js "$T/b.json" "sorted(set(w['bytes'] for w in $ws['per_worker'])) == [$ws['max_bytes_at_deadline']]")" true \
	"every rank's stream wrote the largest count any had at the deadline"
is "$(js "$T/b.json" "$ws['max_bytes_at_deadline'] > $ws['min_bytes_at_deadline']")" true \
	"a count another rank's stream had: the ranks' largest, not each rank's own"
is "$(js "$T/b.json" "[w['bytes'] for w in $rs['per_worker']] == [w['bytes'] for w in $ws['per_worker']]")" true \
	"and every rank's read moved that much"
is "$(js "$T/b.json" "sorted(r['bytes'] for r in $ws['per_rank']) == [$ws['max_bytes_at_deadline']] * 4")" true \
	"the per-rank rows agree"
left; ok $? "nothing is left"

# 4 (before 3, which kills). A deadline shorter than the ranks' spread at
# the start: each stream's deadline counts from its own start, so the rate
# at it adds streams that did not all run at once, and the text says so.
# Rank 2 leaves the barrier 1 s late (the test-only ARRAYBENCH_TEST_DELAY_S
# with ARRAYBENCH_TEST_NO_BARRIER: the ranks go without meeting).
ARRAYBENCH_TEST_NO_BARRIER=1 ARRAYBENCH_TEST_DELAY_S=2:1 ARRAYBENCH_TEST_STREAM_DELAY_US='*:2000' mpi -np 4 "$ABM" \
	run -d "$D" -s 0 -n 0 $cache "${sweep[@]}" --stonewall-time 0.2 --json "$T/s.json" >"$T/s.out" 2>"$T/err"
ran $? "4 ranks, rank 2 a second late, a 0.2 s deadline"
is "$(js "$T/s.json" "$ws['start_spread_s'] > 0.2")" true "the ranks' starts spread wider than the deadline"
grep -q "^   the ranks' starts spread over [0-9.]* s, more than the 0.2 s deadline: the rate at the deadline adds streams that did not all run at once$" "$T/s.out"
ok $? "the text says the rate at the deadline adds streams that did not all run at once"
left; ok $? "nothing is left"

# 3. A rank killed while the others wait at the wall: every rank stops.
# Rank 2's stream sleeps 8 s after its first record, so the other ranks'
# streams reach their 0.5 s deadline and wait for its count; then it is
# killed.
ARRAYBENCH_TEST_STREAM_DELAY_US='*:2000,2:8000000' mpi -np 4 "$ABM" run -d "$D" -s 0 -n 0 $cache "${sweep[@]}" \
	--stonewall-time 0.5 --wearout >/dev/null 2>"$T/err" &
pid=$!
kill_at_exit $pid
await 'w=$(worker_of_rank 2) && [ -n "$(find "$D" -path "*rank-00002/*" -type f -size +15k)" ]'
ok $? "rank 2's stream has written its first record"
sleep 2 # the others are at the wall by now, waiting for rank 2
kill -KILL "$w"
start=$SECONDS
wait $pid
rc=$?
ok "$([ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ]; echo $?)" "every rank stops and exits non-zero, before the timeout (mpirun: $rc)"
ok "$([ $((SECONDS - start)) -le 10 ]; echo $?)" "every rank stopped within 10 s of the kill ($((SECONDS - start)) s)"
grep -q "error: rank 2: .*killed by signal 9" "$T/err" || { sed 's/^/# /' "$T/err"; false; }
ok $? "rank 0 names rank 2's killed worker"
await left 30; ok $? "nothing is left"

done_testing
