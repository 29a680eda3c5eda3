#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every phase on a temp dir with tiny sizes; every CSV line goes through the
# real bon_csv2txt and bon_csv2html without complaint; JSON is valid.
. "$(dirname "$0")/lib.sh"
d=$T/dir; mkdir "$d"
read -r -a cache <<<"$(cache_args)"

"$AB" run -d "$d" -s 32m -n 1:4k:1k:2 -m tester -z 42 "${cache[@]}" \
	--csv "$T/out.csv" --json "$T/out.json" >"$T/stdout" 2>"$T/stderr"
is $? 0 "run with every phase exits 0"
dir_is_empty "$d"; ok $? "nothing is left in DIR"
line=$(tail -1 "$T/stdout")
is "$(echo "$line" | awk -F, '{print NF}')" 50 "the CSV line has 50 fields"
seeks=$(echo "$line" | cut -d, -f8)
is "$(echo "$line" | cut -d, -f1-9)" "1.98,arraybench-0.1.0,tester,1,42,32M,,$seeks,5" "fields 0-8"
# No --seeks: the count doubles from 8192 until the phase lasts 1 s.
is "$(python3 -c "
import json; o = json.load(open('$T/out.json')); p = [p for p in o['phases'] if p['name'] == 'seeks'][0]
c = o['config']['seeks']
print(c == $seeks, c >= 8192, c & (c - 1) == 0, p['ops'] == c, p['elapsed_s'] >= 1.0, o['config']['seeks_given'])")" \
	"True True True True True False" "seeks grew from 8192 to $seeks, doubling, until the phase lasted 1 s"
is "$(echo "$line" | cut -d, -f22-26)" "1,4096,1024,2," "file fields 21-25 in the documented layout"
is "$(cat "$T/out.csv")" "$line" "--csv appends the same line"
[ ${#line} -lt 1000 ]; ok $? "the line is under 1000 bytes"
for p in per-char-write block-write rewrite per-char-read block-read seeks seq-create seq-stat \
	seq-delete rand-create rand-stat rand-delete; do
	grep -q "^$p " "$T/stdout" || { echo "# missing $p"; false; }
done; ok $? "the table has a row per phase"

grep -Eq '^cache +(cgroup-v2 limit 16M|cgroup-v1 limit 16M write-behind|none) +direct no +data random' "$T/stdout"; ok $? "the table states cache, direct and data mode"
bon_csv2txt <"$T/out.csv" >"$T/txt" 2>"$T/txt.err"
is "$(cat "$T/txt.err")" "" "bon_csv2txt prints nothing on stderr"
# bon_csv2txt gives name and size 19 columns: a long seek count cuts the name.
grep -q '^test' "$T/txt"; ok $? "bon_csv2txt shows the machine"
grep -Eq "^test[a-z]* +32M::$seeks:5 " "$T/txt"; ok $? "size and seek fields land under Name:Size"
bon_csv2html "$T/out.csv" >"$T/html" 2>"$T/html.err"
is "$(cat "$T/html.err")" "" "bon_csv2html prints nothing on stderr"
grep -q '<td class="rowheader"[^>]*>tester' "$T/html" || grep -q 'tester' "$T/html"; ok $? "bon_csv2html renders the row"
grep -q 'Num Dirs' "$T/html"; ok $? "the directory count shows under Num Dirs"

python3 - "$T/out.json" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert len(objs) == 1
o = objs[0]
assert o["format"] == "arraybench-run" and o["format_version"] == 2
assert o["seed"] == 42
names = [p["name"] for p in o["phases"]]
assert len(names) == 12, names
for p in o["phases"]:
    for k in ("rate", "cpu_percent", "cache_mode", "sync_mode", "latency_ns", "measurable", "direct", "key"):
        assert k in p, (p["name"], k)
    l = p["latency_ns"]
    assert l["p50"] <= l["p90"] <= l["p99"] <= l["p99_9"] <= l["max"], (p["name"], l)
PY
ok $? "the JSON object has every phase with rate, cpu, percentiles, cache and sync mode"

# Seekers really fork.
for n in 3 12; do
	"$AB" run -d "$d" -s 32m:8k:600:$n -n 0 -f "${cache[@]}" --phases seeks --json "$T/s$n.json" -q \
		>"$T/s$n.csv" 2>/dev/null
	is $? 0 "seeks with $n seekers exits 0"
	is "$(bon_csv2html "$T/s$n.csv" 2>&1 >/dev/null)" "" "bon_csv2html takes the $n-seeker line silently"
	is "$(python3 -c "import json;print(json.load(open('$T/s$n.json'))['phases'][0]['workers'])")" "$n" \
		"$n seeker processes ran"
	# Each seeker reports itself: distinct real processes, taking seeks
	# from one queue, so each seek is taken once and their counts add up
	# to the total.  (Not that the counts differ: on a loaded machine
	# three seekers can take 200 each.)
	is "$(python3 -c "
import json; p = json.load(open('$T/s$n.json'))['phases'][0]; w = p['per_worker']
pids = [x['pid'] for x in w]; ops = [x['ops'] for x in w]
print(len(w), len(set(pids)), all(x > 1 for x in pids), sum(ops) == p['ops'] == 600,
      all(0 < x['elapsed_s'] <= p['elapsed_s'] for x in w))")" "$n $n True True True" \
		"$n seekers: distinct pids, one queue (counts summing to 600, each seek taken once), their own times"
done
"$AB" run -d "$d" -s 32m -n 0 -f "${cache[@]}" --phases seeks --seekers 28 --json "$T/s28.json" -q \
	>"$T/s28.csv" 2>/dev/null
is "$(python3 -c "import json;print(json.load(open('$T/s28.json'))['phases'][0]['workers'])")" 28 \
	"--seekers 28 forks 28"
bon_csv2txt <"$T/s28.csv" 2>"$T/err28" >/dev/null
is "$(cat "$T/err28")" "" "a seeks-only line is accepted by bon_csv2txt"
is "$(grep -vc '^1\.98,' "$T/s28.csv")" 0 "with -q stdout holds only CSV lines"
is "$(cut -d, -f9 "$T/s28.csv")" 28 "the seeker count is in field 8"
is "$(python3 -c "
import json; p = json.load(open('$T/s28.json'))['phases'][0]
print(len(set(x['pid'] for x in p['per_worker'])), sum(x['ops'] for x in p['per_worker']) == p['ops'])")" \
	"28 True" "28 seekers report 28 pids and their ops add up"
dir_is_empty "$d"; ok $? "nothing is left in DIR after the seek runs"
done_testing
