#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every phase on a temp dir with tiny sizes; every CSV line goes through the
# real bon_csv2txt and bon_csv2html without complaint; JSON is valid.
. "$(dirname "$0")/lib.sh"
plan 25
d=$T/dir; mkdir "$d"
read -r -a cache <<<"$(cache_args)"

"$AB" run -d "$d" -s 32m -n 1:4k:1k:2 -m tester -z 42 "${cache[@]}" \
	--csv "$T/out.csv" --json "$T/out.json" >"$T/stdout" 2>"$T/stderr"
is $? 0 "run with every phase exits 0"
dir_is_empty "$d"; ok $? "nothing is left in DIR"
line=$(tail -1 "$T/stdout")
is "$(echo "$line" | awk -F, '{print NF}')" 50 "the CSV line has 50 fields"
is "$(echo "$line" | cut -d, -f1-9)" "1.98,arraybench-0.1.0,tester,1,42,32M,,8192,5" "fields 0-8"
is "$(echo "$line" | cut -d, -f22-26)" "1,4096,1024,2," "file fields 21-25 in the documented layout"
is "$(cat "$T/out.csv")" "$line" "--csv appends the same line"
[ ${#line} -lt 1000 ]; ok $? "the line is under 1000 bytes"
for p in per-char-write block-write rewrite per-char-read block-read seeks seq-create seq-stat \
	seq-delete rand-create rand-stat rand-delete; do
	grep -q "^$p " "$T/stdout" || { echo "# missing $p"; false; }
done; ok $? "the table has a row per phase"

grep -Eq '^cache +(cgroup-v[12] limit 16M|none) +direct no +data random' "$T/stdout"; ok $? "the table states cache, direct and data mode"
bon_csv2txt <"$T/out.csv" >"$T/txt" 2>"$T/txt.err"
is "$(cat "$T/txt.err")" "" "bon_csv2txt prints nothing on stderr"
grep -q 'tester' "$T/txt"; ok $? "bon_csv2txt shows the machine"
grep -Eq '^tester +32M::8192:5' "$T/txt"; ok $? "size and seek fields land under Name:Size"
bon_csv2html "$T/out.csv" >"$T/html" 2>"$T/html.err"
is "$(cat "$T/html.err")" "" "bon_csv2html prints nothing on stderr"
grep -q '<td class="rowheader"[^>]*>tester' "$T/html" || grep -q 'tester' "$T/html"; ok $? "bon_csv2html renders the row"
grep -q 'Num Dirs' "$T/html"; ok $? "the directory count shows under Num Dirs"

python3 - "$T/out.json" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert len(objs) == 1
o = objs[0]
assert o["format"] == "arraybench-run" and o["format_version"] == 1
assert o["seed"] == 42
names = [p["name"] for p in o["phases"]]
assert len(names) == 12, names
for p in o["phases"]:
    for k in ("rate", "cpu_percent", "cache_mode", "sync_mode", "latency_us", "measurable", "direct"):
        assert k in p, (p["name"], k)
    l = p["latency_us"]
    assert l["p50"] <= l["p90"] <= l["p99"] <= l["p99_9"] <= l["max"], (p["name"], l)
PY
ok $? "the JSON object has every phase with rate, cpu, percentiles, cache and sync mode"

# Seekers really fork.
for n in 3 12; do
	"$AB" run -d "$d" -s 32m:8k:600:$n -n 0 -f "${cache[@]}" --phases seeks --json "$T/s$n.json" -q \
		>"$T/s$n.csv" 2>/dev/null
	is $? 0 "seeks with $n seekers exits 0"
	bon_csv2html "$T/s$n.csv" 2>&1 >/dev/null | grep -q . && echo "# html complained for $n"
	is "$(python3 -c "import json;print(json.load(open('$T/s$n.json'))['phases'][0]['workers'])")" "$n" \
		"$n seeker processes ran"
done
"$AB" run -d "$d" -s 32m -n 0 -f "${cache[@]}" --phases seeks --seekers 28 --json "$T/s28.json" -q \
	>"$T/s28.csv" 2>/dev/null
is "$(python3 -c "import json;print(json.load(open('$T/s28.json'))['phases'][0]['workers'])")" 28 \
	"--seekers 28 forks 28"
bon_csv2txt <"$T/s28.csv" 2>"$T/err28" >/dev/null
is "$(cat "$T/err28")" "" "a seeks-only line is accepted by bon_csv2txt"
is "$(grep -vc '^1\.98,' "$T/s28.csv")" 0 "with -q stdout holds only CSV lines"
is "$(cut -d, -f9 "$T/s28.csv")" 28 "the seeker count is in field 8"
dir_is_empty "$d"; ok $? "nothing is left in DIR after the seek runs"
