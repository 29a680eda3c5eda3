#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The database profile (workloads/profiles/database.ini) at tiny sizes: its four
# steps run in one run (wal with four methods and three commit sizes, oltp
# with 8 and 32 processes, commits beside 32 oltp processes, the latency
# curve with 32 processes), and the text ends with the sizing statement
# whose every figure is the one the JSON holds; report of the JSON says the
# same.  An option of a phase some step runs applies to that step only; an
# option of a phase no step runs is still refused.
. "$(dirname "$0")/lib.sh"
d=$T/dir; mkdir "$d"
read -r -a cache <<<"$(cache_args)"

# Short steps: the user's options change every step that has their phase.
"$AB" run --workload database -d "$d" -s 64m "${cache[@]}" --wal-seconds 0.2 --oltp-seconds 1 \
	--curve-seconds 0.3 --rate-start 1000 --curve-steps 4 --json "$T/db.json" >"$T/db.out" 2>"$T/db.err"
is $? 0 "--workload database with short steps exits 0" || sed 's/^/#   /' "$T/db.err"
is "$(js "$T/db.json" 'o["workload"]')" database "the JSON names the profile"
is "$(js "$T/db.json" '" ".join(sorted({p["name"] for p in o["phases"]}))')" "latency-curve oltp wal" \
	"its results are wal, oltp and latency-curve rows"
# wal: 4 methods x 3 sizes, then oltp+wal's fdatasync alone and under 32.
is "$(js "$T/db.json" 'sum(p["name"] == "wal" and p["key"]["pass"] == 1 and "under" not in p["key"]["test"] for p in o["phases"])')" \
	12 "the wal step: 4 methods x (8k, 2x8k, 16k) commits"
is "$(js "$T/db.json" '" ".join(p["key"]["test"] for p in o["phases"] if p["name"] == "wal" and p["key"]["pass"] == 2)')" \
	"fdatasync" "the commits alone of the oltp+wal step are the second fdatasync 8k row"
is "$(js "$T/db.json" '" ".join(str(p["key"]["streams"]) + ":" + p["key"]["test"] for p in o["phases"] if p["name"] == "oltp" and p["key"]["test"].startswith("all"))')" \
	"8:all 32:all 32:all under wal" "oltp with 8 and 32 processes, and 32 under the commits"
is "$(js "$T/db.json" '[p["key"]["streams"] for p in o["phases"] if p["name"] == "latency-curve" and p["key"]["test"] == "sizing"]')" \
	"[32]" "one latency curve of 32 processes ends in its sizing row"

# The statement: each figure as the JSON has it.
sed -n '/^sizing, read off the tables above:$/,$p' "$T/db.out" >"$T/stmt"
is "$(wc -l <"$T/stmt")" 6 "the text ends with the sizing statement: a heading and five lines"
want=$(js "$T/db.json" '(lambda b: "  commits: %s/s at p99 " % rate(b["rate"]) + "%s (" + b["key"]["test"] + ", the best of 4 methods; 8 KiB commits, 1 writer)")(max((p for p in o["phases"] if p["name"] == "wal" and p["key"]["pass"] == 1 and p["key"]["record_size_bytes"] == 8192 and " " not in p["key"]["test"]), key=lambda p: p["rate"]))')
got=$(sed -n 2p "$T/stmt" | sed 's/p99 [0-9.]*[mun]*s (/p99 %s (/')
is "$got" "$want" "commits: the best 8k method of the wal step, by name, of four"
want=$(js "$T/db.json" '(lambda a, l: "  commits under load: %s/s at p99 X beside 32 oltp processes (fdatasync; alone, same step: %s/s at p99 X)" % (rate(l["rate"]), rate(a["rate"])))(*[next(p for p in o["phases"] if p["name"] == "wal" and p["key"]["test"] == t and p["key"]["pass"] == n) for t, n in (("fdatasync", 2), ("fdatasync under oltp", 1))])')
got=$(sed -n 3p "$T/stmt" | sed 's/p99 [0-9.]*[mun]*s/p99 X/g')
is "$got" "$want" "commits under load: beside 32 processes, with the same step's commits alone"
want=$(js "$T/db.json" '(lambda a, r: "  random 8 KiB, closed loop: %s IOPS with 32 processes, %.0f%% reads" % (rate(a["rate"]), 100 * r["rate"] / a["rate"]))(*[next(p for p in o["phases"] if p["name"] == "oltp" and p["key"]["streams"] == 32 and p["key"]["test"] == t) for t in ("all", "read")])')
got=$(sed -n 4p "$T/stmt" | sed 's/; read p99 .*//')
is "$got" "$want" "oltp: the IOPS of 32 processes and their share of reads"
sed -n 4p "$T/stmt" | grep -qE '; read p99 [0-9.]+(us|ms|s), write p99 [0-9.]+(us|ms|s)$'
ok $? "... with the read and the write p99"
# How much of the 64m data file the cache could hold: the cgroup's limit
# (-r 16: a quarter) or, uncapped, the machine's RAM (all of it).
want=$(js "$T/db.json" '(lambda f, lim: "    the page cache could hold " + ("%.0f%% of its 64 MiB data file (the memory cgroup\x27s limit, 16 MiB): once warm, about that share of its reads may come from memory" % (100.0 * lim / f) if lim else "all of its 64 MiB data file (the machine\x27s RAM, %.1f GiB): once warm, its reads may come from memory, not the disks" % (o["environment"]["ram_bytes"] / 2**30)))(next(p["key"]["file_size_bytes"] for p in o["phases"] if p["name"] == "oltp"), o["cache"]["limit_bytes"])')
is "$(sed -n 5p "$T/stmt")" "$want" "oltp: how much of its data file the page cache could hold, from the JSON's cache limit"
# A loaded machine may meet no rate at 10 ms: the JSON's null rate says so,
# and the line must then say it too (what the line says follows the JSON,
# whatever the machine managed).
want=$(js "$T/db.json" '(lambda s: "  random 8 KiB reads: " + ("no rate tried met p99 <= 10.00ms" if s["rate"] is None else "%s IOPS at p99 <= 10.00ms" % rate(s["rate"])) + " with 32 processes")(next(p for p in o["phases"] if p["name"] == "latency-curve" and p["key"]["test"] == "sizing"))')
got=$(sed -n 6p "$T/stmt" | sed 's/ (.*)$//')
is "$got" "$want" "random reads: the curve's sizing answer at the 10 ms target"

"$AB" report "$T/db.json" >"$T/rep.out" 2>"$T/rep.err"
sed -n '/^sizing, read off the tables above:$/,$p' "$T/rep.out" >"$T/rep.stmt"
cmp -s "$T/stmt" "$T/rep.stmt"
ok $? "report of the JSON ends with the same statement"

# A bonnie++ run says nothing of sizing.
"$AB" run -d "$d" -s 32m -f -n 0 "${cache[@]}" -q >"$T/b.out" 2>"$T/b.err"
is "$? $(grep -c '^sizing' "$T/b.out")" "0 0" "a run of bonnie++'s phases has no sizing statement"

# Options of a phase no step runs are refused, naming the option.
"$AB" run --workload database -d "$d" -s 64m "${cache[@]}" --sweep-records 4k >"$T/o" 2>"$T/e"
is "$? $(cat "$T/e")" \
	"1 arraybench: error: database.ini:13: [step wal]: --sweep-records applies to the record-size sweep, which is not asked for (--phases sweep)" \
	"--workload database --sweep-records: refused, no step sweeps"
"$AB" run --workload mirror -d "$d" --wal-seconds 1 "${cache[@]}" >"$T/o" 2>"$T/e"
grep -q "wal-seconds applies to the wal phase, which is not asked for" "$T/e"
ok $? "--workload mirror --wal-seconds: refused, no step has the wal phase"
done_testing
