#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The wal phase: each sync method issues its own call or open flag (seen by
# strace in the committers), the commits the JSON counts are the syncs the
# kernel saw, a group commit writes twice per sync, --wal-writers runs its
# committers at once, and bad values are refused in one line.
. "$(dirname "$0")/lib.sh"
d=$T/dir; mkdir "$d"
export ARRAYBENCH_STATE_DIR=$T/state

# The committers are the processes that opened a log read-write to lay it
# out (the parent only makes and empties the logs, write-only).
committers() { # trace: their pids
	awk '/openat\(.*"stream\.[0-9]+", O_RDWR/ { print $1 }' "$1" | sort -u
}
count_calls() { # trace call: how many the committers made
	local pids; pids=$(committers "$1" | tr '\n' ' ')
	awk -v pids=" $pids" -v call="$2(" 'index(pids, " " $1 " ") && index($0, call) && $0 !~ /resumed/ { n++ } END { print n + 0 }' "$1"
}
count_writes() { # trace size: the committers' pwrites of that size
	local pids; pids=$(committers "$1" | tr '\n' ' ')
	awk -v pids=" $pids" -v size="$2" 'index(pids, " " $1 " ") && /pwrite64\(/ && $0 ~ ", " size ", [0-9]+\\) = " size "$" { n++ } END { print n + 0 }' "$1"
}
log_opens() { # trace: the flags the committers opened their log with for the method
	local pids; pids=$(committers "$1" | tr '\n' ' ')
	awk -v pids=" $pids" 'index(pids, " " $1 " ") && /openat\(.*"stream\.[0-9]+", O_WRONLY/ { print }' "$1"
}
run_traced() { # name args...: arraybench run of the wal phase under strace
	local name=$1; shift
	rm -f "$T/$name.trace"
	strace -f --seccomp-bpf -ttt -e trace=fdatasync,fsync,openat,pwrite64,fadvise64 -s 0 -o "$T/$name.trace" \
		"$AB" run -d "$d" --phases wal --cache none -r 16 --json "$T/$name.json" -q "$@" >"$T/$name.out" 2>"$T/$name.err"
}

need strace python3
# Each method for a third of a second: the JSON's commits are the syncs seen.
for m in fdatasync fsync open_datasync open_sync; do
	run_traced "$m" --wal-sync "$m" --wal-seconds 0.3
	is $? 0 "--wal-sync $m exits 0" || sed 's/^/#   /' "$T/$m.err"
	traced_whole "$T/$m.trace"
	commits=$(js "$T/$m.json" 'w[0]["ops"]')
	fds=$(count_calls "$T/$m.trace" fdatasync)
	fss=$(count_calls "$T/$m.trace" fsync)
	opens=$(log_opens "$T/$m.trace")
	case $m in
	fdatasync)
		[ "$commits" -gt 0 ] && [ "$fds" = "$commits" ] && [ "$fss" = 1 ]
		ok $? "fdatasync: one fdatasync per commit ($commits commits, $fds fdatasync), fsync only to lay out ($fss)" ;;
	fsync)
		[ "$commits" -gt 0 ] && [ "$fss" = $((commits + 1)) ] && [ "$fds" = 0 ]
		ok $? "fsync: one fsync per commit and one to lay out ($commits commits, $fss fsync), no fdatasync ($fds)" ;;
	open_datasync)
		[ "$commits" -gt 0 ] && [ "$fds" = 0 ] && [ "$fss" = 1 ]
		ok $? "open_datasync: no sync call per commit ($fds fdatasync, $fss fsync to lay out)" ;;
	open_sync)
		[ "$commits" -gt 0 ] && [ "$fds" = 0 ] && [ "$fss" = 1 ]
		ok $? "open_sync: no sync call per commit ($fds fdatasync, $fss fsync to lay out)" ;;
	esac
	case $m in
	open_datasync) printf '%s\n' "$opens" | grep -q 'O_DSYNC' && ! printf '%s\n' "$opens" | grep -q 'O_SYNC' ;;
	open_sync) printf '%s\n' "$opens" | grep -q 'O_SYNC' ;;
	*) [ -n "$opens" ] && ! printf '%s\n' "$opens" | grep -q 'O_D\?SYNC' ;;
	esac
	ok $? "$m: the log is opened $(case $m in open_datasync) echo with O_DSYNC;; open_sync) echo with O_SYNC;; *) echo without O_DSYNC or O_SYNC;; esac)"
	is "$(count_writes "$T/$m.trace" 8192)" "$commits" "$m: one 8k write per commit"
	is "$(js "$T/$m.json" '[w[0]["key"]["test"], w[0]["key"]["record_size_bytes"], w[0]["key"]["streams"], w[0]["key"]["file_size_bytes"], w[0]["unit"]]')" \
		"[\"$m\", 8192, 1, 16777216, \"commits/s\"]" "$m: keyed by method, commit bytes, writers and log size, in commits/s"
done
is "$(js "$T/open_datasync.json" '[w[0]["timed"], w[0]["direct"], w[0]["cache_state"]]')" '[["pwrite"], false, "warm"]' \
	"open_datasync times the write alone, buffered, warm"
is "$(js "$T/fdatasync.json" 'w[0]["timed"]')" '["pwrite", "fdatasync"]' "fdatasync times the write and the fdatasync"

# A group commit: two 8k writes, then one sync; and the 16k one-write commit.
run_traced group --wal-sync fdatasync --wal-records 2x8k,16k --wal-commits 25
is $? 0 "--wal-records 2x8k,16k exits 0" || sed 's/^/#   /' "$T/group.err"
traced_whole "$T/group.trace"
is "$(count_writes "$T/group.trace" 8192)" 50 "2x8k: two 8k writes per commit (25 commits)"
is "$(count_writes "$T/group.trace" 16384)" 25 "16k: one 16k write per commit"
is "$(count_calls "$T/group.trace" fdatasync)" 50 "one fdatasync per commit of each"
is "$(js "$T/group.json" '[[r["key"]["test"], r["key"]["record_size_bytes"], r["ops"], r["bytes"]] for r in w]')" \
	'[["fdatasync 2x8k", 16384, 25, 409600], ["fdatasync", 16384, 25, 409600]]' \
	"the group commit is test 'fdatasync 2x8k', both 16k a commit"
is "$(js "$T/group.json" 'w[0]["timed"]')" '["pwrite", "pwrite", "fdatasync"]' "its timed calls: two writes, one sync"
grep -qE '^fdatasync 2x8k +16k +1 +[0-9.]+ +no ' "$T/group.err"; ok $? "the text table has a row for the group commit"

# The log's pages dropped after its layout (any --cache but none), before
# the first commit; under --cache none (the runs above) not.
run_traced cold --wal-sync fdatasync --wal-commits 20 --cache fadvise -r 0
is $? 0 "--cache fadvise exits 0" || sed 's/^/#   /' "$T/cold.err"
pids=$(committers "$T/cold.trace" | tr '\n' ' ')
order=$(awk -v pids=" $pids" 'index(pids, " " $1 " ") && (/fadvise64\(.*POSIX_FADV_DONTNEED/ || /fsync\(/ || / = 8192$/) {
	print (/fadvise64/ ? "drop" : /fsync\(/ ? "fsync" : "commit") }' "$T/cold.trace" | uniq | tr '\n' ' ')
is "$order" "fsync drop commit " "the layout's fsync, then the pages dropped, then the commits"
is "$(js "$T/cold.json" 'w[0]["cache_state"]')" cold "the commits' cache state is cold"
pids=$(committers "$T/fdatasync.trace" | tr '\n' ' ')
is "$(awk -v pids=" $pids" 'index(pids, " " $1 " ") && /fadvise64\(/' "$T/fdatasync.trace" | wc -l)" 0 \
	"under --cache none nothing is dropped (warm)"

# --wal-rewrite: pg_test_fsync's pattern, every commit at offsets 0 and 8k.
run_traced rewrite --wal-sync fdatasync --wal-records 2x8k --wal-commits 20 --wal-rewrite
is $? 0 "--wal-rewrite exits 0" || sed 's/^/#   /' "$T/rewrite.err"
pids=$(committers "$T/rewrite.trace" | tr '\n' ' ')
offsets=$(awk -v pids=" $pids" 'index(pids, " " $1 " ") && /pwrite64\(/ && / = 8192$/ { sub(/\) = 8192$/, ""); n = split($0, a, ", "); print a[n] }' \
	"$T/rewrite.trace" | sort -n | uniq -c | awk '{ printf "%s@%s ", $1, $2 }')
is "$offsets" "20@0 20@8192 " "--wal-rewrite: the 20 commits write at offsets 0 and 8k only"
is "$(js "$T/rewrite.json" 'w[0]["key"]["test"]')" "fdatasync 2x8k rewrite" "and its test says so"
grep -q "('rewrite': every commit at the log's start instead, as pg_test_fsync)" "$T/rewrite.err"
ok $? "and the table's footnote"

# all: the four methods in pg_test_fsync's order, each its own result.
"$AB" run -d "$d" --phases wal --wal-sync all --wal-commits 5 --cache none -r 16 --json "$T/all.json" >"$T/all.out" 2>"$T/all.err"
is $? 0 "--wal-sync all exits 0" || sed 's/^/#   /' "$T/all.err"
is "$(js "$T/all.json" '" ".join(r["key"]["test"] for r in w)')" "open_datasync fdatasync fsync open_sync" \
	"all runs the four methods in pg_test_fsync's order"
is "$(grep -cE '^(open_datasync|fdatasync|fsync|open_sync) +8k +1 ' "$T/all.out")" 4 "the table has a row per method"
"$AB" report "$T/all.json" >"$T/rep.out" 2>&1
is "$(grep -cE '^(open_datasync|fdatasync|fsync|open_sync) +8k +1 ' "$T/rep.out")" 4 "report draws the same table from the JSON"
"$AB" report --format json "$T/all.json" >"$T/rep.json" 2>&1
cmp -s "$T/rep.json" "$T/all.json"; ok $? "the JSON reads back to itself byte for byte"
"$AB" report --compare "$T/all.json" "$T/group.json" >"$T/cmp.out" 2>&1
is $? 0 "report --compare takes wal runs"
"$AB" report --format csv "$T/all.json" >"$T/rep.csv" 2>&1
is "$(grep -c 'wal\|fdatasync' "$T/rep.csv")" 0 "the bonnie++ CSV line holds no wal figure"
is "$(ls -A "$d")" "" "the run leaves nothing in DIR"

# Three committers at once, each on its own log.
run_traced three --wal-writers 3 --wal-commits 40
is $? 0 "--wal-writers 3 exits 0" || sed 's/^/#   /' "$T/three.err"
is "$(committers "$T/three.trace" | wc -l)" 3 "three committer processes"
is "$(awk '/openat\(.*"stream\.[0-9]+", O_RDWR/ { match($0, /stream\.[0-9]+/); print substr($0, RSTART, RLENGTH) }' "$T/three.trace" | sort -u | tr '\n' ' ')" \
	"stream.1 stream.2 stream.3 " "each on a log of its own"
# At once: every committer made its first sync before any made its last.
overlap=$(pids=$(committers "$T/three.trace" | tr '\n' ' ') awk '
	BEGIN { n = split(ENVIRON["pids"], p, " "); for (i = 1; i <= n; i++) want[p[i]] = 1 }
	($1 in want) && /fdatasync\(/ && !/resumed/ { if (!($1 in first)) first[$1] = $2; last[$1] = $2 }
	END { maxfirst = 0; minlast = 1e18
	      for (k in first) { if (first[k] > maxfirst) maxfirst = first[k]; if (last[k] < minlast) minlast = last[k] }
	      print (length(first) == 3 && maxfirst < minlast) ? "yes" : "no" }' "$T/three.trace")
is "$overlap" yes "the three commit at the same time"
is "$(js "$T/three.json" '[w[0]["key"]["streams"], w[0]["workers"], w[0]["ops"], len(set(x["pid"] for x in w[0]["per_worker"]))]')" \
	"[3, 3, 120, 3]" "one result: streams 3, 3 workers, 120 commits"

# --direct: O_DIRECT opens (where the file system has it).
run_traced direct --direct --wal-sync open_datasync --wal-commits 10
if grep -q "O_DIRECT" "$T/direct.err"; then
	skip "no O_DIRECT on this file system"
else
	log_opens "$T/direct.trace" | grep -q 'O_DSYNC.*O_DIRECT\|O_DIRECT.*O_DSYNC'; ok $? "--direct opens the log with O_DIRECT"
fi

# Bad values: one line, exit 1.
bad() { # description args...
	local what=$1; shift
	"$AB" run -d "$d" "$@" >"$T/bad.out" 2>"$T/bad.err"
	local st=$?
	[ $st = 1 ] && [ "$(wc -l <"$T/bad.err")" = 1 ] && grep -q "^arraybench: error: $what" "$T/bad.err"
	ok $? "refused in one line, exit 1 ($st): $(cat "$T/bad.err")"
}
bad "invalid --wal-sync 'fdatasinc'" --phases wal --wal-sync fdatasinc
bad "invalid --wal-records '0x8k'" --phases wal --wal-records 0x8k
bad "invalid --wal-writers '0'" --phases wal --wal-writers 0
bad "invalid --wal-seconds '0'" --phases wal --wal-seconds 0
bad "invalid --wal-commits '-1'" --phases wal --wal-commits=-1
bad "--wal-sync applies to the wal phase" --wal-sync fsync
bad "--wal-seconds and --wal-commits exclude each other" --phases wal --wal-seconds 1 --wal-commits 5
done_testing
