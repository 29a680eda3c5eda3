#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench report --compare: real runs of two cells grouped and compared
# (n, best mark, ratios, the noise statement, --baseline, the CSV and JSON
# forms), crafted cells whose difference is or is not within the noise, a
# failed visit listed and not averaged, and seed 003's bonnie++ 1.03 lines
# in one table with a run of ours.
. "$(dirname "$0")/lib.sh"
fx=$top/tests/fixtures
cd "$T" || exit 1
export ARRAYBENCH_STATE_DIR=$T/state
mkdir d1 d2

# Two small real runs of 3 repeats each, then labelled as matrix cells.
for d in d1 d2; do
	"$AB" run -d "$d" -s 8m -r 0 -f -n 0 --seeks 2000 --cache none -x 3 --json "$d.json" -q >"$d.out" 2>"$d.err"
	is "$? $(wc -l <"$d.json")" "0 3" "a 3-repeat run in $d wrote 3 JSON lines"
done
label() { # file cell: set every line's "cell"
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l); d["cell"] = sys.argv[2]; print(json.dumps(d))' "$1" "$2"
}
label d1.json "ext4 defaults" >cells.json
label d2.json "ext4 noatime" >>cells.json

"$AB" report --compare cells.json >cmp.txt 2>cmp.err
is "$? $(cat cmp.err)" "0 " "report --compare exits 0, silent on stderr"
head -1 cmp.txt | grep -q "^comparison of 2 groups (6 runs); baseline: each table's first group with the figure"
ok $? "the header counts the groups and runs and says the default baseline is each table's first group with the figure"
block() { # file column: that column's table, title to blank line
	awk -v t="$2" 'index($0, t " (") == 1 { on = 1 } on && /^$/ { exit } on' "$1"
}
block cmp.txt block-write >bw.txt
is "$(grep -cE '^[* ] ext4 (defaults|noatime) +3 ' bw.txt)" 2 "block-write's table has both groups, each n=3"
is "$(grep -c '^\* ' bw.txt)" 1 "exactly one group is marked best"
grep -q "^  ext4 defaults .* baseline" bw.txt || grep -q "^\* ext4 defaults .* baseline" bw.txt
ok $? "the baseline's row says so"
grep -Eq "^[* ] ext4 noatime .* [0-9]+\.[0-9]{3} \[[0-9.]+, [0-9.]+\]  (within|beyond) noise: Welch p[=<][0-9.]+" bw.txt
ok $? "the other group has its ratio with an interval and the noise statement naming the test"
is "$(grep -cE '^(per-char|block-write|rewrite|block-read|seeks)[a-z-]* ' cmp.txt)" \
	"$(grep -cE '^(block-write|rewrite|block-read|seeks)( CPU| p99 latency)? \(' cmp.txt)" \
	"every table is of a phase that ran (none of the per-char phases -f skipped)"
grep -q "^block-write CPU (%, lower is better)" cmp.txt && grep -q "^block-write p99 latency (lower is better)" cmp.txt
ok $? "CPU and p99 latency are columns too, lower being better"

"$AB" report --compare --baseline "ext4 noatime" cells.json >base.txt 2>/dev/null
is "$? $(head -1 base.txt)" "0 comparison of 2 groups (6 runs); baseline 'ext4 noatime'" "--baseline names the group ratios are to"
block base.txt block-write | grep -q "^[* ] ext4 noatime .* baseline"
ok $? "and its row is the baseline"
"$AB" report --compare --baseline raid5 cells.json >bad.out 2>bad.err
is "$? $(wc -l <bad.err) $(wc -c <bad.out)" "1 1 0" "a --baseline that names no group: exit 1, one line, nothing on stdout"
grep -q "'raid5'.*'ext4 defaults', 'ext4 noatime'" bad.err; ok $? "the line names the label and the groups there are"
"$AB" report --baseline x cells.json >/dev/null 2>bad.err
is "$? $(cat bad.err)" "1 arraybench: error: --baseline needs --compare" "--baseline without --compare is refused"
"$AB" report --compare --format sweep-csv cells.json >/dev/null 2>bad.err
is "$?" 1 "--compare refuses --format sweep-csv"

"$AB" report --compare --format csv cells.json >cmp.csv 2>/dev/null
python3 - cmp.csv <<'PY' >csv.check
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bw = [r for r in rows if r["column"] == "block-write"]
cols = {r["column"] for r in rows}
print(len(rows) == 2 * len(cols), sorted(r["group"] for r in bw), [r["n"] for r in bw],
      sum(r["best"] == "1" for r in bw), [r["baseline"] for r in bw], bool(bw[1]["ratio_low"]),
      bw[1]["noise"] in ("within", "beyond"), float(bw[0]["ratio"]))
PY
is "$(cat csv.check)" "True ['ext4 defaults', 'ext4 noatime'] ['3', '3'] 1 ['1', '0'] True True 1.0" \
	"CSV: a row per column and group, named fields (n, best, baseline, ratio with interval, noise)"
"$AB" report --compare --format csv cells.json | cmp -s - cmp.csv
ok $? "the CSV is the same again (the bootstrap is seeded)"
"$AB" report --compare --format json cells.json >cmp.json 2>/dev/null
python3 - cmp.json <<'PY' >json.check
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text)
bw = [c for c in d["columns"] if c["column"] == "block-write"][0]
print(text.count("\n"), d["format"], d["baseline"], bw["baseline"], [g["label"] for g in d["groups"]],
      [g["n"] for g in bw["groups"]], all(len(c["groups"]) == 2 for c in d["columns"]),
      len(bw["groups"][1]["values"]), bw["better"])
PY
is "$(cat json.check)" "1 arraybench-compare None ext4 defaults ['ext4 defaults', 'ext4 noatime'] [3, 3] True 3 higher" \
	"JSON: one object on one line, the groups, n and every value; no --baseline: each column's first group"

# Crafted cells from one run's line: two overlapping, one twice as fast,
# and a failed visit that must not be averaged.
python3 - "$fx/arraybench-run.json" >craft.json <<'PY'
import json, sys
base = json.loads(open(sys.argv[1]).readline())
def line(cell, repeat, factor, failure=None):
    d = json.loads(json.dumps(base))
    d["cell"], d["repeat"], d["failure"] = cell, repeat, failure
    d["phases"] = [p for p in d["phases"] if p["name"] == "block-write"]
    d["phases"][0]["rate"] = 100000.0 * factor
    print(json.dumps(d))
for i, f in enumerate([1.00, 1.05, 0.96]): line("slow-a", i + 1, f)
for i, f in enumerate([1.02, 0.97, 1.04]): line("slow-b", i + 1, f)
for i, f in enumerate([2.00, 2.04, 1.97]): line("fast", i + 1, f)
line("fast", 4, 50, "mkfs.btrfs: device busy")
PY
"$AB" report --compare craft.json >craft.txt 2>craft.err
is "$? $(cat craft.err)" "0 " "report --compare of the crafted cells exits 0"
block craft.txt block-write >c.txt
grep -Eq "^  slow-b +3 .* within noise: Welch p=0\.[0-9]+" c.txt; ok $? "overlapping cells: 'within noise: Welch p=...'"
grep -Eq "^\* fast +3 .* (1\.99[0-9]|2\.0[0-9]{2}) \[[0-9.]+, [0-9.]+\]  beyond noise: Welch p" c.txt
ok $? "the fast cell is best, about twice the baseline, beyond the noise (the failed visit not averaged)"
grep -Eq "^  slow-a +3 .* baseline  3 under 0\.5 s \(too short for bonnie\+\+: \+\+\+\+\+\)$" c.txt
ok $? "rates of ours under 0.5 s are counted, and the row says how many"
grep -q "^block-write (KiB/s, higher is better): best fast; against the next, slow-b: beyond noise" c.txt
ok $? "the title names the best and how it stands against the next"
grep -q "^failed runs (listed, not averaged): 1$" craft.txt && grep -q "^  fast .*repeat 4 run .*: mkfs.btrfs: device busy$" craft.txt
ok $? "the failed visit is listed with its reason"
"$AB" report --compare --format json craft.json | python3 -c 'import json, sys
d = json.load(sys.stdin); print(d["failures"][0]["reason"], d["groups"][2]["failed"])' >f.check 2>&1
is "$(cat f.check)" "mkfs.btrfs: device busy 1" "the JSON lists it too"

# A rate cannot be negative: three wild repeats whose t interval passes 0
# (-195374 to 348640) get the log-scale interval, marked and explained,
# in the text, the CSV and JSON (ci_method) and the HTML page.
python3 - "$fx/arraybench-run.json" >wild.json <<'PY'
import json, sys
base = json.loads(open(sys.argv[1]).readline())
for cell, rates in (("wild", [9800.0, 17100.0, 203000.0]), ("calm", [100000.0, 104000.0, 98000.0])):
    for i, rate in enumerate(rates):
        d = json.loads(json.dumps(base))
        d["cell"], d["repeat"] = cell, i + 1
        d["phases"] = [p for p in d["phases"] if p["name"] == "rand-stat"]
        d["phases"][0]["rate"] = rate
        print(json.dumps(d))
PY
"$AB" report --compare wild.json >wild.txt 2>&1
block wild.txt rand-stat >w.txt
grep -Eq '^  wild +3 +17100 +76633 \[588\.9, 1782852\]\^ ' w.txt && ! grep -q '\[-' wild.txt && \
	grep -q "^'^' after a CI: the t interval passed below 0, which no figure here can; shown instead the$" wild.txt
ok $? "a t interval passing 0 is shown as the log-scale one, marked '^', with the legend" || sed 's/^/#   /' w.txt
"$AB" report --compare --format csv wild.json | python3 -c 'import csv, sys
r = {(x["column"], x["group"]): x for x in csv.DictReader(sys.stdin)}
print(r[("rand-stat", "wild")]["ci_method"], r[("rand-stat", "calm")]["ci_method"], float(r[("rand-stat", "wild")]["ci_low"]) > 0)' >wc.check 2>&1
is "$(cat wc.check)" "log-t t True" "the CSV names each interval's method (ci_method), the low end positive"
"$AB" report --compare --format json wild.json | python3 -c 'import json, sys
d = json.load(sys.stdin); c = next(c for c in d["columns"] if c["column"] == "rand-stat")
print([(g["group"], g["ci_method"], g["ci_low"] > 0) for g in c["groups"]])' >wj.check 2>&1
is "$(cat wj.check)" "[('wild', 'log-t', True), ('calm', 't', True)]" "the JSON names it too"
"$AB" report --html wild.html wild.json >/dev/null 2>&1
grep -q '<td class="n">588.9 &#8211; [0-9]*^</td>' wild.html && grep -q '<p class="note">^ after a CI: ' wild.html &&
	! grep -q '&#8211; -\|CI -' wild.html
ok $? "the HTML table and bar show the same interval, marked, never a negative end"

# Seed 003's bonnie++ 1.03 lines beside a run of ours, in one table.
"$AB" report --compare "$fx/bonnie-1.03-seed003.csv" d1.json >seed.txt 2>seed.err
is "$? $(cat seed.err)" "0 " "report --compare of seed 003's 1.03 lines and our run exits 0"
head -1 seed.txt | grep -q "^comparison of 3 groups (6 runs); baseline: each table's first group"
ok $? "groups: the 1.03 lines' machines (sage-ora2, debian) and our machine"
block seed.txt block-write >s.txt
is "$(grep -cE "^[* ] (sage-ora2 +1 +142941|debian +2 +170740|$(hostname) +3 )" s.txt)" 3 \
	"block-write: sage-ora2's 142941, debian's two lines and our three repeats in one table"
grep -Eq "^[* ] debian +2 .* 1\.194 \[[0-9.]+, [0-9.]+\]|^[* ] debian +2 .* 1\.194  " s.txt
ok $? "debian's ratio to sage-ora2 (170740 / 142941 = 1.194)"
block seed.txt seq-create | grep -Eq "^  debian +0 +\+\+\+\+\+ .*2 \+\+\+\+\+ \(too short to measure\) not counted"
ok $? "bonnie++'s +++++ figures are shown as such and not counted"
grep -q "^  warning  conditions-differ  \[all groups\]: the groups ran different file sizes: 'sage-ora2' 7.8G; 'debian' 31.7G; '.*' 8M: their figures are not comparable$" seed.txt
ok $? "a finding says the groups ran different file sizes"
"$AB" report --compare cells.json >&- 2>closed.err
is "$?" 5 "a closed standard output: exit 5"
done_testing
