#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench-mpi against a hostile or careless user, on one machine (4
# ranks, oversubscribed, shared memory only, every mpirun under timeout):
# a run directory planted where rank 0 makes its own, bad values of the
# test-only switches, --reorder where there is no other node.  Each is
# refused (or ignored) cleanly: one line, no rank left running, nothing
# left in DIR or the state directory, nothing outside the run's own touched.
. "$(dirname "$0")/lib.sh"
MPI_HANG=${MPI_HANG:-120}
. "$(dirname "$0")/mpi-lib.sh"
short="-s 48m -n 0 -f $cache --phases block-write"
refused() { # status description: non-zero, but not the timeout's (124) nor a kill's (137)
	ok "$([ "$1" -ne 0 ] && [ "$1" -ne 124 ] && [ "$1" -ne 137 ]; echo $?)" "$2 (mpirun: $1)"
}
errors() { grep -c '^arraybench: error: ' "$T/err"; }

# 1. arraybench.RUNID planted in DIR before the run: a symbolic link to a
# directory of the planter's, a file, another user's directory.  Rank 0's
# mkdir fails; every rank stops, and what was planted stays as it was.
export ARRAYBENCH_RUN_ID=hostile1
plant=$D/arraybench.hostile1
mkdir -p "$T/victim"
for kind in symlink file foreign; do
	case $kind in
	symlink) ln -s "$T/victim" "$plant" ;;
	file) echo planted >"$plant" ;;
	foreign)
		if ! is_root; then
			skip "another user's directory: needs root to make one"
			skip "another user's directory: needs root to make one"
			skip "another user's directory: needs root to make one"
			continue
		fi
		mkdir "$plant" && chown nobody "$plant"
		;;
	esac
	mpi -np 4 "$ABM" run -d "$D" $short >/dev/null 2>"$T/err"
	refused $? "a planted $kind where rank 0 makes the run's directory: refused"
	is "$(errors)" 1 "one error line"
	ok "$(grep -q "cannot make the directory '.*/arraybench.hostile1': File exists" "$T/err" &&
		dir_is_empty "$T/victim" && { [ $kind != foreign ] || [ "$(stat -c %U "$plant")" = nobody ]; } && [ "$(ls -A "$D")" = arraybench.hostile1 ] && state_empty && no_procs
		echo $?)" "naming it; the plant untouched, nothing else left in DIR or the state directory, no rank running"
	rm -rf "$plant"
done
unset ARRAYBENCH_RUN_ID

# 2. Bad values of the test-only switches are ignored, never a hang or a
# crash: a delay no nanosleep() takes (rank 1 spun at 100 % for ever), an
# offset that overflows the clock.
for v in 1:1e30 1:inf; do
	ARRAYBENCH_TEST_DELAY_S=$v MPI_HANG=60 mpi -np 4 "$ABM" run -d "$D" $short >/dev/null 2>"$T/err"
	ran $? "ARRAYBENCH_TEST_DELAY_S=$v is ignored: the run ends"
done
ARRAYBENCH_TEST_CLOCK_OFFSET_NS=1:9223372036854775807,2:-9223372036854775808 mpi -np 4 "$ABM" run -d "$D" \
	-s 48m -n 0 -f $cache --phases block-write,block-read --json "$T/clocks.json" >/dev/null 2>"$T/err"
ran $? "ARRAYBENCH_TEST_CLOCK_OFFSET_NS at the ends of 64 bits: ignored"
is "$(python3 "$check" model "$T/clocks.json" 4)" ok "the aggregates add up"
left; ok $? "nothing is left"

# 3. --reorder where every rank is on one node would read each rank's own
# files from its own page cache, as if reordered: refused, exit 1.  A fake
# node count that does not divide the ranks is ignored, so the same.
mpi -np 4 "$ABM" run -d "$D" $short --reorder >/dev/null 2>"$T/err"
is $? 1 "--reorder on one node: refused, exit 1"
grep -q "error: .*--reorder needs ranks on two or more nodes: all 4 ranks are on one" "$T/err"; ok $? "saying why"
ARRAYBENCH_TEST_FAKE_NODES=3 mpi -np 4 "$ABM" run -d "$D" $short --reorder >/dev/null 2>"$T/err"
is $? 1 "--reorder with 4 ranks on a fake 3 nodes (ignored): refused, exit 1"
left; ok $? "nothing is left"

# 4. SIGTERM to one rank only, mid-phase, with a launcher that does not
# kill the others when a rank exits non-zero (Open MPI's
# orte_abort_on_non_zero_status 0; MPICH's Hydra waits for every rank's
# MPI_Finalize): the stopped rank's fault must reach the others.  It
# was never sent (its status had been "said" at a meeting it then left),
# and the others waited at their next meeting for ever.
MPI_HANG=150 mpi --mca orte_abort_on_non_zero_status 0 -np 4 "$ABM" run -d "$D" -s 64m -n 0 $cache \
	--phases per-char-write >/dev/null 2>"$T/err" &
pid=$!
kill_at_exit $pid
await 'w=$(worker_of_rank 2)'; ok $? "rank 2's worker is running"
kill -TERM "$(awk '{print $4}' "/proc/$w/stat")"
wait $pid
rc=$?
ok "$([ $rc -ne 124 ] && [ $rc -ne 137 ]; echo $?)" "every rank ends, before the timeout (mpirun: $rc)"
grep -q "error: rank 2: interrupted during phase 'per-char-write'" "$T/err"; ok $? "rank 0 names rank 2 and its stop"
await left 30; ok $? "nothing is left"

done_testing
