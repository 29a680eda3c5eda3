#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench-mpi's --mpi-layout shared and shared-file on one machine: 4 ranks, oversubscribed,
# shared memory only, every mpirun under timeout.  The file phases of every
# rank work in one directory, DIR/arraybench.RUNID/files (and its NNNNN/
# subdirectories), each rank with names of its own; --reorder then stats
# the names of the rank one node on; nothing is left, and after a kill -9
# of a rank mid-create `arraybench cleanup` removes the rest.  With
# shared-file the I/O phases of every rank work in one file, each in its
# segment, never truncating it.  Plain arraybench refuses the layouts.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi-lib.sh"
traced() { # log-dir mpirun-arguments...: each rank under strace -y (descriptors shown as paths)
	local st=$1
	shift
	mkdir -p "$st"
	mpi -np 4 sh -c 'exec strace -f -q -y -e trace=openat,mkdirat,newfstatat -o "$0/rank-$OMPI_COMM_WORLD_RANK" "$@"' \
		"$st" "$@"
}
# What rank R's strace log shows of its file-set files: the directories
# it created them in (an O_EXCL open of a file-set name), one a line; or the
# indexes (seq-create's names: 10 hex digits first) of the first 1024 it
# created (seq-create runs first) or stat-ed, as "LOW HIGH".
traced_files() { # log-dir rank dirs|created|stated
	python3 - "$1/rank-$2" "$3" <<'PY'
import os, re, sys
log, what = sys.argv[1], sys.argv[2]
dirs, created, stated = set(), [], []
call = re.compile(r'(openat|newfstatat)\(\d+<([^>]*)>, "((?:\d{5}/)?)([0-9a-zA-Z]+)", ([^)]*)')
for line in open(log):
    m = call.search(line)
    if not m or not re.fullmatch(r'[0-9a-zA-Z]{10,22}', m.group(4)) or not re.search(r'/files(/\d{5})?$', m.group(2)):
        continue
    if m.group(1) == "openat" and "O_CREAT|O_EXCL" in m.group(5):
        dirs.add(os.path.join(m.group(2), m.group(3)).rstrip("/"))
        created.append(m.group(4))
    elif m.group(1) == "newfstatat":
        stated.append(m.group(4))
def span(names):
    v = [int(n[:10], 16) for n in names if re.match(r'[0-9a-f]{10}', n)]
    return "%d %d" % (min(v), max(v)) if v else "none"
print("\n".join(sorted(dirs)) if what == "dirs" else span(created[:1024]) if what == "created" else span(stated))
PY
}

# 1. Four ranks, -n 1, the six file phases in one directory.
if need strace; then
	traced "$T/st1" "$ABM" run -d "$D" -s 0 -n 1 -f $cache --mpi-layout shared \
		--phases seq-create,seq-stat,seq-delete,rand-create,rand-stat,rand-delete \
		--json "$T/shared.json" >/dev/null 2>"$T/err"
	ran $? "4 ranks, --mpi-layout shared -n 1, the file phases"
	shared_files=$D/arraybench.$(js "$T/shared.json" 'o["run_id"]')/files
	for r in 0 1 2 3; do
		traced_whole "$T/st1/rank-$r"
		is "$(traced_files "$T/st1" $r dirs)" "$shared_files" "rank $r creates its files in the ranks' one files/"
		is "$(traced_files "$T/st1" $r created)" "$((r * 1024)) $((r * 1024 + 1023))" \
			"rank $r names its files from its own range of indexes"
	done
	is "$(cat "$T"/st1/rank-* | grep -c 'mkdirat([0-9]*<[^>]*>, "files", 0700) = 0')" 1 \
		"files/ is made once (by whichever rank comes first) and kept until the end"
	is "$(js "$T/shared.json" 'o["mpi"]["layout"]')" shared "the run records its layout"
else
	skip "strace is missing (make deps installs it)"
fi
left; ok $? "nothing is left in DIR or the state directory, no process"

# 2. Subdirectories (-n 1:0:0:4) and --reorder with two nodes of two ranks:
# every rank creates in the same four directories, and stats the names
# of rank r + 2.
if need strace; then
	ARRAYBENCH_TEST_FAKE_NODES=2 traced "$T/st2" "$ABM" run -d "$D" -s 0 -n 1:0:0:4 -f $cache --mpi-layout shared \
		--reorder --phases seq-create,seq-stat,seq-delete --json "$T/subdirs.json" >/dev/null 2>"$T/err"
	ran $? "4 ranks, --mpi-layout shared -n 1:0:0:4 --reorder"
	shared_files=$D/arraybench.$(js "$T/subdirs.json" 'o["run_id"]')/files
	want=$(printf '%s\n' "$shared_files"/0000{0,1,2,3})
	for r in 0 1 2 3; do
		traced_whole "$T/st2/rank-$r"
		is "$(traced_files "$T/st2" $r dirs)" "$want" "rank $r creates in the ranks' files/00000 to 00003"
		p=$(((r + 2) % 4))
		is "$(traced_files "$T/st2" $r stated)" "$((p * 1024)) $((p * 1024 + 1023))" \
			"rank $r stats the names of rank $p, never its own"
	done
else
	skip "strace is missing (make deps installs it)"
fi
left; ok $? "nothing is left"

# 3. kill -9 of a rank mid-create: the others leave; cleanup removes the
# files in the shared tree, then the ranks' directory.  Rank 1 (rank 0,
# whose journal holds the shared tree, survives it and waits for rank 1's
# directory) and rank 0 (its journal is left whole to cleanup).
for victim in 1 0; do
	mpi -np 4 "$ABM" run -d "$D" -s 0 -n 64 -b $cache --mpi-layout shared --phases seq-create \
		>/dev/null 2>"$T/err" &
	pid=$!
	kill_at_exit $pid
	# Its files are being made: a name of its range in the shared files/.
	lo=$(printf '%010x' $((victim * 65536)))
	await 'w=$(worker_of_rank '$victim') && [ -n "$(find "$D" -path "*/files/$lo*" 2>/dev/null)" ]'
	ok $? "rank $victim is creating in the shared files/"
	kill -KILL "$(awk '{print $4}' "/proc/$w/stat")"
	wait $pid
	ok "$([ $? -ne 0 ]; echo $?)" "kill -9 of rank $victim: the run fails"
	await '[ -z "$(procs -f "$ABM run")" ]' 60; ok $? "no rank or worker is left running"
	"$AB" cleanup >"$T/cleanup" 2>&1
	ran $? "arraybench cleanup finishes the journals"
	left; ok $? "and nothing is left: the shared files/, the ranks' directory, the journals"
	left || { find "$D" "$ARRAYBENCH_STATE_DIR" | head -20 | sed 's/^/# /'; sed 's/^/# /' "$T/cleanup"; }
done

# 4. A files/ that is not a directory of this user's (a symlink planted
# while the ranks write their I/O files) is refused, never followed.
mkdir -p "$T/elsewhere"
mpi -np 4 "$ABM" run -d "$D" -s 48m -n 1 $cache --mpi-layout shared --phases per-char-write,seq-create \
	>/dev/null 2>"$T/err" &
pid=$!
kill_at_exit $pid
await '[ -n "$(find "$D" -maxdepth 3 -name "arraybench.*.io" -size +1M)" ]'
ok $? "the ranks are writing their I/O files"
ranks_dir=$(echo "$D"/arraybench.*)
ln -s "$T/elsewhere" "$ranks_dir/files"
wait $pid
ok "$([ $? -ne 0 ]; echo $?)" "a symlink as the shared files/: the run fails"
grep -q "refusing '[^']*/files' in the ranks' shared directory: not a directory of this user's" "$T/err"
said=$?
ok $said "saying why"
[ $said = 0 ] || grep -v '^-\|^ *$' "$T/err" | sed 's/^/# /' | head -8
dir_is_empty "$T/elsewhere"; ok $? "nothing was made through the symlink"
await '[ -z "$(procs -f "$ABM run")" ]' 60; ok $? "no rank or worker is left running"
grep -q "left alone: remove-shared-test-files $ranks_dir: cannot open its 'files'" "$T/err"
ok $? "the teardown leaves the planted files/ and the ranks' directory alone, saying so"
rm -f "$ranks_dir/files" && rmdir "$ranks_dir"
left; ok $? "once they are removed by hand, nothing is left"

# 5. --mpi-layout shared-file: bonnie++'s I/O phases of every rank in one
# file, DIR/arraybench.RUNID.io, each rank in its segment (48M apart);
# with --reorder and two nodes of two ranks, the phases that read (rewrite,
# block-read, seeks) in the segment of rank r + 2.
# Rank R's strace log: the offsets it moved to in the ranks' file (the
# sequential phases open it and lseek to their segment), and whether any
# open of it truncated it.
seg_seeks() { # log-dir rank
	sed -n 's/.*lseek([0-9]*<[^>]*\/arraybench\.[^/>]*\.io>, \([0-9]*\), SEEK_SET).*/\1/p' "$1/rank-$2" | sort -nu |
		tr '\n' ' '
}
if need strace; then
	for reorder in "" --reorder; do
		st=$T/sf${reorder:+-r}
		mkdir -p "$st"
		ARRAYBENCH_TEST_FAKE_NODES=${reorder:+2} mpi -np 4 \
			sh -c 'exec strace -f -q -y -e trace=openat,lseek -o "$0/rank-$OMPI_COMM_WORLD_RANK" "$@"' "$st" \
			"$ABM" run -d "$D" -s 48m -n 0 -f $cache --mpi-layout shared-file $reorder \
			--phases block-write,rewrite,block-read,seeks --json "$st.json" >/dev/null 2>"$T/err"
		ran $? "4 ranks, --mpi-layout shared-file ${reorder:-(no reorder)}"
		is "$(js "$st.json" 'o["mpi"]["layout"]')" shared-file "the run records the layout"
		io=arraybench.$(js "$st.json" 'o["run_id"]').io
		for r in 0 1 2 3; do
			traced_whole "$st/rank-$r"
			# block-write at its own segment; with --reorder the reads at the partner's.
			own=$((r * 48 * 1048576))
			partner=$((((r + 2) % 4) * 48 * 1048576))
			want="$own "
			[ -n "$reorder" ] && want=$(printf '%s\n' $own $partner | sort -n | tr '\n' ' ')
			what="its own segment"
			[ -n "$reorder" ] && what="its own segment and that of rank $(((r + 2) % 4))"
			is "$(seg_seeks "$st" $r)" "$want" "rank $r works in the ranks' one file at offsets $want($what)"
			ok "$(grep "$io" "$st/rank-$r" | grep -c 'O_TRUNC')" "rank $r never truncates the ranks' file"
		done
		left; ok $? "nothing is left"
	done
else
	skip "strace is missing (make deps installs it)"
fi

# 6. Off MPI, and a layout that does not exist.
"$AB" run -d "$D" -s 0 -n 1 -f --mpi-layout shared >/dev/null 2>"$T/err"
is $? 1 "plain arraybench refuses --mpi-layout shared: exit 1"
grep -q "\-\-mpi-layout 'shared' works on many ranks only" "$T/err"; ok $? "saying so"
"$AB" run -d "$D" -s 0 -n 1 -f --mpi-layout segments >/dev/null 2>"$T/err"
is $? 1 "an unknown layout: exit 1"
grep -q "segments" "$T/err"; ok $? "naming it"
left; ok $? "nothing is left"
done_testing
