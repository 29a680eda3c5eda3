# SPDX-License-Identifier: GPL-2.0-or-later
# What the arraybench-mpi scripts share, sourced after lib.sh: the binary
# (a check that it is built), Open MPI's consent as root, its session
# files in $T, the mpirun wrapper (shared memory only, no binding, every
# mpirun under timeout and given the test switches), the directory D, the
# cache options, and the helpers that find a rank's worker and tell what
# is left.  A script may set MPI_HANG before sourcing it.
ABM=${ABM:-$top/arraybench-mpi}
check=$top/tests/integration/mpi-check.py
[ -x "$ABM" ] || { ok 1 "arraybench-mpi is built (make check builds it; make deps installs Open MPI)"; done_testing; exit 0; }
need mpirun python3 || skip_all "needs mpirun and python3 (make deps installs them)"
ok 0 "arraybench-mpi is built"
if is_root; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
# Open MPI keeps its session files under TMPDIR: ours, so none is left.
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
# No MPI call may hang a check: every mpirun gives up after MPI_HANG s.
MPI_HANG=${MPI_HANG:-240}
mpi() { # mpirun's arguments: shared memory only, no binding, our environment
	timeout -k 10 "$MPI_HANG" mpirun --oversubscribe --bind-to none --mca btl self,vader \
		--mca btl_vader_single_copy_mechanism none \
		-x ARRAYBENCH_STATE_DIR -x TMPDIR ${ARRAYBENCH_RUN_ID+-x ARRAYBENCH_RUN_ID} -x ARRAYBENCH_TEST_DELAY_S \
		-x ARRAYBENCH_TEST_NO_BARRIER -x ARRAYBENCH_TEST_CLOCK_OFFSET_NS -x ARRAYBENCH_TEST_FAKE_NODES \
		-x ARRAYBENCH_TEST_STREAM_DELAY_US "$@"
}
# ARRAYBENCH_RUN_ID goes to the ranks only when a check sets it.
export ARRAYBENCH_RUN_ID= ARRAYBENCH_TEST_DELAY_S= ARRAYBENCH_TEST_NO_BARRIER= ARRAYBENCH_TEST_CLOCK_OFFSET_NS= \
	ARRAYBENCH_TEST_FAKE_NODES= ARRAYBENCH_TEST_STREAM_DELAY_US=
unset ARRAYBENCH_RUN_ID
# Four ranks' groups at once, each at the smallest -r: their writers write
# behind in a v1 group, so none meets the out-of-memory killer (it did,
# before, at 16M and once at 24M on a loaded machine).
cache=$(cache_args)
D=$T/d
mkdir -p "$D"
ran() { # status description: the run's exit status is 0; else what it said, as diagnostics
	is "$1" 0 "$2"
	[ "$1" = 0 ] || sed 's/^/# /' "$T/err"
}
no_procs() { [ -z "$(procs -f "$ABM run")" ]; }
state_empty() { [ ! -d "$ARRAYBENCH_STATE_DIR" ] || dir_is_empty "$ARRAYBENCH_STATE_DIR"; }
left() { # nothing of any run in D or the state directory, no rank or worker running
	dir_is_empty "$D" && state_empty && no_procs
}
rank_of() { tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p'; }
worker_of_rank() { # rank: a worker of that rank (a child of the rank's process)
	local p
	for p in $(procs -f "$ABM run"); do
		[ "$(rank_of "$p")" = "$1" ] || continue
		[ "$(cat "/proc/$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null)/comm" 2>/dev/null)" = arraybench-mpi ] &&
			{ echo "$p"; return 0; }
	done
	return 1
}
