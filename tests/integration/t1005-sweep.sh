#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The record-size sweep: every column of iozone's grid, what each cell timed
# and found cached, the timing switches seen in the syscalls, its CSV and
# JSON, and `report` drawing the same grid from the saved run.
. "$(dirname "$0")/lib.sh"
d=$T/dir; mkdir "$d"

tests="write rewrite read reread random-read random-write backward-read record-rewrite stride-read fwrite frewrite fread freread"

# A small grid, every test: 2 file sizes x 2 records (records given: no crossover).
# (its warm cells must find their file cached: run again if another job drops the cache)
warm_run '"$AB" run -d "$d" --phases sweep --sweep-file-sizes 256k,1m --sweep-records 4k,64k \
	--json "$T/s.json" --sweep-csv "$T/s.csv" -x 2 >"$T/s.out" 2>"$T/s.err"' "$T/s.json" "$T/s.csv"
is $? 0 "a small sweep exits 0" || sed 's/^/#   /' "$T/s.err"
grid_rows=$(grep -cE '^ +(256|1024) +(4|64)( +[0-9]+[cw ]?){13}$' "$T/s.out")
is "$grid_rows" 8 "the grid has a row per cell and run, each with all 13 columns filled"
for w in write rewrite random bkwd record stride fwrite frewrite fread freread; do
	grep -qw -- "$w" "$T/s.out" || { echo "# no column $w"; false; } || break
done
ok $? "every iozone column heading is there"
is "$(grep -c '^1\.98,' "$T/s.out")" 0 "a sweep alone prints no bonnie++ CSV line"
is "$(js "$T/s.json" 'len(cells)')" 52 "the JSON holds 4 cells x 13 tests as keyed results"
is "$(js "$T/s.json" '" ".join(sorted(set(c["key"]["test"] for c in cells), key=lambda t: [c["key"]["test"] for c in cells].index(t)))')" \
	"$tests" "each test is a key, in iozone's order"
is "$(js "$T/s.json" 'sorted(set((c["key"]["file_size_bytes"], c["key"]["record_size_bytes"], c["key"]["streams"]) for c in cells))')" \
	"[[262144, 4096, 1], [262144, 65536, 1], [1048576, 4096, 1], [1048576, 65536, 1]]" "cells keyed by file size, record and streams"
is "$(js "$T/s.json" 'sorted(set("+".join(c["timed"]) for c in cells))')" \
	'["fread", "fwrite+fflush+fsync", "read", "write+fsync"]' "by default writes time their fsync, reads only the reads"
is "$(js "$T/s.json" 'all(c["bytes"] == c["key"]["file_size_bytes"] and c["ops"] * c["key"]["record_size_bytes"] == c["bytes"] for c in cells)')" \
	"true" "every cell moved its whole file, a record per operation"
# Cache honesty: cold reads start with nothing cached, the warm ones say so.
is "$(js "$T/s.json" 'sorted(set(c["cache_state"] for c in cells if c["key"]["test"] in ("read","random-read","backward-read","stride-read","fread")))')" \
	'["cold"]' "read tests start cold"
is "$(js "$T/s.json" 'max(c["resident_at_start"] for c in cells if c["cache_state"] == "cold")')" "0.0" \
	"a cold read cell found none of its file cached (mincore)"
is "$(js "$T/s.json" 'sorted(set(c["cache_state"] for c in cells if c["key"]["test"] in ("reread","freread")))')" \
	'["warm"]' "reread and freread are warm by definition"
is "$(js "$T/s.json" 'min(c["resident_at_start"] for c in cells if c["key"]["test"] in ("reread","freread"))')" "1.0" \
	"... and found their file cached"
grep -q '^c  read from the page cache' "$T/s.out"; ok $? "the table marks cache figures and says what the mark means"

# --sweep-csv: one header, a named row per cell of both runs.
is "$(grep -c '^run_id,' "$T/s.csv")" 1 "--sweep-csv writes its header once"
is "$(grep -vc '^run_id,' "$T/s.csv")" 104 "--sweep-csv has a row per cell and run"
is "$(awk -F, 'NR == 1 { n = NF } NF != n { bad++ } END { print bad + 0 }' "$T/s.csv")" 0 "every row has the header's columns"

# report draws the same grid from the saved JSON.
"$AB" report "$T/s.json" >"$T/r.out" 2>"$T/r.err"
is $? 0 "report reads the saved sweep"
is "$(grep -E '^ +(256|1024) +(4|64) ' "$T/r.out")" "$(grep -E '^ +(256|1024) +(4|64) ' "$T/s.out")" \
	"report shows the grid the run printed"
"$AB" report --format sweep-csv "$T/s.json" >"$T/r.csv" 2>>"$T/r.err"
is "$(cat "$T/r.csv")" "$(cat "$T/s.csv")" "report --format sweep-csv gives the rows the run appended"
"$AB" report --format json "$T/s.json" >"$T/r.json" 2>>"$T/r.err"
cmp -s "$T/r.json" "$T/s.json"; ok $? "the sweep's JSON reads back byte for byte"

# --cache none: nothing evicted, so the read cell finds its file cached.
warm_run '"$AB" run -d "$d" --phases sweep --sweep-file-sizes 1m --sweep-records 64k --sweep-tests write,read \
	--cache none -r 16 --json "$T/n.json" -q >/dev/null 2>"$T/n.err"' "$T/n.json"
is $? 0 "--cache none sweep exits 0" || sed 's/^/#   /' "$T/n.err"
is "$(js "$T/n.json" '[c["cache_state"] for c in cells if c["key"]["test"] == "read"][0]')" "warm" \
	"under --cache none the read cell says warm"
is "$(js "$T/n.json" '[c["resident_at_start"] > 0.9 for c in cells if c["key"]["test"] == "read"][0]')" "true" \
	"... and found its file in the page cache"

# --include-close without --include-fsync: close timed, no fsync issued at
# all (iozone -c), seen by strace; --cache none so nothing is evicted.
rm -f "$T/c.trace"
strace -f --seccomp-bpf -e trace=fsync,fdatasync,sync_file_range,syncfs,sync -o "$T/c.trace" \
	"$AB" run -d "$d" --phases sweep --sweep-file-sizes 1m --sweep-records 64k --sweep-tests write,rewrite,fwrite \
	--include-close --cache none -r 16 --json "$T/c.json" -q >/dev/null 2>"$T/c.err"
is $? 0 "--include-close sweep exits 0" || sed 's/^/#   /' "$T/c.err"
# The workers' calls: every pid but arraybench's own (whose journal is synced).
worker_syncs() { awk 'NR == 1 { main = $1 } $1 != main && /(fsync|fdatasync|sync_file_range|syncfs|sync)\(/ { n++ } END { print n + 0 }' "$1"; }
n=$(worker_syncs "$T/c.trace")
traced_whole "$T/c.trace" && [ "$n" = 0 ]; ok $? "--include-close alone: the workers issue no fsync ($n seen)"
is "$(js "$T/c.json" 'sorted(set("+".join(c["timed"]) for c in cells))')" '["fwrite+fclose", "write+close"]' \
	"--include-close cells say close was timed"
rm -f "$T/e.trace"
strace -f --seccomp-bpf -e trace=fsync,fdatasync,sync_file_range,syncfs,sync -o "$T/e.trace" \
	"$AB" run -d "$d" --phases sweep --sweep-file-sizes 1m --sweep-records 64k --sweep-tests write \
	--include-fsync --include-close --cache none -r 16 -q >/dev/null 2>"$T/e.err"
n=$(worker_syncs "$T/e.trace")
traced_whole "$T/e.trace" && [ "$n" -ge 1 ]; ok $? "the same with --include-fsync does ($n seen: the observer sees them)"

# --streams: N workers at once, each its own file, both aggregate figures.
# (32 MiB each: a stream of 4 MiB can be over within its first time slice,
# so on a loaded machine four of them could run one after the other.)
"$AB" run -d "$d" --phases sweep --sweep-file-sizes 32m --sweep-records 64k --sweep-tests write,read \
	--streams 1,4 --json "$T/m.json" >"$T/m.out" 2>"$T/m.err"
is $? 0 "--streams 1,4 exits 0" || sed 's/^/#   /' "$T/m.err"
is "$(js "$T/m.json" 'sorted(set(c["key"]["streams"] for c in cells))')" "[1, 4]" "a pass of the grid per stream count"
is "$(js "$T/m.json" '[len(set(w["pid"] for w in c["per_worker"])) for c in cells]')" "[1, 1, 4, 4]" \
	"each 4-stream cell ran 4 processes"
# At once: every worker started before any ended.
is "$(js "$T/m.json" '[c["workers"] == 4 and c["elapsed_s"] < sum(w["elapsed_s"] for w in c["per_worker"]) for c in cells if c["key"]["streams"] == 4]')" \
	"[true, true]" "... running at the same time (the cell took less than the workers' summed time)"
is "$(js "$T/m.json" '[c["stonewall_rate"] is not None and c["end_to_end_rate"] == c["rate"] and c["min_worker_rate"] <= c["max_worker_rate"] and 0 < c["min_bytes_at_stonewall"] <= 33554432 for c in cells if c["key"]["streams"] == 4]')" \
	"[true, true]" "stonewall and end-to-end figures, per-stream min/max and the least work done"
is "$(js "$T/m.json" 'all(sum(w["bytes"] for w in c["per_worker"]) == c["bytes"] == 33554432 * c["key"]["streams"] for c in cells)')" \
	"true" "every stream moved its whole file"
grep -q '^  stonewall   the sum of each stream' "$T/m.out" && grep -qE '^ +4 +32768 +64 write +[0-9]+ +[0-9]+' "$T/m.out"
ok $? "the table names both figures and lists them per cell"
"$AB" run -d "$d" --phases sweep --sweep-file-sizes 1m --sweep-records 64k --sweep-tests write,read \
	--streams 3 --shared-file --json "$T/h.json" -q >/dev/null 2>"$T/h.err"
is $? 0 "--streams 3 --shared-file exits 0" || sed 's/^/#   /' "$T/h.err"
is "$(js "$T/h.json" '[len(c["per_worker"]) for c in cells]')" "[3, 3]" "... with three workers on the one file"
"$AB" run -d "$d" --phases sweep --streams 0 >/dev/null 2>"$T/z.err"
is "$? $(grep -c "'0'" "$T/z.err")" "1 1" "--streams 0: exit 1 naming it"
"$AB" run -d "$d" --phases sweep --shared-file >/dev/null 2>"$T/z.err"
is "$? $(grep -c 'needs --streams' "$T/z.err")" "1 1" "--shared-file without --streams: exit 1 saying so"

# The built-in mirror workload (a mirror site's file serving), at a tiny size: 4 streams, each going
# through its files (here 2 of 1 MiB) in one timed region.
"$AB" run -d "$d" --workload mirror --sweep-file-sizes 1m --sweep-files 2 --json "$T/w.json" >"$T/w.out" 2>"$T/w.err"
is $? 0 "--workload mirror (1 MiB files, 2 a stream) exits 0" || sed 's/^/#   /' "$T/w.err"
is "$(js "$T/w.json" '[c["key"]["test"] for c in cells]')" '["write", "read", "random-read", "random-write"]' \
	"... runs the seed's sequential and random reads and writes"
is "$(js "$T/w.json" 'sorted(set((c["key"]["streams"], c["bytes"], len(c["per_worker"])) for c in cells))')" \
	"[[4, 8388608, 4]]" "... with 4 streams, each through 2 files"
is "$(js "$T/w.json" '[o["config"]["files_per_stream"], o["config"]["stride"], o["config"]["shared_file"]]')" \
	"[2, 17, false]" "the JSON states files per stream, stride and sharing"
grep -q 'each stream goes through 2 files' "$T/w.out"; ok $? "the table says each stream went through 2 files"

# More files a stream than open descriptors allowed: each file done with is
# closed in the timed region, or under --untimed-flush (which syncs them all
# after the clock) the worker raises its limit; both run whole.
limited() { bash -c 'ulimit '"$1"' 256 && shift && exec "$@"' _ "$@"; } # -Sn|-n command...: 256 descriptors
limited -Sn "$AB" run -d "$d" --phases sweep --sweep-file-sizes 64k --sweep-records 64k --sweep-tests write \
	--sweep-files 1100 --json "$T/f.json" -q >/dev/null 2>"$T/f.err" &&
	limited -Sn "$AB" run -d "$d" --phases sweep --sweep-file-sizes 64k --sweep-records 64k --sweep-tests write \
		--sweep-files 1100 --untimed-flush --json "$T/f.json" -q >/dev/null 2>>"$T/f.err"
is $? 0 "1100 files a stream under a soft limit of 256 descriptors run, timed either way" ||
	sed 's/^/#   /' "$T/f.err"
is "$(python3 -c 'import json, sys
print([json.loads(l)["phases"][0]["bytes"] for l in open(sys.argv[1])])' "$T/f.json")" "[72089600, 72089600]" \
	"... every file written"
limited -n "$AB" run -d "$d" --phases sweep --sweep-file-sizes 64k --sweep-records 64k --sweep-tests write \
	--sweep-files 1100 --untimed-flush -q >/dev/null 2>"$T/f.err"
is $? 2 "under a hard limit of 256, --untimed-flush's 1100 open files fail the phase (exit 2)"
grep -q "1100 files a stream stay open until the untimed fsync" "$T/f.err"; ok $? "... saying why" ||
	sed 's/^/#   /' "$T/f.err"

# Bad input: one line naming the value, exit 1.
"$AB" run -d "$d" --phases sweep --sweep-tests write,bogus >/dev/null 2>"$T/b.err"
is $? 1 "an unknown sweep test exits 1"
grep -q "'bogus'" "$T/b.err"; ok $? "... naming it"
# A sweep alone has no CSV line: the table is its results on screen, on
# stdout or, with -q, on stderr; one that cannot be written is exit 5.
"$AB" run -d "$d" --phases sweep --sweep-file-sizes 64k --sweep-records 64k --sweep-tests write >&- 2>/dev/null
is $? 5 "a sweep alone with stdout closed exits 5"
"$AB" run -d "$d" --phases sweep --sweep-file-sizes 64k --sweep-records 64k --sweep-tests write \
	--json "$T/q.json" -q >/dev/null 2>/dev/full
is $? 5 "... and with -q, stderr full, exits 5"
is "$(js "$T/q.json" 'len(cells)')" 1 "... the results whole in --json"

# --sweep-csv on the file of --json or --csv (by another name too, here a
# hard link; a symbolic link is refused as any output's is): refused before
# anything runs, or its rows would spoil a file report reads.
: >"$T/same.json"; ln "$T/same.json" "$T/same-link"
"$AB" run -d "$d" --phases sweep --sweep-file-sizes 64k --sweep-records 64k --sweep-tests write \
	--json "$T/same.json" --sweep-csv "$T/same-link" -q >/dev/null 2>"$T/same.err"
is $? 1 "--sweep-csv naming the --json file exits 1"
grep -q "refusing --sweep-csv '$T/same-link': it is the file of --json" "$T/same.err"; ok $? "... saying so"
[ ! -s "$T/same.json" ]; ok $? "... before anything is written"
dir_is_empty "$d"; ok $? "the sweeps left nothing in DIR"

# Free space, on a 16 MiB tmpfs: a sweep file that cannot fit is refused
# before any phase runs, and the space an earlier phase's file holds counts
# as free (the sweep truncates that file first).
if is_root; then
	mkdir "$T/small"
	if mount -t tmpfs -o size=16m tmpfs "$T/small"; then
		cleanup_add "umount '$T/small'"
		"$AB" run -d "$T/small" --phases block-write,sweep -s 8m -n 0 --cache none -r 0 --sweep-file-sizes 32m \
			--sweep-records 1m --sweep-tests write >/dev/null 2>"$T/small.err"
		is $? 3 "a sweep file larger than the free space exits 3"
		! grep -q "phase 'block-write'" "$T/small.err" && grep -q "phase 'sweep' needs 32M (the 32M test file)" "$T/small.err"
		ok $? "... before the phases before it run" || sed 's/^/#   /' "$T/small.err"
		"$AB" run -d "$T/small" --phases block-write,sweep -s 8m -n 0 --cache none -r 0 --sweep-file-sizes 12m \
			--sweep-records 1m --sweep-tests write -q >/dev/null 2>"$T/small.err"
		is $? 0 "an 8m block-write then a 12m sweep fit in 16m: exit 0" || sed 's/^/#   /' "$T/small.err"
		dir_is_empty "$T/small"; ok $? "... leaving nothing"
		umount "$T/small"
	else
		skip "cannot mount a tmpfs"
	fi
else
	skip "mounting a tmpfs needs root"
fi

# ramfs counts no blocks (statvfs: none free): the sweep cannot tell its
# space, so it runs; it has no O_DIRECT, which -D reports in one line.
if is_root; then
	mkdir "$T/ram"
	if mount -t ramfs ramfs "$T/ram"; then
		cleanup_add "umount '$T/ram'"
		"$AB" run -d "$T/ram" --phases sweep --sweep-file-sizes 64k --sweep-records 64k -q >/dev/null 2>"$T/ram.err"
		is $? 0 "a sweep on ramfs (no block counts) runs: exit 0" || sed 's/^/#   /' "$T/ram.err"
		"$AB" run -d "$T/ram" --phases sweep --sweep-file-sizes 64k --sweep-records 64k -D -q >/dev/null 2>"$T/ram.err"
		is $? 2 "-D on ramfs (no O_DIRECT) exits 2"
		grep -q "cannot open '$T/ram/arraybench\..*\.io' with O_DIRECT" "$T/ram.err"; ok $? "... saying O_DIRECT failed"
		dir_is_empty "$T/ram"; ok $? "... leaving nothing"
		umount "$T/ram"
	else
		skip "cannot mount a ramfs"
	fi
else
	skip "mounting a ramfs needs root"
fi

# -u: the test file's directory is the user's, who may put a hard link to
# another file by its name between two cells.  The parent (root) evicts,
# measures and at the end empties the file: it must refuse what is not the
# run's file.  The victim is the user's own but read-only to them (mode
# 400), so only root could empty it.  The swaps are made while the parent
# is held between two cells (after it closes the first cell's file).
if is_root && id nobody >/dev/null 2>&1; then
	chmod 711 "$T"
	hab=$(ab_for_others nobody)
	mkdir "$T/h"; chown nobody "$T/h"; chmod 700 "$T/h"
	printf 'precious\n' >"$T/victim"; chown nobody "$T/victim"; chmod 400 "$T/victim"
	rid=link-$$
	ARRAYBENCH_RUN_ID=$rid hold "$T/h.trace" exit close 1 "$T/h/arraybench.$rid.io" \
		"$hab" run -d "$T/h" --phases sweep --sweep-file-sizes 64k --sweep-records 4k-64k --sweep-tests write,read \
		-u nobody --cache none -r 16 -q >/dev/null 2>"$T/h.err"
	hold_reached && su nobody -s /bin/sh -c "ln -f '$T/victim' '$T/h/arraybench.$rid.io'"
	hold_release
	wait $held
	is "$?" 2 "-u: a hard link swapped in for the test file fails the sweep: exit 2"
	is "$(cat "$T/victim")" precious "... and root never empties the file it points to"
	# ... or a sparse file of an exabyte, its own (on a tmpfs, which takes
	# one): root's mincore of it, a window at a time, took hours and did
	# not heed Ctrl-C.  Only the cell's size is looked at.
	mkdir "$T/sparse"
	if mount -t tmpfs -o size=64m tmpfs "$T/sparse"; then
		cleanup_add "umount '$T/sparse'"
		chown nobody "$T/sparse"; chmod 700 "$T/sparse"
		rid=sparse-$$
		ARRAYBENCH_RUN_ID=$rid hold "$T/sparse.trace" exit close 1 "$T/sparse/arraybench.$rid.io" \
			"$hab" run -d "$T/sparse" --phases sweep \
			--sweep-file-sizes 16m --sweep-records 4k --sweep-tests read,random-read,backward-read,stride-read,fread \
			-u nobody --cache none -r 16 -q >/dev/null 2>"$T/sparse.err"
		hold_reached && su nobody -s /bin/sh -c "truncate -s 1E '$T/sparse/big' && mv -f '$T/sparse/big' '$T/sparse/arraybench.$rid.io'"
		hold_release
		await "ended $held" $HANG_AFTER || kill -KILL $held # it took hours, when it hung
		wait $held
		st=$?
		[ "$st" != 137 ]; ok $? "-u: a sparse exabyte in the test file's place does not hang the sweep (exit $st)"
		umount "$T/sparse"
	else
		skip "cannot mount a tmpfs"
	fi
else
	skip "-u needs root"
fi
done_testing
