#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The oltp phase: its processes run at once, at the asked mix of preads and
# pwrites on block-aligned offsets, O_DIRECT and the periodic fdatasync
# seen in the syscalls; its rows in the table and the JSON; bad values
# refused with one line.
. "$(dirname "$0")/lib.sh"
export ARRAYBENCH_STATE_DIR=$T/state
d=$T/dir; mkdir "$d"
size=$((32 * 1048576))

# strace -ff's files PREFIX.PID, one a process (so no call is split), as one
# line per process that made 8k preads or pwrites: "pid preads pwrites
# fdatasyncs first-op last-op bad first-sync last-sync", bad counting
# transfers not of BLOCK bytes at a BLOCK-aligned offset inside SIZE.
per_pid() { # prefix size block
	python3 - "$@" <<'PY'
import glob, re, sys
prefix, size, block = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
io = re.compile(r'^([0-9.]+) (pread64|pwrite64)\(.*, ([0-9]+), ([0-9]+)\) += (-?[0-9]+)')
for f in sorted(glob.glob(prefix + ".*"), key=lambda f: int(f.rsplit(".", 1)[1])):
    n = {"pread64": 0, "pwrite64": 0}; syncs = 0; first = last = None; bad = 0; fs = ls = 0.0
    for line in open(f, errors="replace"):
        m = io.match(line)
        if m:
            t, call, length, off = float(m[1]), m[2], int(m[3]), int(m[4])
            if length != block and length < 4096:
                continue  # the dynamic loader's reads of the parent's ELF headers
            n[call] += 1
            first = t if first is None else first
            last = t
            bad += length != block or off % block != 0 or off + block > size
        elif " fdatasync(" in line:
            syncs += 1
            ls = float(line.split()[0])
            fs = fs or ls
    if n["pread64"] + n["pwrite64"]:
        print(f.rsplit(".", 1)[1], n["pread64"], n["pwrite64"], syncs, "%.6f" % first, "%.6f" % last, bad,
              "%.6f" % fs, "%.6f" % ls)
PY
}
parent_trace() { # prefix: the run's own process's file, the lowest pid
	ls "$1".* | awk -F. '{ print $NF, $0 }' | sort -n | head -1 | cut -d' ' -f2-
}
need strace

# Four processes, buffered, 70:30 by default.
strace -ff -ttt -e trace=pread64,pwrite64,fdatasync -o "$T/a.trace" \
	"$AB" run -d "$d" -s 32m -r 0 --cache fadvise --phases oltp --oltp-procs 4 --oltp-seconds 2 \
	--json "$T/a.json" >"$T/a.out" 2>"$T/a.err"
is $? 0 "oltp with 4 processes exits 0" || sed 's/^/#   /' "$T/a.err"
traced_whole "$(parent_trace "$T/a.trace")"
per_pid "$T/a.trace" $size 8192 >"$T/a.pids"
is "$(wc -l <"$T/a.pids")" 4 "four processes pread and pwrite"
# They ran at once: the latest first operation comes before the earliest last one.
is "$(awk 'NR == 1 || $5 > f { f = $5 } NR == 1 || $6 < l { l = $6 } END { print (f < l) ? "overlap" : "apart" }' "$T/a.pids")" \
	overlap "and all four were working at the same time"
mix=$(awk '{ r += $2; w += $3 } END { printf "%.1f", 100 * r / (r + w) }' "$T/a.pids")
ok "$(awk -v m="$mix" 'BEGIN { print (m >= 67 && m <= 73) ? 0 : 1 }')" "preads are 70 % of the I/O, within 3 ($mix %)"
is "$(awk '{ s += $7 } END { print s + 0 }' "$T/a.pids")" 0 "every transfer is 8k at an 8k-aligned offset inside the 32m file"
is "$(awk '{ s += $4 } END { print s + 0 }' "$T/a.pids")" 0 "no fdatasync without --oltp-sync-every"
is "$(js "$T/a.json" '[r["key"]["test"] for r in res]')" '["read", "write", "all"]' "three rows: read, write, all"
is "$(js "$T/a.json" 'sorted(set((r["key"]["streams"], r["key"]["record_size_bytes"], r["key"]["file_size_bytes"], r["workers"]) for r in res))')" \
	"[[4, 8192, $size, 4]]" "keyed by processes, block and the file's size"
is "$(js "$T/a.json" 'rows["all"]["ops"] == rows["read"]["ops"] + rows["write"]["ops"] and abs(rows["all"]["rate"] - rows["read"]["rate"] - rows["write"]["rate"]) < 1e-6 * rows["all"]["rate"]')" \
	true "all is the sum of reads and writes, over one window"
traced=$(awk '{ r += $2; w += $3 } END { print r, w }' "$T/a.pids")
is "$(js "$T/a.json" '"%d %d" % (rows["read"]["ops"], rows["write"]["ops"])')" "$traced" "the counts are the traced preads and pwrites"
is "$(js "$T/a.json" 'all(r["unit"] == "IOPS" and r["latency_ns"]["samples"] == r["ops"] and r["latency_ns"]["p99"] >= r["latency_ns"]["p50"] for r in res)')" \
	true "each row has IOPS and its own latency percentiles"
is "$(js "$T/a.json" 'all(r["cache_state"] == "cold" and r["resident_at_start"] < 0.05 and r["sync_mode"] == "none" and r["direct"] is False for r in res)')" \
	true "cold (evicted, nothing resident at start), no sync, buffered"
is "$(js "$T/a.json" 'all(1.9 < r["elapsed_s"] < 3 for r in res)')" true "they ran the 2 seconds asked"
# (a rate under 1000 has one decimal, as every rate in the text: a loaded
# machine writes fewer than 1000 IOPS)
is "$(grep -cE '^oltp x4 (read|write|all) +[0-9]+(\.[0-9])? IOPS' "$T/a.out")" 3 "the table has the three rows"
is "$(ls -A "$d")" "" "the run leaves nothing in DIR"

# A list of counts, O_DIRECT, a memory cgroup cap when there is one.
strace -ff -e trace=openat -o "$T/b.trace" \
	"$AB" run -d "$d" -s 32m $(cache_args) --phases oltp --oltp-procs 1,3 --oltp-seconds 1 --direct \
	--json "$T/b.json" >"$T/b.out" 2>"$T/b.err"
is $? 0 "--direct with --oltp-procs 1,3 exits 0" || sed 's/^/#   /' "$T/b.err"
traced_whole "$(parent_trace "$T/b.trace")"
is "$(cat "$T/b.trace".* | grep -F '.io", O_RDWR|' | grep -F 'O_DIRECT' | grep -vc ' = -1 ')" 4 \
	"each of the 1 + 3 processes opens the file O_RDWR|O_DIRECT"
is "$(js "$T/b.json" '[(r["key"]["streams"], r["key"]["test"]) for r in res]')" \
	'[[1, "read"], [1, "write"], [1, "all"], [3, "read"], [3, "write"], [3, "all"]]' "a row set per count, in order"
is "$(js "$T/b.json" 'all(r["direct"] is True and r["cache_state"] == "cold" for r in res)')" true "direct and cold"

# An fdatasync after every 3rd write of each process, 50:50.
strace -ff -ttt -e trace=pread64,pwrite64,fdatasync -o "$T/c.trace" \
	"$AB" run -d "$d" -s 32m -r 0 --cache fadvise --phases oltp --oltp-procs 2 --oltp-seconds 1 \
	--oltp-mix 50:50 --oltp-sync-every 3 --json "$T/c.json" >"$T/c.out" 2>"$T/c.err"
is $? 0 "--oltp-sync-every 3 exits 0" || sed 's/^/#   /' "$T/c.err"
traced_whole "$(parent_trace "$T/c.trace")"
per_pid "$T/c.trace" $size 8192 >"$T/c.pids"
is "$(awk '$4 != int($3 / 3) { bad++ } END { print NR, bad + 0 }' "$T/c.pids")" "2 0" \
	"each of the 2 processes issues one fdatasync per 3 of its pwrites"
is "$(js "$T/c.json" 'rows["all"]["sync_mode"]')" "fdatasync every 3 writes per process, timed with that write" \
	"the sync mode says so"

# Commits under load: the committer alone, then beside 3 oltp processes,
# released together.
strace -ff -ttt -e trace=pread64,pwrite64,fdatasync -o "$T/w.trace" \
	"$AB" run -d "$d" -s 32m -r 0 --cache fadvise --phases oltp+wal --oltp-procs 3 --oltp-seconds 2 \
	--json "$T/w.json" >"$T/w.out" 2>"$T/w.err"
is $? 0 "--phases oltp+wal exits 0" || sed 's/^/#   /' "$T/w.err"
traced_whole "$(parent_trace "$T/w.trace")"
per_pid "$T/w.trace" $size 8192 >"$T/w.pids"
# The oltp processes pread; the committers (one a run) do not.
awk '$2 > 0' "$T/w.pids" >"$T/w.oltp"; awk '$2 == 0' "$T/w.pids" | sort -k8 >"$T/w.wal"
is "$(wc -l <"$T/w.oltp") $(wc -l <"$T/w.wal")" "3 2" "three oltp processes, a committer alone and one under load"
# Every oltp process was working over [f, l]; the loaded committer synced
# all through it, give or take a commit (0.1 s, or two of its commits'
# mean length if longer: a disk shared with other jobs can make one
# fdatasync take that long), and the lone one was done before any began.
is "$(awk 'NR == FNR { if (FNR == 1 || $5 > f) f = $5; if (FNR == 1 || $6 < l) l = $6; if (FNR == 1 || $5 < e) e = $5; next }
	FNR == 1 { alone = ($9 < e) }
	FNR == 2 { s = $4 > 1 ? 2 * ($9 - $8) / ($4 - 1) : 0; if (s < 0.1) s = 0.1
		under = ($8 < f + s && $9 > l - s && l - f > 1.5)
		if (!under) printf "# f %.3f l %.3f, the committer synced from %.3f to %.3f, give or take %.3f\n", f, l, $8, $9, s >"/dev/stderr" }
	END { print alone " " under }' "$T/w.oltp" "$T/w.wal" 2>"$T/w.why")" "1 1" \
	"the loaded committer overlaps every oltp process; the lone one ran before them" || cat "$T/w.why"
is "$(js "$T/w.json" '[(p["name"], p["key"]["test"]) for p in o["phases"]]')" \
	'[["wal", "fdatasync"], ["wal", "fdatasync under oltp"], ["oltp", "read under wal"], ["oltp", "write under wal"], ["oltp", "all under wal"]]' \
	"rows: commits alone, commits under oltp, and the load's read, write and all"
is "$(js "$T/w.json" '" ".join(str(p["ops"]) for p in o["phases"] if p["name"] == "wal")')" \
	"$(awk '{ printf "%s%d", (NR > 1 ? " " : ""), $4 }' "$T/w.wal")" "each wal row's commits are its committer's traced fdatasyncs"
is "$(js "$T/w.json" 'all(1.9 < p["elapsed_s"] < 3 and p["unit"] == ("commits/s" if p["name"] == "wal" else "IOPS") for p in o["phases"])')" \
	true "both roles ran the oltp's 2 seconds, each in its unit"
grep -qE '^fdatasync under oltp +8k +1 ' "$T/w.out"; ok $? "the wal table shows the commits under oltp beside the commits alone"
is "$(ls -A "$d")" "" "nothing is left in DIR"

# A data file larger than the free space is refused before its layout.
if is_root && make_loop_fs "$T/small" 64; then
	"$AB" run -d "$T/small" -s 32m -r 0 --cache fadvise --phases oltp --oltp-size 128 -q >/dev/null 2>"$T/space.err"
	is $? 3 "a data file that cannot fit is refused (exit 3)"
	grep -q "phase 'oltp' needs 128M (the 128M test file), [0-9]*M is free" "$T/space.err"
	ok $? "saying how much it needs and has"
	# oltp+wal's logs sit beside its data file: 40 + 16 MiB on some 50
	# free is refused up front, not by ENOSPC on the first log (exit 2).
	"$AB" run -d "$T/small" -s 8m -r 0 --cache fadvise --phases oltp+wal --oltp-size 40 --oltp-procs 1 \
		--oltp-seconds 1 -q >/dev/null 2>"$T/space2.err"
	is "$? $(grep -c "phase 'oltp+wal' needs 56M (the 40M test file and 1 wal log of 16M)" "$T/space2.err")" "3 1" \
		"oltp+wal whose data file and logs cannot fit together is refused before it runs (exit 3)"
	[ -z "$(ls -A "$T/small" | grep -vx 'lost+found')" ]
	ok $? "... and leaves nothing in DIR"
	# Only what the steps write counts: oltp's 16m data file, not the
	# 300m -s default no step of this run writes.
	"$AB" run -d "$T/small" -r 0 --cache fadvise --phases oltp --oltp-size 16 --oltp-procs 1 --oltp-seconds 1 \
		-q >/dev/null 2>"$T/space3.err"
	is "$?:$(grep -c '^arraybench: error' "$T/space3.err")" "0:0" \
		"--phases oltp --oltp-size 16 runs on 50 MiB free (the -s default is not written)"
	[ -z "$(ls -A "$T/small" | grep -vx 'lost+found')" ]
	ok $? "... and leaves nothing in DIR"
else
	skip "needs root to make a small loop file system"
fi

# Bad values: one line, exit 1, before anything is made.
bad=0
for args in "--oltp-mix 60:30" "--oltp-mix 70" "--oltp-procs 0" "--oltp-procs 300" "--oltp-block 3000" \
	"--oltp-seconds 0" "--oltp-sync-every 0" "--oltp-size 0" "--oltp-size 1500k" \
	"--direct --oltp-block 1k" "--oltp-mix 100:0 --oltp-sync-every 2"; do
	"$AB" run -d "$d" -s 32m -r 0 --cache fadvise --phases oltp $args >"$T/bad.out" 2>"$T/bad.err"
	st=$?
	if [ $st != 1 ] || [ "$(wc -l <"$T/bad.err")" != 1 ] || [ -s "$T/bad.out" ] || ! grep -q oltp "$T/bad.err"; then
		echo "# $args: exit $st, $(wc -l <"$T/bad.err") lines: $(head -c 200 "$T/bad.err")"; bad=1
	fi
done
is $bad 0 "bad oltp values are refused with one line and exit 1"
"$AB" run -d "$d" -s 32m -r 0 --cache fadvise --phases seeks --oltp-procs 4 >/dev/null 2>"$T/bad.err"
is $? 1 "an --oltp option without the oltp phase is refused"
grep -q -- "--phases oltp" "$T/bad.err"; ok $? "and says to ask for it"
is "$(ls -A "$d")" "" "nothing is left in DIR"
done_testing
