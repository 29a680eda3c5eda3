#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every run counted once: report reads a run given twice (one file twice,
# one line twice in a file, a CSV line twice) once, with one warning; a
# file holding one run twice compares as n=1.
. "$(dirname "$0")/lib.sh"
plan 8
cd "$T" || exit 1
export ARRAYBENCH_STATE_DIR=$T/state
mkdir d

# One run read twice counts once.  Two repeats share a run id and stay two.
"$AB" run -d d -s 8m -r 0 -f -n 0 --seeks 2000 --cache none -x 2 --json r.json --csv r.csv -q >/dev/null 2>err
is "$? $(wc -l <r.json) $(wc -l <r.csv)" "0 2 2" "a run of 2 repeats wrote 2 JSON and 2 CSV lines"
n_of() { # report --compare's CSV: n of block-write and seeks
	python3 -c 'import csv, sys
print(" ".join(r["n"] for r in csv.DictReader(open(sys.argv[1])) if r["column"] in ("block-write", "seeks")))' "$1"
}
head -1 r.json >one.json; head -1 r.json >>one.json
"$AB" report --compare one.json >one.txt 2>one.err
is "$? $(head -1 one.txt | cut -d';' -f1)" "0 comparison of 1 group (1 run)" "a file holding one run twice compares one run"
"$AB" report --compare --format csv one.json >one.csv 2>/dev/null
is "$(n_of one.csv)" "1 1" "... n=1 for block-write and seeks (was 2, CV 0.0)"
is "$(cat one.err)" "arraybench: warning: 1 run read again was dropped: each run counts once (the first at 'one.json:2'; a run is known by its run id, repeat and cell, a line without a run id by its text)" \
	"... and one warning says so"
"$AB" report --compare --format csv r.json r.json >rr.csv 2>rr.err
is "$(n_of rr.csv) $(grep -c 'warning' rr.err) $(grep -c '2 runs read again were dropped' rr.err)" "2 2 1 1" \
	"report --compare R R: n=2 (the two repeats), one warning for the 2 dropped"
"$AB" report --compare r.csv r.csv >cc.txt 2>cc.err
is "$(head -1 cc.txt | cut -d';' -f1) $(grep -c '2 runs read again were dropped' cc.err)" "comparison of 1 group (2 runs) 1" \
	"CSV lines (no run id) are known by their text: the same file twice is 2 runs, not 4"
"$AB" report --format json r.json r.json >plain.json 2>/dev/null
is "$(wc -l <plain.json)" 2 "the plain formats print each run once"
"$AB" report --html p.html one.json >/dev/null 2>h.err
is "$? $(grep -c '1 run read again was dropped' h.err)" "0 1" "so does --html"

