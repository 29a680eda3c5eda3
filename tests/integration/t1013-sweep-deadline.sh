#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The sweep's deadline (--stonewall-time, IOR's -D) and wear-out (--wearout,
# IOR's stoneWallingWearOut) on one host: a write cut short by the deadline
# and a read of exactly what it wrote; every stream worn out to the largest
# count; the text and --compare; bad values refused.  A disk slow to write
# is made to order by the test-only switch ARRAYBENCH_TEST_STREAM_DELAY_US
# (src/suite/sweep-run.c: "K:US,...", stream K, or "*" for every one,
# sleeps US microseconds after each record it writes).
. "$(dirname "$0")/lib.sh"
d=$T/dir; mkdir "$d"
read -r -a cache <<<"$(cache_args)"

# 16 MiB a stream in 16 KiB records: 1024 records, over 2 s at 2 ms each,
# so a 0.4 s deadline cuts every write well short of its file.
sweep=(--phases sweep --sweep-file-sizes 16m --sweep-records 16k --sweep-tests write,read --streams 2)
ws='[c for c in cells if c["key"]["test"] == "write"][0]'
rs='[c for c in cells if c["key"]["test"] == "read"][0]'

# (a) The deadline cuts the write; the read reads what was written.
ARRAYBENCH_TEST_STREAM_DELAY_US='*:2000' "$AB" run -d "$d" "${sweep[@]}" --stonewall-time 0.4 "${cache[@]}" \
	--json "$T/a.json" >"$T/a.out" 2>"$T/a.err"
is $? 0 "a sweep with a 0.4 s deadline on a slow disk exits 0" || sed 's/^/#   /' "$T/a.err"
is "$(js "$T/a.json" "all(0 < w['bytes'] < 16 << 20 and w['bytes'] % 16384 == 0 for w in $ws['per_worker'])")" true \
	"the deadline cut each stream's write short of its 16 MiB, on a whole record"
is "$(js "$T/a.json" "all(w['bytes'] == w['bytes_at_deadline'] for w in $ws['per_worker'])")" true \
	"without wear-out a stream stops at the deadline: its bytes are its bytes at the deadline"
is "$(js "$T/a.json" "[w['bytes'] for w in $rs['per_worker']] == [w['bytes'] for w in $ws['per_worker']]")" true \
	"each stream's read moved exactly what its write wrote, no more"
is "$(js "$T/a.json" "[$ws['stonewall_time_s'], $ws['wearout'], $rs['stonewall_time_s'], o['config']['stonewall_time_s'], o['config']['wearout']]")" \
	"[0.4, false, 0.4, 0.4, false]" "each cell and the run's config record the deadline and no wear-out"
is "$(js "$T/a.json" "$ws['min_bytes_at_deadline'] == min(w['bytes_at_deadline'] for w in $ws['per_worker']) and $ws['max_bytes_at_deadline'] == max(w['bytes_at_deadline'] for w in $ws['per_worker'])")" \
	true "the cell's least and most bytes at the deadline are its streams'"
is "$(js "$T/a.json" "0.4 <= $ws['deadline_counted_s'] < 1 and abs($ws['deadline_rate'] - sum(w['bytes_at_deadline'] for w in $ws['per_worker']) / 1024 / $ws['deadline_counted_s']) < 0.01")" \
	true "the rate at the deadline is their sum over 0.4 s, or the little more until the last count (KiB/s)"
grep -q '^deadline each stream.s timed I/O stopped 0.4 s after its start; later tests' "$T/a.out"
ok $? "the text says the deadline above the grid"
grep -q '^ *streams .*least done  *deadline$' "$T/a.out"; ok $? "and the streams table has a deadline column"

# The deadline's figures survive a JSON round trip, and reach the sweep's
# CSV (named columns) and the HTML page (a line under each map's cell).
"$AB" report --format json "$T/a.json" >"$T/a2.json" 2>"$T/a2.err"
is "$(js "$T/a2.json" "[[c['deadline_rate'], c['deadline_counted_s'], c['min_bytes_at_deadline'], c['max_bytes_at_deadline'], c['stonewall_time_s'], c['wearout']] for c in cells]")" \
	"$(js "$T/a.json" "[[c['deadline_rate'], c['deadline_counted_s'], c['min_bytes_at_deadline'], c['max_bytes_at_deadline'], c['stonewall_time_s'], c['wearout']] for c in cells]")" \
	"report --format json gives every cell's deadline figures back as they were"
"$AB" report "$T/a2.json" >"$T/a2.out" 2>&1
diff <(grep -A3 '^ *streams .*deadline$' "$T/a.out") <(grep -A3 '^ *streams .*deadline$' "$T/a2.out") >/dev/null
ok $? "and its text shows the same streams table, deadline column and all"
"$AB" report --format sweep-csv "$T/a.json" >"$T/a.csv" 2>"$T/a.csv.err"
is "$(python3 - "$T/a.csv" "$T/a.json" <<'PY'
import csv, json, sys
rows = {r["test"]: r for r in csv.DictReader(open(sys.argv[1]))}
o = [json.loads(l) for l in open(sys.argv[2])][-1]
w = [p for p in o["phases"] if p["name"] == "sweep" and p["key"]["test"] == "write"][0]
r = rows["write"]
print(r["deadline_s"] == "0.400" and r["wearout"] == "0"
      and int(r["least_at_deadline_kib"]) == w["min_bytes_at_deadline"] // 1024
      and int(r["most_at_deadline_kib"]) == w["max_bytes_at_deadline"] // 1024
      and abs(float(r["deadline_kib_s"]) - w["deadline_rate"]) < 0.1
      and abs(float(r["deadline_counted_s"]) - w["deadline_counted_s"]) < 1e-5)
PY
)" True "the sweep's CSV has the deadline, wear-out, least and most done at it, its rate and seconds"
"$AB" report --html "$T/a.html" "$T/a.json" >/dev/null 2>&1
grep -q '<br>deadline 0.4 s: each square.s rate at it in its tip' "$T/a.html" && grep -q '; at the deadline [0-9.]* MiB/s</title>' "$T/a.html"
ok $? "the HTML page says the deadline under the map's cell and each square's rate at it in its tip"

# (b) Wear-out: stream 1 writes five times slower; every stream ends at the
# largest count any had at the deadline.
ARRAYBENCH_TEST_STREAM_DELAY_US='*:2000,1:10000' "$AB" run -d "$d" "${sweep[@]}" --stonewall-time 0.4 --wearout \
	"${cache[@]}" --json "$T/b.json" >"$T/b.out" 2>"$T/b.err"
is $? 0 "the same with --wearout and stream 1 throttled exits 0" || sed 's/^/#   /' "$T/b.err"
is "$(js "$T/b.json" "[w['bytes_at_deadline'] for w in $ws['per_worker']][1] < [w['bytes_at_deadline'] for w in $ws['per_worker']][0]")" \
	true "the throttled stream had done less at the deadline"
is "$(js "$T/b.json" "sorted(set(w['bytes'] for w in $ws['per_worker'])) == [$ws['max_bytes_at_deadline']]")" true \
	"every stream's write ended at the largest count at the deadline"
is "$(js "$T/b.json" "[w['bytes'] for w in $rs['per_worker']] == [w['bytes'] for w in $ws['per_worker']]")" true \
	"and each read moved that much"
is "$(js "$T/b.json" "[$ws['wearout'], o['config']['wearout']]")" "[true, true]" "the cell and the config record the wear-out"
grep -q 'then went on to the largest count any stream had then (wear-out)' "$T/b.out"; ok $? "the text says so"

# (e) Records larger than the deadline: a 1 MiB record takes 0.3 s, the
# deadline is 0.1 s; each count is taken when its record ends.  The rate at
# the deadline is over the time until then, never bytes over 0.1 s that
# took three times as long.
ARRAYBENCH_TEST_STREAM_DELAY_US='*:300000' "$AB" run -d "$d" --phases sweep --sweep-file-sizes 4m --sweep-records 1m \
	--sweep-tests write,read --stonewall-time 0.1 "${cache[@]}" --json "$T/e.json" >"$T/e.out" 2>"$T/e.err"
is $? 0 "a deadline shorter than one record exits 0" || sed 's/^/#   /' "$T/e.err"
is "$(js "$T/e.json" "[w['bytes_at_deadline'] for w in $ws['per_worker']] + [w['bytes'] for w in $rs['per_worker']]")" \
	"[1048576, 1048576]" "the write stopped after its first record, the read read that record only"
is "$(js "$T/e.json" "$ws['deadline_counted_s'] >= 0.3 and $ws['deadline_rate'] <= 1024 / $ws['deadline_counted_s'] + 0.01")" \
	true "the rate at the deadline is over the time the record took, not over 0.1 s"

# (f) A deadline longer than the test cuts nothing: every file whole, and
# the rate at the deadline is over the time the streams took, never their
# bytes over 30 s nobody waited.
"$AB" run -d "$d" --phases sweep --sweep-file-sizes 4m --sweep-records 64k --sweep-tests write,read --streams 2 \
	--stonewall-time 30 "${cache[@]}" --json "$T/f.json" >"$T/f.out" 2>"$T/f.err"
is $? 0 "a 30 s deadline on a test of a moment exits 0" || sed 's/^/#   /' "$T/f.err"
is "$(js "$T/f.json" "sorted(set(w['bytes'] for c in cells for w in c['per_worker'])) == [4 << 20] and $ws['max_bytes_at_deadline'] == 4 << 20")" \
	true "every stream wrote and read its whole file, all of it counted at the deadline"
is "$(js "$T/f.json" "$ws['deadline_counted_s'] < 30 and abs($ws['deadline_rate'] - (8 << 10) / $ws['deadline_counted_s']) < 0.01")" \
	true "the rate at the deadline is over the time until the streams ended, not 30 s"
grep -q '^deadline 30 s after each stream.s start: no stream reached it, every test ran whole$' "$T/f.out"
ok $? "the text says that no stream reached the deadline"

# report --compare: another deadline or wear-out is another condition.
"$AB" report --compare "$T/a.json" "$T/b.json" >"$T/c.out" 2>"$T/c.err"
is $? 0 "report --compare takes both runs" || sed 's/^/#   /' "$T/c.err"
is "$(grep -c '^sweep write 16m/16k x2 deadline 0.4s (KiB/s' "$T/c.out") $(grep -c '^sweep write 16m/16k x2 deadline 0.4s wearout (KiB/s' "$T/c.out")" \
	"1 1" "and puts the write cells with and without wear-out in columns of their own"

# (d) Bad values: one line naming the value, exit 1; nothing runs.
bad() { # want-text args...
	local text=$1; shift
	"$AB" run -d "$d" "$@" >"$T/out" 2>"$T/err"
	local st=$?
	if [ "$st" = 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF -- "$text" "$T/err"; then
		ok 0 "exit 1, one line naming '$text', for: $*"
	else
		ok 1 "exit 1, one line naming '$text', for: $* (exit $st)"; sed 's/^/#   /' "$T/err"
	fi
}
for v in 0 -1 abc 0x10 nan 1e3 0.0001 90000 ''; do
	bad "invalid --stonewall-time '$v'" "${sweep[@]}" --stonewall-time "$v"
done
bad "--wearout needs --stonewall-time" "${sweep[@]}" --wearout
bad "--stonewall-time applies to the record-size sweep" -s 32m --phases block-write --stonewall-time 1
bad "--wearout applies to the record-size sweep" -s 32m --phases block-write --wearout
dir_is_empty "$d"; ok $? "nothing is left in DIR"

done_testing
