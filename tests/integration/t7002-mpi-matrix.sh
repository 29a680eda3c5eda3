#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mpirun -np 2 arraybench-mpi matrix: the cells handed out to the ranks,
# each visit made by its own rank (its own process, its own loop image),
# every run in rank 0's results.jsonl once, with the host it ran on; a
# second start resumes and runs nothing; one rank is the plain matrix; a
# cell that fails on rank 1 is recorded by rank 0; SIGINT and a rank
# killed mid-visit stop every rank; nothing left.  --dry-run under MPI works as any user; the rest needs root.
. "$(dirname "$0")/lib.sh"
ABM=${ABM:-$top/arraybench-mpi}
[ -x "$ABM" ] || skip_all "no arraybench-mpi (make mpi)"
command -v mpirun >/dev/null || skip_all "no mpirun (make deps)"
plan 22
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
chmod 755 "$T" "$TMPDIR"
# Open MPI refuses root unless told; a user needs nothing.
if is_root; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
mpin() { # N arraybench-mpi's arguments: on N ranks of this machine, under a timeout
	local n=$1; shift
	timeout 300 mpirun --oversubscribe --bind-to none --mca btl self,vader -np "$n" "$ABM" "$@"
}
mpi2() { mpin 2 "$@"; }
left_behind() { # what of ours is still attached, mounted, in TMPDIR or journaled
	# (not the launcher's own session directory, ompi.HOST.UID, which a
	# killed Open MPI job may leave in TMPDIR: it is not ours to remove)
	{ loops "$T/"; mounts "$T/"; ls -A "$TMPDIR" | grep -v '^ompi\.'; ls -A "$ARRAYBENCH_STATE_DIR" 2>/dev/null; } | tr '\n' ' '
}
visits() { # results.jsonl: "cell|repeat|failure" per line, sorted
	python3 -c "
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print('%s|%s|%s' % (r['cell'], r['repeat'], r.get('failure') is not None))" "$1" | sort
}

cat >"$T/m.ini" <<EOF
# one file system x two mount options: two cells, one per rank
[matrix]
loop = 1:320m
levels = none
fs = ext4
mount-opts = defaults; noatime
repeats = 1
options = -s 32m -n 1 -f --phases block-write,block-read -r 16 --cache fadvise
EOF
chmod 644 "$T/m.ini"

# --dry-run needs no root: the plan once (rank 0 says it), nothing made.
mpi2 matrix --dry-run -o "$T/dry" "$T/m.ini" >"$T/plan" 2>"$T/plan.err"
is "$? $(grep -c '^cell [12]/2: ' "$T/plan")" "0 2" "--dry-run on 2 ranks exits 0 and lists the 2 cells once"
[ ! -e "$T/dry" ]; ok $? "--dry-run makes no DIR"

is_root && [ -e /dev/loop-control ] || skip_rest "a matrix builds its targets: needs root and loop devices"

# Another matrix file on rank 1 (the same words, another working
# directory): refused naming it, before rank 0 makes DIR.
mkdir -p "$T/w0" "$T/w1"
cp "$T/m.ini" "$T/w0/m.ini"
sed 's/^repeats = 1/repeats = 2/' "$T/m.ini" >"$T/w1/m.ini"
timeout 300 mpirun --oversubscribe --bind-to none --mca btl self,vader -np 1 -wdir "$T/w0" "$ABM" matrix -o out m.ini : \
	-np 1 -wdir "$T/w1" "$ABM" matrix -o out m.ini >"$T/w.out" 2>"$T/w.err"
st=$?
[ "$st" -ne 0 ] && [ "$st" -ne 124 ] && [ "$(grep -c 'error: rank 1 holds another matrix file' "$T/w.err")" = 1 ] && [ ! -e "$T/w0/out" ]
ok $? "a rank with another matrix file is refused, named once, before DIR is made (got $st)"

mpi2 matrix -o "$T/a" "$T/m.ini" >"$T/a.out" 2>"$T/a.err"
is $? 0 "the matrix on 2 ranks exits 0" || sed 's/^/#   /' "$T/a.err"
is "$(visits "$T/a/results.jsonl" | tr '\n' ' ')" "plain ext4 defaults|1|False plain ext4 noatime|1|False " \
	"results.jsonl holds each cell's run once, with results"
is "$(grep -o 'repeat 1/1 on rank [01]' "$T/a.out" | sort | tr '\n' ',')" \
	"repeat 1/1 on rank 0,repeat 1/1 on rank 1," "cell 1 went to rank 0, cell 2 to rank 1"
# A run id is STAMP-PID-RANDOM: two processes made the two runs (one
# process makes every visit of plain arraybench's matrix).
is "$(js "$T/a/results.jsonl" 'len(set(x["run_id"].split("-")[1] for x in objs))')" 2 \
	"the two runs come from two processes (the ranks)"
is "$(js "$T/a/results.jsonl" 'sorted(set(x["environment"]["host"] for x in objs))')" "[\"$(hostname)\"]" \
	"each run records the host it ran on"
is "$(wc -l <"$T/a/results.csv")" 2 "results.csv has the 2 runs' lines"
is "$(grep -c '^matrix: 2 visits run' "$T/a.out")" 1 "rank 0 alone says the summary"
is "$(left_behind)" "" "no loop device, mount, image or journal left"

# Again: resumed, nothing runs.
cp "$T/a/results.jsonl" "$T/a.before"
mpi2 matrix -o "$T/a" "$T/m.ini" >"$T/again.out" 2>&1
is $? 0 "a second start on the same DIR exits 0"
cmp -s "$T/a.before" "$T/a/results.jsonl" && grep -q '^matrix: 0 visits run (0 failed), 2 already done' "$T/again.out"
ok $? "and runs nothing new"

# One rank is the plain matrix: visit by visit, no hand-out.
mpin 1 matrix -o "$T/one" "$T/m.ini" >"$T/one.out" 2>"$T/one.err"
is "$? $(wc -l <"$T/one/results.jsonl") $(grep -c 'on rank' "$T/one.out") $(grep -c '^matrix: cell [12]/2 repeat 1/1: ' "$T/one.out")" \
	"0 2 0 2" "on one rank the matrix runs as plain arraybench's"

# A cell that fails on rank 1: its failure is a run rank 0 records.
sed 's/^mount-opts.*/mkfs-opts = defaults; -O no_such_feature/' "$T/m.ini" >"$T/bad.ini"
mpi2 matrix -o "$T/bad" "$T/bad.ini" >"$T/bad.out" 2>"$T/bad.err"
is $? 2 "a matrix whose visit failed on rank 1 exits 2"
is "$(visits "$T/bad/results.jsonl" | tr '\n' ' ')" "plain ext4 defaults|1|False plain ext4 mkfs(-O no_such_feature) defaults|1|True " \
	"rank 1's failed visit is recorded by rank 0, beside rank 0's run"
grep -q '^  failed on rank 1: .*mkfs' "$T/bad.out"; ok $? "rank 0 says which rank failed and why"

# SIGINT to mpirun mid-visit: every rank unwinds its own visit.  The
# visit is timed, not sized (commits for 60 s): on a loaded machine a
# sized one could end before the signal.
sed 's/^options = .*/options = --phases wal --wal-sync fdatasync --wal-records 8k --wal-seconds 60 --cache fadvise/' \
	"$T/m.ini" >"$T/long.ini"
# (timeout itself in the background, not a function's subshell: a
# background job of a script ignores SIGINT, timeout passes it on; with
# --foreground to mpirun alone, once, as `kill -INT` of mpirun would:
# else timeout signals its whole process group too, and a second SIGINT
# makes mpirun kill the ranks at once.)  Open MPI SIGKILLs the ranks 1 s
# after it passes the stop on; a loaded host may need longer to unmount
# and detach, so the test gives its launcher the 10 s the manual tells
# users to give theirs.
timeout --foreground 300 mpirun --oversubscribe --bind-to none --mca btl self,vader --mca odls_base_sigkill_timeout 10 \
	-np 2 "$ABM" matrix -o "$T/i" "$T/long.ini" \
	>"$T/i.out" 2>"$T/i.err" &
job=$!
for _ in $(seq 300); do [ "$(ls -A "$ARRAYBENCH_STATE_DIR" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.1; done
kill -INT $job
wait $job
st=$?
[ "$st" -ne 0 ] && [ "$st" -ne 124 ] && grep -q 'run the same command again to resume' "$T/i.err"
ok $? "SIGINT to mpirun mid-visit: every rank stops, non-zero, rank 0 says how to resume (got $st)"
is "$(left_behind)$(cat "$T/i/results.jsonl" | wc -l)" "0" "and leaves no loop device, mount or journal, and no run recorded"

# kill -9 of rank 1 mid-visit: every rank stops, the job exits non-zero.
mpi2 matrix -o "$T/k" "$T/long.ini" >"$T/k.out" 2>"$T/k.err" &
job=$!
rank1=
for _ in $(seq 300); do
	for p in $(pgrep -f "$ABM matrix -o $T/k" 2>/dev/null); do
		grep -qz '^OMPI_COMM_WORLD_RANK=1$' "/proc/$p/environ" 2>/dev/null || continue
		# The rank itself, not one of its workers (the same command line
		# and environment): the one with its own journal
		# (journal-STAMP-PID-RANDOM), so its visit is under way.
		ls -A "$ARRAYBENCH_STATE_DIR" 2>/dev/null | grep -q -- "-$p-" && rank1=$p
	done
	[ -n "$rank1" ] && break
	sleep 0.1
done
[ -n "$rank1" ] && kill -9 "$rank1"
wait $job
st=$?
[ -n "$rank1" ] && [ "$st" -ne 0 ] && [ "$st" -ne 124 ]; ok $? "kill -9 of rank 1 mid-visit: every rank stops, non-zero, no timeout (got $st)"
"$AB" cleanup >"$T/cleanup.out" 2>&1
is "$(left_behind)" "" "after 'arraybench cleanup', nothing left"
is "$(grep -c noatime "$T/k/results.jsonl")" 0 "the killed rank's visit is not recorded (a resume runs it)"

done_testing
